/*
 * The crypto backend: the one interface between the GP semantics of the
 * Cryptographic Operations API (tee_api_*.c) and the library that does the
 * arithmetic (OpenSSL 3 libcrypto, in backend_openssl*.c). Nothing here
 * names a library type, so another library can be put behind it.
 *
 * Algorithms are named by their GP identifiers (TEE_ALG_*). The GP layer
 * validates states, handles, buffer sizes and GP buffering; the backend
 * validates what only it knows (key, IV, nonce and tag lengths) and answers
 * TEE_ERROR_BAD_PARAMETERS for those, TEE_ERROR_NOT_SUPPORTED for what the
 * library cannot do, TEE_ERROR_OUT_OF_MEMORY, or TEE_ERROR_GENERIC when the
 * library fails unexpectedly.
 *
 * Every context holds key material or data derived from it: _free wipes
 * it, and every _free accepts NULL. Contexts are single-threaded. Nothing is
 * constant time unless a declaration says so.
 */
#ifndef SWTEE_CRYPTO_BACKEND_H
#define SWTEE_CRYPTO_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_api_types.h>

#include "object.h"

/*
 * Loads the library's algorithm providers and looks the algorithms up once.
 * Idempotent; every other function calls it on first use. The zygote calls
 * it so that every TA instance inherits the result (and a later sandbox
 * needs no file access for it).
 */
TEE_Result be_init(void);

/*
 * True if the library can run alg (any TEE_ALG_* of alg.c; for a signature
 * or padding, the digest it uses is asked separately). Decided once by
 * be_init, e.g. single DES needs OpenSSL's legacy provider or falls back to
 * triple DES with three equal keys.
 */
bool be_alg_supported(uint32_t alg);

/* Fills len bytes from the library's CSPRNG. */
TEE_Result be_random(void *buf, size_t len);
/* Mixes buf into the random generator as additional input (no entropy credited). */
TEE_Result be_random_add(const void *buf, size_t len);

/* ---- digests: MD5, SHA-1, SHA-2, SHA-3, SM3, SHAKE128/256 ---- */

struct be_hash;

TEE_Result be_hash_new(uint32_t alg, struct be_hash **h);
void be_hash_free(struct be_hash *h);
/* Starts a new computation. */
TEE_Result be_hash_init(struct be_hash *h);
TEE_Result be_hash_update(struct be_hash *h, const void *data, size_t len);
/*
 * Ends the computation. For a fixed-length digest len is its size; for an
 * XOF (SHAKE) it is any length and the output continues any squeezing done
 * so far. be_hash_init must be called before reuse.
 */
TEE_Result be_hash_final(struct be_hash *h, void *out, size_t len);
/* XOF only: the next len bytes of output; may be called any number of times. */
TEE_Result be_hash_squeeze(struct be_hash *h, void *out, size_t len);
/* dst (made for the same alg) becomes a copy of src. */
TEE_Result be_hash_copy(struct be_hash *dst, const struct be_hash *src);

/* ---- MACs: HMAC over every digest but SHAKE, CMAC, CBC-MAC ---- */

struct be_mac;

TEE_Result be_mac_new(uint32_t alg, struct be_mac **m);
void be_mac_free(struct be_mac *m);
/* Starts a new computation with key (BAD_PARAMETERS for a bad key length). */
TEE_Result be_mac_init(struct be_mac *m, const uint8_t *key, size_t key_len);
TEE_Result be_mac_update(struct be_mac *m, const void *data, size_t len);
/*
 * Writes the MAC, len bytes: the digest size for HMAC, the block size for
 * CMAC and CBC-MAC. BAD_PARAMETERS when a CBC-MAC without padding was fed
 * a message that is not whole blocks.
 */
TEE_Result be_mac_final(struct be_mac *m, void *out, size_t len);
TEE_Result be_mac_copy(struct be_mac *dst, const struct be_mac *src);

/* ---- ciphers: AES, DES, 3DES and SM4 in ECB, CBC, CTR, CTS, XTS, PKCS5 ---- */

struct be_cipher;

TEE_Result be_cipher_new(uint32_t alg, bool encrypt, struct be_cipher **c);
void be_cipher_free(struct be_cipher *c);
/*
 * Keys and starts a new message. key2 is XTS's tweak key (NULL otherwise).
 * iv is NULL (iv_len 0) for ECB, a block otherwise; a 16-byte key for a
 * 3DES cipher is the two-key variant. BAD_PARAMETERS for bad lengths.
 */
TEE_Result be_cipher_init(struct be_cipher *c, const uint8_t *key1, size_t key1_len,
			  const uint8_t *key2, size_t key2_len, const void *iv, size_t iv_len);
/*
 * Processes len bytes into out (len bytes). len is whole blocks, except for
 * CTR where it is any length. For CTS and XTS the caller keeps back at
 * least one block and a byte (or everything, up to two blocks) for _final.
 */
