#!/bin/sh
# swtee sign --library: a TA library is signed only when it is one (no
# .ta_head, its soname its UUID), verifies only as one, and a TA is never
# signed as a library nor a library as a TA.
set -u
B=$1
SWTEE=$B/bin/swtee
KEY=$B/ta_dev_kit/keys/default_ta.pem
LIB=$B/ta-elf/libta_shlib_base.so
LIB_UUID=5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6f02
TA=$B/ta-elf/5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e10.so
TA_UUID=5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e10
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# refused WHAT EXPECTED-TEXT CMD...: CMD fails and says EXPECTED-TEXT.
refused() {
	what=$1
	text=$2
	shift 2
	if "$@" > "$W/out" 2>&1; then
		fail "$what: accepted"
	elif ! grep -q "$text" "$W/out"; then
		fail "$what: no '$text' in: $(cat "$W/out")"
	else
		echo "ok: $what: $(tail -n 1 "$W/out")"
	fi
}

"$SWTEE" sign --library --key "$KEY" --uuid $LIB_UUID --in "$LIB" --out "$W/lib.ta" ||
	fail "a library does not sign"
"$SWTEE" sign --verify --library --key "$KEY" --uuid $LIB_UUID --in "$W/lib.ta" > /dev/null ||
	fail "the signed library does not verify as one"
refused "a library verified as a TA" "no .ta_head" \
	"$SWTEE" sign --verify --key "$KEY" --uuid $LIB_UUID --in "$W/lib.ta"
refused "a library signed for another UUID" "soname" \
	"$SWTEE" sign --library --key "$KEY" --uuid $TA_UUID --in "$LIB" --out "$W/x.ta"
refused "a TA signed as a library" "not a library" \
	"$SWTEE" sign --library --key "$KEY" --uuid $TA_UUID --in "$TA" --out "$W/y.ta"
refused "a library signed as a TA" "no .ta_head" \
	"$SWTEE" sign --key "$KEY" --uuid $LIB_UUID --in "$LIB" --out "$W/z.ta"
"$SWTEE" sign --key "$KEY" --uuid $TA_UUID --in "$TA" --out "$W/ta.ta" || fail "the TA does not sign"
refused "a TA verified as a library" "not a library" \
	"$SWTEE" sign --verify --library --key "$KEY" --uuid $TA_UUID --in "$W/ta.ta"
refused "--verify --library without --uuid" "needs --uuid" \
	"$SWTEE" sign --verify --library --key "$KEY" --in "$W/lib.ta"
[ "$fails" = 0 ] || exit 1
