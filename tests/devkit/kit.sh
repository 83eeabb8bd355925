#!/bin/sh
# The kit's Makefile and sub.mk features (tests/devkit/features): a static
# library built with LIBNAME and linked through libnames/libdirs/libdeps,
# subdirs-y, incdirs-y, cflags-y, cflags-<file>-y, cflags-remove-<file>-y,
# CFG_* defines, CFG_TEE_TA_LOG_LEVEL, O=, CROSS_COMPILE for another
# architecture, rebuilds when flags change, and make clean.
. "$(dirname "$0")/common.sh"

p=$WORK/features
copy "$SWTEE_SOURCE/tests/devkit/features" features
ta=$p/ta/6b0e2f4e-5a3c-4d1b-9e7f-0c1d2e3f4a5b.ta

# Level 4: every trace line is compiled in.
build "$p" CFG_FEATURE_TEST=y CFG_FEATURE_NUMBER=42 CFG_TEE_TA_LOG_LEVEL=4 > "$WORK/build1" 2>&1 ||
	{ cat "$WORK/build1"; fail "the features project does not build"; }
cat "$WORK/build1"
[ -f "$p/lib/libfeatlib.a" ] || fail "LIBNAME=featlib made no libfeatlib.a"
[ -f "$ta" ] || fail "no signed TA"
run "$p/ta" "$WORK/log4" "$p/host/devkit_features" > "$WORK/out4" || fail "flags reached the wrong sources"
cat "$WORK/out4"
grep -q "TRACE_LEVEL 4" "$WORK/out4" || fail "CFG_TEE_TA_LOG_LEVEL=4 did not set TRACE_LEVEL"
for l in "E/TA.*level error" "I/TA.*level info" "D/TA.*level debug" "F/TA.*level flow"; do
	grep -q "$l" "$WORK/log4" || fail "level 4: no '$l' line in the log"
done

# Nothing changed: nothing is rebuilt.
build "$p" CFG_FEATURE_TEST=y CFG_FEATURE_NUMBER=42 CFG_TEE_TA_LOG_LEVEL=4 > "$WORK/build2" 2>&1 ||
	fail "a second build fails"
if grep -qE '^  (CC|LD|SIGN|AR) ' "$WORK/build2"; then
	cat "$WORK/build2"
	fail "a build with nothing changed rebuilt something"
fi

# Level 1: a changed setting rebuilds, and only errors are compiled in.
build "$p" CFG_FEATURE_TEST=y CFG_FEATURE_NUMBER=42 CFG_TEE_TA_LOG_LEVEL=1 > "$WORK/build3" 2>&1 ||
	fail "the level 1 build fails"
grep -q '^  CC      features_ta.c' "$WORK/build3" || fail "changing CFG_TEE_TA_LOG_LEVEL did not rebuild"
run "$p/ta" "$WORK/log1" "$p/host/devkit_features" > "$WORK/out1" || fail "level 1 build misbehaves"
grep -q "TRACE_LEVEL 1" "$WORK/out1" || fail "CFG_TEE_TA_LOG_LEVEL=1 did not set TRACE_LEVEL"
grep -q "E/TA.*level error" "$WORK/log1" || fail "level 1: the error line is missing"
if grep -q "level info\|level debug\|level flow" "$WORK/log1"; then
	fail "level 1: lines above the level were compiled in"
fi

