#!/usr/bin/env bash
# swtee run keeps a supplicant: one stopped (SIGSTOP) while a TA loads is
# dropped by the core at the 10 s deadline, ends once it runs again, and is
# started again, so TAs load again; one killed is reported and started
# again too, and the run then fails as a crash in the TEE does. Prints
# "N passed, M failed" last.
set -u
BUILD=$1
# shellcheck source=check.sh
source "$(dirname "$0")/check.sh"
work=$(mktemp -d /tmp/swtee-restart.XXXXXX)
trap 'rm -rf "$work"' EXIT
basic=5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01

cat > "$work/inner.sh" <<'INNER'
set -u
BUILD=$1
basic=$2
supp_pid() { pgrep -f -- "tee-supplicant.*$(dirname "$SWTEE_SOCKET")/supplicant.sock" | head -1; }
connected() { # at most 10 s
	for _ in $(seq 100); do
		"$BUILD/bin/swtee" status 2>/dev/null | grep -q 'tee-supplicant: *connected' && return 0
		sleep 0.1
	done
	return 1
}
first=$(supp_pid)
kill -STOP "$first"
echo "stalled: $("$BUILD/bin/stall_client" open "$basic")"
kill -CONT "$first"
connected && [ "$(supp_pid)" != "$first" ] && echo "restarted after the stall"
echo "after the stall: $("$BUILD/bin/stall_client" loop 3 basic)"
second=$(supp_pid)
kill -9 "$second"
sleep 0.3
connected && [ "$(supp_pid)" != "$second" ] && echo "restarted after the kill"
echo "after the kill: $("$BUILD/bin/stall_client" loop 3 basic)"
INNER

"$BUILD/bin/swtee" run --state "$work/state" -- bash "$work/inner.sh" "$BUILD" "$basic" \
	> "$work/log" 2>&1
rc=$?
log=$(cat "$work/log")
check "a stopped supplicant fails the open at the deadline" "stalled: open ffff000e (9[0-9]{3}|1[0-9]{4})" "$log"
check "the core drops it" "swteed: tee-supplicant did not answer in time" "$log"
check "swtee run starts it again after the stall" "restarted after the stall" "$log"
check "TAs load again after the stall" "after the stall: loop 3 00000000" "$log"
check "a killed supplicant is reported" "swtee run: tee-supplicant (was killed by signal 9|exited with status [0-9]+); starting it again" "$log"
check "swtee run starts it again after the kill" "restarted after the kill" "$log"
check "TAs load again after the kill" "after the kill: loop 3 00000000" "$log"
check "the run fails, as a crash in the TEE does" "^1$" "$rc"
[ "$fail" = 0 ] || cat "$work/log"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
