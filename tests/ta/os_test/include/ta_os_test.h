/*
 * The "os_test" test TA: the GP Trusted Core Framework's memory functions,
 * instance data, cancellation masking, time and panics, as xtest 1013-1016
 * drive them. A single-instance, multi-session TA, so that sessions share
 * its instance data.
 */
#ifndef TA_OS_TEST_H
#define TA_OS_TEST_H

#define TA_OS_TEST_UUID                                                                            \
	{                                                                                          \
		0x59ecbb8e, 0xed09, 0x428f,                                                        \
		{                                                                                  \
			0x92, 0x29, 0x5e, 0xba, 0x40, 0x80, 0xa8, 0xbc                             \
		}                                                                                  \
	}

/* The heap bound the TA declares (TA_DATA_SIZE). */
#define TA_OS_TEST_DATA_SIZE (128 * 1024)

/*
 * Self-checking commands. Out: value[0].a = checks that failed, value[0].b =
 * the number of the first that failed (TA_OS_TEST_NO_FAILURE if none),
 * value[1].a = checks run.
 */
#define TA_OS_TEST_CMD_MALLOC 0 /* TEE_Malloc hints, TEE_Realloc, TEE_Free, the heap bound */
#define TA_OS_TEST_CMD_MEM 1	/* TEE_MemMove, TEE_MemFill, TEE_MemCompare and GP 1.1 twins */
#define TA_OS_TEST_CMD_ACCESS 2 /* TEE_CheckMemoryAccessRights on the TA's own memory */
#define TA_OS_TEST_CMD_CANCEL 3 /* cancellation masked by default, Mask/Unmask results */
#define TA_OS_TEST_NO_FAILURE 0xffffffffU

/*
 * TEE_CheckMemoryAccessRights on the memrefs in slots 0 to 2 (any memref
 * type, or NONE); slot 3 is a VALUE_INOUT. For each memref: READ with
 * ANY_OWNER granted, and with NONSECURE too; WRITE with ANY_OWNER granted for
 * OUTPUT and INOUT only; anything without ANY_OWNER, or with SECURE, refused;
 * and, for the slots whose bit is set in value[3].a (in), one byte more than
 * the memref refused (a partial memref of a larger shared memory). Out:
 * value[3].a = checks that failed, value[3].b = the first (as for the
 * self-checking commands). The TA keeps slot 0's buffer for CMD_ACCESS_STALE.
 */
#define TA_OS_TEST_CMD_ACCESS_PARAMS 4
/* The memref kept by the last CMD_ACCESS_PARAMS, now stale, must be refused: out as above. */
#define TA_OS_TEST_CMD_ACCESS_STALE 5

/* value[0].a (in): stored as the instance data (TEE_SetInstanceData). */
#define TA_OS_TEST_CMD_SET_INSTANCE_DATA 6
/* value[0].a (out): the instance data's value, or 0xffffffff when none is set. */
#define TA_OS_TEST_CMD_GET_INSTANCE_DATA 7

/*
 * value[0].a (in): the host's REE time in seconds. value[1] (out): a = the
 * TA's TEE_GetREETime seconds, b = milliseconds TEE_Wait(100) took by
 * TEE_GetSystemTime. value[2].a (out): TEE_Wait's result.
 */
#define TA_OS_TEST_CMD_TIME 8

/* value[0].a (in): a TA_OS_TEST_PANIC_*; the TA should end. TEE_ERROR_GENERIC if not. */
#define TA_OS_TEST_CMD_PANIC 9

enum ta_os_test_panic {
	TA_OS_TEST_PANIC_EXPLICIT,	      /* TEE_Panic(0x1234) */
	TA_OS_TEST_PANIC_MALLOC_NO_FILL,      /* TEE_Malloc(16, TEE_MALLOC_NO_FILL) */
	TA_OS_TEST_PANIC_GP11_MALLOC_NO_FILL, /* __GP11_TEE_Malloc(16, TEE_MALLOC_NO_FILL) */
	TA_OS_TEST_PANIC_FREE_INSIDE,	      /* TEE_Free(p + 16) of a heap block p */
	TA_OS_TEST_PANIC_FREE_TWICE,	      /* TEE_Free twice */
	TA_OS_TEST_PANIC_FREE_NOT_HEAP,	      /* TEE_Free of a static variable */
	TA_OS_TEST_PANIC_REALLOC_FREED,	      /* TEE_Realloc of a freed block */
	TA_OS_TEST_PANIC_REALLOC_NOT_HEAP,    /* TEE_Realloc of a stack buffer */
	TA_OS_TEST_PANIC_MEMMOVE_NULL,	      /* TEE_MemMove to NULL, 4 bytes */
	TA_OS_TEST_PANIC_MEMFILL_NULL,	      /* TEE_MemFill of NULL, 4 bytes */
	TA_OS_TEST_PANIC_MEMCOMPARE_NULL,     /* TEE_MemCompare with NULL, 4 bytes */
	TA_OS_TEST_PANIC_SYSTEM_TIME_NULL,    /* TEE_GetSystemTime(NULL) */
	TA_OS_TEST_PANIC_REE_TIME_NULL,	      /* TEE_GetREETime(NULL) */
	TA_OS_TEST_PANIC_ZERO_SIZE_WRITE,     /* a write through TEE_Malloc(0, 0) (a fault) */
	TA_OS_TEST_PANIC_HEAP_OVERRUN,	      /* writes past the heap's end (a fault) */
	TA_OS_TEST_PANIC_COUNT,
};

#endif
