/*
 * regression 4006_dsa, 4006_ecdsa, 4006_sm2 and 4016: DSA, ECDSA, SM2 and
 * Ed25519 through the crypt TA.
 *
 * Known answers: RFC 6979 A.2.5 (ECDSA P-256 with SHA-256), GM/T 0003.5
 * (GB/T 32918.5) annex examples of SM2 signature and encryption on the
 * recommended curve, RFC 8032 7.1-7.3 (Ed25519, Ed25519ctx, Ed25519ph).
 * Beyond those, signatures go both ways against the host's OpenSSL, with
 * keys it made (ECDSA) or in the groups it names (DSA: RFC 5114's).
 */
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>

#include "crypt_test.h"

static const char msg[] = "sample";

/* ---- DSA ---- */

static bool dsa_sign_setup(EVP_PKEY_CTX *ctx, const void *arg)
{
	(void)ctx;
	(void)arg;
	return true;
}

/* TEE signature verified by the host and the host's by the TEE, with r || s of n bytes each. */
static void dsa_like_both_ways(ADBG_Case_t *c, TEEC_Session *s, EVP_PKEY *host, uint32_t alg,
			       uint32_t bits, uint32_t pair, uint32_t pub, const uint8_t *dg,
			       size_t dlen, size_t n)
{
	uint32_t sop = ct_op(c, s, alg, TEE_MODE_SIGN, bits, pair);
	uint32_t vop = ct_op(c, s, alg, TEE_MODE_VERIFY, bits, pub);
	uint8_t sig[2 * 66];
	uint8_t der[2 * 66 + 16];
	size_t sl = sizeof(sig);
	size_t dl = sizeof(der);

	if (!sop || !vop)
		goto out;
	/* Too small a buffer: the size needed */
	sl = 2 * n - 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				cc_asym_sign(s, sop, NULL, 0, dg, dlen, sig, &sl));
	ADBG_EXPECT(c, 2 * n, sl);
	sl = sizeof(sig);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, sop, NULL, 0, dg, dlen, sig, &sl)) ||
	    !ADBG_EXPECT(c, 2 * n, sl))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, NULL, 0, dg, dlen, sig, sl));
	if (ADBG_EXPECT_TRUE(c, ct_rs_to_der(sig, n, der, &dl)))
		ADBG_EXPECT_TRUE(c, ct_host_verify(host, dsa_sign_setup, NULL, dg, dlen, der, dl));
	dl = sizeof(der);
	if (ADBG_EXPECT_TRUE(c, ct_host_sign(host, dsa_sign_setup, NULL, dg, dlen, der, &dl)) &&
	    ADBG_EXPECT_TRUE(c, ct_der_to_rs(der, dl, n, sig)))
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, NULL, 0, dg, dlen, sig, 2 * n));
	/* r or s changed; s = 0; one byte short */
	sig[1] ^= 0x04;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, NULL, 0, dg, dlen, sig, 2 * n));
	sig[1] ^= 0x04;
	sig[2 * n - 1] ^= 0x04;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, NULL, 0, dg, dlen, sig, 2 * n));
	memset(sig + n, 0, n);
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, NULL, 0, dg, dlen, sig, 2 * n));
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, NULL, 0, dg, dlen, sig, 2 * n - 1));
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
}

static void dsa_group(ADBG_Case_t *c, TEEC_Session *s, const char *group, uint32_t alg,
		      uint32_t hash, uint32_t bits)
{
	struct ct_ffc f;
	struct ct_dsa k = {0};
	uint8_t dg[64];
	size_t dlen = sizeof(dg);
	uint32_t pair = 0;

	Do_ADBG_Log("    DSA in %s, hash 0x%08x", group, hash);
	if (!ADBG_EXPECT_TRUE(c, ct_host_group(group, &f)))
		return;
	{
		struct cc_attr dom[] = {
		    CC_REF(TEE_ATTR_DSA_PRIME, f.p, f.p_len),
		    CC_REF(TEE_ATTR_DSA_SUBPRIME, f.q, f.q_len),
		    CC_REF(TEE_ATTR_DSA_BASE, f.g, f.g_len),
		};

		/* A size other than the prime's is refused */
		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     cc_alloc_obj(s, TEE_TYPE_DSA_KEYPAIR, 3072, &pair))) {
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_BAD_PARAMETERS,
			    cc_generate_key(s, pair, bits == 3072 ? 2048 : 3072, dom, 3));
			cc_free_obj(s, pair);
		}
	}
	if (!ct_dsa_key(c, s, &f, bits, &k) || !ct_digest(c, s, hash, msg, strlen(msg), dg, &dlen))
		goto out;
	dsa_like_both_ways(c, s, k.host, alg, bits, k.pair, k.pub, dg, dlen, f.q_len);
