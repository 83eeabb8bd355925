#!/usr/bin/env bash
# What one user may hold: with small limits, user a takes all it may of each
# (connections, sessions on one connection, TA processes, TA processes its TA
# starts TA to TA, opens a stalled supplicant keeps waiting, memory a TA
# commits past its TA_DATA_SIZE and the runtime's slack); the next is
# refused with TEEC_ERROR_BUSY and a log line naming the user and the limit,
# while user b is served. STATUS tells a user its own counts only. Needs root
# (to make users); prints "N passed, M failed" last.
set -u
BUILD=$1
if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root to create test users"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
# shellcheck source=../faults/check.sh
source "$(dirname "$0")/../faults/check.sh"
for u in swtee-t-a swtee-t-b; do
	id "$u" >/dev/null 2>&1 || useradd -M -N -g nogroup -s /usr/sbin/nologin "$u"
done
uid_a=$(id -u swtee-t-a)
run=$(mktemp -d /tmp/swtee-limits.XXXXXX)
chmod 0755 "$run"
mkdir -p "$run/build/bin"
cp "$BUILD/bin/limits_client" "$BUILD/bin/stall_client" "$BUILD/bin/swtee" "$run/build/bin/"
cp -r "$BUILD/lib" "$run/build/"
chmod -R a+rX "$run/build"
export LD_LIBRARY_PATH=$run/build/lib
export SWTEE_SOCKET=$run/tee.sock
as_user() { local u=$1; shift; setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups "$@"; }
core=
supp=
holders=()
stop_core() {
	for h in "${holders[@]}"; do kill "$h" 2>/dev/null; done
	holders=()
	kill $core $supp 2>/dev/null
	wait 2>/dev/null
}
trap 'stop_core; rm -rf "$run"' EXIT
start_core() { # swteed options...
	rm -f "$SWTEE_SOCKET"
	"$BUILD/bin/swteed" -q -s "$SWTEE_SOCKET" --supplicant-socket "$run/supp.sock" "$@" \
		2> "$run/core.log" &
	core=$!
	for _ in $(seq 100); do [ -S "$run/supp.sock" ] && break; sleep 0.05; done
	"$BUILD/bin/tee-supplicant" -l "$BUILD/lib/swtee/ta" "$run/supp.sock" 2>/dev/null &
	supp=$!
	sleep 0.3
}
# hold NAME USER ARGS...: runs limits_client as USER, holding what it got
# until fd_NAME closes, and waits for its line in $run/NAME.
hold() {
	local name=$1 user=$2
	shift 2
	mkfifo "$run/$name.in"
	(as_user "$user" "$run/build/bin/limits_client" "$@" < "$run/$name.in" > "$run/$name") &
	holders+=($!)
	exec {fd}> "$run/$name.in"
	eval "fd_$name=$fd"
	for _ in $(seq 200); do [ -s "$run/$name" ] && break; sleep 0.05; done
}
once() { as_user "$1" "$run/build/bin/limits_client" "${@:2}" < /dev/null; }
logged() { grep -c -- "$1" "$run/core.log"; }

start_core --max-clients-per-user 4 --max-sessions-per-client 3 --max-instances-per-user 6
hold c4 swtee-t-a conns 4
check "user a: 4 connections, each with a session" "^conns 4 0$" "$(cat "$run/c4")"
check "user a: a fifth connection is refused with TEEC_ERROR_BUSY" "^conns 0 ffff000d$" \
	"$(once swtee-t-a conns 1)"
check "the log names user a and the limit" "^1$" \
	"$(logged "user $uid_a holds 4 connections, its limit (--max-clients-per-user)")"
check "user b is served meanwhile" "^conns 1 0$" "$(once swtee-t-b conns 1)"
check "user b's STATUS: its own sessions only" "^TA instances: +0 sessions: +0 $" \
	"$(as_user swtee-t-b "$run/build/bin/swtee" status | grep -E "instances|sessions" | tr '\n' ' ')"
check "root's STATUS: the whole TEE's" "^TA instances: +4 sessions: +4 $" \
	"$("$run/build/bin/swtee" status | grep -E "instances|sessions" | tr '\n' ' ')"
