/*
 * regression 4006_rsa and 4011: RSA through the crypt TA.
 *
 * The key is made by the host's OpenSSL, so that the TEE is checked
 * against an independent implementation: PKCS#1 v1.5 signatures (and PSS
 * with an empty salt) are deterministic and must be the host's byte for
 * byte; randomised ones are verified or decrypted by the host, and the
 * host's are verified or decrypted by the TEE. RSA's standard vectors are
 * Wycheproof's (wycheproof.asymmetric).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/rsa.h>

#include "crypt_test.h"

#define RSA_BITS 2048
#define K (RSA_BITS / 8)

static const char *const part_names[] = {
    OSSL_PKEY_PARAM_RSA_N,	   OSSL_PKEY_PARAM_RSA_E,
    OSSL_PKEY_PARAM_RSA_D,	   OSSL_PKEY_PARAM_RSA_FACTOR1,
    OSSL_PKEY_PARAM_RSA_FACTOR2,   OSSL_PKEY_PARAM_RSA_EXPONENT1,
    OSSL_PKEY_PARAM_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
};
static const uint32_t part_ids[] = {
    TEE_ATTR_RSA_MODULUS,   TEE_ATTR_RSA_PUBLIC_EXPONENT, TEE_ATTR_RSA_PRIVATE_EXPONENT,
    TEE_ATTR_RSA_PRIME1,    TEE_ATTR_RSA_PRIME2,	  TEE_ATTR_RSA_EXPONENT1,
    TEE_ATTR_RSA_EXPONENT2, TEE_ATTR_RSA_COEFFICIENT,
};

#define PARTS 8

/* A host RSA key and its parts as GP attributes. */
struct rsa_key {
	EVP_PKEY *host;
	uint8_t part[PARTS][K];
	size_t len[PARTS];
	struct cc_attr attrs[PARTS];
};

static bool rsa_key_make(ADBG_Case_t *c, struct rsa_key *k)
{
	memset(k, 0, sizeof(*k));
	k->host = EVP_RSA_gen(RSA_BITS);
	if (!ADBG_EXPECT_NOT_NULL(c, k->host))
		return false;
	for (size_t i = 0; i < PARTS; i++) {
		k->len[i] = ct_host_bn(k->host, part_names[i], k->part[i], K);
		if (!ADBG_EXPECT_COMPARE_UNSIGNED(c, k->len[i], >, 0))
			return false;
		k->attrs[i] = CC_REF(part_ids[i], k->part[i], k->len[i]);
	}
	return true;
}

/* The TEE's key pair (all parts) or public key. */
static uint32_t tee_pair(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	return ct_key(c, s, TEE_TYPE_RSA_KEYPAIR, RSA_BITS, k->attrs, PARTS);
}

static uint32_t tee_pub(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	return ct_key(c, s, TEE_TYPE_RSA_PUBLIC_KEY, RSA_BITS, k->attrs, 2);
}

/* ---- the host's padding ---- */

struct host_pad {
	int pad;
	const EVP_MD *md;  /* signature or OAEP digest */
	const EVP_MD *mgf; /* OAEP's MGF1, NULL: md */
	int salt;
	const uint8_t *label;
	size_t label_len;
};

static bool host_setup(EVP_PKEY_CTX *ctx, const void *arg)
{
	const struct host_pad *h = arg;
	bool oaep = h->pad == RSA_PKCS1_OAEP_PADDING;

	if (EVP_PKEY_CTX_set_rsa_padding(ctx, h->pad) != 1)
		return false;
	if (h->md && !oaep && EVP_PKEY_CTX_set_signature_md(ctx, h->md) != 1)
		return false;
	if (h->pad == RSA_PKCS1_PSS_PADDING && EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, h->salt) != 1)
		return false;
	if (oaep) {
		if (EVP_PKEY_CTX_set_rsa_oaep_md(ctx, h->md) != 1 ||
		    EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, h->mgf ? h->mgf : h->md) != 1)
			return false;
		if (h->label_len) {
			void *l = OPENSSL_memdup(h->label, h->label_len);

			if (!l ||
			    EVP_PKEY_CTX_set0_rsa_oaep_label(ctx, l, (int)h->label_len) != 1) {
				OPENSSL_free(l);
				return false;
			}
		}
	}
	return true;
}

