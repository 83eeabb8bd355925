#!/bin/sh
# Bad input stops the kit with a message that names the problem, and leaves
# no signed TA behind.
. "$(dirname "$0")/common.sh"

UUID=0f1e2d3c-4b5a-4968-8776-655443322110
OTHER=11111111-2222-4333-8444-555555555555

# template DIR: a TA that builds.
template() {
	mkdir -p "$1/include"
	printf 'BINARY = %s\ninclude $(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk\n' "$UUID" > "$1/Makefile"
	printf 'global-incdirs-y += include\nsrcs-y += t.c\n' > "$1/sub.mk"
	cat > "$1/include/user_ta_header_defines.h" <<H
#define TA_UUID { 0x0f1e2d3c, 0x4b5a, 0x4968, { 0x87, 0x76, 0x65, 0x54, 0x43, 0x32, 0x21, 0x10 } }
#define TA_FLAGS 0
#define TA_STACK_SIZE 1024
#define TA_DATA_SIZE 1024
H
	cat > "$1/t.c" <<C
#include <tee_internal_api.h>
TEE_Result TA_CreateEntryPoint(void) { return TEE_SUCCESS; }
void TA_DestroyEntryPoint(void) { }
TEE_Result TA_OpenSessionEntryPoint(uint32_t t, TEE_Param p[4], void **s) { return TEE_SUCCESS; }
void TA_CloseSessionEntryPoint(void *s) { }
TEE_Result TA_InvokeCommandEntryPoint(void *s, uint32_t c, uint32_t t, TEE_Param p[4])
{
	return TEE_SUCCESS;
}
C
}

# expect NAME MESSAGE [MAKE ARGS...]: the build in $WORK/NAME fails, says MESSAGE.
expect() {
	name=$1
	msg=$2
	shift 2
	if make -C "$WORK/$name" TA_DEV_KIT_DIR="$KIT" "$@" > "$WORK/$name.log" 2>&1; then
		cat "$WORK/$name.log"
		fail "$name: the build succeeded"
	fi
	if ! grep -qF -- "$msg" "$WORK/$name.log"; then
		cat "$WORK/$name.log"
		fail "$name: the message does not say: $msg"
	fi
	if ls "$WORK/$name"/*.ta 2>/dev/null | grep -q .; then
		fail "$name: a .ta was left behind"
	fi
	echo "ok: $name: $(grep -F -- "$msg" "$WORK/$name.log" | head -1)"
}

template "$WORK/good"
make -C "$WORK/good" TA_DEV_KIT_DIR="$KIT" > "$WORK/good.log" 2>&1 ||
	{ cat "$WORK/good.log"; fail "the template TA does not build"; }

template "$WORK/missing_source"
echo 'srcs-y += nothere.c' >> "$WORK/missing_source/sub.mk"
expect missing_source "sub.mk lists nothere.c in srcs-y, but nothere.c does not exist"

template "$WORK/missing_subdir"
echo 'subdirs-y += lib' >> "$WORK/missing_subdir/sub.mk"
expect missing_subdir "subdirs-y names lib, which has no sub.mk"

template "$WORK/no_defines"
rm "$WORK/no_defines/include/user_ta_header_defines.h"
expect no_defines "no user_ta_header_defines.h in the TA's directory or its global-incdirs-y"

template "$WORK/no_uuid"
sed -i '/TA_UUID/d' "$WORK/no_uuid/include/user_ta_header_defines.h"
expect no_uuid "TA_UUID is not defined: set it in user_ta_header_defines.h"
grep -q "ta_dev_kit: cannot build the TA header from include/user_ta_header_defines.h" \
	"$WORK/no_uuid.log" || fail "no_uuid: the kit does not name the header"

template "$WORK/uuid_mismatch"
sed -i "s/$UUID/$OTHER/" "$WORK/uuid_mismatch/Makefile"
expect uuid_mismatch "BINARY is $OTHER but TA_UUID in user_ta_header_defines.h is $UUID"

template "$WORK/not_a_uuid"
sed -i "s/$UUID/hello/" "$WORK/not_a_uuid/Makefile"
expect not_a_uuid "BINARY=hello is not a UUID"

template "$WORK/no_binary"
sed -i "/BINARY/d" "$WORK/no_binary/Makefile"
expect no_binary "set one of BINARY=<uuid> (a TA), LIBNAME=<name> (a static library) or SHLIBNAME=<name>"

template "$WORK/missing_libdep"
echo 'libdeps += nolib/libnone.a' >> "$WORK/missing_libdep/sub.mk"
expect missing_libdep "libdeps names nolib/libnone.a, which does not exist"

template "$WORK/gensrc_no_produce"
echo 'gensrcs-y += thing' >> "$WORK/gensrc_no_produce/sub.mk"
expect gensrc_no_produce "lists thing in gensrcs-y but sets no produce-thing"

template "$WORK/multiline_cfg"
printf 'define CFG_TWO_LINES\na\nb\nendef\n' >> "$WORK/multiline_cfg/sub.mk"
expect multiline_cfg "CFG_TWO_LINES: a CFG_ value is one line"

# A relative TA_DEV_KIT_DIR that happens to work from here builds, with a
# note that says to make it absolute.
template "$WORK/relative_kit"
rel=$(realpath --relative-to="$WORK/relative_kit" "$KIT")
make -C "$WORK/relative_kit" TA_DEV_KIT_DIR="$rel" > "$WORK/relative_kit.log" 2>&1 ||
	{ cat "$WORK/relative_kit.log"; fail "relative_kit: the build fails"; }
grep -qF "TA_DEV_KIT_DIR=$rel is relative" "$WORK/relative_kit.log" ||
	{ cat "$WORK/relative_kit.log"; fail "relative_kit: no note about the relative path"; }
echo "ok: relative_kit: $(grep -F 'is relative' "$WORK/relative_kit.log")"

template "$WORK/no_destroy"
sed -i '/TA_DestroyEntryPoint/d' "$WORK/no_destroy/t.c"
expect no_destroy "the TA does not define TA_DestroyEntryPoint"

# A GP 1.1 TA: its entry points are the __GP11_ ones behind the 1.3 names.
template "$WORK/gp11_no_invoke"
sed -i '/TA_InvokeCommandEntryPoint/,$d' "$WORK/gp11_no_invoke/t.c"
expect gp11_no_invoke "the TA does not define TA_InvokeCommandEntryPoint" \
	CFG_TA_OPTEE_CORE_API_COMPAT_1_1=y

template "$WORK/bad_level"
expect bad_level "CFG_TEE_TA_LOG_LEVEL=7: use 0 (none) to 4 (flow)" CFG_TEE_TA_LOG_LEVEL=7

template "$WORK/bad_sanitizer"
expect bad_sanitizer "CFG_TA_SANITIZE=thread: the kit knows address and undefined" \
	CFG_TA_SANITIZE=thread

template "$WORK/no_key"
expect no_key "cannot read the signing key TA_SIGN_KEY=$WORK/none.pem" TA_SIGN_KEY="$WORK/none.pem"

# A key swteed does not trust signs a TA that then does not load.
template "$WORK/other_key"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/other.pem" 2>/dev/null
make -C "$WORK/other_key" TA_DEV_KIT_DIR="$KIT" TA_SIGN_KEY="$WORK/other.pem" > /dev/null 2>&1 ||
	fail "TA_SIGN_KEY=another key: the build fails"
"$SWTEE" sign --verify --key "$WORK/other.pem" --in "$WORK/other_key/$UUID.ta" > /dev/null ||
	fail "TA_SIGN_KEY was not used to sign"
echo "PASS: bad input is refused with a message naming the problem"
