/*
 * GP persistent object enumeration (5.4). An enumerator holds a cursor into
 * the core's directory (an object's file id, opaque here); each
 * TEE_GetNextPersistentObject asks for the object after it, so objects
 * made or removed meanwhile are seen or not, never twice.
 */
#include <stdlib.h>
#include <string.h>

#include <tee_api_defines_extensions.h>

#include "handle.h"
#include "storage.h"

#define ENUMS_MAX 256
#define CURSOR_LEN 16

struct penum {
	bool started;
	bool have_cursor;
	uint32_t storage;
	uint8_t cursor[CURSOR_LEN];
};

static struct handle_table enums = HANDLE_TABLE_INIT(HANDLE_KIND_OBJ_ENUM, ENUMS_MAX);

static uint32_t enum_value(TEE_ObjectEnumHandle h)
{
	uintptr_t v = (uintptr_t)h;

	return v > UINT32_MAX ? 0 : (uint32_t)v;
}

static struct penum *enum_of(TEE_ObjectEnumHandle h, const char *func)
{
	struct penum *e = handle_lookup(&enums, enum_value(h));

	if (!e)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return e;
}

TEE_Result TEE_AllocatePersistentObjectEnumerator(TEE_ObjectEnumHandle *objectEnumerator)
{
	struct penum *e = NULL;
	uint32_t h = 0;

	if (!objectEnumerator)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_AllocatePersistentObjectEnumerator");
	*objectEnumerator = TEE_HANDLE_NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return TEE_ERROR_OUT_OF_MEMORY;
	h = handle_new(&enums, e);
	if (!h) {
		free(e);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	*objectEnumerator = (TEE_ObjectEnumHandle)(uintptr_t)h;
	return TEE_SUCCESS;
}

void TEE_FreePersistentObjectEnumerator(TEE_ObjectEnumHandle objectEnumerator)
{
	struct penum *e = NULL;

	if (objectEnumerator == TEE_HANDLE_NULL)
		return;
	e = handle_release(&enums, enum_value(objectEnumerator));
	if (!e)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_FreePersistentObjectEnumerator");
	free(e);
}

void TEE_ResetPersistentObjectEnumerator(TEE_ObjectEnumHandle objectEnumerator)
{
	struct penum *e = NULL;

	if (objectEnumerator == TEE_HANDLE_NULL)
		return;
	e = enum_of(objectEnumerator, "TEE_ResetPersistentObjectEnumerator");
	e->started = false;
	e->have_cursor = false;
}

/* The next object after e's cursor: its info and id, and the cursor moves. */
static TEE_Result next(struct penum *e, TEE_ObjectInfo *info, uint8_t *id, size_t *id_len,
		       bool move, const char *func)
{
	uint8_t out[32];
	uint8_t in[160];
	uint8_t cursor[CURSOR_LEN];
	struct buf_writer w;
	struct buf_reader r;
	uint32_t v[4];
	uint64_t size = 0;
	uint32_t flags = 0;
	uint32_t len = 0;
	uint8_t got[TEE_OBJECT_ID_MAX_LEN];
	TEE_Result res = TEE_SUCCESS;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_ENUM_NEXT);
	buf_put_u32(&w, e->storage);
	buf_put_u32(&w, e->have_cursor ? 1 : 0);
	buf_put_bytes(&w, e->cursor, CURSOR_LEN);
	res = stor_call(out, buf_written(&w), in, sizeof(in), &r);
	if (res)
		return res;
	buf_get_bytes(&r, cursor, CURSOR_LEN);
	for (int i = 0; i < 4; i++)
		buf_get_u32(&r, &v[i]);
	buf_get_u64(&r, &size);
	buf_get_u32(&r, &flags);
	buf_get_u32(&r, &len);
	if (!buf_ok(&r) || len > TEE_OBJECT_ID_MAX_LEN || !buf_get_bytes(&r, got, len) ||
	    !buf_done(&r) || size > TEE_DATA_MAX_POSITION)
		rt_panic(TEE_ERROR_COMMUNICATION, func);
	if (info) {
		info->objectType = v[0];
		info->objectSize = v[1];
		info->maxObjectSize = v[2];
		info->objectUsage = v[3];
		info->dataSize = (size_t)size;
		info->dataPosition = 0;
		info->handleFlags = TEE_HANDLE_FLAG_PERSISTENT | TEE_HANDLE_FLAG_INITIALIZED;
	}
	if (id) {
		memcpy(id, got, len);
		*id_len = len;
	}
	if (move) {
		memcpy(e->cursor, cursor, CURSOR_LEN);
		e->have_cursor = true;
	}
	return TEE_SUCCESS;
}

TEE_Result TEE_StartPersistentObjectEnumerator(TEE_ObjectEnumHandle objectEnumerator,
					       uint32_t storageID)
{
	static const char func[] = "TEE_StartPersistentObjectEnumerator";
	static const TEE_Result ok[] = {TEE_ERROR_ITEM_NOT_FOUND, TEE_ERROR_CORRUPT_OBJECT,
					TEE_ERROR_STORAGE_NOT_AVAILABLE};
	struct penum *e = enum_of(objectEnumerator, func);
	TEE_Result res = TEE_SUCCESS;

	e->started = false;
	e->have_cursor = false;
	e->storage = storageID;
	/* Nothing to enumerate is an error here already, as OP-TEE has it. */
	res = next(e, NULL, NULL, NULL, false, func);
	if (!res)
		e->started = true;
	if (res == TEE_ERROR_OUT_OF_MEMORY || res == TEE_ERROR_STORAGE_NO_SPACE)
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

TEE_Result TEE_GetNextPersistentObject(TEE_ObjectEnumHandle objectEnumerator,
				       TEE_ObjectInfo *objectInfo, void *objectID,
				       size_t *objectIDLen)
{
	static const char func[] = "TEE_GetNextPersistentObject";
	static const TEE_Result ok[] = {TEE_ERROR_ITEM_NOT_FOUND, TEE_ERROR_CORRUPT_OBJECT,
					TEE_ERROR_STORAGE_NOT_AVAILABLE};
	struct penum *e = enum_of(objectEnumerator, func);
	TEE_Result res = TEE_SUCCESS;

	if (!objectID || !objectIDLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (!e->started)
		return TEE_ERROR_ITEM_NOT_FOUND;
	res = next(e, objectInfo, objectID, objectIDLen, true, func);
	if (res == TEE_ERROR_OUT_OF_MEMORY || res == TEE_ERROR_STORAGE_NO_SPACE)
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

TEE_Result __GP11_TEE_GetNextPersistentObject(TEE_ObjectEnumHandle objectEnumerator,
					      __GP11_TEE_ObjectInfo *objectInfo, void *objectID,
					      uint32_t *objectIDLen)
{
	TEE_ObjectInfo info;
	size_t len = 0;
	TEE_Result res = TEE_SUCCESS;

	if (!objectIDLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_GetNextPersistentObject");
	res = TEE_GetNextPersistentObject(objectEnumerator, objectInfo ? &info : NULL, objectID,
					  &len);
	if (res)
		return res;
	*objectIDLen = (uint32_t)len;
	if (objectInfo) {
		objectInfo->objectType = info.objectType;
		objectInfo->objectSize = info.objectSize;
		objectInfo->maxObjectSize = info.maxObjectSize;
		objectInfo->objectUsage = info.objectUsage;
		objectInfo->dataSize = (uint32_t)info.dataSize;
		objectInfo->dataPosition = (uint32_t)info.dataPosition;
		objectInfo->handleFlags = info.handleFlags;
	}
	return TEE_SUCCESS;
}