static const struct {
	uint32_t hash, pkcs1, pss, oaep;
} hashes[] = {
    {TEE_ALG_MD5, TEE_ALG_RSASSA_PKCS1_V1_5_MD5, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_MD5,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_MD5},
    {TEE_ALG_SHA1, TEE_ALG_RSASSA_PKCS1_V1_5_SHA1, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA1,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA1},
    {TEE_ALG_SHA224, TEE_ALG_RSASSA_PKCS1_V1_5_SHA224, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA224,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA224},
    {TEE_ALG_SHA256, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA256},
    {TEE_ALG_SHA384, TEE_ALG_RSASSA_PKCS1_V1_5_SHA384, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA384,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA384},
    {TEE_ALG_SHA512, TEE_ALG_RSASSA_PKCS1_V1_5_SHA512, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA512,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA512},
    {TEE_ALG_SHA3_224, TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_224, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_224,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_224},
    {TEE_ALG_SHA3_256, TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_256, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_256,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_256},
    {TEE_ALG_SHA3_384, TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_384, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_384,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_384},
    {TEE_ALG_SHA3_512, TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_512, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_512,
     TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_512},
};

#define N_HASHES (sizeof(hashes) / sizeof(hashes[0]))

static const char msg[] = "The quick brown fox jumps over the lazy dog";

/* Sign in the TEE, verify there with the public key, against the host both ways. */
static void sign_both_ways(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k, uint32_t alg,
			   const struct host_pad *hp, const uint8_t *dg, size_t dlen,
			   const struct cc_attr *params, size_t np, bool deterministic)
{
	uint32_t pair = tee_pair(c, s, k);
	uint32_t pub = tee_pub(c, s, k);
	uint32_t sop = ct_op(c, s, alg, TEE_MODE_SIGN, RSA_BITS, pair);
	uint32_t vop = ct_op(c, s, alg, TEE_MODE_VERIFY, RSA_BITS, pub);
	uint8_t sig[K];
	uint8_t hsig[K];
	size_t sl = sizeof(sig);
	size_t hl = sizeof(hsig);

	if (!sop || !vop)
		goto out;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, sop, params, np, dg, dlen, sig, &sl)))
		goto out;
	ADBG_EXPECT(c, K, sl);
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, params, np, dg, dlen, sig, sl));
	ADBG_EXPECT_TRUE(c, ct_host_verify(k->host, host_setup, hp, dg, dlen, sig, sl));
	if (ADBG_EXPECT_TRUE(c, ct_host_sign(k->host, host_setup, hp, dg, dlen, hsig, &hl))) {
		if (deterministic)
			ADBG_EXPECT_BUFFER(c, hsig, hl, sig, sl);
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, params, np, dg, dlen, hsig, hl));
	}
	/* A changed signature, or another digest, does not verify */
	sig[K / 2] ^= 0x01;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, params, np, dg, dlen, sig, sl));
	sig[K / 2] ^= 0x01;
	{
		uint8_t d2[64];

		memcpy(d2, dg, dlen);
		d2[0] ^= 0x80;
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
					cc_asym_verify(s, vop, params, np, d2, dlen, sig, sl));
	}
	/* A signature one byte short */
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, params, np, dg, dlen, sig + 1, sl - 1));
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
	cc_free_obj(s, pair);
	cc_free_obj(s, pub);
}

static void pkcs1_signatures(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	/* A DigestInfo the TA signs as is (TEE_ALG_RSASSA_PKCS1_V1_5, no OID of its own) */
	static const uint8_t raw[35] = {0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e,
					0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14, 0xa9};
	struct host_pad na1 = {.pad = RSA_PKCS1_PADDING};

	for (size_t i = 0; i < N_HASHES; i++) {
		struct host_pad hp = {.pad = RSA_PKCS1_PADDING, .md = ct_host_md(hashes[i].hash)};
		uint8_t dg[64];
		size_t dlen = sizeof(dg);

		Do_ADBG_Log("    PKCS#1 v1.5 with 0x%08x", hashes[i].hash);
		if (ct_digest(c, s, hashes[i].hash, msg, strlen(msg), dg, &dlen))
			sign_both_ways(c, s, k, hashes[i].pkcs1, &hp, dg, dlen, NULL, 0, true);
	}
	Do_ADBG_Log("    PKCS#1 v1.5 without a hash OID");
	sign_both_ways(c, s, k, TEE_ALG_RSASSA_PKCS1_V1_5, &na1, raw, sizeof(raw), NULL, 0, true);
}

