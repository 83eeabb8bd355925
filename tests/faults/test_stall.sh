#!/usr/bin/env bash
# A stalled supplicant delays only the clients waiting on it: while one open
# waits for a TA image the supplicant never sends, other clients open,
# invoke and close sessions (on a loaded keep-alive TA and on a TA the
# supplicant does serve); the stalled open fails at its deadline, clearly. A
# connection that never says hello blocks nobody either. Prints
# "N passed, M failed" last.
set -u
BUILD=$1
# shellcheck source=check.sh
source "$(dirname "$0")/check.sh"
run=$(mktemp -d /tmp/swtee-stall.XXXXXX)
export SWTEE_SOCKET=$run/tee.sock
tas=$BUILD/lib/swtee/ta
stall=5717a11e-0000-4000-8000-00000000beef
wait_for() { # file regex: at most 5 s
	for _ in $(seq 100); do grep -qE "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
	return 1
}
finish_within() { # pid seconds: waits for it, or kills it
	for _ in $(seq $(($2 * 20))); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.05; done
	kill -9 "$1" 2>/dev/null
	return 1
}
cleanup() {
	kill "$core" "$supp" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$run"
}
"$BUILD/bin/swteed" -q -s "$SWTEE_SOCKET" --supplicant-socket "$run/supp.sock" &
core=$!
trap cleanup EXIT
for _ in $(seq 100); do [ -S "$SWTEE_SOCKET" ] && break; sleep 0.05; done

# A peer that connects as the supplicant and never says hello.
"$BUILD/bin/stall_supplicant" "$run/supp.sock" mute > "$run/mute" &
supp=$!
wait_for "$run/mute" connected
out=$("$BUILD/bin/stall_client" open "$stall")
check "no hello yet: an open fails at once, clearly" "^open ffff000e [0-9]{1,3}$" "$out"
finish_within "$supp" 15
check "no hello: the core closes the connection at its deadline" "closed" "$(cat "$run/mute")"

"$BUILD/bin/stall_supplicant" "$run/supp.sock" "$tas" "$stall" > "$run/supp" &
supp=$!
wait_for "$run/supp" connected
out=$("$BUILD/bin/stall_client" loop 1 keepalive)
check "the keep-alive TA loads" "^loop 1 00000000" "$out"

# The attestation pseudo-TA's wait for a TA image the supplicant never
# sends, then, 2 s later, an open's: the first to reach its deadline, the
# attestation's drops the supplicant, which ends the open's wait early.
"$BUILD/bin/stall_client" attest "$stall" > "$run/attest" &
attesting=$!
wait_for "$run/supp" stalling
sleep 2
"$BUILD/bin/stall_client" open "$stall" > "$run/stalled" &
stalled=$!
sleep 0.2
out=$("$BUILD/bin/stall_client" loop 40 keepalive)
check "supplicant stalled: a loaded TA serves 40 sessions, none slow" \
	"^loop 40 00000000 max ([0-9]{1,2}|[0-9]{3})$" "$out"
out=$("$BUILD/bin/stall_client" loop 20 basic)
check "supplicant stalled: TAs it does serve still load, none slow" \
	"^loop 20 00000000 max ([0-9]{1,2}|[0-9]{3})$" "$out"
check "the stalled open is still waiting" "^$" "$(cat "$run/stalled")"
kill -0 "$stalled" 2>/dev/null && check "its client is still waiting" x x

finish_within "$attesting" 15
check "the stalled attestation fails at its deadline, as a communication error" \
	"^attest ffff000e (9[0-9]{3}|1[0-1][0-9]{3})$" "$(cat "$run/attest")"
finish_within "$stalled" 15
check "the stalled open fails then, before its own deadline, as a communication error" \
	"^open ffff000e [6-9][0-9]{3}$" "$(cat "$run/stalled")"
finish_within "$supp" 5
check "the stalled supplicant was dropped" "closed" "$(cat "$run/supp")"
out=$("$BUILD/bin/stall_client" loop 5 keepalive)
check "with no supplicant, the loaded TA still serves" "^loop 5 00000000" "$out"
kill -0 "$core" && check "the core lives" x x

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
