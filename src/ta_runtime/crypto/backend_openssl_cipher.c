/*
 * The OpenSSL 3 backend: block cipher modes.
 *
 * ECB, CBC and CTR are OpenSSL's, with padding off. The rest is built here
 * on OpenSSL's block functions, because OpenSSL 3.0 cannot stream them or
 * lacks them:
 *   CTS: CBC ciphertext stealing, CS3 variant (RFC 2040, RFC 3962: the last
 *        two blocks always swapped), as GP and OP-TEE define AES-CTS;
 *   XTS: IEEE 1619 with ciphertext stealing, for AES-128/192/256 and SM4
 *        (OpenSSL's XTS takes a whole data unit per call and has no
 *        AES-192 or SM4 variant);
 *   PKCS5: ECB/CBC with PKCS#5 padding added and checked here.
 */
#include <stdlib.h>
#include <string.h>

#include <tee_api_defines.h>
#include <utee_defines.h>

#include "backend_openssl.h"
#include "secure.h"

#define XTS_BATCH 32 /* blocks per ECB call */

enum bo_cipher_kind {
	BC_PLAIN, /* OpenSSL's mode as it is */
	BC_CTS,
	BC_XTS,
	BC_PKCS5,
};

struct be_cipher {
	enum bo_cipher_kind kind;
	uint32_t main; /* TEE_MAIN_ALGO_* family of the block cipher */
	enum bo_mode mode;
	bool encrypt;
	bool started;
	size_t bs;
	EVP_CIPHER_CTX *ctx; /* the mode; ECB under key1 for XTS */
	EVP_CIPHER_CTX *ecb; /* CTS: ECB under the key, same direction */
	uint8_t chain[16];   /* CTS: the CBC chaining value */
	uint8_t tweak[16];   /* XTS: the tweak of the next block */
};

static void xor_block(uint8_t *dst, const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = a[i] ^ b[i];
}

