/*
 * The crypto_perf TA's session state and its command handlers, one file
 * per family: crypto_perf_cipher.c, crypto_perf_hash.c, crypto_perf_asym.c.
 */
#ifndef CRYPTO_PERF_H
#define CRYPTO_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_internal_api.h>

#include "ta_crypto_perf.h"

/* One prepared cipher operation. */
struct perf_cipher {
	TEE_OperationHandle op;
	uint32_t algo; /* TEE_ALG_* */
	bool decrypt;
	size_t message_len; /* GCM: bytes into the current message */
};

/* One prepared digest or MAC operation. */
struct perf_hash {
	TEE_OperationHandle op;
	bool mac;
};

/* A copied, checked attribute list; buffer attributes point into mem. */
struct perf_attrs {
	TEE_Attribute attr[TA_CRYPTO_PERF_MAX_ATTRS];
	uint32_t count;
	uint8_t *mem;
	size_t mem_len;
};

/* The asymmetric key pair and operation. */
struct perf_asym {
	TEE_ObjectHandle key; /* the key pair */
	uint32_t key_type;    /* TEE_TYPE_*_KEYPAIR */
	uint32_t key_bits;
	struct perf_attrs key_attrs; /* for TEE_GenerateKey */
	TEE_OperationHandle op;
	uint32_t mode;		    /* TEE_MODE_* of op */
	struct perf_attrs op_attrs; /* for every call of op */
};

struct perf_session {
	struct perf_cipher cipher;
	struct perf_hash hash;
	struct perf_asym asym;
};

TEE_Result perf_cipher_prepare(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS]);
TEE_Result perf_cipher_process(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS]);
/* Frees the cipher operation; accepts one never prepared. */
void perf_cipher_clear(struct perf_cipher *c);

TEE_Result perf_hash_prepare(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS]);
TEE_Result perf_hash_process(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS]);
void perf_hash_clear(struct perf_hash *h);

TEE_Result perf_asym_prepare_key(struct perf_session *s, uint32_t types,
				 TEE_Param p[TEE_NUM_PARAMS]);
TEE_Result perf_asym_prepare_op(struct perf_session *s, uint32_t types,
				TEE_Param p[TEE_NUM_PARAMS]);
TEE_Result perf_asym_process(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS]);
TEE_Result perf_asym_gen_keypair(struct perf_session *s, uint32_t types,
				 TEE_Param p[TEE_NUM_PARAMS]);
void perf_asym_clear(struct perf_asym *a);

/* The parameter types of a memref slot, input or output side: MEMREF_x or MEMREF_INOUT. */
bool perf_memref_in(uint32_t types, unsigned int slot);
bool perf_memref_out(uint32_t types, unsigned int slot);

#endif
