#!/bin/sh
# GP 1.1 compatibility: one TA source built through the kit with
# CFG_TA_OPTEE_CORE_API_COMPAT_1_1=y and without, run side by side; memref
# sizes (uint32_t against size_t) both ways, short buffers included.
. "$(dirname "$0")/common.sh"

copy "$SWTEE_SOURCE/tests/devkit/compat" compat
build "$WORK/compat" > "$WORK/build" 2>&1 || { cat "$WORK/build"; fail "does not build"; }
# The 1.1 TA has the kit's 1.3 entry points around its own __GP11_ ones.
nm -D --defined-only "$WORK/compat/ta11/c51e2c6d-5c79-4159-80c4-2bd29c4a4f22.elf" |
	grep -q ' TA_InvokeCommandEntryPoint$' || fail "the 1.1 TA exports no 1.3 entry point"
nm "$WORK/compat/ta11/c51e2c6d-5c79-4159-80c4-2bd29c4a4f22.elf" |
	grep -q ' __GP11_TA_InvokeCommandEntryPoint$' || fail "the 1.1 TA has no __GP11_ entry point"
nm -D --undefined-only "$WORK/compat/ta11/c51e2c6d-5c79-4159-80c4-2bd29c4a4f22.elf" |
	grep -q '__GP11_TEE_GetPropertyAsString' || fail "the 1.1 TA does not call the __GP11_ function"
absent="$(missing_gp "$WORK/compat/ta11/c51e2c6d-5c79-4159-80c4-2bd29c4a4f22.elf")"
[ -z "$absent" ] || skip "the TA runtime does not provide yet: $absent"
mkdir "$WORK/tas"
cp "$WORK"/compat/ta1?/*.ta "$WORK/tas/"
run "$WORK/tas" "$WORK/log" "$WORK/compat/host/devkit_compat" ||
	fail "the GP 1.1 and 1.3 TAs do not both behave"
echo "PASS: GP 1.1 and 1.3 TAs side by side"
