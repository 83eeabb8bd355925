#!/bin/sh
# A newcomer's mistakes get one line that says what is wrong and a non-zero
# exit: a test suite swtee does not have, a state dir that cannot be made
# or written.
set -u
BUILD=$1
pass=0
fail=0
# expect NAME MESSAGE CMD...: CMD fails and its stderr holds MESSAGE.
expect() {
	name=$1
	msg=$2
	shift 2
	if out=$("$@" 2>&1 >/dev/null); then
		fail=$((fail + 1)); echo "FAIL $name: exit status 0"; return
	fi
	case $out in
	*"$msg"*) pass=$((pass + 1)); echo "ok   $name: $out" ;;
	*) fail=$((fail + 1)); echo "FAIL $name: no '$msg' in: $out" ;;
	esac
}

expect "xtest -t gp runs nothing" "nothing to run: -t gp" "$BUILD/bin/xtest" -t gp
expect "xtest -t bogus" 'unknown test suite "bogus"' "$BUILD/bin/xtest" -t bogus
expect "swtee run, a state dir that cannot be made" "cannot create the state dir /dev/null/state" \
	"$BUILD/bin/swtee" run --state /dev/null/state -- true

ro=$(mktemp -d)
chmod 0555 "$ro"
if [ "$(id -u)" = 0 ]; then
	# root writes anywhere: the unwritable dir is tried as nobody.
	as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	bin=$(mktemp -d)
	cp "$BUILD/bin/swtee" "$bin/"
	cp -P "$BUILD"/lib/libteec.so* "$bin/"
	chmod -R a+rX "$bin"
	# shellcheck disable=SC2086 # a command and its options
	expect "swtee run, a state dir that is not writable" "cannot create $ro/ree" \
		env LD_LIBRARY_PATH="$bin" $as_nobody "$bin/swtee" run --state "$ro" -- true
	rm -rf "$bin"
else
	expect "swtee run, a state dir that is not writable" "cannot create $ro/ree" \
		"$BUILD/bin/swtee" run --state "$ro" -- true
fi
rmdir "$ro"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
