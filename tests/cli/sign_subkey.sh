#!/bin/sh
# OP-TEE's subkeys, end to end: an RSA subkey made with openssl and signed
# by the TEE's key with swtee sign --sign-subkey; a TA built with the kit
# under a UUID in the subkey's namespace (swtee sign --subkey-uuid), signed
# with the subkey (swtee sign --subkey), and run. Refused: a UUID outside the
# namespace, the wrong signer, an untrusted root, an altered name.
set -u
B=$(cd "$1" && pwd)
SWTEE=$B/bin/swtee
KIT=$B/ta_dev_kit
EXPORT=$B/teec_export
ROOT=$KIT/keys/default_ta.pem
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

die() {
	echo "FAIL: $*"
	exit 1
}

# refused WHAT EXPECTED-TEXT CMD...: CMD fails and says EXPECTED-TEXT.
refused() {
	what=$1
	text=$2
	shift 2
	if "$@" > "$W/msg" 2>&1; then
		fail "$what: accepted"
	elif ! grep -q "$text" "$W/msg"; then
		fail "$what: no '$text' in: $(cat "$W/msg")"
	else
		echo "ok: $what: $(grep "$text" "$W/msg" | tail -n 1)"
	fi
}

# uuid_c UUID: the UUID as a C initializer of TEE_UUID / TEEC_UUID.
uuid_c() {
	h=$(echo "$1" | tr -d -)
	n=$(echo "$h" | cut -c17-32 | sed 's/../0x&, /g;s/, $//')
	echo "{ 0x$(echo "$h" | cut -c1-8), 0x$(echo "$h" | cut -c9-12), 0x$(echo "$h" | cut -c13-16), { $n } }"
}

openssl genrsa -out "$W/sub.pem" 2048 2> /dev/null || die "openssl genrsa"
openssl genrsa -out "$W/other.pem" 3072 2> /dev/null || die "openssl genrsa"
openssl rsa -in "$W/sub.pem" -pubout -out "$W/sub.pub.pem" 2> /dev/null || die "openssl rsa"
SK_UUID=7c0e3a52-1f4d-4b8e-9a26-5d3c1b0e9f47
"$SWTEE" sign --sign-subkey --key "$ROOT" --in "$W/sub.pub.pem" --uuid $SK_UUID \
	--name-size 32 --subkey-version 1 --out "$W/sub.bin" || die "the subkey does not sign"
# The same subkey signed by a key the TEE does not trust.
"$SWTEE" sign --sign-subkey --key "$W/other.pem" --in "$W/sub.pub.pem" --uuid $SK_UUID \
	--name-size 32 --out "$W/untrusted.bin" || die "the untrusted subkey does not sign"
UUID=$("$SWTEE" sign --subkey-uuid --in "$W/sub.bin" --name "subkey test ta") ||
	die "--subkey-uuid"
