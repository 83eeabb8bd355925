#!/bin/sh
# The sandbox's log names every refused call: one line for each of xtest
# 1050's 19 attempts the seccomp filter refuses, and the core's line for
# the one it hands the core (an open as the loader makes, no library to load).
# usage: sandbox_log.sh BUILD_DIR STATE_DIR
set -u
log=$("$1/bin/swtee" run -v --state "$2" -- "$1/bin/xtest" 1050 2>&1)
rc=$?
printf '%s\n' "$log" >&2
[ "$rc" -eq 0 ] || { echo "sandbox_log: xtest 1050 failed ($rc)" >&2; exit 1; }
n=$(printf '%s\n' "$log" | grep -c 'sandbox refused system call')
[ "$n" -eq 19 ] || { echo "sandbox_log: $n refused calls logged, not 19" >&2; exit 1; }
printf '%s\n' "$log" | grep -q 'opened a file with no library to load' ||
	{ echo "sandbox_log: the core did not log the open it refused" >&2; exit 1; }
