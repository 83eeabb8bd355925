/*
 * Client side of the crypt test TA (tests/ta/crypt): one function per
 * command, shared by xtest's 4xxx cases and the Wycheproof runner. Each
 * returns the TEEC_Result of the invoke, which is the GP function's result
 * (TEEC_ERROR_TARGET_DEAD once the TA panicked). Lengths are in/out as in
 * the GP functions. An input pointer that is NULL goes as TEEC_NONE.
 */
#ifndef XTEST_CRYPT_CLIENT_H
#define XTEST_CRYPT_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include <tee_client_api.h>
#include <tee_api_defines.h>
#include <tee_api_defines_extensions.h>

#include "ta_crypt.h"

/* TEE_OperationInfo as the TA writes it. */
struct cc_op_info {
	uint32_t algorithm;
	uint32_t operation_class;
	uint32_t mode;
	uint32_t digest_length;
	uint32_t max_key_size;
	uint32_t key_size;
	uint32_t required_key_usage;
	uint32_t handle_state;
};

/* One attribute for POPULATE / GENERATE_KEY. */
struct cc_attr {
	uint32_t id;
	uint32_t a, b;	 /* value attributes */
	const void *buf; /* buffer attributes */
	size_t len;
};

#define CC_REF(i, p, l) ((struct cc_attr){.id = (i), .buf = (p), .len = (l)})
#define CC_VALUE(i, va, vb) ((struct cc_attr){.id = (i), .a = (va), .b = (vb)})

TEEC_Result cc_open(TEEC_Context *ctx, TEEC_Session *s);

TEEC_Result cc_alloc_op(TEEC_Session *s, uint32_t alg, uint32_t mode, uint32_t max_key_size,
			uint32_t *op);
TEEC_Result cc_free_op(TEEC_Session *s, uint32_t op);
TEEC_Result cc_op_info(TEEC_Session *s, uint32_t op, struct cc_op_info *info);
/* info has *size bytes; *size comes back as the bytes used or needed. */
TEEC_Result cc_op_info_multiple(TEEC_Session *s, uint32_t op, void *info, size_t *size);
TEEC_Result cc_reset_op(TEEC_Session *s, uint32_t op);
TEEC_Result cc_set_key(TEEC_Session *s, uint32_t op, uint32_t key);
TEEC_Result cc_set_key2(TEEC_Session *s, uint32_t op, uint32_t key1, uint32_t key2);
TEEC_Result cc_copy_op(TEEC_Session *s, uint32_t dst, uint32_t src);
TEEC_Result cc_is_supported(TEEC_Session *s, uint32_t alg, uint32_t element);

TEEC_Result cc_digest_update(TEEC_Session *s, uint32_t op, const void *in, size_t len);
TEEC_Result cc_digest_final(TEEC_Session *s, uint32_t op, const void *in, size_t len, void *out,
			    size_t *out_len);
TEEC_Result cc_digest_extract(TEEC_Session *s, uint32_t op, void *out, size_t *out_len);

TEEC_Result cc_cipher_init(TEEC_Session *s, uint32_t op, const void *iv, size_t iv_len);
TEEC_Result cc_cipher_update(TEEC_Session *s, uint32_t op, const void *in, size_t len, void *out,
			     size_t *out_len);
TEEC_Result cc_cipher_final(TEEC_Session *s, uint32_t op, const void *in, size_t len, void *out,
			    size_t *out_len);
/* buf (*len bytes) ciphered in place by TEE_CipherUpdate or, final, TEE_CipherDoFinal. */
TEEC_Result cc_cipher_in_place(TEEC_Session *s, uint32_t op, int final, void *buf, size_t *len);

TEEC_Result cc_mac_init(TEEC_Session *s, uint32_t op, const void *iv, size_t iv_len);
TEEC_Result cc_mac_update(TEEC_Session *s, uint32_t op, const void *in, size_t len);
TEEC_Result cc_mac_compute(TEEC_Session *s, uint32_t op, const void *in, size_t len, void *mac,
			   size_t *mac_len);
TEEC_Result cc_mac_compare(TEEC_Session *s, uint32_t op, const void *in, size_t len,
			   const void *mac, size_t mac_len);

TEEC_Result cc_ae_init(TEEC_Session *s, uint32_t op, const void *nonce, size_t nonce_len,
		       uint32_t tag_bits, uint32_t aad_len, uint32_t payload_len);
TEEC_Result cc_ae_aad(TEEC_Session *s, uint32_t op, const void *aad, size_t len);
TEEC_Result cc_ae_update(TEEC_Session *s, uint32_t op, const void *in, size_t len, void *out,
			 size_t *out_len);
