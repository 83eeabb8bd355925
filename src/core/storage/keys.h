/*
 * The keys of the storage engine and its primitives: locked memory for
 * keys (secmem.c), the key chain and AES-GCM, SHA-256 and HMAC (keys.c).
 *
 *   HUK (secure dir) -> SSK -> TSK per TA -> FEK per object (random)
 */
#ifndef SWTEE_STORAGE_KEYS_H
#define SWTEE_STORAGE_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "format.h"
#include "must_check.h"
#include "uuid.h"

/* ---- secmem.c: locked, non-dumpable memory for keys ---- */

/* n <= 128 bytes of zeroed locked memory, or NULL. */
SWTEE_MUST_CHECK void *secmem_alloc(size_t n);
/* Wipes and releases p (NULL is fine). */
void secmem_free(void *p);

/* ---- keys.c: the key chain and the primitives ---- */

/*
 * Loads the HUK from secure_dir/huk, making it (0600) on first start, and
 * derives the SSK and the RPMB key into locked memory. 0 or -1.
 */
SWTEE_MUST_CHECK int keys_init(const char *secure_dir);
void keys_fini(void);
bool keys_ready(void);
const char *keys_secure_dir(void);

struct ta_keys {
	uint8_t dir[STOR_KEY];	   /* directory snapshots */
	uint8_t journal[STOR_KEY]; /* journal records and headers */
	uint8_t binding[STOR_TAG]; /* ties an RPMB slot to its TA */
};

/* The TA's keys (from its TSK) and the name of its REE FS directory. */
void keys_for_ta(const struct swtee_uuid *uuid, struct ta_keys *k,
		 char dirname[STOR_DIRNAME_LEN + 1]);
/*
 * The device-unique key of the TA uuid, from extra[0..extra_len) (at most
 * KEYS_UNIQUE_EXTRA_MAX bytes), into key[0..key_len) (at most 32 bytes).
 * Returns 0, or -1 without the storage keys or for a size out of range.
 */
#define KEYS_UNIQUE_EXTRA_MAX 1024
SWTEE_MUST_CHECK int keys_ta_unique(const struct swtee_uuid *uuid, const void *extra,
				    size_t extra_len, uint8_t *key, size_t key_len);
/* HMAC-SHA256 under the RPMB key. */
void keys_rpmb_mac(const void *p, size_t n, uint8_t mac[STOR_HASH]);

SWTEE_MUST_CHECK int crypt_random(void *p, size_t n);
void crypt_sha256(const void *p, size_t n, uint8_t out[STOR_HASH]);
void crypt_hmac(const uint8_t key[STOR_KEY], const void *a, size_t an, const void *b, size_t bn,
		uint8_t out[STOR_HASH]);
/*
 * One-shot AES-256-GCM under ctx, a cipher context already keyed (see
 * crypt_ctx_new; never NULL). seal writes len bytes to out and the tag:
 * 0 or -1. open returns 0 only when the tag matches; on any failure the len
 * bytes of out are wiped, so no unverified plaintext is left in it. out may
 * be NULL when len is 0 (a tag over the AAD alone).
 */
SWTEE_MUST_CHECK EVP_CIPHER_CTX *crypt_ctx_new(const uint8_t key[STOR_KEY]);
SWTEE_MUST_CHECK int crypt_seal(EVP_CIPHER_CTX *ctx, const uint8_t iv[STOR_IV], const void *aad,
				size_t aadlen, const uint8_t *in, uint8_t *out, size_t len,
				uint8_t tag[STOR_TAG]);
SWTEE_MUST_CHECK int crypt_open(EVP_CIPHER_CTX *ctx, const uint8_t iv[STOR_IV], const void *aad,
				size_t aadlen, const uint8_t *in, uint8_t *out, size_t len,
				const uint8_t tag[STOR_TAG]);

#endif
