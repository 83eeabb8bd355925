/*
 * The OpenSSL 3 backend: key generation (TEE_GenerateKey) for the
 * asymmetric types. The new key's parts are written to the object as GP
 * attributes; what the library held is freed (and cleansed) with it.
 *
 * RSA keys are assembled here from two primes of the library so that the
 * sizes OpenSSL's generator refuses (below 512 bits; GP requires 256) work
 * too: p and q have their top two bits set, so n has exactly the size
 * asked, and d = e^-1 mod lcm(p - 1, q - 1) as in FIPS 186-4.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>

#include <tee_api_defines.h>

#include "backend_openssl.h"
#include "secure.h"

/* A parameter of the caller's list, or NULL. */
static const TEE_Attribute *param(const TEE_Attribute *params, uint32_t count, uint32_t id)
{
	for (uint32_t i = 0; i < count; i++)
		if (params[i].attributeID == id)
			return &params[i];
	return NULL;
}

/* Stores bn (big-endian, at least len bytes) as attribute id of o. */
static TEE_Result put_bn(struct tee_obj *o, uint32_t id, const BIGNUM *bn, size_t len)
{
	size_t n = (size_t)BN_num_bytes(bn);
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	uint8_t *buf = NULL;

	if (n < len)
		n = len;
	buf = malloc(n ? n : 1);
	if (!buf)
		return res;
	if (BN_bn2binpad(bn, buf, (int)n) == (int)n)
		res = obj_attr_set_buf(o, id, buf, n);
	else
		res = TEE_ERROR_GENERIC;
	secure_wipe(buf, n);
	free(buf);
	return res;
}

/* Stores the library key's integer key as attribute id of o. */
static TEE_Result put_param(struct tee_obj *o, uint32_t id, EVP_PKEY *pk, const char *key,
			    size_t len)
{
	BIGNUM *bn = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (EVP_PKEY_get_bn_param(pk, key, &bn) != 1)
		return bo_fail();
	res = put_bn(o, id, bn, len);
	BN_clear_free(bn);
	return res;
}

/* ---- RSA ---- */

static BIGNUM *new_secret(BN_CTX *bc)
{
	BIGNUM *b = BN_CTX_get(bc);

	if (b)
		BN_set_flags(b, BN_FLG_CONSTTIME);
	return b;
}

/* A prime of bits bits, top two bits set, with gcd(p - 1, e) = 1. */
static bool rsa_prime(BIGNUM *p, int bits, const BIGNUM *e, BN_CTX *bc)
{
	BIGNUM *t = BN_CTX_get(bc);
	BIGNUM *g = BN_CTX_get(bc);

	if (!t || !g)
		return false;
	for (int tries = 0; tries < 1000; tries++) {
		if (!BN_generate_prime_ex2(p, bits, 0, NULL, NULL, NULL, bc))
			return false;
		if (!BN_sub(t, p, BN_value_one()) || !BN_gcd(g, t, e, bc))
			return false;
		if (BN_is_one(g))
			return true;
	}
	return false;
}

static TEE_Result rsa_keygen(struct tee_obj *o, uint32_t bits, const TEE_Attribute *params,
			     uint32_t count)
{
	const TEE_Attribute *pe = param(params, count, TEE_ATTR_RSA_PUBLIC_EXPONENT);
	BN_CTX *bc = BN_CTX_secure_new_ex(bo_libctx());
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	BIGNUM *e = NULL, *p = NULL, *q = NULL, *n = NULL, *d = NULL;
	BIGNUM *p1 = NULL, *q1 = NULL, *g = NULL, *phi = NULL, *lambda = NULL;
	BIGNUM *dp = NULL, *dq = NULL, *qinv = NULL;
	size_t k = (bits + 7) / 8;

	if (!bc)
		return res;
	BN_CTX_start(bc);
	e = BN_CTX_get(bc);
	n = BN_CTX_get(bc);
	p = new_secret(bc);
	q = new_secret(bc);
	d = new_secret(bc);
	p1 = new_secret(bc);
	q1 = new_secret(bc);
	g = new_secret(bc);
	phi = new_secret(bc);
	lambda = new_secret(bc);
	dp = new_secret(bc);
	dq = new_secret(bc);
	qinv = new_secret(bc);
	if (!qinv)
		goto out;
	if (pe) {
		if (!BN_bin2bn(pe->content.ref.buffer, (int)pe->content.ref.length, e))
			goto out;
	} else if (!BN_set_word(e, 65537)) {
		goto out;
	}
	/* An odd exponent above 1 and below the modulus. */
	res = TEE_ERROR_BAD_PARAMETERS;
	if (!BN_is_odd(e) || BN_is_one(e) || BN_num_bits(e) >= (int)bits)
		goto out;
	res = TEE_ERROR_GENERIC;
	do {
		if (!rsa_prime(p, (int)(bits - bits / 2), e, bc) ||
		    !rsa_prime(q, (int)(bits / 2), e, bc))
			goto out;
	} while (!BN_cmp(p, q));
	if (!BN_mul(n, p, q, bc) || BN_num_bits(n) != (int)bits)
		goto out;
	if (!BN_sub(p1, p, BN_value_one()) || !BN_sub(q1, q, BN_value_one()) ||
	    !BN_gcd(g, p1, q1, bc) || !BN_mul(phi, p1, q1, bc) ||
	    !BN_div(lambda, NULL, phi, g, bc) || !BN_mod_inverse(d, e, lambda, bc) ||
	    !BN_mod(dp, d, p1, bc) || !BN_mod(dq, d, q1, bc) || !BN_mod_inverse(qinv, q, p, bc))
		goto out;
	res = put_bn(o, TEE_ATTR_RSA_MODULUS, n, k);
	if (!res)
		res = put_bn(o, TEE_ATTR_RSA_PUBLIC_EXPONENT, e, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_RSA_PRIVATE_EXPONENT, d, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_RSA_PRIME1, p, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_RSA_PRIME2, q, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_RSA_EXPONENT1, dp, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_RSA_EXPONENT2, dq, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_RSA_COEFFICIENT, qinv, 0);
out:
	if (res == TEE_ERROR_GENERIC)
		res = bo_fail();
	ERR_clear_error();
	BN_CTX_end(bc); /* a secure context clears what it lent */
	BN_CTX_free(bc);
	return res;
}

