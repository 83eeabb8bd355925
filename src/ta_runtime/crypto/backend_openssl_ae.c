/*
 * The OpenSSL 3 backend: authenticated encryption.
 *
 * GCM streams through OpenSSL (or the GHASH of backend_openssl_gcm_soft.c
 * for nonces over 128 bytes). OpenSSL's CCM takes the AAD and the payload
 * in one call each, after their lengths, so CCM collects both here and runs
 * at the final call.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>

#include <tee_api_defines.h>
#include <utee_defines.h>

#include "backend_openssl.h"
#include "secure.h"

#define GCM_LIB_NONCE_MAX 128

/* A growable private buffer, wiped whenever its memory is let go. */
struct bo_bytes {
	uint8_t *p;
	size_t n;
	size_t cap;
};

struct be_ae {
	bool ccm;
	bool encrypt;
	bool started;
	bool soft; /* GCM through bo_gcm_soft */
	bool in_payload;
	size_t tag_len;
	EVP_CIPHER_CTX *ctx;
	struct bo_gcm_soft *sg;
	/* CCM */
	const EVP_CIPHER *cipher;
	uint8_t key[32];
	size_t key_len;
	uint8_t nonce[13];
	size_t nonce_len;
	size_t aad_len; /* declared */
	size_t payload_len;
	struct bo_bytes aad;
	struct bo_bytes pl;
};

static void bytes_clear(struct bo_bytes *b)
{
	if (b->p)
		secure_wipe(b->p, b->cap);
	free(b->p);
	b->p = NULL;
	b->n = 0;
	b->cap = 0;
}

static TEE_Result bytes_append(struct bo_bytes *b, const void *d, size_t len)
{
	size_t need = 0;
	uint8_t *p = NULL;

	if (!len)
		return TEE_SUCCESS;
	if (__builtin_add_overflow(b->n, len, &need))
		return TEE_ERROR_OUT_OF_MEMORY;
	if (need > b->cap) {
		size_t cap = b->cap ? b->cap : 64;

		while (cap < need)
			cap = cap > SIZE_MAX / 2 ? need : cap * 2;
		p = malloc(cap);
		if (!p)
			return TEE_ERROR_OUT_OF_MEMORY;
		if (b->n)
			memcpy(p, b->p, b->n);
		if (b->p)
			secure_wipe(b->p, b->cap);
		free(b->p);
		b->p = p;
		b->cap = cap;
	}
	/* need > 0, so p is allocated; clang-tidy 14 does not model __builtin_add_overflow. */
	/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
	memcpy(b->p + b->n, d, len);
	b->n = need;
	return TEE_SUCCESS;
}

static TEE_Result bytes_copy(struct bo_bytes *dst, const struct bo_bytes *src)
{
	bytes_clear(dst);
	return bytes_append(dst, src->p, src->n);
}

