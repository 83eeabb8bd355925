#!/bin/sh
# swtee run --ta-key PEM (or $SWTEE_TA_KEY): a developer's own signing key.
# The basic TA signed with a new key is refused by a private TEE, and runs
# when the key is given either way.
set -u
B=$1
SWTEE=$B/bin/swtee
BASIC=5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

openssl genrsa -out "$W/dev.pem" 3072 2> /dev/null || { echo "FAIL: openssl genrsa"; exit 1; }
mkdir "$W/tas"
"$SWTEE" sign --key "$W/dev.pem" --uuid $BASIC --in "$B/ta-elf/$BASIC.so" \
	--out "$W/tas/$BASIC.ta" || { echo "FAIL: cannot sign"; exit 1; }

if "$SWTEE" run -v --state "$W/state" --ta-path "$W/tas" -- "$B/bin/xtest" 1001 \
	> "$W/out" 2>&1; then
	fail "a TA signed with an unknown key ran"
elif grep -q "image refused: not signed by a key this TEE trusts (.*); trusted: built-in ([0-9]*-bit RSA, SHA-256 [0-9a-f]\{16\}). Trust its key with swtee run --ta-key PEM" "$W/out"; then
	echo "ok: without --ta-key the TA is refused, the trusted keys and the remedy named: $(grep -m1 'image refused' "$W/out")"
else
	fail "no refusal in the log: $(tail -n 5 "$W/out")"
fi
"$SWTEE" run --state "$W/state" --ta-path "$W/tas" --ta-key "$W/dev.pem" -- "$B/bin/xtest" 1001 \
	> "$W/out" 2>&1 && echo "ok: --ta-key PEM trusts it" ||
	fail "--ta-key: $(tail -n 5 "$W/out")"
SWTEE_TA_KEY=$W/dev.pem "$SWTEE" run --state "$W/state" --ta-path "$W/tas" -- "$B/bin/xtest" 1001 \
	> "$W/out" 2>&1 && echo "ok: SWTEE_TA_KEY trusts it" ||
	fail "SWTEE_TA_KEY: $(tail -n 5 "$W/out")"
[ "$fails" = 0 ]
