/*
 * The Wycheproof runner: signature verification (DSA and ECDSA with P1363
 * signatures, Ed25519, RSA PKCS#1 v1.5 and PSS). The message is hashed by
 * the TA (a digest operation), then TEE_AsymmetricVerifyDigest decides;
 * Ed25519 verifies the message itself.
 */
#include <string.h>

#include "wp.h"

#define DIGEST_MAX 64

/* Verifies the test's sig over the TA's hash of its msg. */
static enum outcome verify_msg(struct test *t, json_object *tc, uint32_t alg, uint32_t hash,
			       uint32_t type, uint32_t bits, const struct cc_attr *key, size_t nkey,
			       const struct cc_attr *params, size_t nparams)
{
	struct bytes msg, sig;
	uint8_t digest[DIGEST_MAX];
	size_t dlen = sizeof(digest);
	enum outcome oc = OUT_WRONG;

	if (!get_hex(tc, "msg", &msg) | !get_hex(tc, "sig", &sig)) {
		why(t, "malformed test");
		goto out;
	}
	if (hash && !ta_digest(t, hash, &msg, digest, &dlen))
		goto out;
	if (hash)
		oc = ta_verify(t, alg, type, bits, key, nkey, params, nparams, digest, dlen, &sig);
	else
		oc = ta_verify(t, alg, type, bits, key, nkey, params, nparams, msg.p, msg.n, &sig);
out:
	bytes_free(&msg);
	bytes_free(&sig);
	return oc;
}

enum outcome wp_dsa(struct test *t, json_object *g, json_object *tc)
{
	json_object *pk = get_obj(g, "publicKey");
	uint32_t hash = hash_alg(get_str(g, "sha"));
	struct bytes p, q, base, y;
	enum outcome oc = OUT_WRONG;
	uint32_t alg = 0;

	if (hash == TEE_ALG_SHA1)
		alg = TEE_ALG_DSA_SHA1;
	else if (hash == TEE_ALG_SHA224)
		alg = TEE_ALG_DSA_SHA224;
	else if (hash == TEE_ALG_SHA256)
		alg = TEE_ALG_DSA_SHA256;
	if (!get_hex(pk, "p", &p) | !get_hex(pk, "q", &q) | !get_hex(pk, "g", &base) |
		!get_hex(pk, "y", &y) ||
	    !alg) {
		why(t, "malformed group or hash not handled");
	} else {
		struct cc_attr key[] = {
		    CC_REF(TEE_ATTR_DSA_PRIME, p.p, p.n),
		    CC_REF(TEE_ATTR_DSA_SUBPRIME, q.p, q.n),
		    CC_REF(TEE_ATTR_DSA_BASE, base.p, base.n),
		    CC_REF(TEE_ATTR_DSA_PUBLIC_VALUE, y.p, y.n),
		};

		oc = verify_msg(t, tc, alg, hash, TEE_TYPE_DSA_PUBLIC_KEY,
				(uint32_t)get_int(pk, "keySize"), key, 4, NULL, 0);
	}
	bytes_free(&p);
	bytes_free(&q);
	bytes_free(&base);
	bytes_free(&y);
	return oc;
}

/* The GP curve of a Wycheproof curve name, 0 if unknown. */
static uint32_t curve_of(const char *name, uint32_t *bits)
{
	static const struct {
		const char *name;
		uint32_t curve;
		uint32_t bits;
	} curves[] = {
	    {"secp192r1", TEE_ECC_CURVE_NIST_P192, 192},
	    {"secp224r1", TEE_ECC_CURVE_NIST_P224, 224},
	    {"secp256r1", TEE_ECC_CURVE_NIST_P256, 256},
	    {"secp384r1", TEE_ECC_CURVE_NIST_P384, 384},
	    {"secp521r1", TEE_ECC_CURVE_NIST_P521, 521},
	};

	for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++) {
		if (!strcmp(curves[i].name, name)) {
			*bits = curves[i].bits;
			return curves[i].curve;
		}
	}
	return 0;
}

static uint32_t ecdsa_alg(uint32_t hash)
{
	switch (hash) {
	case TEE_ALG_SHA1:
		return TEE_ALG_ECDSA_SHA1;
	case TEE_ALG_SHA224:
		return TEE_ALG_ECDSA_SHA224;
	case TEE_ALG_SHA256:
		return TEE_ALG_ECDSA_SHA256;
	case TEE_ALG_SHA384:
		return TEE_ALG_ECDSA_SHA384;
	case TEE_ALG_SHA512:
		return TEE_ALG_ECDSA_SHA512;
	case TEE_ALG_SHA3_224:
		return TEE_ALG_ECDSA_SHA3_224;
	case TEE_ALG_SHA3_256:
		return TEE_ALG_ECDSA_SHA3_256;
	case TEE_ALG_SHA3_384:
		return TEE_ALG_ECDSA_SHA3_384;
	case TEE_ALG_SHA3_512:
		return TEE_ALG_ECDSA_SHA3_512;
	default:
		return 0;
	}
}

