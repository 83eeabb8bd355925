#!/usr/bin/env bash
# Login identities come from the kernel: with two real users (and a third
# outside the TEE's group), each client gets the identity of the user it
# runs as, whatever it claims, and a non-member cannot reach the core at all.
# Needs root (to make users); prints "N passed, M failed" last.
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

getent group swtee-t-tee >/dev/null || groupadd swtee-t-tee
getent group swtee-t-other >/dev/null || groupadd swtee-t-other
for u in swtee-t-core swtee-t-a swtee-t-b swtee-t-c; do
	id "$u" >/dev/null 2>&1 || useradd -M -N -g nogroup -s /usr/sbin/nologin "$u"
done
usermod -a -G swtee-t-tee swtee-t-core
usermod -a -G swtee-t-tee swtee-t-a
usermod -a -G swtee-t-tee swtee-t-b

run=$(mktemp -d /tmp/swtee-priv.XXXXXX)
chmod 0755 "$run"
install -d -o swtee-t-core -g swtee-t-tee -m 0750 "$run/sock"
sock=$run/sock/tee.sock
supp=$run/sock/supplicant.sock
as_user() { local u=$1; shift; exec setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups "$@"; }

(as_user swtee-t-core "$BUILD/bin/swteed" -q -s "$sock" --supplicant-socket "$supp" \
	--socket-group swtee-t-tee) &
core=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
(as_user swtee-t-core "$BUILD/bin/tee-supplicant" -l "$BUILD/lib/swtee/ta" "$supp") &
supp_pid=$!
sleep 0.3

export SWTEE_SOCKET=$sock
ident() { (as_user "$1" "$BUILD/bin/login_identity" "${@:2}"); }
uid_a=$(id -u swtee-t-a); uid_b=$(id -u swtee-t-b)
gid_tee=$(getent group swtee-t-tee | cut -d: -f3)
gid_other=$(getent group swtee-t-other | cut -d: -f3)

check "socket is group-only" "660 swtee-t-tee" "$(stat -c '%a %G' "$sock")"
check "user a: USER login" "1 $(python3 "$(dirname "$0")/uuid_v5.py" "uid=$(printf %x "$uid_a")")" "$(ident swtee-t-a user)"
check "user b: USER login" "1 $(python3 "$(dirname "$0")/uuid_v5.py" "uid=$(printf %x "$uid_b")")" "$(ident swtee-t-b user)"
check "user a: PUBLIC login" "0 00000000-0000-0000-0000-000000000000" "$(ident swtee-t-a public)"
check "user a: GROUP login, a member" "2 $(python3 "$(dirname "$0")/uuid_v5.py" "gid=$(printf %x "$gid_tee")")" "$(ident swtee-t-a group "$gid_tee")"
check "user a: GROUP login, not a member" "error ffff0001" "$(ident swtee-t-a group "$gid_other")"
# The executable of another user's process is not the core's to read
# (/proc/PID/exe): an APPLICATION login across users is refused, never guessed.
check "user a: APPLICATION login, core of another user" "error ffff0001" "$(ident swtee-t-a app)"
check "core user: APPLICATION login" "4 $(python3 "$(dirname "$0")/uuid_v5.py" "app=$(readlink -f "$BUILD/bin/login_identity")")" "$(ident swtee-t-core app)"
check "user c (not in the group) cannot connect" "error ffff0008" "$(ident swtee-t-c user)"
check "state of the core is not readable by others" "750" "$(stat -c %a "$run/sock")"

kill "$supp_pid" "$core" 2>/dev/null
wait "$core" "$supp_pid" 2>/dev/null
rm -rf "$run"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
