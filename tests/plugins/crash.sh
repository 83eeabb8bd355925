#!/bin/sh
# A plugin that crashes tee-supplicant: the call fails with
# TEE_ERROR_COMMUNICATION, the core logs it and serves on (xtest 1089);
# swtee run reports the supplicant's end and starts it again, so plugin
# calls work again (xtest 1080), and the run fails, as a crash in the TEE
# does.
# Usage: crash.sh BUILD_DIR PLUGIN_DIR
set -u
BUILD=$1
DIR=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fail() {
	echo "FAIL: $*"
	cat "$WORK/log"
	exit 1
}

cat >"$WORK/inner.sh" <<'INNER'
set -u
BUILD=$1
SWTEE_XTEST_PLUGIN_CRASH=1 "$BUILD/bin/xtest" 1089 || exit 3
i=0
until "$BUILD/bin/swtee" status | grep -q 'tee-supplicant: *connected'; do
	i=$((i + 1))
	[ $i -lt 100 ] || exit 4
	sleep 0.1
done
"$BUILD/bin/xtest" 1080 || exit 5
echo "plugins.crash: inner checks passed"
INNER

"$BUILD/bin/swtee" run --state "$WORK/state" --plugin-path "$DIR" -- \
	sh "$WORK/inner.sh" "$BUILD" >"$WORK/log" 2>&1
rc=$?
grep -qx "plugins.crash: inner checks passed" "$WORK/log" || fail "the checks under swtee run failed"
[ $rc = 1 ] || fail "swtee run exited $rc, not 1 (the supplicant it started crashed)"
# A sanitizer build's supplicant reports the fault itself and exits 1.
grep -Eq "^swtee run: tee-supplicant (was killed by signal 11|exited with status 1); starting it again" "$WORK/log" ||
	fail "swtee run does not report the supplicant's crash"
grep -q "^swteed: TA 3151995e-fb6a-4c13-8145-b939b6b408b6: the supplicant's plugin channel closed (tee-supplicant ended?) during a call to plugin e97afe86-82c6-454b-aca9-dbef09aae313 (cmd 5)" "$WORK/log" ||
	fail "the core does not log the call the crash failed"
grep -q "^swteed: tee-supplicant disconnected" "$WORK/log" ||
	fail "the core does not log the supplicant's end"
echo "PASS: a crashing plugin"
