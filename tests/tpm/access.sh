#!/usr/bin/env bash
# Who may drive the fTPM through swtee-tpm (issue 23, finding 8), with real
# users: a runs the TEE and the bridge, b is another local user, c is in
# the group the bridge may be given. The attack: b extends a PCR of a's TPM
# (and could reset PCRs, evict keys, clear it). The bridge's Unix sockets
# are a's only (0600, even in a directory everyone may enter), or the
# group's with --socket-group (0660); the default ones are in a 0700
# directory of a's, which is refused when another user made it; TCP only
# with --tcp, which says in the log that every local user reaches it.
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

getent group swtee-t-tpm > /dev/null || groupadd swtee-t-tpm
for u in swtee-t-a swtee-t-b swtee-t-c; do
	id "$u" > /dev/null 2>&1 || useradd -M -N -g nogroup -s /usr/sbin/nologin "$u"
done
usermod -a -G swtee-t-tpm swtee-t-a
usermod -a -G swtee-t-tpm swtee-t-c
a_uid=$(id -u swtee-t-a)
dflt=/tmp/swtee-tpm-$a_uid
run=$(mktemp -d /tmp/swtee-tpmacc.XXXXXX)
chmod 0755 "$run"
bridge=""
cleanup() {
	[ -n "$bridge" ] && kill "$bridge" 2> /dev/null && wait "$bridge"
	rm -rf "$run" "$dflt"
}
trap cleanup EXIT
# The test users may not reach the checkout: they run a copy (the fTPM TA
# is in lib/swtee/ta).
mkdir -p "$run/build/bin"
for p in swtee swteed tee-supplicant swtee-tpm; do cp "$BUILD/bin/$p" "$run/build/bin/"; done
cp -r "$BUILD/lib" "$run/build/"
chmod -R a+rX "$run/build"
install -d -o swtee-t-a -m 0700 "$run/state" "$run/io"
# Everyone may enter and make files here: only the sockets' own mode protects them.
install -d -m 1777 "$run/pub"
pub=$run/pub
as_user() { local u=$1; shift; setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups "$@"; }
# as USER, with a clean environment (no XDG_RUNTIME_DIR, HOME, SWTEE_*).
as_clean() { local u=$1; shift; as_user "$u" env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$run/build/lib" "$@"; }

# start_bridge ARGS...: as a, a TEE on $run/state with swtee-tpm ARGS in it.
start_bridge() {
	rm -f "$run/io/ready"
	# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
	# setpriv and env exec: $! is swtee run, which stops the TEE on SIGTERM.
	setpriv --reuid=swtee-t-a --regid="$(id -g swtee-t-a)" --init-groups \
		env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$run/build/lib" "$run/build/bin/swtee" run --state "$run/state" -- \
		sh -c 'exec "$0" --ready-fd 3 "$@" 3> "'"$run/io/ready"'" 2> "'"$run/io/log"'"' \
		"$run/build/bin/swtee-tpm" "$@" &
	bridge=$!
	for _ in $(seq 300); do
		grep -q ready "$run/io/ready" 2> /dev/null && return 0
		kill -0 "$bridge" 2> /dev/null || break
		sleep 0.05
	done
	fail=$((fail + 1))
	echo "FAIL the bridge did not start: $(cat "$run/io/log" 2> /dev/null)"
	return 1
}
stop_bridge() {
	[ -n "$bridge" ] && kill "$bridge" 2> /dev/null && wait "$bridge"
	bridge=""
}
# connect USER PATH: what USER's connect(2) to the Unix socket PATH gives.
connect() {
	as_user "$1" /usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect(sys.argv[1])
    print("connected")
except PermissionError:
    print("EACCES")
except OSError as e:
    print("errno %d" % e.errno)' "$2"
}
# rand USER TCTI: whether USER gets 8 random bytes from the TPM at TCTI.
rand() {
	if as_clean "$1" tpm2_getrandom -T "$2" --hex 8 2> /dev/null | grep -qE '^[0-9a-f]{16}$'; then
		echo yes
	else
		echo no
	fi
}
pcr16() { as_clean swtee-t-a tpm2_pcrread -T "$1" sha256:16 2> /dev/null | grep -c 0x0000000000000000000000000000000000000000000000000000000000000000; }
zero=0000000000000000000000000000000000000000000000000000000000000001

# 1. Sockets named in a directory everyone may enter: a's only.
start_bridge --mssim "unix:$pub/m" --swtpm "unix:$pub/s" || true
for s in m m.ctrl s s.ctrl; do
	check "socket $s: mode 0600, a's" "600 swtee-t-a" "$(stat -c '%a %U' "$pub/$s")"
	check "socket $s: b's connect refused" EACCES "$(connect swtee-t-b "$pub/$s")"
	check "socket $s: c's connect refused (no --socket-group)" EACCES "$(connect swtee-t-c "$pub/$s")"
done
as_clean swtee-t-b tpm2_pcrextend -T "mssim:path=$pub/m" "16:sha256=$zero" 2> /dev/null
as_clean swtee-t-b tpm2_pcrextend -T "swtpm:path=$pub/s" "16:sha256=$zero" 2> /dev/null
check "b's PCR extends did not reach the TPM" 1 "$(pcr16 "mssim:path=$pub/m")"
check "a, the owner, drives the TPM over mssim" yes "$(rand swtee-t-a "mssim:path=$pub/m")"
check "a, the owner, drives the TPM over swtpm" yes "$(rand swtee-t-a "swtpm:path=$pub/s")"
check "b does not, over mssim" no "$(rand swtee-t-b "mssim:path=$pub/m")"
stop_bridge
check "the sockets are removed at the end" "" "$(ls -A "$pub")"

# 2. --socket-group: the group's members too, nobody else.
start_bridge --mssim "unix:$pub/m" --swtpm "unix:$pub/s" --socket-group swtee-t-tpm || true
for s in m m.ctrl s s.ctrl; do
	check "--socket-group: socket $s mode 0660, the group's" "660 swtee-t-tpm" \
		"$(stat -c '%a %G' "$pub/$s")"
done
check "--socket-group: c, a member, drives the TPM" yes "$(rand swtee-t-c "mssim:path=$pub/m")"
check "--socket-group: b's connect refused" EACCES "$(connect swtee-t-b "$pub/s.ctrl")"
stop_bridge

# 3. No address: Unix sockets in /tmp/swtee-tpm-UID (no XDG_RUNTIME_DIR here), 0700.
rm -rf "$dflt"
start_bridge || true
check "default: the directory is a's, 0700" "700 swtee-t-a" "$(stat -c '%a %U' "$dflt")"
check "default: mssim socket 0600" 600 "$(stat -c '%a' "$dflt/mssim")"
check "default: a drives the TPM over mssim" yes "$(rand swtee-t-a "mssim:path=$dflt/mssim")"
check "default: a drives the TPM over swtpm" yes "$(rand swtee-t-a "swtpm:path=$dflt/swtpm")"
check "default: b's connect refused" EACCES "$(connect swtee-t-b "$dflt/mssim")"
check "default: b cannot drive it on TCP 2321" no "$(rand swtee-t-b "mssim:host=127.0.0.1,port=2321")"
stop_bridge
# b made the directory first: the bridge refuses to put its sockets there.
rm -rf "$dflt"
as_user swtee-t-b mkdir -m 0777 "$dflt"
as_user swtee-t-b chmod 0777 "$dflt"
as_clean swtee-t-a "$run/build/bin/swtee-tpm" 2> "$run/err"
check "default dir made by b: swtee-tpm fails" 1 "$?"
check "default dir made by b: it says why" 1 \
	"$(grep -c "refusing the socket directory $dflt: another user owns it" "$run/err")"
check "default dir made by b: no socket made in it" "" "$(ls -A "$dflt")"
rm -rf "$dflt"

# 4. TCP: only with --tcp, and then the log says it is open to every local user.
port=$((20000 + RANDOM % 20000 * 2))
as_clean swtee-t-a "$run/build/bin/swtee-tpm" --mssim "127.0.0.1:$port" 2> "$run/err"
check "TCP without --tcp: refused" 1 "$?"
check "TCP without --tcp: it says to pass --tcp" 1 "$(grep -c "pass --tcp" "$run/err")"
start_bridge --tcp --mssim "127.0.0.1:$port" || true
check "--tcp: the log says every local user reaches it" 1 \
	"$(grep -c "open to every local user" "$run/io/log")"
check "--tcp: as documented, b reaches it" yes "$(rand swtee-t-b "mssim:host=127.0.0.1,port=$port")"
stop_bridge

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
