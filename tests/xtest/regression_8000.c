/*
 * regression 8001: the key derivation functions of TEE_DeriveKey, OP-TEE's
 * extension IDs (HKDF, Concat KDF, PBKDF2) and GP 1.3's TEE_ALG_HKDF.
 *
 * Known answers: RFC 5869 A.1, A.3 and A.4 (HKDF), RFC 7518 appendix C
 * (Concat KDF, the ECDH-ES example), RFC 6070 (PBKDF2-HMAC-SHA1; its
 * 16777216-iteration vector with -l 1 and up), RFC 7914 section 11
 * (PBKDF2-HMAC-SHA256).
 */
#include <string.h>

#include "crypt_test.h"

#define OUT_MAX 512

/*
 * Derives with alg from a secret key of type (its attribute key_id = key)
 * into a generic secret of max_bits; the result into out.
 */
static TEEC_Result kdf(ADBG_Case_t *c, TEEC_Session *s, uint32_t alg, uint32_t type,
		       uint32_t key_id, const uint8_t *key, size_t key_len, struct cc_attr *params,
		       size_t n, uint32_t max_bits, uint8_t *out, size_t *out_len)
{
	struct cc_attr ka = CC_REF(key_id, key, key_len);
	uint32_t k = ct_key(c, s, type, (uint32_t)key_len * 8, &ka, 1);
	uint32_t op = ct_op(c, s, alg, TEE_MODE_DERIVE, (uint32_t)key_len * 8, k);
	uint32_t secret = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	if (!op)
		return res;
	res = cc_alloc_obj(s, TEE_TYPE_GENERIC_SECRET, max_bits, &secret);
	if (!res)
		res = cc_derive_key(s, op, secret, params, n);
	if (!res)
		res = cc_get_buf_attr(s, secret, TEE_ATTR_SECRET_VALUE, out, out_len);
	if (res != TEEC_ERROR_TARGET_DEAD) {
		cc_free_obj(s, secret);
		cc_free_obj(s, k);
		cc_free_op(s, op);
	}
	return res;
}

/* ---- HKDF ---- */

static const struct {
	const char *title;
	uint32_t hash, alg;
	const char *ikm, *salt, *info, *okm;
} hkdf_kats[] = {
    {"RFC 5869 A.1", TEE_ALG_SHA256, TEE_ALG_HKDF_SHA256_DERIVE_KEY,
     "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c",
     "f0f1f2f3f4f5f6f7f8f9",
     "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
    {"RFC 5869 A.3", TEE_ALG_SHA256, TEE_ALG_HKDF_SHA256_DERIVE_KEY,
     "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "",
     "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
    {"RFC 5869 A.4", TEE_ALG_SHA1, TEE_ALG_HKDF_SHA1_DERIVE_KEY, "0b0b0b0b0b0b0b0b0b0b0b",
     "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9",
     "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896"},
};

static void hkdf_kat(ADBG_Case_t *c, TEEC_Session *s, size_t i)
{
	uint8_t ikm[64], salt[64], info[64], want[64], out[OUT_MAX];
	size_t il = ct_unhex(hkdf_kats[i].ikm, ikm, sizeof(ikm));
	size_t sl = ct_unhex(hkdf_kats[i].salt, salt, sizeof(salt));
	size_t fl = ct_unhex(hkdf_kats[i].info, info, sizeof(info));
	size_t wl = ct_unhex(hkdf_kats[i].okm, want, sizeof(want));
	struct cc_attr p[4];
	size_t n = 0;
	size_t ol = sizeof(out);

	Do_ADBG_Log("    %s", hkdf_kats[i].title);
	/* OP-TEE's IDs and attributes */
	p[n++] = CC_VALUE(TEE_ATTR_HKDF_OKM_LENGTH, (uint32_t)wl, 0);
	if (sl)
		p[n++] = CC_REF(__OPTEE_TEE_ATTR_HKDF_SALT, salt, sl);
	if (fl)
		p[n++] = CC_REF(__OPTEE_ATTR_HKDF_INFO, info, fl);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, kdf(c, s, hkdf_kats[i].alg, TEE_TYPE_HKDF_IKM,
					    TEE_ATTR_HKDF_IKM, ikm, il, p, n, 4096, out, &ol)))
		ADBG_EXPECT_BUFFER(c, want, wl, out, ol);
	/* GP 1.3: the digest a parameter, the size the object's (here) or a parameter */
	n = 0;
	p[n++] = CC_VALUE(TEE_ATTR_HKDF_HASH_ALGORITHM, hkdf_kats[i].hash, 0);
	if (sl)
		p[n++] = CC_REF(TEE_ATTR_HKDF_SALT, salt, sl);
	if (fl)
		p[n++] = CC_REF(TEE_ATTR_HKDF_INFO, info, fl);
	ol = sizeof(out);
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     kdf(c, s, TEE_ALG_HKDF, TEE_TYPE_HKDF, TEE_ATTR_SECRET_VALUE,
					 ikm, il, p, n, (uint32_t)wl * 8, out, &ol)))
		ADBG_EXPECT_BUFFER(c, want, wl, out, ol);
	p[n++] = CC_VALUE(TEE_ATTR_KDF_KEY_SIZE, 16, 0);
	ol = sizeof(out);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, kdf(c, s, TEE_ALG_HKDF, TEE_TYPE_HKDF,
					    TEE_ATTR_SECRET_VALUE, ikm, il, p, n, 4096, out, &ol)))
		ADBG_EXPECT_BUFFER(c, want, 16, out, ol);
}

