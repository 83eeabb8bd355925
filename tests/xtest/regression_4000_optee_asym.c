/*
 * regression 4211-4219: asymmetric operations where swtee does what OP-TEE
 * does rather than what GP's text alone would give (docs/crypto.md, "Where
 * swtee follows OP-TEE").
 *
 *   4211 DSA digest lengths: signing takes the hash cut to the subprime q
 *        (FIPS 186-4 4.6), verifying that or the whole hash; others panic.
 *   4212 ECDSA digest lengths: any, cut to the order's bit length.
 *   4213 SM2 DSA digest lengths: any, taken as the number it spells; its
 *        digest hash in utee_defines.h is SM3, as in OP-TEE's.
 *   4214 SM2 PKE ciphertexts are C1 || C2 || C3 (GM/T 0003.4-2012).
 *   4215 TEE_DeriveKey ignores the derived object's maxObjectSize: any
 *        secret up to the generic secret's 4096 bits goes in.
 *   4216 SM2 KEP derives as many bytes as maxObjectSize says bits.
 *   4217 DH key generation: TEE_ATTR_DH_X_BITS 0 lets the TEE choose; the
 *        attribute is kept.
 *   4218 DSA key generation from 512 bits in steps of 64 (OP-TEE's sizes).
 *   4219 DH and DSA key generation take a prime of 8 * size bytes, whatever
 *        its top byte (OP-TEE's xtest --asym-perf draws such DH primes).
 *
 * Signatures are checked against the host's OpenSSL, which cuts DSA and
 * ECDSA digests the same way.
 */
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/dsa.h>

#include <utee_defines.h>

#include "crypt_test.h"

/* Digest bytes: any pattern will do, no hash is recomputed. */
static void fill(uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(0xa5 ^ (i * 29));
}

/* Signs dg (len bytes) in the TEE; the signature (r || s, n bytes each) into sig. */
static bool tee_sign(ADBG_Case_t *c, TEEC_Session *s, uint32_t op, const uint8_t *dg, size_t len,
		     uint8_t *sig, size_t n)
{
	size_t sl = 2 * n;

	return ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, op, NULL, 0, dg, len, sig, &sl)) &&
	       ADBG_EXPECT(c, 2 * n, sl);
}

/* The host verifies r || s (n bytes each) over dg (len bytes). */
static bool host_verify(EVP_PKEY *host, const uint8_t *dg, size_t len, const uint8_t *sig, size_t n)
{
	uint8_t der[2 * 66 + 16];
	size_t dl = sizeof(der);

	return ct_rs_to_der(sig, n, der, &dl) && ct_host_verify(host, NULL, NULL, dg, len, der, dl);
}

/* The host signs dg (len bytes); r || s (n bytes each) into sig. */
static bool host_sign(EVP_PKEY *host, const uint8_t *dg, size_t len, uint8_t *sig, size_t n)
{
	uint8_t der[2 * 66 + 16];
	size_t dl = sizeof(der);

	return ct_host_sign(host, NULL, NULL, dg, len, der, &dl) && ct_der_to_rs(der, dl, n, sig);
}

/* ---- 4211: DSA ---- */

/* A DSA key in the host's group; q_len set. */
static bool dsa_key_make(ADBG_Case_t *c, TEEC_Session *s, const char *group, uint32_t bits,
			 struct ct_dsa *k, size_t *q_len)
{
	struct ct_ffc f;

	memset(k, 0, sizeof(*k));
	if (!ADBG_EXPECT_TRUE(c, ct_host_group(group, &f)))
		return false;
	*q_len = f.q_len;
	return ct_dsa_key(c, s, &f, bits, k);
}

/*
 * alg (hash of hash_len bytes) in group: the digest cut to q signs, and
 * verifies with the TEE and the host, cut or whole.
 */
static void dsa_lengths(ADBG_Case_t *c, TEEC_Session *s, const char *group, uint32_t bits,
			uint32_t alg, size_t hash_len)
{
	struct ct_dsa k;
	uint8_t dg[64];
	uint8_t sig[64];
	size_t q_len = 0;
	size_t cut = 0;
	uint32_t sop = 0;
	uint32_t vop = 0;

	fill(dg, sizeof(dg));
	if (!dsa_key_make(c, s, group, bits, &k, &q_len))
		goto out;
	cut = hash_len < q_len ? hash_len : q_len;
	sop = ct_op(c, s, alg, TEE_MODE_SIGN, bits, k.pair);
	vop = ct_op(c, s, alg, TEE_MODE_VERIFY, bits, k.pub);
	if (!sop || !vop || !tee_sign(c, s, sop, dg, cut, sig, q_len))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, NULL, 0, dg, cut, sig, 2 * q_len));
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, NULL, 0, dg, hash_len, sig, 2 * q_len));
	ADBG_EXPECT_TRUE(c, host_verify(k.host, dg, cut, sig, q_len));
	ADBG_EXPECT_TRUE(c, host_verify(k.host, dg, hash_len, sig, q_len));
	/* Only q's bytes count */
	dg[hash_len - 1] ^= 1;
	ADBG_EXPECT_TEEC_RESULT(c, cut < hash_len ? TEE_SUCCESS : TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, NULL, 0, dg, hash_len, sig, 2 * q_len));
	dg[hash_len - 1] ^= 1;
	dg[cut - 1] ^= 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, NULL, 0, dg, hash_len, sig, 2 * q_len));
	dg[cut - 1] ^= 1;
	/* The host's signature of the whole hash verifies with the cut */
	if (ADBG_EXPECT_TRUE(c, host_sign(k.host, dg, hash_len, sig, q_len)))
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 cc_asym_verify(s, vop, NULL, 0, dg, cut, sig, 2 * q_len));
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
	ct_dsa_free(s, &k);
}

