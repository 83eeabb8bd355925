/* Helpers of the asymmetric and key-derivation cases; see crypt_test.h. */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/param_build.h>

#include "crypt_test.h"
#include "xtest_helpers.h"

size_t ct_unhex(const char *h, uint8_t *out, size_t cap)
{
	size_t n = 0;

	while (*h && n < cap) {
		unsigned int v = 0;

		if (*h == ' ') {
			h++;
			continue;
		}
		if (sscanf(h, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		h += 2;
	}
	return n;
}

bool ct_open(ADBG_Case_t *c, TEEC_Session *s)
{
	return ADBG_EXPECT_TEEC_SUCCESS(c, cc_open(&xtest_teec_ctx, s));
}

bool ct_expect_panic(ADBG_Case_t *c, TEEC_Session *s, TEEC_Result res)
{
	bool ok = ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD, res);

	TEEC_CloseSession(s);
	return ct_open(c, s) && ok;
}

uint32_t ct_op(ADBG_Case_t *c, TEEC_Session *s, uint32_t alg, uint32_t mode, uint32_t max,
	       uint32_t key)
{
	uint32_t op = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(s, alg, mode, max, &op)))
		return 0;
	if (key && !ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(s, op, key))) {
		cc_free_op(s, op);
		return 0;
	}
	return op;
}

bool ct_digest(ADBG_Case_t *c, TEEC_Session *s, uint32_t hash, const void *msg, size_t len,
	       uint8_t *out, size_t *out_len)
{
	static const uint8_t none[1];
	uint32_t op = ct_op(c, s, hash, TEE_MODE_DIGEST, 0, 0);
	bool ok = false;

	if (!op)
		return false;
	ok = ADBG_EXPECT_TEEC_SUCCESS(c,
				      cc_digest_final(s, op, len ? msg : none, len, out, out_len));
	cc_free_op(s, op);
	return ok;
}

bool ct_attr(ADBG_Case_t *c, TEEC_Session *s, uint32_t obj, uint32_t id, uint8_t *buf, size_t *len)
{
	return ADBG_EXPECT_TEEC_SUCCESS(c, cc_get_buf_attr(s, obj, id, buf, len));
}

uint32_t ct_key(ADBG_Case_t *c, TEEC_Session *s, uint32_t type, uint32_t bits,
		const struct cc_attr *attrs, size_t n)
{
	uint32_t obj = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_key(s, type, bits, attrs, n, &obj)))
		return 0;
	return obj;
}

uint32_t ct_genkey(ADBG_Case_t *c, TEEC_Session *s, uint32_t type, uint32_t bits,
		   const struct cc_attr *params, size_t n)
{
	uint32_t obj = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, type, bits, &obj)))
		return 0;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_generate_key(s, obj, bits, params, n))) {
		cc_free_obj(s, obj);
		return 0;
	}
	return obj;
}

/* ---- host ---- */

const EVP_MD *ct_host_md(uint32_t hash)
{
	switch (hash) {
	case TEE_ALG_MD5:
		return EVP_md5();
	case TEE_ALG_SHA1:
		return EVP_sha1();
	case TEE_ALG_SHA224:
		return EVP_sha224();
	case TEE_ALG_SHA256:
		return EVP_sha256();
	case TEE_ALG_SHA384:
		return EVP_sha384();
	case TEE_ALG_SHA512:
		return EVP_sha512();
	case TEE_ALG_SHA3_224:
		return EVP_sha3_224();
	case TEE_ALG_SHA3_256:
		return EVP_sha3_256();
	case TEE_ALG_SHA3_384:
		return EVP_sha3_384();
	case TEE_ALG_SHA3_512:
		return EVP_sha3_512();
	case TEE_ALG_SM3:
		return EVP_sm3();
	default:
		return NULL;
	}
}

