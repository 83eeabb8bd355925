#!/bin/sh
# A newcomer's mistakes get one line that says what is wrong and a non-zero
# exit: a test suite swtee does not have, a state dir that cannot be made
# or written, a client with no TEE to reach (which also reaches the system
# TEE when the user has none).
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

# No TEE: libteec says which sockets it tried and how to start one.
nowhere=$(mktemp -d)
expect "a client, SWTEE_SOCKET with nothing behind it" \
	"libteec: no TEE at $nowhere/tee.sock (No such file or directory)" \
	env SWTEE_SOCKET="$nowhere/tee.sock" "$BUILD/bin/xtest" 1001
if [ ! -e /run/swtee/tee.sock ]; then
	expect "a client, no TEE of the user's nor of the system" \
		"no TEE at $nowhere/swtee/tee.sock nor at /run/swtee/tee.sock" \
		env -u SWTEE_SOCKET XDG_RUNTIME_DIR="$nowhere" "$BUILD/bin/xtest" 1001
	expect "swtee status, no TEE of the user's nor of the system" \
		"no TEE at $nowhere/swtee/tee.sock nor at /run/swtee/tee.sock" \
		env -u SWTEE_SOCKET XDG_RUNTIME_DIR="$nowhere" "$BUILD/bin/swtee" status
fi
# Without a TEE of the user's, the system's: root only, and only where
# there is no system TEE to disturb (a CI machine).
if [ "$(id -u)" = 0 ] && [ ! -e /run/swtee ] && command -v python3 > /dev/null; then
	mkdir -p /run/swtee
	python3 -c '
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind("/run/swtee/tee.sock"); s.listen(4)
print("up", flush=True)
c, _ = s.accept()
print("connected", flush=True)
c.close()
c, _ = s.accept()
if c.recv(64) == (0x102).to_bytes(4, "little"):
    c.send(b"".join(v.to_bytes(4, "little") for v in (0x182, 3, 4, 1, 1)))
' > "$nowhere/listener.out" &
	lp=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		grep -q up "$nowhere/listener.out" 2>/dev/null && break
		sleep 0.2
	done
	env -u SWTEE_SOCKET XDG_RUNTIME_DIR="$nowhere" "$BUILD/bin/xtest" 1001 \
		> "$nowhere/xtest.out" 2>&1
	env -u SWTEE_SOCKET XDG_RUNTIME_DIR="$nowhere" "$BUILD/bin/swtee" status \
		> "$nowhere/status.out" 2>&1
	wait "$lp"
	if grep -q connected "$nowhere/listener.out" && ! grep -q "no TEE" "$nowhere/xtest.out"; then
		pass=$((pass + 1)); echo "ok   a client without a TEE of its own reaches /run/swtee/tee.sock"
	else
		fail=$((fail + 1)); echo "FAIL the client did not fall back to /run/swtee/tee.sock"
		cat "$nowhere/xtest.out"
	fi
	if grep -q "^socket: *\/run\/swtee\/tee.sock$" "$nowhere/status.out" &&
		grep -q "^sessions: *4$" "$nowhere/status.out"; then
		pass=$((pass + 1)); echo "ok   swtee status without a TEE of its own asks /run/swtee/tee.sock"
	else
		fail=$((fail + 1)); echo "FAIL swtee status did not fall back to /run/swtee/tee.sock"
		cat "$nowhere/status.out"
	fi
	rm -rf /run/swtee
fi
rm -rf "$nowhere"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
