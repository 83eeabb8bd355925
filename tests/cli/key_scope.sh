#!/bin/sh
# Signing keys scoped to UUIDs (issue 23, finding 12): a key file given to
# the core with --ta-key may list, before its PEM block, the TA UUIDs the key
# may sign ("uuid UUID" lines). The attack: developer B signs a TA of his
# under developer A's UUID, to read what A's TA stored. With B's key scoped
# to B's own UUID, that image is refused with a line naming B's key file;
# A's image under A's UUID, and a key listing no UUID (any), still load; a
# key file with a malformed line keeps the core from starting, saying where.
# The same through a system TEE's key dir (swteed --ta-key-dir), which is
# refused when others may write it.
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
# A system TEE's key dir (swteed --ta-key-dir): each *.pem as --ta-key.
mkdir "$W/keys.d"
chmod 0755 "$W/keys.d"
cp "$W/a.trust" "$W/keys.d/a.pem"
cp "$W/b.trust" "$W/keys.d/b.pem"
cp "$W/c.pub" "$W/keys.d/c.pub.ignored"
dir_run() { # ta-dir: swteed --ta-key-dir keys.d and a supplicant serving ta-dir, then xtest 1001
	rm -rf "$W/sock"
	mkdir "$W/sock"
	"$B/bin/swteed" -s "$W/sock/tee.sock" --supplicant-socket "$W/sock/supp.sock" \
		--ta-key-dir "$W/keys.d" 2> "$W/out" &
	core=$!
	i=0
	while [ ! -S "$W/sock/supp.sock" ] && [ $i -lt 100 ] && kill -0 $core 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	"$B/bin/tee-supplicant" -l "$W/$1" "$W/sock/supp.sock" 2>/dev/null &
	supp=$!
	sleep 0.3
	SWTEE_SOCKET=$W/sock/tee.sock "$B/bin/xtest" 1001 > "$W/xtest" 2>&1
	rc=$?
	kill $core $supp 2>/dev/null
	wait $core $supp 2>/dev/null
	return $rc
}
dir_run tas-a && ok "--ta-key-dir: A's key signs A's UUID" || fail "--ta-key-dir, A: $(tail -n 3 "$W/out")"
if dir_run tas-b; then
	fail "--ta-key-dir: B's key signed A's UUID and the TA ran"
elif grep -q "signed by TA key $W/keys.d/b.pem, which may not sign this UUID" "$W/out"; then
	ok "--ta-key-dir: B's image under A's UUID is refused"
else
	fail "--ta-key-dir: no refusal naming B's key: $(tail -n 3 "$W/out")"
fi
dir_run tas-c && fail "--ta-key-dir: a file not named *.pem was trusted" ||
	ok "--ta-key-dir: only *.pem files are keys"
chmod 0775 "$W/keys.d"
if dir_run tas-a; then
	fail "--ta-key-dir: a group-writable key dir was trusted"
elif grep -q "TA key dir $W/keys.d: not a directory that only root or this user may write" \
	"$W/out"; then
	ok "--ta-key-dir: a group-writable dir is refused, saying why"
else
	fail "--ta-key-dir: no line about the writable dir: $(tail -n 3 "$W/out")"
fi
[ "$fails" = 0 ]
