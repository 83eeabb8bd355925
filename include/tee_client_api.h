/*
 * GlobalPlatform TEE Client API v1.0: the interface a normal-world
 * application uses to talk to Trusted Applications through libteec.
 *
 * Names, values and the implementation-defined "imp" layouts are the ones
 * OP-TEE's libteec uses, so clients written for it build unchanged.
 */
#ifndef TEE_CLIENT_API_H
#define TEE_CLIENT_API_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Number of parameters carried by one TEEC_Operation. */
#define TEEC_CONFIG_PAYLOAD_REF_COUNT 4

/* Largest shared memory block; no limit beyond what size_t can express. */
#define TEEC_CONFIG_SHAREDMEM_MAX_SIZE ULONG_MAX

/* Parameter types, four bits each in TEEC_Operation.paramTypes */
#define TEEC_NONE 0x00000000
#define TEEC_VALUE_INPUT 0x00000001
#define TEEC_VALUE_OUTPUT 0x00000002
#define TEEC_VALUE_INOUT 0x00000003
#define TEEC_MEMREF_TEMP_INPUT 0x00000005
#define TEEC_MEMREF_TEMP_OUTPUT 0x00000006
#define TEEC_MEMREF_TEMP_INOUT 0x00000007
#define TEEC_MEMREF_WHOLE 0x0000000C
#define TEEC_MEMREF_PARTIAL_INPUT 0x0000000D
#define TEEC_MEMREF_PARTIAL_OUTPUT 0x0000000E
#define TEEC_MEMREF_PARTIAL_INOUT 0x0000000F

/* Shared memory direction flags (TEEC_SharedMemory.flags) */
#define TEEC_MEM_INPUT 0x00000001
#define TEEC_MEM_OUTPUT 0x00000002

/* Return codes */
#define TEEC_SUCCESS 0x00000000
#define TEEC_ERROR_STORAGE_NOT_AVAILABLE 0xF0100003
#define TEEC_ERROR_GENERIC 0xFFFF0000
#define TEEC_ERROR_ACCESS_DENIED 0xFFFF0001
#define TEEC_ERROR_CANCEL 0xFFFF0002
#define TEEC_ERROR_ACCESS_CONFLICT 0xFFFF0003
#define TEEC_ERROR_EXCESS_DATA 0xFFFF0004
#define TEEC_ERROR_BAD_FORMAT 0xFFFF0005
#define TEEC_ERROR_BAD_PARAMETERS 0xFFFF0006
#define TEEC_ERROR_BAD_STATE 0xFFFF0007
#define TEEC_ERROR_ITEM_NOT_FOUND 0xFFFF0008
#define TEEC_ERROR_NOT_IMPLEMENTED 0xFFFF0009
#define TEEC_ERROR_NOT_SUPPORTED 0xFFFF000A
#define TEEC_ERROR_NO_DATA 0xFFFF000B
#define TEEC_ERROR_OUT_OF_MEMORY 0xFFFF000C
#define TEEC_ERROR_BUSY 0xFFFF000D
#define TEEC_ERROR_COMMUNICATION 0xFFFF000E
#define TEEC_ERROR_SECURITY 0xFFFF000F
#define TEEC_ERROR_SHORT_BUFFER 0xFFFF0010
/* Deprecated: not in the Client API spec, kept for existing clients. */
#define TEEC_ERROR_EXTERNAL_CANCEL 0xFFFF0011
#define TEEC_ERROR_TARGET_DEAD 0xFFFF3024
/* Deprecated: not in the Client API spec, kept for existing clients. */
#define TEEC_ERROR_STORAGE_NO_SPACE 0xFFFF3041

/*
 * Further codes a TA or the TEE may return, under their Internal Core API
 * names (Client API Errata and Precisions v2.0, P.4). The spelling matches
 * tee_api_defines.h so both headers can be included together.
 */
#define TEE_ERROR_EXTERNAL_CANCEL 0xFFFF0011
#define TEE_ERROR_OVERFLOW 0xFFFF300F
#define TEE_ERROR_TARGET_DEAD 0xFFFF3024
#define TEE_ERROR_STORAGE_NO_SPACE 0xFFFF3041
#define TEE_ERROR_MAC_INVALID 0xFFFF3071
#define TEE_ERROR_SIGNATURE_INVALID 0xFFFF3072
#define TEE_ERROR_TIME_NOT_SET 0xFFFF5000
#define TEE_ERROR_TIME_NEEDS_RESET 0xFFFF5001