# make clean removes what the build made.
make -C "$p/ta" TA_DEV_KIT_DIR="$KIT" clean > /dev/null
if ls "$p/ta"/*.o "$p/ta"/*.elf "$p/ta"/*.ta "$p/ta"/*.map "$p/ta/sub"/*.o 2>/dev/null | grep -q .; then
	fail "make clean left build files next to the sources"
fi

# O= puts everything in another directory and nothing next to the sources.
make -C "$p/ta" TA_DEV_KIT_DIR="$KIT" O="$WORK/out" > "$WORK/build4" 2>&1 ||
	{ cat "$WORK/build4"; fail "the O= build fails"; }
[ -f "$WORK/out/6b0e2f4e-5a3c-4d1b-9e7f-0c1d2e3f4a5b.ta" ] || fail "O=: no .ta in the output dir"
[ -f "$WORK/out/sub/sub.o" ] || fail "O=: objects not under the output dir"
if ls "$p/ta"/*.o "$p/ta"/*.ta "$p/ta"/sub/*.o 2>/dev/null | grep -q .; then
	fail "O=: files were written next to the sources"
fi
make -C "$p/ta" TA_DEV_KIT_DIR="$KIT" O="$WORK/out" clean > /dev/null
[ ! -e "$WORK/out" ] || { find "$WORK/out"; fail "make clean left files in O"; }

# CROSS_COMPILE for another architecture: a note, and a TA for this host.
make -C "$p/ta" TA_DEV_KIT_DIR="$KIT" O="$WORK/cross" CROSS_COMPILE=aarch64-linux-gnu- \
	> "$WORK/build5" 2>&1 || { cat "$WORK/build5"; fail "the CROSS_COMPILE build fails"; }
grep -q "ta_dev_kit: note: CROSS_COMPILE=aarch64-linux-gnu-" "$WORK/build5" ||
	{ cat "$WORK/build5"; fail "no note about CROSS_COMPILE"; }
host_machine=$(readelf -h "$SWTEE_BUILD/lib/swtee/swtee-ta-host" | grep Machine)
ta_machine=$(readelf -h "$WORK/cross/6b0e2f4e-5a3c-4d1b-9e7f-0c1d2e3f4a5b.elf" | grep Machine)
[ "$host_machine" = "$ta_machine" ] || fail "CROSS_COMPILE: TA built for '$ta_machine'"

# Every header a TA written for OP-TEE includes, and the C library, compile
# together without a warning, for GP 1.3 and GP 1.1; OP-TEE-isms a TA uses
# from tee_internal_api.h alone (__maybe_unused, the log macros) work.
h=$WORK/headers
mkdir -p "$h/include"
printf 'BINARY = 3a4b5c6d-7e8f-4a1b-8c2d-3e4f5a6b7c8d\ninclude $(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk\n' > "$h/Makefile"
printf 'global-incdirs-y += include\nsrcs-y += only_core.c all.c\n' > "$h/sub.mk"
cat > "$h/include/user_ta_header_defines.h" <<'H'
#include <user_ta_header.h>
#define TA_UUID { 0x3a4b5c6d, 0x7e8f, 0x4a1b, { 0x8c, 0x2d, 0x3e, 0x4f, 0x5a, 0x6b, 0x7c, 0x8d } }
#define TA_FLAGS (TA_FLAG_SINGLE_INSTANCE | TA_FLAG_MULTI_SESSION | TA_FLAG_INSTANCE_KEEP_ALIVE)
#define TA_STACK_SIZE (2 * 1024)
#define TA_DATA_SIZE (32 * 1024)
#define TA_VERSION "1.2.3"
#define TA_DESCRIPTION "all the headers"
#define TA_CURRENT_TA_EXT_PROPERTIES \
	{ "myprop.u32", USER_TA_PROP_TYPE_U32, &(const uint32_t){ 42 } },
H
cat > "$h/only_core.c" <<'C'
#include <tee_internal_api.h>

/* As OP-TEE's hello_world: nothing but tee_internal_api.h for these. */
TEE_Result TA_OpenSessionEntryPoint(uint32_t t, TEE_Param __maybe_unused params[4],
				    void __maybe_unused **sess)
{
	IMSG("open %u", t);
	DMSG("debug");
	return TEE_SUCCESS;
}
C
cat > "$h/all.c" <<'C'
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <compiler.h>
#include <tee_api.h>
#include <tee_api_defines.h>
#include <tee_api_defines_extensions.h>
#include <tee_api_types.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>
#include <tee_ta_api.h>
#include <trace.h>
#include <trace_levels.h>
#include <types_ext.h>
#include <user_ta_header.h>
#include <utee_defines.h>
#include <util.h>

static const uint8_t table[TEE_SHA256_HASH_SIZE + TEE_AES_BLOCK_SIZE];

static uint32_t __noinline use(vaddr_t va)
{
	uint32_t main_alg = TEE_ALG_GET_MAIN_ALG(TEE_ALG_AES_CBC_NOPAD);
	size_t n = ROUNDUP(ARRAY_SIZE(table), 64) + MIN(1, 2) + BIT(3);
	uint32_t sum = 0;

	if (ADD_OVERFLOW(n, (size_t)va, &n))
		return 0;
	sum = main_alg + (uint32_t)n + TEE_STORAGE_PRIVATE_REE + TEE_MEMORY_ACCESS_ANY_OWNER;
	EMSG("%" PRIu32 " %s", sum, strchr("abc", 'b'));
	FMSG_RAW("raw");
	MSG("always");
	return sum;
}

TEE_Result TA_CreateEntryPoint(void)
{
	char *p = malloc(8);

	snprintf(p ? p : (char *)"", p ? 8 : 0, "%d", 1);
	free(p);
	return use(0) ? TEE_SUCCESS : TEE_ERROR_GENERIC;
}
void TA_DestroyEntryPoint(void)
{
}
void TA_CloseSessionEntryPoint(void __unused *s)
{
}
TEE_Result TA_InvokeCommandEntryPoint(void *s, uint32_t c, uint32_t t, TEE_Param p[4])
{
	return TEE_SUCCESS;
}
C
for compat in n y; do
	make -C "$h" TA_DEV_KIT_DIR="$KIT" CFG_WERROR=y CFG_TEE_TA_LOG_LEVEL=4 \
		CFG_TA_OPTEE_CORE_API_COMPAT_1_1=$compat O="$WORK/headers-$compat" > "$WORK/headers.log" 2>&1 ||
		{ cat "$WORK/headers.log"; fail "the headers do not compile cleanly (compat 1.1: $compat)"; }
done
echo "PASS: kit features"
