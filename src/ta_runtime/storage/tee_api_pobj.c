/*
 * GP persistent object functions (5.3): open, create, close-and-delete,
 * rename, and what the object layer asks of a persistent object (check,
 * usage restriction, close). Panics follow gp-api.md 9.2: a bad handle, an
 * object ID longer than 64 bytes or in a client's shared memory, unknown
 * flags, a NULL output pointer, a missing access right.
 */
#include <stdlib.h>
#include <string.h>

#include <tee_api_defines_extensions.h>

#include "secure.h"
#include "storage.h"

#define ACCESS_FLAGS                                                                               \
	(TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_ACCESS_WRITE_META)
#define OPEN_FLAGS (ACCESS_FLAGS | TEE_DATA_FLAG_SHARE_READ | TEE_DATA_FLAG_SHARE_WRITE)
#define CREATE_FLAGS (OPEN_FLAGS | TEE_DATA_FLAG_OVERWRITE)
#define USAGE_ALL 0xffffffffU

static TEE_Result pobj_check(struct tee_obj *o);
static TEE_Result pobj_restrict(struct tee_obj *o, uint32_t usage);
static void pobj_close(struct tee_obj *o);

static const struct obj_storage_ops pobj_ops = {
    .check = pobj_check,
    .restrict_usage = pobj_restrict,
    .close = pobj_close,
};

void stor_expect(TEE_Result res, const TEE_Result *ok, size_t n, const char *func)
{
	if (res == TEE_SUCCESS)
		return;
	for (size_t i = 0; i < n; i++)
		if (res == ok[i])
			return;
	rt_panic(res, func);
}

struct tee_obj *stor_obj_from_handle(TEE_ObjectHandle h, const char *func)
{
	struct tee_obj *o = obj_from_handle(h, func);

	if (!(o->handle_flags & TEE_HANDLE_FLAG_PERSISTENT) || o->storage_ops != &pobj_ops)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return o;
}

static bool in_client_shm(const uint8_t *p, size_t len)
{
	for (struct rt_session *s = rt.sessions; s; s = s->next) {
		for (size_t i = 0; i < s->nshm; i++) {
			const uint8_t *m = s->shm[i].map;

			if (m && p < m + s->shm[i].size && p + len > m)
				return true;
		}
	}
	return false;
}

void stor_check_id(const void *id, size_t len, const char *func)
{
	if (len > TEE_OBJECT_ID_MAX_LEN || (!id && len))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	/* GP: an object ID never comes straight from a client's shared memory. */
	if (len && in_client_shm(id, len))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
}

TEE_Result stor_note(struct tee_obj *o, TEE_Result res)
{
	if (res == TEE_ERROR_CORRUPT_OBJECT)
		stor_of(o)->corrupt = true;
	return res;
}

static void put_id(struct buf_writer *w, const void *id, size_t len)
{
	buf_put_u32(w, (uint32_t)len);
	if (len)
		buf_put_bytes(w, id, len);
}

/* A request that names a handle only. */
static TEE_Result call_handle(uint32_t type, uint32_t h, struct buf_reader *r, uint8_t *rsp,
			      size_t cap)
{
	uint8_t out[8];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, type);
	buf_put_u32(&w, h);
	return stor_call(out, buf_written(&w), rsp, cap, r);
}

TEE_Result stor_refresh_size(struct tee_obj *o)
{
	uint8_t in[32];
	struct buf_reader r;
	uint64_t size = 0;
	TEE_Result res = TEE_SUCCESS;

	if (stor_of(o)->corrupt)
		return TEE_ERROR_CORRUPT_OBJECT;
	/* Without SHARE_WRITE nobody else can write it: what we know is current. */
	if (!(stor_of(o)->flags & TEE_DATA_FLAG_SHARE_WRITE))
		return TEE_SUCCESS;
	res = call_handle(MSG_STOR_INFO, stor_of(o)->handle, &r, in, sizeof(in));
	if (!res) {
		buf_get_u64(&r, &size);
		if (!buf_done(&r))
			rt_panic(TEE_ERROR_COMMUNICATION, "storage");
		o->data_size = (size_t)size;
	}
	return stor_note(o, res);
}

static TEE_Result pobj_check(struct tee_obj *o)
{
	return stor_refresh_size(o);
}

static TEE_Result pobj_restrict(struct tee_obj *o, uint32_t usage)
{
	uint8_t out[12];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	TEE_Result res = TEE_SUCCESS;

	if (usage == o->usage)
		return TEE_SUCCESS;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_RESTRICT);
	buf_put_u32(&w, stor_of(o)->handle);
	buf_put_u32(&w, usage);
	res = stor_note(o, stor_call(out, buf_written(&w), in, sizeof(in), &r));
	return res == TEE_ERROR_CORRUPT_OBJECT ? res
	       : res			       ? TEE_ERROR_STORAGE_NOT_AVAILABLE
					       : TEE_SUCCESS;
}