TEE_Result be_cipher_update(struct be_cipher *c, const void *in, size_t len, void *out);
/*
 * Ends the message with its last len bytes, writing *out_len bytes:
 *   ECB, CBC without padding: whole blocks, out_len = len;
 *   CTR: any length;
 *   CTS, XTS: 0 or more than a block (ciphertext stealing), at most two
 *     blocks; a message shorter than one block is BAD_PARAMETERS;
 *   PKCS5: encryption pads (out has room for len rounded up to the next
 *     block), decryption takes one or two blocks and strips the padding,
 *     BAD_PARAMETERS if it is malformed (checked in constant time).
 */
TEE_Result be_cipher_final(struct be_cipher *c, const void *in, size_t len, void *out,
			   size_t *out_len);
TEE_Result be_cipher_copy(struct be_cipher *dst, const struct be_cipher *src);

/* ---- authenticated encryption: AES-GCM, AES-CCM ---- */

struct be_ae;

TEE_Result be_ae_new(uint32_t alg, bool encrypt, struct be_ae **a);
void be_ae_free(struct be_ae *a);
/*
 * Keys and starts a message. tag_len is in bytes. aad_len and payload_len
 * are the totals to come (used by CCM only). NOT_SUPPORTED for a nonce or
 * tag length the mode does not allow; BAD_PARAMETERS for a bad key length.
 */
TEE_Result be_ae_init(struct be_ae *a, const uint8_t *key, size_t key_len, const void *nonce,
		      size_t nonce_len, size_t tag_len, size_t aad_len, size_t payload_len);
/* BAD_STATE after payload, or past CCM's declared AAD length. */
TEE_Result be_ae_update_aad(struct be_ae *a, const void *data, size_t len);
/*
 * Takes len payload bytes (any length) and writes len bytes of output to
 * out, which may be in itself. Decryption output is not authenticated yet.
 * BAD_STATE past CCM's declared payload length, or when CCM's payload
 * starts before all of its declared AAD.
 */
TEE_Result be_ae_update(struct be_ae *a, const void *in, size_t len, void *out);
/*
 * Ends an encryption: writes the last len bytes to out and the tag
 * (tag_len bytes of be_ae_init). BAD_STATE if CCM's lengths disagree with
 * the declared ones.
 */
TEE_Result be_ae_enc_final(struct be_ae *a, const void *in, size_t len, void *out, void *tag);
/*
 * Ends a decryption: writes the last len bytes to out and then checks the
 * tag (tag_len bytes, compared in constant time). TEE_ERROR_MAC_INVALID on
 * mismatch: out then holds unauthenticated data, which the caller must not
 * release.
 */
TEE_Result be_ae_dec_final(struct be_ae *a, const void *in, size_t len, void *out, const void *tag,
			   size_t tag_len);
TEE_Result be_ae_copy(struct be_ae *dst, const struct be_ae *src);

/* ---- asymmetric keys: RSA, DSA, DH, ECDSA, ECDH, SM2, Ed25519, X25519 ---- */

/*
 * A key object of an asymmetric type made usable by the library. It
 * borrows the object (which must outlive it) and reads its attributes as
 * GP defines them: big-endian unsigned numbers, the ECC curve as a value,
 * an SM2 type's curve implied. _new answers BAD_PARAMETERS for attributes
 * the library refuses (a point not on its curve, an RSA modulus that is
 * even), OUT_OF_MEMORY, or NOT_SUPPORTED.
 */
struct be_pkey;

TEE_Result be_pkey_new(const struct tee_obj *key, struct be_pkey **k);
/* Wipes and frees k; NULL allowed. */
void be_pkey_free(struct be_pkey *k);
/*
 * The size in bytes of what alg produces with k: a signature, or at most
 * the output of an encryption of in_len bytes (RSA: the modulus; SM2: the
 * point, the hash and in_len), or of a decryption.
 */
size_t be_asym_out_size(uint32_t alg, const struct be_pkey *k, uint32_t mode, size_t in_len);

/* Parameters of one operation, from the GP attributes the TA passed. */
struct be_asym_params {
	uint32_t hash;	      /* TEE_ALG_* digest signed or padded with; 0 for none */
	uint32_t mgf_hash;    /* RSA OAEP and PSS: the MGF1 digest */
	const uint8_t *label; /* RSA OAEP label */
	size_t label_len;
	uint32_t salt_len;  /* RSA PSS */
	const uint8_t *ctx; /* EdDSA context (NULL: none) */
	size_t ctx_len;
	bool prehash; /* Ed25519ph */
};

/*
 * RSA (PKCS#1 v1.5, OAEP, no padding) and SM2 encryption of len bytes into
 * out (be_asym_out_size bytes), *out_len set. BAD_PARAMETERS for a message
 * the key cannot take (too long; RSA without padding: not below the
 * modulus). RSA without padding strips leading zero bytes of the result,
 * keeping one, as OP-TEE does.
 */
