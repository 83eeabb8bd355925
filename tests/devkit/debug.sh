#!/bin/sh
# Native debugging of one TA (docs/ta-development.md): an instance that
# waits for gdb and has its symbols; gdbserver and valgrind as wrappers.
. "$(dirname "$0")/common.sh"

UUID=2d1ad0c6-41a5-4d7e-9d3e-2b7c3a6f0b11
copy "$SWTEE_SOURCE/tests/devkit/bugs" bugs
build "$WORK/bugs" > "$WORK/build" 2>&1 || { cat "$WORK/build"; fail "the TA does not build"; }
src=$WORK/bugs/ta/bugs_ta.c
client=$WORK/bugs/host/devkit_bugs
count_line=$(grep -n '^static uint32_t count' "$src" | cut -d: -f1)
uaf_line=$(grep -n 'BUG: use after free' "$src" | cut -d: -f1)
# The instance's copy of the TA for the debugger goes under TMPDIR.
export TMPDIR=$WORK/tmp
mkdir "$TMPDIR"
tested=""

# wait_for FILE PATTERN: up to 30 s.
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 300 ] || return 1
		sleep 0.1
	done
}

# 1. The instance waits; gdb attaches by pid, breaks in the TA, sees its source.
if command -v gdb > /dev/null; then
	$(asan_preload) "$SWTEE" run --state "$WORK/state" --ta-path "$WORK/bugs/ta" --debug-ta $UUID -- \
		"$client" count > "$WORK/gdb-client.out" 2> "$WORK/gdb-tee.log" &
	tee_pid=$!
	wait_for "$WORK/gdb-tee.log" "waits for a debugger" || fail "no instance waits for gdb"
	pid=$(sed -n 's/.*instance pid \([0-9]*\) .*waits for a debugger.*/\1/p' "$WORK/gdb-tee.log")
	timeout 60 gdb -q -batch -p "$pid" -ex 'break count' -ex continue -ex bt -ex detach \
		> "$WORK/gdb.out" 2>&1 || true
	cat "$WORK/gdb.out"
	if grep -q "ptrace: Operation not permitted" "$WORK/gdb.out"; then
		kill "$pid" 2> /dev/null || true
		wait "$tee_pid" || true
		echo "gdb: this system does not allow ptrace; not tested"
	else
		wait "$tee_pid" || { cat "$WORK/gdb-tee.log"; fail "the client failed under gdb"; }
		grep -q "count (a=7) at $src:" "$WORK/gdb.out" ||
			fail "gdb did not stop in count() with the TA's source ($src:$count_line)"
		grep -q "TA_InvokeCommandEntryPoint .* at $src:" "$WORK/gdb.out" ||
			fail "gdb's backtrace does not name the TA's entry point"
		tested="$tested gdb"
	fi
	ls "$TMPDIR"/swtee-debug-*/ 2> /dev/null | grep -q . &&
		fail "the debug copy of the TA was left behind"
fi

# 2. gdbserver as the wrapper: the TA's symbols come through the remote protocol.
if command -v gdb > /dev/null && command -v gdbserver > /dev/null; then
	port=$((20000 + $$ % 20000))
	$(asan_preload) "$SWTEE" run --state "$WORK/state" --ta-path "$WORK/bugs/ta" --debug-ta $UUID \
		--debug-wrapper "gdbserver --once 127.0.0.1:$port" -- "$client" count \
		> "$WORK/gs-client.out" 2> "$WORK/gs-tee.log" &
	tee_pid=$!
	wait_for "$WORK/gs-tee.log" "Listening on port" || fail "gdbserver did not start"
	timeout 60 gdb -q -batch -ex 'set breakpoint pending on' \
		-ex "target remote 127.0.0.1:$port" -ex 'break count' -ex continue -ex bt \
		-ex detach > "$WORK/gs.out" 2>&1 || true
	cat "$WORK/gs.out"
	wait "$tee_pid" || { cat "$WORK/gs-tee.log"; fail "the client failed under gdbserver"; }
	grep -q "count (a=7) at $src:" "$WORK/gs.out" || fail "gdb through gdbserver did not stop in count()"
	tested="$tested gdbserver"
fi

# 3. valgrind as the wrapper (not on an AddressSanitizer build of swtee).
if command -v valgrind > /dev/null && ! host_has_asan; then
	"$SWTEE" run --state "$WORK/state" --ta-path "$WORK/bugs/ta" --debug-ta $UUID \
		--debug-wrapper 'valgrind -q' -- "$client" uaf > "$WORK/vg-client.out" \
		2> "$WORK/vg.log" || true
	cat "$WORK/vg.log"
	grep -q "Invalid read of size 1" "$WORK/vg.log" || fail "valgrind did not see the use-after-free"
	grep -q "use_after_free (bugs_ta.c:$uaf_line)" "$WORK/vg.log" ||
		fail "valgrind's report does not name bugs_ta.c:$uaf_line"
	tested="$tested valgrind"
fi

[ -n "$tested" ] || skip "neither gdb nor valgrind is installed"
echo "PASS: debugged with$tested"
