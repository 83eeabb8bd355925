/*
 * regression 4007: TEE_GenerateKey for every type, with the spec's
 * parameters (the RSA public exponent, the DSA and DH domain and DH's
 * private value size, the ECC curve). Each generated key is checked with
 * the host's OpenSSL: its parts agree (RSA, DSA, DH: y = g^x mod p; ECC,
 * X25519, Ed25519: the public key is the private key's). Larger RSA keys
 * run with -l 1 and up.
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>

#include "crypt_test.h"

/* ---- symmetric ---- */

static void xtest_tee_test_4007_symmetric(ADBG_Case_t *c)
{
	static const struct {
		uint32_t type, size;
	} keys[] = {
	    {TEE_TYPE_AES, 128},
	    {TEE_TYPE_AES, 192},
	    {TEE_TYPE_AES, 256},
	    {TEE_TYPE_DES, 64},
	    {TEE_TYPE_DES3, 128},
	    {TEE_TYPE_DES3, 192},
	    {TEE_TYPE_SM4, 128},
	    {TEE_TYPE_HMAC_MD5, 64},
	    {TEE_TYPE_HMAC_SHA1, 160},
	    {TEE_TYPE_HMAC_SHA224, 224},
	    {TEE_TYPE_HMAC_SHA256, 1024},
	    {TEE_TYPE_HMAC_SHA384, 384},
	    {TEE_TYPE_HMAC_SHA512, 512},
	    {TEE_TYPE_HMAC_SM3, 80},
	    {TEE_TYPE_HMAC_SHA3_224, 192},
	    {TEE_TYPE_HMAC_SHA3_512, 1024},
	    {TEE_TYPE_GENERIC_SECRET, 8},
	    {TEE_TYPE_GENERIC_SECRET, 4096},
	    {TEE_TYPE_HKDF_IKM, 256},
	    {TEE_TYPE_CONCAT_KDF_Z, 520},
	    {TEE_TYPE_PBKDF2_PASSWORD, 64},
	    {TEE_TYPE_HKDF, 256},
	};
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "Secret keys of every symmetric type");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct ta_crypt_object_info info;
		uint8_t a[512], b[512];
		size_t al = sizeof(a);
		size_t bl = sizeof(b);
		uint32_t id = TEE_ATTR_SECRET_VALUE;
		uint32_t k1 = ct_genkey(c, &s, keys[i].type, keys[i].size, NULL, 0);
		uint32_t k2 = ct_genkey(c, &s, keys[i].type, keys[i].size, NULL, 0);

		if (keys[i].type == TEE_TYPE_HKDF_IKM)
			id = TEE_ATTR_HKDF_IKM;
		else if (keys[i].type == TEE_TYPE_CONCAT_KDF_Z)
			id = TEE_ATTR_CONCAT_KDF_Z;
		else if (keys[i].type == TEE_TYPE_PBKDF2_PASSWORD)
			id = TEE_ATTR_PBKDF2_PASSWORD;
		if (k1 && k2 && ADBG_EXPECT_TEEC_SUCCESS(c, cc_obj_info(&s, k1, &info, 0)) &&
		    ct_attr(c, &s, k1, id, a, &al) && ct_attr(c, &s, k2, id, b, &bl)) {
			ADBG_EXPECT(c, keys[i].size, info.object_size);
			ADBG_EXPECT(c, keys[i].size / 8, al);
			/* Two keys are not the same */
			ADBG_EXPECT_TRUE(c, al == bl && memcmp(a, b, al));
		}
		cc_free_obj(&s, k1);
		cc_free_obj(&s, k2);
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4007_symmetric, xtest_tee_test_4007_symmetric,
		 "Test TEE Internal API Generate key: symmetric");

/* ---- RSA ---- */

static const char *const rsa_names[] = {
    OSSL_PKEY_PARAM_RSA_N,	   OSSL_PKEY_PARAM_RSA_E,
    OSSL_PKEY_PARAM_RSA_D,	   OSSL_PKEY_PARAM_RSA_FACTOR1,
    OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};
static const uint32_t rsa_ids[] = {
    TEE_ATTR_RSA_MODULUS,   TEE_ATTR_RSA_PUBLIC_EXPONENT, TEE_ATTR_RSA_PRIVATE_EXPONENT,
    TEE_ATTR_RSA_PRIME1,    TEE_ATTR_RSA_PRIME2,	  TEE_ATTR_RSA_EXPONENT1,
    TEE_ATTR_RSA_EXPONENT2, TEE_ATTR_RSA_COEFFICIENT,
};