TEE_Result be_ae_new(uint32_t alg, bool encrypt, struct be_ae **out)
{
	struct be_ae *a = NULL;

	*out = NULL;
	if (!be_alg_supported(alg))
		return TEE_ERROR_NOT_SUPPORTED;
	a = calloc(1, sizeof(*a));
	if (!a)
		return TEE_ERROR_OUT_OF_MEMORY;
	a->ccm = alg == TEE_ALG_AES_CCM;
	a->encrypt = encrypt;
	a->ctx = EVP_CIPHER_CTX_new();
	if (!a->ctx) {
		free(a);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	*out = a;
	return TEE_SUCCESS;
}

void be_ae_free(struct be_ae *a)
{
	if (!a)
		return;
	EVP_CIPHER_CTX_free(a->ctx);
	bo_gcm_soft_free(a->sg);
	bytes_clear(&a->aad);
	bytes_clear(&a->pl);
	secure_wipe(a, sizeof(*a));
	free(a);
}

static TEE_Result gcm_init(struct be_ae *a, enum bo_block b, const uint8_t *key, const void *nonce,
			   size_t nonce_len)
{
	TEE_Result res = TEE_SUCCESS;
	size_t ivlen = nonce_len;
	OSSL_PARAM params[2];

	if (nonce_len > GCM_LIB_NONCE_MAX) {
		if (!a->sg) {
			res = bo_gcm_soft_new(&a->sg, a->encrypt);
			if (res)
				return res;
		}
		a->soft = true;
		return bo_gcm_soft_init(a->sg, b, key, nonce, nonce_len);
	}
	a->soft = false;
	params[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_CipherInit_ex2(a->ctx, bo_cipher(b, BO_GCM), NULL, NULL, a->encrypt, NULL) ||
	    !EVP_CIPHER_CTX_set_params(a->ctx, params) ||
	    !EVP_CipherInit_ex2(a->ctx, NULL, key, nonce, a->encrypt, NULL))
		return bo_fail();
	return TEE_SUCCESS;
}

TEE_Result be_ae_init(struct be_ae *a, const uint8_t *key, size_t key_len, const void *nonce,
		      size_t nonce_len, size_t tag_len, size_t aad_len, size_t payload_len)
{
	TEE_Result res = TEE_ERROR_GENERIC;
	const uint8_t *lib_key = NULL;
	enum bo_block b = BO_AES128;
	uint8_t kbuf[24];

	a->started = false;
	a->in_payload = false;
	bytes_clear(&a->aad);
	bytes_clear(&a->pl);
	if (bo_block_key(TEE_MAIN_ALGO_AES, key, key_len, &b, &lib_key, kbuf))
		return TEE_ERROR_BAD_PARAMETERS;
	if (!a->ccm) {
		/* GP: 128, 120, 112, 104 or 96 bits; any nonce but an empty one. */
		if (tag_len < 12 || tag_len > 16 || !nonce_len)
			return TEE_ERROR_NOT_SUPPORTED;
		res = gcm_init(a, b, key, nonce, nonce_len);
		goto out;
	}
	/* CCM (SP 800-38C): 4..16 even tag bytes, a 7..13 byte nonce. */
	if (tag_len < 4 || tag_len > 16 || tag_len % 2 || nonce_len < 7 || nonce_len > 13)
		return TEE_ERROR_NOT_SUPPORTED;
	/* The payload length has to fit the 15 - nonce_len bytes CCM gives it. */
	if (nonce_len > 7 && (uint64_t)payload_len >> (8 * (15 - nonce_len)))
		return TEE_ERROR_NOT_SUPPORTED;
	if (aad_len > INT32_MAX || payload_len > INT32_MAX)
		return TEE_ERROR_NOT_SUPPORTED;
	a->cipher = bo_cipher(b, BO_CCM);
	memcpy(a->key, key, key_len);
	a->key_len = key_len;
	memcpy(a->nonce, nonce, nonce_len);
	a->nonce_len = nonce_len;
	a->aad_len = aad_len;
	a->payload_len = payload_len;
	res = TEE_SUCCESS;
out:
	if (!res) {
		a->tag_len = tag_len;
		a->started = true;
	}
	return res;
}

TEE_Result be_ae_update_aad(struct be_ae *a, const void *data, size_t len)
{
	int outl = 0;

	if (!a->started || a->in_payload)
		return TEE_ERROR_BAD_STATE;
	if (!len)
		return TEE_SUCCESS;
	if (a->ccm) {
		if (len > a->aad_len - a->aad.n)
			return TEE_ERROR_BAD_STATE;
		return bytes_append(&a->aad, data, len);
	}
	if (a->soft) {
		bo_gcm_soft_aad(a->sg, data, len);
		return TEE_SUCCESS;
	}
	if (len > INT32_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!EVP_CipherUpdate(a->ctx, NULL, &outl, data, (int)len))
		return bo_fail();
	return TEE_SUCCESS;
}

static TEE_Result gcm_payload(struct be_ae *a, const uint8_t *in, size_t len, uint8_t *out)
{
	if (a->soft)
		return bo_gcm_soft_update(a->sg, in, len, out);
	while (len) {
		size_t n = len > (1U << 30) ? (1U << 30) : len;
		int outl = 0;

		if (!EVP_CipherUpdate(a->ctx, out, &outl, in, (int)n) || (size_t)outl != n)
			return bo_fail();
		in += n;
		out += n;
		len -= n;
	}
	return TEE_SUCCESS;
}

TEE_Result be_ae_update(struct be_ae *a, const void *in, size_t len, void *out, size_t *out_len)
{
	TEE_Result res = TEE_ERROR_GENERIC;

	*out_len = 0;
	if (!a->started)
		return TEE_ERROR_BAD_STATE;
	a->in_payload = true;
	if (a->ccm) {
		if (len > a->payload_len - a->pl.n)
			return TEE_ERROR_BAD_STATE;
		return bytes_append(&a->pl, in, len);
	}
	res = gcm_payload(a, in, len, out);
	if (!res)
		*out_len = len;
	return res;
}

size_t be_ae_pending(const struct be_ae *a)
{
	return a->ccm ? a->pl.n : 0;
}

/*
 * The whole CCM message, after the last payload bytes were appended. For a
 * decryption, tag is the one to check; OpenSSL checks it in the payload
 * call and wipes the output when it does not match.
 */
static TEE_Result ccm_run(struct be_ae *a, uint8_t *out, uint8_t *tag, const uint8_t *dec_tag)
{
	static const uint8_t empty[1];
	size_t ivlen = a->nonce_len;
	OSSL_PARAM params[3];
	uint8_t scratch[16];
	uint8_t none[1];
	int outl = 0;

	/* A NULL output would make OpenSSL take the payload for AAD. */
	if (!out)
		out = none;
	if (a->aad.n != a->aad_len || a->pl.n != a->payload_len)
		return TEE_ERROR_BAD_STATE;
	params[0] = OSSL_PARAM_construct_size_t(OSSL_CIPHER_PARAM_AEAD_IVLEN, &ivlen);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, (void *)dec_tag,
						      a->tag_len);
	params[2] = OSSL_PARAM_construct_end();
	if (!EVP_CipherInit_ex2(a->ctx, a->cipher, NULL, NULL, a->encrypt, NULL) ||
	    !EVP_CIPHER_CTX_set_params(a->ctx, params) ||
	    !EVP_CipherInit_ex2(a->ctx, NULL, a->key, a->nonce, a->encrypt, NULL) ||
	    !EVP_CipherUpdate(a->ctx, NULL, &outl, NULL, (int)a->pl.n))
		return bo_fail();
	if (a->aad.n && !EVP_CipherUpdate(a->ctx, NULL, &outl, a->aad.p, (int)a->aad.n))
		return bo_fail();
	if (!EVP_CipherUpdate(a->ctx, out, &outl, a->pl.n ? a->pl.p : empty, (int)a->pl.n)) {
		bo_fail();
		return a->encrypt ? TEE_ERROR_GENERIC : TEE_ERROR_MAC_INVALID;
	}
	if (!a->encrypt)
		return TEE_SUCCESS;
	if (!EVP_EncryptFinal_ex(a->ctx, scratch, &outl))
		return bo_fail();
	params[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, a->tag_len);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_CIPHER_CTX_get_params(a->ctx, params))
		return bo_fail();
	return TEE_SUCCESS;
}

