/*
 * The "crypt" test TA: every GP key-object and crypto call as a command, so
 * that the host (xtest 4xxx and 8001, the Wycheproof runner) can drive any
 * sequence, as OP-TEE's crypt TA does.
 *
 * Each command returns what the GP function returns; a GP panic ends the
 * instance and the host sees TEEC_ERROR_TARGET_DEAD. Handles travel as
 * value.a (or .b) and are used as given, so the host can pass bad ones.
 * An output memref's size comes back as the function's length out, also
 * with TEEC_ERROR_SHORT_BUFFER. A memref slot left TEEC_NONE is passed as
 * NULL with length 0.
 *
 * Attributes (POPULATE, GENERATE_KEY, the asymmetric operations,
 * DERIVE_KEY) are a memref of records
 *	u32 id, u32 a, u32 b		(value attribute: a, b)
 *	u32 id, u32 0, u32 len, len bytes, zeros to a multiple of 4
 *					(buffer attribute)
 * in host byte order, at most TA_CRYPT_MAX_ATTRS of them.
 */
#ifndef TA_CRYPT_H
#define TA_CRYPT_H

#include <stdint.h>

#define TA_CRYPT_UUID                                                                              \
	{                                                                                          \
		0x2ba2c06a, 0x43ca, 0x452b,                                                        \
		{                                                                                  \
			0x82, 0x19, 0x73, 0xa2, 0x0c, 0xcc, 0x33, 0x61                             \
		}                                                                                  \
	}

#define TA_CRYPT_MAX_ATTRS 16

/* GET_OBJECT_INFO*: TEE_ObjectInfo with every field as a u32. */
struct ta_crypt_object_info {
	uint32_t object_type;
	uint32_t object_size;
	uint32_t max_object_size;
	uint32_t object_usage;
	uint32_t data_size;
	uint32_t data_position;
	uint32_t handle_flags;
};

/* Operations. v = value, m = memref; inputs unless marked out. */
/* v0 a=algorithm b=mode; v1 a=maxKeySize; v2 out a=op */
#define TA_CRYPT_CMD_ALLOCATE_OPERATION 1
#define TA_CRYPT_CMD_FREE_OPERATION 2	  /* v0 a=op */
#define TA_CRYPT_CMD_GET_OPERATION_INFO 3 /* v0 a=op; m1 out TEE_OperationInfo */
/* v0 a=op; m1 out TEE_OperationInfoMultiple, its size the operationSize */
#define TA_CRYPT_CMD_GET_OPERATION_INFO_MULTIPLE 4
#define TA_CRYPT_CMD_RESET_OPERATION 5	  /* v0 a=op */
#define TA_CRYPT_CMD_SET_OPERATION_KEY 6  /* v0 a=op b=key */
#define TA_CRYPT_CMD_SET_OPERATION_KEY2 7 /* v0 a=op; v1 a=key1 b=key2 */
#define TA_CRYPT_CMD_COPY_OPERATION 8	  /* v0 a=dst b=src */
#define TA_CRYPT_CMD_IS_ALGO_SUPPORTED 9  /* v0 a=algorithm b=element */
#define TA_CRYPT_CMD_DIGEST_UPDATE 10	  /* v0 a=op; m1 chunk */
#define TA_CRYPT_CMD_DIGEST_DO_FINAL 11	  /* v0 a=op; m1 chunk; m2 out hash */
#define TA_CRYPT_CMD_DIGEST_EXTRACT 12	  /* v0 a=op; m1 out hash */
#define TA_CRYPT_CMD_CIPHER_INIT 13	  /* v0 a=op; m1 IV */
#define TA_CRYPT_CMD_CIPHER_UPDATE 14	  /* v0 a=op; m1 src; m2 out dest */
#define TA_CRYPT_CMD_CIPHER_DO_FINAL 15	  /* v0 a=op; m1 src; m2 out dest */
#define TA_CRYPT_CMD_MAC_INIT 16	  /* v0 a=op; m1 IV */
#define TA_CRYPT_CMD_MAC_UPDATE 17	  /* v0 a=op; m1 chunk */
#define TA_CRYPT_CMD_MAC_COMPUTE_FINAL 18 /* v0 a=op; m1 message; m2 out mac */
#define TA_CRYPT_CMD_MAC_COMPARE_FINAL 19 /* v0 a=op; m1 message; m2 mac */
#define TA_CRYPT_CMD_AE_INIT 20 /* v0 a=op b=tagLen bits; m1 nonce; v2 a=AADLen b=payloadLen */
#define TA_CRYPT_CMD_AE_UPDATE_AAD 21	 /* v0 a=op; m1 AAD */
#define TA_CRYPT_CMD_AE_UPDATE 22	 /* v0 a=op; m1 src; m2 out dest */
#define TA_CRYPT_CMD_AE_ENCRYPT_FINAL 23 /* v0 a=op; m1 src; m2 out dest; m3 out tag */
#define TA_CRYPT_CMD_AE_DECRYPT_FINAL 24 /* v0 a=op; m1 src; m2 out dest; m3 tag */
#define TA_CRYPT_CMD_GENERATE_RANDOM 25	 /* m0 out */