/* The key's parts agree (the host checks the pair) and the modulus has bits bits. */
static void rsa_check(ADBG_Case_t *c, TEEC_Session *s, uint32_t key, uint32_t bits,
		      const uint8_t *e, size_t e_len)
{
	uint8_t part[8][512];
	size_t len[8];
	const uint8_t *values[8];
	EVP_PKEY *host = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	BIGNUM *n = NULL;

	for (size_t i = 0; i < 8; i++) {
		len[i] = sizeof(part[i]);
		if (!ct_attr(c, s, key, rsa_ids[i], part[i], &len[i]))
			return;
		values[i] = part[i];
	}
	n = BN_bin2bn(part[0], (int)len[0], NULL);
	ADBG_EXPECT(c, bits, BN_num_bits(n));
	BN_free(n);
	ADBG_EXPECT_BUFFER(c, e, e_len, part[1], len[1]);
	host = ct_host_key("RSA", NULL, NULL, 0, rsa_names, values, len, 8);
	ctx = host ? EVP_PKEY_CTX_new(host, NULL) : NULL;
	if (ADBG_EXPECT_NOT_NULL(c, ctx))
		ADBG_EXPECT(c, 1, EVP_PKEY_pairwise_check(ctx));
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(host);
}

/* The generated pair works: raw RSA there and back. */
static void rsa_use(ADBG_Case_t *c, TEEC_Session *s, uint32_t key, uint32_t bits)
{
	uint32_t eop = ct_op(c, s, TEE_ALG_RSA_NOPAD, TEE_MODE_ENCRYPT, bits, key);
	uint32_t dop = ct_op(c, s, TEE_ALG_RSA_NOPAD, TEE_MODE_DECRYPT, bits, key);
	uint8_t m[16] = {0x12, 0x34, 0x56};
	uint8_t ct[512];
	uint8_t pt[512];
	size_t cl = sizeof(ct);
	size_t pl = sizeof(pt);

	if (eop && dop &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_encrypt(s, eop, NULL, 0, m, sizeof(m), ct, &cl)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_decrypt(s, dop, NULL, 0, ct, cl, pt, &pl)))
		ADBG_EXPECT_BUFFER(c, m, sizeof(m), pt, pl);
	cc_free_op(s, eop);
	cc_free_op(s, dop);
}

static void xtest_tee_test_4007_rsa(ADBG_Case_t *c)
{
	static const uint32_t sizes[] = {256, 512, 768, 1024, 1025, 1536, 2048, 3072, 4096};
	static const uint8_t f4[] = {0x01, 0x00, 0x01};
	static const uint8_t three[] = {0x03};
	static const uint8_t even[] = {0x01, 0x00, 0x00};
	static const uint8_t one[] = {0x01};
	TEEC_Session s = {0};
	uint32_t key = 0;

	if (!ct_open(c, &s))
		return;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		if (sizes[i] > 2048 && !xtest_level()) {
			Do_ADBG_Log("    RSA %u: with -l 1", sizes[i]);
			continue;
		}
		Do_ADBG_BeginSubCase(c, "RSA %u, exponent 65537 by default", sizes[i]);
		key = ct_genkey(c, &s, TEE_TYPE_RSA_KEYPAIR, sizes[i], NULL, 0);
		if (key) {
			rsa_check(c, &s, key, sizes[i], f4, sizeof(f4));
			rsa_use(c, &s, key, sizes[i]);
		}
		cc_free_obj(&s, key);
		Do_ADBG_EndSubCase(c, NULL);
	}
	Do_ADBG_BeginSubCase(c, "RSA public exponents");
	{
		struct cc_attr e = CC_REF(TEE_ATTR_RSA_PUBLIC_EXPONENT, three, sizeof(three));

		key = ct_genkey(c, &s, TEE_TYPE_RSA_KEYPAIR, 1024, &e, 1);
		if (key)
			rsa_check(c, &s, key, 1024, three, sizeof(three));
		cc_free_obj(&s, key);
		/* Even, or 1: BAD_PARAMETERS, the object stays uninitialised */
		e = CC_REF(TEE_ATTR_RSA_PUBLIC_EXPONENT, even, sizeof(even));
		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     cc_alloc_obj(&s, TEE_TYPE_RSA_KEYPAIR, 1024, &key))) {
			struct ta_crypt_object_info info;

			ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
						cc_generate_key(&s, key, 1024, &e, 1));
			e = CC_REF(TEE_ATTR_RSA_PUBLIC_EXPONENT, one, sizeof(one));
			ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
						cc_generate_key(&s, key, 1024, &e, 1));
			if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_obj_info(&s, key, &info, 0)))
				ADBG_EXPECT(c, 0, info.handle_flags & TEE_HANDLE_FLAG_INITIALIZED);
			cc_free_obj(&s, key);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "RSA misuse");
	/* A parameter the type does not take; a size above the object's maximum */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(&s, TEE_TYPE_RSA_KEYPAIR, 1024, &key)))
		ct_expect_panic(
		    c, &s, cc_generate_key(&s, key, 1024, &CC_VALUE(TEE_ATTR_ECC_CURVE, 3, 0), 1));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(&s, TEE_TYPE_RSA_KEYPAIR, 1024, &key)))
		ct_expect_panic(c, &s, cc_generate_key(&s, key, 2048, NULL, 0));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4007_rsa, xtest_tee_test_4007_rsa,
		 "Test TEE Internal API Generate key: RSA");