out:
	ct_dsa_free(s, &k);
}

static void xtest_tee_test_4006_dsa(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "DSA: generated keys in RFC 5114 groups, both ways with the host");
	dsa_group(c, &s, "dh_1024_160", TEE_ALG_DSA_SHA1, TEE_ALG_SHA1, 1024);
	dsa_group(c, &s, "dh_2048_224", TEE_ALG_DSA_SHA224, TEE_ALG_SHA224, 2048);
	dsa_group(c, &s, "dh_2048_256", TEE_ALG_DSA_SHA256, TEE_ALG_SHA256, 2048);
	dsa_group(c, &s, "dh_2048_256", TEE_ALG_DSA_SHA3_256, TEE_ALG_SHA3_256, 2048);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4006_dsa, xtest_tee_test_4006_dsa,
		 "Test TEE Internal API asymmetric operations: DSA");

/* ---- ECDSA ---- */

static const struct {
	uint32_t curve;
	uint32_t bits;
	const char *name;
} curves[] = {
    {TEE_ECC_CURVE_NIST_P192, 192, "prime192v1"}, {TEE_ECC_CURVE_NIST_P224, 224, "secp224r1"},
    {TEE_ECC_CURVE_NIST_P256, 256, "prime256v1"}, {TEE_ECC_CURVE_NIST_P384, 384, "secp384r1"},
    {TEE_ECC_CURVE_NIST_P521, 521, "secp521r1"},
};

static const struct {
	uint32_t alg, hash;
} ecdsa_algs[] = {
    {TEE_ALG_ECDSA_SHA1, TEE_ALG_SHA1},	    {TEE_ALG_ECDSA_SHA224, TEE_ALG_SHA224},
    {TEE_ALG_ECDSA_SHA256, TEE_ALG_SHA256}, {TEE_ALG_ECDSA_SHA384, TEE_ALG_SHA384},
    {TEE_ALG_ECDSA_SHA512, TEE_ALG_SHA512}, {TEE_ALG_ECDSA_SHA3_256, TEE_ALG_SHA3_256},
};

/* An EC key of the host as GP attributes: curve, X, Y, private value. */
struct ec_key {
	EVP_PKEY *host;
	uint8_t xy[2 * 66];
	uint8_t d[66];
	size_t len; /* of x, y, d */
	struct cc_attr attrs[4];
};

static bool ec_key_make(ADBG_Case_t *c, struct ec_key *k, uint32_t curve, const char *name,
			uint32_t bits)
{
	uint8_t pt[1 + 2 * 66];
	size_t pl = 0;
	BIGNUM *d = NULL;

	memset(k, 0, sizeof(*k));
	k->len = (bits + 7) / 8;
	k->host = EVP_EC_gen(name);
	if (!ADBG_EXPECT_NOT_NULL(c, k->host) ||
	    !ADBG_EXPECT_TRUE(c, EVP_PKEY_get_octet_string_param(k->host, OSSL_PKEY_PARAM_PUB_KEY,
								 pt, sizeof(pt), &pl) == 1 &&
				     pl == 1 + 2 * k->len) ||
	    !ADBG_EXPECT_TRUE(c, EVP_PKEY_get_bn_param(k->host, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1))
		return false;
	BN_bn2binpad(d, k->d, (int)k->len);
	BN_clear_free(d);
	memcpy(k->xy, pt + 1, 2 * k->len);
	k->attrs[0] = CC_VALUE(TEE_ATTR_ECC_CURVE, curve, 0);
	k->attrs[1] = CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, k->xy, k->len);
	k->attrs[2] = CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, k->xy + k->len, k->len);
	k->attrs[3] = CC_REF(TEE_ATTR_ECC_PRIVATE_VALUE, k->d, k->len);
	return true;
}

/* RFC 6979 A.2.5: P-256, SHA-256, message "sample" */
static const char rfc6979_ux[] = "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6";
static const char rfc6979_uy[] = "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299";
static const char rfc6979_rs[] = "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"
				 "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8";

