#!/bin/sh
# CFG_TA_COVERAGE=y: after a run, gcov data for the TA's sources, next to
# its objects (or under GCOV_PREFIX), also for a keep-alive TA whose
# instance ends only with the TEE.
. "$(dirname "$0")/common.sh"
# Instrumented TAs run without the sandbox, and only when allowed.
RUN_OPTS=--allow-instrumented

copy "$SWTEE_SOURCE/tests/devkit/bugs" bugs
src=$WORK/bugs/ta/bugs_ta.c
client=$WORK/bugs/host/devkit_bugs

# covered DIR: DIR/bugs_ta.gcda exists and gcov reads it for bugs_ta.c.
covered() {
	[ -f "$1/bugs_ta.gcda" ] || fail "no $1/bugs_ta.gcda after the run"
	(cd "$WORK" && gcov -n -o "$1" "$src") > "$WORK/gcov.out" 2>&1 || true
	cat "$WORK/gcov.out"
	grep -q "File '$src'" "$WORK/gcov.out" || fail "gcov does not name $src"
	grep -A1 "File '$src'" "$WORK/gcov.out" | grep -q "Lines executed:[1-9]" ||
		fail "gcov counts no executed line of bugs_ta.c"
}

build "$WORK/bugs" CFG_TA_COVERAGE=y O="$WORK/cov" > "$WORK/build" 2>&1 ||
	{ cat "$WORK/build"; fail "the coverage build fails"; }
[ -f "$WORK/cov/bugs_ta.gcno" ] || fail "no .gcno: the TA was not built with --coverage"
run "$WORK/cov" "$WORK/log" "$client" count || fail "the coverage build misbehaves"
covered "$WORK/cov"

# GCOV_PREFIX moves the data, as for any gcov program.
rm -f "$WORK/cov/bugs_ta.gcda"
GCOV_PREFIX=$WORK/prefix run "$WORK/cov" "$WORK/log" "$client" count || fail "run with GCOV_PREFIX"
[ -f "$WORK/prefix$WORK/cov/bugs_ta.gcda" ] || fail "no .gcda under GCOV_PREFIX"

# A keep-alive instance is destroyed when the TEE stops: its data is written then.
build "$WORK/bugs" CFG_TA_COVERAGE=y CFG_BUGS_KEEP_ALIVE=y O="$WORK/cov-ka" > "$WORK/build" 2>&1 ||
	{ cat "$WORK/build"; fail "the keep-alive coverage build fails"; }
run "$WORK/cov-ka" "$WORK/log" "$client" count || fail "the keep-alive build misbehaves"
covered "$WORK/cov-ka"
echo "PASS: gcov data for the TA's sources"