size_t ct_host_bn(EVP_PKEY *pk, const char *name, uint8_t *out, size_t cap)
{
	BIGNUM *bn = NULL;
	size_t n = 0;

	if (EVP_PKEY_get_bn_param(pk, name, &bn) != 1)
		return 0;
	if ((size_t)BN_num_bytes(bn) <= cap)
		n = (size_t)BN_bn2bin(bn, out);
	BN_clear_free(bn);
	return n;
}

EVP_PKEY *ct_host_key(const char *type, const char *group, const uint8_t *pub, size_t pub_len,
		      const char *const *names, const uint8_t *const *values, const size_t *lens,
		      size_t n)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
	EVP_PKEY *pk = NULL;
	BIGNUM *bn[8] = {NULL};
	bool ok = bld && ctx && n <= 8;

	if (ok && group)
		ok = OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
	if (ok && pub)
		ok = OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, pub_len);
	for (size_t i = 0; ok && i < n; i++) {
		bn[i] = BN_bin2bn(values[i], (int)lens[i], NULL);
		ok = bn[i] && OSSL_PARAM_BLD_push_BN(bld, names[i], bn[i]);
	}
	if (ok)
		params = OSSL_PARAM_BLD_to_param(bld);
	if (params && EVP_PKEY_fromdata_init(ctx) == 1)
		EVP_PKEY_fromdata(ctx, &pk, EVP_PKEY_KEYPAIR, params);
	for (size_t i = 0; i < 8; i++)
		BN_clear_free(bn[i]);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	return pk;
}

enum host_op { HOST_SIGN, HOST_VERIFY, HOST_ENCRYPT, HOST_DECRYPT };

static bool host_run(enum host_op o, EVP_PKEY *pk, ct_host_setup setup, const void *arg,
		     const uint8_t *in, size_t len, uint8_t *out, size_t *out_len)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pk, NULL);
	int r = 0;

	if (!ctx)
		return false;
	switch (o) {
	case HOST_SIGN:
		r = EVP_PKEY_sign_init(ctx);
		break;
	case HOST_VERIFY:
		r = EVP_PKEY_verify_init(ctx);
		break;
	case HOST_ENCRYPT:
		r = EVP_PKEY_encrypt_init(ctx);
		break;
	case HOST_DECRYPT:
		r = EVP_PKEY_decrypt_init(ctx);
		break;
	}
	if (r == 1 && (!setup || setup(ctx, arg))) {
		switch (o) {
		case HOST_SIGN:
			r = EVP_PKEY_sign(ctx, out, out_len, in, len);
			break;
		case HOST_VERIFY:
			r = EVP_PKEY_verify(ctx, out, *out_len, in, len);
			break;
		case HOST_ENCRYPT:
			r = EVP_PKEY_encrypt(ctx, out, out_len, in, len);
			break;
		case HOST_DECRYPT:
			r = EVP_PKEY_decrypt(ctx, out, out_len, in, len);
			break;
		}
	} else {
		r = 0;
	}
	EVP_PKEY_CTX_free(ctx);
	return r == 1;
}

bool ct_host_sign(EVP_PKEY *pk, ct_host_setup setup, const void *arg, const uint8_t *dg,
		  size_t dlen, uint8_t *sig, size_t *sig_len)
{
	return host_run(HOST_SIGN, pk, setup, arg, dg, dlen, sig, sig_len);
}

bool ct_host_verify(EVP_PKEY *pk, ct_host_setup setup, const void *arg, const uint8_t *dg,
		    size_t dlen, const uint8_t *sig, size_t sig_len)
{
	return host_run(HOST_VERIFY, pk, setup, arg, dg, dlen, (uint8_t *)sig, &sig_len);
}

bool ct_host_encrypt(EVP_PKEY *pk, ct_host_setup setup, const void *arg, const uint8_t *in,
		     size_t len, uint8_t *out, size_t *out_len)
{
	return host_run(HOST_ENCRYPT, pk, setup, arg, in, len, out, out_len);
}

