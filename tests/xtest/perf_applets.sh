#!/bin/sh
# xtest's perf applets and "swtee bench crypto", briefly, against the TEE
# of the calling "swtee run": every option path runs and prints OP-TEE's
# statistics line; unknown options and sizes are refused; an asymmetric
# algorithm either runs or says the TEE does not support it (exit 1).
# Usage: perf_applets.sh BUILD_DIR
set -u
bin=$1/bin
fail=0
stats='^min=[0-9.e+-]*us max=[0-9.e+-]*us mean=[0-9.e+-]*us stddev=[0-9.e+-]*us (cv [0-9.e+-]*%) ([0-9.e+-]*MiB/s)$'
sigma='^2-sigma interval: [0-9.e+-]*\.\.[0-9.e+-]*us ([0-9.e+-]*\.\.[0-9.e+-]*MiB/s)$'

ok() { # ok WHAT PATTERN COMMAND...: COMMAND succeeds and prints a line matching PATTERN
	what=$1 pat=$2
	shift 2
	if out=$("$@" 2>&1) && printf '%s\n' "$out" | grep -q -- "$pat"; then
		echo "ok   $what"
	else
		echo "FAIL $what: $*"
		printf '%s\n' "$out" | sed 's/^/     /'
		fail=1
	fi
}

refused() { # refused WHAT COMMAND...: COMMAND exits with 1
	what=$1
	shift
	"$@" >/dev/null 2>&1
	if [ $? -eq 1 ]; then echo "ok   $what"; else echo "FAIL $what: $*"; fail=1; fi
}

q="-n 40 -w 0"
for m in ECB CBC CTR XTS GCM; do
	ok "aes-perf -m $m" "$stats" "$bin/xtest" --aes-perf -m $m $q
	ok "aes-perf -m $m -d -k 256 -r -u 48" "$stats" "$bin/xtest" --aes-perf -m $m -d -k 256 -r -u 48 $q
done
ok "aes-perf -i -k 192 -s 4096 -l 3 --not-inited" "$stats" \
	"$bin/xtest" --aes-perf -i -k 192 -s 4096 -l 3 --not-inited $q
ok "aes-perf -v -v" "$sigma" "$bin/xtest" --aes-perf -v -v $q
ok "aes-perf -c SM4 -m XTS" "$stats" "$bin/xtest" --aes-perf -c SM4 -m XTS $q
refused "aes-perf -s 1000 (not whole blocks)" "$bin/xtest" --aes-perf -s 1000 $q
refused "aes-perf -k 100" "$bin/xtest" --aes-perf -k 100 $q
refused "aes-perf -c SM4 -m GCM" "$bin/xtest" --aes-perf -c SM4 -m GCM $q
refused "aes-perf --bogus" "$bin/xtest" --aes-perf --bogus
for a in SHA1 SHA224 SHA256 SHA384 SHA512 SM3 HMAC_SHA256 HMAC_SM3; do
	ok "hash-perf -a $a" "$stats" "$bin/xtest" --hash-perf -a $a $q
done
ok "sha-perf -u -r -s 333 -l 2 -v" "$sigma" "$bin/xtest" --sha-perf -u -r -s 333 -l 2 -v $q
refused "hash-perf -a MD4" "$bin/xtest" --hash-perf -a MD4 $q

for a in ECDSA_SIGN ECDSA_VERIFY ECDH X25519 RSA_GENKEYPAIR RSASSA_PKCS1_V1_5_SHA256_SIGN \
	RSASSA_PKCS1_PSS_MGF1_SHA256_VERIFY RSAES_PKCS1_OAEP_SHA1_DECRYPT DH; do
	out=$("$bin/xtest" --asym-perf -a $a -n 3 -w 0 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q -- "$stats" &&
		printf '%s\n' "$out" | grep -q '^[0-9.]* ms/op$'; then
		echo "ok   asym-perf -a $a"
	elif [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q 'is not supported by this TEE'; then
		echo "ok   asym-perf -a $a (not supported by this TEE yet)"
	else
		echo "FAIL asym-perf -a $a (exit $rc)"
		printf '%s\n' "$out" | sed 's/^/     /'
		fail=1
	fi
done
refused "asym-perf -a ECDSA_SIGN -d 100" "$bin/xtest" --asym-perf -a ECDSA_SIGN -d 100 -n 3 -w 0

# The bench's JSON: every row of the schema, a verdict wherever a target is.
tmp=$(mktemp -d) || exit 1
if "$bin/swtee" bench crypto --iterations 60 --json >"$tmp/bench.json" 2>"$tmp/bench.err" &&
	python3 - "$tmp/bench.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
names = {r["name"] for r in rows}
algs = ["sha1", "sha256", "aes-128-ecb", "aes-128-cbc", "aes-256-cbc", "aes-128-gcm"]
sizes = [256, 1024, 8192, 65536, 1048576]
want = {"invoke_noop", "ecdsa-p256/sign", "ecdsa-p256/verify"}
want |= {f"{a}/{s}{x}" for a in algs for s in sizes
         for x in ("", "/overhead", "/ipc_overhead", "/accel_off")}
assert want <= names, sorted(want - names)
for r in rows:
    assert r["group"] == "crypto" and r["unit"], r
    if r.get("skipped"):
        assert r["skip_reason"], r
        continue
    assert r["value"] is not None, r
    if "target" in r:
        assert r["verdict"] in ("ok", "over"), r
    if r["name"].endswith("/1048576"):
        assert r["target"] == 1.1 and r["baseline_name"] == "native", r
    if r["name"].endswith("/overhead"):
        assert r["target"] == 1.3 and r["baseline_name"] == "invoke_noop", r
PY
then
	echo "ok   swtee bench crypto --json"
else
	echo "FAIL swtee bench crypto --json"
	sed 's/^/     /' "$tmp/bench.err"
	fail=1
fi
rm -rf "$tmp"
exit $fail
