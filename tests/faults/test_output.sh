#!/usr/bin/env bash
# What a TA writes reaches the TEE's log through the core, named by the core:
# the hostile TA reads stdin (it must get end of file, never the terminal),
# writes a line posing as another TA and one posing as the core, control
# characters, and a last line with no newline before its instance ends
# (returning, and panicking). The TEE's log is a file here, not a terminal.
# A TA that floods its output is read a window at a time, and loses nothing.
# Prints "N passed, M failed" last.
set -u
BUILD=$1
# shellcheck source=check.sh
source "$(dirname "$0")/check.sh"
work=$(mktemp -d /tmp/swtee-output.XXXXXX)
trap 'rm -rf "$work"' EXIT
ta="TA 5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e06"

# A terminal's worth of typing waits on stdin: no TA may read it.
echo "a password" | "$BUILD/bin/swtee" run --state "$work/state" -- \
	"$BUILD/bin/stdio_client" > "$work/out" 2> "$work/log"
check "the client ran" "^stdio 00000000 [0-9]+ stdin 0" "$(head -1 "$work/out")"
check "a panicking TA's client sees it" "^panic ffff3024 3$" "$(sed -n 2p "$work/out")"
check "the TA's line is on the log, named by the core" \
	"^swteed: $ta: hostile-output: a line on stdout$" "$(grep -m1 -- "a line on stdout" "$work/log")"
check "nothing of the TA reaches the client's output" "^$" "$(grep hostile "$work/out")"
check "no line passes for another TA's" "^$" \
	"$(grep "^swteed: TA 00000000-0000-0000-0000-000000000000" "$work/log")"
check "no line passes for the core's" "^$" "$(grep "^swteed: a forged" "$work/log")"
check "the forged lines are there, as the TA's (two calls)" "^4$" \
	"$(grep -c "^swteed: $ta: swteed: .*a forged line" "$work/log")"
check "control characters are escaped" \
	"^swteed: $ta: hostile-output: \\\\x1b\[2Jescaped\\\\x0d$" \
	"$(grep -m1 -- "escaped" "$work/log")"
check "no control character reaches the log" "^0$" "$(tr -d '\n\t' < "$work/log" |
	LC_ALL=C grep -c '[[:cntrl:]]')"
check "last words of an instance that ends are kept" "^swteed: $ta: hostile-output: last words 0$" \
	"$(grep -- "last words 0" "$work/log")"
check "last words of an instance that panics are kept" "^swteed: $ta: hostile-output: last words 1$" \
	"$(grep -- "last words 1" "$work/log")"
# A TA that writes without end is read a window at a time: it waits on its
# full pipe, the core serves everyone else meanwhile, and no line is lost.
"$BUILD/bin/swtee" run --state "$work/state" -- sh -c \
	"'$BUILD/bin/stdio_client' flood 3000 > '$work/flood' &
	'$BUILD/bin/stall_client' loop 20 basic > '$work/loop'; wait" 2> "$work/log2"
check "the flooding TA finishes" "^flood 00000000$" "$(cat "$work/flood")"
check "other sessions meanwhile, none slow" "^loop 20 00000000 max ([0-9]{1,2}|[0-9]{3})$" \
	"$(cat "$work/loop")"
check "every line of the flood is logged, in order" "^3000 1 3000$" \
	"$(grep "^swteed: $ta: flood " "$work/log2" | awk '{print $NF}' |
		awk 'NR == 1 {f = $1} {n++; if ($1 != n) bad = 1} END {print (bad ? "gap" : n), f, $1}')"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