static void ecdsa_kat(ADBG_Case_t *c, TEEC_Session *s)
{
	uint8_t x[32], y[32], rs[64], dg[32];
	size_t dlen = sizeof(dg);
	struct cc_attr pa[] = {
	    CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, x, ct_unhex(rfc6979_ux, x, sizeof(x))),
	    CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, y, ct_unhex(rfc6979_uy, y, sizeof(y))),
	};
	uint32_t pub = ct_key(c, s, TEE_TYPE_ECDSA_PUBLIC_KEY, 256, pa, 3);
	uint32_t op = ct_op(c, s, TEE_ALG_ECDSA_SHA256, TEE_MODE_VERIFY, 256, pub);

	ct_unhex(rfc6979_rs, rs, sizeof(rs));
	if (op && ct_digest(c, s, TEE_ALG_SHA256, msg, strlen(msg), dg, &dlen)) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, op, NULL, 0, dg, dlen, rs, 64));
		rs[63] ^= 1;
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
					cc_asym_verify(s, op, NULL, 0, dg, dlen, rs, 64));
	}
	cc_free_op(s, op);
	cc_free_obj(s, pub);
}

static void ecdsa_curve(ADBG_Case_t *c, TEEC_Session *s, size_t ci)
{
	struct ec_key k;
	uint32_t pair = 0;
	uint32_t pub = 0;

	if (!ec_key_make(c, &k, curves[ci].curve, curves[ci].name, curves[ci].bits))
		goto out;
	pair = ct_key(c, s, TEE_TYPE_ECDSA_KEYPAIR, curves[ci].bits, k.attrs, 4);
	pub = ct_key(c, s, TEE_TYPE_ECDSA_PUBLIC_KEY, curves[ci].bits, k.attrs, 3);
	if (!pair || !pub)
		goto out;
	for (size_t i = 0; i < sizeof(ecdsa_algs) / sizeof(ecdsa_algs[0]); i++) {
		uint8_t dg[64];
		size_t dlen = sizeof(dg);

		Do_ADBG_Log("    ECDSA on curve 0x%x with 0x%08x", curves[ci].curve,
			    ecdsa_algs[i].hash);
		if (ct_digest(c, s, ecdsa_algs[i].hash, msg, strlen(msg), dg, &dlen))
			dsa_like_both_ways(c, s, k.host, ecdsa_algs[i].alg, curves[ci].bits, pair,
					   pub, dg, dlen, k.len);
	}
	/* OP-TEE's own ID for the curve: any digest length */
	if (curves[ci].curve == TEE_ECC_CURVE_NIST_P256) {
		static const uint8_t dg[48] = {1, 2, 3, 4};

		dsa_like_both_ways(c, s, k.host, __OPTEE_ALG_ECDSA_P256, 256, pair, pub, dg, 20,
				   k.len);
		dsa_like_both_ways(c, s, k.host, __OPTEE_ALG_ECDSA_P256, 256, pair, pub, dg, 48,
				   k.len);
	}
out:
	EVP_PKEY_free(k.host);
	cc_free_obj(s, pair);
	cc_free_obj(s, pub);
}

static void ecdsa_misuse(ADBG_Case_t *c, TEEC_Session *s)
{
	struct ec_key k;
	uint8_t dg[32] = {0};
	uint8_t sig[64];
	size_t n = sizeof(sig);
	uint32_t key = 0;
	uint32_t op = 0;
	uint32_t obj = 0;

	if (!ec_key_make(c, &k, TEE_ECC_CURVE_NIST_P256, "prime256v1", 256))
		return;
	/* An ECDSA key on SM2's curve is no ECDSA key */
	k.attrs[0] = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_SM2, 0);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_ECDSA_KEYPAIR, 256, &obj))) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					cc_populate(s, obj, k.attrs, 4));
		cc_free_obj(s, obj);
	}
	k.attrs[0] = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0);
	/* A digest of another size than the hash's signs, as in OP-TEE (4212) */
	key = ct_key(c, s, TEE_TYPE_ECDSA_KEYPAIR, 256, k.attrs, 4);
	op = ct_op(c, s, TEE_ALG_ECDSA_SHA256, TEE_MODE_SIGN, 256, key);
	if (op)
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, op, NULL, 0, dg, 20, sig, &n));
	cc_free_op(s, op);
	cc_free_obj(s, key);
	n = sizeof(sig);
	/* OP-TEE's P-384 ID with a P-256 key */
	key = ct_key(c, s, TEE_TYPE_ECDSA_KEYPAIR, 256, k.attrs, 4);
	op = ct_op(c, s, __OPTEE_ALG_ECDSA_P384, TEE_MODE_SIGN, 384, 0);
	if (op && key)
		ct_expect_panic(c, s, cc_set_key(s, op, key));
	/* An ECDH key for ECDSA */
	key = ct_key(c, s, TEE_TYPE_ECDH_KEYPAIR, 256, k.attrs, 4);
	op = ct_op(c, s, TEE_ALG_ECDSA_SHA256, TEE_MODE_SIGN, 256, 0);
	if (op && key)
		ct_expect_panic(c, s, cc_set_key(s, op, key));
	/* A point off the curve: the key populates (GP checks no more), its use panics */
	k.xy[5] ^= 1;
	key = ct_key(c, s, TEE_TYPE_ECDSA_PUBLIC_KEY, 256, k.attrs, 3);
	op = ct_op(c, s, TEE_ALG_ECDSA_SHA256, TEE_MODE_VERIFY, 256, key);
	if (op)
		ct_expect_panic(c, s, cc_asym_verify(s, op, NULL, 0, dg, 32, sig, 64));
	EVP_PKEY_free(k.host);
}