/* GP 1.3 HKDF without a digest: SHA-256 */
static void hkdf_default_hash(ADBG_Case_t *c, TEEC_Session *s)
{
	uint8_t ikm[22], want[42], out[64];
	size_t ol = sizeof(out);

	ct_unhex(hkdf_kats[1].ikm, ikm, sizeof(ikm));
	ct_unhex(hkdf_kats[1].okm, want, sizeof(want));
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     kdf(c, s, TEE_ALG_HKDF, TEE_TYPE_HKDF, TEE_ATTR_SECRET_VALUE,
					 ikm, sizeof(ikm), NULL, 0, 42 * 8, out, &ol)))
		ADBG_EXPECT_BUFFER(c, want, sizeof(want), out, ol);
}

/* ---- Concat KDF: RFC 7518 appendix C ---- */

static void concat_kdf(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint8_t z[] = {158, 86,  217, 29,	129, 113, 53,  211, 114, 131, 66,
				    131, 191, 132, 38,	156, 251, 49,  110, 163, 218, 128,
				    106, 72,  246, 218, 167, 121, 140, 254, 144, 196};
	static const uint8_t other[] = {0, 0, 0,   7,	'A', '1', '2', '8', 'G', 'C', 'M',
					0, 0, 0,   5,	'A', 'l', 'i', 'c', 'e', 0,   0,
					0, 3, 'B', 'o', 'b', 0,	  0,   0,   128};
	uint8_t want[16], out[64];
	size_t ol = sizeof(out);
	struct cc_attr p[] = {
	    CC_VALUE(TEE_ATTR_CONCAT_KDF_DKM_LENGTH, 16, 0),
	    CC_REF(TEE_ATTR_CONCAT_KDF_OTHER_INFO, other, sizeof(other)),
	};

	ct_unhex("56aa8deaf8236d205c2228cd71a7101a", want, sizeof(want));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, kdf(c, s, TEE_ALG_CONCAT_KDF_SHA256_DERIVE_KEY,
					    TEE_TYPE_CONCAT_KDF_Z, TEE_ATTR_CONCAT_KDF_Z, z,
					    sizeof(z), p, 2, 128, out, &ol)))
		ADBG_EXPECT_BUFFER(c, want, sizeof(want), out, ol);
	/* Each hash gives something (and its own) */
	{
		static const uint32_t algs[] = {
		    TEE_ALG_CONCAT_KDF_SHA1_DERIVE_KEY, TEE_ALG_CONCAT_KDF_SHA224_DERIVE_KEY,
		    TEE_ALG_CONCAT_KDF_SHA384_DERIVE_KEY, TEE_ALG_CONCAT_KDF_SHA512_DERIVE_KEY};

		for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
			ol = sizeof(out);
			if (ADBG_EXPECT_TEEC_SUCCESS(c, kdf(c, s, algs[i], TEE_TYPE_CONCAT_KDF_Z,
							    TEE_ATTR_CONCAT_KDF_Z, z, sizeof(z), p,
							    2, 128, out, &ol)))
				ADBG_EXPECT_TRUE(c, ol == 16 && memcmp(out, want, 16));
		}
	}
}

