#!/usr/bin/env bash
# A chosen subset under valgrind memcheck; zero reports (errors or definite
# leaks) in every process valgrind watched. One side per run:
#   client  xtest (the client library, and xtest itself) on a private TEE
#   core    swteed under valgrind, started by hand, serving a native xtest
#   ta      the crypt TA's instances under valgrind (swtee run --debug-ta)
# Usage: test_valgrind.sh client|core|ta BUILD
set -u
side=$1
BUILD=$2
CASES=(1001 1002 1003 1004 1005 1008 5006)
# The crypt TA: its instances run the GP crypto runtime (cipher, MAC, AE).
CRYPT_UUID=2ba2c06a-43ca-452b-8219-73a20ccc3361
CRYPT_CASES=(4001 4002 4003 4005 4017)

if ! command -v valgrind > /dev/null; then
	echo "valgrind is not installed (make deps installs it)"
	exit 1
fi
run=$(mktemp -d /tmp/swtee-valgrind.XXXXXX)
VG=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full
	--errors-for-leak-kinds=definite --suppressions="$(dirname "$0")/openssl.supp"
	--log-file="$run/vg.%p")

# Every log valgrind wrote ends in a clean summary, or holds only its header
# (a fork that exec'd a program valgrind does not follow: the core's zygote).
# Prints the others; at least one summary must be there.
logs_clean() {
	local n=0 bad=0
	local header='^==[0-9]+== ($|Memcheck,|Copyright|Using Valgrind|Command:|Parent PID:)'

	for f in "$run"/vg.*; do
		[ -e "$f" ] || continue
		if grep -q 'ERROR SUMMARY: 0 errors' "$f"; then
			n=$((n + 1))
		elif grep -qvE "$header" "$f"; then
			bad=$((bad + 1))
			echo "---- $f"
			cat "$f"
		fi
	done
	echo "valgrind: $n clean summaries, $bad logs with reports"
	[ "$n" -gt 0 ] && [ "$bad" = 0 ]
}

rc=0
case $side in
client)
	"$BUILD/bin/swtee" run --state "$run/state" -- "${VG[@]}" "$BUILD/bin/xtest" "${CASES[@]}" ||
		rc=1
	;;
core)
	# As swtee run does: a private TA directory first, for xtest 1008's images.
	export SWTEE_SOCKET=$run/tee.sock SWTEE_RUN_TA_DIR=$run/ta
	mkdir "$SWTEE_RUN_TA_DIR"
	# valgrind cannot run a process under a seccomp filter: the core's
	# allowlist is off here (unit.core_sandbox and every other run test it).
	SWTEE_CORE_NO_SANDBOX=1 "${VG[@]}" "$BUILD/bin/swteed" -q -s "$SWTEE_SOCKET" \
		--supplicant-socket "$run/supp.sock" &
	core=$!
	for _ in $(seq 300); do [ -S "$SWTEE_SOCKET" ] && break; sleep 0.1; done
	"$BUILD/bin/tee-supplicant" -l "$SWTEE_RUN_TA_DIR:$BUILD/lib/swtee/ta" "$run/supp.sock" &
	supp=$!
	sleep 0.5
	"$BUILD/bin/xtest" "${CASES[@]}" || rc=1
	kill "$supp" 2>/dev/null
	wait "$supp" 2>/dev/null
	kill "$core"
	wait "$core" || rc=1
	# The core itself must have reached its summary (it stops on SIGTERM).
	grep -q 'ERROR SUMMARY' "$run/vg.$core" || { echo "swteed: no valgrind summary"; rc=1; }
	;;
ta)
	"$BUILD/bin/swtee" run --state "$run/state" --debug-ta "$CRYPT_UUID" \
		--debug-wrapper "${VG[*]}" -- "$BUILD/bin/xtest" "${CRYPT_CASES[@]}" || rc=1
	;;
*)
	echo "usage: $0 client|core|ta BUILD"
	exit 2
	;;
esac
logs_clean || rc=1
rm -rf "$run"
exit $rc