/* A digest of len bytes for alg in mode panics the TA. */
static void dsa_panics(ADBG_Case_t *c, TEEC_Session *s, const char *group, uint32_t bits,
		       uint32_t alg, uint32_t mode, size_t len)
{
	struct ct_dsa k;
	uint8_t dg[64] = {1};
	uint8_t sig[64] = {1};
	size_t sl = sizeof(sig);
	size_t q_len = 0;
	uint32_t op = 0;

	Do_ADBG_Log("    0x%08x in %s, mode %u, %zu bytes", alg, group, mode, len);
	if (!dsa_key_make(c, s, group, bits, &k, &q_len))
		goto out;
	op = ct_op(c, s, alg, mode, bits, mode == TEE_MODE_SIGN ? k.pair : k.pub);
	if (!op)
		goto out;
	if (mode == TEE_MODE_SIGN)
		ct_expect_panic(c, s, cc_asym_sign(s, op, NULL, 0, dg, len, sig, &sl));
	else
		ct_expect_panic(c, s, cc_asym_verify(s, op, NULL, 0, dg, len, sig, 2 * q_len));
	/* The TA instance is gone, and its objects with it */
	k.pair = 0;
	k.pub = 0;
out:
	ct_dsa_free(s, &k);
}

static void xtest_tee_test_4211(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "DSA-SHA256 with a 224-bit q: the hash cut to q");
	dsa_lengths(c, &s, "dh_2048_224", 2048, TEE_ALG_DSA_SHA256, 32);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "DSA-SHA224 and DSA-SHA1: q the hash's size");
	dsa_lengths(c, &s, "dh_2048_224", 2048, TEE_ALG_DSA_SHA224, 28);
	dsa_lengths(c, &s, "dh_1024_160", 1024, TEE_ALG_DSA_SHA1, 20);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "DSA: other digest lengths panic");
	/* Signing takes the cut only; verifying also the whole hash, nothing else */
	dsa_panics(c, &s, "dh_2048_224", 2048, TEE_ALG_DSA_SHA256, TEE_MODE_SIGN, 32);
	dsa_panics(c, &s, "dh_2048_224", 2048, TEE_ALG_DSA_SHA256, TEE_MODE_SIGN, 20);
	dsa_panics(c, &s, "dh_2048_224", 2048, TEE_ALG_DSA_SHA256, TEE_MODE_VERIFY, 20);
	dsa_panics(c, &s, "dh_2048_224", 2048, TEE_ALG_DSA_SHA256, TEE_MODE_VERIFY, 64);
	dsa_panics(c, &s, "dh_1024_160", 1024, TEE_ALG_DSA_SHA1, TEE_MODE_SIGN, 28);
	dsa_panics(c, &s, "dh_1024_160", 1024, TEE_ALG_DSA_SHA1, TEE_MODE_VERIFY, 19);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4211, xtest_tee_test_4211,
		 "DSA digest lengths as OP-TEE takes them (FIPS 186-4 cut to q)");

/* ---- 4212: ECDSA, 4213: SM2 DSA ---- */

struct ec_key {
	EVP_PKEY *host;
	uint32_t pair, pub;
	size_t n; /* bytes of r and s */
};

/* A key pair the TEE generates on curve, as a TEE public key and a host key. */
static bool ec_key_make(ADBG_Case_t *c, TEEC_Session *s, uint32_t pair_type, uint32_t pub_type,
			uint32_t curve, uint32_t bits, const char *type, const char *group,
			struct ec_key *k)
{
	struct cc_attr ca = CC_VALUE(TEE_ATTR_ECC_CURVE, curve, 0);
	uint8_t pt[1 + 2 * 66];
	uint8_t d[66];
	size_t xl = 66;
	size_t yl = 66;
	size_t dl = sizeof(d);

	memset(k, 0, sizeof(*k));
	k->n = (bits + 7) / 8;
	k->pair = ct_genkey(c, s, pair_type, bits, &ca, 1);
	if (!k->pair || !ct_attr(c, s, k->pair, TEE_ATTR_ECC_PUBLIC_VALUE_X, pt + 1, &xl) ||
	    !ct_attr(c, s, k->pair, TEE_ATTR_ECC_PUBLIC_VALUE_Y, pt + 1 + k->n, &yl) ||
	    !ct_attr(c, s, k->pair, TEE_ATTR_ECC_PRIVATE_VALUE, d, &dl) ||
	    !ADBG_EXPECT(c, k->n, xl) || !ADBG_EXPECT(c, k->n, yl))
		return false;
	pt[0] = 0x04;
	{
		const char *const names[] = {OSSL_PKEY_PARAM_PRIV_KEY};
		const uint8_t *const values[] = {d};
		const size_t lens[] = {dl};
		struct cc_attr pa[] = {
		    CC_VALUE(TEE_ATTR_ECC_CURVE, curve, 0),
		    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, pt + 1, k->n),
		    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, pt + 1 + k->n, k->n),
		};

		k->host = ct_host_key(type, group, pt, 1 + 2 * k->n, names, values, lens, 1);
		k->pub = ct_key(c, s, pub_type, bits, pa, 3);
	}
	return ADBG_EXPECT_NOT_NULL(c, k->host) && k->pub;
}

static void ec_key_free(TEEC_Session *s, struct ec_key *k)
{
	EVP_PKEY_free(k->host);
	cc_free_obj(s, k->pair);
	cc_free_obj(s, k->pub);
}

static const size_t ec_lens[] = {0, 1, 20, 28, 32, 48, 64, 66, 100};

