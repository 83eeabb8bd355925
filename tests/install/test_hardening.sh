#!/usr/bin/env bash
# The TEE's programs are built hardened: full RELRO (a read-only GOT bound
# at load), stack canaries and, in an optimized build without sanitizers,
# fortified libc calls. Usage: test_hardening.sh BUILD_DIR FORTIFIED(0|1)
set -u
BUILD=$1
FORTIFIED=$2
pass=0
fail=0
check() { # name condition-result
	if [ "$2" = 0 ]; then
		pass=$((pass + 1)); echo "ok   $1"
	else
		fail=$((fail + 1)); echo "FAIL $1"
	fi
}
for prog in bin/swteed bin/tee-supplicant lib/swtee/swtee-ta-host bin/swtee-tpm bin/swtee \
	lib/libteec.so; do
	f=$BUILD/$prog
	[ -e "$f" ] || { check "$prog exists" 1; continue; }
	readelf -lW "$f" | grep -q GNU_RELRO
	check "$prog: RELRO" $?
	readelf -dW "$f" | grep -Eq 'FLAGS.*(BIND_NOW|NOW)'
	check "$prog: bound at load (BIND_NOW)" $?
	readelf -sW --dyn-syms "$f" | grep -q __stack_chk_fail
	check "$prog: stack canaries" $?
	if [ "$FORTIFIED" = 1 ]; then
		readelf -sW --dyn-syms "$f" | grep -Eq '__[a-z_]+_chk@'
		check "$prog: fortified libc calls" $?
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
