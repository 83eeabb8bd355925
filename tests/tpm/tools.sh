#!/bin/sh
# tpm2-tools against the fTPM through swtee-tpm, without a resource manager
# and without flushing by hand: more than 30 tool invocations covering what
# docs/tpm.md promises. Run under `swtee run --tpm[=swtpm]`, which sets
# TPM2TOOLS_TCTI to the protocol under test.
set -eu

: "${TPM2TOOLS_TCTI:?run me under swtee run --tpm}"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
n=0

t() {
	n=$((n + 1))
	echo "[$n] $*" >&2
	"$@"
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

hex() {
	python3 -c 'import sys; print(open(sys.argv[1], "rb").read().hex())' "$1"
}

# PCR 10's expected value after extending a zero PCR with $1 (hex SHA-256).
pcr_after() {
	python3 -c 'import hashlib, sys; print(hashlib.sha256(bytes(32) + bytes.fromhex(sys.argv[1])).hexdigest())' "$1"
}

echo "TCTI: $TPM2TOOLS_TCTI" >&2
t tpm2_startup -c
t tpm2_getcap properties-fixed >cap1
grep -q TPM2_PT_MANUFACTURER cap1 || fail "getcap properties-fixed"
t tpm2_getcap algorithms >cap2
grep -q ecc cap2 || fail "getcap algorithms"
t tpm2_getcap commands >cap3
grep -q TPM2_CC_CreateLoaded cap3 || fail "getcap commands"
t tpm2_getrandom -o rand.bin 32
[ "$(stat -c %s rand.bin)" = 32 ] || fail "getrandom size"

# PCR 10 resets at TPM Reset; extend it once and check the value.
d=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
t tpm2_pcrread sha256:10 -o pcr0.bin
[ "$(hex pcr0.bin)" = "$(printf '%064d' 0)" ] || fail "PCR 10 not zero after startup"
t tpm2_pcrextend "10:sha256=$d"
t tpm2_pcrread sha256:10 -o pcr1.bin
[ "$(hex pcr1.bin)" = "$(pcr_after $d)" ] || fail "PCR 10 after extend"

# Primaries in every hierarchy, ECC and RSA; nothing flushed.
for h in o n e; do
	t tpm2_createprimary -Q -C $h -G ecc256 -c p_${h}_ecc.ctx
	t tpm2_createprimary -Q -C $h -G rsa2048 -c p_${h}_rsa.ctx
done
# Same seed, same template: the same key.
t tpm2_createprimary -Q -C o -G ecc256 -c again.ctx
t tpm2_readpublic -c p_o_ecc.ctx -n name1.bin >/dev/null
t tpm2_readpublic -c again.ctx -n name2.bin >/dev/null
cmp -s name1.bin name2.bin || fail "owner ECC primary not deterministic"

# Keys: create, load, sign, verify; CreateLoaded under the RSA primary.
echo "message to sign" >msg
t tpm2_create -Q -C p_o_ecc.ctx -G ecc256 -u key.pub -r key.priv
t tpm2_load -Q -C p_o_ecc.ctx -u key.pub -r key.priv -c key.ctx
t tpm2_sign -c key.ctx -g sha256 -o sig.bin msg
t tpm2_verifysignature -c key.ctx -g sha256 -m msg -s sig.bin
t tpm2_create -Q -C p_o_rsa.ctx -G rsa2048 -u k2.pub -r k2.priv -c k2.ctx
t tpm2_sign -c k2.ctx -g sha256 -o sig2.bin msg
t tpm2_verifysignature -c k2.ctx -g sha256 -m msg -s sig2.bin
echo "tampered" >msg2
if tpm2_verifysignature -c k2.ctx -g sha256 -m msg2 -s sig2.bin 2>/dev/null; then
	fail "a signature over another message verified"
fi

# Salted HMAC sessions (ECC and RSA salt) with parameter encryption both ways.
t tpm2_startauthsession --hmac-session -c p_o_ecc.ctx -S s_ecc.ctx
t tpm2_sessionconfig s_ecc.ctx --enable-encrypt --enable-decrypt
t tpm2_getrandom -S s_ecc.ctx -o rand2.bin 16
[ "$(stat -c %s rand2.bin)" = 16 ] || fail "getrandom with an encrypting session"
t tpm2_startauthsession --hmac-session -c p_e_rsa.ctx -S s_rsa.ctx
t tpm2_sessionconfig s_rsa.ctx --enable-encrypt
t tpm2_getrandom -S s_rsa.ctx -o rand3.bin 16

# NV: an ordinary index written through the encrypting session, and a counter.
printf 'swtee-ftpm-nv-check-0123456789ab' >data
t tpm2_nvdefine 0x1500016 -C o -s 32 -a "ownerread|ownerwrite|authread|authwrite"
t tpm2_nvwrite 0x1500016 -C o -i data -P session:s_ecc.ctx
t tpm2_nvread 0x1500016 -C o -s 32 -o back
cmp -s data back || fail "NV read back differs"
t tpm2_nvdefine 0x1500017 -C o -s 8 -a "nt=counter|ownerread|ownerwrite|authread|authwrite"
t tpm2_nvincrement 0x1500017 -C o
t tpm2_nvincrement 0x1500017 -C o
t tpm2_nvread 0x1500017 -C o -s 8 -o counter
[ "$(hex counter)" = 0000000000000002 ] || fail "counter is $(hex counter), not 2"
t tpm2_flushcontext s_ecc.ctx
t tpm2_flushcontext s_rsa.ctx

# A persistent key.
t tpm2_evictcontrol -Q -C o -c p_o_ecc.ctx 0x81000001
t tpm2_getcap handles-persistent >persistent
grep -q 0x81000001 persistent || fail "persistent handle missing"
t tpm2_readpublic -c 0x81000001 -n name3.bin >/dev/null
cmp -s name1.bin name3.bin || fail "persistent key differs"

# More than three objects are loaded by now; the bridge flushed the oldest.
t tpm2_getcap handles-transient
t tpm2_flushcontext -t
[ -z "$(tpm2_getcap handles-transient)" ] || fail "transient objects left after flushcontext -t"

# Clear: owner objects, owner NV and the storage seed go.
t tpm2_clear -c p
if tpm2_nvread 0x1500016 -C o -s 32 -o back2 2>/dev/null; then
	fail "NV index still there after clear"
fi
if tpm2_readpublic -c 0x81000001 >/dev/null 2>&1; then
	fail "persistent key still there after clear"
fi
t tpm2_createprimary -Q -C o -G ecc256 -c after.ctx
t tpm2_readpublic -c after.ctx -n name4.bin >/dev/null
if cmp -s name1.bin name4.bin; then
	fail "owner primary unchanged after clear (storage seed not renewed)"
fi
echo "ok: $n tool invocations" >&2
[ $n -ge 30 ] || fail "only $n invocations"