TEEC_Result cc_ae_enc_final(TEEC_Session *s, uint32_t op, const void *in, size_t len, void *out,
			    size_t *out_len, void *tag, size_t *tag_len);
TEEC_Result cc_ae_dec_final(TEEC_Session *s, uint32_t op, const void *in, size_t len, void *out,
			    size_t *out_len, const void *tag, size_t tag_len);

TEEC_Result cc_random(TEEC_Session *s, void *out, size_t len);

TEEC_Result cc_alloc_obj(TEEC_Session *s, uint32_t type, uint32_t max_size, uint32_t *obj);
TEEC_Result cc_free_obj(TEEC_Session *s, uint32_t obj);
TEEC_Result cc_reset_obj(TEEC_Session *s, uint32_t obj);
TEEC_Result cc_close_obj(TEEC_Session *s, uint32_t obj);
TEEC_Result cc_populate(TEEC_Session *s, uint32_t obj, const struct cc_attr *attrs, size_t n);
TEEC_Result cc_generate_key(TEEC_Session *s, uint32_t obj, uint32_t key_size,
			    const struct cc_attr *attrs, size_t n);
/* deprecated != 0: TEE_GetObjectInfo rather than TEE_GetObjectInfo1. */
TEEC_Result cc_obj_info(TEEC_Session *s, uint32_t obj, struct ta_crypt_object_info *info,
			int deprecated);
TEEC_Result cc_restrict_usage(TEEC_Session *s, uint32_t obj, uint32_t usage, int deprecated);
TEEC_Result cc_get_buf_attr(TEEC_Session *s, uint32_t obj, uint32_t id, void *buf, size_t *len);
TEEC_Result cc_get_val_attr(TEEC_Session *s, uint32_t obj, uint32_t id, uint32_t *a, uint32_t *b);
TEEC_Result cc_copy_attrs(TEEC_Session *s, uint32_t dst, uint32_t src, int deprecated);
/* TEE_InitRefAttribute (value 0) or TEE_InitValueAttribute (value 1) with id. */
TEEC_Result cc_init_attr(TEEC_Session *s, uint32_t id, int value);
/* An object of type holding key (len bytes) as its secret value, max size len * 8. */
TEEC_Result cc_secret_key(TEEC_Session *s, uint32_t type, const void *key, size_t len,
			  uint32_t *obj);

/* An object of type (maximum size max_size) populated with attrs. */
TEEC_Result cc_key(TEEC_Session *s, uint32_t type, uint32_t max_size, const struct cc_attr *attrs,
		   size_t n, uint32_t *obj);

/* Asymmetric operations with the operation's attributes (attrs may be NULL, n 0). */
TEEC_Result cc_asym_encrypt(TEEC_Session *s, uint32_t op, const struct cc_attr *attrs, size_t n,
			    const void *in, size_t len, void *out, size_t *out_len);
TEEC_Result cc_asym_decrypt(TEEC_Session *s, uint32_t op, const struct cc_attr *attrs, size_t n,
			    const void *in, size_t len, void *out, size_t *out_len);
TEEC_Result cc_asym_sign(TEEC_Session *s, uint32_t op, const struct cc_attr *attrs, size_t n,
			 const void *digest, size_t len, void *sig, size_t *sig_len);
TEEC_Result cc_asym_verify(TEEC_Session *s, uint32_t op, const struct cc_attr *attrs, size_t n,
			   const void *digest, size_t len, const void *sig, size_t sig_len);
/*
 * TEE_DeriveKey into derived. The bytes of a TEE_ATTR_SM2_KEP_CONFIRMATION_OUT
 * attribute are written back to its (writable) buffer.
 */
TEEC_Result cc_derive_key(TEEC_Session *s, uint32_t op, uint32_t derived, struct cc_attr *attrs,
			  size_t n);
/*
 * The __GP11_ forms: cmd is TA_CRYPT_CMD_ASYM_*; for VERIFY, out is the
 * signature (*out_len its length) and is not written.
 */
TEEC_Result cc_gp11_asym(TEEC_Session *s, uint32_t cmd, uint32_t op, const struct cc_attr *attrs,
			 size_t n, const void *in, size_t len, void *out, size_t *out_len);
TEEC_Result cc_gp11_derive_key(TEEC_Session *s, uint32_t op, uint32_t derived,
			       const struct cc_attr *attrs, size_t n);

/* Any command with up to two values: v0 = (a, b), v1 = (c, d). */
TEEC_Result cc_invoke_values(TEEC_Session *s, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c,
			     uint32_t d);

#endif