static TEE_Result ae_final(struct be_ae *a, const uint8_t *in, size_t len, uint8_t *out,
			   size_t *out_len, uint8_t *tag, const uint8_t *dec_tag)
{
	TEE_Result res = TEE_ERROR_GENERIC;
	uint8_t full[16];
	uint8_t scratch[16];
	OSSL_PARAM params[2];
	int outl = 0;

	*out_len = 0;
	if (!a->started)
		return TEE_ERROR_BAD_STATE;
	a->in_payload = true;
	if (a->ccm) {
		if (len > a->payload_len - a->pl.n)
			return TEE_ERROR_BAD_STATE;
		res = bytes_append(&a->pl, in, len);
		if (!res)
			res = ccm_run(a, out, tag, dec_tag);
		if (!res || res == TEE_ERROR_MAC_INVALID)
			*out_len = a->pl.n;
		goto out;
	}
	res = gcm_payload(a, in, len, out);
	if (res)
		goto out;
	*out_len = len;
	if (a->soft) {
		res = bo_gcm_soft_tag(a->sg, full);
		if (res)
			goto out;
		if (a->encrypt) {
			/* Only be_ae_enc_final, which passes a tag, gets here encrypting. */
			/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
			memcpy(tag, full, a->tag_len);
		} else if (!secure_equal(full, dec_tag, a->tag_len)) {
			res = TEE_ERROR_MAC_INVALID;
		}
		goto out;
	}
	if (!a->encrypt) {
		params[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
							      (void *)dec_tag, a->tag_len);
		params[1] = OSSL_PARAM_construct_end();
		if (!EVP_CIPHER_CTX_set_params(a->ctx, params)) {
			res = bo_fail();
			goto out;
		}
		res = TEE_SUCCESS;
		if (EVP_CipherFinal_ex(a->ctx, scratch, &outl) <= 0) {
			bo_fail();
			res = TEE_ERROR_MAC_INVALID;
		}
		goto out;
	}
	params[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, tag, a->tag_len);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_CipherFinal_ex(a->ctx, scratch, &outl) ||
	    !EVP_CIPHER_CTX_get_params(a->ctx, params))
		res = bo_fail();