static void xtest_tee_test_4006_ecdsa(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "ECDSA: RFC 6979 P-256 known answer");
	ecdsa_kat(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	for (size_t ci = 0; ci < sizeof(curves) / sizeof(curves[0]); ci++) {
		Do_ADBG_BeginSubCase(c, "ECDSA on %s, every hash, both ways with the host",
				     curves[ci].name);
		ecdsa_curve(c, &s, ci);
		Do_ADBG_EndSubCase(c, NULL);
	}
	Do_ADBG_BeginSubCase(c, "ECDSA misuse");
	ecdsa_misuse(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4006_ecdsa, xtest_tee_test_4006_ecdsa,
		 "Test TEE Internal API asymmetric operations: ECDSA");

/* ---- SM2 ---- */

/* The recommended curve (GM/T 0003.5) */
static const char sm2_a[] = "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFC";
static const char sm2_b[] = "28E9FA9E9D9F5E344D5A9E4BCF6509A7F39789F515AB8F92DDBCBD414D940E93";
static const char sm2_gx[] = "32C4AE2C1F1981195F9904466A39C9948FE30BBFF2660BE1715A4589334C74C7";
static const char sm2_gy[] = "BC3736A2F4F6779C59BDCEE36B692153D0A9877CC62A474002DF32E52139F0A0";
/* GM/T 0003.5 annex: the signature example (also the encryption one's key) */
static const char sm2_d[] = "3945208F7B2144B13F36E38AC6D39F95889393692860B51A42FB81EF4DF7C5B8";
static const char sm2_x[] = "09F9DF311E5421A150DD7D161E4BC5C672179FAD1833FC076BB08FF356F35020";
static const char sm2_y[] = "CCEA490CE26775A52DC6EA718CC1AA600AED05FBF35E084A6632F6072DA9AD13";
static const char sm2_id[] = "1234567812345678";
static const char sm2_msg[] = "message digest";
static const char sm2_rs[] = "F5A03B0648D2C4630EEAC513E1BB81A15944DA3827D5B74143AC7EACEEE720B3"
			     "B1B6AA29DF212FD8763182BC0D421CA1BB9038FD1F7F42D4840B69C485BBC1AA";
/* The encryption example: "encryption standard", C1 || C2 || C3 (OP-TEE's order) */
static const char sm2_pke_msg[] = "encryption standard";
static const char sm2_pke_ct[] = "04"
				 "04EBFC718E8D1798620432268E77FEB6415E2EDE0E073C0F4F640ECD2E149A73"
				 "E858F9D81E5430A57B36DAAB8F950A3C64E6EE6A63094D99283AFF767E124DF0"
				 "21886CA989CA9C7D58087307CA93092D651EFA"
				 "59983C18F809E262923C53AEC295D30383B54E39D609D160AFCB1908D0BD8766";

struct sm2_key {
	uint8_t d[32], x[32], y[32];
	struct cc_attr attrs[4]; /* X, Y, private, curve */
};

static void sm2_key_init(struct sm2_key *k)
{
	ct_unhex(sm2_d, k->d, 32);
	ct_unhex(sm2_x, k->x, 32);
	ct_unhex(sm2_y, k->y, 32);
	k->attrs[0] = CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, k->x, 32);
	k->attrs[1] = CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_Y, k->y, 32);
	k->attrs[2] = CC_REF(TEE_ATTR_ECC_PRIVATE_VALUE, k->d, 32);
	k->attrs[3] = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_SM2, 0);
}