static void pobj_close(struct tee_obj *o)
{
	uint8_t in[16];
	struct buf_reader r;
	struct stor_obj *so = stor_of(o);

	if (!so)
		return;
	call_handle(MSG_STOR_CLOSE, so->handle, &r, in, sizeof(in));
	stor_obj_free(so);
	o->storage = NULL;
}

/* Reads the attribute blob of an open key object into o. */
static TEE_Result load_attrs(struct tee_obj *o, uint32_t len)
{
	uint8_t in[16];
	struct buf_reader r;
	uint8_t *copy = NULL;
	uint32_t got = 0;
	TEE_Result res = TEE_SUCCESS;

	if (!len)
		return TEE_SUCCESS;
	if (len > PROTO_STOR_ATTR_MAX || !obj_type_find(o->type))
		return TEE_ERROR_CORRUPT_OBJECT;
	res = call_handle(MSG_STOR_ATTRS, stor_of(o)->handle, &r, in, sizeof(in));
	if (res)
		return res;
	buf_get_u32(&r, &got);
	if (!buf_done(&r) || got != len)
		return TEE_ERROR_CORRUPT_OBJECT;
	/* The window is shared with the core: parse a private copy. */
	copy = malloc(len);
	if (!copy)
		return TEE_ERROR_OUT_OF_MEMORY;
	memcpy(copy, stor_bulk(), len);
	res = obj_attrs_read(o, copy, len);
	secure_wipe(copy, len);
	free(copy);
	return res == TEE_ERROR_OUT_OF_MEMORY ? res : res ? TEE_ERROR_CORRUPT_OBJECT : TEE_SUCCESS;
}

/*
 * A tee_obj for the core's handle h and a TEE handle for it; the core's
 * handle is closed on failure.
 */
static TEE_Result make_object(uint32_t h, uint32_t storage, uint32_t flags, const uint32_t info[4],
			      uint64_t size, uint32_t attr_len, TEE_ObjectHandle *object)
{
	struct tee_obj *o = calloc(1, sizeof(*o));
	struct stor_obj *so = calloc(1, sizeof(*so));
	uint8_t in[16];
	struct buf_reader r;
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;

	if (!o || !so)
		goto fail;
	so->handle = h;
	so->storage = storage;
	so->flags = flags;
	o->type = info[0];
	o->object_size = info[1];
	o->max_size = info[2];
	o->usage = info[3];
	o->handle_flags = TEE_HANDLE_FLAG_PERSISTENT | TEE_HANDLE_FLAG_INITIALIZED | flags;
	o->data_size = (size_t)size;
	o->data_pos = 0;
	o->storage_ops = &pobj_ops;
	o->storage = so;
	so = NULL; /* transferred */
	res = load_attrs(o, attr_len);
	if (res)
		goto fail;
	res = obj_handle_new(o, object);
	if (res)
		goto fail;
	return TEE_SUCCESS;
fail:
	free(so);
	if (o) {
		stor_obj_free(o->storage);
		o->storage = NULL;
		obj_free(o);
	}
	call_handle(MSG_STOR_CLOSE, h, &r, in, sizeof(in));
	return res;
}

TEE_Result TEE_OpenPersistentObject(uint32_t storageID, const void *objectID, size_t objectIDLen,
				    uint32_t flags, TEE_ObjectHandle *object)
{
	static const char func[] = "TEE_OpenPersistentObject";
	static const TEE_Result ok[] = {TEE_ERROR_ITEM_NOT_FOUND, TEE_ERROR_ACCESS_CONFLICT,
					TEE_ERROR_OUT_OF_MEMORY, TEE_ERROR_CORRUPT_OBJECT,
					TEE_ERROR_STORAGE_NOT_AVAILABLE};
	uint8_t out[16 + TEE_OBJECT_ID_MAX_LEN];
	uint8_t in[64];
	struct buf_writer w;
	struct buf_reader r;
	uint32_t info[4];
	uint64_t size = 0;
	uint32_t rflags = 0;
	uint32_t h = 0;
	uint32_t attr_len = 0;
	TEE_Result res = TEE_SUCCESS;

	if (!object)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	*object = TEE_HANDLE_NULL;
	stor_check_id(objectID, objectIDLen, func);
	if (flags & ~OPEN_FLAGS)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_OPEN);
	buf_put_u32(&w, storageID);
	buf_put_u32(&w, flags);
	put_id(&w, objectID, objectIDLen);
	res = stor_call(out, buf_written(&w), in, sizeof(in), &r);
	if (!res) {
		buf_get_u32(&r, &h);
		for (int i = 0; i < 4; i++)
			buf_get_u32(&r, &info[i]);
		buf_get_u64(&r, &size);
		buf_get_u32(&r, &rflags);
		buf_get_u32(&r, &attr_len);
		if (!buf_done(&r) || rflags != flags || size > TEE_DATA_MAX_POSITION)
			rt_panic(TEE_ERROR_COMMUNICATION, func);
		res = make_object(h, storageID, flags, info, size, attr_len, object);
	}
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