out:
	a->started = false;
	bytes_clear(&a->aad);
	bytes_clear(&a->pl);
	SECURE_WIPE_VAR(full);
	return res;
}

TEE_Result be_ae_enc_final(struct be_ae *a, const void *in, size_t len, void *out, size_t *out_len,
			   void *tag)
{
	if (!a->encrypt)
		return TEE_ERROR_BAD_STATE;
	return ae_final(a, in, len, out, out_len, tag, NULL);
}

TEE_Result be_ae_dec_final(struct be_ae *a, const void *in, size_t len, void *out, size_t *out_len,
			   const void *tag, size_t tag_len)
{
	if (a->encrypt)
		return TEE_ERROR_BAD_STATE;
	if (tag_len != a->tag_len)
		return TEE_ERROR_MAC_INVALID;
	return ae_final(a, in, len, out, out_len, NULL, tag);
}

TEE_Result be_ae_copy(struct be_ae *dst, const struct be_ae *src)
{
	TEE_Result res = TEE_SUCCESS;

	if (dst->ccm != src->ccm || dst->encrypt != src->encrypt)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!src->started) {
		dst->started = false;
		return TEE_SUCCESS;
	}
	if (src->soft) {
		if (!dst->sg) {
			res = bo_gcm_soft_new(&dst->sg, dst->encrypt);
			if (res)
				return res;
		}
		res = bo_gcm_soft_copy(dst->sg, src->sg);
	} else if (!src->ccm && !EVP_CIPHER_CTX_copy(dst->ctx, src->ctx)) {
		res = bo_fail();
	}
	if (!res)
		res = bytes_copy(&dst->aad, &src->aad);
	if (!res)
		res = bytes_copy(&dst->pl, &src->pl);
	if (res)
		return res;
	dst->started = true;
	dst->soft = src->soft;
	dst->in_payload = src->in_payload;
	dst->tag_len = src->tag_len;
	dst->cipher = src->cipher;
	memcpy(dst->key, src->key, sizeof(dst->key));
	dst->key_len = src->key_len;
	memcpy(dst->nonce, src->nonce, sizeof(dst->nonce));
	dst->nonce_len = src->nonce_len;
	dst->aad_len = src->aad_len;
	dst->payload_len = src->payload_len;
	return TEE_SUCCESS;
}