/* Objects */
#define TA_CRYPT_CMD_ALLOCATE_TRANSIENT_OBJECT 26   /* v0 a=type b=maxObjectSize; v1 out a=obj */
#define TA_CRYPT_CMD_FREE_TRANSIENT_OBJECT 27	    /* v0 a=obj */
#define TA_CRYPT_CMD_RESET_TRANSIENT_OBJECT 28	    /* v0 a=obj */
#define TA_CRYPT_CMD_POPULATE_TRANSIENT_OBJECT 29   /* v0 a=obj; m1 attributes */
#define TA_CRYPT_CMD_GENERATE_KEY 30		    /* v0 a=obj b=keySize; m1 attributes */
#define TA_CRYPT_CMD_GET_OBJECT_INFO1 31	    /* v0 a=obj; m1 out ta_crypt_object_info */
#define TA_CRYPT_CMD_GET_OBJECT_INFO 32		    /* same, TEE_GetObjectInfo */
#define TA_CRYPT_CMD_RESTRICT_OBJECT_USAGE1 33	    /* v0 a=obj b=usage */
#define TA_CRYPT_CMD_RESTRICT_OBJECT_USAGE 34	    /* same, TEE_RestrictObjectUsage */
#define TA_CRYPT_CMD_GET_OBJECT_BUFFER_ATTRIBUTE 35 /* v0 a=obj b=attributeID; m1 out */
#define TA_CRYPT_CMD_GET_OBJECT_VALUE_ATTRIBUTE 36  /* v0 a=obj b=attributeID; v1 out a, b */
#define TA_CRYPT_CMD_COPY_OBJECT_ATTRIBUTES1 37	    /* v0 a=dst b=src */
#define TA_CRYPT_CMD_CLOSE_OBJECT 38		    /* v0 a=obj */
/* v0 a=attributeID b=0: TEE_InitRefAttribute, b=1: TEE_InitValueAttribute */
#define TA_CRYPT_CMD_INIT_ATTRIBUTE 39
#define TA_CRYPT_CMD_COPY_OBJECT_ATTRIBUTES 40 /* v0 a=dst b=src, TEE_CopyObjectAttributes */

/* GP 1.1 behaviour and in-place data */
#define TA_CRYPT_CMD_GP11_SET_OPERATION_KEY 41 /* v0 a=op b=key, __GP11_TEE_SetOperationKey */
#define TA_CRYPT_CMD_GP11_FREE_OPERATION 42    /* v0 a=op, __GP11_TEE_FreeOperation */
/*
 * v0 a=op b=0: TEE_CipherUpdate, 1: TEE_CipherDoFinal, 2: TEE_AEUpdate;
 * m1 inout, ciphered in place
 */
#define TA_CRYPT_CMD_CIPHER_IN_PLACE 43

/* Asymmetric operations; m1 the operation's attributes (may be TEEC_NONE) */
#define TA_CRYPT_CMD_ASYM_ENCRYPT 44 /* v0 a=op; m1 attributes; m2 src; m3 out dest */
#define TA_CRYPT_CMD_ASYM_DECRYPT 45 /* v0 a=op; m1 attributes; m2 src; m3 out dest */
#define TA_CRYPT_CMD_ASYM_SIGN 46    /* v0 a=op; m1 attributes; m2 digest; m3 out signature */
#define TA_CRYPT_CMD_ASYM_VERIFY 47  /* v0 a=op; m1 attributes; m2 digest; m3 signature */
/*
 * v0 a=op b=derivedKey; m1 inout attributes: a TEE_ATTR_SM2_KEP_CONFIRMATION_OUT
 * record's bytes come back with what TEE_DeriveKey wrote there.
 */
#define TA_CRYPT_CMD_DERIVE_KEY 48
/* The __GP11_ forms: v0 a=op b=one of the five commands above; DERIVE_KEY: v2 a=derivedKey */
#define TA_CRYPT_CMD_GP11_ASYM 49

#endif