/* What a new object takes from the attributes argument of a create. */
static TEE_Result template_of(TEE_ObjectHandle attributes, uint32_t info[4], uint8_t **blob,
			      size_t *len, const char *func)
{
	struct tee_obj *a = NULL;

	*blob = NULL;
	*len = 0;
	if (attributes == TEE_HANDLE_NULL) {
		info[0] = TEE_TYPE_DATA;
		info[1] = 0;
		info[2] = 0;
		info[3] = USAGE_ALL;
		return TEE_SUCCESS;
	}
	a = obj_from_handle(attributes, func);
	if (!(a->handle_flags & TEE_HANDLE_FLAG_INITIALIZED))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if ((a->handle_flags & TEE_HANDLE_FLAG_PERSISTENT) && stor_of(a) && stor_of(a)->corrupt)
		return TEE_ERROR_CORRUPT_OBJECT;
	info[0] = a->type;
	info[1] = a->object_size;
	info[2] = a->max_size;
	info[3] = a->usage;
	if (!a->nattrs)
		return TEE_SUCCESS;
	*len = obj_attrs_size(a);
	if (*len > PROTO_STOR_ATTR_MAX)
		return TEE_ERROR_STORAGE_NO_SPACE;
	*blob = malloc(*len);
	if (!*blob)
		return TEE_ERROR_OUT_OF_MEMORY;
	return obj_attrs_write(a, *blob, *len);
}

TEE_Result TEE_CreatePersistentObject(uint32_t storageID, const void *objectID, size_t objectIDLen,
				      uint32_t flags, TEE_ObjectHandle attributes,
				      const void *initialData, size_t initialDataLen,
				      TEE_ObjectHandle *object)
{
	static const char func[] = "TEE_CreatePersistentObject";
	static const TEE_Result ok[] = {TEE_ERROR_ITEM_NOT_FOUND, TEE_ERROR_ACCESS_CONFLICT,
					TEE_ERROR_OUT_OF_MEMORY,  TEE_ERROR_STORAGE_NO_SPACE,
					TEE_ERROR_CORRUPT_OBJECT, TEE_ERROR_STORAGE_NOT_AVAILABLE};
	const uint8_t *data = initialData;
	uint8_t out[64 + TEE_OBJECT_ID_MAX_LEN];
	uint8_t in[32];
	struct buf_writer w;
	struct buf_reader r;
	uint32_t info[4];
	uint8_t *blob = NULL;
	size_t blob_len = 0;
	size_t done = 0;
	size_t n = 0;
	uint32_t h = 0;
	TEE_Result res = TEE_SUCCESS;

	if (object)
		*object = TEE_HANDLE_NULL;
	stor_check_id(objectID, objectIDLen, func);
	if ((flags & ~CREATE_FLAGS) || (!initialData && initialDataLen))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (initialDataLen > TEE_DATA_MAX_POSITION)
		return TEE_ERROR_STORAGE_NO_SPACE;
	res = template_of(attributes, info, &blob, &blob_len, func);
	if (res)
		goto out;
	/* The window: the attributes, then as much data as fits, ending on a block. */
	n = initialDataLen;
	if (n > PROTO_STOR_WINDOW - blob_len) {
		n = PROTO_STOR_WINDOW - blob_len;
		n -= n % 4096;
	}
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_CREATE);
	buf_put_u32(&w, storageID);
	buf_put_u32(&w, flags);
	put_id(&w, objectID, objectIDLen);
	for (int i = 0; i < 4; i++)
		buf_put_u32(&w, info[i]);
	buf_put_u32(&w, (uint32_t)blob_len);
	buf_put_u32(&w, (uint32_t)initialDataLen);
	if (!stor_window()) {
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		goto out;
	}
	if (blob_len)
		memcpy(stor_bulk(), blob, blob_len);
	if (n)
		memcpy(stor_bulk() + blob_len, data, n);
	done = n;
	res = stor_call(out, buf_written(&w), in, sizeof(in), &r);
	while (!res && done < initialDataLen) {
		/* More data: the core answered "go on" (handle 0). */
		n = initialDataLen - done < PROTO_STOR_WINDOW ? initialDataLen - done
							      : PROTO_STOR_WINDOW;
		memcpy(stor_bulk(), data + done, n);
		buf_writer_init(&w, out, sizeof(out));
		buf_put_u32(&w, MSG_STOR_CREATE_PART);
		buf_put_u32(&w, (uint32_t)n);
		done += n;
		res = stor_call(out, buf_written(&w), in, sizeof(in), &r);
	}
	if (res)
		goto out;
	buf_get_u32(&r, &h);
	if (!buf_done(&r) || !h)
		rt_panic(TEE_ERROR_COMMUNICATION, func);
	if (!object) {
		/* Created and closed at once. */
		call_handle(MSG_STOR_CLOSE, h, &r, in, sizeof(in));
		goto out;
	}
	res = make_object(h, storageID, flags & OPEN_FLAGS, info, initialDataLen, 0, object);
	if (!res && blob_len) {
		struct tee_obj *o = obj_from_handle(*object, func);

		res = obj_attrs_read(o, blob, blob_len);
		if (res) {
			TEE_CloseObject(*object);
			*object = TEE_HANDLE_NULL;
		}
	}