static void pss_signatures(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	for (size_t i = 0; i < N_HASHES; i++) {
		const EVP_MD *md = ct_host_md(hashes[i].hash);
		struct host_pad hp = {.pad = RSA_PKCS1_PSS_PADDING, .md = md};
		struct cc_attr salt0 = CC_VALUE(TEE_ATTR_RSA_PSS_SALT_LENGTH, 0, 0);
		struct cc_attr salt20 = CC_VALUE(TEE_ATTR_RSA_PSS_SALT_LENGTH, 20, 0);
		uint8_t dg[64];
		size_t dlen = sizeof(dg);

		Do_ADBG_Log("    PSS with 0x%08x", hashes[i].hash);
		if (!ct_digest(c, s, hashes[i].hash, msg, strlen(msg), dg, &dlen))
			continue;
		/* The default salt is the digest's size */
		hp.salt = (int)dlen;
		sign_both_ways(c, s, k, hashes[i].pss, &hp, dg, dlen, NULL, 0, false);
		/* No salt: deterministic */
		hp.salt = 0;
		sign_both_ways(c, s, k, hashes[i].pss, &hp, dg, dlen, &salt0, 1, true);
		hp.salt = 20;
		sign_both_ways(c, s, k, hashes[i].pss, &hp, dg, dlen, &salt20, 1, false);
	}
	/* A signature with another salt length does not verify */
	{
		struct cc_attr salt0 = CC_VALUE(TEE_ATTR_RSA_PSS_SALT_LENGTH, 0, 0);
		uint32_t pair = tee_pair(c, s, k);
		uint32_t sop = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256, TEE_MODE_SIGN,
				     RSA_BITS, pair);
		uint32_t vop = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256, TEE_MODE_VERIFY,
				     RSA_BITS, pair);
		uint8_t dg[32] = {1, 2, 3};
		uint8_t sig[K];
		size_t sl = sizeof(sig);

		if (sop && vop &&
		    ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, sop, &salt0, 1, dg, 32, sig, &sl)))
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
						cc_asym_verify(s, vop, NULL, 0, dg, 32, sig, sl));
		cc_free_op(s, sop);
		cc_free_op(s, vop);
		cc_free_obj(s, pair);
	}
}

/* Encrypt in the TEE and decrypt on the host, and the other way round. */
static void encrypt_both_ways(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k,
			      uint32_t alg, const struct host_pad *hp, const uint8_t *m, size_t len,
			      const struct cc_attr *params, size_t np)
{
	uint32_t pair = tee_pair(c, s, k);
	uint32_t pub = tee_pub(c, s, k);
	uint32_t eop = ct_op(c, s, alg, TEE_MODE_ENCRYPT, RSA_BITS, pub);
	uint32_t dop = ct_op(c, s, alg, TEE_MODE_DECRYPT, RSA_BITS, pair);
	uint8_t ct[K];
	uint8_t pt[K];
	size_t cl = sizeof(ct);
	size_t pl = sizeof(pt);

	if (!eop || !dop)
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_encrypt(s, eop, params, np, m, len, ct, &cl)) &&
	    ADBG_EXPECT(c, K, cl) &&
	    ADBG_EXPECT_TRUE(c, ct_host_decrypt(k->host, host_setup, hp, ct, cl, pt, &pl)))
		ADBG_EXPECT_BUFFER(c, m, len, pt, pl);
	cl = sizeof(ct);
	pl = sizeof(pt);
	if (ADBG_EXPECT_TRUE(c, ct_host_encrypt(k->host, host_setup, hp, m, len, ct, &cl)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_decrypt(s, dop, params, np, ct, cl, pt, &pl)))
		ADBG_EXPECT_BUFFER(c, m, len, pt, pl);
	/* Any change to the ciphertext: CIPHERTEXT_INVALID, nothing out */
	ct[K - 1] ^= 0x01;
	pl = sizeof(pt);
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
				cc_asym_decrypt(s, dop, params, np, ct, cl, pt, &pl));
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
				cc_asym_decrypt(s, dop, params, np, ct, cl - 1, pt, &pl));
out:
	cc_free_op(s, eop);
	cc_free_op(s, dop);
	cc_free_obj(s, pair);
	cc_free_obj(s, pub);
}

