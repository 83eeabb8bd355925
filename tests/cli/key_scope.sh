#!/bin/sh
# Signing keys scoped to UUIDs (issue 23, finding 12): a key file given to
# the core with --ta-key may list, before its PEM block, the TA UUIDs the key
# may sign ("uuid UUID" lines). The attack: developer B signs a TA of his
# under developer A's UUID, to read what A's TA stored. With B's key scoped
# to B's own UUID, that image is refused with a line naming B's key file;
# A's image under A's UUID, and a key listing no UUID (any), still load; a
# key file with a malformed line keeps the core from starting, saying where.
set -u
B=$1
SWTEE=$B/bin/swtee
BASIC=5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01
OTHER=0b0b0b0b-1111-4222-8333-444455556666
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
ok() { echo "ok: $*"; }

for k in a b c; do
	openssl genrsa -out "$W/$k.pem" 2048 2> /dev/null || { echo "FAIL: openssl genrsa"; exit 1; }
	openssl rsa -in "$W/$k.pem" -pubout -out "$W/$k.pub" 2> /dev/null ||
		{ echo "FAIL: openssl rsa"; exit 1; }
done
{ echo "# developer A: the basic TA only"; echo "uuid $BASIC"; cat "$W/a.pub"; } > "$W/a.trust"
{ echo "uuid $OTHER"; echo; cat "$W/b.pub"; } > "$W/b.trust"
sign() { # key dir
	mkdir -p "$W/$2"
	"$SWTEE" sign --key "$W/$1.pem" --uuid $BASIC --in "$B/ta-elf/$BASIC.so" \
		--out "$W/$2/$BASIC.ta" || { echo "FAIL: cannot sign with $1"; exit 1; }
}
sign a tas-a
sign b tas-b
sign c tas-c
run() { # dir key-file...
	dir=$1
	shift
	keys=
	for k in "$@"; do keys="$keys --ta-key $W/$k"; done
	# shellcheck disable=SC2086 # one word per option
	"$SWTEE" run -v --state "$W/state" --ta-path "$W/$dir" $keys -- "$B/bin/xtest" 1001 \
		> "$W/out" 2>&1
}

run tas-a a.trust b.trust && ok "A's key signs A's UUID" || fail "A's TA: $(tail -n 5 "$W/out")"
if run tas-b a.trust b.trust; then
	fail "B's key signed A's UUID and the TA ran"
elif grep -q "TA $BASIC: signed by TA key $W/b.trust, which may not sign this UUID" "$W/out"; then
	ok "B's image under A's UUID is refused: $(grep -m1 'may not sign' "$W/out")"
else
	fail "no refusal naming B's key: $(grep -m3 "$BASIC" "$W/out")"
fi
run tas-c c.pub && ok "a key file that lists no UUID signs any" || fail "key c: $(tail -n 5 "$W/out")"
grep -q "TA key $W/c.pub may sign any UUID" "$W/out" && ok "and the log says so" ||
	fail "no line saying key c signs any UUID"
{ echo "uuid not-a-uuid"; cat "$W/a.pub"; } > "$W/bad1.trust"
{ echo "uuids $BASIC"; cat "$W/a.pub"; } > "$W/bad2.trust"
for bad in bad1 bad2; do
	if run tas-a $bad.trust; then
		fail "$bad: the core started with a malformed key file"
	elif grep -q "TA key $W/$bad.trust, line 1: " "$W/out"; then
		ok "$bad: refused: $(grep -m1 'line 1: ' "$W/out")"
	else
		fail "$bad: no line naming the file and line: $(tail -n 3 "$W/out")"
	fi
done
[ "$fails" = 0 ]
