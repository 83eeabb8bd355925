#!/bin/sh
# TA version rollback (issue 23, finding 9), as OP-TEE's ta_ver.db: the core
# keeps the highest signed-header version it has loaded per UUID in its
# secure dir, across restarts, and refuses an older image with
# TEEC_ERROR_ACCESS_CONFLICT and a log line naming the UUID and both
# versions, unless swteed --allow-ta-rollback. The attack: a v1 image put
# back on the TA path after v7 has run, to get v7's storage with v1's code.
# Each `swtee run` below is a new core on the same state dir.
set -u
B=$(cd "$1" && pwd)
SWTEE=$B/bin/swtee
KIT=$B/ta_dev_kit
EXPORT=$B/teec_export
KEY=$KIT/keys/default_ta.pem
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
fails=0
UUID=3d6f2a81-5b4c-4e7d-8f19-0a2b3c4d5e6f

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

die() {
	echo "FAIL: $*"
	exit 1
}

# A TA that opens sessions: whatever an older image is refused, it never
# runs, so it never reaches the newer one's storage.
TA=$W/ta
mkdir -p "$TA/include"
# shellcheck disable=SC2016 # $(TA_DEV_KIT_DIR) is make's, not the shell's
printf 'BINARY = %s\ninclude $(TA_DEV_KIT_DIR)/mk/ta_dev_kit.mk\n' "$UUID" > "$TA/Makefile"
printf 'global-incdirs-y += include\nsrcs-y += ta.c\n' > "$TA/sub.mk"
cat > "$TA/include/user_ta_header_defines.h" << 'H'
#define TA_UUID { 0x3d6f2a81, 0x5b4c, 0x4e7d, { 0x8f, 0x19, 0x0a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f } }
#define TA_FLAGS 0
#define TA_STACK_SIZE 2048
#define TA_DATA_SIZE 32768
H
cat > "$TA/ta.c" << 'C'
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
	(void)s; (void)c; (void)t; (void)p;
	return TEE_SUCCESS;
}
C
make -C "$TA" TA_DEV_KIT_DIR="$KIT" O="$W/out" CFG_TA_VERSION=7 > "$W/build.log" 2>&1 ||
	{ cat "$W/build.log"; die "the TA does not build"; }
cat > "$W/client.c" << 'C'
#include <stdio.h>
#include <tee_client_api.h>
int main(void)
{
	TEEC_Context ctx;
	TEEC_Session s;
	TEEC_UUID u = { 0x3d6f2a81, 0x5b4c, 0x4e7d, { 0x8f, 0x19, 0x0a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f } };
	uint32_t o = 0;
	TEEC_Result r = TEEC_InitializeContext(NULL, &ctx);
	if (!r)
		r = TEEC_OpenSession(&ctx, &s, &u, TEEC_LOGIN_PUBLIC, NULL, NULL, &o);
	printf("0x%08x %u\n", r, o);
	if (!r)
		TEEC_CloseSession(&s);
	return r ? 1 : 0;
}
C
asan=""
readelf -d "$B/lib/swtee/swtee-ta-host" | grep -q libasan && asan=-fsanitize=address
# shellcheck disable=SC2086 # $asan is empty or one flag
cc $asan -o "$W/client" "$W/client.c" -I"$EXPORT/include" -L"$EXPORT/lib" -lteec \
	-Wl,-rpath,"$EXPORT/lib" || die "the client does not build"

# The kit's CFG_TA_VERSION is the signed header's version.
"$SWTEE" sign --verify --key "$KEY" --uuid $UUID --in "$W/out/$UUID.ta" | grep -q " version 7 " ||
	fail "the kit's CFG_TA_VERSION=7 is not the signed version"
for v in 1 7 8; do
	mkdir -p "$W/v$v"
	"$SWTEE" sign --key "$KEY" --uuid $UUID --ta-version $v --in "$W/out/$UUID.elf" \
		--out "$W/v$v/$UUID.ta" || die "swtee sign --ta-version $v"
done

# load NAME DIR [swtee run options]: a new TEE on the same state, the client
# opening a session to the image in DIR. The client prints "result origin".
load() {
	name=$1
	dir=$2
	shift 2
	"$SWTEE" run --state "$W/state" --ta-path "$dir" "$@" -- "$W/client" > "$W/out.txt" \
		2> "$W/log.txt"
	echo "$name: $(cat "$W/out.txt")"
}

# loads NAME DIR [options]: the session opens.
loads() {
	load "$@"
	grep -q "^0x00000000 " "$W/out.txt" || fail "$1: not loaded: $(tail -n 3 "$W/log.txt")"
}

# refused NAME DIR HAVE FLOOR: TEEC_ERROR_ACCESS_CONFLICT from the TEE, and the log says why.
refused() {
	load "$1" "$2"
	grep -q "^0xffff0003 3$" "$W/out.txt" ||
		fail "$1: not TEEC_ERROR_ACCESS_CONFLICT from the TEE: $(cat "$W/out.txt")"
	grep -q "TA $UUID: version $3 refused: version $4 was loaded before" "$W/log.txt" ||
		fail "$1: no log line with the UUID and both versions: $(tail -n 3 "$W/log.txt")"
}

loads "v7" "$W/v7"
[ -f "$W/state/secure/ta_versions" ] || fail "no ta_versions in the secure dir"
refused "v1 after v7, in a new core" "$W/v1" 1 7
loads "v7 again" "$W/v7"
loads "v8" "$W/v8"
refused "v7 after v8" "$W/v7" 7 8
refused "v1 after v8" "$W/v1" 1 8

# The operator's explicit choice: loaded and logged; the floor stays at 8.
loads "v1 with --allow-ta-rollback" "$W/v1" --allow-ta-rollback
grep -q "version 1 loaded though version 8 was loaded before" "$W/log.txt" ||
	fail "--allow-ta-rollback: no log line"
refused "v1 without the option again" "$W/v1" 1 8

# The table is MACed: an altered one is not taken for an empty one.
printf '\001' | dd of="$W/state/secure/ta_versions" bs=1 seek=28 conv=notrunc 2> /dev/null
load "v1 with an altered table" "$W/v1"
grep -q "^0x00000000 " "$W/out.txt" && fail "an altered table lets v1 load"
grep -q "ta_versions fails its check" "$W/log.txt" || fail "an altered table is not reported"
load "v8 with an altered table" "$W/v8"
grep -q "^0x00000000 " "$W/out.txt" && fail "an altered table is used"
loads "v8 with --allow-ta-rollback, starting over" "$W/v8" --allow-ta-rollback
refused "v7 after the table started over at 8" "$W/v7" 7 8

[ "$fails" = 0 ] || exit 1
echo "all passed"