echo "ok: the TA's UUID in the subkey's namespace is $UUID"
# As OP-TEE's sign_encrypt.py computes it.
if command -v python3 > /dev/null; then
	want=$(python3 -c "import hashlib,uuid
ns=uuid.UUID('$SK_UUID')
print(uuid.UUID(bytes=hashlib.sha512(ns.bytes+b'subkey test ta').digest()[:16],version=5))")
	[ "$want" = "$UUID" ] || fail "namespace UUID $UUID, sign_encrypt.py computes $want"
fi

# A tiny TA with that UUID, built with the kit's make.
TA=$W/ta
mkdir -p "$TA/include"
# shellcheck disable=SC2016 # $(TA_DEV_KIT_DIR) is make's, not the shell's
printf 'BINARY = %s\ninclude $(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk\n' "$UUID" > "$TA/Makefile"
printf 'global-incdirs-y += include\nsrcs-y += ta.c\n' > "$TA/sub.mk"
cat > "$TA/include/user_ta_header_defines.h" <<H
#define TA_UUID $(uuid_c "$UUID")
#define TA_FLAGS 0
#define TA_STACK_SIZE 2048
#define TA_DATA_SIZE 32768
H
cat > "$TA/ta.c" <<'C'
#include <tee_internal_api.h>
TEE_Result TA_CreateEntryPoint(void) { return TEE_SUCCESS; }
void TA_DestroyEntryPoint(void) { }
TEE_Result TA_OpenSessionEntryPoint(uint32_t t, TEE_Param p[4], void **s)
{
	(void)t; (void)p; (void)s;
	return TEE_SUCCESS;
}
void TA_CloseSessionEntryPoint(void *s) { (void)s; }
TEE_Result TA_InvokeCommandEntryPoint(void *s, uint32_t c, uint32_t t, TEE_Param p[4])
{
	(void)s; (void)t;
	p[0].value.a = c + 0x5b;
	return TEE_SUCCESS;
}
C
make -C "$TA" TA_DEV_KIT_DIR="$KIT" O="$W/out" > "$W/build.log" 2>&1 ||
	{ cat "$W/build.log"; die "the TA does not build"; }
cat > "$W/client.c" <<C
#include <stdio.h>
#include <tee_client_api.h>
int main(void)
{
	TEEC_Context ctx;
	TEEC_Session s;
	TEEC_UUID u = $(uuid_c "$UUID");
	TEEC_Operation op = {0};
	uint32_t o = 0;
	TEEC_Result r = TEEC_InitializeContext(NULL, &ctx);
	if (!r)
		r = TEEC_OpenSession(&ctx, &s, &u, TEEC_LOGIN_PUBLIC, NULL, NULL, &o);
	if (r) {
		printf("open: 0x%08x\n", r);
		return 1;
	}
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	if (TEEC_InvokeCommand(&s, 1, &op, &o))
		return 1;
	printf("%u\n", op.params[0].value.a);
	return 0;
}
C
# An AddressSanitizer build's libteec carries the ASan runtime, which must
# come first: the client is built with it too.
asan=""
readelf -d "$B/lib/swtee/swtee-ta-host" | grep -q libasan && asan=-fsanitize=address
# shellcheck disable=SC2086 # $asan is empty or one flag
cc $asan -o "$W/client" "$W/client.c" -I"$EXPORT/include" -L"$EXPORT/lib" -lteec \
	-Wl,-rpath,"$EXPORT/lib" || die "the client does not build"

# run DIR: the client against a private TEE whose TA path is DIR; the
# TEE's log is in $W/run.log.
run() {
	"$SWTEE" run --state "$W/state" --ta-path "$1" -- "$W/client" > "$W/run.out" 2> "$W/run.log"
}

mkdir -p "$W/good" "$W/bad"
"$SWTEE" sign --key "$W/sub.pem" --subkey "$W/sub.bin" --name "subkey test ta" \
	--in "$W/out/$UUID.elf" --out "$W/good/$UUID.ta" || die "the TA does not sign with the subkey"
out=$("$SWTEE" sign --verify --key "$ROOT" --uuid "$UUID" --in "$W/good/$UUID.ta") ||
	fail "the subkey-signed TA does not verify with the TEE's key"
echo "$out" | grep -q "subkeys 1$" || fail "--verify does not count the subkey: $out"
# swtee status --properties reads the image past its subkey header.
out=$("$SWTEE" status --properties "$W/good/$UUID.ta" 2>&1) ||
	fail "status --properties does not read the subkey-signed TA: $out"
echo "$out" | grep -q "gpd.ta.appID  *$UUID$" || fail "status --properties: no appID $UUID: $out"
if run "$W/good" && [ "$(cat "$W/run.out")" = 92 ]; then
	echo "ok: the TA signed with the subkey runs and answers 92"
else
	fail "the subkey-signed TA does not run: $(cat "$W/run.out") $(tail -n 3 "$W/run.log")"
fi

# The kit signs through the subkey with OP-TEE's make variables.
make -C "$TA" TA_DEV_KIT_DIR="$KIT" O="$W/out-kit" TA_SIGN_KEY="$W/sub.pem" \
	TA_SUBKEY_ARGS="--subkey $W/sub.bin --name \"subkey test ta\"" TA_SUBKEY_DEPS="$W/sub.bin" \
	> "$W/build-kit.log" 2>&1 || { cat "$W/build-kit.log"; die "the kit does not sign with TA_SUBKEY_ARGS"; }
mkdir -p "$W/kit"
cp "$W/out-kit/$UUID.ta" "$W/kit/"
"$SWTEE" sign --verify --key "$ROOT" --uuid "$UUID" --in "$W/kit/$UUID.ta" | grep -q "subkeys 1$" ||
	fail "the kit's TA_SUBKEY_ARGS image is not signed through the subkey"
if run "$W/kit" && [ "$(cat "$W/run.out")" = 92 ]; then
	echo "ok: the kit's TA_SUBKEY_ARGS (OP-TEE's) signs through the subkey, and the TA runs"
else
	fail "the kit's subkey-signed TA does not run: $(cat "$W/run.out") $(tail -n 3 "$W/run.log")"
fi

# Refused by swtee sign.
refused "a TA UUID outside the namespace" "namespace" \
	"$SWTEE" sign --key "$W/sub.pem" --subkey "$W/sub.bin" --name "another name" \
	--uuid "$UUID" --in "$W/out/$UUID.elf" --out "$W/x.ta"
refused "signing with a key that is not the subkey's" "not the private key" \
	"$SWTEE" sign --key "$ROOT" --subkey "$W/sub.bin" --name "subkey test ta" \
	--in "$W/out/$UUID.elf" --out "$W/x.ta"
refused "a name longer than the subkey allows" "allows 32" \
	"$SWTEE" sign --key "$W/sub.pem" --subkey "$W/sub.bin" \
	--name "a name that is longer than thirty-two bytes" --in "$W/out/$UUID.elf" --out "$W/x.ta"
refused "a second subkey below max_depth 0" "max_depth 0" \
	"$SWTEE" sign --sign-subkey --key "$W/sub.pem" --subkey "$W/sub.bin" --name n \
	--in "$W/sub.pub.pem" --name-size 0 --out "$W/x.bin"

# Refused by the TEE, each with its reason in the log.
"$SWTEE" sign --key "$W/sub.pem" --subkey "$W/untrusted.bin" --name "subkey test ta" \
	--in "$W/out/$UUID.elf" --out "$W/bad/$UUID.ta" || die "signing under the untrusted subkey"
refused "a subkey signed by an untrusted key" "subkey 1: signature not accepted by any trusted key" \
	sh -c "'$SWTEE' run --state '$W/state' --ta-path '$W/bad' -- '$W/client'"
# The name is not signed: altering it moves the TA out of the namespace.
cp "$W/good/$UUID.ta" "$W/bad/$UUID.ta"
printf 'S' | dd of="$W/bad/$UUID.ta" bs=1 seek="$(wc -c < "$W/sub.bin")" conv=notrunc 2> /dev/null
refused "an altered subkey name" "outside the namespace of subkey 1" \
	sh -c "'$SWTEE' run --state '$W/state' --ta-path '$W/bad' -- '$W/client'"
# An altered subkey header.
cp "$W/good/$UUID.ta" "$W/bad/$UUID.ta"
printf 'X' | dd of="$W/bad/$UUID.ta" bs=1 seek=$(($(wc -c < "$W/sub.bin") - 20)) conv=notrunc \
	2> /dev/null
refused "an altered subkey header" "subkey header was altered" \
	sh -c "'$SWTEE' run --state '$W/state' --ta-path '$W/bad' -- '$W/client'"
# The TA signed by the TEE's own key behind the subkey: the wrong signer.
"$SWTEE" sign --key "$ROOT" --uuid "$UUID" --in "$W/out/$UUID.elf" --out "$W/plain.ta" ||
	die "plain signing"
{
	cat "$W/sub.bin"
	printf 'subkey test ta' # the name, NUL-padded to the subkey's 32 bytes
	head -c 18 /dev/zero
	cat "$W/plain.ta"
} > "$W/bad/$UUID.ta"
refused "the TA signed by another key than the subkey" "wrong signer" \
	sh -c "'$SWTEE' run --state '$W/state' --ta-path '$W/bad' -- '$W/client'"

# A TA library under an identity subkey (name size 0) that carries its UUID.
LIB_UUID=5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6f02
"$SWTEE" sign --sign-subkey --key "$ROOT" --in "$W/sub.pem" --uuid $LIB_UUID --name-size 0 \
	--out "$W/id.bin" || die "the identity subkey does not sign"
"$SWTEE" sign --library --key "$W/sub.pem" --subkey "$W/id.bin" \
	--in "$B/ta-elf/libta_shlib_base.so" --out "$W/lib.ta" || fail "the library does not sign"
"$SWTEE" sign --verify --library --key "$ROOT" --uuid $LIB_UUID --in "$W/lib.ta" |
	grep -q "subkeys 1$" || fail "the library under an identity subkey does not verify"
[ "$fails" = 0 ] || exit 1