/* e = SM3(Z_A || M), Z_A = SM3(ENTL || ID || a || b || xG || yG || xA || yA), on the host */
static bool sm2_e(const struct sm2_key *k, const char *m, uint8_t e[32])
{
	uint8_t in[2 + 16 + 6 * 32];
	uint8_t z[32];
	unsigned int n = 0;
	size_t off = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = false;

	in[off++] = 0;
	in[off++] = 16 * 8;
	memcpy(in + off, sm2_id, 16);
	off += 16;
	off += ct_unhex(sm2_a, in + off, 32);
	off += ct_unhex(sm2_b, in + off, 32);
	off += ct_unhex(sm2_gx, in + off, 32);
	off += ct_unhex(sm2_gy, in + off, 32);
	memcpy(in + off, k->x, 32);
	memcpy(in + off + 32, k->y, 32);
	off += 64;
	ok = ctx && EVP_Digest(in, off, z, &n, EVP_sm3(), NULL) && EVP_DigestInit(ctx, EVP_sm3()) &&
	     EVP_DigestUpdate(ctx, z, 32) && EVP_DigestUpdate(ctx, m, strlen(m)) &&
	     EVP_DigestFinal(ctx, e, &n);
	EVP_MD_CTX_free(ctx);
	return ok;
}

static void sm2_dsa(ADBG_Case_t *c, TEEC_Session *s)
{
	struct sm2_key k;
	uint8_t e[32];
	uint8_t rs[64];
	uint8_t sig[64];
	size_t sl = sizeof(sig);
	uint32_t pub = 0;
	uint32_t pair = 0;
	uint32_t vop = 0;
	uint32_t sop = 0;

	sm2_key_init(&k);
	ct_unhex(sm2_rs, rs, sizeof(rs));
	if (!ADBG_EXPECT_TRUE(c, sm2_e(&k, sm2_msg, e)))
		return;
	/* The public key with and without its (implied) curve */
	pub = ct_key(c, s, TEE_TYPE_SM2_DSA_PUBLIC_KEY, 256, k.attrs, 2);
	pair = ct_key(c, s, TEE_TYPE_SM2_DSA_KEYPAIR, 256, k.attrs, 4);
	vop = ct_op(c, s, TEE_ALG_SM2_DSA_SM3, TEE_MODE_VERIFY, 256, pub);
	sop = ct_op(c, s, TEE_ALG_SM2_DSA_SM3, TEE_MODE_SIGN, 256, pair);
	if (!vop || !sop)
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, NULL, 0, e, 32, rs, 64));
	rs[40] ^= 0x10;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, NULL, 0, e, 32, rs, 64));
	/* Signatures are randomised: the TEE verifies its own */
	sl = 63;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				cc_asym_sign(s, sop, NULL, 0, e, 32, sig, &sl));
	ADBG_EXPECT(c, 64, sl);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, sop, NULL, 0, e, 32, sig, &sl)))
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, NULL, 0, e, 32, sig, sl));
	e[0] ^= 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, NULL, 0, e, 32, sig, sl));
out:
	cc_free_op(s, vop);
	cc_free_op(s, sop);
	cc_free_obj(s, pub);
	cc_free_obj(s, pair);
}