/* ---- DH and DSA: y = g^x mod p ---- */

static void dh_group(ADBG_Case_t *c, TEEC_Session *s, const char *name, uint32_t bits, bool with_q,
		     uint32_t x_bits)
{
	struct ct_ffc f;
	struct cc_attr p[4];
	size_t n = 0;
	uint32_t key = 0;

	Do_ADBG_Log("    DH in %s%s, private value of %u bits", name, with_q ? " with q" : "",
		    x_bits);
	if (!ADBG_EXPECT_TRUE(c, ct_host_group(name, &f)))
		return;
	p[n++] = CC_REF(TEE_ATTR_DH_PRIME, f.p, f.p_len);
	p[n++] = CC_REF(TEE_ATTR_DH_BASE, f.g, f.g_len);
	if (with_q && f.q_len)
		p[n++] = CC_REF(TEE_ATTR_DH_SUBPRIME, f.q, f.q_len);
	if (x_bits)
		p[n++] = CC_VALUE(TEE_ATTR_DH_X_BITS, x_bits, 0);
	key = ct_genkey(c, s, TEE_TYPE_DH_KEYPAIR, bits, p, n);
	/* Without a subprime the private value is only below p */
	if (!with_q)
		f.q_len = 0;
	if (key)
		ct_ffc_check(c, s, key, &f, TEE_ATTR_DH_PRIVATE_VALUE, TEE_ATTR_DH_PUBLIC_VALUE,
			     (int)x_bits);
	cc_free_obj(s, key);
	/* The prime's size, nothing else */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_DH_KEYPAIR, 2048, &key))) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					cc_generate_key(s, key, bits - 1, p, n));
		cc_free_obj(s, key);
	}
}

static void xtest_tee_test_4007_dh(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t key = 0;

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "DH key pairs in RFC 7919, RFC 3526 and RFC 5114 groups");
	dh_group(c, &s, "ffdhe2048", 2048, false, 0);
	dh_group(c, &s, "ffdhe2048", 2048, false, 256);
	dh_group(c, &s, "modp_1536", 1536, false, 200);
	dh_group(c, &s, "dh_1024_160", 1024, true, 0);
	dh_group(c, &s, "dh_2048_256", 2048, true, 0);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "DH misuse");
	/* The domain is required */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(&s, TEE_TYPE_DH_KEYPAIR, 2048, &key)))
		ct_expect_panic(c, &s, cc_generate_key(&s, key, 2048, NULL, 0));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4007_dh, xtest_tee_test_4007_dh,
		 "Test TEE Internal API Generate key: DH");

static void xtest_tee_test_4007_dsa(ADBG_Case_t *c)
{
	static const struct {
		const char *name;
		uint32_t bits;
	} groups[] = {{"dh_1024_160", 1024}, {"dh_2048_224", 2048}, {"dh_2048_256", 2048}};
	TEEC_Session s = {0};
	uint32_t key = 0;

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "DSA key pairs in the RFC 5114 domains");
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		struct ct_ffc f;

		if (!ADBG_EXPECT_TRUE(c, ct_host_group(groups[i].name, &f)))
			continue;
		{
			struct cc_attr p[] = {
			    CC_REF(TEE_ATTR_DSA_PRIME, f.p, f.p_len),
			    CC_REF(TEE_ATTR_DSA_SUBPRIME, f.q, f.q_len),
			    CC_REF(TEE_ATTR_DSA_BASE, f.g, f.g_len),
			};

			key = ct_genkey(c, &s, TEE_TYPE_DSA_KEYPAIR, groups[i].bits, p, 3);
		}
		if (key)
			ct_ffc_check(c, &s, key, &f, TEE_ATTR_DSA_PRIVATE_VALUE,
				     TEE_ATTR_DSA_PUBLIC_VALUE, 0);
		cc_free_obj(&s, key);
	}
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "DSA misuse");
	/* The whole domain is required */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(&s, TEE_TYPE_DSA_KEYPAIR, 1024, &key))) {
		uint8_t p[128] = {0x80};
		struct cc_attr a = CC_REF(TEE_ATTR_DSA_PRIME, p, sizeof(p));

		ct_expect_panic(c, &s, cc_generate_key(&s, key, 1024, &a, 1));
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4007_dsa, xtest_tee_test_4007_dsa,
		 "Test TEE Internal API Generate key: DSA");