/* ---- PBKDF2 ---- */

static const struct {
	const char *title;
	uint32_t alg;
	const char *pw, *salt;
	size_t pw_len, salt_len;
	uint32_t iter;
	const char *dk;
	int level;
} pbkdf2_kats[] = {
    {"RFC 6070, c = 1", TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY, "password", "salt", 8, 4, 1,
     "0c60c80f961f0e71f3a9b524af6012062fe037a6", 0},
    {"RFC 6070, c = 2", TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY, "password", "salt", 8, 4, 2,
     "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957", 0},
    {"RFC 6070, c = 4096", TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY, "password", "salt", 8, 4, 4096,
     "4b007901b765489abead49d926f721d065a429c1", 0},
    {"RFC 6070, c = 16777216", TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY, "password", "salt", 8, 4,
     16777216, "eefe3d61cd4da4e4e9945b3d6ba2158c2634e984", 1},
    {"RFC 6070, 25 bytes", TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY, "passwordPASSWORDpassword",
     "saltSALTsaltSALTsaltSALTsaltSALTsalt", 24, 36, 4096,
     "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038", 0},
    {"RFC 6070, NUL bytes", TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY, "pass\0word", "sa\0lt", 9, 5, 4096,
     "56fa6aa75548099dcc37d7f03425e0c3", 0},
    {"RFC 7914 11, SHA-256", TEE_ALG_PBKDF2_HMAC_SHA256_DERIVE_KEY, "passwd", "salt", 6, 4, 1,
     "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77"
     "ef317c71b845b1e30bd509112041d3a19783",
     0},
};

static void pbkdf2(ADBG_Case_t *c, TEEC_Session *s)
{
	for (size_t i = 0; i < sizeof(pbkdf2_kats) / sizeof(pbkdf2_kats[0]); i++) {
		uint8_t want[64], out[OUT_MAX];
		size_t wl = ct_unhex(pbkdf2_kats[i].dk, want, sizeof(want));
		size_t ol = sizeof(out);
		struct cc_attr p[] = {
		    CC_REF(TEE_ATTR_PBKDF2_SALT, pbkdf2_kats[i].salt, pbkdf2_kats[i].salt_len),
		    CC_VALUE(TEE_ATTR_PBKDF2_ITERATION_COUNT, pbkdf2_kats[i].iter, 0),
		    CC_VALUE(TEE_ATTR_PBKDF2_DKM_LENGTH, (uint32_t)wl, 0),
		};

		if (xtest_level() < pbkdf2_kats[i].level) {
			Do_ADBG_Log("    %s: with -l %d", pbkdf2_kats[i].title,
				    pbkdf2_kats[i].level);
			continue;
		}
		Do_ADBG_Log("    %s", pbkdf2_kats[i].title);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, kdf(c, s, pbkdf2_kats[i].alg, TEE_TYPE_PBKDF2_PASSWORD,
			       TEE_ATTR_PBKDF2_PASSWORD, (const uint8_t *)pbkdf2_kats[i].pw,
			       pbkdf2_kats[i].pw_len, p, 3, (uint32_t)wl * 8, out, &ol)))
			ADBG_EXPECT_BUFFER(c, want, wl, out, ol);
	}
}

/* ---- misuse: each panics the TA ---- */

