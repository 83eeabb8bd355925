/*
 * The OpenSSL 3 backend: DSA, ECDSA and SM2 signatures over the digest the
 * TA computed, and SM2 encryption.
 *
 * GP signatures are r || s, each the size of the group order; OpenSSL's
 * are DER, converted both ways here. DSA and ECDSA take a digest of any
 * length, which the library cuts to the group order (FIPS 186-4 4.6, 6.4);
 * SM2 takes the number it spells (e in r = (e + x1) mod n, GM/T 0003.2
 * 6.1), which the library wants as 32 bytes: another length is reduced
 * mod n first, which gives the same r and s.
 *
 * The SM2 ciphertext is OP-TEE's, C1 || C2 || C3 (GM/T 0003.4-2012 6.1):
 * the uncompressed point 04 || x || y, the masked message, the SM3 hash;
 * OpenSSL's is the DER SEQUENCE { x, y, C3, C2 }.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>

#include <tee_api_defines.h>

#include "backend_openssl.h"
#include "secure.h"

#define SM2_C1 65 /* 04 || x || y */
#define SM2_C3 32
#define SM2_FIELD 32

/* An SM2 key: the digest as the 32 bytes of its number mod n (a 32-byte one as it is). */
static TEE_Result sm2_e(const struct be_pkey *k, const void **digest, size_t *len,
			uint8_t e[SM2_FIELD])
{
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	BIGNUM *n = NULL;
	BIGNUM *v = NULL;
	BN_CTX *bn = NULL;

	if (!k->curve || k->curve->tee != TEE_ECC_CURVE_SM2 || *len == SM2_FIELD)
		return TEE_SUCCESS;
	if (*len > INT_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	bn = BN_CTX_new_ex(bo_libctx());
	v = BN_bin2bn(*digest, (int)*len, NULL);
	if (!bn || !v || EVP_PKEY_get_bn_param(k->pk, OSSL_PKEY_PARAM_EC_ORDER, &n) != 1 ||
	    BN_nnmod(v, v, n, bn) != 1 || BN_bn2binpad(v, e, SM2_FIELD) != SM2_FIELD) {
		res = bo_fail();
		goto out;
	}
	*digest = e;
	*len = SM2_FIELD;
	res = TEE_SUCCESS;
out:
	BN_free(n);
	BN_clear_free(v);
	BN_CTX_free(bn);
	return res;
}

TEE_Result bo_dsa_sign(struct be_pkey *k, const void *digest, size_t len, void *sig,
		       size_t *sig_len)
{
	EVP_PKEY_CTX *ctx = bo_pkey_ctx(k->pk);
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t der_len = (size_t)EVP_PKEY_get_size(k->pk);
	uint8_t *der = malloc(der_len ? der_len : 1);
	uint8_t e[SM2_FIELD];

	if (!ctx || !der) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	res = sm2_e(k, &digest, &len, e);
	if (res)
		goto out;
	if (EVP_PKEY_sign_init(ctx) != 1 || EVP_PKEY_sign(ctx, der, &der_len, digest, len) != 1) {
		res = bo_fail();
		goto out;
	}
	if (!bo_sig_from_der(der, der_len, sig, k->size)) {
		res = TEE_ERROR_GENERIC;
		goto out;
	}
	*sig_len = 2 * k->size;
	res = TEE_SUCCESS;
out:
	free(der);
	EVP_PKEY_CTX_free(ctx);
	return res;
}

TEE_Result bo_dsa_verify(struct be_pkey *k, const void *digest, size_t len, const void *sig,
			 size_t sig_len)
{
	EVP_PKEY_CTX *ctx = NULL;
	TEE_Result res = TEE_ERROR_SIGNATURE_INVALID;
	uint8_t *der = NULL;
	size_t der_len = 0;
	uint8_t e[SM2_FIELD];

	if (!bo_sig_to_der(sig, sig_len, k->size, &der, &der_len))
		return TEE_ERROR_SIGNATURE_INVALID;
	res = sm2_e(k, &digest, &len, e);
	if (res)
		goto out;
	res = TEE_ERROR_SIGNATURE_INVALID;
	ctx = bo_pkey_ctx(k->pk);
	if (!ctx) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	if (EVP_PKEY_verify_init(ctx) == 1 && EVP_PKEY_verify(ctx, der, der_len, digest, len) == 1)
		res = TEE_SUCCESS;
	ERR_clear_error();
out:
	OPENSSL_free(der);
	EVP_PKEY_CTX_free(ctx);
	return res;
}

/* ---- SM2 encryption ---- */

/* Reads a DER tag and length; *len is bounded by what is left. */
static bool der_tl(const uint8_t **p, const uint8_t *end, uint8_t tag, size_t *len)
{
	size_t n = 0;

	if (end - *p < 2 || **p != tag)
		return false;
	(*p)++;
	n = *(*p)++;
	if (n & 0x80) {
		size_t bytes = n & 0x7f;

		if (!bytes || bytes > sizeof(size_t) || (size_t)(end - *p) < bytes)
			return false;
		n = 0;
		while (bytes--)
			n = (n << 8) | *(*p)++;
	}
	if ((size_t)(end - *p) < n)
		return false;
	*len = n;
	return true;
}

/* Writes a DER length into out (at least 5 bytes); returns its size. */
static size_t der_len_put(uint8_t *out, size_t len)
{
	size_t n = 0;

	if (len < 0x80) {
		out[0] = (uint8_t)len;
		return 1;
	}
	for (size_t v = len; v; v >>= 8)
		n++;
	out[0] = (uint8_t)(0x80 | n);
	for (size_t i = 0; i < n; i++)
		out[1 + i] = (uint8_t)(len >> (8 * (n - 1 - i)));
	return 1 + n;
}

/* A DER INTEGER of the big-endian unsigned number v into out (len + 7 bytes). */
static size_t der_uint(uint8_t *out, const uint8_t *v, size_t len)
{
	size_t n = 0;
	bool pad = false;

	bo_strip(&v, &len);
	pad = !len || (v[0] & 0x80);
	out[0] = 0x02;
	n = 1 + der_len_put(out + 1, len + pad);
	if (pad)
		out[n++] = 0;
	memcpy(out + n, v, len);
	return n + len;
}

TEE_Result bo_sm2_encrypt(struct be_pkey *k, const void *in, size_t len, void *out, size_t *out_len)
{
	EVP_PKEY_CTX *ctx = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	const uint8_t *p = NULL;
	const uint8_t *end = NULL;
	uint8_t *der = NULL;
	uint8_t *o = out;
	size_t der_len = 0;
	size_t n = 0;
	size_t x_len = 0;
	size_t y_len = 0;
	const uint8_t *x = NULL;
	const uint8_t *y = NULL;

	if (!len)
		return TEE_ERROR_BAD_PARAMETERS;
	ctx = bo_pkey_ctx(k->pk);
	if (!ctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (EVP_PKEY_encrypt_init(ctx) != 1 ||
	    EVP_PKEY_encrypt(ctx, NULL, &der_len, in, len) != 1) {
		res = bo_fail();
		goto out;
	}
	der = malloc(der_len);
	if (!der) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	if (EVP_PKEY_encrypt(ctx, der, &der_len, in, len) != 1) {
		res = bo_fail();
		goto out;
	}
	/* SEQUENCE { INTEGER x, INTEGER y, OCTET STRING C3, OCTET STRING C2 } */
	p = der;
	end = der + der_len;
	if (!der_tl(&p, end, 0x30, &n) || p + n != end || !der_tl(&p, end, 0x02, &x_len))
		goto out;
	x = p;
	p += x_len;
	if (!der_tl(&p, end, 0x02, &y_len))
		goto out;
	y = p;
	p += y_len;
	if (!der_tl(&p, end, 0x04, &n) || n != SM2_C3)
		goto out;
	o[0] = 0x04;
	memcpy(o + SM2_C1 + len, p, SM2_C3);
	p += n;
	if (!der_tl(&p, end, 0x04, &n) || n != len || p + n != end)
		goto out;
	memcpy(o + SM2_C1, p, n);
	bo_strip(&x, &x_len);
	bo_strip(&y, &y_len);
	if (x_len > SM2_FIELD || y_len > SM2_FIELD)
		goto out;
	memset(o + 1, 0, 2 * SM2_FIELD);
	memcpy(o + 1 + SM2_FIELD - x_len, x, x_len);
	memcpy(o + 1 + 2 * SM2_FIELD - y_len, y, y_len);
	*out_len = SM2_C1 + SM2_C3 + len;
	res = TEE_SUCCESS;
out:
	free(der);
	EVP_PKEY_CTX_free(ctx);
	return res;
}

TEE_Result bo_sm2_decrypt(struct be_pkey *k, const void *in, size_t len, void *out, size_t *out_len)
{
	const uint8_t *c = in;
	EVP_PKEY_CTX *ctx = NULL;
	TEE_Result res = TEE_ERROR_CIPHERTEXT_INVALID;
	size_t c2_len = 0;
	size_t body = 0;
	size_t cap = 0;
	size_t n = 0;
	size_t m = 0;
	uint8_t *der = NULL;
	uint8_t *plain = NULL;
	size_t plain_cap = 0;

	if (len <= SM2_C1 + SM2_C3 || c[0] != 0x04)
		return TEE_ERROR_CIPHERTEXT_INVALID;
	c2_len = len - SM2_C1 - SM2_C3;
	if (c2_len > SIZE_MAX / 2)
		return TEE_ERROR_CIPHERTEXT_INVALID;
	cap = 2 * (SM2_FIELD + 7) + (SM2_C3 + 6) + (c2_len + 6) + 6;
	der = malloc(cap);
	if (!der)
		return TEE_ERROR_OUT_OF_MEMORY;
	/* The body first, after room for the SEQUENCE header. */
	n = 6;
	n += der_uint(der + n, c + 1, SM2_FIELD);
	n += der_uint(der + n, c + 1 + SM2_FIELD, SM2_FIELD);
	der[n++] = 0x04;
	n += der_len_put(der + n, SM2_C3);
	memcpy(der + n, c + SM2_C1 + c2_len, SM2_C3);
	n += SM2_C3;
	der[n++] = 0x04;
	n += der_len_put(der + n, c2_len);
	memcpy(der + n, c + SM2_C1, c2_len);
	n += c2_len;
	body = n - 6;
	{
		uint8_t hdr[6];
		size_t h = 1 + der_len_put(hdr + 1, body);

		hdr[0] = 0x30;
		memcpy(der + 6 - h, hdr, h);
		m = 6 - h;
	}
	/* The library wants room for its bound on the plaintext, below the DER's size. */
	plain_cap = 6 - m + body;
	plain = malloc(plain_cap);
	ctx = bo_pkey_ctx(k->pk);
	if (!ctx || !plain) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	n = plain_cap;
	/* A point off the curve, a wrong hash: one answer. */
	if (EVP_PKEY_decrypt_init(ctx) != 1 ||
	    EVP_PKEY_decrypt(ctx, plain, &n, der + m, 6 - m + body) != 1 || n != c2_len) {
		ERR_clear_error();
		goto out;
	}
	memcpy(out, plain, n);
	*out_len = n;
	res = TEE_SUCCESS;
out:
	if (plain)
		secure_wipe(plain, plain_cap);
	free(plain);
	free(der);
	EVP_PKEY_CTX_free(ctx);
	return res;
}
