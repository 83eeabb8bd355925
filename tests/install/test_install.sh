#!/usr/bin/env bash
# make install lays out the documented tree, and the tree is relocatable:
# installed, moved elsewhere, it still runs xtest against a private TEE.
set -eu
BUILD=$1
tmp=$(mktemp -d /tmp/swtee-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$BUILD" --prefix "$tmp/a" >/dev/null
for f in bin/swteed bin/tee-supplicant bin/xtest bin/swtee lib/libteec.so lib/libteec.so.2 \
	lib/pkgconfig/teec.pc include/tee_client_api.h lib/swtee/swtee-ta-host \
	lib/swtee/ta/5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01.ta \
	lib/swtee/ta/02a42f43-d8b7-4a57-aa4d-87bd9b5587cb.ta; do
	[ -e "$tmp/a/$f" ] || { echo "missing after install: $f"; exit 1; }
done
mv "$tmp/a" "$tmp/moved"
cd "$tmp"
env -u SWTEE_SOCKET PATH=/usr/bin:/bin "$tmp/moved/bin/swtee" run --state "$tmp/state" -- xtest 1001
# The installed TCTI finds the moved tree's libteec (its rpath is $ORIGIN);
# tpm2-tools cannot load a sanitizer build's (tests/tpm/tcti.sh says why).
tcti=$tmp/moved/lib/libtss2-tcti-swtee.so.0
if [ -e "$tcti" ] && [ -e "$tmp/moved/lib/swtee/ta/bc50d971-d4c9-42c4-82cb-343fb7f37896.ta" ] &&
	command -v tpm2_getrandom >/dev/null && ! readelf -d "$tcti" | grep -q libasan; then
	env -u SWTEE_SOCKET -u LD_LIBRARY_PATH PATH=/usr/bin:/bin "$tmp/moved/bin/swtee" run \
		--state "$tmp/state-tpm" -- tpm2_getrandom -T "$tcti" -o "$tmp/rnd" 16
	[ "$(stat -c %s "$tmp/rnd")" = 16 ] || { echo "the moved tree's TCTI gave no random bytes"; exit 1; }
fi
# A client built the pkg-config way against the moved tree.
cat > "$tmp/client.c" <<'C'
#include <tee_client_api.h>
int main(void)
{
	TEEC_Context ctx;
	TEEC_Session s;
	TEEC_UUID u = { 0x5a1f0b7e, 0x3c2d, 0x4e6f, { 0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x01 } };
	uint32_t o;

	if (TEEC_InitializeContext(NULL, &ctx) ||
	    TEEC_OpenSession(&ctx, &s, &u, TEEC_LOGIN_PUBLIC, NULL, NULL, &o) ||
	    TEEC_InvokeCommand(&s, 0, NULL, &o))
		return 1;
	TEEC_CloseSession(&s);
	TEEC_FinalizeContext(&ctx);
	return 0;
}
C
pc=$tmp/moved/lib/pkgconfig
# A sanitizer build of libteec needs a client built the same way.
san=
ldd "$tmp/moved/lib/libteec.so" | grep -q libasan && san=-fsanitize=address,undefined
cc $san -o "$tmp/client" "$tmp/client.c" $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs teec) \
	-Wl,-rpath,"$tmp/moved/lib"
"$tmp/moved/bin/swtee" run --state "$tmp/state" -- "$tmp/client"
echo "install layout and relocation: ok"