static void oaep(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	static const uint8_t label[] = "swtee OAEP label";
	uint32_t mgf_sha1 = TEE_ALG_SHA1;

	for (size_t i = 0; i < N_HASHES; i++) {
		const EVP_MD *md = ct_host_md(hashes[i].hash);
		struct host_pad hp = {.pad = RSA_PKCS1_OAEP_PADDING, .md = md};
		struct cc_attr l = CC_REF(TEE_ATTR_RSA_OAEP_LABEL, label, sizeof(label));
		size_t max = K - 2 * (size_t)EVP_MD_get_size(md) - 2;

		Do_ADBG_Log("    OAEP with 0x%08x", hashes[i].hash);
		encrypt_both_ways(c, s, k, hashes[i].oaep, &hp, (const uint8_t *)msg, strlen(msg),
				  NULL, 0);
		/* A label; the longest message */
		hp.label = label;
		hp.label_len = sizeof(label);
		encrypt_both_ways(c, s, k, hashes[i].oaep, &hp, k->part[2], max, &l, 1);
	}
	/* MGF1 with another hash (TEE_ATTR_RSA_OAEP_MGF_HASH, a TEE_ALG_* in a buffer) */
	{
		struct host_pad hp = {
		    .pad = RSA_PKCS1_OAEP_PADDING, .md = EVP_sha256(), .mgf = EVP_sha1()};
		struct cc_attr mgf = CC_REF(TEE_ATTR_RSA_OAEP_MGF_HASH, &mgf_sha1, 4);

		Do_ADBG_Log("    OAEP with SHA-256 and MGF1-SHA-1");
		encrypt_both_ways(c, s, k, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA256, &hp,
				  (const uint8_t *)msg, strlen(msg), &mgf, 1);
	}
}

static void pkcs1_encryption(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	struct host_pad hp = {.pad = RSA_PKCS1_PADDING};
	uint32_t pub = tee_pub(c, s, k);
	uint32_t op = ct_op(c, s, TEE_ALG_RSAES_PKCS1_V1_5, TEE_MODE_ENCRYPT, RSA_BITS, pub);
	uint8_t ct[K];
	size_t cl = sizeof(ct);

	encrypt_both_ways(c, s, k, TEE_ALG_RSAES_PKCS1_V1_5, &hp, (const uint8_t *)msg, strlen(msg),
			  NULL, 0);
	/* The longest message, k - 11 bytes; one more is BAD_PARAMETERS */
	encrypt_both_ways(c, s, k, TEE_ALG_RSAES_PKCS1_V1_5, &hp, k->part[2], K - 11, NULL, 0);
	if (op)
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_BAD_PARAMETERS,
		    cc_asym_encrypt(s, op, NULL, 0, k->part[2], K - 10, ct, &cl));
	cc_free_op(s, op);
	cc_free_obj(s, pub);
}

static void no_padding(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	struct host_pad hp = {.pad = RSA_NO_PADDING};
	uint32_t pair = tee_pair(c, s, k);
	uint32_t eop = ct_op(c, s, TEE_ALG_RSA_NOPAD, TEE_MODE_ENCRYPT, RSA_BITS, pair);
	uint32_t dop = ct_op(c, s, TEE_ALG_RSA_NOPAD, TEE_MODE_DECRYPT, RSA_BITS, pair);
	uint8_t m[K];
	uint8_t ct[K];
	uint8_t host[K];
	uint8_t pt[K];
	size_t cl = sizeof(ct);
	size_t hl = sizeof(host);
	size_t pl = sizeof(pt);
	size_t off = 0;

	if (!eop || !dop)
		goto out;
	/* m < n: the modulus with its top byte lowered */
	memcpy(m, k->part[0], K);
	m[0] >>= 1;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_encrypt(s, eop, NULL, 0, m, K, ct, &cl)) ||
	    !ADBG_EXPECT_TRUE(c, ct_host_encrypt(k->host, host_setup, &hp, m, K, host, &hl)))
		goto out;
	/* OP-TEE's: leading zero bytes of the result are left out */
	while (off + 1 < hl && !host[off])
		off++;
	ADBG_EXPECT_BUFFER(c, host + off, hl - off, ct, cl);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_decrypt(s, dop, NULL, 0, ct, cl, pt, &pl)))
		ADBG_EXPECT_BUFFER(c, m, K, pt, pl);
	/* A short input is a number: 1 gives 1 */
	m[0] = 1;
	cl = sizeof(ct);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_encrypt(s, eop, NULL, 0, m, 1, ct, &cl)))
		ADBG_EXPECT_BUFFER(c, m, 1, ct, cl);
	/* Not below the modulus: BAD_PARAMETERS; longer than it too */
	memset(m, 0xff, sizeof(m));
	cl = sizeof(ct);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				cc_asym_encrypt(s, eop, NULL, 0, m, K, ct, &cl));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				cc_asym_decrypt(s, dop, NULL, 0, m, K, pt, &pl));
