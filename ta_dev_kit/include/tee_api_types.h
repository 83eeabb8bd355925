/*
 * Types of the GlobalPlatform TEE Internal Core API v1.3.1, with the GP 1.1
 * layouts of the types that changed since (__GP11_*), as OP-TEE uses them.
 */
#ifndef TEE_API_TYPES_H
#define TEE_API_TYPES_H

/*
 * As OP-TEE's: TAs use PRIu32 and the compiler.h shorthands after
 * including only this header (or tee_internal_api.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <compiler.h>
#include <tee_api_defines.h>

/* OP-TEE's TAs (its examples among them) expect this from the API headers. */
#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif

typedef uint32_t TEE_Result;

typedef struct {
	uint32_t timeLow;
	uint16_t timeMid;
	uint16_t timeHiAndVersion;
	uint8_t clockSeqAndNode[8];
} TEE_UUID;

typedef struct {
	uint32_t login; /* TEE_LOGIN_* */
	TEE_UUID uuid;
} TEE_Identity;

/* A parameter of an entry point or TA-to-TA call; the active member follows its type. */
typedef union {
	struct {
		void *buffer;
		size_t size;
	} memref;
	struct {
		uint32_t a;
		uint32_t b;
	} value;
} TEE_Param;

/* TEE_Param as GP 1.1 laid it out, with a 32-bit size. */
typedef union {
	struct {
		void *buffer;
		uint32_t size;
	} memref;
	struct {
		uint32_t a;
		uint32_t b;
	} value;
} __GP11_TEE_Param;

/* Memory reference direction flags */
#define TEE_MEM_INPUT 0x00000001
#define TEE_MEM_OUTPUT 0x00000002

/* Bits telling which of the four parameters carry a memory reference */
#define TEE_MEMREF_0_USED 0x00000001
#define TEE_MEMREF_1_USED 0x00000002
#define TEE_MEMREF_2_USED 0x00000004
#define TEE_MEMREF_3_USED 0x00000008

/* Opaque handles */
typedef struct __TEE_TASessionHandle *TEE_TASessionHandle;
typedef struct __TEE_PropSetHandle *TEE_PropSetHandle;
typedef struct __TEE_ObjectHandle *TEE_ObjectHandle;
typedef struct __TEE_ObjectEnumHandle *TEE_ObjectEnumHandle;
typedef struct __TEE_OperationHandle *TEE_OperationHandle;

typedef uint32_t TEE_ErrorOrigin; /* TEE_ORIGIN_* */
typedef void *TEE_Session;

/* Trusted storage */

typedef uint32_t TEE_ObjectType; /* TEE_TYPE_* */

typedef struct {
	uint32_t attributeID; /* TEE_ATTR_* */
	union {
		struct {
			void *buffer;
			size_t length;
		} ref;
		struct {
			uint32_t a;
			uint32_t b;
		} value;
	} content;
} TEE_Attribute;

/* TEE_Attribute as GP 1.1 laid it out, with a 32-bit length. */
typedef struct {
	uint32_t attributeID;
	union {
		struct {
			void *buffer;
			uint32_t length;
		} ref;
		struct {
			uint32_t a;
			uint32_t b;
		} value;
	} content;
} __GP11_TEE_Attribute;

typedef struct {
	uint32_t objectType;
	uint32_t objectSize;
	uint32_t maxObjectSize;
	uint32_t objectUsage;
	size_t dataSize;
	size_t dataPosition;
	uint32_t handleFlags;
} TEE_ObjectInfo;

/*
 * TEE_ObjectInfo as GP 1.1 laid it out. keySize and maxKeySize are the
 * GP 1.1 names, objectSize and maxObjectSize those of GP 1.1.1.
 */
typedef struct {
	uint32_t objectType;
	union {
		uint32_t keySize;
		uint32_t objectSize;
	};
	union {
		uint32_t maxKeySize;
		uint32_t maxObjectSize;
	};
	uint32_t objectUsage;
	uint32_t dataSize;
	uint32_t dataPosition;
	uint32_t handleFlags;
} __GP11_TEE_ObjectInfo;

typedef uint32_t TEE_Whence; /* TEE_DATA_SEEK_* */

/* Cryptographic operations */

typedef uint32_t TEE_OperationMode; /* TEE_MODE_* */

typedef struct {
	uint32_t algorithm;
	uint32_t operationClass;
	uint32_t mode;
	uint32_t digestLength;
	uint32_t maxKeySize;
	uint32_t keySize;
	uint32_t requiredKeyUsage;
	uint32_t handleState;
} TEE_OperationInfo;

typedef struct {
	uint32_t keySize;
	uint32_t requiredKeyUsage;
} TEE_OperationInfoKey;

typedef struct {
	uint32_t algorithm;
	uint32_t operationClass;
	uint32_t mode;
	uint32_t digestLength;
	uint32_t maxKeySize;
	uint32_t handleState;
	uint32_t operationState;
	uint32_t numberOfKeys;
	TEE_OperationInfoKey keyInformation[]; /* numberOfKeys entries */
} TEE_OperationInfoMultiple;

/* Time */

typedef struct {
	uint32_t seconds;
	uint32_t millis;
} TEE_Time;

/* Arithmetical API: arrays of uint32_t sized with TEE_BigIntSizeInU32() */

typedef uint32_t TEE_BigInt;
typedef uint32_t TEE_BigIntFMM;
typedef uint32_t TEE_BigIntFMMContext;

/* Secure Element API: types only, no functions are provided */

typedef struct __TEE_SEServiceHandle *TEE_SEServiceHandle;
typedef struct __TEE_SEReaderHandle *TEE_SEReaderHandle;
typedef struct __TEE_SESessionHandle *TEE_SESessionHandle;
typedef struct __TEE_SEChannelHandle *TEE_SEChannelHandle;

typedef struct {
	bool sePresent;
	bool teeOnly;
	bool selectResponseEnable;
} TEE_SEReaderProperties;

typedef struct {
	uint8_t *buffer;
	size_t bufferLen;
} TEE_SEAID;

#define TEE_SE_READER_NAME_MAX 20

#endif /* TEE_API_TYPES_H */