check "user b's stats pseudo-TA: its own TA only, none of user a's 4" "^stats 1 0$" \
	"$(once swtee-t-b stats 1)"
# Memory: a TA of TA_DATA_SIZE 1 MiB has its runtime's slack, not 500 MiB.
check "a TA commits 8 MiB with malloc (the runtime's slack)" "^commit 1 0$" \
	"$(once swtee-t-b commit 8 malloc)"
# The sanitizers reserve terabytes: a sanitizer build sets no memory limits.
if readelf -d "$BUILD/lib/swtee/swtee-ta-host" | grep -q libasan; then
	echo "skip a TA of 1 MiB cannot commit 256 MiB: a sanitizer build has no memory limits"
else
	for how in malloc mmap memfd; do
		check "a TA of 1 MiB cannot commit 256 MiB ($how), and lives on" "^commit 0 0$" \
			"$(once swtee-t-b commit 256 $how)"
	done
fi
# Memory files: the rlimits bound each one, the instance's memory cgroup all
# of them: TA_DATA_SIZE, stack, the shared-memory window and the slack, in
# steps of 64 MiB (doubled and 1 GiB more for a sanitizer build's shadow).
ta_memory=$("$run/build/bin/swtee" status | sed -n 's/^TA memory: *//p')
cg=$(find /sys/fs/cgroup -maxdepth 6 -type d -name "swtee-$core" 2>/dev/null | head -1)
if [ "${ta_memory#one cgroup}" = "$ta_memory" ] || [ -z "$cg" ]; then
	echo "skip a TA holds memory files within its cgroup: $ta_memory"