TEE_Result be_asym_encrypt(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			   const void *in, size_t len, void *out, size_t *out_len);
/*
 * Decryption, likewise. Every failure of a padded scheme is the one code
 * TEE_ERROR_CIPHERTEXT_INVALID, whatever was wrong, and out holds nothing
 * then (constant time as far as the library's decoding is).
 */
TEE_Result be_asym_decrypt(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			   const void *in, size_t len, void *out, size_t *out_len);
/*
 * Signs digest (the hash the algorithm names; the message for Ed25519) into
 * sig (be_asym_out_size bytes): RSA's signature, r || s for DSA, ECDSA and
 * SM2 (each the size of the group order), R || S for Ed25519. DSA and ECDSA
 * take a digest of any length, cut to the group order's size (DSA: bytes,
 * ECDSA: bits); SM2 any length, as the number it spells.
 */
TEE_Result be_sign(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
		   const void *digest, size_t len, void *sig, size_t *sig_len);
/* TEE_SUCCESS or TEE_ERROR_SIGNATURE_INVALID (any malformed signature too). */
TEE_Result be_verify(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
		     const void *digest, size_t len, const void *sig, size_t sig_len);

/* ---- key derivation ---- */

/*
 * Shared secrets into out, *out_len (in: room, out: bytes). BAD_PARAMETERS
 * for a peer key the library refuses: a DH value outside 2..p-2 (or not in
 * the subgroup when the key has one), an ECC point not on the curve.
 *   DH: g^xy mod p without leading zero bytes (as OP-TEE);
 *   ECDH: the x coordinate, the size of the field;
 *   X25519: 32 bytes, all zero for a peer point of small order (as OP-TEE).
 */
TEE_Result be_derive_dh(struct be_pkey *k, const uint8_t *peer, size_t peer_len, uint8_t *out,
			size_t *out_len);
TEE_Result be_derive_ecdh(struct be_pkey *k, const uint8_t *x, size_t x_len, const uint8_t *y,
			  size_t y_len, uint8_t *out, size_t *out_len);
TEE_Result be_derive_x25519(struct be_pkey *k, const uint8_t *peer, size_t peer_len, uint8_t *out,
			    size_t *out_len);

/* SM2 key exchange (GM/T 0003.3): the peer's data and the confirmation hashes. */
struct be_sm2_kep_params {
	bool initiator;
	const uint8_t *peer_x, *peer_y; /* the peer's static public key */
	size_t peer_x_len, peer_y_len;
	const uint8_t *peer_eph_x, *peer_eph_y; /* the peer's ephemeral public key */
	size_t peer_eph_x_len, peer_eph_y_len;
	const uint8_t *id_initiator, *id_responder;
	size_t id_initiator_len, id_responder_len;
	const uint8_t *conf_in; /* the peer's confirmation hash, NULL to skip the check */
	size_t conf_in_len;
	uint8_t *conf_out; /* ours, 32 bytes, NULL if not wanted */
	size_t conf_out_len;
};

/*
 * Derives out_len bytes of shared key with the own static key pair k and
 * ephemeral key pair eph. BAD_PARAMETERS for a peer point not on the curve,
 * TEE_ERROR_SIGNATURE_INVALID when conf_in does not match (compared in
 * constant time).
 */
TEE_Result be_derive_sm2_kep(struct be_pkey *k, struct be_pkey *eph,
			     const struct be_sm2_kep_params *p, uint8_t *out, size_t out_len);

/*
 * Key derivation functions; hash is a TEE_ALG_* digest. BAD_PARAMETERS for
 * an output the function cannot give (HKDF: over 255 hashes).
 *   HKDF (RFC 5869), salt absent = a hash of zeros;
 *   PBKDF2 with HMAC (RFC 8018), iter >= 1;
 *   Concat KDF (NIST SP 800-56A 5.8.1, with a hash): H(counter || Z || info).
 */
TEE_Result be_hkdf(uint32_t hash, const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
		   size_t salt_len, const uint8_t *info, size_t info_len, uint8_t *out,
		   size_t out_len);
TEE_Result be_pbkdf2(uint32_t hash, const uint8_t *pw, size_t pw_len, const uint8_t *salt,
		     size_t salt_len, uint32_t iter, uint8_t *out, size_t out_len);
TEE_Result be_concat_kdf(uint32_t hash, const uint8_t *z, size_t z_len, const uint8_t *info,
			 size_t info_len, uint8_t *out, size_t out_len);

/* ---- key generation ---- */

/*
 * Generates a key pair of key_size bits into o (uninitialised, of an
 * asymmetric type) as that type's attributes, from params already checked
 * against the type's table: the RSA public exponent (65537 by default), the
 * DSA and DH domain (DH also its private value bits), the ECC curve (the
 * curve of the size asked; SM2's by default). BAD_PARAMETERS for
 * parameters that cannot give such a key (an even exponent, a curve of
 * another size, a prime of another size).
 */
TEE_Result be_keygen(struct tee_obj *o, uint32_t key_size, const TEE_Attribute *params,
		     uint32_t count);

#endif
