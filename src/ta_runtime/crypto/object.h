/*
 * Key objects: what a TEE_ObjectHandle names. One structure for transient
 * objects (tee_api_object.c), the keys operations hold (tee_api_operation.c)
 * and persistent objects (trusted storage, which fills in the storage
 * fields and calls the functions below).
 *
 * An object owns private copies of its attributes; buffers are wiped when
 * the object is reset or freed. Attribute contents are never logged.
 */
#ifndef SWTEE_CRYPTO_OBJECT_H
#define SWTEE_CRYPTO_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_internal_api.h>

struct tee_obj;

/* One attribute as an object holds it. */
struct obj_attr {
	uint32_t id;   /* TEE_ATTR_* */
	uint32_t a, b; /* value attributes (TEE_ATTR_FLAG_VALUE) */
	uint8_t *buf;  /* buffer attributes: a private copy */
	size_t len;
};

/*
 * What trusted storage plugs into a persistent object. Each hook may be
 * NULL. check runs first in every generic function on the object and may
 * answer TEE_ERROR_CORRUPT_OBJECT or TEE_ERROR_STORAGE_NOT_AVAILABLE;
 * restrict_usage makes a usage change durable (same codes); close releases
 * the storage state when the handle is closed.
 */
struct obj_storage_ops {
	TEE_Result (*check)(struct tee_obj *o);
	TEE_Result (*restrict_usage)(struct tee_obj *o, uint32_t usage);
	void (*close)(struct tee_obj *o);
};

struct tee_obj {
	uint32_t type;	       /* TEE_TYPE_* */
	uint32_t object_size;  /* bits; 0 while uninitialised */
	uint32_t max_size;     /* maxObjectSize */
	uint32_t usage;	       /* TEE_USAGE_* */
	uint32_t handle_flags; /* TEE_HANDLE_FLAG_* (and the data flags of a persistent object) */
	struct obj_attr *attrs;
	size_t nattrs;
	/* Persistent objects only: TEE_HANDLE_FLAG_PERSISTENT is set and the
	 * storage engine owns these. */
	size_t data_size;
	size_t data_pos;
	const struct obj_storage_ops *storage_ops;
	void *storage;
};

/* Object types (object_type.c) */

/* TEE_TYPE_*_KEYPAIR = TEE_TYPE_*_PUBLIC_KEY | this, for the asymmetric types */
#define OBJ_TYPE_KEYPAIR_BIT 0x01000000U

/* Attribute roles in a type's table. */
#define OBJ_ATTR_REQUIRED 0x01	   /* populate needs it */
#define OBJ_ATTR_OPT_GROUP 0x02	   /* populate: all of the group or none */
#define OBJ_ATTR_OPTIONAL 0x04	   /* populate: may be there */
#define OBJ_ATTR_SIZE 0x08	   /* gives the object size */
#define OBJ_ATTR_GEN_REQUIRED 0x10 /* TEE_GenerateKey needs it */
#define OBJ_ATTR_GEN_OPTIONAL 0x20 /* TEE_GenerateKey may take it */

struct obj_type_attr {
	uint32_t id;
	uint32_t flags; /* OBJ_ATTR_* */
};

/*
 * Generates a key of key_size bits into an initialised-to-be object from
 * the caller's params (already checked against the type's table). Returns
 * TEE_SUCCESS or TEE_ERROR_BAD_PARAMETERS; panics on misuse.
 */
typedef TEE_Result (*obj_keygen_fn)(struct tee_obj *o, uint32_t key_size,
				    const TEE_Attribute *params, uint32_t count);
/*
 * Checks populated attributes for consistency beyond the table (e.g. that
 * an RSA key's parts agree). TEE_SUCCESS or TEE_ERROR_BAD_PARAMETERS.
 */
typedef TEE_Result (*obj_check_fn)(const struct tee_obj *o);

