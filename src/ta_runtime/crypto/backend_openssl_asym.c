/*
 * The OpenSSL 3 backend: the asymmetric operations by algorithm family,
 * and Ed25519 (RFC 8032), which OpenSSL 3.0 signs only in its pure form;
 * the context and pre-hash forms are backend_openssl_ed25519.c.
 */
#include <string.h>

#include <openssl/err.h>

#include <tee_api_defines.h>
#include <utee_defines.h>

#include "backend_openssl.h"
#include "secure.h"

/* The seed and public key of an Ed25519 key object for the dom2 forms. */
static bool ed25519_parts(struct be_pkey *k, const uint8_t **priv, uint8_t pub[32])
{
	size_t len = 32;

	*priv = NULL;
	if (k->obj->type & OBJ_TYPE_KEYPAIR_BIT) {
		if (!bo_attr(k->obj, TEE_ATTR_ED25519_PRIVATE_VALUE, priv, &len) || len != 32)
			return false;
	}
	len = 32;
	return EVP_PKEY_get_raw_public_key(k->pk, pub, &len) == 1 && len == 32;
}

/* The pure form: no context, no pre-hash (an empty context is none). */
static bool ed25519_pure(const struct be_asym_params *p)
{
	return !p->prehash && !p->ctx_len;
}

static TEE_Result ed25519_sign(struct be_pkey *k, const struct be_asym_params *p, const void *msg,
			       size_t len, uint8_t *sig, size_t *sig_len)
{
	EVP_MD_CTX *mctx = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	const uint8_t *priv = NULL;
	uint8_t pub[32];
	size_t n = 64;

	if (!ed25519_pure(p)) {
		if (!ed25519_parts(k, &priv, pub) || !priv)
			return TEE_ERROR_BAD_PARAMETERS;
		res = bo_ed25519_dom_sign(priv, pub, p->prehash, p->ctx, p->ctx_len, msg, len, sig);
		if (!res)
			*sig_len = 64;
		return res;
	}
	mctx = EVP_MD_CTX_new();
	if (!mctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (EVP_DigestSignInit_ex(mctx, NULL, NULL, bo_libctx(), NULL, k->pk, NULL) != 1 ||
	    EVP_DigestSign(mctx, sig, &n, msg, len) != 1 || n != 64) {
		res = bo_fail();
		goto out;
	}
	*sig_len = n;
	res = TEE_SUCCESS;
out:
	EVP_MD_CTX_free(mctx);
	return res;
}

static TEE_Result ed25519_verify(struct be_pkey *k, const struct be_asym_params *p, const void *msg,
				 size_t len, const void *sig, size_t sig_len)
{
	EVP_MD_CTX *mctx = NULL;
	TEE_Result res = TEE_ERROR_SIGNATURE_INVALID;
	const uint8_t *priv = NULL;
	uint8_t pub[32];

	if (!ed25519_pure(p)) {
		if (!ed25519_parts(k, &priv, pub))
			return TEE_ERROR_BAD_PARAMETERS;
		return bo_ed25519_dom_verify(pub, p->prehash, p->ctx, p->ctx_len, msg, len, sig,
					     sig_len);
	}
	if (sig_len != 64)
		return TEE_ERROR_SIGNATURE_INVALID;
	mctx = EVP_MD_CTX_new();
	if (!mctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (EVP_DigestVerifyInit_ex(mctx, NULL, NULL, bo_libctx(), NULL, k->pk, NULL) == 1 &&
	    EVP_DigestVerify(mctx, sig, sig_len, msg, len) == 1)
		res = TEE_SUCCESS;
	ERR_clear_error();
	EVP_MD_CTX_free(mctx);
	return res;
}

TEE_Result be_asym_encrypt(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			   const void *in, size_t len, void *out, size_t *out_len)
{
	switch (TEE_ALG_GET_MAIN_ALG(alg)) {
	case TEE_MAIN_ALGO_RSA:
		return bo_rsa_encrypt(alg, k, p, in, len, out, out_len);
	case TEE_MAIN_ALGO_SM2_PKE:
		return bo_sm2_encrypt(k, in, len, out, out_len);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}

TEE_Result be_asym_decrypt(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			   const void *in, size_t len, void *out, size_t *out_len)
{
	switch (TEE_ALG_GET_MAIN_ALG(alg)) {
	case TEE_MAIN_ALGO_RSA:
		return bo_rsa_decrypt(alg, k, p, in, len, out, out_len);
	case TEE_MAIN_ALGO_SM2_PKE:
		return bo_sm2_decrypt(k, in, len, out, out_len);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}

TEE_Result be_sign(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
		   const void *digest, size_t len, void *sig, size_t *sig_len)
{
	switch (TEE_ALG_GET_MAIN_ALG(alg)) {
	case TEE_MAIN_ALGO_RSA:
		return bo_rsa_sign(alg, k, p, digest, len, sig, sig_len);
	case TEE_MAIN_ALGO_DSA:
	case TEE_MAIN_ALGO_ECDSA:
	case TEE_MAIN_ALGO_SM2_DSA_SM3:
		return bo_dsa_sign(k, digest, len, sig, sig_len);
	case TEE_MAIN_ALGO_ED25519:
		return ed25519_sign(k, p, digest, len, sig, sig_len);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}

TEE_Result be_verify(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
		     const void *digest, size_t len, const void *sig, size_t sig_len)
{
	switch (TEE_ALG_GET_MAIN_ALG(alg)) {
	case TEE_MAIN_ALGO_RSA:
		return bo_rsa_verify(alg, k, p, digest, len, sig, sig_len);
	case TEE_MAIN_ALGO_DSA:
	case TEE_MAIN_ALGO_ECDSA:
	case TEE_MAIN_ALGO_SM2_DSA_SM3:
		return bo_dsa_verify(k, digest, len, sig, sig_len);
	case TEE_MAIN_ALGO_ED25519:
		return ed25519_verify(k, p, digest, len, sig, sig_len);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
