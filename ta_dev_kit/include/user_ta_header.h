/*
 * What a TA image tells the runtime about itself: the .ta_head header
 * (UUID, stack size, TA_FLAG_* flags) and the property table behind
 * TEE_PROPSET_CURRENT_TA. Both are built by ta_dev_kit/src/user_ta_header.c
 * from the TA's user_ta_header_defines.h; names and values are the ones
 * OP-TEE uses.
 */
#ifndef USER_TA_HEADER_H
#define USER_TA_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include <tee_api_types.h>

/* TA_FLAGS bits */
#define TA_FLAG_USER_MODE 0		      /* deprecated, was bit 0 */
#define TA_FLAG_EXEC_DDR 0		      /* deprecated, was bit 1 */
#define TA_FLAG_SINGLE_INSTANCE (1U << 2)     /* one instance serves all sessions */
#define TA_FLAG_MULTI_SESSION (1U << 3)	      /* a single instance takes several sessions */
#define TA_FLAG_INSTANCE_KEEP_ALIVE (1U << 4) /* keep a single instance with no sessions */
#define TA_FLAG_SECURE_DATA_PATH (1U << 5)    /* may take secure data path memory */
#define TA_FLAG_REMAP_SUPPORT 0		      /* deprecated, was bit 6 */
#define TA_FLAG_CACHE_MAINTENANCE (1U << 7)   /* may use TEE_Cache* */
#define TA_FLAG_CONCURRENT (1U << 8)	      /* pseudo-TAs only */
#define TA_FLAG_DEVICE_ENUM (1U << 9)	      /* enumerated as a device */
#define TA_FLAG_DEVICE_ENUM_SUPP (1U << 10)   /* ditto, once the supplicant runs */
/* Keep a handle open when its object turns out corrupt */
#define TA_FLAG_DONT_CLOSE_HANDLE_ON_CORRUPT_OBJECT (1U << 11)
/* Enumerated as a device once TEE_STORAGE_PRIVATE is available */
#define TA_FLAG_DEVICE_ENUM_TEE_STORAGE_PRIVATE (1U << 12)
/* A single instance that panicked stays dead instead of being restarted */
#define TA_FLAG_INSTANCE_KEEP_CRASHED (1U << 13)

/* All defined flag bits, 13..0 */
#define TA_FLAGS_MASK 0x00003FFFU

/* Stack the runtime needs on top of TA_STACK_SIZE */
#define TA_FRAMEWORK_STACK_SIZE 2048

/* Found in section .ta_head of every TA image. */
struct ta_head {
	TEE_UUID uuid;
	uint32_t stack_size; /* TA_STACK_SIZE + TA_FRAMEWORK_STACK_SIZE */
	uint32_t flags;	     /* TA_FLAG_* */
	uint64_t depr_entry; /* unused, UINT64_MAX */
};

extern const struct ta_head ta_head;

/* Names of the TA properties the kit provides */
#define TA_PROP_STR_SINGLE_INSTANCE "gpd.ta.singleInstance"
#define TA_PROP_STR_MULTI_SESSION "gpd.ta.multiSession"
#define TA_PROP_STR_KEEP_ALIVE "gpd.ta.instanceKeepAlive"
#define TA_PROP_STR_KEEP_CRASHED "optee.ta.instanceKeepCrashed"
#define TA_PROP_STR_DATA_SIZE "gpd.ta.dataSize"
#define TA_PROP_STR_STACK_SIZE "gpd.ta.stackSize"
#define TA_PROP_STR_VERSION "gpd.ta.version"
#define TA_PROP_STR_DESCRIPTION "gpd.ta.description"
#define TA_PROP_STR_ENDIAN "gpd.ta.endian"
#define TA_PROP_STR_DOES_NOT_CLOSE_HANDLE_ON_CORRUPT_OBJECT                                        \
	"gpd.ta.doesNotCloseHandleOnCorruptObject"

/* What user_ta_property.value points at */
enum user_ta_prop_type {
	USER_TA_PROP_TYPE_BOOL = 0,	    /* const bool */
	USER_TA_PROP_TYPE_U32 = 1,	    /* const uint32_t */
	USER_TA_PROP_TYPE_UUID = 2,	    /* const TEE_UUID */
	USER_TA_PROP_TYPE_IDENTITY = 3,	    /* const TEE_Identity */
	USER_TA_PROP_TYPE_STRING = 4,	    /* NUL-terminated string */
	USER_TA_PROP_TYPE_BINARY_BLOCK = 5, /* NUL-terminated base64 string */
	USER_TA_PROP_TYPE_U64 = 6,	    /* const uint64_t */
	USER_TA_PROP_TYPE_INVALID = 7,
};

struct user_ta_property {
	const char *name;
	enum user_ta_prop_type type;
	const void *value;
};

/* The TA's properties, in order; the runtime finds both symbols with dlsym. */
extern const struct user_ta_property ta_props[];
extern const size_t ta_num_props;

#endif /* USER_TA_HEADER_H */