/* alg on curve: digests of every length sign and verify, both ways with the host. */
static void ecdsa_lengths(ADBG_Case_t *c, TEEC_Session *s, uint32_t alg, uint32_t curve,
			  uint32_t bits, const char *group)
{
	struct ec_key k;
	uint8_t dg[101];
	uint8_t sig[2 * 66];
	uint32_t sop = 0;
	uint32_t vop = 0;

	fill(dg, sizeof(dg));
	if (!ec_key_make(c, s, TEE_TYPE_ECDSA_KEYPAIR, TEE_TYPE_ECDSA_PUBLIC_KEY, curve, bits, "EC",
			 group, &k))
		goto out;
	sop = ct_op(c, s, alg, TEE_MODE_SIGN, bits, k.pair);
	vop = ct_op(c, s, alg, TEE_MODE_VERIFY, bits, k.pub);
	if (!sop || !vop)
		goto out;
	for (size_t i = 0; i < sizeof(ec_lens) / sizeof(ec_lens[0]); i++) {
		size_t len = ec_lens[i];
		/* The first byte past the order's bits: not signed */
		size_t past = (bits + 7) / 8;

		Do_ADBG_Log("    0x%08x on %s, %zu bytes", alg, group, len);
		if (tee_sign(c, s, sop, len ? dg : NULL, len, sig, k.n)) {
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, cc_asym_verify(s, vop, NULL, 0, len ? dg : NULL, len, sig, 2 * k.n));
			ADBG_EXPECT_TRUE(c, host_verify(k.host, dg, len, sig, k.n));
			/* P-521: the last byte's low 7 bits are past the order's bits */
			if (bits % 8 && len >= past) {
				dg[past - 1] ^= 0x01;
				ADBG_EXPECT_TEEC_SUCCESS(
				    c, cc_asym_verify(s, vop, NULL, 0, dg, len, sig, 2 * k.n));
				dg[past - 1] ^= 0x01;
			}
			if (len > past) {
				dg[past] ^= 0x80;
				ADBG_EXPECT_TEEC_SUCCESS(
				    c, cc_asym_verify(s, vop, NULL, 0, dg, len, sig, 2 * k.n));
				dg[past] ^= 0x80;
			}
			if (len) {
				dg[0] ^= 0x80;
				ADBG_EXPECT_TEEC_RESULT(
				    c, TEE_ERROR_SIGNATURE_INVALID,
				    cc_asym_verify(s, vop, NULL, 0, dg, len, sig, 2 * k.n));
				dg[0] ^= 0x80;
			}
		}
		if (len && ADBG_EXPECT_TRUE(c, host_sign(k.host, dg, len, sig, k.n)))
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, cc_asym_verify(s, vop, NULL, 0, dg, len, sig, 2 * k.n));
	}
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
	ec_key_free(s, &k);
}

static void xtest_tee_test_4212(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "ECDSA-SHA256 on P-256: any digest length");
	ecdsa_lengths(c, &s, TEE_ALG_ECDSA_SHA256, TEE_ECC_CURVE_NIST_P256, 256, "prime256v1");
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "ECDSA-SHA1 on P-384 and SHA-512 on P-521: any digest length");
	ecdsa_lengths(c, &s, TEE_ALG_ECDSA_SHA1, TEE_ECC_CURVE_NIST_P384, 384, "secp384r1");
	ecdsa_lengths(c, &s, TEE_ALG_ECDSA_SHA512, TEE_ECC_CURVE_NIST_P521, 521, "secp521r1");
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4212, xtest_tee_test_4212,
		 "ECDSA digest lengths as OP-TEE takes them (any, cut to the order)");

/* The number dg spells, mod SM2's n, as 32 bytes: what the host's SM2 signs. */
static bool sm2_reduce(EVP_PKEY *host, const uint8_t *dg, size_t len, uint8_t e[32])
{
	BIGNUM *n = NULL;
	BIGNUM *v = BN_bin2bn(dg, (int)len, NULL);
	BN_CTX *bn = BN_CTX_new();
	bool ok = v && bn && EVP_PKEY_get_bn_param(host, OSSL_PKEY_PARAM_EC_ORDER, &n) == 1 &&
		  BN_nnmod(v, v, n, bn) == 1 && BN_bn2binpad(v, e, 32) == 32;

	BN_free(n);
	BN_free(v);
	BN_CTX_free(bn);
	return ok;
}

static void sm2_lengths(ADBG_Case_t *c, TEEC_Session *s)
{
	struct ec_key k;
	uint8_t dg[101];
	uint8_t e[32];
	uint8_t sig[64];
	uint32_t sop = 0;
	uint32_t vop = 0;

	fill(dg, sizeof(dg));
	if (!ec_key_make(c, s, TEE_TYPE_SM2_DSA_KEYPAIR, TEE_TYPE_SM2_DSA_PUBLIC_KEY,
			 TEE_ECC_CURVE_SM2, 256, "SM2", "SM2", &k))
		goto out;
	sop = ct_op(c, s, TEE_ALG_SM2_DSA_SM3, TEE_MODE_SIGN, 256, k.pair);
	vop = ct_op(c, s, TEE_ALG_SM2_DSA_SM3, TEE_MODE_VERIFY, 256, k.pub);
	if (!sop || !vop)
		goto out;
	for (size_t i = 0; i < sizeof(ec_lens) / sizeof(ec_lens[0]); i++) {
		size_t len = ec_lens[i];

		Do_ADBG_Log("    SM2 DSA, %zu bytes", len);
		if (!ADBG_EXPECT_TRUE(c, sm2_reduce(k.host, dg, len, e)))
			continue;
		if (tee_sign(c, s, sop, len ? dg : NULL, len, sig, 32)) {
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, cc_asym_verify(s, vop, NULL, 0, len ? dg : NULL, len, sig, 64));
			/* The same number in 32 bytes, for the TEE and the host */
			ADBG_EXPECT_TEEC_SUCCESS(c,
						 cc_asym_verify(s, vop, NULL, 0, e, 32, sig, 64));
			ADBG_EXPECT_TRUE(c, host_verify(k.host, e, 32, sig, 32));
			if (len) {
				dg[len - 1] ^= 1;
				ADBG_EXPECT_TEEC_RESULT(
				    c, TEE_ERROR_SIGNATURE_INVALID,
				    cc_asym_verify(s, vop, NULL, 0, dg, len, sig, 64));
				dg[len - 1] ^= 1;
			}
		}
		if (ADBG_EXPECT_TRUE(c, host_sign(k.host, e, 32, sig, 32)))
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, cc_asym_verify(s, vop, NULL, 0, len ? dg : NULL, len, sig, 64));
	}
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
	ec_key_free(s, &k);
}