/* ---- DSA and DH: a key in a given domain ---- */

static bool add_param(struct bo_params *b, const TEE_Attribute *params, uint32_t count, uint32_t id,
		      const char *key)
{
	const TEE_Attribute *a = param(params, count, id);

	if (!a)
		return true;
	return bo_params_bn(b, key, a->content.ref.buffer, a->content.ref.length);
}

/* Bits of a big-endian buffer parameter (0 when absent). */
static uint32_t param_bits(const TEE_Attribute *params, uint32_t count, uint32_t id)
{
	const TEE_Attribute *a = param(params, count, id);
	const uint8_t *p = NULL;
	size_t len = 0;

	if (!a)
		return 0;
	p = a->content.ref.buffer;
	len = a->content.ref.length;
	bo_strip(&p, &len);
	if (!len)
		return 0;
	return (uint32_t)(len * 8) - (uint32_t)__builtin_clz((unsigned int)p[0]) + 24;
}

/* A key pair generated in the domain of the library key dom. */
static EVP_PKEY *domain_keygen(EVP_PKEY *dom)
{
	EVP_PKEY_CTX *ctx = bo_pkey_ctx(dom);
	EVP_PKEY *pk = NULL;

	if (!ctx || EVP_PKEY_keygen_init(ctx) != 1 || EVP_PKEY_keygen(ctx, &pk) != 1) {
		EVP_PKEY_free(pk);
		pk = NULL;
	}
	EVP_PKEY_CTX_free(ctx);
	return pk;
}

/* Copies the domain parameters the caller gave into o. */
static TEE_Result put_domain(struct tee_obj *o, const TEE_Attribute *params, uint32_t count,
			     const uint32_t *ids, size_t n)
{
	TEE_Result res = TEE_SUCCESS;

	for (size_t i = 0; i < n && !res; i++) {
		const TEE_Attribute *a = param(params, count, ids[i]);

		if (a)
			res = obj_attr_set_buf(o, ids[i], a->content.ref.buffer,
					       a->content.ref.length);
	}
	return res;
}

static TEE_Result dsa_keygen(struct tee_obj *o, uint32_t bits, const TEE_Attribute *params,
			     uint32_t count)
{
	static const uint32_t domain[] = {TEE_ATTR_DSA_PRIME, TEE_ATTR_DSA_SUBPRIME,
					  TEE_ATTR_DSA_BASE};
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	EVP_PKEY *dom = NULL;
	EVP_PKEY *pk = NULL;
	struct bo_params b;

	if (param_bits(params, count, TEE_ATTR_DSA_PRIME) != bits)
		return TEE_ERROR_BAD_PARAMETERS;
	bo_params_init(&b);
	if (!add_param(&b, params, count, TEE_ATTR_DSA_PRIME, OSSL_PKEY_PARAM_FFC_P) ||
	    !add_param(&b, params, count, TEE_ATTR_DSA_SUBPRIME, OSSL_PKEY_PARAM_FFC_Q) ||
	    !add_param(&b, params, count, TEE_ATTR_DSA_BASE, OSSL_PKEY_PARAM_FFC_G))
		goto out;
	res = TEE_ERROR_BAD_PARAMETERS;
	dom = bo_pkey_fromdata("DSA", EVP_PKEY_KEY_PARAMETERS, &b);
	if (dom)
		pk = domain_keygen(dom);
	if (!pk)
		goto out;
	res = put_domain(o, params, count, domain, sizeof(domain) / sizeof(domain[0]));
	if (!res)
		res = put_param(o, TEE_ATTR_DSA_PUBLIC_VALUE, pk, OSSL_PKEY_PARAM_PUB_KEY, 0);
	if (!res)
		res = put_param(o, TEE_ATTR_DSA_PRIVATE_VALUE, pk, OSSL_PKEY_PARAM_PRIV_KEY, 0);
out:
	ERR_clear_error();
	EVP_PKEY_free(pk);
	EVP_PKEY_free(dom);
	bo_params_free(&b);
	return res;
}

