#ifndef TA_SIZE_H
#define TA_SIZE_H

/* clang-format off */
/* c51e2c6d-5c79-4159-80c4-2bd29c4a4f22: built with CFG_TA_OPTEE_CORE_API_COMPAT_1_1=y */
#define TA_SIZE11_UUID                                                                             \
	{ 0xc51e2c6d, 0x5c79, 0x4159, { 0x80, 0xc4, 0x2b, 0xd2, 0x9c, 0x4a, 0x4f, 0x22 } }
/* 31e99b35-f641-4ffe-a045-665656b49f4b: the same source, for GP 1.3 */
#define TA_SIZE13_UUID                                                                             \
	{ 0x31e99b35, 0xf641, 0x4ffe, { 0xa0, 0x45, 0x66, 0x56, 0x56, 0xb4, 0x9f, 0x4b } }
/* clang-format on */

/* value[0] output: a = sizeof(TEE_Param.memref.size), b = __OPTEE_CORE_API_COMPAT_1_1 */
#define TA_SIZE_CMD_INFO 0
/*
 * value[0] input: a = n; memref[1] output: receives n bytes (i & 0xff);
 * TEE_ERROR_SHORT_BUFFER with the size set to n when it is smaller.
 */
#define TA_SIZE_CMD_FILL 1
/* memref[0] input; value[1] output: a = the size the TA sees, b = a checksum */
#define TA_SIZE_CMD_ECHO_SIZE 2
/*
 * memref[0] inout: the TA reads its gpd.ta.description into a buffer of
 * the memref's size with TEE_GetPropertyAsString (the __GP11_ one in the
 * 1.1 TA: a uint32_t length), and passes result and length back as they are.
 */
#define TA_SIZE_CMD_PROPERTY 3

#endif
