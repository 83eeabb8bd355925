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

echo "PASS: kit features"