enum outcome wp_ecdsa(struct test *t, json_object *g, json_object *tc)
{
	json_object *pk = get_obj(g, "publicKey");
	uint32_t hash = hash_alg(get_str(g, "sha"));
	uint32_t bits = 0;
	uint32_t curve = curve_of(get_str(pk, "curve"), &bits);
	struct bytes x, y;
	enum outcome oc = OUT_WRONG;

	if (!get_hex(pk, "wx", &x) | !get_hex(pk, "wy", &y) || !curve || !ecdsa_alg(hash)) {
		why(t, "malformed group, or curve or hash not handled");
	} else {
		struct cc_attr key[] = {
		    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, x.p, x.n),
		    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, y.p, y.n),
		    CC_VALUE(TEE_ATTR_ECC_CURVE, curve, 0),
		};

		oc = verify_msg(t, tc, ecdsa_alg(hash), hash, TEE_TYPE_ECDSA_PUBLIC_KEY, bits, key,
				3, NULL, 0);
	}
	bytes_free(&x);
	bytes_free(&y);
	return oc;
}

enum outcome wp_eddsa(struct test *t, json_object *g, json_object *tc)
{
	json_object *pk = get_obj(g, "publicKey");
	struct bytes pub;
	enum outcome oc = OUT_WRONG;

	if (!get_hex(pk, "pk", &pub) || strcmp(get_str(pk, "curve"), "edwards25519")) {
		why(t, "malformed group or curve not handled");
	} else {
		struct cc_attr key = CC_REF(TEE_ATTR_ED25519_PUBLIC_VALUE, pub.p, pub.n);

		oc = verify_msg(t, tc, TEE_ALG_ED25519, 0, TEE_TYPE_ED25519_PUBLIC_KEY, 256, &key,
				1, NULL, 0);
	}
	bytes_free(&pub);
	return oc;
}

/* RSA signatures: PKCS#1 v1.5 (pss false) or PSS with the group's salt length. */
static enum outcome rsa_verify(struct test *t, json_object *g, json_object *tc, bool pss)
{
	static const struct {
		uint32_t hash, pkcs1, pss;
	} algs[] = {
	    {TEE_ALG_SHA1, TEE_ALG_RSASSA_PKCS1_V1_5_SHA1, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA1},
	    {TEE_ALG_SHA224, TEE_ALG_RSASSA_PKCS1_V1_5_SHA224,
	     TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA224},
	    {TEE_ALG_SHA256, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256,
	     TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256},
	    {TEE_ALG_SHA384, TEE_ALG_RSASSA_PKCS1_V1_5_SHA384,
	     TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA384},
	    {TEE_ALG_SHA512, TEE_ALG_RSASSA_PKCS1_V1_5_SHA512,
	     TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA512},
	};
	json_object *pk = get_obj(g, "publicKey");
	uint32_t hash = hash_alg(get_str(g, "sha"));
	struct cc_attr salt =
	    CC_VALUE(TEE_ATTR_RSA_PSS_SALT_LENGTH, (uint32_t)get_int(g, "sLen"), 0);
	struct bytes n, e;
	enum outcome oc = OUT_WRONG;
	uint32_t alg = 0;

	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		if (algs[i].hash == hash)
			alg = pss ? algs[i].pss : algs[i].pkcs1;
	/* GP's PSS algorithms use the same hash for MGF1. */
	if (pss && (strcmp(get_str(g, "mgf"), "MGF1") || hash_alg(get_str(g, "mgfSha")) != hash))
		alg = 0;
	if (!get_hex(pk, "modulus", &n) | !get_hex(pk, "publicExponent", &e) || !alg) {
		why(t, "malformed group or hash not handled");
	} else {
		struct cc_attr key[] = {
		    CC_REF(TEE_ATTR_RSA_MODULUS, n.p, n.n),
		    CC_REF(TEE_ATTR_RSA_PUBLIC_EXPONENT, e.p, e.n),
		};

		oc = verify_msg(t, tc, alg, hash, TEE_TYPE_RSA_PUBLIC_KEY,
				(uint32_t)get_int(g, "keySize"), key, 2, pss ? &salt : NULL,
				pss ? 1 : 0);
	}
	bytes_free(&n);
	bytes_free(&e);
	return oc;
}

enum outcome wp_rsa_pkcs1_verify(struct test *t, json_object *g, json_object *tc)
{
	return rsa_verify(t, g, tc, false);
}

enum outcome wp_rsa_pss_verify(struct test *t, json_object *g, json_object *tc)
{
	return rsa_verify(t, g, tc, true);
}