struct obj_type {
	uint32_t type;
	uint32_t min_size; /* bits */
	uint32_t max_size;
	uint32_t step; /* sizes are multiples of it */
	bool secret;   /* one TEE_ATTR_SECRET_VALUE-like buffer of size/8 bytes */
	const struct obj_type_attr *attrs;
	size_t nattrs;
	obj_keygen_fn keygen; /* NULL: TEE_GenerateKey answers TEE_ERROR_NOT_SUPPORTED */
	obj_check_fn check;   /* NULL: no check beyond the table */
};

/* The keygen of the secret types (tee_api_object.c): key_size random bits. */
TEE_Result obj_keygen_secret(struct tee_obj *o, uint32_t key_size, const TEE_Attribute *params,
			     uint32_t count);

/* The description of type, or NULL when it cannot be allocated. */
const struct obj_type *obj_type_find(uint32_t type);
/* True when size (bits) is allowed for the type, as a maximum or a key size. */
bool obj_type_size_ok(const struct obj_type *t, uint32_t size);
/* The table entry of attribute id in type t, or NULL. */
const struct obj_type_attr *obj_type_attr_find(const struct obj_type *t, uint32_t id);

/* Objects (tee_api_object.c) */

/*
 * A new uninitialised object of type with room for max_size bits, usage
 * TEE_USAGE_DEFAULT (all bits). TEE_ERROR_NOT_SUPPORTED for a type or size
 * the runtime does not have, TEE_ERROR_OUT_OF_MEMORY.
 */
TEE_Result obj_new(uint32_t type, uint32_t max_size, struct tee_obj **o);
/* Wipes and frees o (NULL allowed). Does not touch handles or storage. */
void obj_free(struct tee_obj *o);
/* Wipes the attributes and makes o uninitialised again, usage all bits. */
void obj_reset(struct tee_obj *o);

/*
 * Publishes o under a new handle. TEE_ERROR_OUT_OF_MEMORY when the table
 * is full. The handle table does not own o.
 */
TEE_Result obj_handle_new(struct tee_obj *o, TEE_ObjectHandle *h);
/* The object behind h; panics (naming func) if h is not a live object handle. */
struct tee_obj *obj_from_handle(TEE_ObjectHandle h, const char *func);
/* Drops the handle h (which must be live) and returns its object. */
struct tee_obj *obj_handle_release(TEE_ObjectHandle h);

/*
 * Fills an uninitialised o from attrs as TEE_PopulateTransientObject does:
 * panics (naming func) on an attribute the type does not have, a repeated
 * or missing one, or a size above the maximum; TEE_ERROR_BAD_PARAMETERS for
 * an invalid value; TEE_ERROR_OUT_OF_MEMORY.
 */
TEE_Result obj_populate(struct tee_obj *o, const TEE_Attribute *attrs, uint32_t count,
			const char *func);
/*
 * Makes dst (uninitialised, maximum size large enough) hold src's
 * attributes, or only the public ones when dst is the public type of
 * src's key pair. Panics (naming func) on an incompatible pair.
 */
TEE_Result obj_copy_attrs(struct tee_obj *dst, const struct tee_obj *src, const char *func);
/* The attribute id of o, or NULL. */
const struct obj_attr *obj_attr_find(const struct tee_obj *o, uint32_t id);
/* Sets (adds or replaces) a buffer attribute with a copy of buf. */
TEE_Result obj_attr_set_buf(struct tee_obj *o, uint32_t id, const void *buf, size_t len);
/* Sets (adds or replaces) a value attribute. */
TEE_Result obj_attr_set_value(struct tee_obj *o, uint32_t id, uint32_t a, uint32_t b);

/*
 * Attribute serialisation for trusted storage, little-endian:
 *	u32 count, then per attribute u32 id and either u32 a, u32 b (value)
 *	or u32 len and len bytes (buffer).
 * obj_attrs_size gives the bytes obj_attrs_write needs. obj_attrs_read
 * fills an uninitialised o and refuses (TEE_ERROR_CORRUPT_OBJECT) input
 * that does not parse exactly or names attributes o's type does not have.
 */
size_t obj_attrs_size(const struct tee_obj *o);
TEE_Result obj_attrs_write(const struct tee_obj *o, uint8_t *buf, size_t len);
TEE_Result obj_attrs_read(struct tee_obj *o, const uint8_t *buf, size_t len);

#endif
