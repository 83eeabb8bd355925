#!/bin/sh
# The OP-TEE TA headers of the kit (atomic.h, util.h, sys/queue.h, ...) and
# the functions they declare: a TA shaped like OP-TEE's that includes every
# one of them before the glibc headers a wrong compiler.h breaks, built
# with warnings as errors (with gcc and, when installed, clang), checks
# their macros at compile time and their functions when its client runs it.
. "$(dirname "$0")/../common.sh"

p=$WORK/optee_headers
ta_uuid=7e1c4a52-93b0-4d6f-8a21-5c0f3e9d7b64

# build_and_run NAME [VAR=value...]
build_and_run() {
	name=$1
	shift
	copy "$SWTEE_SOURCE/tests/devkit/optee_headers" optee_headers
	build "$p" CFG_WERROR=y "$@" > "$WORK/build.$name" 2>&1 ||
		{ cat "$WORK/build.$name"; fail "$name: the TA or its client does not build"; }
	[ -f "$p/ta/$ta_uuid.ta" ] || fail "$name: no signed TA"
	run "$p/ta" "$WORK/log.$name" "$p/host/devkit_optee_headers" > "$WORK/out.$name" ||
		{ cat "$WORK/out.$name"; fail "$name: a check of the TA or its client failed"; }
	cat "$WORK/out.$name"
	for c in atomic uuid map_zi cache helpers; do
		grep -qx "ok $c" "$WORK/out.$name" || fail "$name: command $c did not pass"
	done
	# EHEXDUMP is compiled in at the default level, DHEXDUMP is not.
	grep -q "TA $ta_uuid: E/TA: check_misc:[0-9]* 0000: de ad be ef 00" "$WORK/log.$name" ||
		fail "$name: no EHEXDUMP line in the log"
	grep -q "0010: 00 00 00 00$" "$WORK/log.$name" || fail "$name: the dump's second line is wrong"
	[ "$(grep -c ' 0000: de ad be ef' "$WORK/log.$name")" = 1 ] ||
		fail "$name: DHEXDUMP printed above its level"
}

# An AddressSanitizer swtee runs TAs on the sanitizer's malloc.
if host_has_asan; then
	export OPTEE_HEADERS_HEAP_UNCOUNTED=1
fi
build_and_run gcc
if command -v clang > /dev/null; then
	build_and_run clang COMPILER=clang
fi
echo "PASS"
