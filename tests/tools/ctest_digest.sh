#!/bin/sh
# ctest_digest.sh BUILD_DIR: after a ctest run that failed, the lines of
# each failed test's output that say why (failed checks, FAILED cases,
# errors, sanitizer reports), at most 40 a test. ctest prints a failed
# test's output when the test ends, in the middle of a long log; this
# prints the reasons again last, where a log's tail keeps them.
log="$1/Testing/Temporary/LastTest.log"
[ -r "$log" ] || { echo "ctest_digest: no $log" >&2; exit 1; }
echo "==== why the failed tests failed (from $log) ===="
awk '
	/^[0-9]+\/[0-9]+ Test: / { name = $3; n = 0; keep = ""; next }
	/^<end of output>$/ { inout = 0; next }
	/^Output:$/ { inout = 1; getline; next }
	inout && /unexpected value|FAILED$|check failed|^FAIL|ERROR: |runtime error:|Assertion|[^0-9][1-9][0-9]* failed|[Tt]imed out|Timeout/ {
		if (n++ < 40) keep = keep "  " $0 "\n"
		next
	}
	/^Test Failed\.|^Test Passed\.|^Test Fail/ {
		if ($0 !~ /Passed/) printf "--- %s\n%s", name, (keep == "" ? "  (no line of its output names a failure)\n" : keep)
		keep = ""
	}
' "$log"
