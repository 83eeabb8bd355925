#!/bin/sh
# tee-supplicant at start: every DIR/*.plugin in name order, each logged by
# name and UUID; the duplicate of a UUID refused, a failing init skipped, a
# file that does not load skipped, and files without the suffix ignored.
# Usage: load.sh BUILD_DIR PLUGIN_DIR
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
T=e97afe86-82c6-454b-aca9-dbef09aae313
B=b54b5f22-2f74-4c5a-8b18-6e89cbe49a1c

"$BUILD/bin/swtee" run --state "$WORK/state" --plugin-path "$DIR" -- true >"$WORK/log" 2>&1 ||
	fail "swtee run --plugin-path failed"
grep -qxF "tee-supplicant: plugin swtee-test ($T) loaded from $DIR/$T.plugin" "$WORK/log" ||
	fail "the test plugin's load is not logged"
grep -qxF "tee-supplicant: plugin swtee-test-duplicate ($T) from $DIR/zz-duplicate.plugin: refused, swtee-test from $DIR/$T.plugin serves that UUID" "$WORK/log" ||
	fail "the duplicate is not refused"
grep -qxF "tee-supplicant: plugin swtee-test-bad-init ($B) from $DIR/$B.plugin: init failed with 0xffff0000; skipped" "$WORK/log" ||
	fail "the failing init is not skipped"
grep -q "^tee-supplicant: plugin $DIR/broken.plugin: cannot be loaded: " "$WORK/log" ||
	fail "the broken plugin is not skipped"
grep -q README "$WORK/log" && fail "a file without the .plugin suffix was looked at"
[ "$(grep -c ' loaded from ' "$WORK/log")" = 1 ] || fail "not exactly one plugin loaded"

# A directory that is not there: said, and the TEE runs without plugins.
"$BUILD/bin/swtee" run --state "$WORK/state" --plugin-path "$WORK/state" -- true \
	>"$WORK/log" 2>&1 || fail "a directory without plugins stops the TEE"
grep -q "loaded from" "$WORK/log" && fail "plugins loaded from a directory without any"
"$BUILD/bin/swtee" run --state "$WORK/state" --plugin-path "$WORK/none" -- true \
	>"$WORK/log" 2>&1 && fail "swtee run took a --plugin-path that does not exist"
grep -qF "swtee run: --plugin-path $WORK/none: No such file or directory" "$WORK/log" ||
	fail "swtee run does not say why it refused --plugin-path"
"$BUILD/bin/tee-supplicant" -p "$WORK/none" "$WORK/no.sock" >"$WORK/log" 2>&1
grep -qF "tee-supplicant: plugin directory $WORK/none: No such file or directory; no plugins loaded" \
	"$WORK/log" || fail "tee-supplicant -p does not say the directory is missing"
echo "PASS: plugin loading"
