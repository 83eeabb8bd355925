#!/bin/sh
# The fTPM's state across restarts of swtee (same --state dir):
#   - a persistent key (tpm2_evictcontrol) and an NV index survive;
#   - TPM2_Shutdown(STATE) then a restart resumes (PCR 10 kept), while a
#     restart after a plain stop is a TPM Reset (PCR 10 zero, new NULL seed);
#   - the storage dir holds no plaintext of the TPM's NV;
#   - putting an older copy of the storage dir back never brings the older
#     state back: the TPM refuses to start (rollback detected) or comes up
#     with the newest state, never blank or stale.
# Usage: state.sh SWTEE_BINARY WORK_DIR
set -eu

SWTEE=$1
W=$2
S=$W/state
rm -rf "$W"
mkdir -p "$W"
cd "$W"
MARK=SWTEE-NV-PLAINTEXT-MARKER-7f3a5c
EXT=00000000000000000000000000000000000000000000000000000000000000aa

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

run() {
	"$SWTEE" run --tpm --state "$S" -- sh -euc "$1"
}

hex() {
	python3 -c 'import sys; print(open(sys.argv[1], "rb").read().hex())' "$1"
}

echo "== first boot: a persistent key, an NV index" >&2
printf %s "$MARK" >mark
run "tpm2_createprimary -Q -C o -G ecc256 -c p.ctx
tpm2_evictcontrol -Q -C o -c p.ctx 0x81000001
tpm2_readpublic -c 0x81000001 -n name1 >/dev/null
tpm2_nvdefine 0x1500020 -C o -s ${#MARK} -a 'ownerread|ownerwrite' >/dev/null
tpm2_nvwrite 0x1500020 -C o -i mark
tpm2_createprimary -Q -C n -G ecc256 -c null1.ctx
tpm2_readpublic -c null1.ctx -n null1 >/dev/null
tpm2_pcrextend 10:sha256=$EXT"

echo "== restart: both are there; a plain stop was a TPM Reset" >&2
run "tpm2_readpublic -c 0x81000001 -n name2 >/dev/null
tpm2_nvread 0x1500020 -C o -s ${#MARK} -o mark2
tpm2_pcrread sha256:10 -o pcr2 >/dev/null
tpm2_createprimary -Q -C n -G ecc256 -c null2.ctx
tpm2_readpublic -c null2.ctx -n null2 >/dev/null
tpm2_pcrextend 10:sha256=$EXT
tpm2_shutdown"
cmp -s name1 name2 || fail "the persistent key changed"
cmp -s mark mark2 || fail "the NV index changed"
[ "$(hex pcr2)" = "$(printf '%064d' 0)" ] || fail "PCR 10 kept across a TPM Reset"
if cmp -s null1 null2; then
	fail "the NULL seed survived a TPM Reset"
fi

echo "== restart after TPM2_Shutdown(STATE): a TPM Resume" >&2
run "tpm2_pcrread sha256:10 -o pcr3 >/dev/null
tpm2_createprimary -Q -C n -G ecc256 -c null3.ctx
tpm2_readpublic -c null3.ctx -n null3 >/dev/null"
[ "$(hex pcr3)" != "$(printf '%064d' 0)" ] || fail "PCR 10 lost across Shutdown(STATE)"
cmp -s null2 null3 || fail "the NULL seed changed across Shutdown(STATE)"

echo "== the storage dir is ciphertext" >&2
if grep -r -a -q "$MARK" "$S"; then
	fail "the NV index is readable in the storage dir"
fi
if grep -r -a -q -e permall -e volatilestate "$S"; then
	fail "object names are readable in the storage dir"
fi

echo "== an older copy of the storage dir is never taken" >&2
# The storage engine either refuses the store (its journal no longer reaches
# the anchor in the secure dir) or recovers the newest state from the secure
# side; the older state must never come back.
cp -a "$S/ree" old-ree
printf %s "XXXX${MARK#SWTE}" >mark3
run "tpm2_nvwrite 0x1500020 -C o -i mark3"
rm -rf "$S/ree"
cp -a old-ree "$S/ree"
if run "tpm2_nvread 0x1500020 -C o -s ${#MARK} -o mark4" 2>log; then
	cmp -s mark3 mark4 || fail "the older state came back: $(cat mark4)"
	echo "(the newest state was recovered from the secure side)" >&2
else
	cat log >&2
	grep -q "state cannot be read" log || fail "the refusal does not say why"
	echo "(the rolled-back store was refused)" >&2
fi
echo "ok" >&2
