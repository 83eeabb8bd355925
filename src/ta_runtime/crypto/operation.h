/*
 * Cryptographic operations: what a TEE_OperationHandle names, the table of
 * algorithms, and what the tee_api_*.c files of the Cryptographic
 * Operations API share. Private to src/ta_runtime/crypto.
 */
#ifndef SWTEE_CRYPTO_OPERATION_H
#define SWTEE_CRYPTO_OPERATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_internal_api.h>
#include <tee_api_defines_extensions.h>
#include <utee_defines.h>

#include "backend.h"
#include "object.h"

/* alg_desc.flags */
#define ALG_TWO_KEYS 0x01   /* TEE_SetOperationKey2: XTS */
#define ALG_TWO_BLOCKS 0x02 /* GP buffering keeps two blocks back: CTS, XTS */
#define ALG_NOPAD 0x04	    /* TEE_CipherDoFinal needs whole blocks */
#define ALG_XOF 0x08	    /* SHAKE: TEE_DigestExtract squeezes */
#define ALG_PKCS5 0x10	    /* cipher with PKCS#5 padding */

/* One algorithm TEE_AllocateOperation accepts. */
struct alg_desc {
	uint32_t alg;
	uint32_t cls;	     /* TEE_OPERATION_* */
	uint32_t key_type;   /* TEE_TYPE_* of the key(s); 0 for digests */
	uint16_t block_size; /* GP buffering unit of cipher data; 1 for none */
	uint8_t digest_len;  /* TEE_OperationInfo.digestLength at allocation */
	uint8_t flags;	     /* ALG_* */
};

/*
 * The description of alg, or NULL if the runtime does not have it. The
 * asymmetric algorithms join the table (alg.c) with their backend.
 */
const struct alg_desc *alg_find(uint32_t alg);
/* TEE_IsAlgorithmSupported: TEE_SUCCESS or TEE_ERROR_NOT_SUPPORTED. */
TEE_Result alg_supported(uint32_t alg, uint32_t element);

struct tee_op {
	const struct alg_desc *desc;
	/* keySize and requiredKeyUsage of key1; handleState holds TEE_HANDLE_FLAG_* */
	TEE_OperationInfo info;
	uint32_t state;	      /* TEE_OPERATION_STATE_* */
	struct tee_obj *key1; /* private copies of the keys; NULL for digests */
	struct tee_obj *key2; /* XTS's second key */
	size_t block_size;    /* GP cipher buffering */
	bool two_blocks;
	uint8_t buf[32];
	size_t buf_off;
	uint8_t digest[64]; /* a finished digest being extracted */
	size_t digest_off;
	union {
		struct be_hash *hash;
		struct be_mac *mac;
		struct be_cipher *cipher;
		struct be_ae *ae;
	} be;
	/* AE decryption: the plaintext, held until the tag checks out */
	uint8_t *hold;
	size_t hold_len;
	size_t hold_cap;
};

/* The operation behind h; panics (naming func) if h is not a live operation handle. */
struct tee_op *op_from_handle(TEE_OperationHandle h, const char *func);
/* Back to TEE_OPERATION_STATE_INITIAL, keeping the key. */
void op_reset_state(struct tee_op *op);
/* The secret bytes of a symmetric key object (its one buffer attribute). */
void op_key_bytes(const struct tee_obj *key, const uint8_t **p, size_t *len);
/* Wipes and frees the AE hold buffer. */
void op_hold_clear(struct tee_op *op);

#endif