else
	want=640
	readelf -d "$BUILD/bin/swteed" | grep -q libasan && want=2304
	hold h0 swtee-t-b hoard 0 1
	limits=$(cat "$cg"/ta-*/memory.limit_in_bytes "$cg"/ta-*/memory.max 2>/dev/null |
		awk '$1 != "max" && $1 < 2^60 { print int($1 / 1048576) }' | sort -u)
	# Spares and TAs of up to 64 MiB of data and stack alike; 2880 MiB in
	# all below would fit the cap of a TA whose size the core did not read.
	check "the TA of 1 MiB and the spares run in cgroups of $want MiB" "^$want$" "$limits"
	eval "exec $fd_h0>&-"
	# 48 files of 60 MiB: each within its 65 MiB rlimit, 2880 MiB in all.
	# Ended by the kernel at the limit, or stopped within a file of it.
	verdict=$(once swtee-t-b hoard 48 60 | awk -v w=$want '
		$3 == "ffff3024" || ($3 == "0" && $2 <= w && $2 + 60 > w - 64) { print "bounded"; next }
		{ print "not bounded: " $0 }')
	check "a TA of 1 MiB holding 48 memory files of 60 MiB is stopped by its cgroup" \
		"^bounded$" "$verdict"
	check "the TEE serves the user next" "^commit 1 0$" "$(once swtee-t-b commit 8 malloc)"
	sleep 0.5
	# An ended process's cgroup is removed, or kept empty (at most 4 of
	# them, none holding memory) with the spares' limit for a later spare.
	procs=$("$run/build/bin/swtee" status | awk '/^TA instances|^spare/ { n += $NF } END { print n }')
	held=0 idle=0 idle_bad=""
	for d in "$cg"/ta-*; do
		if [ -n "$(cat "$d/cgroup.procs")" ]; then
			held=$((held + 1))
			continue
		fi
		idle=$((idle + 1))
		bytes=$(cat "$d/memory.usage_in_bytes" "$d/memory.current" 2>/dev/null | head -1)
		limit=$(cat "$d/memory.limit_in_bytes" "$d/memory.max" 2>/dev/null | head -1)
		[ "$bytes" -le $((4 << 20)) ] && [ $((limit >> 20)) = "$want" ] ||
			idle_bad="$idle_bad ${d##*/}:$bytes:$limit"
	done
	check "each live TA process has its own cgroup" "^$procs$" "$held"
	check "at most 4 ended processes' cgroups are kept, empty" "^[0-4] ok$" "$idle ${idle_bad:-ok}"
fi
stop_core
check "the core's cgroup is removed when it stops" "^$" "$([ -n "$cg" ] && ls -d "$cg" 2>/dev/null)"
if [ -n "$cg" ]; then
	# A core killed outright leaves its cgroups; the next core removes them.
	start_core
	once swtee-t-b conns 1 > /dev/null
	dead=$(dirname "$cg")/swtee-$core
	kill -9 "$core"
	check "a core killed with SIGKILL leaves its cgroup" "^$dead$" "$(ls -d "$dead" 2>/dev/null)"
	stop_core
	sleep 0.5 # its zygote and spares end too
	start_core
	check "the next core removes the cgroup of the one that died" "^$" \
		"$(ls -d "$dead" 2>/dev/null)"
	stop_core
	# Without them, the attack above succeeds.
	start_core --no-ta-cgroups
	check "swteed --no-ta-cgroups: rlimits only" "^TA memory: +rlimits only" \
		"$("$run/build/bin/swtee" status | grep '^TA memory')"
	check "and a TA of 1 MiB then holds all 2880 MiB of its memory files" "^hoard 2880 0$" \
		"$(once swtee-t-b hoard 48 60)"
	stop_core
fi

start_core --max-clients-per-user 4 --max-sessions-per-client 3 --max-instances-per-user 3
check "user a: 3 sessions on one connection, then TEEC_ERROR_BUSY" "^sessions 3 ffff000d$" \
	"$(once swtee-t-a sessions 8 single)"
check "the log names the client's user and the limit" "^1$" \
	"$(logged "of user $uid_a holds 3 sessions, its limit (--max-sessions-per-client)")"
hold p3 swtee-t-a sessions 3 multi
check "user a: 3 sessions, each a TA process of its own" "^sessions 3 0$" "$(cat "$run/p3")"
check "user a: a fourth TA process is refused with TEEC_ERROR_BUSY" "^conns 0 ffff000d$" \
	"$(once swtee-t-a conns 1)"
check "the log names user a and the limit" "^1$" \
	"$(logged "user $uid_a runs 3 TA instances, its limit (--max-instances-per-user)")"
check "user b still gets TA processes" "^sessions 3 0$" "$(once swtee-t-b sessions 3 multi)"
eval "exec $fd_p3>&-"
sleep 1
check "TA to TA: the TA processes user a's TA starts count against a" "^fanout 2 ffff000d$" \
	"$(once swtee-t-a fanout 4)"
check "the log says so, once for each refused" "^3$" "$(logged "user $uid_a runs 3 TA instances, its limit")"
stop_core

# Opens that a stalled supplicant keeps waiting count until their deadline.
rm -f "$SWTEE_SOCKET"
"$BUILD/bin/swteed" -q -s "$SWTEE_SOCKET" --supplicant-socket "$run/supp.sock" \
	--max-opens-per-user 2 2> "$run/core.log" &
core=$!
for _ in $(seq 100); do [ -S "$run/supp.sock" ] && break; sleep 0.05; done
stall=5717a11e-0000-4000-8000-00000000beef
"$BUILD/bin/stall_supplicant" "$run/supp.sock" "$BUILD/lib/swtee/ta" "$stall" > "$run/supp" &
supp=$!
for _ in $(seq 100); do grep -q connected "$run/supp" && break; sleep 0.05; done
for i in 1 2; do
	(as_user swtee-t-a "$run/build/bin/stall_client" open "$stall" > "$run/stalled$i") &
	holders+=($!)
done
sleep 0.5
out=$(as_user swtee-t-a "$run/build/bin/stall_client" open "$stall")
check "user a: a third open while two wait is refused at once" "^open ffff000d [0-9]{1,3}$" "$out"
check "the log names user a and the limit" "^1$" \
	"$(logged "user $uid_a has 2 session opens in progress, its limit (--max-opens-per-user)")"
out=$(as_user swtee-t-b "$run/build/bin/stall_client" loop 3 basic)
check "user b opens sessions meanwhile" "^loop 3 00000000" "$out"
stop_core

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
