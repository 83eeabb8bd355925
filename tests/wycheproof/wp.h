/*
 * What the Wycheproof runner's files share: a test being run, the JSON and
 * hex helpers, and one function per Wycheproof test type, each running a
 * test case through the crypt TA (crypt_client.h) and saying what the TEE
 * made of it.
 */
#ifndef WP_H
#define WP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "crypt_client.h"

enum outcome {
	OUT_ACCEPTED, /* the vector's output came out (both ways), or it verified */
	OUT_REFUSED,  /* the API refused it in one of the allowed ways */
	OUT_WRONG,    /* a result that is neither: always a failure */
};

struct bytes {
	uint8_t *p;
	size_t n;
};

struct test {
	TEEC_Context *ctx;
	TEEC_Session *s;
	const char *file;
	const char *algorithm; /* the file's "algorithm" */
	long tc_id;
	char why[200]; /* for OUT_WRONG, or a note on a refusal */
};

/* A test type: runs one case of group g. */
typedef enum outcome (*wp_run_fn)(struct test *t, json_object *g, json_object *tc);

void why(struct test *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bytes_free(struct bytes *b);
/* The hex string member name of o as bytes; false if absent or malformed. */
bool get_hex(json_object *o, const char *name, struct bytes *b);
/* Member name of o as an int (-1 if absent), a string ("" if absent), an object (NULL). */
int get_int(json_object *o, const char *name);
const char *get_str(json_object *o, const char *name);
json_object *get_obj(json_object *o, const char *name);
/* After a TA panic: a new session, so that the next test starts clean. */
void check_dead(struct test *t, TEEC_Result res);
/* The TEE_ALG_* digest of a Wycheproof hash name ("SHA-256"), 0 if unknown. */
uint32_t hash_alg(const char *name);

/* The hash of msg computed by the TA; false (with why) on failure. */
bool ta_digest(struct test *t, uint32_t hash, const struct bytes *msg, uint8_t *out, size_t *len);
/*
 * Verifies sig over digest with a public key of type (bits, its attributes)
 * and algorithm alg: accepted, refused (TEE_ERROR_SIGNATURE_INVALID), or
 * wrong for anything else.
 */
enum outcome ta_verify(struct test *t, uint32_t alg, uint32_t type, uint32_t bits,
		       const struct cc_attr *key, size_t nkey, const struct cc_attr *params,
		       size_t nparams, const uint8_t *digest, size_t dlen, const struct bytes *sig);
/* Frees what a test allocated in the TA, unless it panicked (res). */
void ta_release(struct test *t, TEEC_Result res, uint32_t op, uint32_t obj1, uint32_t obj2);

/* Symmetric (wp_sym.c) */
enum outcome wp_ind_cpa(struct test *t, json_object *g, json_object *tc);
enum outcome wp_aead(struct test *t, json_object *g, json_object *tc);
enum outcome wp_mac(struct test *t, json_object *g, json_object *tc);
/* Signatures (wp_sig.c) */
enum outcome wp_dsa(struct test *t, json_object *g, json_object *tc);
enum outcome wp_ecdsa(struct test *t, json_object *g, json_object *tc);
enum outcome wp_eddsa(struct test *t, json_object *g, json_object *tc);
enum outcome wp_rsa_pkcs1_verify(struct test *t, json_object *g, json_object *tc);
enum outcome wp_rsa_pss_verify(struct test *t, json_object *g, json_object *tc);
/* RSA decryption (wp_rsa.c) */
enum outcome wp_rsa_oaep(struct test *t, json_object *g, json_object *tc);
enum outcome wp_rsa_pkcs1_decrypt(struct test *t, json_object *g, json_object *tc);
/* Key agreement (wp_kex.c) */
enum outcome wp_ecdh(struct test *t, json_object *g, json_object *tc);
enum outcome wp_xdh(struct test *t, json_object *g, json_object *tc);
/* Key derivation (wp_kdf.c) */
enum outcome wp_hkdf(struct test *t, json_object *g, json_object *tc);
enum outcome wp_pbkdf2(struct test *t, json_object *g, json_object *tc);

#endif
