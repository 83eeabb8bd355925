#!/usr/bin/env bash
# swtee run's last-resort state dir, /tmp/swtee-state-UID (no SWTEE_STATE_DIR,
# XDG_STATE_HOME or HOME), with two real users (issue 23, finding 13). The
# attack: user b makes a's dir first, then reads a's REE side and puts an
# older copy of the whole state back. swtee run must refuse a dir that is
# not a's own directory of mode 0700 (another user's, a symbolic link, a
# mode open to others) with an error saying what to do, and touch nothing
# in it; a missing one it makes 0700. Needs root (to make users); prints
# "N passed, M failed" last.
set -u
BUILD=$1
if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root to create test users"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
pass=0
fail=0
check() { # name expected got
	if [ "$2" = "$3" ]; then
		pass=$((pass + 1)); echo "ok   $1"
	else
		fail=$((fail + 1)); echo "FAIL $1: expected '$2', got '$3'"
	fi
}

for u in swtee-t-a swtee-t-b; do
	id "$u" > /dev/null 2>&1 || useradd -M -N -g nogroup -s /usr/sbin/nologin "$u"
done
run=$(mktemp -d /tmp/swtee-statedir.XXXXXX)
chmod 0755 "$run"
# The test users may not reach the checkout: they run a copy.
mkdir -p "$run/build/bin"
cp "$BUILD/bin/swtee" "$BUILD/bin/swteed" "$BUILD/bin/tee-supplicant" "$run/build/bin/"
cp -r "$BUILD/lib" "$run/build/"
chmod -R a+rX "$run/build"
a_uid=$(id -u swtee-t-a)
dir=/tmp/swtee-state-$a_uid
trap 'rm -rf "$run" "$dir"' EXIT
as_user() { local u=$1; shift; setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups "$@"; }
# a_run: swtee run as a with none of the variables that name a state dir;
# its status, its stderr in $run/err.
a_run() {
	as_user swtee-t-a env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$run/build/lib" \
		"$run/build/bin/swtee" run -- true > /dev/null 2> "$run/err"
	echo $?
}
# refused NAME REASON: swtee run fails, naming the dir and the reason, and
# leaves the dir as it was (no ree/ nor secure/ made in it).
refused() {
	local before after
	before=$(ls -A "$dir" 2> /dev/null | wc -l)
	check "$1: refused" 1 "$(a_run)"
	check "$1: the error names the dir and why" 1 \
		"$(grep -c "refusing the state dir $dir: $2.*Pass --state DIR" "$run/err")"
	after=$(ls -A "$dir" 2> /dev/null | wc -l)
	check "$1: nothing made in it" "$before" "$after"
}

rm -rf "$dir"
# b makes a's dir first, open to a so that a could write into it.
as_user swtee-t-b mkdir -m 0777 "$dir"
as_user swtee-t-b chmod 0777 "$dir"
refused "a dir of another user" "another user owns it"
rm -rf "$dir"
# b points a's name at a dir of b's.
install -d -o swtee-t-b -m 0777 "$run/b-state"
as_user swtee-t-b ln -s "$run/b-state" "$dir"
refused "a symbolic link" "it is a symbolic link"
check "a symbolic link: nothing made in its target" "" "$(ls -A "$run/b-state" 2>&1)"
rm -f "$dir"
# a's own, but open to others.
as_user swtee-t-a mkdir -m 0755 "$dir"
as_user swtee-t-a chmod 0755 "$dir"
refused "a's own dir with mode 0755" "others have access to it"
rm -rf "$dir"
as_user swtee-t-b touch "$dir"
refused "a file of another user" "it is not a directory"
rm -f "$dir"

# None there: made 0700 for a, and used.
check "a missing dir: the run works" 0 "$(a_run)"
check "a missing dir: made 0700, a's" "700 swtee-t-a" "$(stat -c '%a %U' "$dir")"
check "a missing dir: the state is in it" "ree secure" \
	"$(ls -d "$dir/ree" "$dir/secure" 2> /dev/null | xargs -n1 basename | xargs)"
check "again: the run works" 0 "$(a_run)"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
