/*
 * The types OP-TEE's TA runtime shares with its core across the system
 * call boundary: how parameters, attributes and object information travel,
 * and the ids of the entry functions, time sources and cache operations.
 * swtee's runtime talks to its core over its own protocol, not these; the
 * layouts are OP-TEE's, so TA code that keeps such values (an xtest TA, a
 * port of libutee code) compiles and agrees with OP-TEE's sizes.
 */
#ifndef UTEE_TYPES_H
#define UTEE_TYPES_H

#include <inttypes.h>
#include <tee_api_defines.h>

/* The clocks of TEE_GetSystemTime, TEE_GetTAPersistentTime and TEE_GetREETime */
enum utee_time_category {
	UTEE_TIME_CAT_SYSTEM = 0,
	UTEE_TIME_CAT_TA_PERSISTENT,
	UTEE_TIME_CAT_REE
};

/*
 * What the core asks of a TA. DUMP_MEMSTATS answers with its heap's
 * figures: value[0] = bytes allocated now and at most, value[1] = pool size
 * and failed requests, value[2] = the largest failed and succeeded sizes.
 */
enum utee_entry_func {
	UTEE_ENTRY_FUNC_OPEN_SESSION = 0,
	UTEE_ENTRY_FUNC_CLOSE_SESSION,
	UTEE_ENTRY_FUNC_INVOKE_COMMAND,
	UTEE_ENTRY_FUNC_DUMP_MEMSTATS,
};

/* TEE_CacheClean, TEE_CacheFlush and TEE_CacheInvalidate, as one operation id */
enum utee_cache_operation {
	TEE_CACHECLEAN = 0,
	TEE_CACHEFLUSH,
	TEE_CACHEINVALIDATE,
};

/*
 * The four TEE_Params, widened to 64 bits: types as TEE_PARAM_TYPES builds
 * it, and for parameter n, vals[2n] the value's a or the buffer's address,
 * vals[2n + 1] the value's b or the buffer's size.
 */
struct utee_params {
	uint64_t types;
	uint64_t vals[TEE_NUM_PARAMS * 2];
};

/* A TEE_Attribute: a and b the two values, or the buffer's address and size */
struct utee_attribute {
	uint64_t a;
	uint64_t b;
	uint32_t attribute_id;
};

/* TEE_ObjectInfo's fields, with the object's size in bits as obj_size */
struct utee_object_info {
	uint32_t obj_type;
	uint32_t obj_size;
	uint32_t max_obj_size;
	uint32_t obj_usage;
	uint32_t data_size;
	uint32_t data_pos;
	uint32_t handle_flags;
};

#endif
