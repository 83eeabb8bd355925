# The fault tests' checks: check NAME EXPECTED-REGEX GOT counts and prints
# each; the caller prints "$pass passed, $fail failed" last.
pass=0
fail=0
check() {
	if [[ "$3" =~ $2 ]]; then
		pass=$((pass + 1)); echo "ok   $1"
	else
		fail=$((fail + 1)); echo "FAIL $1: expected /$2/, got '$3'"
	fi
}