static void sm2_pke(ADBG_Case_t *c, TEEC_Session *s)
{
	struct sm2_key k;
	uint8_t ct[256];
	uint8_t pt[256];
	size_t cl = ct_unhex(sm2_pke_ct, ct, sizeof(ct));
	size_t pl = sizeof(pt);
	size_t ml = strlen(sm2_pke_msg);
	uint32_t pair = 0;
	uint32_t pub = 0;
	uint32_t dop = 0;
	uint32_t eop = 0;

	sm2_key_init(&k);
	pair = ct_key(c, s, TEE_TYPE_SM2_PKE_KEYPAIR, 256, k.attrs, 4);
	pub = ct_key(c, s, TEE_TYPE_SM2_PKE_PUBLIC_KEY, 256, k.attrs, 2);
	dop = ct_op(c, s, TEE_ALG_SM2_PKE, TEE_MODE_DECRYPT, 256, pair);
	eop = ct_op(c, s, TEE_ALG_SM2_PKE, TEE_MODE_ENCRYPT, 256, pub);
	if (!dop || !eop)
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_decrypt(s, dop, NULL, 0, ct, cl, pt, &pl)))
		ADBG_EXPECT_BUFFER(c, sm2_pke_msg, ml, pt, pl);
	/* C3 changed, C1 off the curve, C1 not uncompressed: one answer */
	ct[cl - 1] ^= 1;
	pl = sizeof(pt);
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
				cc_asym_decrypt(s, dop, NULL, 0, ct, cl, pt, &pl));
	ct[cl - 1] ^= 1;
	ct[10] ^= 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
				cc_asym_decrypt(s, dop, NULL, 0, ct, cl, pt, &pl));
	ct[10] ^= 1;
	ct[0] = 0x02;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
				cc_asym_decrypt(s, dop, NULL, 0, ct, cl, pt, &pl));
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_CIPHERTEXT_INVALID,
				cc_asym_decrypt(s, dop, NULL, 0, ct, 97, pt, &pl));
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_BAD_PARAMETERS,
	    cc_gp11_asym(s, TA_CRYPT_CMD_ASYM_DECRYPT, dop, NULL, 0, ct, cl, pt, &pl));
	/* Randomised encryption: 97 bytes more than the message, back with the pair */
	cl = 97 + ml - 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				cc_asym_encrypt(s, eop, NULL, 0, sm2_pke_msg, ml, ct, &cl));
	ADBG_EXPECT(c, 97 + ml, cl);
	pl = sizeof(pt);
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     cc_asym_encrypt(s, eop, NULL, 0, sm2_pke_msg, ml, ct, &cl)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_decrypt(s, dop, NULL, 0, ct, cl, pt, &pl)))
		ADBG_EXPECT_BUFFER(c, sm2_pke_msg, ml, pt, pl);
out:
	cc_free_op(s, dop);
	cc_free_op(s, eop);
	cc_free_obj(s, pair);
	cc_free_obj(s, pub);
}

static void sm2_keys(ADBG_Case_t *c, TEEC_Session *s)
{
	struct sm2_key k;
	uint32_t obj = 0;

	sm2_key_init(&k);
	/* An SM2 type on a NIST curve */
	k.attrs[3] = CC_VALUE(TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_SM2_DSA_KEYPAIR, 256, &obj))) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					cc_populate(s, obj, k.attrs, 4));
		cc_free_obj(s, obj);
	}
	/* A coordinate longer than the field */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_SM2_PKE_PUBLIC_KEY, 256, &obj))) {
		uint8_t x33[33] = {1};

		k.attrs[0] = CC_REF(TEE_ATTR_ECC_PUBLIC_VALUE_X, x33, 33);
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					cc_populate(s, obj, k.attrs, 2));
		cc_free_obj(s, obj);
	}
}

static void xtest_tee_test_4006_sm2(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "SM2 DSA: GM/T 0003.5 example, signatures");
	sm2_dsa(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "SM2 PKE: GM/T 0003.5 example, encryption");
	sm2_pke(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "SM2 keys");
	sm2_keys(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4006_sm2, xtest_tee_test_4006_sm2,
		 "Test TEE Internal API asymmetric operations: SM2 DSA and PKE");

/* ---- 4016: Ed25519 ---- */

static const struct {
	const char *title;
	const char *priv, *pub, *msg, *ctx, *sig;
	bool ph;
} ed_kats[] = {
    /* RFC 8032 7.1, tests 1 to 3 */
    {"RFC 8032 7.1 test 1", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "", NULL,
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701c"
     "f9b46bd25bf5f0595bbe24655141438e7a100b",
     false},
    {"RFC 8032 7.1 test 2", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72", NULL,
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0"
     "f11d8c387b2eaeb4302aeeb00d291612bb0c00",
     false},
    {"RFC 8032 7.1 test 3", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82", NULL,
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f76098"
     "4dc6594a7c15e9716ed28dc027beceea1ec40a",
     false},
    /* RFC 8032 7.2, Ed25519ctx with context "foo" */
    {"RFC 8032 7.2 (ctx)", "0305334e381af78f141cb666f6199f57bc3495335a256a95bd2a55bf546663f6",
     "dfc9425e4f968f7f0c29f0259cf5f9aed6851c2bb4ad8bfb860cfee0ab248292",
     "f726936d19c800494e3fdaff20b276a8", "666f6f",
     "55a4cc2f70a54e04288c5f4cd1e45a7bb520b36292911876cada7323198dd87a8b36950b95130022907a7fb7c4"
     "e9b2d5f6cca685a587b4b21f4b888e4e7edb0d",
     false},
    /* RFC 8032 7.3, Ed25519ph, message "abc" */
    {"RFC 8032 7.3 (ph)", "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf", "616263", "",
     "98a70222f0b8121aa9d30f813d683f809e462b469c7ff87639499bb94e6dae4131f85042463c2a355a2003d062"
     "adf5aaa10b8c61e636062aaad11c2a26083406",
     true},
};