/* Where a returned error came from (*returnOrigin) */
#define TEEC_ORIGIN_API 0x00000001
#define TEEC_ORIGIN_COMMS 0x00000002
#define TEEC_ORIGIN_TEE 0x00000003
#define TEEC_ORIGIN_TRUSTED_APP 0x00000004

/* Login methods (connectionMethod of TEEC_OpenSession) */
#define TEEC_LOGIN_PUBLIC 0x00000000
#define TEEC_LOGIN_USER 0x00000001
#define TEEC_LOGIN_GROUP 0x00000002
#define TEEC_LOGIN_APPLICATION 0x00000004
#define TEEC_LOGIN_USER_APPLICATION 0x00000005
#define TEEC_LOGIN_GROUP_APPLICATION 0x00000006

/* Packs four parameter types into TEEC_Operation.paramTypes. */
#define TEEC_PARAM_TYPES(p0, p1, p2, p3) ((p0) | ((p1) << 4) | ((p2) << 8) | ((p3) << 12))

/* Type of parameter i (0..3) in a packed paramTypes value. */
#define TEEC_PARAM_TYPE_GET(p, i) (((p) >> (4 * (i))) & 0xF)

typedef uint32_t TEEC_Result;

typedef struct {
	struct {
		int fd;
		bool reg_mem;
		bool memref_null;
	} imp;
} TEEC_Context;

typedef struct {
	uint32_t timeLow;
	uint16_t timeMid;
	uint16_t timeHiAndVersion;
	uint8_t clockSeqAndNode[8];
} TEEC_UUID;

typedef struct {
	void *buffer;
	size_t size;
	uint32_t flags;
	struct {
		int id;
		size_t alloced_size;
		void *shadow_buffer;
		int registered_fd;
		uint32_t flags;
	} imp;
} TEEC_SharedMemory;

typedef struct {
	void *buffer;
	size_t size;
} TEEC_TempMemoryReference;

typedef struct {
	TEEC_SharedMemory *parent;
	size_t size;
	size_t offset;
} TEEC_RegisteredMemoryReference;

typedef struct {
	uint32_t a;
	uint32_t b;
} TEEC_Value;

typedef union {
	TEEC_TempMemoryReference tmpref;
	TEEC_RegisteredMemoryReference memref;
	TEEC_Value value;
} TEEC_Parameter;

typedef struct {
	struct {
		TEEC_Context *ctx;
		uint32_t session_id;
	} imp;
} TEEC_Session;

typedef struct {
	uint32_t started;
	uint32_t paramTypes;
	TEEC_Parameter params[TEEC_CONFIG_PAYLOAD_REF_COUNT];
	struct {
		TEEC_Session *session;
	} imp;
} TEEC_Operation;

/*
 * Connects to a TEE. name NULL selects the default TEE. On success the
 * context must be released with TEEC_FinalizeContext.
 */
TEEC_Result TEEC_InitializeContext(const char *name, TEEC_Context *context);

/* Releases a context; all its sessions and shared memory must be gone. */
void TEEC_FinalizeContext(TEEC_Context *context);

/*
 * Opens a session with the TA named by destination. connectionData points
 * to a gid_t for the GROUP logins and must be NULL otherwise. operation may
 * be NULL. returnOrigin, if not NULL, receives a TEEC_ORIGIN_* value.
 */
TEEC_Result TEEC_OpenSession(TEEC_Context *context, TEEC_Session *session,
			     const TEEC_UUID *destination, uint32_t connectionMethod,
			     const void *connectionData, TEEC_Operation *operation,
			     uint32_t *returnOrigin);

void TEEC_CloseSession(TEEC_Session *session);

/* operation may be NULL; returnOrigin as for TEEC_OpenSession. */
TEEC_Result TEEC_InvokeCommand(TEEC_Session *session, uint32_t commandID, TEEC_Operation *operation,
			       uint32_t *returnOrigin);

/* Makes the caller's buffer (sharedMem->buffer, ->size) usable as shared memory. */
TEEC_Result TEEC_RegisterSharedMemory(TEEC_Context *context, TEEC_SharedMemory *sharedMem);

/* Allocates sharedMem->size bytes of shared memory into sharedMem->buffer. */
TEEC_Result TEEC_AllocateSharedMemory(TEEC_Context *context, TEEC_SharedMemory *sharedMem);

void TEEC_ReleaseSharedMemory(TEEC_SharedMemory *sharedMemory);

/* Asks the TEE to cancel an operation another thread has started. */
void TEEC_RequestCancellation(TEEC_Operation *operation);

#ifdef __cplusplus
}
#endif

#endif /* TEE_CLIENT_API_H */
