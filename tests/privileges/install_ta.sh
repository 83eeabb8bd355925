#!/usr/bin/env bash
# TAs installed into the secure dir (xtest --install-ta, the secure-storage
# TA management pseudo-TA): with a TA path that lacks the basic TA, its open
# fails; installed, it opens, and still after a restart; altered in the
# secure dir, it is refused at load; as a user other than root and the
# TEE's, the install is refused. Prints "N passed, M failed" last.
set -u
BUILD=$1
# shellcheck source=../faults/check.sh
source "$(dirname "$0")/../faults/check.sh"
basic=5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01
run=$(mktemp -d /tmp/swtee-install.XXXXXX)
chmod 0755 "$run"
mkdir -p "$run/tas" "$run/secure"
export SWTEE_SOCKET=$run/tee.sock
core=
supp=
stop_core() {
	kill $core $supp 2>/dev/null
	wait 2>/dev/null
}
trap 'stop_core; rm -rf "$run"' EXIT
start_core() {
	rm -f "$SWTEE_SOCKET"
	"$BUILD/bin/swteed" -q -s "$SWTEE_SOCKET" --supplicant-socket "$run/supp.sock" \
		--secure-dir "$run/secure" 2> "$run/core.log" &
	core=$!
	for _ in $(seq 100); do [ -S "$run/supp.sock" ] && break; sleep 0.05; done
	"$BUILD/bin/tee-supplicant" -l "$run/tas" "$run/supp.sock" 2>/dev/null &
	supp=$!
	sleep 0.3
}
open_basic() { "$BUILD/bin/limits_client" conns 1 < /dev/null; }

start_core
check "the basic TA is not on the TA path: TEEC_ERROR_ITEM_NOT_FOUND" "^conns 0 ffff0008$" \
	"$(open_basic)"
check "xtest --install-ta installs it" "^installed .*$basic.ta$" \
	"$("$BUILD/bin/xtest" --install-ta "$BUILD/lib/swtee/ta/$basic.ta" 2>&1)"
check "it is kept in the secure dir, for the core alone" "^-rw------- " \
	"$(ls -l "$run/secure/tas/$basic.ta")"
check "it opens from the secure dir" "^conns 1 0$" "$(open_basic)"
stop_core
start_core
check "and still after a restart" "^conns 1 0$" "$(open_basic)"
stop_core
# One byte of its ELF changed where only the core writes.
printf '\x55' | dd of="$run/secure/tas/$basic.ta" bs=1 seek=3000 conv=notrunc status=none
start_core
check "altered in the secure dir, it is refused at load: TEEC_ERROR_SECURITY" \
	"^conns 0 ffff000f$" "$(open_basic)"
check "the log says why" "image hash mismatch" "$(cat "$run/core.log")"
if [ "$(id -u)" = 0 ]; then
	id swtee-t-a > /dev/null 2>&1 || useradd -M -N -g nogroup -s /usr/sbin/nologin swtee-t-a
	# A copy the other user can reach: the build tree may be private.
	mkdir -p "$run/build/bin"
	cp "$BUILD/bin/xtest" "$run/build/bin/"
	cp -r "$BUILD/lib" "$run/build/"
	chmod -R a+rX "$run/build"
	out=$(setpriv --reuid=swtee-t-a --regid=nogroup --init-groups \
		env LD_LIBRARY_PATH="$run/build/lib" "$run/build/bin/xtest" --install-ta \
		"$run/build/lib/swtee/ta/$basic.ta" 2>&1)
	check "another user's install is refused: TEEC_ERROR_ACCESS_DENIED" "0xffff0001" "$out"
	check "the log names the user" "refused to user $(id -u swtee-t-a)" "$(cat "$run/core.log")"
else
	echo "skip another user's install: needs root to make the user"
fi
stop_core
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
