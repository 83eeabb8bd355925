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

/*
 * A key size as OP-TEE counts a DH or DSA prime's: 8 times its length in
 * bytes, leading zeros left out, so a 256-byte prime is a 2048-bit key
 * whatever its top byte (0 without the attribute).
 */
static uint32_t param_size_bits(const TEE_Attribute *params, uint32_t count, uint32_t id)
{
	const TEE_Attribute *a = param(params, count, id);
	const uint8_t *p = NULL;
	size_t len = 0;

	if (!a)
		return 0;
	p = a->content.ref.buffer;
	len = a->content.ref.length;
	bo_strip(&p, &len);
	return len > UINT32_MAX / 8 ? 0 : (uint32_t)(len * 8);
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

/* A parameter as an integer; NULL (nothing in *bn) when absent, false on failure. */
static bool param_bn(const TEE_Attribute *params, uint32_t count, uint32_t id, BIGNUM *bn)
{
	const TEE_Attribute *a = param(params, count, id);

	return a && BN_bin2bn(a->content.ref.buffer, (int)a->content.ref.length, bn);
}

/* The integers of a DSA or DH key generation, x constant time. */
struct ffc_nums {
	BIGNUM *p, *q, *g, *x, *y, *t;
};

/* Takes them from bc (started); false when out of memory. */
static bool ffc_nums_get(BN_CTX *bc, struct ffc_nums *n)
{
	n->p = BN_CTX_get(bc);
	n->q = BN_CTX_get(bc);
	n->g = BN_CTX_get(bc);
	n->y = BN_CTX_get(bc);
	n->t = BN_CTX_get(bc);
	n->x = new_secret(bc);
	return n->x != NULL;
}

/* x uniform in 1..n-1 (in constant-time integers) and y = g^x mod p. */
static bool ffc_pair(BIGNUM *x, BIGNUM *y, const BIGNUM *g, const BIGNUM *p, const BIGNUM *n,
		     BN_CTX *bc)
{
	BIGNUM *lim = BN_CTX_get(bc);

	return lim && BN_sub(lim, n, BN_value_one()) && BN_priv_rand_range_ex(x, lim, 0, bc) &&
	       BN_add(x, x, BN_value_one()) && BN_mod_exp_mont_consttime(y, g, x, p, bc, NULL);
}

/*
 * DSA: x uniform in 1..q-1 (FIPS 186-4 B.1.2), drawn here because
 * OpenSSL's generator takes only FIPS 186-4's (L, N) pairs and OP-TEE's
 * sizes go from 512 bits in steps of 64.
 */
static TEE_Result dsa_keygen(struct tee_obj *o, uint32_t bits, const TEE_Attribute *params,
			     uint32_t count)
{
	static const uint32_t domain[] = {TEE_ATTR_DSA_PRIME, TEE_ATTR_DSA_SUBPRIME,
					  TEE_ATTR_DSA_BASE};
	BN_CTX *bc = BN_CTX_secure_new_ex(bo_libctx());
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	struct ffc_nums n;

	if (!bc)
		return res;
	BN_CTX_start(bc);
	if (!ffc_nums_get(bc, &n))
		goto out;
	res = TEE_ERROR_BAD_PARAMETERS;
	/* A prime of the size asked (in whole bytes, as OP-TEE), 1 < q < p, 1 < g < p */
	if (param_size_bits(params, count, TEE_ATTR_DSA_PRIME) != bits ||
	    !param_bn(params, count, TEE_ATTR_DSA_PRIME, n.p) ||
	    !param_bn(params, count, TEE_ATTR_DSA_SUBPRIME, n.q) ||
	    !param_bn(params, count, TEE_ATTR_DSA_BASE, n.g) || !BN_is_odd(n.p) ||
	    BN_cmp(n.q, BN_value_one()) <= 0 || BN_cmp(n.q, n.p) >= 0 ||
	    BN_cmp(n.g, BN_value_one()) <= 0 || BN_cmp(n.g, n.p) >= 0)
		goto out;
	res = TEE_ERROR_GENERIC;
	if (!ffc_pair(n.x, n.y, n.g, n.p, n.q, bc))
		goto out;
	res = put_domain(o, params, count, domain, sizeof(domain) / sizeof(domain[0]));
	if (!res)
		res = put_bn(o, TEE_ATTR_DSA_PUBLIC_VALUE, n.y, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_DSA_PRIVATE_VALUE, n.x, 0);
out:
	if (res == TEE_ERROR_GENERIC)
		res = bo_fail();
	ERR_clear_error();
	BN_CTX_end(bc);
	BN_CTX_free(bc);
	return res;
}

/*
 * DH: the private value is drawn here rather than by OpenSSL, whose
 * generator sizes it its own way for the groups it knows (RFC 7919's):
 * TEE_ATTR_DH_X_BITS bits exactly when given (its top bit set, as OP-TEE
 * does), else (or when 0: OP-TEE's "choose") uniform in 1..q-1 with a
 * subprime, else in 1..p-2. TEE_ATTR_DH_X_BITS is kept, 0 when absent, as
 * OP-TEE keeps it.
 */
static TEE_Result dh_keygen(struct tee_obj *o, uint32_t bits, const TEE_Attribute *params,
			    uint32_t count)
{
	static const uint32_t domain[] = {TEE_ATTR_DH_PRIME, TEE_ATTR_DH_BASE,
					  TEE_ATTR_DH_SUBPRIME};
	const TEE_Attribute *xa = param(params, count, TEE_ATTR_DH_X_BITS);
	uint32_t xbits = xa ? xa->content.value.a : 0;
	BN_CTX *bc = BN_CTX_secure_new_ex(bo_libctx());
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	struct ffc_nums n;
	bool has_q = false;

	if (!bc)
		return res;
	BN_CTX_start(bc);
	if (!ffc_nums_get(bc, &n))
		goto out;
	res = TEE_ERROR_BAD_PARAMETERS;
	has_q = param_bn(params, count, TEE_ATTR_DH_SUBPRIME, n.q);
	/*
	 * A prime of the size asked (in whole bytes, as OP-TEE), a base in
	 * 2..p-2, a private value smaller than both
	 */
	if (param_size_bits(params, count, TEE_ATTR_DH_PRIME) != bits ||
	    !param_bn(params, count, TEE_ATTR_DH_PRIME, n.p) ||
	    !param_bn(params, count, TEE_ATTR_DH_BASE, n.g) || !BN_is_odd(n.p) ||
	    BN_cmp(n.g, BN_value_one()) <= 0 || !BN_sub(n.t, n.p, BN_value_one()) ||
	    BN_cmp(n.g, n.t) >= 0 || (has_q && (BN_is_zero(n.q) || BN_cmp(n.q, n.p) >= 0)))
		goto out;
	if (xbits >= bits || (has_q && xbits >= (uint32_t)BN_num_bits(n.q)))
		goto out;
	res = TEE_ERROR_GENERIC;
	if (xbits) {
		if (!BN_priv_rand_ex(n.x, (int)xbits, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY, 0, bc) ||
		    !BN_mod_exp_mont_consttime(n.y, n.g, n.x, n.p, bc, NULL))
			goto out;
	} else if (!ffc_pair(n.x, n.y, n.g, n.p, has_q ? n.q : n.t, bc)) {
		goto out;
	}
	res = put_domain(o, params, count, domain, sizeof(domain) / sizeof(domain[0]));
	if (!res)
		res = put_bn(o, TEE_ATTR_DH_PUBLIC_VALUE, n.y, 0);
	if (!res)
		res = put_bn(o, TEE_ATTR_DH_PRIVATE_VALUE, n.x, 0);
	if (!res)
		res = obj_attr_set_value(o, TEE_ATTR_DH_X_BITS, xbits, 0);
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
