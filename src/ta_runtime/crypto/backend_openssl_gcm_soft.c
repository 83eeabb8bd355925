/*
 * AES-GCM for nonces longer than OpenSSL 3.0 takes (128 bytes), from NIST
 * SP 800-38D: CTR keystream from OpenSSL's AES, GHASH here. The GF(2^128)
 * multiplication is the bit-serial algorithm 1 of SP 800-38D with masks in
 * place of branches, so its timing does not depend on the data. Slow, and
 * only used for such nonces.
 */
#include <stdlib.h>
#include <string.h>

#include "backend_openssl.h"
#include "buf.h"
#include "secure.h"

struct bo_gcm_soft {
	bool encrypt;
	bool in_ct; /* the AAD is over */
	EVP_CIPHER_CTX *ecb;
	uint8_t h[16];	 /* E(K, 0) */
	uint8_t ej0[16]; /* E(K, J0) */
	uint8_t ctr[16]; /* next counter block */
	uint8_t ks[16];	 /* keystream block being used */
	size_t ks_used;	 /* bytes of ks used, 16 when none is left */
	uint8_t x[16];	 /* GHASH state */
	uint8_t part[16];
	size_t part_n;
	uint64_t aad_bytes;
	uint64_t ct_bytes;
};

static void gf_mul(uint8_t x[16], const uint8_t y[16])
{
	uint8_t z[16] = {0};
	uint8_t v[16];

	memcpy(v, y, 16);
	for (int i = 0; i < 128; i++) {
		uint8_t bit = (uint8_t)(-(int)((x[i / 8] >> (7 - i % 8)) & 1));
		uint8_t lsb = (uint8_t)(-(int)(v[15] & 1));

		for (int j = 0; j < 16; j++)
			z[j] ^= v[j] & bit;
		for (int j = 15; j > 0; j--)
			v[j] = (uint8_t)((v[j] >> 1) | (v[j - 1] << 7));
		v[0] = (uint8_t)((v[0] >> 1) ^ (0xe1 & lsb));
	}
	memcpy(x, z, 16);
	SECURE_WIPE_VAR(z);
	SECURE_WIPE_VAR(v);
}

static void ghash_block(struct bo_gcm_soft *g, const uint8_t b[16])
{
	for (int i = 0; i < 16; i++)
		g->x[i] ^= b[i];
	gf_mul(g->x, g->h);
}

static void ghash_update(struct bo_gcm_soft *g, const uint8_t *d, size_t len)
{
	while (len) {
		size_t n = 16 - g->part_n;

		if (n > len)
			n = len;
		memcpy(g->part + g->part_n, d, n);
		g->part_n += n;
		d += n;
		len -= n;
		if (g->part_n == 16) {
			ghash_block(g, g->part);
			g->part_n = 0;
		}
	}
}

/* Ends a GHASH input (AAD, ciphertext) by padding it with zeros. */
static void ghash_pad(struct bo_gcm_soft *g)
{
	if (!g->part_n)
		return;
	memset(g->part + g->part_n, 0, 16 - g->part_n);
	ghash_block(g, g->part);
	g->part_n = 0;
}

/* GHASH's length block: [bits_a]64 | [bits_b]64, big-endian. */
static void lens_block(uint8_t lens[16], uint64_t bits_a, uint64_t bits_b)
{
	struct buf_writer w;

	buf_writer_init(&w, lens, 16);
	buf_put_be64(&w, bits_a);
	buf_put_be64(&w, bits_b);
}

static void inc32(uint8_t c[16])
{
	for (int i = 15; i >= 12; i--)
		if (++c[i])
			break;
}

TEE_Result bo_gcm_soft_new(struct bo_gcm_soft **g, bool encrypt)
{
	*g = calloc(1, sizeof(**g));
	if (!*g)
		return TEE_ERROR_OUT_OF_MEMORY;
	(*g)->encrypt = encrypt;
	return TEE_SUCCESS;
}

void bo_gcm_soft_free(struct bo_gcm_soft *g)
{
	if (!g)
		return;
	EVP_CIPHER_CTX_free(g->ecb);
	secure_wipe(g, sizeof(*g));
	free(g);
}

TEE_Result bo_gcm_soft_init(struct bo_gcm_soft *g, enum bo_block b, const uint8_t *key,
			    const uint8_t *nonce, size_t nonce_len)
{
	uint8_t lens[16];
	uint8_t j0[16];

	EVP_CIPHER_CTX_free(g->ecb);
	g->ecb = bo_ecb_new(b, key, true);
	if (!g->ecb)
		return bo_fail();
	memset(g->h, 0, 16);
	if (bo_ecb(g->ecb, g->h, 16, g->h))
		return TEE_ERROR_GENERIC;
	/* J0 = GHASH(nonce | 0-padding | [0]64 | [bits(nonce)]64) */
	memset(g->x, 0, 16);
	g->part_n = 0;
	ghash_update(g, nonce, nonce_len);
	ghash_pad(g);
	lens_block(lens, 0, (uint64_t)nonce_len * 8);
	ghash_block(g, lens);
	memcpy(j0, g->x, 16);
	if (bo_ecb(g->ecb, j0, 16, g->ej0))
		return TEE_ERROR_GENERIC;
	memcpy(g->ctr, j0, 16);
	inc32(g->ctr);
	SECURE_WIPE_VAR(j0);
	memset(g->x, 0, 16);
	g->ks_used = 16;
	g->in_ct = false;
	g->aad_bytes = 0;
	g->ct_bytes = 0;
	return TEE_SUCCESS;
}

void bo_gcm_soft_aad(struct bo_gcm_soft *g, const uint8_t *data, size_t len)
{
	ghash_update(g, data, len);
	g->aad_bytes += len;
}

TEE_Result bo_gcm_soft_update(struct bo_gcm_soft *g, const uint8_t *in, size_t len, uint8_t *out)
{
	if (!g->in_ct) {
		ghash_pad(g);
		g->in_ct = true;
	}
	for (size_t i = 0; i < len; i++) {
		uint8_t c = in[i];

		if (g->ks_used == 16) {
			if (bo_ecb(g->ecb, g->ctr, 16, g->ks))
				return TEE_ERROR_GENERIC;
			inc32(g->ctr);
			g->ks_used = 0;
		}
		if (!g->encrypt)
			ghash_update(g, &c, 1);
		c ^= g->ks[g->ks_used++];
		if (g->encrypt)
			ghash_update(g, &c, 1);
		out[i] = c;
	}
	g->ct_bytes += len;
	return TEE_SUCCESS;
}

TEE_Result bo_gcm_soft_tag(struct bo_gcm_soft *g, uint8_t tag[16])
{
	uint8_t lens[16];

	ghash_pad(g);
	lens_block(lens, g->aad_bytes * 8, g->ct_bytes * 8);
	ghash_block(g, lens);
	for (int i = 0; i < 16; i++)
		tag[i] = g->x[i] ^ g->ej0[i];
	return TEE_SUCCESS;
}

TEE_Result bo_gcm_soft_copy(struct bo_gcm_soft *dst, const struct bo_gcm_soft *src)
{
	EVP_CIPHER_CTX *ecb = dst->ecb;

	if (src->ecb) {
		if (!ecb)
			ecb = EVP_CIPHER_CTX_new();
		if (!ecb || !EVP_CIPHER_CTX_copy(ecb, src->ecb)) {
			if (ecb != dst->ecb)
				EVP_CIPHER_CTX_free(ecb);
			return bo_fail();
		}
	}
	*dst = *src;
	dst->ecb = ecb;
	return TEE_SUCCESS;
}
