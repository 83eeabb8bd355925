#!/usr/bin/env bash
# Fault injection: SIGKILL of the core, of the supplicant and of a TA while
# clients are mid-call. Each client gets a clear error, never a hang, and a
# restarted TEE serves again. Prints "N passed, M failed" last.
set -u
BUILD=$1
# shellcheck source=check.sh
source "$(dirname "$0")/check.sh"
run=$(mktemp -d /tmp/swtee-faults.XXXXXX)
export SWTEE_SOCKET=$run/tee.sock
core=
supp=
start_tee() {
	"$BUILD/bin/swteed" -q -s "$SWTEE_SOCKET" --supplicant-socket "$run/supp.sock" &
	core=$!
	for _ in $(seq 100); do [ -S "$SWTEE_SOCKET" ] && break; sleep 0.05; done
	"$BUILD/bin/tee-supplicant" -l "$BUILD/lib/swtee/ta" "$run/supp.sock" &
	supp=$!
	sleep 0.2
}
# client MODE: starts a client, waits for "ready"; its output goes to $run/out
client() {
	rm -f "$run/out"
	"$BUILD/bin/fault_client" "$1" > "$run/out" &
	cpid=$!
	for _ in $(seq 100); do grep -q ready "$run/out" 2>/dev/null && break; sleep 0.05; done
}
finish() { # waits for the client, at most 10 s
	for _ in $(seq 200); do kill -0 "$cpid" 2>/dev/null || break; sleep 0.05; done
	if kill -0 "$cpid" 2>/dev/null; then kill -9 "$cpid"; echo "HUNG"; else cat "$run/out"; fi
}

start_tee
client wait
sleep 0.1
kill -9 "$core"
out=$(finish)
check "core killed mid-invoke: the call fails as a dead target" "invoke ffff3024 3" "$out"
check "core killed: a new session is a communication error" "reopen ffff000e 2" "$out"
kill "$supp" 2>/dev/null
wait "$supp" 2>/dev/null
check "core killed: no TA process outlives it" "^0$" "$(pgrep -f 'swtee-ta-host --zygote' -P "$core" | wc -l)"

start_tee
client nop
sleep 0.1
pkill -9 -f "swtee-ta-host --zygote" -P "$(pgrep -P "$core" -f zygote)" 2>/dev/null
out=$(finish)
check "TA killed mid-invoke: the call fails as a dead target" "invoke ffff3024 3" "$out"
check "TA killed: the core still opens sessions" "reopen 00000000" "$out"
kill -0 "$core" && check "TA killed: the core lives" "x" "x"

kill -9 "$supp"
wait "$supp" 2>/dev/null
client nop
out=$(cat "$run/out")
check "supplicant killed: a new instance cannot load, clearly" "open ffff000e 3" "$out"
kill "$cpid" 2>/dev/null
"$BUILD/bin/tee-supplicant" -l "$BUILD/lib/swtee/ta" "$run/supp.sock" &
supp=$!
sleep 0.3
client wait
kill -9 "$cpid"
wait "$cpid" 2>/dev/null
check "supplicant back: sessions open again" "ready" "$(cat "$run/out")"

kill "$core" "$supp" 2>/dev/null
wait "$core" "$supp" 2>/dev/null
rm -rf "$run"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
