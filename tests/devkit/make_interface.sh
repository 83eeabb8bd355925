#!/bin/sh
# The make interface of OP-TEE's TA dev kit, as OP-TEE TAs use it: CFG_
# values of every form from the Makefile, a sub.mk and the command line;
# CPPFLAGS, CFLAGS, CXXFLAGS, LDFLAGS and CFLAGS_REMOVE from the TA's
# Makefile; generated sources (gensrcs-y); link-out-dir; a C++ source with
# warnings as errors; a TA shared library (SHLIBNAME, SHLIBUUID) and a TA
# that links it. The TA checks at compile time what it was given, then runs.
. "$(dirname "$0")/common.sh"

UUID=3a1c9e5b-7d2f-4b60-8e41-0c9d8b7a6f50
SHUUID=6b2d0f1e-9c8a-4e57-a3b2-1d0c9e8f7a61
UUID2=3a1c9e5b-7d2f-4b60-8e41-0c9d8b7a6f51
TA=$WORK/ta
mkdir -p "$TA/include" "$TA/sub" "$TA/gen"

cat > "$TA/Makefile" <<MK
BINARY = $UUID
CFG_NUMBER = 7
CFG_EXPRESSION ?= (32 * 1024)
CFG_ENABLED = y
CFG_DISABLED = n
CFG_EMPTY =
CPPFLAGS += -DFROM_CPPFLAGS=3
CFLAGS += -DFROM_CFLAGS=4 -DREMOVED_AGAIN=1
CFLAGS_REMOVE += -DREMOVED_AGAIN=1
CXXFLAGS += -DFROM_CXXFLAGS=5
LDFLAGS += --defsym=tdk_ldflags_seen=0x5eed
CFG_WERROR = y
include \$(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk
\$(info link-out-dir=\$(link-out-dir))
MK
cat > "$TA/sub.mk" <<'MK'
global-incdirs-y += include
srcs-y += ta.c cxx.cpp
subdirs-y += sub
CFG_FROM_SUBMK = y
CFG_STRING = "swtee"

# A source and a header made at build time, as OP-TEE's gensrcs-y does.
gensrcs-y += table
produce-table = table.c
depends-table := gen/table.in
recipe-table := sed 's/^/const int gen_table = /;s/$$/;/' gen/table.in > $(sub-dir-out)/table.c
gensrcs-y += header
produce-header = gen_header.h
depends-header := gen/table.in
recipe-header := printf '\#define GEN_HEADER_VALUE 42\n' > $(sub-dir-out)/gen_header.h
cflags-y += -I$(sub-dir-out)
MK
echo 17 > "$TA/gen/table.in"
echo 'srcs-y += sub.c' > "$TA/sub/sub.mk"
cat > "$TA/sub/sub.c" <<'C'
#include <tee_internal_api.h>
int sub_value(void);
int sub_value(void) { return CFG_NUMBER; }
C
cat > "$TA/include/user_ta_header_defines.h" <<'H'
#define TA_UUID { 0x3a1c9e5b, 0x7d2f, 0x4b60, { 0x8e, 0x41, 0x0c, 0x9d, 0x8b, 0x7a, 0x6f, 0x50 } }
#define TA_FLAGS 0
#define TA_STACK_SIZE 2048
/* A CFG_ expression used as OP-TEE's pkcs11 TA uses its heap size. */
#define TA_DATA_SIZE CFG_EXPRESSION
H
cat > "$TA/cxx.cpp" <<'C'
extern "C" int cxx_value(void);
extern "C" int cxx_value(void) { return FROM_CXXFLAGS; }
C
cat > "$TA/ta.c" <<'C'
#include <string.h>
#include <tee_internal_api.h>
#include "gen_header.h"

_Static_assert(CFG_NUMBER == 7, "a number reaches the compiler");
_Static_assert(CFG_EXPRESSION == 32768, "an expression reaches the compiler whole");
_Static_assert(CFG_ENABLED == 1, "y is 1");
_Static_assert(CFG_FROM_SUBMK == 1, "a sub.mk's CFG_ counts");
_Static_assert(sizeof(CFG_STRING) == 6, "a string keeps its quotes");
_Static_assert(FROM_CPPFLAGS == 3 && FROM_CFLAGS == 4, "the Makefile's flags reach the compiler");
_Static_assert(GEN_HEADER_VALUE == 42, "a generated header is made first");
#ifdef CFG_DISABLED
#error "n is not defined"
#endif
#ifdef CFG_EMPTY
#error "an empty value is not defined"
#endif
#ifdef REMOVED_AGAIN
#error "CFLAGS_REMOVE takes a flag away"
#endif

extern const int gen_table;
int sub_value(void);
int cxx_value(void);

TEE_Result TA_CreateEntryPoint(void) { return TEE_SUCCESS; }
void TA_DestroyEntryPoint(void) { }
TEE_Result TA_OpenSessionEntryPoint(uint32_t t, TEE_Param p[4], void **s)
{
	(void)t; (void)p; (void)s;
	return TEE_SUCCESS;
}
void TA_CloseSessionEntryPoint(void *s) { (void)s; }
TEE_Result TA_InvokeCommandEntryPoint(void *s, uint32_t c, uint32_t t, TEE_Param p[4])
{
	(void)s; (void)c; (void)t;
	p[0].value.a = (uint32_t)(gen_table + sub_value() + cxx_value());
	return TEE_SUCCESS;
}
C

make -C "$TA" TA_DEV_KIT_DIR="$KIT" O="$WORK/out" > "$WORK/build.log" 2>&1 ||
	{ cat "$WORK/build.log"; fail "the TA does not build"; }
grep -qx "link-out-dir=$WORK/out" "$WORK/build.log" ||
	{ cat "$WORK/build.log"; fail "link-out-dir is not the output directory"; }
echo "ok: CFG_ forms, the Makefile's flags, gensrcs-y, a sub.mk's CFG_, C++ with -Werror"
# The C++ source gets no flag that is C's only (g++ would warn of it).
grep -i 'not valid for C++' "$WORK/build.log" && fail "a C-only flag reached the C++ compiler"
echo "ok: no C-only flag reaches the C++ compiler"
nm "$WORK/out/$UUID.elf" | grep -qi '^0*5eed a tdk_ldflags_seen$' ||
	fail "the Makefile's LDFLAGS did not reach the linker"
echo "ok: LDFLAGS reach the linker"

# A CFG_ on the command line wins over the Makefile's, as in OP-TEE.
make -C "$TA" TA_DEV_KIT_DIR="$KIT" O="$WORK/out2" CFG_NUMBER=8 > "$WORK/build2.log" 2>&1 &&
	fail "CFG_NUMBER=8 on the command line did not reach the compiler"
grep -q 'CFG_NUMBER == 7' "$WORK/build2.log" || { cat "$WORK/build2.log"; fail "no assertion"; }
echo "ok: a command-line CFG_ reaches the compiler"

# The TA runs: 17 (generated) + 7 (sub/) + 5 (C++).
cat > "$WORK/client.c" <<'C'
#include <stdio.h>
#include <tee_client_api.h>
int main(void)
{
	TEEC_Context ctx;
	TEEC_Session s;
	TEEC_UUID u = {0x3a1c9e5b, 0x7d2f, 0x4b60, {0x8e, 0x41, 0x0c, 0x9d, 0x8b, 0x7a, 0x6f, 0x50}};
	TEEC_Operation op = {0};
	uint32_t o = 0;
	if (TEEC_InitializeContext(NULL, &ctx) ||
	    TEEC_OpenSession(&ctx, &s, &u, TEEC_LOGIN_PUBLIC, NULL, NULL, &o))
		return 1;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	if (TEEC_InvokeCommand(&s, 0, &op, &o))
		return 1;
	printf("%u\n", op.params[0].value.a);
	return 0;
}
C
cc -o "$WORK/client" "$WORK/client.c" -I"$EXPORT/include" -L"$EXPORT/lib" -lteec \
	-Wl,-rpath,"$EXPORT/lib" || fail "the client does not build"
got=$(run "$WORK/out" "$WORK/run.log" "$WORK/client") || fail "the TA does not run"
[ "$got" = 29 ] || fail "the TA answered '$got', not 29"
echo "ok: the TA runs and answers 29"

# A TA shared library: <name>.so whose soname is its UUID.
LIB=$WORK/lib
mkdir -p "$LIB"
printf 'SHLIBNAME = libtdkshared\nSHLIBUUID = %s\ninclude $(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk\n' \
	"$SHUUID" > "$LIB/Makefile"
echo 'srcs-y += lib.c' > "$LIB/sub.mk"
# It reads a variable of the TA that links it, as OP-TEE's os_test_lib does.
printf 'extern int tdk_ta_base;\nint tdk_shared(void);\nint tdk_shared(void) { return tdk_ta_base + 1; }\n' \
	> "$LIB/lib.c"
make -C "$LIB" TA_DEV_KIT_DIR="$KIT" O="$WORK/libout" > "$WORK/lib.log" 2>&1 ||
	{ cat "$WORK/lib.log"; fail "the shared library does not build"; }
readelf -d "$WORK/libout/libtdkshared.so" | grep -q "Library soname: \[$SHUUID\]" ||
	fail "the shared library's soname is not its UUID"
[ -f "$WORK/libout/$SHUUID.elf" ] || fail "no $SHUUID.elf"
[ -f "$WORK/libout/$SHUUID.ta" ] && "$SWTEE" sign --verify --library --uuid "$SHUUID" \
	--key "$KIT/keys/default_ta.pem" --in "$WORK/libout/$SHUUID.ta" > /dev/null ||
	fail "no signed $SHUUID.ta, or it does not verify as a TA library"
echo "ok: SHLIBNAME builds libtdkshared.so, soname $SHUUID, and the signed $SHUUID.ta"

# A TA that links it as OP-TEE's TAs do (LDADD), and runs with it.
TA2=$WORK/ta2
mkdir -p "$TA2/include"
cat > "$TA2/Makefile" <<MK
BINARY = $UUID2
LDADD = -L$WORK/libout -ltdkshared
include \$(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk
MK
printf 'global-incdirs-y += include\nsrcs-y += ta.c\n' > "$TA2/sub.mk"
cat > "$TA2/include/user_ta_header_defines.h" <<'H'
#define TA_UUID {0x3a1c9e5b, 0x7d2f, 0x4b60, {0x8e, 0x41, 0x0c, 0x9d, 0x8b, 0x7a, 0x6f, 0x51}}
#define TA_FLAGS 0
#define TA_STACK_SIZE 4096
#define TA_DATA_SIZE 32768
H
cat > "$TA2/ta.c" <<'C'
#include <tee_internal_api.h>
int tdk_shared(void);
#ifndef NO_BASE
int tdk_ta_base = 40;
#endif
TEE_Result TA_CreateEntryPoint(void) { return TEE_SUCCESS; }
void TA_DestroyEntryPoint(void) {}
TEE_Result TA_OpenSessionEntryPoint(uint32_t t, TEE_Param p[4], void **s)
{ (void)t; (void)p; *s = NULL; return TEE_SUCCESS; }
void TA_CloseSessionEntryPoint(void *s) { (void)s; }
TEE_Result TA_InvokeCommandEntryPoint(void *s, uint32_t c, uint32_t t, TEE_Param p[4])
{
	(void)s; (void)c; (void)t;
	p[0].value.a = (uint32_t)tdk_shared();
	return TEE_SUCCESS;
}
C
make -C "$TA2" TA_DEV_KIT_DIR="$KIT" O="$WORK/out3" > "$WORK/build3.log" 2>&1 ||
	{ cat "$WORK/build3.log"; fail "a TA linking the library does not build"; }
readelf -d "$WORK/out3/$UUID2.elf" | grep -q "Shared library: \[$SHUUID\]" ||
	fail "the TA does not name the library by its UUID"
sed 's/0x6f, 0x50}}/0x6f, 0x51}}/' "$WORK/client.c" > "$WORK/client2.c"
cc -o "$WORK/client2" "$WORK/client2.c" -I"$EXPORT/include" -L"$EXPORT/lib" -lteec \
	-Wl,-rpath,"$EXPORT/lib" || fail "the second client does not build"
cp "$WORK/libout/$SHUUID.ta" "$WORK/out3/"
got=$(run "$WORK/out3" "$WORK/run3.log" "$WORK/client2") || fail "the TA with a library does not run"
[ "$got" = 41 ] || fail "the TA with a library answered '$got', not 41"
echo "ok: a TA linked with it runs, the library loaded by UUID and using the TA's variable"

# The same TA without the variable: refused at load, and the log says why.
make -C "$TA2" TA_DEV_KIT_DIR="$KIT" O="$WORK/out4" CPPFLAGS=-DNO_BASE > "$WORK/build4.log" 2>&1 ||
	{ cat "$WORK/build4.log"; fail "the TA without the variable does not build"; }
cp "$WORK/libout/$SHUUID.ta" "$WORK/out4/"
run "$WORK/out4" "$WORK/run4.log" "$WORK/client2" > /dev/null 2>&1 && fail "a TA with an unresolved symbol ran"
grep -q "cannot load: .*undefined symbol: tdk_ta_base" "$WORK/run4.log" ||
	{ cat "$WORK/run4.log"; fail "the load error does not name the unresolved symbol"; }
echo "ok: an unresolved symbol between a TA and its library is refused, and named"

printf 'SHLIBNAME = libtdkshared\ninclude $(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk\n' > "$LIB/Makefile"
make -C "$LIB" TA_DEV_KIT_DIR="$KIT" O="$WORK/libout2" > "$WORK/lib2.log" 2>&1 &&
	fail "SHLIBNAME without SHLIBUUID built"
grep -q "needs SHLIBUUID" "$WORK/lib2.log" || { cat "$WORK/lib2.log"; fail "no message"; }
echo "ok: SHLIBNAME without SHLIBUUID says so"
