/*
 * What the OpenSSL backend files share: the library context the TA crypto
 * runs in, the algorithms fetched once, and small helpers. Private to
 * backend_openssl*.c.
 */
#ifndef SWTEE_CRYPTO_BACKEND_OPENSSL_H
#define SWTEE_CRYPTO_BACKEND_OPENSSL_H

#include <openssl/evp.h>

#include "backend.h"

/* Block ciphers the backend composes modes from. */
enum bo_block {
	BO_AES128,
	BO_AES192,
	BO_AES256,
	BO_DES, /* single DES: legacy provider, or 3DES with K1 = K2 = K3 */
	BO_DES3,
	BO_SM4,
	BO_BLOCK_COUNT
};

/* Chaining modes fetched for each block cipher. */
enum bo_mode {
	BO_ECB,
	BO_CBC,
	BO_CTR,
	BO_GCM, /* AES only */
	BO_CCM, /* AES only */
	BO_MODE_COUNT
};

/* The library context every fetch uses (default + legacy providers). */
OSSL_LIB_CTX *bo_libctx(void);

/*
 * The fetched cipher for a block cipher and mode, or NULL when the library
 * lacks it (DES3 has no CTR, for instance).
 */
const EVP_CIPHER *bo_cipher(enum bo_block b, enum bo_mode m);
/* True when single DES runs on 3DES with the key repeated three times. */
bool bo_des_emulated(void);

/*
 * The block cipher for a key of key_len bytes in the family of main (a
 * TEE_MAIN_ALGO_* of AES, DES, DES3 or SM4), and the key the library is to
 * be given: expanded to 24 bytes for two-key 3DES and emulated DES. Returns
 * -1 for a key length the family does not have. kbuf holds 24 bytes.
 */
int bo_block_key(uint32_t main, const uint8_t *key, size_t key_len, enum bo_block *b,
		 const uint8_t **lib_key, uint8_t kbuf[24]);
/* Block size in bytes of a block cipher. */
size_t bo_block_size(enum bo_block b);

/* The fetched digest of a TEE_ALG_* digest, or NULL. */
const EVP_MD *bo_md(uint32_t alg);
/* The fetched MAC "HMAC" or "CMAC" implementation. */
EVP_MAC *bo_mac_hmac(void);
EVP_MAC *bo_mac_cmac(void);

/*
 * A keyed single-block context (ECB, no padding) for the modes the backend
 * builds itself: XTS, CTS, GCM with long nonces. Returns NULL on failure.
 */
EVP_CIPHER_CTX *bo_ecb_new(enum bo_block b, const uint8_t *key, bool encrypt);
/* len whole blocks through an ECB context. 0 on success. */
int bo_ecb(EVP_CIPHER_CTX *ctx, const uint8_t *in, size_t len, uint8_t *out);

/* Maps a library failure to a TEE_Result; clears the library's error queue. */
TEE_Result bo_fail(void);

/* The AE implementations: OpenSSL GCM and CCM, and GCM for long nonces. */
struct bo_gcm_soft;
TEE_Result bo_gcm_soft_new(struct bo_gcm_soft **g, bool encrypt);
void bo_gcm_soft_free(struct bo_gcm_soft *g);
TEE_Result bo_gcm_soft_init(struct bo_gcm_soft *g, enum bo_block b, const uint8_t *key,
			    const uint8_t *nonce, size_t nonce_len);
void bo_gcm_soft_aad(struct bo_gcm_soft *g, const uint8_t *data, size_t len);
TEE_Result bo_gcm_soft_update(struct bo_gcm_soft *g, const uint8_t *in, size_t len, uint8_t *out);
/* The full 16-byte tag. */
TEE_Result bo_gcm_soft_tag(struct bo_gcm_soft *g, uint8_t tag[16]);
TEE_Result bo_gcm_soft_copy(struct bo_gcm_soft *dst, const struct bo_gcm_soft *src);

#endif