TEE_Result be_cipher_new(uint32_t alg, bool encrypt, struct be_cipher **out)
{
	struct be_cipher *c = NULL;

	*out = NULL;
	if (!be_alg_supported(alg))
		return TEE_ERROR_NOT_SUPPORTED;
	c = calloc(1, sizeof(*c));
	if (!c)
		return TEE_ERROR_OUT_OF_MEMORY;
	c->encrypt = encrypt;
	c->main = TEE_ALG_GET_MAIN_ALG(alg);
	c->kind = BC_PLAIN;
	switch (TEE_ALG_GET_CHAIN_MODE(alg)) {
	case TEE_CHAIN_MODE_CBC_NOPAD:
		c->mode = BO_CBC;
		break;
	case TEE_CHAIN_MODE_CTR:
		c->mode = BO_CTR;
		break;
	case TEE_CHAIN_MODE_CTS:
		c->mode = BO_CBC;
		c->kind = BC_CTS;
		break;
	case TEE_CHAIN_MODE_XTS:
		c->mode = BO_ECB;
		c->kind = BC_XTS;
		break;
	default:
		c->mode = BO_ECB;
		break;
	}
	if (alg == TEE_ALG_SM4_ECB_PKCS5 || alg == TEE_ALG_SM4_CBC_PKCS5) {
		c->main = TEE_MAIN_ALGO_SM4;
		c->kind = BC_PKCS5;
	}
	c->ctx = EVP_CIPHER_CTX_new();
	if (!c->ctx) {
		free(c);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	*out = c;
	return TEE_SUCCESS;
}

void be_cipher_free(struct be_cipher *c)
{
	if (!c)
		return;
	EVP_CIPHER_CTX_free(c->ctx);
	EVP_CIPHER_CTX_free(c->ecb);
	secure_wipe(c, sizeof(*c));
	free(c);
}

static TEE_Result xts_init(struct be_cipher *c, enum bo_block b, const uint8_t *key1,
			   const uint8_t *key2, size_t key_len, const void *iv)
{
	EVP_CIPHER_CTX *k2 = NULL;
	enum bo_block b2 = b;
	const uint8_t *lk2 = key2;
	uint8_t kbuf[24];
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;

	if (bo_block_key(c->main, key2, key_len, &b2, &lk2, kbuf) || b2 != b)
		goto out;
	k2 = bo_ecb_new(b, lk2, true);
	if (!k2) {
		res = bo_fail();
		goto out;
	}
	if (!EVP_CipherInit_ex2(c->ctx, bo_cipher(b, BO_ECB), key1, NULL, c->encrypt, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(c->ctx, 0)) {
		res = bo_fail();
		goto out;
	}
	/* The first tweak: the IV (the data unit's number) under key2. */
	if (bo_ecb(k2, iv, 16, c->tweak)) {
		res = TEE_ERROR_GENERIC;
		goto out;
	}
	res = TEE_SUCCESS;
out:
	EVP_CIPHER_CTX_free(k2);
	SECURE_WIPE_VAR(kbuf);
	return res;
}

TEE_Result be_cipher_init(struct be_cipher *c, const uint8_t *key1, size_t key1_len,
			  const uint8_t *key2, size_t key2_len, const void *iv, size_t iv_len)
{
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	const uint8_t *lib_key = NULL;
	enum bo_block b = BO_AES128;
	uint8_t kbuf[24];

	c->started = false;
	if (bo_block_key(c->main, key1, key1_len, &b, &lib_key, kbuf))
		goto out;
	c->bs = bo_block_size(b);
	if (!bo_cipher(b, c->mode)) {
		res = TEE_ERROR_NOT_SUPPORTED;
		goto out;
	}
	if (c->mode == BO_ECB && c->kind != BC_XTS ? iv_len != 0 : iv_len != c->bs)
		goto out;
	if (c->kind == BC_XTS) {
		if (!key2 || key2_len != key1_len)
			goto out;
		res = xts_init(c, b, lib_key, key2, key2_len, iv);
		goto out;
	}
	if (!EVP_CipherInit_ex2(c->ctx, bo_cipher(b, c->mode), lib_key, iv_len ? iv : NULL,
				c->encrypt, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(c->ctx, 0)) {
		res = bo_fail();
		goto out;
	}
	if (c->kind == BC_CTS) {
		EVP_CIPHER_CTX_free(c->ecb);
		c->ecb = bo_ecb_new(b, lib_key, c->encrypt);
		if (!c->ecb) {
			res = bo_fail();
			goto out;
		}
		memcpy(c->chain, iv, c->bs);
	}
	res = TEE_SUCCESS;
out:
	c->started = res == TEE_SUCCESS;
	SECURE_WIPE_VAR(kbuf);
	return res;
}

static int evp_update(EVP_CIPHER_CTX *ctx, const uint8_t *in, size_t len, uint8_t *out)
{
	while (len) {
		size_t n = len > (1U << 30) ? (1U << 30) : len;
		int outl = 0;

		if (!EVP_CipherUpdate(ctx, out, &outl, in, (int)n) || (size_t)outl != n) {
			bo_fail();
			return -1;
		}
		in += n;
		out += n;
		len -= n;
	}
	return 0;
}

/* Multiplies the XTS tweak by x in GF(2^128), little-endian (IEEE 1619). */
static void xts_next_tweak(uint8_t t[16])
{
	uint8_t carry = t[15] >> 7;

	for (int i = 15; i > 0; i--)
		t[i] = (uint8_t)((t[i] << 1) | (t[i - 1] >> 7));
	t[0] = (uint8_t)((t[0] << 1) ^ (carry ? 0x87 : 0));
}

/* Whole blocks through XTS, a batch of tweaks and one ECB call at a time. */
static int xts_blocks(struct be_cipher *c, const uint8_t *in, size_t len, uint8_t *out)
{
	uint8_t tw[XTS_BATCH * 16];
	uint8_t x[XTS_BATCH * 16];
	int rc = 0;

	while (len && !rc) {
		size_t n = len < sizeof(x) ? len : sizeof(x);

		for (size_t i = 0; i < n; i += 16) {
			memcpy(tw + i, c->tweak, 16);
			xts_next_tweak(c->tweak);
		}
		xor_block(x, in, tw, n);
		rc = bo_ecb(c->ctx, x, n, x);
		xor_block(out, x, tw, n);
		in += n;
		out += n;
		len -= n;
	}
	SECURE_WIPE_VAR(tw);
	SECURE_WIPE_VAR(x);
	return rc;
}

/* One block under an explicit tweak, without moving the tweak on. */
static int xts_one(struct be_cipher *c, const uint8_t t[16], const uint8_t in[16], uint8_t out[16])
{
	uint8_t x[16];
	int rc = 0;

	xor_block(x, in, t, 16);
	rc = bo_ecb(c->ctx, x, 16, x);
	xor_block(out, x, t, 16);
	SECURE_WIPE_VAR(x);
	return rc;
}

/* The last block and d (1..15) bytes, with ciphertext stealing. */
static int xts_steal(struct be_cipher *c, const uint8_t *in, size_t d, uint8_t *out)
{
	uint8_t ta[16], tb[16], pp[16], cc[16], last[16];
	int rc = 0;

	memcpy(ta, c->tweak, 16);
	memcpy(tb, ta, 16);
	xts_next_tweak(tb);
	memcpy(last, in + 16, d);
	if (c->encrypt) {
		rc = xts_one(c, ta, in, cc);
		memcpy(pp, last, d);
		memcpy(pp + d, cc + d, 16 - d);
		rc = rc ? rc : xts_one(c, tb, pp, out);
		memcpy(out + 16, cc, d);
	} else {
		rc = xts_one(c, tb, in, pp);
		memcpy(cc, last, d);
		memcpy(cc + d, pp + d, 16 - d);
		rc = rc ? rc : xts_one(c, ta, cc, out);
		memcpy(out + 16, pp, d);
	}
	memcpy(c->tweak, tb, 16);
	xts_next_tweak(c->tweak);
	SECURE_WIPE_VAR(pp);
	SECURE_WIPE_VAR(cc);
	SECURE_WIPE_VAR(last);
	return rc;
}

static int cts_blocks(struct be_cipher *c, const uint8_t *in, size_t len, uint8_t *out)
{
	uint8_t next[16];

	if (!len)
		return 0;
	/* Decryption chains on the input, which out may overwrite. */
	memcpy(next, in + len - c->bs, c->bs);
	if (evp_update(c->ctx, in, len, out))
		return -1;
	memcpy(c->chain, c->encrypt ? out + len - c->bs : next, c->bs);
	return 0;
}

/* CBC-CS3 on the last block and d (1..bs) bytes. */
static int cts_steal(struct be_cipher *c, const uint8_t *in, size_t d, uint8_t *out)
{
	const size_t bs = c->bs;
	uint8_t x[16], cp[16], z[16], tail[16];
	int rc = 0;

	memcpy(tail, in + bs, d);
	if (c->encrypt) {
		/* C' = E(P[n-1] ^ chain); X = E((P[n] | 0) ^ C'); out = X | C'[0..d) */
		xor_block(x, in, c->chain, bs);
		rc = bo_ecb(c->ecb, x, bs, cp);
		if (!rc) {
			memset(x, 0, bs);
			memcpy(x, tail, d);
			xor_block(x, x, cp, bs);
			rc = bo_ecb(c->ecb, x, bs, out);
		}
		if (!rc)
			memcpy(out + bs, cp, d);
	} else {
		/* Z = D(X) = (P[n] | 0) ^ C'; C' = C[n] | Z[d..); P[n-1] = D(C') ^ chain */
		rc = bo_ecb(c->ecb, in, bs, z);
		if (!rc) {
			memcpy(cp, tail, d);
			memcpy(cp + d, z + d, bs - d);
			rc = bo_ecb(c->ecb, cp, bs, x);
		}
		if (!rc) {
			xor_block(out, x, c->chain, bs);
			xor_block(out + bs, z, tail, d);
		}
	}
	SECURE_WIPE_VAR(x);
	SECURE_WIPE_VAR(cp);
	SECURE_WIPE_VAR(z);
	SECURE_WIPE_VAR(tail);
	return rc;
}

TEE_Result be_cipher_update(struct be_cipher *c, const void *in, size_t len, void *out)
{
	int rc = 0;

	if (!c->started)
		return TEE_ERROR_BAD_STATE;
	if (c->mode != BO_CTR && len % c->bs)
		return TEE_ERROR_BAD_PARAMETERS;
	switch (c->kind) {
	case BC_XTS:
		rc = xts_blocks(c, in, len, out);
		break;
	case BC_CTS:
		rc = cts_blocks(c, in, len, out);
		break;
	default:
		rc = evp_update(c->ctx, in, len, out);
		break;
	}
	return rc ? TEE_ERROR_GENERIC : TEE_SUCCESS;
}

/* PKCS#5 decryption of the last len bytes (whole blocks, at least one). */
static TEE_Result pkcs5_unpad_final(struct be_cipher *c, const uint8_t *in, size_t len,
				    uint8_t *out, size_t *out_len)
{
	const size_t bs = c->bs;
	uint8_t last[16];
	unsigned int pad = 0;
	unsigned int bad = 0;

	if (!len || len % bs)
		return TEE_ERROR_BAD_PARAMETERS;
	if (evp_update(c->ctx, in, len - bs, out) || evp_update(c->ctx, in + len - bs, bs, last))
		return TEE_ERROR_GENERIC;
	/* Constant time in the padding value: every byte of the block is read. */
	pad = last[bs - 1];
	bad |= (unsigned int)((pad - 1) >> 8) & 1;  /* pad == 0 */
	bad |= (unsigned int)((bs - pad) >> 8) & 1; /* pad > bs */
	for (size_t i = 0; i < bs; i++) {
		unsigned int in_pad =
		    (unsigned int)((bs - 1 - i - pad) >> 8) & 1; /* i >= bs - pad */

		bad |= in_pad & (((unsigned int)(last[i] ^ pad) + 0xffU) >> 8);
	}
	if (bad) {
		SECURE_WIPE_VAR(last);
		return TEE_ERROR_BAD_PARAMETERS;
	}
	memcpy(out + len - bs, last, bs - pad);
	*out_len = len - pad;
	SECURE_WIPE_VAR(last);
	return TEE_SUCCESS;
}

static TEE_Result pkcs5_pad_final(struct be_cipher *c, const uint8_t *in, size_t len, uint8_t *out,
				  size_t *out_len)
{
	const size_t bs = c->bs;
	size_t whole = len - len % bs;
	uint8_t last[16];
	size_t pad = bs - len % bs;
	int rc = 0;

	memcpy(last, in + whole, len - whole);
	memset(last + len - whole, (int)pad, pad);
	rc = evp_update(c->ctx, in, whole, out);
	rc = rc ? rc : evp_update(c->ctx, last, bs, out + whole);
	SECURE_WIPE_VAR(last);
	if (rc)
		return TEE_ERROR_GENERIC;
	*out_len = whole + bs;
	return TEE_SUCCESS;
}

TEE_Result be_cipher_final(struct be_cipher *c, const void *src, size_t len, void *dst,
			   size_t *out_len)
{
	const uint8_t *in = src;
	uint8_t *out = dst;
	size_t lead = 0;
	int rc = 0;

	*out_len = 0;
	if (!c->started)
		return TEE_ERROR_BAD_STATE;
	switch (c->kind) {
	case BC_PKCS5:
		if (c->encrypt)
			return pkcs5_pad_final(c, in, len, out, out_len);
		return pkcs5_unpad_final(c, in, len, out, out_len);
	case BC_PLAIN:
		if (c->mode != BO_CTR && len % c->bs)
			return TEE_ERROR_BAD_PARAMETERS;
		rc = evp_update(c->ctx, in, len, out);
		break;
	case BC_CTS:
	case BC_XTS:
		if (!len)
			break;
		if (len < c->bs)
			return TEE_ERROR_BAD_PARAMETERS;
		if (len % c->bs == 0 && c->kind == BC_XTS) {
			rc = xts_blocks(c, in, len, out);
			break;
		}
		if (len == c->bs) {
			rc = cts_blocks(c, in, len, out);
			break;
		}
		/* Whole blocks up to the last block and the 1..bs bytes after it. */
		lead = (len - c->bs - 1) / c->bs * c->bs;
		if (c->kind == BC_XTS)
			rc = xts_blocks(c, in, lead, out);
		else
			rc = cts_blocks(c, in, lead, out);
		if (!rc && c->kind == BC_XTS)
			rc = xts_steal(c, in + lead, len - lead - c->bs, out + lead);
		else if (!rc)
			rc = cts_steal(c, in + lead, len - lead - c->bs, out + lead);
		break;
	}
	if (rc)
		return TEE_ERROR_GENERIC;
	*out_len = len;
	return TEE_SUCCESS;
}

TEE_Result be_cipher_copy(struct be_cipher *dst, const struct be_cipher *src)
{
	if (dst->kind != src->kind || dst->main != src->main || dst->mode != src->mode ||
	    dst->encrypt != src->encrypt)
		return TEE_ERROR_BAD_PARAMETERS;
	dst->started = src->started;
	if (!src->started)
		return TEE_SUCCESS;
	if (!EVP_CIPHER_CTX_copy(dst->ctx, src->ctx))
		return bo_fail();
	if (src->ecb) {
		if (!dst->ecb)
			dst->ecb = EVP_CIPHER_CTX_new();
		if (!dst->ecb || !EVP_CIPHER_CTX_copy(dst->ecb, src->ecb))
			return bo_fail();
	}
	dst->bs = src->bs;
	memcpy(dst->chain, src->chain, sizeof(dst->chain));
	memcpy(dst->tweak, src->tweak, sizeof(dst->tweak));
	return TEE_SUCCESS;
}
