/*
 * What the asymmetric and key-derivation cases (regression 4006-4019,
 * 8001) share: sessions to the crypt TA, hex vectors, and the host's
 * OpenSSL where a case checks the TEE's output against an independent
 * computation (a signature verified, a deterministic signature or a shared
 * secret computed again).
 */
#ifndef XTEST_CRYPT_TEST_H
#define XTEST_CRYPT_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "adbg.h"
#include "crypt_client.h"

#define CT_BUF 1024

/* Decodes hex (spaces allowed) into out (cap bytes); returns the byte count. */
size_t ct_unhex(const char *hex, uint8_t *out, size_t cap);
/* Opens a session to the crypt TA on xtest_teec_ctx (checked). */
bool ct_open(ADBG_Case_t *c, TEEC_Session *s);
/* A call that must have panicked the TA: checks TARGET_DEAD and opens a new session. */
bool ct_expect_panic(ADBG_Case_t *c, TEEC_Session *s, TEEC_Result res);
/*
 * An operation of alg in mode (maximum key size max) with key set (an
 * object handle, 0 for none); 0 when that fails (checked).
 */
uint32_t ct_op(ADBG_Case_t *c, TEEC_Session *s, uint32_t alg, uint32_t mode, uint32_t max,
	       uint32_t key);
/* The TA's digest hash of msg into out (*len in: room, out: size); checked. */
bool ct_digest(ADBG_Case_t *c, TEEC_Session *s, uint32_t hash, const void *msg, size_t len,
	       uint8_t *out, size_t *out_len);
/* A buffer attribute of obj into buf (*len in: room, out: size); checked. */
bool ct_attr(ADBG_Case_t *c, TEEC_Session *s, uint32_t obj, uint32_t id, uint8_t *buf, size_t *len);
/* A key object of type from attrs (checked); 0 when it fails. */
uint32_t ct_key(ADBG_Case_t *c, TEEC_Session *s, uint32_t type, uint32_t bits,
		const struct cc_attr *attrs, size_t n);
/*
 * TEE_DeriveKey with op into a new generic secret of max_bits: the secret
 * into out (*out_len in: room, out: size) and, if info is not NULL, the
 * object's info. The object is freed.
 */
TEEC_Result ct_derive(TEEC_Session *s, uint32_t op, struct cc_attr *params, size_t n,
		      uint32_t max_bits, uint8_t *out, size_t *out_len,
		      struct ta_crypt_object_info *info);
/* A generated key pair of type and size with params (checked); 0 when it fails. */
uint32_t ct_genkey(ADBG_Case_t *c, TEEC_Session *s, uint32_t type, uint32_t bits,
		   const struct cc_attr *params, size_t n);

/* ---- the host's OpenSSL ---- */

/* The host's EVP_MD of a TEE_ALG_* digest, NULL for none. */
const EVP_MD *ct_host_md(uint32_t hash);
/* Big-endian bytes of an integer parameter of a host key; returns the length, 0 on failure. */
size_t ct_host_bn(EVP_PKEY *pk, const char *name, uint8_t *out, size_t cap);
/*
 * A host key from OSSL_PARAM-style data: type "RSA", "DSA", "EC"... with
 * up to 8 integer parameters (names[i] = big-endian value[i]) and an
 * optional group name and public point. NULL on failure.
 */
EVP_PKEY *ct_host_key(const char *type, const char *group, const uint8_t *pub, size_t pub_len,
		      const char *const *names, const uint8_t *const *values, const size_t *lens,
		      size_t n);
/* Sign/verify a digest with a host key; ctx hook sets padding and the like. */
typedef bool (*ct_host_setup)(EVP_PKEY_CTX *ctx, const void *arg);
bool ct_host_sign(EVP_PKEY *pk, ct_host_setup setup, const void *arg, const uint8_t *dg,
		  size_t dlen, uint8_t *sig, size_t *sig_len);
bool ct_host_verify(EVP_PKEY *pk, ct_host_setup setup, const void *arg, const uint8_t *dg,
		    size_t dlen, const uint8_t *sig, size_t sig_len);
bool ct_host_encrypt(EVP_PKEY *pk, ct_host_setup setup, const void *arg, const uint8_t *in,
		     size_t len, uint8_t *out, size_t *out_len);
bool ct_host_decrypt(EVP_PKEY *pk, ct_host_setup setup, const void *arg, const uint8_t *in,
		     size_t len, uint8_t *out, size_t *out_len);
/* A finite-field group (DSA and DH domain) the host's OpenSSL names: "dh_2048_256", "ffdhe2048". */
struct ct_ffc {
	uint8_t p[512], q[512], g[512];
	size_t p_len, q_len, g_len; /* q_len 0: none */
};

bool ct_host_group(const char *name, struct ct_ffc *f);

/*
 * Checks a DH or DSA key pair of the TEE in group f: y = g^x mod p, 0 < x
 * (< q when f has one), and x of x_bits bits unless x_bits is 0.
 */
void ct_ffc_check(ADBG_Case_t *c, TEEC_Session *s, uint32_t key, const struct ct_ffc *f,
		  uint32_t x_id, uint32_t y_id, int x_bits);

/* A DSA key pair the TEE generates in group f, its public key in the TEE and on the host. */
struct ct_dsa {
	EVP_PKEY *host; /* the pair */
	uint32_t pair, pub;
};

/* Checked; false when any part fails (what was made is in k for ct_dsa_free). */
bool ct_dsa_key(ADBG_Case_t *c, TEEC_Session *s, const struct ct_ffc *f, uint32_t bits,
		struct ct_dsa *k);
/* Frees what k holds (objects of a TA instance that panicked: set them to 0 first). */
void ct_dsa_free(TEEC_Session *s, struct ct_dsa *k);

/* r || s (each n bytes) <-> DER, for DSA and ECDSA. */
bool ct_rs_to_der(const uint8_t *rs, size_t n, uint8_t *der, size_t *der_len);
bool ct_der_to_rs(const uint8_t *der, size_t der_len, size_t n, uint8_t *rs);

#endif