/* ---- ECC ---- */

/* The public point is d * G on the host's curve nid. */
static void ecc_check(ADBG_Case_t *c, TEEC_Session *s, uint32_t key, int nid, size_t len)
{
	uint8_t x[66], y[66], d[66];
	size_t xl = sizeof(x);
	size_t yl = sizeof(y);
	size_t dl = sizeof(d);
	EC_GROUP *g = EC_GROUP_new_by_curve_name(nid);
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	BIGNUM *bd = NULL;
	BIGNUM *bx = BN_new();
	BIGNUM *by = BN_new();

	if (!ct_attr(c, s, key, TEE_ATTR_ECC_PUBLIC_VALUE_X, x, &xl) ||
	    !ct_attr(c, s, key, TEE_ATTR_ECC_PUBLIC_VALUE_Y, y, &yl) ||
	    !ct_attr(c, s, key, TEE_ATTR_ECC_PRIVATE_VALUE, d, &dl))
		goto out;
	ADBG_EXPECT(c, len, xl);
	ADBG_EXPECT(c, len, yl);
	bd = BN_bin2bn(d, (int)dl, NULL);
	if (ADBG_EXPECT_TRUE(c, p && bd && bx && by && EC_POINT_mul(g, p, bd, NULL, NULL, NULL) &&
				    EC_POINT_get_affine_coordinates(g, p, bx, by, NULL))) {
		uint8_t ex[66], ey[66];

		BN_bn2binpad(bx, ex, (int)len);
		BN_bn2binpad(by, ey, (int)len);
		ADBG_EXPECT_BUFFER(c, ex, len, x, xl);
		ADBG_EXPECT_BUFFER(c, ey, len, y, yl);
	}
out:
	BN_clear_free(bd);
	BN_free(bx);
	BN_free(by);
	EC_POINT_free(p);
	EC_GROUP_free(g);
}

static void xtest_tee_test_4007_ecc(ADBG_Case_t *c)
{
	static const struct {
		uint32_t curve, bits;
		int nid;
	} curves[] = {
	    {TEE_ECC_CURVE_NIST_P192, 192, NID_X9_62_prime192v1},
	    {TEE_ECC_CURVE_NIST_P224, 224, NID_secp224r1},
	    {TEE_ECC_CURVE_NIST_P256, 256, NID_X9_62_prime256v1},
	    {TEE_ECC_CURVE_NIST_P384, 384, NID_secp384r1},
	    {TEE_ECC_CURVE_NIST_P521, 521, NID_secp521r1},
	};
	static const uint32_t sm2_types[] = {TEE_TYPE_SM2_DSA_KEYPAIR, TEE_TYPE_SM2_KEP_KEYPAIR,
					     TEE_TYPE_SM2_PKE_KEYPAIR};
	TEEC_Session s = {0};
	uint32_t key = 0;

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "ECDSA and ECDH key pairs on every NIST curve");
	for (size_t i = 0; i < sizeof(curves) / sizeof(curves[0]); i++) {
		struct cc_attr cv = CC_VALUE(TEE_ATTR_ECC_CURVE, curves[i].curve, 0);

		for (int t = 0; t < 2; t++) {
			key = ct_genkey(c, &s, t ? TEE_TYPE_ECDH_KEYPAIR : TEE_TYPE_ECDSA_KEYPAIR,
					curves[i].bits, &cv, 1);
			if (key)
				ecc_check(c, &s, key, curves[i].nid, (curves[i].bits + 7) / 8);
			cc_free_obj(&s, key);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "SM2 key pairs, the curve implied or given");
	for (size_t i = 0; i < sizeof(sm2_types) / sizeof(sm2_types[0]); i++) {
		struct cc_attr cv = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_SM2, 0);

		key = ct_genkey(c, &s, sm2_types[i], 256, i ? &cv : NULL, i ? 1 : 0);
		if (key)
			ecc_check(c, &s, key, NID_sm2, 32);
		cc_free_obj(&s, key);
	}
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "ECC parameters refused");
	{
		struct cc_attr p256 = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0);
		struct cc_attr sm2 = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_SM2, 0);

		/* A curve of another size; SM2's for ECDSA; P-256 for SM2 */
		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     cc_alloc_obj(&s, TEE_TYPE_ECDSA_KEYPAIR, 521, &key))) {
			ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
						cc_generate_key(&s, key, 384, &p256, 1));
			ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
						cc_generate_key(&s, key, 256, &sm2, 1));
			cc_free_obj(&s, key);
		}
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_alloc_obj(&s, TEE_TYPE_SM2_DSA_KEYPAIR, 256, &key))) {
			ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
						cc_generate_key(&s, key, 256, &p256, 1));
			cc_free_obj(&s, key);
		}
		/* No curve for ECDSA */
		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     cc_alloc_obj(&s, TEE_TYPE_ECDSA_KEYPAIR, 256, &key)))
			ct_expect_panic(c, &s, cc_generate_key(&s, key, 256, NULL, 0));
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4007_ecc, xtest_tee_test_4007_ecc,
		 "Test TEE Internal API Generate key: ECC");