static void xtest_tee_test_4213(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "SM2 DSA: any digest length, as the number it spells");
	sm2_lengths(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	/* OP-TEE's xtest 4006_sm2 hashes with what utee_defines.h names */
	Do_ADBG_BeginSubCase(c, "SM2 DSA's digest hash in utee_defines.h is SM3");
	ADBG_EXPECT(c, TEE_MAIN_ALGO_SM3, TEE_ALG_GET_DIGEST_HASH(TEE_ALG_SM2_DSA_SM3));
	ADBG_EXPECT(c, TEE_ALG_SM3, TEE_DIGEST_HASH_TO_ALGO(TEE_ALG_SM2_DSA_SM3));
	ADBG_EXPECT(c, TEE_ALG_SHA256, TEE_DIGEST_HASH_TO_ALGO(TEE_ALG_DSA_SHA256));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4213, xtest_tee_test_4213,
		 "SM2 DSA digest lengths as OP-TEE takes them (any)");

/* ---- 4214: SM2 PKE ---- */

/* The fixed parts of an SM2 ciphertext: C1 = 04 || x || y, C3 an SM3 hash. */
#define SM2_C1 65
#define SM2_C3 32

static ASN1_TYPE *asn1_int(const uint8_t *be, size_t len)
{
	BIGNUM *bn = BN_bin2bn(be, (int)len, NULL);
	ASN1_INTEGER *i = bn ? BN_to_ASN1_INTEGER(bn, NULL) : NULL;
	ASN1_TYPE *t = i ? ASN1_TYPE_new() : NULL;

	BN_free(bn);
	if (t)
		ASN1_TYPE_set(t, V_ASN1_INTEGER, i);
	else
		ASN1_INTEGER_free(i);
	return t;
}

static ASN1_TYPE *asn1_octets(const uint8_t *p, size_t len)
{
	ASN1_OCTET_STRING *o = ASN1_OCTET_STRING_new();
	ASN1_TYPE *t = o ? ASN1_TYPE_new() : NULL;

	if (!t || !ASN1_OCTET_STRING_set(o, p, (int)len)) {
		ASN1_OCTET_STRING_free(o);
		ASN1_TYPE_free(t);
		return NULL;
	}
	ASN1_TYPE_set(t, V_ASN1_OCTET_STRING, o);
	return t;
}

/* C1 || C2 || C3 as the DER SEQUENCE { x, y, C3, C2 } the host's OpenSSL takes. */
static bool sm2_to_der(const uint8_t *ct, size_t len, uint8_t *der, size_t *der_len)
{
	STACK_OF(ASN1_TYPE) *seq = sk_ASN1_TYPE_new_null();
	size_t c2 = len - SM2_C1 - SM2_C3;
	ASN1_TYPE *parts[4] = {
	    asn1_int(ct + 1, 32),
	    asn1_int(ct + 33, 32),
	    asn1_octets(ct + SM2_C1 + c2, SM2_C3),
	    asn1_octets(ct + SM2_C1, c2),
	};
	unsigned char *p = der;
	int n = 0;

	for (size_t i = 0; i < 4; i++) {
		if (seq && parts[i] && sk_ASN1_TYPE_push(seq, parts[i]))
			parts[i] = NULL;
		ASN1_TYPE_free(parts[i]);
	}
	if (seq && sk_ASN1_TYPE_num(seq) == 4) {
		n = i2d_ASN1_SEQUENCE_ANY(seq, NULL);
		if (n > 0 && (size_t)n <= *der_len)
			n = i2d_ASN1_SEQUENCE_ANY(seq, &p);
		else
			n = 0;
	}
	sk_ASN1_TYPE_pop_free(seq, ASN1_TYPE_free);
	*der_len = n > 0 ? (size_t)n : 0;
	return n > 0;
}

/* The host's DER ciphertext as C1 || C2 || C3 (*len in: room, out: bytes). */
static bool sm2_from_der(const uint8_t *der, size_t der_len, uint8_t *ct, size_t *len)
{
	const unsigned char *p = der;
	STACK_OF(ASN1_TYPE) *seq = d2i_ASN1_SEQUENCE_ANY(NULL, &p, (long)der_len);
	ASN1_TYPE *t[4] = {NULL};
	BIGNUM *x = NULL;
	BIGNUM *y = NULL;
	bool ok = seq && sk_ASN1_TYPE_num(seq) == 4;

	for (int i = 0; ok && i < 4; i++) {
		t[i] = sk_ASN1_TYPE_value(seq, i);
		ok = ASN1_TYPE_get(t[i]) == (i < 2 ? V_ASN1_INTEGER : V_ASN1_OCTET_STRING);
	}
	if (ok) {
		const ASN1_OCTET_STRING *c3 = t[2]->value.octet_string;
		const ASN1_OCTET_STRING *c2 = t[3]->value.octet_string;
		size_t c2_len = (size_t)ASN1_STRING_length(c2);

		x = ASN1_INTEGER_to_BN(t[0]->value.integer, NULL);
		y = ASN1_INTEGER_to_BN(t[1]->value.integer, NULL);
		ok = x && y && ASN1_STRING_length(c3) == SM2_C3 &&
		     *len >= SM2_C1 + c2_len + SM2_C3 && BN_bn2binpad(x, ct + 1, 32) == 32 &&
		     BN_bn2binpad(y, ct + 33, 32) == 32;
		if (ok) {
			ct[0] = 0x04;
			memcpy(ct + SM2_C1, ASN1_STRING_get0_data(c2), c2_len);
			memcpy(ct + SM2_C1 + c2_len, ASN1_STRING_get0_data(c3), SM2_C3);
			*len = SM2_C1 + c2_len + SM2_C3;
		}
	}
	BN_free(x);
	BN_free(y);
	sk_ASN1_TYPE_pop_free(seq, ASN1_TYPE_free);
	return ok;
}

