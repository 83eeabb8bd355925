/*
 * What the OpenSSL backend files share: the library context the TA crypto
 * runs in, the algorithms fetched once, and small helpers. Private to
 * backend_openssl*.c.
 */
#ifndef SWTEE_CRYPTO_BACKEND_OPENSSL_H
#define SWTEE_CRYPTO_BACKEND_OPENSSL_H

#include <openssl/core.h>
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

/* ---- asymmetric (backend_openssl_pkey.c) ---- */

/* Fetches the asymmetric algorithms once (from be_init, in the zygote). */
void bo_asym_fetch(void);
/* True when the library has what alg needs (asymmetric and KDF algorithms). */
bool bo_asym_supported(uint32_t alg);

/* An elliptic curve GP names. */
struct bo_curve {
	uint32_t tee;	    /* TEE_ECC_CURVE_* */
	const char *name;   /* the library's group name */
	size_t bits;	    /* GP key size: bits of the field */
	size_t bytes;	    /* bytes of a field element */
	size_t order_bytes; /* bytes of the group order (of r and s) */
};

/* The curve of TEE_ECC_CURVE_* tee, or NULL. */
const struct bo_curve *bo_curve(uint32_t tee);

struct be_pkey {
	const struct tee_obj *obj; /* borrowed */
	EVP_PKEY *pk;
	const struct bo_curve *curve; /* ECC types */
	size_t size; /* bytes: RSA modulus, DSA subprime q, DH prime, ECC order, 32 */
};

/*
 * A library parameter list built from GP values. The buffers it points to
 * are its own and are wiped when it is freed. Adders return false when out
 * of room or memory; the list then stays usable for bo_params_free.
 */
#define BO_PARAMS_MAX 12
struct bo_params {
	OSSL_PARAM p[BO_PARAMS_MAX + 1];
	uint8_t *buf[BO_PARAMS_MAX];
	size_t len[BO_PARAMS_MAX];
	size_t n;
};

void bo_params_init(struct bo_params *b);
void bo_params_free(struct bo_params *b);
/* A big-endian unsigned number (a GP attribute) as a library integer. */
bool bo_params_bn(struct bo_params *b, const char *key, const uint8_t *be, size_t len);
bool bo_params_octets(struct bo_params *b, const char *key, const uint8_t *p, size_t len);
bool bo_params_utf8(struct bo_params *b, const char *key, const char *s);
bool bo_params_uint(struct bo_params *b, const char *key, unsigned int v);
bool bo_params_int(struct bo_params *b, const char *key, int v);
bool bo_params_size(struct bo_params *b, const char *key, size_t v);

/* The attribute id of o as a buffer; false if o has none. */
bool bo_attr(const struct tee_obj *o, uint32_t id, const uint8_t **p, size_t *len);
/* Skips the leading zero bytes of a big-endian number. */
void bo_strip(const uint8_t **p, size_t *len);
/*
 * The uncompressed point 04 || x || y of curve c (x, y big-endian, padded)
 * into out (1 + 2 * c->bytes); false when x or y is longer than the field.
 */
bool bo_ec_point(const struct bo_curve *c, const uint8_t *x, size_t x_len, const uint8_t *y,
		 size_t y_len, uint8_t *out);
/* A key of the library from params (fromdata); selection EVP_PKEY_*. NULL on failure. */
EVP_PKEY *bo_pkey_fromdata(const char *type, int selection, struct bo_params *b);
/* A context for an operation with pk, in the backend's library context. */
EVP_PKEY_CTX *bo_pkey_ctx(EVP_PKEY *pk);
/* The library's name of a TEE_ALG_* digest ("SHA2-256"), or NULL. */
const char *bo_md_name(uint32_t alg);

/* DER ECDSA-Sig-Value <-> r || s with each half n bytes (DSA, ECDSA, SM2). */
bool bo_sig_from_der(const uint8_t *der, size_t der_len, uint8_t *rs, size_t n);
/* *der is allocated (OPENSSL_free); false when r or s is not n bytes of input. */
bool bo_sig_to_der(const uint8_t *rs, size_t rs_len, size_t n, uint8_t **der, size_t *der_len);

/* The operations of be_asym_encrypt, be_asym_decrypt, be_sign and be_verify, by family. */
TEE_Result bo_rsa_encrypt(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			  const void *in, size_t len, void *out, size_t *out_len);
TEE_Result bo_rsa_decrypt(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			  const void *in, size_t len, void *out, size_t *out_len);
TEE_Result bo_rsa_sign(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
		       const void *digest, size_t len, void *sig, size_t *sig_len);
TEE_Result bo_rsa_verify(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			 const void *digest, size_t len, const void *sig, size_t sig_len);
/* DSA, ECDSA and SM2: r || s, each k->size bytes. */
TEE_Result bo_dsa_sign(struct be_pkey *k, const void *digest, size_t len, void *sig,
		       size_t *sig_len);
TEE_Result bo_dsa_verify(struct be_pkey *k, const void *digest, size_t len, const void *sig,
			 size_t sig_len);
TEE_Result bo_sm2_encrypt(struct be_pkey *k, const void *in, size_t len, void *out,
			  size_t *out_len);
TEE_Result bo_sm2_decrypt(struct be_pkey *k, const void *in, size_t len, void *out,
			  size_t *out_len);

/* Ed25519ctx and Ed25519ph (backend_openssl_ed25519.c), which OpenSSL 3.0 lacks. */
TEE_Result bo_ed25519_dom_sign(const uint8_t priv[32], const uint8_t pub[32], bool ph,
			       const uint8_t *ctx, size_t ctx_len, const uint8_t *msg,
			       size_t msg_len, uint8_t sig[64]);
TEE_Result bo_ed25519_dom_verify(const uint8_t pub[32], bool ph, const uint8_t *ctx, size_t ctx_len,
				 const uint8_t *msg, size_t msg_len, const uint8_t *sig,
				 size_t sig_len);

#endif
