/*
 * The "props" test TA: the GP property API as a TA sees it. xtest 1006
 * drives it; the custom property values below are shared by both sides.
 */
#ifndef TA_PROPS_H
#define TA_PROPS_H

#define TA_PROPS_UUID                                                                              \
	{                                                                                          \
		0x9ab3b168, 0x9b26, 0x4584,                                                        \
		{                                                                                  \
			0x9b, 0x07, 0x56, 0x40, 0x01, 0x48, 0x81, 0xa2                             \
		}                                                                                  \
	}
#define TA_PROPS_UUID_STR "9ab3b168-9b26-4584-9b07-5640014881a2"

#define TA_PROPS_STACK_SIZE (8 * 1024)
#define TA_PROPS_DATA_SIZE (64 * 1024)
#define TA_PROPS_VERSION "2.5"
#define TA_PROPS_DESCRIPTION "swtee property test TA"

/* Custom properties (TA_CURRENT_TA_EXT_PROPERTIES), with their AsString text */
#define TA_PROPS_U32 3000000000U
#define TA_PROPS_U32_STR "3000000000"
#define TA_PROPS_U64 0x123456789abcdef0ULL
#define TA_PROPS_U64_STR "1311768467463790320"
#define TA_PROPS_UUID_VALUE                                                                        \
	{                                                                                          \
		0x01234567, 0x89ab, 0xcdef,                                                        \
		{                                                                                  \
			0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef                             \
		}                                                                                  \
	}
#define TA_PROPS_UUID_VALUE_STR "01234567-89ab-cdef-0123-456789abcdef"
#define TA_PROPS_STRING "hello world"
#define TA_PROPS_BINARY "aGVsbG8=" /* "hello" */
#define TA_PROPS_HEX "0x10"
#define TA_PROPS_NOT_BASE64 "not base64!"

/* value[0].a (in): the TA_PROPS_SET_* to enumerate.
 * memref[1] (out): "name=value\n" per property, in enumeration order, values by
 * TEE_GetPropertyAsString; TEE_ERROR_SHORT_BUFFER with the size needed. */
#define TA_PROPS_CMD_ENUMERATE 0
/* value[0] (out): a = checks that failed, b = index of the first (TA_PROPS_NO_FAILURE if none),
 * value[1] (out): a = checks run. */
#define TA_PROPS_CMD_CHECK 1
/* value[0].a (out): the client's login; memref[1] (out, 16 bytes): its identity UUID,
 * canonical big-endian bytes. */
#define TA_PROPS_CMD_IDENTITY 2
/* value[0].a (in): a TA_PROPS_MISUSE_*; the TA panics. */
#define TA_PROPS_CMD_MISUSE 3

#define TA_PROPS_SET_TA 0
#define TA_PROPS_SET_CLIENT 1
#define TA_PROPS_SET_TEE 2

#define TA_PROPS_NO_FAILURE 0xffffffffU

#define TA_PROPS_MISUSE_FORGED_HANDLE 0	   /* TEE_GetPropertyAsU32 on a made-up handle */
#define TA_PROPS_MISUSE_USE_AFTER_FREE 1   /* TEE_GetNextProperty on a freed enumerator */
#define TA_PROPS_MISUSE_DOUBLE_FREE 2	   /* TEE_FreePropertyEnumerator twice */
#define TA_PROPS_MISUSE_NULL_NAME 3	   /* a NULL name with a property set */
#define TA_PROPS_MISUSE_BAD_PROPSET 4	   /* TEE_StartPropertyEnumerator on a non-set */
#define TA_PROPS_MISUSE_NULL_VALUE 5	   /* TEE_GetPropertyAsBool to NULL */
#define TA_PROPS_MISUSE_NULL_BUFFER 6	   /* AsString to NULL with a non-zero length */
#define TA_PROPS_MISUSE_NULL_HANDLE 7	   /* TEE_GetPropertyAsString(TEE_HANDLE_NULL) */
#define TA_PROPS_MISUSE_GP11_NULL_LENGTH 8 /* __GP11_TEE_GetPropertyName with a NULL length */
#define TA_PROPS_MISUSE_COUNT 9

#endif