/* A message of len bytes both ways between the TEE and the host. */
static void sm2_pke_both_ways(ADBG_Case_t *c, TEEC_Session *s, const struct ec_key *k, uint32_t eop,
			      uint32_t dop, size_t len)
{
	uint8_t msg[200];
	uint8_t ct[400];
	uint8_t der[450];
	uint8_t pt[400];
	size_t cl = sizeof(ct);
	size_t dl = sizeof(der);
	size_t pl = sizeof(pt);

	Do_ADBG_Log("    SM2 PKE, %zu bytes", len);
	fill(msg, len);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_encrypt(s, eop, NULL, 0, msg, len, ct, &cl)) ||
	    !ADBG_EXPECT(c, 97 + len, cl) || !ADBG_EXPECT(c, 0x04, ct[0]))
		return;
	/* The host reads it as C1 || C2 || C3 */
	if (ADBG_EXPECT_TRUE(c, sm2_to_der(ct, cl, der, &dl)) &&
	    ADBG_EXPECT_TRUE(c, ct_host_decrypt(k->host, NULL, NULL, der, dl, pt, &pl)))
		ADBG_EXPECT_BUFFER(c, msg, len, pt, pl);
	/* C2 and C3 the other way round (C1 || C3 || C2): refused */
	{
		uint8_t swapped[400];

		memcpy(swapped, ct, SM2_C1);
		memcpy(swapped + SM2_C1, ct + SM2_C1 + len, SM2_C3);
		memcpy(swapped + SM2_C1 + SM2_C3, ct + SM2_C1, len);
		pl = sizeof(pt);
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
					cc_asym_decrypt(s, dop, NULL, 0, swapped, cl, pt, &pl));
	}
	/* The host's ciphertext, laid out as C1 || C2 || C3, decrypts in the TEE */
	dl = sizeof(der);
	cl = sizeof(ct);
	pl = sizeof(pt);
	if (ADBG_EXPECT_TRUE(c, ct_host_encrypt(k->host, NULL, NULL, msg, len, der, &dl)) &&
	    ADBG_EXPECT_TRUE(c, sm2_from_der(der, dl, ct, &cl)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_decrypt(s, dop, NULL, 0, ct, cl, pt, &pl)))
		ADBG_EXPECT_BUFFER(c, msg, len, pt, pl);
}

static void xtest_tee_test_4214(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct ec_key k;
	uint32_t eop = 0;
	uint32_t dop = 0;

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "SM2 PKE: C1 || C2 || C3, both ways with the host");
	if (ec_key_make(c, &s, TEE_TYPE_SM2_PKE_KEYPAIR, TEE_TYPE_SM2_PKE_PUBLIC_KEY,
			TEE_ECC_CURVE_SM2, 256, "SM2", "SM2", &k)) {
		eop = ct_op(c, &s, TEE_ALG_SM2_PKE, TEE_MODE_ENCRYPT, 256, k.pub);
		dop = ct_op(c, &s, TEE_ALG_SM2_PKE, TEE_MODE_DECRYPT, 256, k.pair);
		if (eop && dop) {
			sm2_pke_both_ways(c, &s, &k, eop, dop, 1);
			sm2_pke_both_ways(c, &s, &k, eop, dop, 19);
			sm2_pke_both_ways(c, &s, &k, eop, dop, 32);
			sm2_pke_both_ways(c, &s, &k, eop, dop, 150);
		}
	}
	cc_free_op(&s, eop);
	cc_free_op(&s, dop);
	ec_key_free(&s, &k);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4214, xtest_tee_test_4214,
		 "SM2 PKE ciphertexts laid out as OP-TEE's: C1 || C2 || C3");

/* ---- 4215, 4216: TEE_DeriveKey and the derived object's maxObjectSize ---- */

/*
 * Derives with op into a new generic secret of max_bits: the secret into
 * out, and checks the object's sizes (the secret's, and max_bits kept).
 */
static TEEC_Result derive_into(ADBG_Case_t *c, TEEC_Session *s, uint32_t op, struct cc_attr *params,
			       size_t n, uint32_t max_bits, uint8_t *out, size_t *out_len)
{
	struct ta_crypt_object_info info = {0};
	TEEC_Result res = ct_derive(s, op, params, n, max_bits, out, out_len, &info);

	if (!res) {
		ADBG_EXPECT(c, *out_len * 8, info.object_size);
		ADBG_EXPECT(c, max_bits, info.max_object_size);
	}
	return res;
}

/* One side of a key agreement: a generated pair and its public parts. */
struct agree_side {
	uint32_t key;
	uint8_t x[512], y[66];
	size_t xl, yl;
};

static bool agree_side_make(ADBG_Case_t *c, TEEC_Session *s, uint32_t type, uint32_t bits,
			    const struct cc_attr *params, size_t n, uint32_t x_id, uint32_t y_id,
			    struct agree_side *a)
{
	a->xl = sizeof(a->x);
	a->yl = sizeof(a->y);
	a->key = ct_genkey(c, s, type, bits, params, n);
	return a->key && ct_attr(c, s, a->key, x_id, a->x, &a->xl) &&
	       (!y_id || ct_attr(c, s, a->key, y_id, a->y, &a->yl));
}

/*
 * Both sides of alg agree; A's secret goes into an object of small_bits,
 * B's into one of 4096 bits, and they are the same, of want bytes.
 */
static void agree_small(ADBG_Case_t *c, TEEC_Session *s, uint32_t alg, uint32_t type, uint32_t bits,
			const struct cc_attr *params, size_t n, uint32_t x_id, uint32_t y_id,
			uint32_t small_bits, size_t want)
{
	struct agree_side a = {0};
	struct agree_side b = {0};
	uint8_t za[512];
	uint8_t zb[512];
	size_t zal = sizeof(za);
	size_t zbl = sizeof(zb);
	uint32_t opa = 0;
	uint32_t opb = 0;

	Do_ADBG_Log("    0x%08x into %u bits", alg, small_bits);
	if (!agree_side_make(c, s, type, bits, params, n, x_id, y_id, &a) ||
	    !agree_side_make(c, s, type, bits, params, n, x_id, y_id, &b))
		goto out;
	opa = ct_op(c, s, alg, TEE_MODE_DERIVE, bits, a.key);
	opb = ct_op(c, s, alg, TEE_MODE_DERIVE, bits, b.key);
	if (!opa || !opb)
		goto out;
	{
		struct cc_attr pa[] = {CC_REF(x_id, b.x, b.xl), CC_REF(y_id, b.y, b.yl)};
		struct cc_attr pb[] = {CC_REF(x_id, a.x, a.xl), CC_REF(y_id, a.y, a.yl)};
		size_t np = y_id ? 2 : 1;

		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, derive_into(c, s, opa, pa, np, small_bits, za, &zal)) &&
		    ADBG_EXPECT_TEEC_SUCCESS(c, derive_into(c, s, opb, pb, np, 4096, zb, &zbl))) {
			ADBG_EXPECT_BUFFER(c, zb, zbl, za, zal);
			ADBG_EXPECT_TRUE(c, zal <= want && zal + 8 > want);
		}
	}
