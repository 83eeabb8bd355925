#!/bin/sh
# swtee bench --compare: the noise band and the verdicts, on two runs made up
# to hit each rule (docs/benchmarks.md, "Reports"), and refusals of broken
# files. Usage: test_compare.sh BUILD/bin/swtee
set -u

swtee=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/swtee-compare.XXXXXX")
trap 'rm -rf "$dir"' EXIT
failed=0

check() { # what, then a command that must succeed
	what=$1
	shift
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAILED: $what"
		failed=1
	fi
}

cat >"$dir/a.json" <<'EOF'
[
  {"group": "g", "name": "faster", "unit": "us", "value": 100, "higher_is_better": false},
  {"group": "g", "name": "noise", "unit": "us", "value": 100, "higher_is_better": false},
  {"group": "g", "name": "rate_down", "unit": "kB/s", "value": 1000, "higher_is_better": true},
  {"group": "g", "name": "spread", "unit": "us", "value": 100, "spread": 0.3,
   "higher_is_better": false},
  {"group": "g", "name": "gone", "unit": "us", "value": 5, "higher_is_better": false},
  {"group": "g", "name": "skip", "unit": "us", "value": 5, "higher_is_better": false},
  {"group": "g", "name": "size", "unit": "KiB", "value": 100, "higher_is_better": false},
  {"group": "g", "name": "unit", "unit": "us", "value": 100, "higher_is_better": false},
  {"group": "g", "name": "nodirection", "unit": "MB/s", "value": 100}
]
EOF
cat >"$dir/b.json" <<'EOF'
{"schema": "swtee-bench-report/1", "results": [
  {"group": "g", "name": "faster", "unit": "us", "value": 80, "higher_is_better": false},
  {"group": "g", "name": "noise", "unit": "us", "value": 104.9, "higher_is_better": false},
  {"group": "g", "name": "rate_down", "unit": "kB/s", "value": 800, "higher_is_better": true},
  {"group": "g", "name": "spread", "unit": "us", "value": 125, "higher_is_better": false},
  {"group": "g", "name": "skip", "unit": "us", "value": null, "skipped": true,
   "skip_reason": "not here", "higher_is_better": false},
  {"group": "g", "name": "size", "unit": "KiB", "value": 150, "higher_is_better": false},
  {"group": "g", "name": "unit", "unit": "ms", "value": 0.1, "higher_is_better": false},
  {"group": "g", "name": "nodirection", "unit": "MB/s", "value": 200},
  {"group": "g", "name": "new", "unit": "us", "value": 1, "higher_is_better": false}
]}
EOF

"$swtee" bench --compare "$dir/a.json" "$dir/b.json" >"$dir/out" 2>&1
status=$?
cat "$dir/out"
row() { # case, then the verdict its row must end with
	grep -Eq "^g +$1 .* $2\$" "$dir/out"
}
check "exit status 0" test "$status" = 0
check "20% less time is faster" row faster faster
check "+4.9% is inside the 5% band" row noise same
check "a rate that drops is slower" row rate_down slower
check "the measured spread widens the band" row spread same
check "a case only in A" row gone "only in A"
check "a case only in B" row new "only in B"
check "a case skipped in B" row skip "skipped in B"
check "a size that grows is larger" row size larger
check "other units are not compared" row unit "units differ"
check "a rate without higher_is_better is read from its unit" row nodirection faster
check "the tally" grep -q "^2 better (faster or smaller), 2 worse, 2 same, 4 not compared" \
	"$dir/out"

printf '[{"group": "g"' >"$dir/cut.json"
"$swtee" bench --compare "$dir/a.json" "$dir/cut.json" >"$dir/out" 2>&1
check "a cut file is refused" test $? = 1
check "and said so" grep -q "ends in the middle" "$dir/out"
printf '[]\n[]\n' >"$dir/two.json"
"$swtee" bench --compare "$dir/two.json" "$dir/a.json" >"$dir/out" 2>&1
check "bytes after the value are refused" test $? = 1
printf '[{"group": "g", "name": "x", "value": "1"}]' >"$dir/type.json"
"$swtee" bench --compare "$dir/type.json" "$dir/a.json" >"$dir/out" 2>&1
check "a value that is a string is refused" grep -q '"value" is not a number' "$dir/out"
"$swtee" bench --compare "$dir/a.json" >"$dir/out" 2>&1
check "one file is a usage error" test $? = 2

exit $failed
