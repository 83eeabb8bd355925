/*
 * The Wycheproof runner: key agreement (ECDH on the NIST curves with points
 * as ecpoints, X25519). The TA derives the shared secret with
 * TEE_DeriveKey into a generic secret object, read back and compared.
 *
 * GP key pair objects hold the public key too, which the vectors leave
 * out: the runner computes it from the private key with the host's OpenSSL
 * (set-up, not the operation under test). A peer point GP cannot express
 * (compressed, or not an uncompressed point of the curve's size) is refused
 * by the runner; a peer key the TEE refuses panics TEE_DeriveKey, which can
 * return nothing else, and counts as refused.
 */
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

#include "wp.h"

#define SECRET_MAX 128

static const struct {
	const char *name;
	uint32_t curve;
	uint32_t bits;
	int nid;
} curves[] = {
    {"secp224r1", TEE_ECC_CURVE_NIST_P224, 224, NID_secp224r1},
    {"secp256r1", TEE_ECC_CURVE_NIST_P256, 256, NID_X9_62_prime256v1},
    {"secp384r1", TEE_ECC_CURVE_NIST_P384, 384, NID_secp384r1},
    {"secp521r1", TEE_ECC_CURVE_NIST_P521, 521, NID_secp521r1},
};

/* The public point d * G of curve nid as x || y, each len bytes; false on failure. */
static bool ec_public(int nid, const struct bytes *d, uint8_t *xy, size_t len)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(nid);
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	BIGNUM *k = BN_bin2bn(d->p, (int)d->n, NULL);
	BIGNUM *x = BN_new();
	BIGNUM *y = BN_new();
	bool ok = p && k && x && y && EC_POINT_mul(g, p, k, NULL, NULL, NULL) &&
		  EC_POINT_get_affine_coordinates(g, p, x, y, NULL) &&
		  BN_bn2binpad(x, xy, (int)len) == (int)len &&
		  BN_bn2binpad(y, xy + len, (int)len) == (int)len;

	BN_free(x);
	BN_free(y);
	BN_clear_free(k);
	EC_POINT_free(p);
	EC_GROUP_free(g);
	return ok;
}

/* The X25519 public key of a private key. */
static bool x25519_public(const struct bytes *d, uint8_t pub[32])
{
	EVP_PKEY *pk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, d->p, d->n);
	size_t len = 32;
	bool ok = pk && EVP_PKEY_get_raw_public_key(pk, pub, &len) == 1 && len == 32;

	EVP_PKEY_free(pk);
	return ok;
}

/*
 * Derives with a key pair of type into a new generic secret and compares it
 * with shared: accepted, refused (the TA panicked), or wrong.
 */
static enum outcome derive(struct test *t, uint32_t alg, uint32_t type, uint32_t bits,
			   const struct cc_attr *key, size_t nkey, struct cc_attr *peer,
			   size_t npeer, const struct bytes *shared)
{
	uint8_t out[SECRET_MAX];
	size_t out_len = sizeof(out);
	enum outcome oc = OUT_WRONG;
	uint32_t op = 0;
	uint32_t k = 0;
	uint32_t secret = 0;
	TEEC_Result res = cc_alloc_op(t->s, alg, TEE_MODE_DERIVE, bits, &op);

	if (!res)
		res = cc_key(t->s, type, bits, key, nkey, &k);
	if (!res)
		res = cc_set_key(t->s, op, k);
	if (!res)
		res = cc_alloc_obj(t->s, TEE_TYPE_GENERIC_SECRET, SECRET_MAX * 8, &secret);
	if (res) {
		why(t, "setting up the operation: 0x%08x", res);
		goto out;
	}
	res = cc_derive_key(t->s, op, secret, peer, npeer);
	if (res == TEEC_ERROR_TARGET_DEAD) {
		why(t, "TEE_DeriveKey panicked");
		oc = OUT_REFUSED;
		goto out;
	}
	if (!res)
		res = cc_get_buf_attr(t->s, secret, TEE_ATTR_SECRET_VALUE, out, &out_len);
	if (res) {
		why(t, "deriving: 0x%08x", res);
		goto out;
	}
	if (out_len == shared->n && !memcmp(out, shared->p, out_len))
		oc = OUT_ACCEPTED;
	else
		why(t, "the shared secret differs");
out:
	ta_release(t, res, op, k, secret);
	return oc;
}