out:
	cc_free_op(s, opa);
	cc_free_op(s, opb);
	cc_free_obj(s, a.key);
	cc_free_obj(s, b.key);
}

/* HKDF-SHA256 of okm bytes into max_bits; the same bytes as into 4096 bits. */
static TEEC_Result hkdf_into(ADBG_Case_t *c, TEEC_Session *s, uint32_t okm, uint32_t max_bits,
			     uint8_t *out, size_t *out_len)
{
	static const uint8_t ikm[22] = {0x0b, 0x0b, 0x0b};
	struct cc_attr k = CC_REF(TEE_ATTR_HKDF_IKM, ikm, sizeof(ikm));
	struct cc_attr p = CC_VALUE(TEE_ATTR_HKDF_OKM_LENGTH, okm, 0);
	uint32_t key = ct_key(c, s, TEE_TYPE_HKDF_IKM, sizeof(ikm) * 8, &k, 1);
	uint32_t op =
	    key ? ct_op(c, s, TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_MODE_DERIVE, sizeof(ikm) * 8, key)
		: 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	if (op)
		res = derive_into(c, s, op, &p, 1, max_bits, out, out_len);
	if (res != TEEC_ERROR_TARGET_DEAD) {
		cc_free_op(s, op);
		cc_free_obj(s, key);
	}
	return res;
}

static void xtest_tee_test_4215(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct ct_ffc f;
	uint8_t small[600];
	uint8_t big[600];
	size_t sl = sizeof(small);
	size_t bl = sizeof(big);

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "Shared secrets into objects smaller than the secret");
	/* OP-TEE's 4015 derives X25519's 32 bytes into a 32-bit object */
	agree_small(c, &s, TEE_ALG_X25519, TEE_TYPE_X25519_KEYPAIR, 256, NULL, 0,
		    TEE_ATTR_X25519_PUBLIC_VALUE, 0, 32, 32);
	{
		struct cc_attr curve = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0);

		agree_small(c, &s, TEE_ALG_ECDH_DERIVE_SHARED_SECRET, TEE_TYPE_ECDH_KEYPAIR, 256,
			    &curve, 1, TEE_ATTR_ECC_PUBLIC_VALUE_X, TEE_ATTR_ECC_PUBLIC_VALUE_Y, 8,
			    32);
	}
	if (ADBG_EXPECT_TRUE(c, ct_host_group("ffdhe2048", &f))) {
		struct cc_attr dom[] = {
		    CC_REF(TEE_ATTR_DH_PRIME, f.p, f.p_len),
		    CC_REF(TEE_ATTR_DH_BASE, f.g, f.g_len),
		};

		agree_small(c, &s, TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_TYPE_DH_KEYPAIR, 2048, dom,
			    2, TEE_ATTR_DH_PUBLIC_VALUE, 0, 1024, 256);
	}
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "KDF output longer than the object, up to 4096 bits");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, hkdf_into(c, &s, 64, 128, small, &sl)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, hkdf_into(c, &s, 64, 4096, big, &bl)))
		ADBG_EXPECT_BUFFER(c, big, bl, small, sl);
	sl = sizeof(small);
	ADBG_EXPECT_TEEC_SUCCESS(c, hkdf_into(c, &s, 512, 8, small, &sl));
	ADBG_EXPECT(c, 512, sl);
	/* Past what any generic secret holds: a panic, as in OP-TEE */
	sl = sizeof(small);
	ct_expect_panic(c, &s, hkdf_into(c, &s, 513, 4096, small, &sl));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4215, xtest_tee_test_4215,
		 "TEE_DeriveKey ignores the derived object's maxObjectSize, as OP-TEE");

/* An SM2 KEP party: its static and ephemeral pairs, and their public points. */
struct kep_party {
	struct agree_side own, eph;
};

static bool kep_party_make(ADBG_Case_t *c, TEEC_Session *s, struct kep_party *p)
{
	return agree_side_make(c, s, TEE_TYPE_SM2_KEP_KEYPAIR, 256, NULL, 0,
			       TEE_ATTR_ECC_PUBLIC_VALUE_X, TEE_ATTR_ECC_PUBLIC_VALUE_Y, &p->own) &&
	       agree_side_make(c, s, TEE_TYPE_SM2_KEP_KEYPAIR, 256, NULL, 0,
			       TEE_ATTR_ECC_PUBLIC_VALUE_X, TEE_ATTR_ECC_PUBLIC_VALUE_Y, &p->eph);
}

/* me's side of the exchange with peer, into an object of max_bits. */
static TEEC_Result kep_derive(ADBG_Case_t *c, TEEC_Session *s, const struct kep_party *me,
			      const struct kep_party *peer, bool initiator, uint32_t max_bits,
			      uint8_t *out, size_t *out_len)
{
	static const uint8_t ida[] = "ALICE123@YAHOO.COM";
	static const uint8_t idb[] = "BILL456@YAHOO.COM";
	struct cc_attr p[] = {
	    CC_VALUE(TEE_ATTR_SM2_KEP_USER, initiator ? 0 : 1, 0),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, peer->own.x, peer->own.xl),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, peer->own.y, peer->own.yl),
	    CC_REF(TEE_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_X, peer->eph.x, peer->eph.xl),
	    CC_REF(TEE_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_Y, peer->eph.y, peer->eph.yl),
	    CC_REF(TEE_ATTR_SM2_ID_INITIATOR, ida, sizeof(ida) - 1),
	    CC_REF(TEE_ATTR_SM2_ID_RESPONDER, idb, sizeof(idb) - 1),
	};
	uint32_t op = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c,
				      cc_alloc_op(s, TEE_ALG_SM2_KEP, TEE_MODE_DERIVE, 512, &op)))
		return res;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key2(s, op, me->own.key, me->eph.key)))
		res = derive_into(c, s, op, p, sizeof(p) / sizeof(p[0]), max_bits, out, out_len);
	if (res != TEEC_ERROR_TARGET_DEAD)
		cc_free_op(s, op);
	return res;
}

