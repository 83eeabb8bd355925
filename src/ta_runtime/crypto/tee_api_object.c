/*
 * GP Trusted Storage API, the parts that are about key objects: the
 * generic object functions (5.1) and the transient object functions (5.2).
 *
 * Panics follow gp-api.md 9.2: a handle that is not a live object handle,
 * a NULL output pointer, a persistent object given to a transient-only
 * function, an uninitialised object read from, attributes the type does
 * not have, a size above the object's maximum, and reading a secret part
 * (an attribute without TEE_ATTR_FLAG_PUBLIC) of an object whose usage
 * lacks TEE_USAGE_EXTRACTABLE.
 */
#include <stdlib.h>
#include <string.h>

#include <tee_api_defines_extensions.h>

#include "backend.h"
#include "buf.h"
#include "handle.h"
#include "object.h"
#include "runtime.h"
#include "secure.h"

#define TEE_USAGE_DEFAULT 0xffffffffU
#define OBJ_HANDLES_MAX 4096

static struct handle_table obj_handles = HANDLE_TABLE_INIT(HANDLE_KIND_OBJECT, OBJ_HANDLES_MAX);

/* ---- the object structure ---- */

static void attrs_free(struct obj_attr *attrs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (attrs[i].buf)
			secure_wipe(attrs[i].buf, attrs[i].len);
		free(attrs[i].buf);
	}
	if (attrs)
		secure_wipe(attrs, n * sizeof(*attrs));
	free(attrs);
}

TEE_Result obj_new(uint32_t type, uint32_t max_size, struct tee_obj **out)
{
	const struct obj_type *t = obj_type_find(type);
	struct tee_obj *o = NULL;

	*out = NULL;
	if (!t || !obj_type_size_ok(t, max_size))
		return TEE_ERROR_NOT_SUPPORTED;
	o = calloc(1, sizeof(*o));
	if (!o)
		return TEE_ERROR_OUT_OF_MEMORY;
	o->type = type;
	o->max_size = max_size;
	o->usage = TEE_USAGE_DEFAULT;
	*out = o;
	return TEE_SUCCESS;
}

void obj_reset(struct tee_obj *o)
{
	attrs_free(o->attrs, o->nattrs);
	o->attrs = NULL;
	o->nattrs = 0;
	o->object_size = 0;
	o->usage = TEE_USAGE_DEFAULT;
	o->handle_flags &= ~TEE_HANDLE_FLAG_INITIALIZED;
}

void obj_free(struct tee_obj *o)
{
	if (!o)
		return;
	attrs_free(o->attrs, o->nattrs);
	secure_wipe(o, sizeof(*o));
	free(o);
}

TEE_Result obj_handle_new(struct tee_obj *o, TEE_ObjectHandle *h)
{
	uint32_t v = handle_new(&obj_handles, o);

	*h = TEE_HANDLE_NULL;
	if (!v)
		return TEE_ERROR_OUT_OF_MEMORY;
	*h = (TEE_ObjectHandle)(uintptr_t)v;
	return TEE_SUCCESS;
}

static uint32_t handle_value(TEE_ObjectHandle h)
{
	uintptr_t v = (uintptr_t)h;

	return v > UINT32_MAX ? 0 : (uint32_t)v;
}

struct tee_obj *obj_from_handle(TEE_ObjectHandle h, const char *func)
{
	struct tee_obj *o = handle_lookup(&obj_handles, handle_value(h));

	if (!o)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return o;
}

struct tee_obj *obj_handle_release(TEE_ObjectHandle h)
{
	return handle_release(&obj_handles, handle_value(h));
}

const struct obj_attr *obj_attr_find(const struct tee_obj *o, uint32_t id)
{
	for (size_t i = 0; i < o->nattrs; i++)
		if (o->attrs[i].id == id)
			return &o->attrs[i];
	return NULL;
}

static struct obj_attr *attr_slot(struct tee_obj *o, uint32_t id)
{
	struct obj_attr *a = NULL;

	for (size_t i = 0; i < o->nattrs; i++)
		if (o->attrs[i].id == id)
			return &o->attrs[i];
	a = realloc(o->attrs, (o->nattrs + 1) * sizeof(*a));
	if (!a)
		return NULL;
	o->attrs = a;
	a = &o->attrs[o->nattrs++];
	memset(a, 0, sizeof(*a));
	a->id = id;
	return a;
}

