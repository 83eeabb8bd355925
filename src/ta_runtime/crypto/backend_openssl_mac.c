/*
 * The OpenSSL 3 backend: MACs. HMAC and CMAC are OpenSSL's EVP_MACs;
 * CBC-MAC (without padding, or with PKCS#5 padding) is the last block of a
 * CBC encryption under a zero IV, which OpenSSL's CBC mode computes.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>

#include <tee_api_defines.h>
#include <utee_defines.h>

#include "backend_openssl.h"
#include "secure.h"

#define CBC_CHUNK 512

enum bo_mac_kind {
	BO_MAC_HMAC,
	BO_MAC_CMAC,
	BO_MAC_CBC,
};

struct be_mac {
	enum bo_mac_kind kind;
	uint32_t main;	      /* TEE_MAIN_ALGO_* of the block cipher (CMAC, CBC-MAC) */
	EVP_MAC_CTX *mctx;    /* HMAC, CMAC */
	EVP_CIPHER_CTX *cctx; /* CBC-MAC */
	bool pkcs5;
	bool started; /* keyed by be_mac_init */
	size_t bs;
	uint8_t last[16]; /* CBC-MAC: the last ciphertext block so far */
};

static TEE_Result mac_hmac_new(struct be_mac *m, uint32_t alg)
{
	const EVP_MD *md = bo_md(TEE_ALG_HASH_ALGO(TEE_ALG_GET_MAIN_ALG(alg)));
	EVP_MAC *mac = bo_mac_hmac();
	OSSL_PARAM params[2];

	if (!md || !mac)
		return TEE_ERROR_NOT_SUPPORTED;
	m->mctx = EVP_MAC_CTX_new(mac);
	if (!m->mctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
						     (char *)EVP_MD_get0_name(md), 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_MAC_CTX_set_params(m->mctx, params))
		return bo_fail();
	m->kind = BO_MAC_HMAC;
	return TEE_SUCCESS;
}

TEE_Result be_mac_new(uint32_t alg, struct be_mac **out)
{
	TEE_Result res = TEE_ERROR_GENERIC;
	struct be_mac *m = NULL;

	*out = NULL;
	if (!be_alg_supported(alg))
		return TEE_ERROR_NOT_SUPPORTED;
	m = calloc(1, sizeof(*m));
	if (!m)
		return TEE_ERROR_OUT_OF_MEMORY;
	m->main = TEE_ALG_GET_MAIN_ALG(alg);
	switch (alg) {
	case TEE_ALG_AES_CMAC:
	case TEE_ALG_DES3_CMAC:
		m->kind = BO_MAC_CMAC;
		m->mctx = EVP_MAC_CTX_new(bo_mac_cmac());
		res = m->mctx ? TEE_SUCCESS : TEE_ERROR_OUT_OF_MEMORY;
		break;
	case TEE_ALG_AES_CBC_MAC_PKCS5:
	case TEE_ALG_DES_CBC_MAC_PKCS5:
	case TEE_ALG_DES3_CBC_MAC_PKCS5:
		m->pkcs5 = true;
		/* fallthrough */
	case TEE_ALG_AES_CBC_MAC_NOPAD:
	case TEE_ALG_DES_CBC_MAC_NOPAD:
	case TEE_ALG_DES3_CBC_MAC_NOPAD:
		m->kind = BO_MAC_CBC;
		m->cctx = EVP_CIPHER_CTX_new();
		res = m->cctx ? TEE_SUCCESS : TEE_ERROR_OUT_OF_MEMORY;
		break;
	default:
		res = mac_hmac_new(m, alg);
		break;
	}
	if (res) {
		be_mac_free(m);
		return res;
	}
	*out = m;
	return TEE_SUCCESS;
}

void be_mac_free(struct be_mac *m)
{
	if (!m)
		return;
	EVP_MAC_CTX_free(m->mctx);
	EVP_CIPHER_CTX_free(m->cctx);
	secure_wipe(m, sizeof(*m));
	free(m);
}