static void xtest_tee_test_4216(ADBG_Case_t *c)
{
	static const uint32_t sizes[] = {16, 8, 40, 128, 512};
	TEEC_Session s = {0};
	struct kep_party a = {0};
	struct kep_party b = {0};
	uint8_t ka[600];
	uint8_t kb[600];

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "SM2 KEP: maxObjectSize N gives an N-byte key");
	if (!kep_party_make(c, &s, &a) || !kep_party_make(c, &s, &b))
		goto out;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t kal = sizeof(ka);
		size_t kbl = sizeof(kb);

		Do_ADBG_Log("    maxObjectSize %u", sizes[i]);
		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     kep_derive(c, &s, &a, &b, true, sizes[i], ka, &kal)) &&
		    ADBG_EXPECT_TEEC_SUCCESS(
			c, kep_derive(c, &s, &b, &a, false, sizes[i], kb, &kbl))) {
			ADBG_EXPECT(c, sizes[i], kal);
			ADBG_EXPECT_BUFFER(c, ka, kal, kb, kbl);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "SM2 KEP: more than a generic secret holds panics");
	{
		size_t kal = sizeof(ka);

		ct_expect_panic(c, &s, kep_derive(c, &s, &a, &b, true, 520, ka, &kal));
	}
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	Do_ADBG_EndSubCase(c, NULL);
out:
	cc_free_obj(&s, a.own.key);
	cc_free_obj(&s, a.eph.key);
	cc_free_obj(&s, b.own.key);
	cc_free_obj(&s, b.eph.key);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4216, xtest_tee_test_4216,
		 "SM2 KEP key length: maxObjectSize taken as bytes, as OP-TEE");

/* ---- 4217: DH, 4218: DSA key generation ---- */

/* A DH pair in group name (q given or not) with X_BITS x_bits, or without it (x_bits < 0). */
static void dh_xbits(ADBG_Case_t *c, TEEC_Session *s, const char *name, uint32_t bits, bool with_q,
		     int x_bits)
{
	struct ct_ffc f;
	struct cc_attr p[4];
	size_t n = 0;
	uint32_t key = 0;
	uint32_t a = 1;
	uint32_t b = 1;

	Do_ADBG_Log("    DH in %s%s, X_BITS %d", name, with_q ? " with q" : "", x_bits);
	if (!ADBG_EXPECT_TRUE(c, ct_host_group(name, &f)))
		return;
	p[n++] = CC_REF(TEE_ATTR_DH_PRIME, f.p, f.p_len);
	p[n++] = CC_REF(TEE_ATTR_DH_BASE, f.g, f.g_len);
	if (with_q)
		p[n++] = CC_REF(TEE_ATTR_DH_SUBPRIME, f.q, f.q_len);
	if (x_bits >= 0)
		p[n++] = CC_VALUE(TEE_ATTR_DH_X_BITS, (uint32_t)x_bits, 0);
	key = ct_genkey(c, s, TEE_TYPE_DH_KEYPAIR, bits, p, n);
	if (!key)
		return;
	if (!with_q)
		f.q_len = 0;
	ct_ffc_check(c, s, key, &f, TEE_ATTR_DH_PRIVATE_VALUE, TEE_ATTR_DH_PUBLIC_VALUE,
		     x_bits > 0 ? x_bits : 0);
	/* Kept as given, 0 when absent, as OP-TEE */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_get_val_attr(s, key, TEE_ATTR_DH_X_BITS, &a, &b)))
		ADBG_EXPECT(c, x_bits > 0 ? (uint32_t)x_bits : 0, a);
	cc_free_obj(s, key);
}

static void xtest_tee_test_4217(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "DH: TEE_ATTR_DH_X_BITS 0 chooses the private value's size");
	dh_xbits(c, &s, "ffdhe2048", 2048, false, 0);
	dh_xbits(c, &s, "dh_2048_256", 2048, true, 0);
	dh_xbits(c, &s, "dh_1024_160", 1024, true, 0);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "DH: TEE_ATTR_DH_X_BITS given or absent, kept in the key");
	dh_xbits(c, &s, "ffdhe2048", 2048, false, 256);
	dh_xbits(c, &s, "ffdhe2048", 2048, false, -1);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4217, xtest_tee_test_4217,
		 "DH key generation with TEE_ATTR_DH_X_BITS 0, as OP-TEE");

/* A DSA domain of bits bits with a 160-bit q, made by the host (FIPS 186-2's generator). */
static bool dsa_domain(uint32_t bits, struct ct_ffc *f)
{
	OSSL_PARAM type[] = {
	    OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_FFC_TYPE, (char *)"fips186_2", 0),
	    OSSL_PARAM_END,
	};
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "DSA", NULL);
	EVP_PKEY *dom = NULL;
	bool ok = ctx && EVP_PKEY_paramgen_init(ctx) == 1 &&
		  EVP_PKEY_CTX_set_params(ctx, type) == 1 &&
		  EVP_PKEY_CTX_set_dsa_paramgen_bits(ctx, (int)bits) == 1 &&
		  EVP_PKEY_CTX_set_dsa_paramgen_q_bits(ctx, 160) == 1 &&
		  EVP_PKEY_paramgen(ctx, &dom) == 1;

	memset(f, 0, sizeof(*f));
	if (ok) {
		f->p_len = ct_host_bn(dom, OSSL_PKEY_PARAM_FFC_P, f->p, sizeof(f->p));
		f->q_len = ct_host_bn(dom, OSSL_PKEY_PARAM_FFC_Q, f->q, sizeof(f->q));
		f->g_len = ct_host_bn(dom, OSSL_PKEY_PARAM_FFC_G, f->g, sizeof(f->g));
		ok = f->p_len && f->q_len && f->g_len;
	}
	EVP_PKEY_free(dom);
	EVP_PKEY_CTX_free(ctx);
	return ok;
}