enum outcome wp_ecdh(struct test *t, json_object *g, json_object *tc)
{
	const char *name = get_str(g, "curve");
	struct bytes pub = {0}, priv = {0}, shared = {0};
	enum outcome oc = OUT_WRONG;
	uint8_t own[2 * 66];
	size_t len = 0;
	size_t ci = 0;

	while (ci < sizeof(curves) / sizeof(curves[0]) && strcmp(curves[ci].name, name))
		ci++;
	if (ci == sizeof(curves) / sizeof(curves[0]) || strcmp(get_str(g, "encoding"), "ecpoint") ||
	    !get_hex(tc, "public", &pub) | !get_hex(tc, "private", &priv) |
		!get_hex(tc, "shared", &shared)) {
		why(t, "malformed test, or curve or encoding not handled");
		goto out;
	}
	len = (curves[ci].bits + 7) / 8;
	/* GP takes x and y: an uncompressed point of the curve's size, or nothing. */
	if (pub.n != 1 + 2 * len || pub.p[0] != 0x04) {
		why(t, "not an uncompressed point: GP cannot express it");
		oc = OUT_REFUSED;
		goto out;
	}
	if (!ec_public(curves[ci].nid, &priv, own, len)) {
		why(t, "cannot compute the own public key");
		goto out;
	}
	{
		struct cc_attr key[] = {
		    CC_VALUE(TEE_ATTR_ECC_CURVE, curves[ci].curve, 0),
		    CC_REF(TEE_ATTR_ECC_PRIVATE_VALUE, priv.p, priv.n),
		    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, own, len),
		    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, own + len, len),
		};
		struct cc_attr peer[] = {
		    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, pub.p + 1, len),
		    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, pub.p + 1 + len, len),
		};

		oc = derive(t, TEE_ALG_ECDH_DERIVE_SHARED_SECRET, TEE_TYPE_ECDH_KEYPAIR,
			    curves[ci].bits, key, 4, peer, 2, &shared);
	}
out:
	bytes_free(&pub);
	bytes_free(&priv);
	bytes_free(&shared);
	return oc;
}

enum outcome wp_xdh(struct test *t, json_object *g, json_object *tc)
{
	struct bytes pub = {0}, priv = {0}, shared = {0};
	enum outcome oc = OUT_WRONG;
	uint8_t own[32];

	if (strcmp(get_str(g, "curve"), "curve25519") || !get_hex(tc, "public", &pub) |
							     !get_hex(tc, "private", &priv) |
							     !get_hex(tc, "shared", &shared)) {
		why(t, "malformed test or curve not handled");
		goto out;
	}
	if (pub.n != 32 || priv.n != 32) {
		why(t, "not 32-byte keys: GP cannot express them");
		oc = OUT_REFUSED;
		goto out;
	}
	if (!x25519_public(&priv, own)) {
		why(t, "cannot compute the own public key");
		goto out;
	}
	{
		struct cc_attr key[] = {
		    CC_REF(TEE_ATTR_X25519_PRIVATE_VALUE, priv.p, priv.n),
		    CC_REF(TEE_ATTR_X25519_PUBLIC_VALUE, own, sizeof(own)),
		};
		struct cc_attr peer = CC_REF(TEE_ATTR_X25519_PUBLIC_VALUE, pub.p, pub.n);

		oc = derive(t, TEE_ALG_X25519, TEE_TYPE_X25519_KEYPAIR, 256, key, 2, &peer, 1,
			    &shared);
	}
out:
	bytes_free(&pub);
	bytes_free(&priv);
	bytes_free(&shared);
	return oc;
}