/* A parameter as an integer; NULL (nothing in *bn) when absent, false on failure. */
static bool param_bn(const TEE_Attribute *params, uint32_t count, uint32_t id, BIGNUM *bn)
{
	const TEE_Attribute *a = param(params, count, id);

	return a && BN_bin2bn(a->content.ref.buffer, (int)a->content.ref.length, bn);
}

/*
 * DH: the private value is drawn here rather than by OpenSSL, whose
 * generator sizes it its own way for the groups it knows (RFC 7919's):
 * TEE_ATTR_DH_X_BITS bits exactly when given (its top bit set, as OP-TEE
 * does), else uniform in 1..q-1 with a subprime, else in 1..p-2.
 */
static TEE_Result dh_keygen(struct tee_obj *o, uint32_t bits, const TEE_Attribute *params,
			    uint32_t count)
{
	static const uint32_t domain[] = {TEE_ATTR_DH_PRIME, TEE_ATTR_DH_BASE,
					  TEE_ATTR_DH_SUBPRIME};
	const TEE_Attribute *xbits = param(params, count, TEE_ATTR_DH_X_BITS);
	BN_CTX *bc = BN_CTX_secure_new_ex(bo_libctx());
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	BIGNUM *p = NULL, *g = NULL, *q = NULL, *x = NULL, *y = NULL, *lim = NULL;
	bool has_q = false;

	if (!bc)
		return res;
	BN_CTX_start(bc);
	p = BN_CTX_get(bc);
	g = BN_CTX_get(bc);
	q = BN_CTX_get(bc);
	lim = BN_CTX_get(bc);
	y = BN_CTX_get(bc);
	x = new_secret(bc);
	if (!x)
		goto out;
	res = TEE_ERROR_BAD_PARAMETERS;
	has_q = param_bn(params, count, TEE_ATTR_DH_SUBPRIME, q);
	/* A prime of the size asked, a base in 2..p-2, a private value smaller than both */
	if (param_bits(params, count, TEE_ATTR_DH_PRIME) != bits ||
	    !param_bn(params, count, TEE_ATTR_DH_PRIME, p) ||
	    !param_bn(params, count, TEE_ATTR_DH_BASE, g) || !BN_is_odd(p) ||
	    BN_cmp(g, BN_value_one()) <= 0 || !BN_sub(lim, p, BN_value_one()) ||
	    BN_cmp(g, lim) >= 0 || (has_q && (BN_is_zero(q) || BN_cmp(q, p) >= 0)))
		goto out;
	if (xbits && (!xbits->content.value.a || xbits->content.value.a >= bits ||
		      (has_q && xbits->content.value.a >= (uint32_t)BN_num_bits(q))))
		goto out;
	res = TEE_ERROR_GENERIC;
	if (xbits) {
		if (!BN_priv_rand_ex(x, (int)xbits->content.value.a, BN_RAND_TOP_ONE,
				     BN_RAND_BOTTOM_ANY, 0, bc))
			goto out;
	} else {
		/* 1 + a number below q - 1 (or p - 2) */
		if (!BN_sub(lim, has_q ? q : lim, BN_value_one()) ||
		    !BN_priv_rand_range_ex(x, lim, 0, bc) || !BN_add(x, x, BN_value_one()))
			goto out;
	}
	if (!BN_mod_exp_mont_consttime(y, g, x, p, bc, NULL))
		goto out;
	res = put_domain(o, params, count, domain, sizeof(domain) / sizeof(domain[0]));
	if (!res)
		res = put_bn(o, TEE_ATTR_DH_PUBLIC_VALUE, y, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_DH_PRIVATE_VALUE, x, 0);
	if (!res && xbits)
		res = obj_attr_set_value(o, TEE_ATTR_DH_X_BITS, xbits->content.value.a, 0);
out:
	if (res == TEE_ERROR_GENERIC)
		res = bo_fail();
	ERR_clear_error();
	BN_CTX_end(bc);
	BN_CTX_free(bc);
	return res;
}