/* The operation's attributes for a context (NULL: none) and the pre-hash flag. */
static size_t ed_params(struct cc_attr *p, const uint8_t *ctx, size_t ctx_len, bool has_ctx,
			bool ph)
{
	size_t n = 0;

	if (has_ctx)
		p[n++] = CC_REF(TEE_ATTR_EDDSA_CTX, ctx, ctx_len);
	if (ph)
		p[n++] = CC_VALUE(TEE_ATTR_EDDSA_PREHASH, 1, 0);
	return n;
}

static void ed_kat(ADBG_Case_t *c, TEEC_Session *s, size_t i)
{
	static const uint8_t other_ctx[] = "bar";
	uint8_t priv[32], pub[32], m[64], ctx[16], want[64], sig[64];
	size_t ml = ct_unhex(ed_kats[i].msg, m, sizeof(m));
	size_t cl = ed_kats[i].ctx ? ct_unhex(ed_kats[i].ctx, ctx, sizeof(ctx)) : 0;
	size_t sl = sizeof(sig);
	struct cc_attr key[] = {
	    CC_REF(TEE_ATTR_ED25519_PUBLIC_VALUE, pub, ct_unhex(ed_kats[i].pub, pub, 32)),
	    CC_REF(TEE_ATTR_ED25519_PRIVATE_VALUE, priv, ct_unhex(ed_kats[i].priv, priv, 32)),
	};
	struct cc_attr p[2];
	size_t np = ed_params(p, ctx, cl, ed_kats[i].ctx != NULL, ed_kats[i].ph);
	uint32_t pair = ct_key(c, s, TEE_TYPE_ED25519_KEYPAIR, 256, key, 2);
	uint32_t pubk = ct_key(c, s, TEE_TYPE_ED25519_PUBLIC_KEY, 256, key, 1);
	uint32_t sop = ct_op(c, s, TEE_ALG_ED25519, TEE_MODE_SIGN, 256, pair);
	uint32_t vop = ct_op(c, s, TEE_ALG_ED25519, TEE_MODE_VERIFY, 256, pubk);

	Do_ADBG_Log("    %s", ed_kats[i].title);
	ct_unhex(ed_kats[i].sig, want, sizeof(want));
	if (!sop || !vop)
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, sop, p, np, ml ? m : ctx, ml, sig, &sl)))
		ADBG_EXPECT_BUFFER(c, want, 64, sig, sl);
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_verify(s, vop, p, np, ml ? m : ctx, ml, want, 64));
	want[10] ^= 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
				cc_asym_verify(s, vop, p, np, ml ? m : ctx, ml, want, 64));
	want[10] ^= 1;
	/* Each form signs something else: another context, pre-hash or not */
	if (ed_kats[i].ctx) {
		struct cc_attr q[2];
		size_t nq = ed_params(q, other_ctx, 3, true, ed_kats[i].ph);

		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
					cc_asym_verify(s, vop, q, nq, ml ? m : ctx, ml, want, 64));
		nq = ed_params(q, ctx, cl, true, !ed_kats[i].ph);
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_SIGNATURE_INVALID,
					cc_asym_verify(s, vop, q, nq, ml ? m : ctx, ml, want, 64));
	}
	if (np)
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEE_ERROR_SIGNATURE_INVALID,
		    cc_asym_verify(s, vop, NULL, 0, ml ? m : ctx, ml, want, 64));
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
	cc_free_obj(s, pair);
	cc_free_obj(s, pubk);
}