out:
	cc_free_op(s, eop);
	cc_free_op(s, dop);
	cc_free_obj(s, pair);
}

/* Short buffers, operation information, the GP 1.1 forms. */
static void buffers_and_info(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	uint32_t pair = tee_pair(c, s, k);
	uint32_t sop = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_SIGN, 4096, pair);
	uint32_t eop =
	    ct_op(c, s, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA1, TEE_MODE_ENCRYPT, 2048, pair);
	uint32_t dop =
	    ct_op(c, s, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA1, TEE_MODE_DECRYPT, 2048, pair);
	struct cc_op_info info;
	uint8_t dg[32] = {0};
	uint8_t buf[K];
	uint8_t ct[K];
	size_t n = 0;
	size_t cl = sizeof(ct);

	if (!sop || !eop || !dop)
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_op_info(s, sop, &info))) {
		ADBG_EXPECT(c, TEE_OPERATION_ASYMMETRIC_SIGNATURE, info.operation_class);
		ADBG_EXPECT(c, TEE_MODE_SIGN, info.mode);
		ADBG_EXPECT(c, 4096, info.max_key_size);
		ADBG_EXPECT(c, RSA_BITS, info.key_size);
		ADBG_EXPECT(c, TEE_USAGE_SIGN, info.required_key_usage);
		ADBG_EXPECT(c, TEE_HANDLE_FLAG_KEY_SET, info.handle_state);
	}
	n = K - 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				cc_asym_sign(s, sop, NULL, 0, dg, sizeof(dg), buf, &n));
	ADBG_EXPECT(c, K, n);
	n = 10;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				cc_asym_encrypt(s, eop, NULL, 0, msg, 10, buf, &n));
	ADBG_EXPECT(c, K, n);
	/* Decryption: the plaintext's size */
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_encrypt(s, eop, NULL, 0, msg, 10, ct, &cl)))
		goto out;
	n = 9;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				cc_asym_decrypt(s, dop, NULL, 0, ct, cl, buf, &n));
	ADBG_EXPECT(c, 10, n);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_decrypt(s, dop, NULL, 0, ct, cl, buf, &n)))
		ADBG_EXPECT_BUFFER(c, msg, 10, buf, n);
	/* GP 1.1: decryption failures are BAD_PARAMETERS */
	n = sizeof(buf);
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_gp11_asym(s, TA_CRYPT_CMD_ASYM_DECRYPT, dop, NULL, 0, ct, cl, buf, &n)))
		ADBG_EXPECT_BUFFER(c, msg, 10, buf, n);
	ct[3] ^= 1;
	n = sizeof(buf);
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_BAD_PARAMETERS,
	    cc_gp11_asym(s, TA_CRYPT_CMD_ASYM_DECRYPT, dop, NULL, 0, ct, cl, buf, &n));
	n = sizeof(buf);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_gp11_asym(s, TA_CRYPT_CMD_ASYM_SIGN, sop, NULL, 0, dg,
						     sizeof(dg), buf, &n))) {
		uint32_t vop =
		    ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_VERIFY, RSA_BITS, pair);

		if (vop) {
			ADBG_EXPECT_TEEC_SUCCESS(c, cc_gp11_asym(s, TA_CRYPT_CMD_ASYM_VERIFY, vop,
								 NULL, 0, dg, sizeof(dg), buf, &n));
			buf[0] ^= 1;
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
						cc_gp11_asym(s, TA_CRYPT_CMD_ASYM_VERIFY, vop, NULL,
							     0, dg, sizeof(dg), buf, &n));
		}
		cc_free_op(s, vop);
	}
