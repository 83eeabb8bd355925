#!/bin/sh
# CFG_TA_MBEDTLS=y: the kit builds the mbedTLS 3 tree MBEDTLS_DIR names into
# libmbedtls.a, with its TA configuration, once per tree, and links it into
# the TA, through make and through CMake's swtee_add_ta(... MBEDTLS). The
# tree is tests/devkit/mbedtls/tree, a stand-in of our own with mbedTLS 3's
# layout. Without a tree, or with one that is not mbedTLS 3, the build stops
# saying what to set.
. "$(dirname "$0")/common.sh"

src=$SWTEE_SOURCE/tests/devkit/mbedtls
UUID=3a5c7e91-0b2d-4f46-8a1c-5e7f90a2b3c4
copy "$src" m
tree=$WORK/m/tree
cache=$WORK/cache

# ta NAME [ARGS...]: make the TA of $WORK/NAME, log in $WORK/NAME.log.
ta() {
	name=$1
	shift
	env -u MBEDTLS_DIR make -C "$WORK/$name/ta" TA_DEV_KIT_DIR="$KIT" CFG_TA_MBEDTLS=y "$@" > "$WORK/$name.log" 2>&1
}

# refused NAME MESSAGE [ARGS...]: the TA build fails, says MESSAGE, leaves no .ta.
refused() {
	name=$1
	msg=$2
	shift 2
	copy "$src" "$name"
	if ta "$name" "$@"; then
		cat "$WORK/$name.log"
		fail "$name: the build succeeded"
	fi
	grep -qF -- "$msg" "$WORK/$name.log" || { cat "$WORK/$name.log"; fail "$name: no '$msg'"; }
	[ ! -e "$WORK/$name/ta/$UUID.ta" ] || fail "$name: a .ta was left behind"
	echo "ok: $name: $(grep -F -- "$msg" "$WORK/$name.log" | head -1)"
}

# The make kit: the TA, its client, run.
build "$WORK/m" CFG_TA_MBEDTLS=y MBEDTLS_DIR="$tree" MBEDTLS_BUILD_DIR="$cache" > "$WORK/m.log" 2>&1 ||
	{ cat "$WORK/m.log"; fail "the mbedTLS TA does not build with MBEDTLS_DIR"; }
grep -q 'CC      mbedtls/sha256.c' "$WORK/m.log" || { cat "$WORK/m.log"; fail "the tree was not built"; }
[ "$(find "$cache" -name libmbedtls.a | wc -l)" = 1 ] || fail "no libmbedtls.a in MBEDTLS_BUILD_DIR"
nm "$WORK/m/ta/$UUID.elf" | grep -q ' [Tt] mbedtls_hardware_poll$' ||
	fail "the TA has no mbedtls_hardware_poll (the kit's entropy source)"
run "$WORK/m/ta" "$WORK/run.log" "$WORK/m/host/devkit_mbedtls" || fail "the mbedTLS TA (make)"
echo "ok: make: the TA links the tree's libmbedtls.a and runs"

# Once per tree: another TA with the same MBEDTLS_BUILD_DIR reuses it.
copy "$src" again
ta again MBEDTLS_DIR="$tree" MBEDTLS_BUILD_DIR="$cache" || { cat "$WORK/again.log"; fail "again"; }
! grep -q 'mbedtls/' "$WORK/again.log" || { cat "$WORK/again.log"; fail "the tree was built twice"; }
[ -f "$WORK/again/ta/$UUID.ta" ] || fail "again: no .ta"
echo "ok: a second TA links the library already built"

# TAs built at once with one MBEDTLS_BUILD_DIR (as optee_test's parallel
# top-level make builds them) build the library once between them.
copy "$src" par1
copy "$src" par2
ta par1 MBEDTLS_DIR="$tree" MBEDTLS_BUILD_DIR="$WORK/shared" &
p1=$!
ta par2 MBEDTLS_DIR="$tree" MBEDTLS_BUILD_DIR="$WORK/shared" &
p2=$!
wait $p1 || { cat "$WORK/par1.log"; fail "par1"; }
wait $p2 || { cat "$WORK/par2.log"; fail "par2"; }
[ "$(cat "$WORK/par1.log" "$WORK/par2.log" | grep -c 'CC      mbedtls/sha256.c')" = 1 ] ||
	{ cat "$WORK/par1.log" "$WORK/par2.log"; fail "two TAs built at once built the tree twice"; }
for p in par1 par2; do
	[ -f "$WORK/$p/ta/$UUID.ta" ] || fail "$p: no .ta"
done
echo "ok: two TAs built at once share one build of the tree"

# A TA shared library links it too, and exports none of it.
mkdir -p "$WORK/shlib"
# shellcheck disable=SC2016 # $(TA_DEV_KIT_DIR) is make's
printf 'SHLIBNAME = libsha\nSHLIBUUID = 11111111-2222-4333-8444-555555555555\ninclude $(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk\n' \
	> "$WORK/shlib/Makefile"
echo 'srcs-y += s.c' > "$WORK/shlib/sub.mk"
cat > "$WORK/shlib/s.c" <<C
#include <mbedtls/sha256.h>
int sha_abc(unsigned char *out);
int sha_abc(unsigned char *out) { return mbedtls_sha256((const unsigned char *)"abc", 3, out, 0); }
C
env -u MBEDTLS_DIR make -C "$WORK/shlib" TA_DEV_KIT_DIR="$KIT" CFG_TA_MBEDTLS=y MBEDTLS_DIR="$tree" \
	> "$WORK/shlib.log" 2>&1 || { cat "$WORK/shlib.log"; fail "the TA shared library"; }