static void ed_generated(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint8_t ctx[] = "swtee context";
	uint32_t pair = ct_genkey(c, s, TEE_TYPE_ED25519_KEYPAIR, 256, NULL, 0);
	uint32_t sop = ct_op(c, s, TEE_ALG_ED25519, TEE_MODE_SIGN, 256, pair);
	uint32_t vop = ct_op(c, s, TEE_ALG_ED25519, TEE_MODE_VERIFY, 256, pair);
	uint8_t sig[64];
	uint8_t m[300];
	uint8_t pub[32];
	uint8_t priv[32];
	size_t publ = sizeof(pub);
	size_t privl = sizeof(priv);

	memset(m, 0x3c, sizeof(m));
	if (!sop || !vop)
		goto out;
	for (int form = 0; form < 4; form++) {
		struct cc_attr p[2];
		size_t np = ed_params(p, ctx, sizeof(ctx), form & 1, form & 2);
		size_t sl = sizeof(sig);

		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     cc_asym_sign(s, sop, p, np, m, sizeof(m), sig, &sl)))
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, cc_asym_verify(s, vop, p, np, m, sizeof(m), sig, sl));
	}
	/* The pure form is OpenSSL's: the host verifies it */
	if (ct_attr(c, s, pair, TEE_ATTR_ED25519_PUBLIC_VALUE, pub, &publ) &&
	    ct_attr(c, s, pair, TEE_ATTR_ED25519_PRIVATE_VALUE, priv, &privl)) {
		EVP_PKEY *hk = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, publ);
		EVP_MD_CTX *mctx = EVP_MD_CTX_new();
		size_t sl = sizeof(sig);

		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, sop, NULL, 0, m, 10, sig, &sl)) &&
		    ADBG_EXPECT_NOT_NULL(c, hk) && ADBG_EXPECT_NOT_NULL(c, mctx))
			ADBG_EXPECT_TRUE(c, EVP_DigestVerifyInit(mctx, NULL, NULL, NULL, hk) == 1 &&
						EVP_DigestVerify(mctx, sig, sl, m, 10) == 1);
		EVP_MD_CTX_free(mctx);
		EVP_PKEY_free(hk);
	}
	/* An empty context is the pure form */
	{
		struct cc_attr p = CC_REF(TEE_ATTR_EDDSA_CTX, ctx, 0);
		size_t sl = sizeof(sig);

		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_asym_sign(s, sop, &p, 1, m, 10, sig, &sl)))
			ADBG_EXPECT_TEEC_SUCCESS(c,
						 cc_asym_verify(s, vop, NULL, 0, m, 10, sig, sl));
	}
	/* A short buffer */
	{
		size_t sl = 63;

		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					cc_asym_sign(s, sop, NULL, 0, m, 10, sig, &sl));
		ADBG_EXPECT(c, 64, sl);
	}
out:
	cc_free_op(s, sop);
	cc_free_op(s, vop);
	cc_free_obj(s, pair);
}

static void ed_misuse(ADBG_Case_t *c, TEEC_Session *s)
{
	uint8_t m[300] = {0};
	uint8_t sig[64];
	size_t sl = sizeof(sig);
	uint32_t key = 0;
	uint32_t op = 0;
	uint32_t pub = 0;
	struct cc_attr p = CC_REF(TEE_ATTR_EDDSA_CTX, m, 256);

	/* A context over 255 bytes */
	key = ct_genkey(c, s, TEE_TYPE_ED25519_KEYPAIR, 256, NULL, 0);
	op = ct_op(c, s, TEE_ALG_ED25519, TEE_MODE_SIGN, 256, key);
	if (op)
		ct_expect_panic(c, s, cc_asym_sign(s, op, &p, 1, m, 10, sig, &sl));
	/* Signing with a public key */
	key = ct_genkey(c, s, TEE_TYPE_ED25519_KEYPAIR, 256, NULL, 0);
	if (key &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_ED25519_PUBLIC_KEY, 256, &pub)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_copy_attrs(s, pub, key, 0))) {
		op = ct_op(c, s, TEE_ALG_ED25519, TEE_MODE_SIGN, 256, 0);
		if (op)
			ct_expect_panic(c, s, cc_set_key(s, op, pub));
	}
	/* A public value of another length */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_ED25519_PUBLIC_KEY, 256, &pub))) {
		struct cc_attr a = CC_REF(TEE_ATTR_ED25519_PUBLIC_VALUE, m, 31);

		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, cc_populate(s, pub, &a, 1));
		cc_free_obj(s, pub);
	}
}

static void xtest_tee_test_4016(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!ct_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "Ed25519, Ed25519ctx, Ed25519ph: RFC 8032 known answers");
	for (size_t i = 0; i < sizeof(ed_kats) / sizeof(ed_kats[0]); i++)
		ed_kat(c, &s, i);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Ed25519: generated keys, every form");
	ed_generated(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Ed25519 misuse");
	ed_misuse(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4016, xtest_tee_test_4016,
		 "Test TEE Internal API ED25519 sign/verify (incl. ctx/ph variants)");
