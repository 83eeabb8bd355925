#!/bin/sh
# CFG_TA_SANITIZE=address,undefined: a TA with a planted use-after-free and
# a planted undefined shift; the reports name the TA's file and line.
. "$(dirname "$0")/common.sh"
# Instrumented TAs run without the sandbox, and only when allowed.
RUN_OPTS=--allow-instrumented

copy "$SWTEE_SOURCE/tests/devkit/bugs" bugs
build "$WORK/bugs" CFG_TA_SANITIZE=address,undefined > "$WORK/build" 2>&1 ||
	{ cat "$WORK/build"; fail "the sanitized TA does not build"; }
readelf -d "$WORK/bugs/ta/2d1ad0c6-41a5-4d7e-9d3e-2b7c3a6f0b11.elf" | grep -q libasan ||
	fail "the TA was not built with AddressSanitizer"
src=$WORK/bugs/ta/bugs_ta.c
uaf_line=$(grep -n 'BUG: use after free' "$src" | cut -d: -f1)
shift_line=$(grep -n 'BUG: shift exponent' "$src" | cut -d: -f1)
client=$WORK/bugs/host/devkit_bugs

run "$WORK/bugs/ta" "$WORK/count.log" "$client" count || fail "the sanitized TA misbehaves"

# The use-after-free ends the instance (TEEC_ERROR_TARGET_DEAD) with a report.
run "$WORK/bugs/ta" "$WORK/uaf.log" "$client" uaf ||
	fail "the use-after-free did not end the TA instance"
grep -q "ERROR: AddressSanitizer: heap-use-after-free" "$WORK/uaf.log" ||
	fail "no AddressSanitizer report in the log"
grep -q "in use_after_free .*bugs_ta.c:$uaf_line" "$WORK/uaf.log" ||
	fail "the report does not name bugs_ta.c:$uaf_line"

# UBSan reports and lets the TA carry on.
run "$WORK/bugs/ta" "$WORK/shift.log" "$client" shift || fail "the shift command failed"
grep -q "bugs_ta.c:$shift_line:[0-9]*: runtime error: shift exponent" "$WORK/shift.log" ||
	fail "no UBSan report naming bugs_ta.c:$shift_line"
echo "PASS: sanitizer reports name the TA's file and line"