/* A DSA key of bits generated in the TEE: checked, and signing with DSA-SHA1 both ways. */
static void dsa_size(ADBG_Case_t *c, TEEC_Session *s, uint32_t bits)
{
	struct ct_ffc f;
	struct ct_dsa k = {0};
	uint8_t dg[20];
	uint8_t sig[40];
	uint32_t sop = 0;
	uint32_t vop = 0;

	Do_ADBG_Log("    DSA, %u bits", bits);
	fill(dg, sizeof(dg));
	if (!ADBG_EXPECT_TRUE(c, dsa_domain(bits, &f)) || !ct_dsa_key(c, s, &f, bits, &k))
		goto out;
	ct_ffc_check(c, s, k.pair, &f, TEE_ATTR_DSA_PRIVATE_VALUE, TEE_ATTR_DSA_PUBLIC_VALUE, 0);
	sop = ct_op(c, s, TEE_ALG_DSA_SHA1, TEE_MODE_SIGN, bits, k.pair);
	vop = ct_op(c, s, TEE_ALG_DSA_SHA1, TEE_MODE_VERIFY, bits, k.pub);
	if (sop && vop && tee_sign(c, s, sop, dg, 20, sig, 20)) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, NULL, 0, dg, 20, sig, 40));
		ADBG_EXPECT_TRUE(c, host_verify(k.host, dg, 20, sig, 20));
	}
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
	ct_dsa_free(s, &k);
}

static void xtest_tee_test_4218(ADBG_Case_t *c)
{
	static const uint32_t sizes[] = {512, 576, 768, 960};
	TEEC_Session s = {0};
	uint32_t obj = 0;

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "DSA keys of 512 to 1024 bits in steps of 64");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		dsa_size(c, &s, sizes[i]);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "DSA: sizes between the steps, or below 512, are refused");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_obj(&s, TEE_TYPE_DSA_KEYPAIR, 520, &obj));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_obj(&s, TEE_TYPE_DSA_KEYPAIR, 448, &obj));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4218, xtest_tee_test_4218,
		 "DSA key generation from 512 bits in steps of 64, as OP-TEE");

/* ---- 4219: the key size is the prime's length in bytes ---- */

/*
 * Generates a bits-bit key of type in domain f (ids: prime, base[, subprime])
 * and checks it; then, unless 0, a key of refused bits must be refused.
 */
static void ffc_short_top(ADBG_Case_t *c, TEEC_Session *s, uint32_t type, const uint32_t ids[3],
			  const struct ct_ffc *f, uint32_t bits, uint32_t refused)
{
	struct cc_attr p[3];
	uint32_t x_id =
	    type == TEE_TYPE_DH_KEYPAIR ? TEE_ATTR_DH_PRIVATE_VALUE : TEE_ATTR_DSA_PRIVATE_VALUE;
	uint32_t y_id =
	    type == TEE_TYPE_DH_KEYPAIR ? TEE_ATTR_DH_PUBLIC_VALUE : TEE_ATTR_DSA_PUBLIC_VALUE;
	size_t n = 0;
	uint32_t key = 0;

	p[n++] = CC_REF(ids[0], f->p, f->p_len);
	p[n++] = CC_REF(ids[1], f->g, f->g_len);
	if (f->q_len)
		p[n++] = CC_REF(ids[2], f->q, f->q_len);
	key = ct_genkey(c, s, type, bits, p, n);
	if (key)
		ct_ffc_check(c, s, key, f, x_id, y_id, 0);
	cc_free_obj(s, key);
	if (refused && ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, type, bits, &key))) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					cc_generate_key(s, key, refused, p, n));
		cc_free_obj(s, key);
	}
}

static void xtest_tee_test_4219(ADBG_Case_t *c)
{
	static const uint32_t dh_ids[3] = {TEE_ATTR_DH_PRIME, TEE_ATTR_DH_BASE,
					   TEE_ATTR_DH_SUBPRIME};
	static const uint32_t dsa_ids[3] = {TEE_ATTR_DSA_PRIME, TEE_ATTR_DSA_BASE,
					    TEE_ATTR_DSA_SUBPRIME};
	TEEC_Session s = {0};
	struct ct_ffc f;

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "DH: a 256-byte prime whose top byte is 0x03 makes a 2048-bit key");
	/* As xtest --asym-perf: an odd number of 256 bytes, top byte small, base 2 */
	memset(&f, 0, sizeof(f));
	fill(f.p, 256);
	f.p[0] = 0x03;
	f.p[255] |= 1;
	f.p_len = 256;
	f.g[0] = 2;
	f.g_len = 1;
	/* Its bit length (2042) is no key size of it, nor is a byte less (2040). */
	ffc_short_top(c, &s, TEE_TYPE_DH_KEYPAIR, dh_ids, &f, 2048, 2042);
	ffc_short_top(c, &s, TEE_TYPE_DH_KEYPAIR, dh_ids, &f, 2048, 2040);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c,
			     "DSA: a 128-byte prime whose top byte is 0x7f makes a 1024-bit key");
	if (ADBG_EXPECT_TRUE(c, ct_host_group("dh_1024_160", &f))) {
		f.p[0] = 0x7f;
		f.g[0] = 4;
		f.g_len = 1;
		ffc_short_top(c, &s, TEE_TYPE_DSA_KEYPAIR, dsa_ids, &f, 1024, 0);
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4219, xtest_tee_test_4219,
		 "DH and DSA key sizes count the prime's bytes, as OP-TEE");