TEE_Result obj_attr_set_buf(struct tee_obj *o, uint32_t id, const void *buf, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct obj_attr *a = NULL;

	if (!copy)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (len)
		memcpy(copy, buf, len);
	a = attr_slot(o, id);
	if (!a) {
		secure_wipe(copy, len);
		free(copy);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	if (a->buf)
		secure_wipe(a->buf, a->len);
	free(a->buf);
	a->buf = copy;
	a->len = len;
	return TEE_SUCCESS;
}

TEE_Result obj_attr_set_value(struct tee_obj *o, uint32_t id, uint32_t va, uint32_t vb)
{
	struct obj_attr *a = attr_slot(o, id);

	if (!a)
		return TEE_ERROR_OUT_OF_MEMORY;
	a->a = va;
	a->b = vb;
	return TEE_SUCCESS;
}

/* ---- populate and copy ---- */

static bool is_legacy_des(const struct tee_obj *o)
{
	return (o->type == TEE_TYPE_DES && o->max_size == 56) ||
	       (o->type == TEE_TYPE_DES3 && (o->max_size == 112 || o->max_size == 168));
}

/* Bits in a big-endian unsigned number. */
static uint32_t bignum_bits(const uint8_t *p, size_t len)
{
	while (len && !*p) {
		p++;
		len--;
	}
	if (!len)
		return 0;
	if (len > UINT32_MAX / 8)
		return UINT32_MAX;
	return (uint32_t)(len * 8) - (uint32_t)__builtin_clz((unsigned int)*p) + 24;
}

static TEE_Result curve_bits(uint32_t curve, uint32_t *bits)
{
	switch (curve) {
	case TEE_ECC_CURVE_NIST_P192:
		*bits = 192;
		break;
	case TEE_ECC_CURVE_NIST_P224:
		*bits = 224;
		break;
	case TEE_ECC_CURVE_NIST_P256:
	case TEE_ECC_CURVE_SM2:
		*bits = 256;
		break;
	case TEE_ECC_CURVE_NIST_P384:
		*bits = 384;
		break;
	case TEE_ECC_CURVE_NIST_P521:
		*bits = 521;
		break;
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
	return TEE_SUCCESS;
}

/* The object size an attribute flagged OBJ_ATTR_SIZE gives. */
static TEE_Result attr_size(const struct tee_obj *o, const struct obj_type *t,
			    const TEE_Attribute *a, uint32_t *bits)
{
	size_t len = a->content.ref.length;

	if (a->attributeID & TEE_ATTR_FLAG_VALUE)
		return curve_bits(a->content.value.a, bits);
	if (!t->secret) {
		*bits = bignum_bits(a->content.ref.buffer, len);
		return TEE_SUCCESS;
	}
	if (len > UINT32_MAX / 8) {
		*bits = UINT32_MAX;
		return TEE_SUCCESS;
	}
	*bits = (uint32_t)len * 8;
	/* GP 1.0 DES sizes leave out the parity bits. */
	if (is_legacy_des(o))
		*bits -= *bits / 8;
	return TEE_SUCCESS;
}

/*
 * Checks attrs against the type's table for a use: populate (required and
 * all-or-none group) or key generation. Panics on anything wrong.
 */
static void attrs_check(const struct obj_type *t, const TEE_Attribute *attrs, uint32_t count,
			bool gen, const char *func)
{
	uint32_t req = gen ? OBJ_ATTR_GEN_REQUIRED : OBJ_ATTR_REQUIRED;
	uint32_t opt = gen ? OBJ_ATTR_GEN_OPTIONAL : (OBJ_ATTR_OPT_GROUP | OBJ_ATTR_OPTIONAL);
	uint64_t seen = 0;
	uint64_t group = 0;

	if (count && !attrs)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	for (uint32_t n = 0; n < count; n++) {
		const struct obj_type_attr *ta = obj_type_attr_find(t, attrs[n].attributeID);
		uint64_t bit = 0;

		if (!ta || !(ta->flags & (req | opt)))
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		bit = 1ULL << (ta - t->attrs);
		if (seen & bit)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		seen |= bit;
		if (!(attrs[n].attributeID & TEE_ATTR_FLAG_VALUE) && attrs[n].content.ref.length &&
		    !attrs[n].content.ref.buffer)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	}
	for (size_t i = 0; i < t->nattrs; i++) {
		uint64_t bit = 1ULL << i;

		if ((t->attrs[i].flags & req) && !(seen & bit))
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		if (!gen && (t->attrs[i].flags & OBJ_ATTR_OPT_GROUP))
			group |= bit;
	}
	if ((seen & group) && (seen & group) != group)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
}

TEE_Result obj_populate(struct tee_obj *o, const TEE_Attribute *attrs, uint32_t count,
			const char *func)
{
	const struct obj_type *t = obj_type_find(o->type);
	TEE_Result res = TEE_ERROR_GENERIC;
	uint32_t size = 0;
	bool sized = false;

	if (!t)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	attrs_check(t, attrs, count, false, func);
	for (uint32_t n = 0; n < count; n++) {
		const TEE_Attribute *a = &attrs[n];
		const struct obj_type_attr *ta = obj_type_attr_find(t, a->attributeID);

		if (ta->flags & OBJ_ATTR_SIZE) {
			res = attr_size(o, t, a, &size);
			if (res)
				goto out;
			if (size > o->max_size)
				rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
			sized = true;
		}
		if (a->attributeID & TEE_ATTR_FLAG_VALUE)
			res = obj_attr_set_value(o, a->attributeID, a->content.value.a,
						 a->content.value.b);
		else
			res = obj_attr_set_buf(o, a->attributeID, a->content.ref.buffer,
					       a->content.ref.length);
		if (res)
			goto out;
	}
	if (!sized)
		size = t->max_size; /* fixed-size types: Ed25519, X25519 */
	res = TEE_ERROR_BAD_PARAMETERS;
	if (!obj_type_size_ok(t, size))
		goto out;
	o->object_size = size;
	if (t->check && t->check(o))
		goto out;
	o->handle_flags |= TEE_HANDLE_FLAG_INITIALIZED;
	res = TEE_SUCCESS;
out:
	if (res) {
		uint32_t usage = o->usage;

		obj_reset(o);
		o->usage = usage;
	}
	return res;
}

TEE_Result obj_copy_attrs(struct tee_obj *dst, const struct tee_obj *src, const char *func)
{
	const struct obj_type *dt = obj_type_find(dst->type);
	TEE_Result res = TEE_SUCCESS;
	bool public_part = false;

	if (!dt)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if (dst->type != src->type) {
		if (!(src->type & OBJ_TYPE_KEYPAIR_BIT) ||
		    dst->type != (src->type & ~OBJ_TYPE_KEYPAIR_BIT))
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		public_part = true;
	}
	if (src->object_size > dst->max_size)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	for (size_t i = 0; i < src->nattrs && !res; i++) {
		const struct obj_attr *a = &src->attrs[i];

		if (public_part && !obj_type_attr_find(dt, a->id))
			continue;
		if (a->id & TEE_ATTR_FLAG_VALUE)
			res = obj_attr_set_value(dst, a->id, a->a, a->b);
		else
			res = obj_attr_set_buf(dst, a->id, a->buf, a->len);
	}
	if (res) {
		uint32_t usage = dst->usage;

		obj_reset(dst);
		dst->usage = usage;
		return res;
	}
	dst->object_size = src->object_size;
	dst->usage &= src->usage;
	dst->handle_flags |= TEE_HANDLE_FLAG_INITIALIZED;
	return TEE_SUCCESS;
}

TEE_Result obj_keygen_secret(struct tee_obj *o, uint32_t key_size, const TEE_Attribute *params,
			     uint32_t count)
{
	const struct obj_type *t = obj_type_find(o->type);
	TEE_Result res = TEE_ERROR_GENERIC;
	uint8_t *key = NULL;
	size_t len = key_size / 8;

	(void)params;
	(void)count;
	if (is_legacy_des(o))
		len = (key_size + key_size / 7) / 8;
	key = malloc(len ? len : 1);
	if (!key)
		return TEE_ERROR_OUT_OF_MEMORY;
	res = be_random(key, len);
	if (!res)
		res = obj_attr_set_buf(o, t->attrs[0].id, key, len);
	secure_wipe(key, len);
	free(key);
	return res;
}

/* ---- serialisation for trusted storage ---- */

size_t obj_attrs_size(const struct tee_obj *o)
{
	size_t n = 4;

	for (size_t i = 0; i < o->nattrs; i++)
		n += (o->attrs[i].id & TEE_ATTR_FLAG_VALUE) ? 12 : 8 + o->attrs[i].len;
	return n;
}

TEE_Result obj_attrs_write(const struct tee_obj *o, uint8_t *out, size_t len)
{
	struct buf_writer w;

	buf_writer_init(&w, out, len);
	buf_put_u32(&w, (uint32_t)o->nattrs);
	for (size_t i = 0; i < o->nattrs; i++) {
		const struct obj_attr *a = &o->attrs[i];

		buf_put_u32(&w, a->id);
		if (a->id & TEE_ATTR_FLAG_VALUE) {
			buf_put_u32(&w, a->a);
			buf_put_u32(&w, a->b);
		} else {
			buf_put_u32(&w, (uint32_t)a->len);
			buf_put_bytes(&w, a->buf, a->len);
		}
	}
	if (buf_written(&w) != obj_attrs_size(o))
		return TEE_ERROR_SHORT_BUFFER;
	return TEE_SUCCESS;
}

TEE_Result obj_attrs_read(struct tee_obj *o, const uint8_t *in, size_t len)
{
	const struct obj_type *t = obj_type_find(o->type);
	TEE_Result res = TEE_ERROR_CORRUPT_OBJECT;
	struct buf_reader r;
	uint32_t count = 0;

	if (!t || o->nattrs)
		return TEE_ERROR_BAD_STATE;
	buf_reader_init(&r, in, len);
	if (!buf_get_u32(&r, &count) || count > t->nattrs)
		goto out;
	for (uint32_t n = 0; n < count; n++) {
		const uint8_t *p = NULL;
		uint32_t id = 0;
		uint32_t a = 0;
		uint32_t b = 0;

		if (!buf_get_u32(&r, &id) || !obj_type_attr_find(t, id) || obj_attr_find(o, id))
			goto out;
		if (!buf_get_u32(&r, &a))
			goto out;
		if (id & TEE_ATTR_FLAG_VALUE) {
			if (!buf_get_u32(&r, &b))
				goto out;
			res = obj_attr_set_value(o, id, a, b);
		} else {
			if (!buf_get_ptr(&r, &p, a))
				goto out;
			res = obj_attr_set_buf(o, id, p, a);
		}
		if (res)
			goto out;
		res = TEE_ERROR_CORRUPT_OBJECT;
	}
	if (buf_done(&r))
		res = TEE_SUCCESS;
out:
	if (res) {
		attrs_free(o->attrs, o->nattrs);
		o->attrs = NULL;
		o->nattrs = 0;
	}
	return res;
}

/* ---- the GP functions ---- */

/* The storage engine's verdict on a persistent object, TEE_SUCCESS otherwise. */
static TEE_Result obj_check(struct tee_obj *o)
{
	if ((o->handle_flags & TEE_HANDLE_FLAG_PERSISTENT) && o->storage_ops &&
	    o->storage_ops->check)
		return o->storage_ops->check(o);
	return TEE_SUCCESS;
}

static void info_fill(const struct tee_obj *o, TEE_ObjectInfo *info)
{
	info->objectType = o->type;
	info->objectSize = o->object_size;
	info->maxObjectSize = o->max_size;
	info->objectUsage = o->usage;
	info->dataSize = o->data_size;
	info->dataPosition = o->data_pos;
	info->handleFlags = o->handle_flags;
}

TEE_Result TEE_GetObjectInfo1(TEE_ObjectHandle object, TEE_ObjectInfo *objectInfo)
{
	static const char func[] = "TEE_GetObjectInfo1";
	struct tee_obj *o = obj_from_handle(object, func);
	TEE_Result res = obj_check(o);

	if (!objectInfo)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	info_fill(o, objectInfo);
	return res;
}

void TEE_GetObjectInfo(TEE_ObjectHandle object, TEE_ObjectInfo *objectInfo)
{
	static const char func[] = "TEE_GetObjectInfo";
	struct tee_obj *o = obj_from_handle(object, func);
	TEE_Result res = obj_check(o);

	if (!objectInfo)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (res && o->type != TEE_TYPE_CORRUPTED_OBJECT)
		rt_panic(res, func);
	info_fill(o, objectInfo);
}

TEE_Result TEE_RestrictObjectUsage1(TEE_ObjectHandle object, uint32_t objectUsage)
{
	struct tee_obj *o = obj_from_handle(object, "TEE_RestrictObjectUsage1");
	TEE_Result res = obj_check(o);
	uint32_t usage = o->usage & objectUsage;

	if (res)
		return res;
	if ((o->handle_flags & TEE_HANDLE_FLAG_PERSISTENT) && o->storage_ops &&
	    o->storage_ops->restrict_usage) {
		res = o->storage_ops->restrict_usage(o, usage);
		if (res)
			return res;
	}
	o->usage = usage;
	return TEE_SUCCESS;
}

void TEE_RestrictObjectUsage(TEE_ObjectHandle object, uint32_t objectUsage)
{
	struct tee_obj *o = obj_from_handle(object, "TEE_RestrictObjectUsage");
	TEE_Result res = TEE_SUCCESS;

	if (o->type == TEE_TYPE_CORRUPTED_OBJECT)
		return;
	res = TEE_RestrictObjectUsage1(object, objectUsage);
	if (res)
		rt_panic(res, "TEE_RestrictObjectUsage");
}

/*
 * The attribute id of an initialised object, for reading: panics when the
 * object is not initialised, when id is of the other kind (buffer/value)
 * or when it is secret and the object not extractable.
 */
static const struct obj_attr *attr_for_read(struct tee_obj *o, uint32_t id, bool value,
					    const char *func)
{
	if (!(o->handle_flags & TEE_HANDLE_FLAG_INITIALIZED))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if (!!(id & TEE_ATTR_FLAG_VALUE) != value)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (!(id & TEE_ATTR_FLAG_PUBLIC) && !(o->usage & TEE_USAGE_EXTRACTABLE))
		rt_panic(TEE_ERROR_ACCESS_DENIED, func);
	return obj_attr_find(o, id);
}

TEE_Result TEE_GetObjectBufferAttribute(TEE_ObjectHandle object, uint32_t attributeID, void *buffer,
					size_t *size)
{
	static const char func[] = "TEE_GetObjectBufferAttribute";
	struct tee_obj *o = obj_from_handle(object, func);
	const struct obj_attr *a = NULL;
	TEE_Result res = TEE_SUCCESS;

	if (!size)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = obj_check(o);
	if (res)
		return res;
	a = attr_for_read(o, attributeID, false, func);
	if (!a)
		return TEE_ERROR_ITEM_NOT_FOUND;
	/* No buffer asks for the size, whatever *size says (OP-TEE). */
	if (*size < a->len || (a->len && !buffer)) {
		*size = a->len;
		return TEE_ERROR_SHORT_BUFFER;
	}
	if (a->len)
		memcpy(buffer, a->buf, a->len);
	*size = a->len;
	return TEE_SUCCESS;
}

TEE_Result TEE_GetObjectValueAttribute(TEE_ObjectHandle object, uint32_t attributeID, uint32_t *a,
				       uint32_t *b)
{
	static const char func[] = "TEE_GetObjectValueAttribute";
	struct tee_obj *o = obj_from_handle(object, func);
	const struct obj_attr *at = NULL;
	TEE_Result res = obj_check(o);

	if (res)
		return res;
	at = attr_for_read(o, attributeID, true, func);
	if (!at)
		return TEE_ERROR_ITEM_NOT_FOUND;
	if (a)
		*a = at->a;
	if (b)
		*b = at->b;
	return TEE_SUCCESS;
}

void TEE_CloseObject(TEE_ObjectHandle object)
{
	struct tee_obj *o = NULL;

	if (object == TEE_HANDLE_NULL)
		return;
	o = obj_handle_release(object);
	if (!o)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_CloseObject");
	if ((o->handle_flags & TEE_HANDLE_FLAG_PERSISTENT) && o->storage_ops &&
	    o->storage_ops->close)
		o->storage_ops->close(o);
	obj_free(o);
}

TEE_Result TEE_AllocateTransientObject(TEE_ObjectType objectType, uint32_t maxObjectSize,
				       TEE_ObjectHandle *object)
{
	struct tee_obj *o = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!object)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_AllocateTransientObject");
	*object = TEE_HANDLE_NULL;
	res = obj_new(objectType, maxObjectSize, &o);
	if (res)
		return res;
	res = obj_handle_new(o, object);
	if (res)
		obj_free(o);
	return res;
}

/* A transient object's handle: panics on a persistent one. */
static struct tee_obj *transient_from_handle(TEE_ObjectHandle h, const char *func)
{
	struct tee_obj *o = obj_from_handle(h, func);

	if (o->handle_flags & TEE_HANDLE_FLAG_PERSISTENT)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return o;
}

void TEE_FreeTransientObject(TEE_ObjectHandle object)
{
	static const char func[] = "TEE_FreeTransientObject";

	if (object == TEE_HANDLE_NULL)
		return;
	transient_from_handle(object, func);
	obj_free(obj_handle_release(object));
}

void TEE_ResetTransientObject(TEE_ObjectHandle object)
{
	if (object == TEE_HANDLE_NULL)
		return;
	obj_reset(transient_from_handle(object, "TEE_ResetTransientObject"));
}

TEE_Result TEE_PopulateTransientObject(TEE_ObjectHandle object, const TEE_Attribute *attrs,
				       uint32_t attrCount)
{
	static const char func[] = "TEE_PopulateTransientObject";
	struct tee_obj *o = transient_from_handle(object, func);

	TEE_Result res = TEE_ERROR_GENERIC;

	if (o->handle_flags & TEE_HANDLE_FLAG_INITIALIZED)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	res = obj_populate(o, attrs, attrCount, func);
	if (res && res != TEE_ERROR_BAD_PARAMETERS)
		rt_panic(res, func);
	return res;
}

void TEE_InitRefAttribute(TEE_Attribute *attr, uint32_t attributeID, const void *buffer,
			  size_t length)
{
	if (!attr || (attributeID & TEE_ATTR_FLAG_VALUE))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_InitRefAttribute");
	attr->attributeID = attributeID;
	attr->content.ref.buffer = (void *)buffer;
	attr->content.ref.length = length;
}

void TEE_InitValueAttribute(TEE_Attribute *attr, uint32_t attributeID, uint32_t a, uint32_t b)
{
	if (!attr || !(attributeID & TEE_ATTR_FLAG_VALUE))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_InitValueAttribute");
	attr->attributeID = attributeID;
	attr->content.value.a = a;
	attr->content.value.b = b;
}

static TEE_Result copy_attributes(TEE_ObjectHandle destObject, TEE_ObjectHandle srcObject,
				  const char *func)
{
	struct tee_obj *dst = obj_from_handle(destObject, func);
	struct tee_obj *src = obj_from_handle(srcObject, func);
	TEE_Result res = obj_check(dst);

	if (!res)
		res = obj_check(src);
	if (res)
		return res;
	if (!(src->handle_flags & TEE_HANDLE_FLAG_INITIALIZED))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if (dst->handle_flags & (TEE_HANDLE_FLAG_PERSISTENT | TEE_HANDLE_FLAG_INITIALIZED))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	res = obj_copy_attrs(dst, src, func);
	if (res == TEE_ERROR_OUT_OF_MEMORY)
		rt_panic(res, func);
	return res;
}

TEE_Result TEE_CopyObjectAttributes1(TEE_ObjectHandle destObject, TEE_ObjectHandle srcObject)
{
	return copy_attributes(destObject, srcObject, "TEE_CopyObjectAttributes1");
}

void TEE_CopyObjectAttributes(TEE_ObjectHandle destObject, TEE_ObjectHandle srcObject)
{
	static const char func[] = "TEE_CopyObjectAttributes";
	struct tee_obj *src = obj_from_handle(srcObject, func);
	TEE_Result res = TEE_SUCCESS;

	if (src->type == TEE_TYPE_CORRUPTED_OBJECT)
		return;
	res = copy_attributes(destObject, srcObject, func);
	if (res)
		rt_panic(res, func);
}

TEE_Result TEE_GenerateKey(TEE_ObjectHandle object, uint32_t keySize, const TEE_Attribute *params,
			   uint32_t paramCount)
{
	static const char func[] = "TEE_GenerateKey";
	struct tee_obj *o = transient_from_handle(object, func);
	const struct obj_type *t = obj_type_find(o->type);
	TEE_Result res = TEE_ERROR_GENERIC;

	if (o->handle_flags & TEE_HANDLE_FLAG_INITIALIZED)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if (!t || !obj_type_size_ok(t, keySize) || keySize > o->max_size)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	attrs_check(t, params, paramCount, true, func);
	/* A public key type: nothing to generate; GP allows no NOT_SUPPORTED here. */
	if (!t->keygen)
		rt_panic(TEE_ERROR_NOT_SUPPORTED, func);
	res = t->keygen(o, keySize, params, paramCount);
	if (res == TEE_ERROR_OUT_OF_MEMORY || (res && res != TEE_ERROR_BAD_PARAMETERS))
		rt_panic(res, func);
	if (res) {
		obj_reset(o);
		return res;
	}
	o->object_size = keySize;
	o->handle_flags |= TEE_HANDLE_FLAG_INITIALIZED;
	return TEE_SUCCESS;
}