TEE_Result be_mac_init(struct be_mac *m, const uint8_t *key, size_t key_len)
{
	static const uint8_t zero_iv[16];
	TEE_Result res = TEE_ERROR_GENERIC;
	const uint8_t *lib_key = key;
	uint8_t kbuf[24];
	enum bo_block b = BO_AES128;
	OSSL_PARAM params[2];

	m->started = false;
	if (m->kind == BO_MAC_HMAC) {
		if (!EVP_MAC_init(m->mctx, key, key_len, NULL))
			return bo_fail();
		m->started = true;
		return TEE_SUCCESS;
	}
	if (bo_block_key(m->main, key, key_len, &b, &lib_key, kbuf))
		return TEE_ERROR_BAD_PARAMETERS;
	m->bs = bo_block_size(b);
	if (m->kind == BO_MAC_CMAC) {
		params[0] = OSSL_PARAM_construct_utf8_string(
		    OSSL_MAC_PARAM_CIPHER, (char *)EVP_CIPHER_get0_name(bo_cipher(b, BO_CBC)), 0);
		params[1] = OSSL_PARAM_construct_end();
		res = TEE_SUCCESS;
		if (!EVP_MAC_init(m->mctx, lib_key,
				  (size_t)EVP_CIPHER_get_key_length(bo_cipher(b, BO_CBC)), params))
			res = bo_fail();
		goto out;
	}
	memset(m->last, 0, sizeof(m->last));
	res = TEE_SUCCESS;
	if (!EVP_EncryptInit_ex2(m->cctx, bo_cipher(b, BO_CBC), lib_key, zero_iv, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(m->cctx, m->pkcs5 ? 1 : 0))
		res = bo_fail();
out:
	m->started = res == TEE_SUCCESS;
	SECURE_WIPE_VAR(kbuf);
	return res;
}

TEE_Result be_mac_update(struct be_mac *m, const void *data, size_t len)
{
	const uint8_t *in = data;
	uint8_t scratch[CBC_CHUNK + 16];
	TEE_Result res = TEE_SUCCESS;

	if (m->kind != BO_MAC_CBC) {
		if (len && !EVP_MAC_update(m->mctx, data, len))
			return bo_fail();
		return TEE_SUCCESS;
	}
	while (len) {
		size_t n = len < CBC_CHUNK ? len : CBC_CHUNK;
		int outl = 0;

		if (!EVP_EncryptUpdate(m->cctx, scratch, &outl, in, (int)n)) {
			res = bo_fail();
			break;
		}
		if ((size_t)outl >= m->bs)
			memcpy(m->last, scratch + outl - m->bs, m->bs);
		in += n;
		len -= n;
	}
	SECURE_WIPE_VAR(scratch);
	return res;
}

TEE_Result be_mac_final(struct be_mac *m, void *out, size_t len)
{
	uint8_t scratch[16];
	size_t n = len;
	int outl = 0;

	if (m->kind != BO_MAC_CBC) {
		if (!EVP_MAC_final(m->mctx, out, &n, len) || n != len)
			return bo_fail();
		return TEE_SUCCESS;
	}
	if (len != m->bs)
		return TEE_ERROR_BAD_PARAMETERS;
	/* Without padding a partial last block makes this fail. */
	if (!EVP_EncryptFinal_ex(m->cctx, scratch, &outl)) {
		bo_fail();
		return TEE_ERROR_BAD_PARAMETERS;
	}
	if ((size_t)outl == m->bs)
		memcpy(m->last, scratch, m->bs);
	memcpy(out, m->last, m->bs);
	SECURE_WIPE_VAR(scratch);
	return TEE_SUCCESS;
}

TEE_Result be_mac_copy(struct be_mac *dst, const struct be_mac *src)
{
	EVP_MAC_CTX *dup = NULL;

	if (dst->kind != src->kind || dst->main != src->main || dst->pkcs5 != src->pkcs5)
		return TEE_ERROR_BAD_PARAMETERS;
	dst->started = src->started;
	if (!src->started)
		return TEE_SUCCESS; /* nothing to copy; dst is keyed before use */
	if (src->kind == BO_MAC_CBC) {
		if (!EVP_CIPHER_CTX_copy(dst->cctx, src->cctx))
			return bo_fail();
	} else {
		dup = EVP_MAC_CTX_dup(src->mctx);
		if (!dup)
			return bo_fail();
		EVP_MAC_CTX_free(dst->mctx);
		dst->mctx = dup;
	}
	dst->bs = src->bs;
	memcpy(dst->last, src->last, sizeof(dst->last));
	return TEE_SUCCESS;
}