/* ---- X25519, Ed25519: the public key is the private key's ---- */

static void raw_pair(ADBG_Case_t *c, uint32_t type, int host_type, uint32_t pub_id,
		     uint32_t priv_id)
{
	TEEC_Session s = {0};
	uint8_t pub[32], priv[32], pub2[32], want[32];
	size_t pl = sizeof(pub);
	size_t dl = sizeof(priv);
	size_t pl2 = sizeof(pub2);
	size_t wl = sizeof(want);
	uint32_t k1 = 0;
	uint32_t k2 = 0;
	EVP_PKEY *host = NULL;

	if (!ct_open(c, &s))
		return;
	k1 = ct_genkey(c, &s, type, 256, NULL, 0);
	k2 = ct_genkey(c, &s, type, 256, NULL, 0);
	if (!k1 || !k2 || !ct_attr(c, &s, k1, pub_id, pub, &pl) ||
	    !ct_attr(c, &s, k1, priv_id, priv, &dl) || !ct_attr(c, &s, k2, pub_id, pub2, &pl2))
		goto out;
	ADBG_EXPECT(c, 32, pl);
	ADBG_EXPECT(c, 32, dl);
	ADBG_EXPECT_TRUE(c, memcmp(pub, pub2, 32));
	host = EVP_PKEY_new_raw_private_key(host_type, NULL, priv, dl);
	if (ADBG_EXPECT_NOT_NULL(c, host) &&
	    ADBG_EXPECT(c, 1, EVP_PKEY_get_raw_public_key(host, want, &wl)))
		ADBG_EXPECT_BUFFER(c, want, wl, pub, pl);
	/* Nothing to give a 25519 key */
	cc_free_obj(&s, k1);
	k1 = 0;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(&s, type, 256, &k1)))
		ct_expect_panic(
		    c, &s,
		    cc_generate_key(&s, k1, 256,
				    &CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_25519, 0), 1));
out:
	EVP_PKEY_free(host);
	TEEC_CloseSession(&s);
}

static void xtest_tee_test_4007_x25519(ADBG_Case_t *c)
{
	raw_pair(c, TEE_TYPE_X25519_KEYPAIR, EVP_PKEY_X25519, TEE_ATTR_X25519_PUBLIC_VALUE,
		 TEE_ATTR_X25519_PRIVATE_VALUE);
}
ADBG_CASE_DEFINE(regression, 4007_x25519, xtest_tee_test_4007_x25519,
		 "Test TEE Internal API Generate key: X25519");

static void xtest_tee_test_4007_ed25519(ADBG_Case_t *c)
{
	raw_pair(c, TEE_TYPE_ED25519_KEYPAIR, EVP_PKEY_ED25519, TEE_ATTR_ED25519_PUBLIC_VALUE,
		 TEE_ATTR_ED25519_PRIVATE_VALUE);
}
ADBG_CASE_DEFINE(regression, 4007_ed25519, xtest_tee_test_4007_ed25519,
		 "Test TEE Internal API Generate key: Ed25519");
