/*
 * The OpenSSL 3 backend: authenticated encryption.
 *
 * GCM streams through OpenSSL (or the GHASH of backend_openssl_gcm_soft.c
 * for nonces over 128 bytes). OpenSSL's CCM takes the AAD and the payload
 * in one call each, so CCM is composed here from NIST SP 800-38C out of
 * OpenSSL's AES: the CBC-MAC through AES-CBC with a zero IV (whose last
 * output block is the MAC so far), the payload through AES-CTR started at
 * counter block 0, whose first block of keystream masks the tag. Both
 * stream, so CCM outputs payload as it comes, like GCM.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>

#include <tee_api_defines.h>
#include <utee_defines.h>

#include "backend_openssl.h"
#include "secure.h"

#define GCM_LIB_NONCE_MAX 128
#define CCM_BLOCK 16

struct be_ae {
	bool ccm;
	bool encrypt;
	bool started;
	bool soft; /* GCM through bo_gcm_soft */
	bool in_payload;
	size_t tag_len;
	EVP_CIPHER_CTX *ctx; /* GCM; CCM's CTR */
	struct bo_gcm_soft *sg;
	/* CCM */
	EVP_CIPHER_CTX *mac;	 /* AES-CBC: the CBC-MAC */
	uint8_t x[CCM_BLOCK];	 /* the CBC-MAC of the whole blocks so far */
	uint8_t part[CCM_BLOCK]; /* MAC input short of a block */
	size_t part_n;
	uint8_t s0[CCM_BLOCK]; /* E(K, Ctr0), masks the tag */
	size_t aad_len;	       /* declared */
	size_t aad_n;	       /* taken */
	size_t payload_len;
	size_t payload_n;
};

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
	if (a->ccm)
		a->mac = EVP_CIPHER_CTX_new();
	if (!a->ctx || (a->ccm && !a->mac)) {
		be_ae_free(a);
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
	EVP_CIPHER_CTX_free(a->mac);
	bo_gcm_soft_free(a->sg);
	secure_wipe(a, sizeof(*a));
	free(a);
}

/* len bytes through a streaming library context (GCM, CTR), in int-sized steps. */
static TEE_Result lib_stream(EVP_CIPHER_CTX *ctx, const uint8_t *in, size_t len, uint8_t *out)
{
	while (len) {
		size_t n = len > (1U << 30) ? (1U << 30) : len;
		int outl = 0;

		if (!EVP_CipherUpdate(ctx, out, &outl, in, (int)n) || (size_t)outl != n)
			return bo_fail();
		in += n;
		out += n;
		len -= n;
	}
	return TEE_SUCCESS;
}

/* ---- CCM ---- */

/* len whole blocks through the CBC-MAC. */
static TEE_Result ccm_mac_blocks(struct be_ae *a, const uint8_t *in, size_t len)
{
	uint8_t out[256];
	TEE_Result res = TEE_SUCCESS;

	while (len && !res) {
		size_t n = len > sizeof(out) ? sizeof(out) : len;
		int outl = 0;

		if (!EVP_EncryptUpdate(a->mac, out, &outl, in, (int)n) || (size_t)outl != n) {
			res = bo_fail();
			break;
		}
		memcpy(a->x, out + n - CCM_BLOCK, CCM_BLOCK);
		in += n;
		len -= n;
	}
	SECURE_WIPE_VAR(out);
	return res;
}

/* MAC input of any length: whole blocks go through, the rest waits in part. */
static TEE_Result ccm_mac(struct be_ae *a, const uint8_t *in, size_t len)
{
	TEE_Result res = TEE_SUCCESS;
	size_t n = 0;

	if (a->part_n) {
		n = CCM_BLOCK - a->part_n;
		if (n > len)
			n = len;
		memcpy(a->part + a->part_n, in, n);
		a->part_n += n;
		in += n;
		len -= n;
		if (a->part_n < CCM_BLOCK)
			return TEE_SUCCESS;
		res = ccm_mac_blocks(a, a->part, CCM_BLOCK);
		a->part_n = 0;
		if (res)
			return res;
	}
	n = len - len % CCM_BLOCK;
	res = ccm_mac_blocks(a, in, n);
	if (res)
		return res;
	memcpy(a->part, in + n, len - n);
	a->part_n = len - n;
	return TEE_SUCCESS;
}

/* Ends a MAC input (the AAD, the payload) with zeros to a whole block. */
static TEE_Result ccm_mac_pad(struct be_ae *a)
{
	TEE_Result res = TEE_SUCCESS;

	if (!a->part_n)
		return TEE_SUCCESS;
	memset(a->part + a->part_n, 0, CCM_BLOCK - a->part_n);
	res = ccm_mac_blocks(a, a->part, CCM_BLOCK);
	a->part_n = 0;
	return res;
}