out:
	if (blob) {
		secure_wipe(blob, blob_len);
		free(blob);
	}
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

TEE_Result TEE_CloseAndDeletePersistentObject1(TEE_ObjectHandle object)
{
	static const char func[] = "TEE_CloseAndDeletePersistentObject1";
	static const TEE_Result ok[] = {TEE_ERROR_STORAGE_NOT_AVAILABLE};
	uint8_t in[16];
	struct buf_reader r;
	struct tee_obj *o = NULL;
	struct stor_obj *so = NULL;
	TEE_Result res = TEE_SUCCESS;

	if (object == TEE_HANDLE_NULL)
		return TEE_SUCCESS;
	o = stor_obj_from_handle(object, func);
	so = stor_of(o);
	if (!(so->flags & TEE_DATA_FLAG_ACCESS_WRITE_META))
		rt_panic(TEE_ERROR_ACCESS_CONFLICT, func);
	/* The core closes its handle whatever the outcome. */
	res = call_handle(MSG_STOR_DELETE, so->handle, &r, in, sizeof(in));
	obj_handle_release(object);
	stor_obj_free(so);
	o->storage = NULL;
	obj_free(o);
	if (res)
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	stor_expect(res, ok, 1, func);
	return res;
}

void TEE_CloseAndDeletePersistentObject(TEE_ObjectHandle object)
{
	TEE_Result res = TEE_CloseAndDeletePersistentObject1(object);

	if (res)
		rt_panic(res, "TEE_CloseAndDeletePersistentObject");
}

TEE_Result TEE_RenamePersistentObject(TEE_ObjectHandle object, const void *newObjectID,
				      size_t newObjectIDLen)
{
	static const char func[] = "TEE_RenamePersistentObject";
	static const TEE_Result ok[] = {TEE_ERROR_ACCESS_CONFLICT, TEE_ERROR_CORRUPT_OBJECT,
					TEE_ERROR_STORAGE_NOT_AVAILABLE};
	uint8_t out[16 + TEE_OBJECT_ID_MAX_LEN];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	struct tee_obj *o = stor_obj_from_handle(object, func);
	TEE_Result res = TEE_SUCCESS;

	stor_check_id(newObjectID, newObjectIDLen, func);
	if (!(stor_of(o)->flags & TEE_DATA_FLAG_ACCESS_WRITE_META))
		rt_panic(TEE_ERROR_ACCESS_CONFLICT, func);
	if (stor_of(o)->corrupt)
		return TEE_ERROR_CORRUPT_OBJECT;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_RENAME);
	buf_put_u32(&w, stor_of(o)->handle);
	put_id(&w, newObjectID, newObjectIDLen);
	res = stor_note(o, stor_call(out, buf_written(&w), in, sizeof(in), &r));
	if (res == TEE_ERROR_STORAGE_NO_SPACE || res == TEE_ERROR_OUT_OF_MEMORY)
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

TEE_Result __GP11_TEE_OpenPersistentObject(uint32_t storageID, const void *objectID,
					   uint32_t objectIDLen, uint32_t flags,
					   TEE_ObjectHandle *object)
{
	return TEE_OpenPersistentObject(storageID, objectID, objectIDLen, flags, object);
}

TEE_Result __GP11_TEE_CreatePersistentObject(uint32_t storageID, const void *objectID,
					     uint32_t objectIDLen, uint32_t flags,
					     TEE_ObjectHandle attributes, const void *initialData,
					     uint32_t initialDataLen, TEE_ObjectHandle *object)
{
	return TEE_CreatePersistentObject(storageID, objectID, objectIDLen, flags, attributes,
					  initialData, initialDataLen, object);
}

TEE_Result __GP11_TEE_RenamePersistentObject(TEE_ObjectHandle object, const void *newObjectID,
					     uint32_t newObjectIDLen)
{
	return TEE_RenamePersistentObject(object, newObjectID, newObjectIDLen);
}
