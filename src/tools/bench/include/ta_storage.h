/*
 * The "storage" test TA: the GP Trusted Storage API one command at a time,
 * for xtest's 6xxx family, the storage benchmarks and the crash and tamper
 * tests. "storage2" is the same code under another UUID, to check that TAs
 * cannot see each other's objects. Handles travel as value.a/b numbers.
 */
#ifndef TA_STORAGE_H
#define TA_STORAGE_H

#include <stdint.h>

#define TA_STORAGE_UUID                                                                            \
	{                                                                                          \
		0xc5b8deb4, 0xe439, 0x4b92,                                                        \
		{                                                                                  \
			0x8b, 0x25, 0xfa, 0x73, 0x00, 0xbd, 0xf3, 0xbd                             \
		}                                                                                  \
	}
#define TA_STORAGE2_UUID                                                                           \
	{                                                                                          \
		0xcc76674c, 0x54ec, 0x4384,                                                        \
		{                                                                                  \
			0xa6, 0x24, 0x2b, 0x54, 0x1d, 0x02, 0x56, 0x29                             \
		}                                                                                  \
	}

/* memref[0] id, value[1] inout (a: flags, b: handle out), value[2] (a: storage) */
#define TA_STORAGE_CMD_OPEN 1
/*
 * memref[0] id, value[1] inout (a: flags, b: handle out), value[2] (a: attributes
 * handle or 0, b: storage), memref[3] initial data (or NONE)
 */
#define TA_STORAGE_CMD_CREATE 2
/* memref[0] id, value[1] (a: storage): create with OVERWRITE, object not kept */
#define TA_STORAGE_CMD_CREATE_OVERWRITE 3
/* value[0] (a: handle) */
#define TA_STORAGE_CMD_CLOSE 4
/* memref[0] out, value[1] inout (a: handle, b: count out) */
#define TA_STORAGE_CMD_READ 5
/* memref[0] in, value[1] (a: handle) */
#define TA_STORAGE_CMD_WRITE 6
/* value[0] (a: handle, b: offset as int32), value[1] inout (a: whence, b: position out) */
#define TA_STORAGE_CMD_SEEK 7
/* value[0] (a: handle): TEE_CloseAndDeletePersistentObject1 */
#define TA_STORAGE_CMD_UNLINK 8
/* value[0] (a: handle, b: size) */
#define TA_STORAGE_CMD_TRUNC 9
/* value[0] (a: handle), memref[1] new id */
#define TA_STORAGE_CMD_RENAME 10
/* value[0] out (a: enumerator) */
#define TA_STORAGE_CMD_ALLOC_ENUM 11
/* value[0] (a: enumerator) */
#define TA_STORAGE_CMD_FREE_ENUM 12
#define TA_STORAGE_CMD_RESET_ENUM 13
/* value[0] (a: enumerator, b: storage) */
#define TA_STORAGE_CMD_START_ENUM 14
/* value[0] (a: enumerator), memref[1] info out (or NONE), memref[2] id out */
#define TA_STORAGE_CMD_NEXT_ENUM 15
/* value[0] (a: handle, b: usage) */
#define TA_STORAGE_CMD_RESTRICT_USAGE 16
/* value[0] (a: type, b: max size), value[1] out (a: handle) */
#define TA_STORAGE_CMD_ALLOC_OBJ 17
/* value[0] (a: handle) */
#define TA_STORAGE_CMD_FREE_OBJ 18
#define TA_STORAGE_CMD_RESET_OBJ 19
/* value[0] (a: handle), memref[1] out: struct ta_storage_obj_info */
#define TA_STORAGE_CMD_GET_OBJ_INFO 20
/* value[0] (a: storage): a persistent AES key used for a cipher, in the TA */
#define TA_STORAGE_CMD_KEY_IN_PERSISTENT 21
/* value[0] (a: storage): create, write, read and delete many objects, in the TA */
#define TA_STORAGE_CMD_LOOP 22
/* As OPEN, CREATE, CREATE_OVERWRITE and RENAME, with the id straight from memref: */
#define TA_STORAGE_CMD_OPEN_ID_IN_SHM 23
#define TA_STORAGE_CMD_CREATE_ID_IN_SHM 24
#define TA_STORAGE_CMD_CREATEOVER_ID_IN_SHM 25
#define TA_STORAGE_CMD_RENAME_ID_IN_SHM 26
/* value[0] out (a: seconds, b: millis), value[1] out (a: the result) */
#define TA_STORAGE_CMD_TIME_GET 27
/* value[0] (a: seconds, b: millis) */
#define TA_STORAGE_CMD_TIME_SET 28
/*
 * value[0] (a: handle, b: seed), value[1] (a: bytes, b: chunk): writes the
 * pattern of seed at the position in chunks of that size (pattern_byte).
 */
#define TA_STORAGE_CMD_FILL 29
/*
 * value[0] (a: handle, b: seed), value[1] inout (a: bytes, b: chunk; out: a
 * bytes read, b the first mismatching offset or 0xffffffff)
 */
#define TA_STORAGE_CMD_CHECK 30
/*
 * The 1000-series benchmarks: value[0] (a: TA_STORAGE_BENCH_*, b: storage),
 * value[1] (a: data size, b: chunk size). WRITE creates "bench" and writes it,
 * READ reads it, REWRITE reads each chunk, seeks back and writes it.
 */
#define TA_STORAGE_CMD_BENCH 31
#define TA_STORAGE_BENCH_WRITE 1
#define TA_STORAGE_BENCH_READ 2
#define TA_STORAGE_BENCH_REWRITE 3
#define TA_STORAGE_BENCH_DELETE 4
/*
 * Many objects: value[0] (a: storage, b: count), value[1] (a: TA_STORAGE_MANY_*,
 * out b: objects the enumerator found under the "many-" prefix).
 * CREATE makes many-0 .. many-(count-1) with 16 bytes each, CHECK opens
 * and reads each back and enumerates them, DELETE removes them.
 */
#define TA_STORAGE_CMD_MANY 33
#define TA_STORAGE_MANY_CREATE 1
#define TA_STORAGE_MANY_CHECK 2
#define TA_STORAGE_MANY_DELETE 3
/* value[0] (a: handle), value[1] out (a: result of TEE_GetObjectInfo1, b: dataSize) */
#define TA_STORAGE_CMD_INFO_RESULT 32
/* value[0].a: milliseconds TA_DestroyEntryPoint waits before it returns (default 0) */
#define TA_STORAGE_CMD_SLOW_DESTROY 34

/* TEE_ObjectInfo with fixed-size fields, as memref out of GET_OBJ_INFO. */
struct ta_storage_obj_info {
	uint32_t object_type;
	uint32_t object_size;
	uint32_t max_object_size;
	uint32_t object_usage;
	uint32_t data_size;
	uint32_t data_position;
	uint32_t handle_flags;
};

/* The byte at offset off of the pattern seed writes. */
static inline uint8_t ta_storage_pattern(uint32_t seed, uint64_t off)
{
	uint64_t x = (off / 8 + 1) * 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed << 32 | seed);

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (uint8_t)(x >> ((off % 8) * 8));
}

#endif
