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
#define ALG_TWO_KEYS 0x01   /* TEE_SetOperationKey2: XTS, SM2 KEP */
#define ALG_TWO_BLOCKS 0x02 /* GP buffering keeps two blocks back: CTS, XTS */
#define ALG_NOPAD 0x04	    /* TEE_CipherDoFinal needs whole blocks */
#define ALG_XOF 0x08	    /* SHAKE: TEE_DigestExtract squeezes */
#define ALG_PKCS5 0x10	    /* cipher with PKCS#5 padding */

/* One algorithm TEE_AllocateOperation accepts. */
struct alg_desc {
	uint32_t alg;
	uint32_t cls;	     /* TEE_OPERATION_* */
	uint32_t key_type;   /* TEE_TYPE_* of the key(s); 0 for digests; a key pair type */
	uint16_t block_size; /* GP buffering unit of cipher data; 1 for none */
	uint8_t digest_len;  /* TEE_OperationInfo.digestLength at allocation */
	uint8_t flags;	     /* ALG_* */
	uint32_t hash;	     /* asymmetric and KDF: the TEE_ALG_* digest used, 0 for none */
};

/* The description of alg, or NULL if the runtime does not have it. */
const struct alg_desc *alg_find(uint32_t alg);
/* TEE_IsAlgorithmSupported: TEE_SUCCESS or TEE_ERROR_NOT_SUPPORTED. */
TEE_Result alg_supported(uint32_t alg, uint32_t element);
/*
 * True when the runtime can run alg here (its digest included) and
 * maxKeySize suits it beyond its key type's sizes (OP-TEE's rules: a DSA
 * hash fixes the prime's size, the OP-TEE ECDSA/ECDH IDs their curve).
 */
bool alg_usable(const struct alg_desc *d, uint32_t max_key_size);
/* Size in bytes of a TEE_ALG_* digest (0 for none or unknown). */
size_t alg_hash_size(uint32_t hash);
/*
 * The curve an OP-TEE ECDSA or ECDH ID (__OPTEE_ALG_ECDSA_P*, _ECDH_P*)
 * fixes, 0 for any other algorithm.
 */
uint32_t alg_fixed_curve(uint32_t alg);

struct tee_op {
	const struct alg_desc *desc;
	/* keySize and requiredKeyUsage of key1; handleState holds TEE_HANDLE_FLAG_* */
	TEE_OperationInfo info;
	uint32_t state;	      /* TEE_OPERATION_STATE_* */
	struct tee_obj *key1; /* private copies of the keys; NULL for digests */
	struct tee_obj *key2; /* XTS's second key */
	size_t block_size;    /* GP cipher buffering */
	bool two_blocks;
	uint8_t buf[32]; /* what cipher and CCM buffering keep back */
	size_t buf_off;
	uint8_t digest[64]; /* a finished digest being extracted */
	size_t digest_off;
	union {
		struct be_hash *hash;
		struct be_mac *mac;
		struct be_cipher *cipher;
		struct be_ae *ae;
	} be;
	/* Asymmetric and derivation: key1 (and key2) for the library, made on first use */
	struct be_pkey *pkey1;
	struct be_pkey *pkey2;
};

/* The operation behind h; panics (naming func) if h is not a live operation handle. */
struct tee_op *op_from_handle(TEE_OperationHandle h, const char *func);
/* Back to TEE_OPERATION_STATE_INITIAL, keeping the key. */
void op_reset_state(struct tee_op *op);
/* The secret bytes of a symmetric key object (its one buffer attribute). */
void op_key_bytes(const struct tee_obj *key, const uint8_t **p, size_t *len);
/*
 * src, or a private copy of it (*copy, freed with op_input_free) when it
 * overlaps dst, dlen bytes: output written ahead of input must not change
 * unread input (the TA may cipher in place). Panics when out of memory.
 */
const uint8_t *op_input_copy(const void *src, size_t slen, const void *dst, size_t dlen,
			     uint8_t **copy, const char *func);
/* Wipes and frees what op_input_copy allocated; NULL allowed. */
void op_input_free(uint8_t *copy, size_t slen);
/* Drops the library's copies of the keys (after a key change). */
void op_pkeys_clear(struct tee_op *op);
/*
 * The library key of op's key1 (second: key2), made on first use;
 * TEE_ERROR_BAD_PARAMETERS when the library refuses the key's values.
 */
TEE_Result op_pkey(struct tee_op *op, bool second, struct be_pkey **k);

#endif