bool ct_host_decrypt(EVP_PKEY *pk, ct_host_setup setup, const void *arg, const uint8_t *in,
		     size_t len, uint8_t *out, size_t *out_len)
{
	return host_run(HOST_DECRYPT, pk, setup, arg, in, len, out, out_len);
}

bool ct_host_group(const char *name, struct ct_ffc *f)
{
	OSSL_PARAM params[2] = {
	    OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)name, 0),
	    OSSL_PARAM_construct_end(),
	};
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "DH", NULL);
	EVP_PKEY *pk = NULL;
	bool ok = false;

	memset(f, 0, sizeof(*f));
	if (ctx && EVP_PKEY_fromdata_init(ctx) == 1 &&
	    EVP_PKEY_fromdata(ctx, &pk, EVP_PKEY_KEY_PARAMETERS, params) == 1) {
		f->p_len = ct_host_bn(pk, OSSL_PKEY_PARAM_FFC_P, f->p, sizeof(f->p));
		f->q_len = ct_host_bn(pk, OSSL_PKEY_PARAM_FFC_Q, f->q, sizeof(f->q));
		f->g_len = ct_host_bn(pk, OSSL_PKEY_PARAM_FFC_G, f->g, sizeof(f->g));
		ok = f->p_len && f->g_len;
	}
	EVP_PKEY_free(pk);
	EVP_PKEY_CTX_free(ctx);
	return ok;
}

bool ct_rs_to_der(const uint8_t *rs, size_t n, uint8_t *der, size_t *der_len)
{
	ECDSA_SIG *sig = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(rs, (int)n, NULL);
	BIGNUM *s = BN_bin2bn(rs + n, (int)n, NULL);
	unsigned char *p = der;
	int len = 0;

	if (!sig || !r || !s || !ECDSA_SIG_set0(sig, r, s)) {
		BN_free(r);
		BN_free(s);
		ECDSA_SIG_free(sig);
		return false;
	}
	len = i2d_ECDSA_SIG(sig, NULL);
	if (len > 0 && (size_t)len <= *der_len)
		len = i2d_ECDSA_SIG(sig, &p);
	else
		len = 0;
	ECDSA_SIG_free(sig);
	*der_len = len > 0 ? (size_t)len : 0;
	return len > 0;
}

bool ct_der_to_rs(const uint8_t *der, size_t der_len, size_t n, uint8_t *rs)
{
	const unsigned char *p = der;
	ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
	const BIGNUM *r = NULL;
	const BIGNUM *s = NULL;
	bool ok = false;

	if (!sig)
		return false;
	ECDSA_SIG_get0(sig, &r, &s);
	ok = BN_bn2binpad(r, rs, (int)n) == (int)n && BN_bn2binpad(s, rs + n, (int)n) == (int)n;
	ECDSA_SIG_free(sig);
	return ok;
}

bool ct_dsa_key(ADBG_Case_t *c, TEEC_Session *s, const struct ct_ffc *f, uint32_t bits,
		struct ct_dsa *k)
{
	struct cc_attr dom[] = {
	    CC_REF(TEE_ATTR_DSA_PRIME, f->p, f->p_len),
	    CC_REF(TEE_ATTR_DSA_SUBPRIME, f->q, f->q_len),
	    CC_REF(TEE_ATTR_DSA_BASE, f->g, f->g_len),
	    CC_REF(TEE_ATTR_DSA_PUBLIC_VALUE, NULL, 0),
	};
	const char *const names[] = {OSSL_PKEY_PARAM_FFC_P, OSSL_PKEY_PARAM_FFC_Q,
				     OSSL_PKEY_PARAM_FFC_G, OSSL_PKEY_PARAM_PUB_KEY,
				     OSSL_PKEY_PARAM_PRIV_KEY};
	uint8_t x[64];
	uint8_t y[512];
	size_t xl = sizeof(x);
	size_t yl = sizeof(y);