static void misuse(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint8_t ikm[16] = {1};
	uint8_t out[OUT_MAX];
	size_t ol = sizeof(out);
	struct cc_attr len600 = CC_VALUE(TEE_ATTR_HKDF_OKM_LENGTH, 600, 0);
	struct cc_attr len64 = CC_VALUE(TEE_ATTR_HKDF_OKM_LENGTH, 64, 0);
	struct cc_attr iter0[] = {CC_VALUE(TEE_ATTR_PBKDF2_ITERATION_COUNT, 0, 0),
				  CC_VALUE(TEE_ATTR_PBKDF2_DKM_LENGTH, 16, 0)};
	struct cc_attr gen = CC_REF(TEE_ATTR_SECRET_VALUE, ikm, sizeof(ikm));
	uint32_t op = 0;
	uint32_t key = 0;
	uint32_t obj = 0;

	/*
	 * No length; more than any object holds. More than the derived
	 * object's maxObjectSize is taken, as in OP-TEE (4215).
	 */
	ct_expect_panic(c, s,
			kdf(c, s, TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_TYPE_HKDF_IKM,
			    TEE_ATTR_HKDF_IKM, ikm, sizeof(ikm), NULL, 0, 256, out, &ol));
	ADBG_EXPECT_TEEC_SUCCESS(c, kdf(c, s, TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_TYPE_HKDF_IKM,
					TEE_ATTR_HKDF_IKM, ikm, sizeof(ikm), &len64, 1, 256, out,
					&ol));
	ol = sizeof(out);
	ct_expect_panic(c, s,
			kdf(c, s, TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_TYPE_HKDF_IKM,
			    TEE_ATTR_HKDF_IKM, ikm, sizeof(ikm), &len600, 1, 4096, out, &ol));
	/* No iterations */
	ct_expect_panic(c, s,
			kdf(c, s, TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY, TEE_TYPE_PBKDF2_PASSWORD,
			    TEE_ATTR_PBKDF2_PASSWORD, ikm, sizeof(ikm), iter0, 2, 256, out, &ol));
	/* A key of another type */
	op = ct_op(c, s, TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_MODE_DERIVE, 128, 0);
	key = ct_key(c, s, TEE_TYPE_GENERIC_SECRET, 128, &gen, 1);
	if (op && key)
		ct_expect_panic(c, s, cc_set_key(s, op, key));
	/* A derived object that is not a generic secret, or already holds one */
	op = ct_op(c, s, TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_MODE_DERIVE, 128, 0);
	gen.id = TEE_ATTR_HKDF_IKM;
	key = ct_key(c, s, TEE_TYPE_HKDF_IKM, 128, &gen, 1);
	if (op && key && ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(s, op, key)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_HMAC_SHA256, 256, &obj)))
		ct_expect_panic(c, s, cc_derive_key(s, op, obj, &len64, 1));
	op = ct_op(c, s, TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_MODE_DERIVE, 128, 0);
	key = ct_key(c, s, TEE_TYPE_HKDF_IKM, 128, &gen, 1);
	if (op && key && ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(s, op, key)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_GENERIC_SECRET, 512, &obj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_derive_key(s, op, obj, &len64, 1)))
		ct_expect_panic(c, s, cc_derive_key(s, op, obj, &len64, 1));
	/* GP 1.3 HKDF with a digest it cannot use */
	{
		struct cc_attr h = CC_VALUE(TEE_ATTR_HKDF_HASH_ALGORITHM, TEE_ALG_AES_CBC_NOPAD, 0);

		gen.id = TEE_ATTR_SECRET_VALUE;
		ct_expect_panic(c, s,
				kdf(c, s, TEE_ALG_HKDF, TEE_TYPE_HKDF, TEE_ATTR_SECRET_VALUE, ikm,
				    sizeof(ikm), &h, 1, 256, out, &ol));
	}
}

static void xtest_tee_test_8001(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "HKDF: RFC 5869, OP-TEE's IDs and GP 1.3's");
	for (size_t i = 0; i < sizeof(hkdf_kats) / sizeof(hkdf_kats[0]); i++)
		hkdf_kat(c, &s, i);
	hkdf_default_hash(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Concat KDF: RFC 7518 appendix C");
	concat_kdf(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "PBKDF2: RFC 6070, RFC 7914");
	pbkdf2(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Key derivation misuse");
	misuse(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 8001, xtest_tee_test_8001,
		 "TEE Internal API key derivation extensions (HKDF, Concat KDF, PBKDF2)");