/* ---- elliptic curves ---- */

static TEE_Result ecc_keygen(struct tee_obj *o, uint32_t bits, const TEE_Attribute *params,
			     uint32_t count, bool sm2)
{
	const TEE_Attribute *ca = param(params, count, TEE_ATTR_ECC_CURVE);
	const struct bo_curve *c = bo_curve(ca ? ca->content.value.a : TEE_ECC_CURVE_SM2);
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	uint8_t point[1 + 2 * 66];
	size_t point_len = 0;
	EVP_PKEY *pk = NULL;

	if (!c || c->bits != bits || (c->tee == TEE_ECC_CURVE_SM2) != sm2)
		return TEE_ERROR_BAD_PARAMETERS;
	pk = EVP_PKEY_Q_keygen(bo_libctx(), NULL, sm2 ? "SM2" : "EC", c->name);
	if (!pk)
		return bo_fail();
	if (EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof(point),
					    &point_len) != 1 ||
	    point_len != 1 + 2 * c->bytes || point[0] != 0x04) {
		res = bo_fail();
		goto out;
	}
	res = obj_attr_set_buf(o, TEE_ATTR_ECC_PUBLIC_VALUE_X, point + 1, c->bytes);
	if (!res)
		res = obj_attr_set_buf(o, TEE_ATTR_ECC_PUBLIC_VALUE_Y, point + 1 + c->bytes,
				       c->bytes);
	if (!res)
		res = put_param(o, TEE_ATTR_ECC_PRIVATE_VALUE, pk, OSSL_PKEY_PARAM_PRIV_KEY,
				c->order_bytes);
	if (!res)
		res = obj_attr_set_value(o, TEE_ATTR_ECC_CURVE, c->tee, 0);
out:
	ERR_clear_error();
	EVP_PKEY_free(pk);
	return res;
}

static TEE_Result raw_keygen(struct tee_obj *o, const char *name, uint32_t pub_id, uint32_t priv_id)
{
	EVP_PKEY *pk = EVP_PKEY_Q_keygen(bo_libctx(), NULL, name);
	TEE_Result res = TEE_ERROR_GENERIC;
	uint8_t priv[32];
	uint8_t pub[32];
	size_t priv_len = sizeof(priv);
	size_t pub_len = sizeof(pub);

	if (!pk)
		return bo_fail();
	if (EVP_PKEY_get_raw_private_key(pk, priv, &priv_len) != 1 ||
	    EVP_PKEY_get_raw_public_key(pk, pub, &pub_len) != 1 || priv_len != 32 ||
	    pub_len != 32) {
		res = bo_fail();
		goto out;
	}
	res = obj_attr_set_buf(o, pub_id, pub, pub_len);
	if (!res)
		res = obj_attr_set_buf(o, priv_id, priv, priv_len);
out:
	SECURE_WIPE_VAR(priv);
	EVP_PKEY_free(pk);
	return res;
}

TEE_Result be_keygen(struct tee_obj *o, uint32_t key_size, const TEE_Attribute *params,
		     uint32_t count)
{
	TEE_Result res = be_init();

	if (res)
		return res;
	switch (o->type) {
	case TEE_TYPE_RSA_KEYPAIR:
		return rsa_keygen(o, key_size, params, count);
	case TEE_TYPE_DSA_KEYPAIR:
		return dsa_keygen(o, key_size, params, count);
	case TEE_TYPE_DH_KEYPAIR:
		return dh_keygen(o, key_size, params, count);
	case TEE_TYPE_ECDSA_KEYPAIR:
	case TEE_TYPE_ECDH_KEYPAIR:
		return ecc_keygen(o, key_size, params, count, false);
	case TEE_TYPE_SM2_DSA_KEYPAIR:
	case TEE_TYPE_SM2_KEP_KEYPAIR:
	case TEE_TYPE_SM2_PKE_KEYPAIR:
		return ecc_keygen(o, key_size, params, count, true);
	case TEE_TYPE_ED25519_KEYPAIR:
		return raw_keygen(o, "ED25519", TEE_ATTR_ED25519_PUBLIC_VALUE,
				  TEE_ATTR_ED25519_PRIVATE_VALUE);
	case TEE_TYPE_X25519_KEYPAIR:
		return raw_keygen(o, "X25519", TEE_ATTR_X25519_PUBLIC_VALUE,
				  TEE_ATTR_X25519_PRIVATE_VALUE);
	default:
		/* A public key type: there is nothing to generate (GP: BAD_PARAMETERS). */
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