nm "$WORK/shlib/libsha.so" | grep -q ' t mbedtls_sha256$' || fail "the TA library exports mbedtls_sha256"
nm "$WORK/shlib/libsha.so" | grep -q ' T sha_abc$' || fail "the TA library does not export its own function"
echo "ok: a TA shared library links the tree and exports only its own functions"

# optee_os's layout: lib/libmbedtls holds the tree in mbedtls/, whose
# bignum code takes its temporaries from mbedtls_mpi_mempool (and mempool.h
# from the kit's include/), which the kit must fill.
copy "$src" optee
mkdir -p "$WORK/libmbedtls"
cp -r "$tree" "$WORK/libmbedtls/mbedtls"
printf '#include <mempool.h>\nvoid *mbedtls_mpi_mempool;\n' > "$WORK/libmbedtls/mbedtls/library/bignum.c"
ta optee MBEDTLS_DIR="$WORK/libmbedtls" CPPFLAGS=-DMBEDTLS_TA_MPI_POOL ||
	{ cat "$WORK/optee.log"; fail "optee_os's layout"; }
[ -n "$(find "$WORK/optee/ta/.ta_dev_kit/mbedtls" -name libmbedtls.a)" ] ||
	fail "the default MBEDTLS_BUILD_DIR is not in the TA's out dir"
run "$WORK/optee/ta" "$WORK/run.log" "$WORK/m/host/devkit_mbedtls" pool || fail "optee_os's layout: run"
echo "ok: optee_os's lib/libmbedtls layout, built in the TA's out dir, with its bignum pool"

# The configuration reaches the library: one with a clock is refused by the tree.
printf '#define MBEDTLS_NO_PLATFORM_ENTROPY\n#define MBEDTLS_ENTROPY_HARDWARE_ALT\n#define MBEDTLS_HAVE_TIME\n' \
	> "$WORK/clock.h"
refused clock "a TA's configuration has no file, network or clock parts" \
	MBEDTLS_DIR="$tree" MBEDTLS_CONFIG="$WORK/clock.h"

# Refusals.
refused absent "calls mbedTLS functions that are not in the library the kit built: mbedtls_absent_function;" \
	MBEDTLS_DIR="$tree" CPPFLAGS=-DMBEDTLS_TA_CALL_ABSENT
refused no_tree "set MBEDTLS_DIR=<tree>"
refused not_a_tree "is not an mbedTLS 3.x source tree" MBEDTLS_DIR="$WORK/m/ta"
mkdir -p "$WORK/tree-v2/include/mbedtls" "$WORK/tree-v2/library"
: > "$WORK/tree-v2/include/mbedtls/config.h"
refused v2 "mbedTLS 2's layout" MBEDTLS_DIR="$WORK/tree-v2"
cp -r "$tree" "$WORK/tree-v4"
sed -i 's/MBEDTLS_VERSION_MAJOR 3/MBEDTLS_VERSION_MAJOR 4/' "$WORK/tree-v4/include/mbedtls/build_info.h"
refused v4 "the kit builds mbedTLS 3.x" MBEDTLS_DIR="$WORK/tree-v4"

# CMake: swtee_add_ta(... MBEDTLS).
cmake_try() {
	d=$1
	shift
	env -u MBEDTLS_DIR cmake -S "$WORK/m" -B "$WORK/$d" -Dswtee_DIR="$SWTEE_BUILD/lib/cmake/swtee" "$@" \
		> "$WORK/$d.log" 2>&1
}
cmake_try cmake "-DMBEDTLS_DIR=$tree" || { cat "$WORK/cmake.log"; fail "CMake: configure"; }
cmake --build "$WORK/cmake" >> "$WORK/cmake.log" 2>&1 || { cat "$WORK/cmake.log"; fail "CMake: build"; }
[ -n "$(find "$WORK/cmake" -name libmbedtls.a)" ] || fail "CMake: no libmbedtls.a"
run "$WORK/cmake" "$WORK/run.log" "$WORK/cmake/devkit_mbedtls" || fail "the mbedTLS TA (CMake)"
echo "ok: CMake: swtee_add_ta(... MBEDTLS) links the tree and runs"
cmake_try cmake-absent "-DMBEDTLS_DIR=$tree" -DCMAKE_C_FLAGS=-DMBEDTLS_TA_CALL_ABSENT ||
	{ cat "$WORK/cmake-absent.log"; fail "CMake: configure (absent)"; }
if cmake --build "$WORK/cmake-absent" >> "$WORK/cmake-absent.log" 2>&1; then
	fail "CMake: a TA calling a function the library lacks was signed"
fi
grep -q "calls mbedTLS functions that are not in the library the kit built: mbedtls_absent_function;" \
	"$WORK/cmake-absent.log" || { cat "$WORK/cmake-absent.log"; fail "CMake: absent: message"; }
echo "ok: CMake: a TA calling an mbedTLS function the library lacks is refused"
if cmake_try cmake-none "-UMBEDTLS_DIR"; then
	cat "$WORK/cmake-none.log"
	fail "CMake: MBEDTLS without MBEDTLS_DIR configured"
fi
grep -q "set MBEDTLS_DIR=<tree>" "$WORK/cmake-none.log" || { cat "$WORK/cmake-none.log"; fail "CMake: message"; }
echo "ok: CMake: MBEDTLS without MBEDTLS_DIR stops saying what to set"
echo "PASS: mbedTLS 3 trees for TAs, through make and CMake"
