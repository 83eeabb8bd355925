#ifndef TA_OPTEE_HEADERS_H
#define TA_OPTEE_HEADERS_H

/* 7e1c4a52-93b0-4d6f-8a21-5c0f3e9d7b64 */
/* clang-format off */
#define TA_OPTEE_HEADERS_UUID \
	{ 0x7e1c4a52, 0x93b0, 0x4d6f, { 0x8a, 0x21, 0x5c, 0x0f, 0x3e, 0x9d, 0x7b, 0x64 } }
/* clang-format on */

/* value[0] inout: a is incremented twice and decremented once by atomic_*32; b the last result */
#define TA_OH_CMD_ATOMIC 0
/* memref[0] input: a UUID string; value[1] output: a = timeLow, b = timeMid << 16 | timeHi */
#define TA_OH_CMD_UUID 1
/* tee_map_zi, tee_map_zi_va and tee_unmap, checked inside the TA */
#define TA_OH_CMD_MAP_ZI 2
/* memref[0] inout: TEE_Cache* on it; value[1] output: a = result on the memref, b = on TA memory */
#define TA_OH_CMD_CACHE 3
/* The libutils helpers (string_ext, mempool, bitstring, queue, ...), checked inside the TA */
#define TA_OH_CMD_HELPERS 4

#endif