/* v as a big-endian number of n bytes. */
static void put_be(uint8_t *p, size_t n, uint64_t v)
{
	while (n--) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

/*
 * Keys CCM and runs B0 and the AAD length through the MAC (SP 800-38C
 * A.2): q = 15 - nonce_len bytes carry the payload length and the counter.
 */
static TEE_Result ccm_init(struct be_ae *a, enum bo_block b, const uint8_t *key,
			   const uint8_t *nonce, size_t nonce_len)
{
	static const uint8_t zero[CCM_BLOCK];
	size_t q = 15 - nonce_len;
	uint8_t blk[CCM_BLOCK] = {0};
	uint8_t hdr[6] = {0};
	size_t hdr_len = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	a->part_n = 0;
	a->aad_n = 0;
	a->payload_n = 0;
	memset(a->x, 0, sizeof(a->x));
	if (!EVP_EncryptInit_ex2(a->mac, bo_cipher(b, BO_CBC), key, zero, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(a->mac, 0))
		return bo_fail();
	/* B0: flags (Adata, the tag's and q's sizes), the nonce, the payload length */
	blk[0] = (uint8_t)((a->aad_len ? 0x40 : 0) | ((a->tag_len - 2) / 2) << 3 | (q - 1));
	memcpy(blk + 1, nonce, nonce_len);
	put_be(blk + 1 + nonce_len, q, a->payload_len);
	res = ccm_mac_blocks(a, blk, CCM_BLOCK);
	if (res)
		goto out;
	/* The AAD length: two bytes below 2^16 - 2^8, else 0xfffe and four (it is < 2^32) */
	if (a->aad_len && a->aad_len < 0xff00) {
		put_be(hdr, 2, a->aad_len);
		hdr_len = 2;
	} else if (a->aad_len) {
		hdr[0] = 0xff;
		hdr[1] = 0xfe;
		put_be(hdr + 2, 4, a->aad_len);
		hdr_len = 6;
	}
	res = ccm_mac(a, hdr, hdr_len);
	if (res)
		goto out;
	/* Ctr0 = q - 1, the nonce, a zero counter; its keystream is S0, then Ctr1 on */
	memset(blk, 0, sizeof(blk));
	blk[0] = (uint8_t)(q - 1);
	memcpy(blk + 1, nonce, nonce_len);
	if (!EVP_EncryptInit_ex2(a->ctx, bo_cipher(b, BO_CTR), key, blk, NULL)) {
		res = bo_fail();
		goto out;
	}
	res = lib_stream(a->ctx, zero, CCM_BLOCK, a->s0);
out:
	SECURE_WIPE_VAR(blk);
	return res;
}

/* The AAD is over when the payload starts: it must be all there. */
static TEE_Result ccm_payload_start(struct be_ae *a)
{
	if (a->in_payload)
		return TEE_SUCCESS;
	if (a->aad_n != a->aad_len)
		return TEE_ERROR_BAD_STATE;
	a->in_payload = true;
	return ccm_mac_pad(a);
}

static TEE_Result ccm_payload(struct be_ae *a, const uint8_t *in, size_t len, uint8_t *out)
{
	TEE_Result res = ccm_payload_start(a);

	if (res)
		return res;
	if (len > a->payload_len - a->payload_n)
		return TEE_ERROR_BAD_STATE;
	if (!len)
		return TEE_SUCCESS;
	/* The MAC is over the plaintext: before encrypting, after decrypting (in place too). */
	if (a->encrypt)
		res = ccm_mac(a, in, len);
	if (!res)
		res = lib_stream(a->ctx, in, len, out);
	if (!res && !a->encrypt)
		res = ccm_mac(a, out, len);
	if (!res)
		a->payload_n += len;
	return res;
}

/* The full tag after the last payload byte: T masked with S0. */
static TEE_Result ccm_tag(struct be_ae *a, uint8_t tag[CCM_BLOCK])
{
	TEE_Result res = ccm_payload_start(a);

	if (!res && a->payload_n != a->payload_len)
		res = TEE_ERROR_BAD_STATE;
	if (!res)
		res = ccm_mac_pad(a);
	if (res)
		return res;
	for (size_t i = 0; i < CCM_BLOCK; i++)
		tag[i] = a->x[i] ^ a->s0[i];
	return TEE_SUCCESS;
}

/* ---- GCM ---- */

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

static TEE_Result gcm_payload(struct be_ae *a, const uint8_t *in, size_t len, uint8_t *out)
{
	a->in_payload = true;
	if (a->soft)
		return bo_gcm_soft_update(a->sg, in, len, out);
	return lib_stream(a->ctx, in, len, out);
}

/* The full GCM tag (encryption), or the check of dec_tag (decryption). */
static TEE_Result gcm_tag(struct be_ae *a, uint8_t full[16], const uint8_t *dec_tag)
{
	TEE_Result res = TEE_SUCCESS;
	uint8_t scratch[16];
	OSSL_PARAM params[2];
	int outl = 0;

	if (a->soft) {
		res = bo_gcm_soft_tag(a->sg, full);
		if (!res && !a->encrypt && !secure_equal(full, dec_tag, a->tag_len))
			res = TEE_ERROR_MAC_INVALID;
		return res;
	}
	if (!a->encrypt) {
		/* OpenSSL compares in constant time. */
		params[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG,
							      (void *)dec_tag, a->tag_len);
		params[1] = OSSL_PARAM_construct_end();
		if (!EVP_CIPHER_CTX_set_params(a->ctx, params))
			return bo_fail();
		if (EVP_CipherFinal_ex(a->ctx, scratch, &outl) <= 0) {
			bo_fail();
			return TEE_ERROR_MAC_INVALID;
		}
		return TEE_SUCCESS;
	}
	params[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, full, a->tag_len);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_CipherFinal_ex(a->ctx, scratch, &outl) ||
	    !EVP_CIPHER_CTX_get_params(a->ctx, params))
		return bo_fail();
	return TEE_SUCCESS;
}

/* ---- the interface ---- */

TEE_Result be_ae_init(struct be_ae *a, const uint8_t *key, size_t key_len, const void *nonce,
		      size_t nonce_len, size_t tag_len, size_t aad_len, size_t payload_len)
{
	TEE_Result res = TEE_ERROR_GENERIC;
	const uint8_t *lib_key = NULL;
	enum bo_block b = BO_AES128;
	uint8_t kbuf[24];

	a->started = false;
	a->in_payload = false;
	a->tag_len = tag_len;
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
	/* OP-TEE's limit, which keeps the AAD length header to its 2- and 6-byte forms. */
	if (aad_len > INT32_MAX || payload_len > INT32_MAX)
		return TEE_ERROR_NOT_SUPPORTED;
	a->aad_len = aad_len;
	a->payload_len = payload_len;
	res = ccm_init(a, b, key, nonce, nonce_len);
out:
	a->started = !res;
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
		TEE_Result res = TEE_ERROR_BAD_STATE;

		if (len > a->aad_len - a->aad_n)
			return TEE_ERROR_BAD_STATE;
		res = ccm_mac(a, data, len);
		if (!res)
			a->aad_n += len;
		return res;
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

TEE_Result be_ae_update(struct be_ae *a, const void *in, size_t len, void *out)
{
	if (!a->started)
		return TEE_ERROR_BAD_STATE;
	if (a->ccm)
		return ccm_payload(a, in, len, out);
	return gcm_payload(a, in, len, out);
}

/*
 * The last len payload bytes, then the tag: written to tag (encryption),
 * or checked against dec_tag (decryption).
 */
static TEE_Result ae_final(struct be_ae *a, const uint8_t *in, size_t len, uint8_t *out,
			   uint8_t *tag, const uint8_t *dec_tag)
{
	TEE_Result res = TEE_ERROR_GENERIC;
	uint8_t full[16];

	if (!a->started)
		return TEE_ERROR_BAD_STATE;
	res = be_ae_update(a, in, len, out);
	if (res)
		goto out;
	if (a->ccm) {
		res = ccm_tag(a, full);
		if (!res && !a->encrypt && !secure_equal(full, dec_tag, a->tag_len))
			res = TEE_ERROR_MAC_INVALID;
	} else {
		res = gcm_tag(a, full, dec_tag);
	}
	if (!res && a->encrypt) {
		/* Only be_ae_enc_final, which passes a tag, gets here encrypting. */
		/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
		memcpy(tag, full, a->tag_len);
	}
out:
	a->started = false;
	SECURE_WIPE_VAR(full);
	return res;
}

TEE_Result be_ae_enc_final(struct be_ae *a, const void *in, size_t len, void *out, void *tag)
{
	if (!a->encrypt)
		return TEE_ERROR_BAD_STATE;
	return ae_final(a, in, len, out, tag, NULL);
}

TEE_Result be_ae_dec_final(struct be_ae *a, const void *in, size_t len, void *out, const void *tag,
			   size_t tag_len)
{
	if (a->encrypt)
		return TEE_ERROR_BAD_STATE;
	if (tag_len != a->tag_len) {
		a->started = false;
		return TEE_ERROR_MAC_INVALID;
	}
	return ae_final(a, in, len, out, NULL, tag);
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
	} else if (!EVP_CIPHER_CTX_copy(dst->ctx, src->ctx) ||
		   (src->ccm && !EVP_CIPHER_CTX_copy(dst->mac, src->mac))) {
		res = bo_fail();
	}
	if (res)
		return res;
	dst->started = true;
	dst->soft = src->soft;
	dst->in_payload = src->in_payload;
	dst->tag_len = src->tag_len;
	memcpy(dst->x, src->x, sizeof(dst->x));
	memcpy(dst->part, src->part, sizeof(dst->part));
	dst->part_n = src->part_n;
	memcpy(dst->s0, src->s0, sizeof(dst->s0));
	dst->aad_len = src->aad_len;
	dst->aad_n = src->aad_n;
	dst->payload_len = src->payload_len;
	dst->payload_n = src->payload_n;
	return TEE_SUCCESS;
}