out:
	cc_free_op(s, sop);
	cc_free_op(s, eop);
	cc_free_op(s, dop);
	cc_free_obj(s, pair);
}

/* A key pair given without its CRT parts (n, e, d only) works the same. */
static void no_crt(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	struct host_pad hp = {.pad = RSA_PKCS1_PADDING, .md = EVP_sha256()};
	uint32_t pair = ct_key(c, s, TEE_TYPE_RSA_KEYPAIR, RSA_BITS, k->attrs, 3);
	uint32_t op = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_SIGN, RSA_BITS, pair);
	uint8_t dg[32] = {9, 8, 7};
	uint8_t sig[K], hsig[K];
	size_t sl = sizeof(sig);
	size_t hl = sizeof(hsig);

	if (op && ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, op, NULL, 0, dg, 32, sig, &sl)) &&
	    ADBG_EXPECT_TRUE(c, ct_host_sign(k->host, host_setup, &hp, dg, 32, hsig, &hl)))
		ADBG_EXPECT_BUFFER(c, hsig, hl, sig, sl);
	cc_free_op(s, op);
	cc_free_obj(s, pair);
}

/* Each of these panics the TA: a fresh session after each. */
static void misuse(ADBG_Case_t *c, TEEC_Session *s, const struct rsa_key *k)
{
	uint8_t dg[32] = {0};
	uint8_t buf[K];
	size_t n = sizeof(buf);
	uint32_t key = 0;
	uint32_t op = 0;

	/* A verify operation asked to sign, a sign operation to verify */
	key = tee_pair(c, s, k);
	op = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_VERIFY, RSA_BITS, key);
	if (op)
		ct_expect_panic(c, s, cc_asym_sign(s, op, NULL, 0, dg, sizeof(dg), buf, &n));
	key = tee_pair(c, s, k);
	op = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_SIGN, RSA_BITS, key);
	if (op)
		ct_expect_panic(c, s, cc_asym_verify(s, op, NULL, 0, dg, sizeof(dg), buf, K));
	/* A digest of another size than the algorithm's hash */
	key = tee_pair(c, s, k);
	op = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_SIGN, RSA_BITS, key);
	if (op)
		ct_expect_panic(c, s, cc_asym_sign(s, op, NULL, 0, dg, 20, buf, &n));
	/* A public key where the private one is needed */
	key = tee_pub(c, s, k);
	op = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_SIGN, RSA_BITS, 0);
	if (op && key)
		ct_expect_panic(c, s, cc_set_key(s, op, key));
	key = tee_pub(c, s, k);
	op = ct_op(c, s, TEE_ALG_RSAES_PKCS1_V1_5, TEE_MODE_DECRYPT, RSA_BITS, 0);
	if (op && key)
		ct_expect_panic(c, s, cc_set_key(s, op, key));
	/* A key of another type */
	op = ct_op(c, s, TEE_ALG_RSA_NOPAD, TEE_MODE_ENCRYPT, RSA_BITS, 0);
	if (op && ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_ECDSA_KEYPAIR, 256, &key)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_generate_key(s, key, 256,
				   &CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0), 1)))
		ct_expect_panic(c, s, cc_set_key(s, op, key));
	/* No key */
	op = ct_op(c, s, TEE_ALG_RSAES_PKCS1_V1_5, TEE_MODE_ENCRYPT, RSA_BITS, 0);
	if (op)
		ct_expect_panic(c, s, cc_asym_encrypt(s, op, NULL, 0, dg, 4, buf, &n));
	/* A key without the usage */
	key = tee_pair(c, s, k);
	op = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_SIGN, RSA_BITS, 0);
	if (op && key &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_restrict_usage(s, key, TEE_USAGE_VERIFY, 0)))
		ct_expect_panic(c, s, cc_set_key(s, op, key));
	/* A key larger than the operation's maximum */
	key = tee_pair(c, s, k);
	op = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_SIGN, 1024, 0);
	if (op && key)
		ct_expect_panic(c, s, cc_set_key(s, op, key));
	/* A symmetric call on an asymmetric operation; a bad handle */
	key = tee_pair(c, s, k);
	op = ct_op(c, s, TEE_ALG_RSAES_PKCS1_V1_5, TEE_MODE_ENCRYPT, RSA_BITS, key);
	if (op)
		ct_expect_panic(c, s, cc_cipher_init(s, op, NULL, 0));
	ct_expect_panic(c, s, cc_asym_encrypt(s, 0x2000badd, NULL, 0, dg, 4, buf, &n));
}

