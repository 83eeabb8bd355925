#!/bin/sh
# robust.no_listener (no_listener.c): usage: no_listener.sh BUILD_DIR HELPER STATE_DIR
set -u
log=$("$2" wrap "$1/bin/swtee" run -v --state "$3" -- "$2" client 2>&1)
rc=$?
printf '%s\n' "$log" >&2
[ "$rc" -eq 0 ] || { echo "no_listener: the check failed ($rc)" >&2; exit 1; }
printf '%s\n' "$log" | grep -q 'no seccomp listener here' ||
	{ echo "no_listener: the TA's log does not say why it loads no library" >&2; exit 1; }