	memset(k, 0, sizeof(*k));
	k->pair = ct_genkey(c, s, TEE_TYPE_DSA_KEYPAIR, bits, dom, 3);
	if (!k->pair || !ct_attr(c, s, k->pair, TEE_ATTR_DSA_PUBLIC_VALUE, y, &yl) ||
	    !ct_attr(c, s, k->pair, TEE_ATTR_DSA_PRIVATE_VALUE, x, &xl))
		return false;
	{
		const uint8_t *const values[] = {f->p, f->q, f->g, y, x};
		const size_t lens[] = {f->p_len, f->q_len, f->g_len, yl, xl};

		k->host = ct_host_key("DSA", NULL, NULL, 0, names, values, lens, 5);
	}
	dom[3] = CC_REF(TEE_ATTR_DSA_PUBLIC_VALUE, y, yl);
	k->pub = ct_key(c, s, TEE_TYPE_DSA_PUBLIC_KEY, bits, dom, 4);
	return ADBG_EXPECT_NOT_NULL(c, k->host) && k->pub;
}

void ct_dsa_free(TEEC_Session *s, struct ct_dsa *k)
{
	EVP_PKEY_free(k->host);
	cc_free_obj(s, k->pair);
	cc_free_obj(s, k->pub);
	memset(k, 0, sizeof(*k));
}

TEEC_Result ct_derive(TEEC_Session *s, uint32_t op, struct cc_attr *params, size_t n,
		      uint32_t max_bits, uint8_t *out, size_t *out_len,
		      struct ta_crypt_object_info *info)
{
	uint32_t secret = 0;
	TEEC_Result res = cc_alloc_obj(s, TEE_TYPE_GENERIC_SECRET, max_bits, &secret);

	if (res)
		return res;
	res = cc_derive_key(s, op, secret, params, n);
	if (!res)
		res = cc_get_buf_attr(s, secret, TEE_ATTR_SECRET_VALUE, out, out_len);
	if (!res && info)
		res = cc_obj_info(s, secret, info, 0);
	if (res != TEEC_ERROR_TARGET_DEAD)
		cc_free_obj(s, secret);
	return res;
}

void ct_ffc_check(ADBG_Case_t *c, TEEC_Session *s, uint32_t key, const struct ct_ffc *f,
		  uint32_t x_id, uint32_t y_id, int x_bits)
{
	uint8_t x[512], y[512];
	size_t xl = sizeof(x);
	size_t yl = sizeof(y);
	BN_CTX *bc = BN_CTX_new();
	BIGNUM *bp = BN_bin2bn(f->p, (int)f->p_len, NULL);
	BIGNUM *bg = BN_bin2bn(f->g, (int)f->g_len, NULL);
	BIGNUM *bq = f->q_len ? BN_bin2bn(f->q, (int)f->q_len, NULL) : NULL;
	BIGNUM *bx = NULL;
	BIGNUM *by = NULL;
	BIGNUM *gx = BN_new();

	if (!ct_attr(c, s, key, x_id, x, &xl) || !ct_attr(c, s, key, y_id, y, &yl))
		goto out;
	bx = BN_bin2bn(x, (int)xl, NULL);
	by = BN_bin2bn(y, (int)yl, NULL);
	if (ADBG_EXPECT_TRUE(c, bc && gx && bx && by && BN_mod_exp(gx, bg, bx, bp, bc)))
		ADBG_EXPECT(c, 0, BN_cmp(gx, by));
	ADBG_EXPECT_TRUE(c, !BN_is_zero(bx) && (!bq || BN_cmp(bx, bq) < 0));
	if (x_bits)
		ADBG_EXPECT(c, x_bits, BN_num_bits(bx));
out:
	BN_free(gx);
	BN_clear_free(bx);
	BN_free(by);
	BN_free(bp);
	BN_free(bg);
	BN_free(bq);
	BN_CTX_free(bc);
}