static void xtest_tee_test_4006_rsa(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct rsa_key k;

	if (!ct_open(c, &s))
		return;
	if (!rsa_key_make(c, &k))
		goto out;
	Do_ADBG_BeginSubCase(c, "RSASSA-PKCS1-v1_5, every hash and without OID");
	pkcs1_signatures(c, &s, &k);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "RSASSA-PSS, every hash, salt lengths");
	pss_signatures(c, &s, &k);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "RSAES-OAEP, every hash, labels, MGF1 hash");
	oaep(c, &s, &k);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "RSAES-PKCS1-v1_5");
	pkcs1_encryption(c, &s, &k);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "RSA without padding");
	no_padding(c, &s, &k);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Short buffers, operation information, GP 1.1, no CRT parts");
	buffers_and_info(c, &s, &k);
	no_crt(c, &s, &k);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Misuse panics");
	misuse(c, &s, &k);
	Do_ADBG_EndSubCase(c, NULL);
out:
	EVP_PKEY_free(k.host);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4006_rsa, xtest_tee_test_4006_rsa,
		 "Test TEE Internal API asymmetric operations: RSA");

/* ---- 4011: Bleichenbacher ---- */

/* An encryption block 00 02 PS 00 M, with what is asked broken. */
enum em_kind {
	EM_VALID,
	EM_VALID_EMPTY, /* valid, an empty message */
	EM_FIRST_BYTE,	/* 01 02 ... */
	EM_BLOCK_TYPE_1,
	EM_BLOCK_TYPE_0,
	EM_NO_SEPARATOR,
	EM_SHORT_PS, /* 7 bytes of padding */
	EM_ZERO_IN_PS,
	EM_KINDS,
};

static void em_make(enum em_kind kind, uint8_t em[K], size_t *msg_len)
{
	size_t ps = K - 3 - 16;

	*msg_len = 16;
	em[0] = 0x00;
	em[1] = 0x02;
	for (size_t i = 2; i < K; i++)
		em[i] = (uint8_t)(i * 7 + 1) | 1; /* nonzero */
	em[2 + ps] = 0x00;
	switch (kind) {
	case EM_VALID_EMPTY:
		em[2 + ps] = 0x11;
		em[K - 1] = 0x00;
		*msg_len = 0;
		break;
	case EM_FIRST_BYTE:
		em[0] = 0x01;
		break;
	case EM_BLOCK_TYPE_1:
		em[1] = 0x01;
		break;
	case EM_BLOCK_TYPE_0:
		em[1] = 0x00;
		break;
	case EM_NO_SEPARATOR:
		em[2 + ps] = 0x11;
		break;
	case EM_SHORT_PS:
		em[2 + ps] = 0x11;
		em[2 + 7] = 0x00;
		*msg_len = K - 10;
		break;
	case EM_ZERO_IN_PS:
		em[2 + 3] = 0x00;
		break;
	default:
		break;
	}
}

/* OP-TEE's test: a forged PKCS#1 v1.5 signature built with raw RSA must not verify. */
static void forged_signatures(ADBG_Case_t *c, TEEC_Session *s, uint32_t pair)
{
	uint32_t sop = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA1, TEE_MODE_SIGN, RSA_BITS, pair);
	uint32_t vop = ct_op(c, s, TEE_ALG_RSASSA_PKCS1_V1_5_SHA1, TEE_MODE_VERIFY, RSA_BITS, pair);
	uint32_t eop = ct_op(c, s, TEE_ALG_RSA_NOPAD, TEE_MODE_ENCRYPT, RSA_BITS, pair);
	uint32_t dop = ct_op(c, s, TEE_ALG_RSA_NOPAD, TEE_MODE_DECRYPT, RSA_BITS, pair);
	uint8_t dg[20] = {0x5a};

	if (!sop || !vop || !eop || !dop)
		goto out;
	for (size_t i = 0; i < 9; i++) {
		uint8_t sig[K];
		uint8_t em[K];
		size_t sl = sizeof(sig);
		size_t el = sizeof(em);
		size_t n = 0;
		size_t m = 0;

		if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, sop, NULL, 0, dg, 20, sig, &sl)) ||
		    !ADBG_EXPECT_TEEC_SUCCESS(c,
					      cc_asym_verify(s, vop, NULL, 0, dg, 20, sig, sl)) ||
		    !ADBG_EXPECT_TEEC_SUCCESS(c,
					      cc_asym_encrypt(s, eop, NULL, 0, sig, sl, em, &el)))
			break;
		/* The padding's ff bytes, moved: the DigestInfo right after i of them */
		while (n + 1 < el && em[n] != 0xff)
			n++;
		m = n;
		while (m < el && em[m] == 0xff)
			m++;
		if (!ADBG_EXPECT_COMPARE_UNSIGNED(c, n + i + (el - m), <=, el))
			break;
		memmove(em + n + i, em + m, el - m);
		memset(em + n + i + (el - m), 0, el - (n + i + (el - m)));
		sl = sizeof(sig);
		if (!ADBG_EXPECT_TEEC_SUCCESS(c,
					      cc_asym_decrypt(s, dop, NULL, 0, em, el, sig, &sl)))
			break;
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
					cc_asym_verify(s, vop, NULL, 0, dg, 20, sig, sl));
	}
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
	cc_free_op(s, eop);
	cc_free_op(s, dop);
}

