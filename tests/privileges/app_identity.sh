#!/usr/bin/env bash
# APPLICATION identity belongs to the program that asks (issue 23, finding
# 11). The attack: a client connects, forks, and execs another program in
# the parent before the core accepts the connection; the child, still the
# first program, opens an APPLICATION session on that connection and was
# given the exec'd program's identity. The core is stopped (SIGSTOP) while
# the client connects and execs, so the core accepts only after the exec,
# every time. Then the same in the core's own protocol, as a hostile client
# would (exec_race.c): an open written before the core accepted, and one
# whose sender execs after sending it. Prints "N passed, M failed" last.
set -u
BUILD=$1
# shellcheck source=../faults/check.sh
source "$(dirname "$0")/../faults/check.sh"
run=$(mktemp -d /tmp/swtee-appid.XXXXXX)
export SWTEE_SOCKET=$run/tee.sock
"$BUILD/bin/swteed" -s "$SWTEE_SOCKET" --supplicant-socket "$run/supp.sock" 2> "$run/core.log" &
core=$!
trap 'kill -CONT $core 2>/dev/null; kill $core $supp 2>/dev/null; wait 2>/dev/null; rm -rf "$run"' EXIT
for _ in $(seq 100); do [ -S "$run/supp.sock" ] && break; sleep 0.05; done
"$BUILD/bin/tee-supplicant" -l "$BUILD/lib/swtee/ta" "$run/supp.sock" 2>/dev/null &
supp=$!
sleep 0.3
uuid_of() { python3 "$(dirname "$0")/uuid_v5.py" "app=$1"; }
self=$(readlink -f "$BUILD/bin/login_identity")
sleep_bin=$(readlink -f /bin/sleep)
check "an APPLICATION login names the client's own program" "^4 $(uuid_of "$self")$" \
	"$("$BUILD/bin/login_identity" app)"
for i in 1 2 3; do
	kill -STOP $core
	"$BUILD/bin/login_identity" app-after-exec "$sleep_bin" > "$run/out$i" &
	client=$!
	sleep 0.5
	kill -CONT $core
	wait $client
	for _ in $(seq 50); do [ -s "$run/out$i" ] && break; sleep 0.1; done
	got=$(cat "$run/out$i")
	check "run $i: the forked child never gets the exec'd program's identity" "^error ffff0001$" "$got"
	[ "$got" = "4 $(uuid_of "$sleep_bin")" ] && check "run $i: it got /bin/sleep's identity" x y
done
check "the log says why" "^3$" "$(grep -c "its executable is $self, not $sleep_bin as when it connected" "$run/core.log")"
# The core's own protocol, as no libteec client would use it: an open sent
# before the core accepted (so before it read who connected), and an open
# whose sender execs the program the core read as the connecting one.
race=$BUILD/bin/exec_race
for i in 1 2; do
	kill -STOP $core
	"$race" before-accept "$sleep_bin" > "$run/pre$i" &
	client=$!
	sleep 0.5
	kill -CONT $core
	wait $client
	for _ in $(seq 50); do [ -s "$run/pre$i" ] && break; sleep 0.1; done
	check "run $i: an open written before the accept, then an exec: refused" \
		"^refused ffff0001$" "$(cat "$run/pre$i")"
	kill -STOP $core
	"$race" after-send "$sleep_bin" $core > "$run/post$i" &
	client=$!
	sleep 0.5
	kill -CONT $core
	wait $client
	for _ in $(seq 50); do [ -s "$run/post$i" ] && break; sleep 0.1; done
	kill -CONT $core
	check "run $i: the sender execs the program the core read at the accept: refused" \
		"^refused ffff0001$" "$(cat "$run/post$i")"
done
check "the log says why (no nonce)" "^2$" "$(grep -c "without this connection's nonce" "$run/core.log")"
check "the log says why (a new program)" "^2$" "$(grep -c "has run a new program since it connected" "$run/core.log")"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