static void xtest_tee_test_4011(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct rsa_key k;
	uint32_t pair = 0;
	uint32_t eop = 0;
	uint32_t dop = 0;

	if (!ct_open(c, &s))
		return;
	if (!rsa_key_make(c, &k))
		goto out;
	pair = tee_pair(c, &s, &k);
	eop = ct_op(c, &s, TEE_ALG_RSA_NOPAD, TEE_MODE_ENCRYPT, RSA_BITS, pair);
	dop = ct_op(c, &s, TEE_ALG_RSAES_PKCS1_V1_5, TEE_MODE_DECRYPT, RSA_BITS, pair);
	if (!eop || !dop)
		goto out;
	Do_ADBG_BeginSubCase(c, "PKCS#1 v1.5 decryption: every malformed block fails alike");
	for (int kind = 0; kind < EM_KINDS; kind++) {
		bool valid = kind == EM_VALID || kind == EM_VALID_EMPTY;
		uint8_t em[K];
		uint8_t ct[K];
		uint8_t out[K];
		size_t cl = sizeof(ct);
		size_t ol = sizeof(out);
		size_t msg_len = 0;
		TEEC_Result res = TEEC_ERROR_GENERIC;

		em_make(kind, em, &msg_len);
		/* The block through raw RSA, then decrypted as PKCS#1 v1.5 */
		if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_encrypt(&s, eop, NULL, 0, em, K, ct, &cl)))
			continue;
		if (cl < K) {
			memmove(ct + K - cl, ct, cl);
			memset(ct, 0, K - cl);
		}
		res = cc_asym_decrypt(&s, dop, NULL, 0, ct, K, out, &ol);
		Do_ADBG_Log("    block %d: 0x%08x", kind, res);
		if (valid) {
			if (ADBG_EXPECT_TEEC_SUCCESS(c, res))
				ADBG_EXPECT_BUFFER(c, em + K - msg_len, msg_len, out, ol);
			continue;
		}
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID, res);
		/* No length out either */
		ADBG_EXPECT(c, sizeof(out), ol);
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_BAD_PARAMETERS,
		    cc_gp11_asym(&s, TA_CRYPT_CMD_ASYM_DECRYPT, dop, NULL, 0, ct, K, out, &ol));
	}
	/* Lengths other than the modulus' fail the same way */
	{
		uint8_t ct[K + 1] = {0};
		uint8_t out[K];
		size_t ol = sizeof(out);

		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
					cc_asym_decrypt(&s, dop, NULL, 0, ct, K - 1, out, &ol));
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
					cc_asym_decrypt(&s, dop, NULL, 0, ct, K + 1, out, &ol));
		memset(ct, 0xff, sizeof(ct));
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
					cc_asym_decrypt(&s, dop, NULL, 0, ct, K, out, &ol));
	}
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Forged PKCS#1 v1.5 signatures do not verify");
	forged_signatures(c, &s, pair);
	Do_ADBG_EndSubCase(c, NULL);
out:
	EVP_PKEY_free(k.host);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4011, xtest_tee_test_4011,
		 "Test TEE Internal API Bleichenbacher attack (negative)");
