/* The storage test TA: the Trusted Storage API as commands (ta_storage.h). */
#include <stdio.h>
#include <string.h>
#include <tee_internal_api.h>
#include <tee_api_defines_extensions.h>

#include "ta_storage.h"

#define T(a, b, c, d)                                                                              \
	TEE_PARAM_TYPES(TEE_PARAM_TYPE_##a, TEE_PARAM_TYPE_##b, TEE_PARAM_TYPE_##c,                \
			TEE_PARAM_TYPE_##d)
#define CHUNK_MAX (1024 * 1024)

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

/* How long TA_DestroyEntryPoint waits (TA_STORAGE_CMD_SLOW_DESTROY). */
static uint32_t destroy_wait_ms;

void TA_DestroyEntryPoint(void)
{
	if (destroy_wait_ms)
		TEE_Wait(destroy_wait_ms);
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	(void)types;
	(void)params;
	(void)ctx;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

static TEE_ObjectHandle obj(uint32_t v)
{
	return (TEE_ObjectHandle)(uintptr_t)v;
}

static uint32_t val(TEE_ObjectHandle h)
{
	return (uint32_t)(uintptr_t)h;
}

static TEE_ObjectEnumHandle en(uint32_t v)
{
	return (TEE_ObjectEnumHandle)(uintptr_t)v;
}

/*
 * The object ID in private memory, as GP wants it. Room for more than the
 * longest ID, so that xtest can see the API refuse one too long.
 */
#define ID_ROOM (2 * TEE_OBJECT_ID_MAX_LEN)

static bool copy_id(const TEE_Param *p, uint8_t id[ID_ROOM], size_t *len)
{
	if (p->memref.size > ID_ROOM)
		return false;
	if (p->memref.size)
		memcpy(id, p->memref.buffer, p->memref.size);
	*len = p->memref.size;
	return true;
}

static TEE_Result cmd_open(uint32_t types, TEE_Param p[4], bool in_shm)
{
	uint8_t id[ID_ROOM];
	size_t len = 0;
	TEE_ObjectHandle h = TEE_HANDLE_NULL;
	TEE_Result res = TEE_SUCCESS;

	if (types != T(MEMREF_INPUT, VALUE_INOUT, VALUE_INPUT, NONE) ||
	    (!in_shm && !copy_id(&p[0], id, &len)))
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_OpenPersistentObject(p[2].value.a, in_shm ? p[0].memref.buffer : id,
				       in_shm ? p[0].memref.size : len, p[1].value.a, &h);
	p[1].value.b = val(h);
	return res;
}

static TEE_Result cmd_create(uint32_t types, TEE_Param p[4], bool in_shm)
{
	uint8_t id[ID_ROOM];
	size_t len = 0;
	TEE_ObjectHandle h = TEE_HANDLE_NULL;
	TEE_Result res = TEE_SUCCESS;
	bool data = TEE_PARAM_TYPE_GET(types, 3) == TEE_PARAM_TYPE_MEMREF_INPUT;

	if ((types != T(MEMREF_INPUT, VALUE_INOUT, VALUE_INPUT, MEMREF_INPUT) &&
	     types != T(MEMREF_INPUT, VALUE_INOUT, VALUE_INPUT, NONE)) ||
	    (!in_shm && !copy_id(&p[0], id, &len)))
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_CreatePersistentObject(p[2].value.b, in_shm ? p[0].memref.buffer : id,
					 in_shm ? p[0].memref.size : len, p[1].value.a,
					 obj(p[2].value.a), data ? p[3].memref.buffer : NULL,
					 data ? p[3].memref.size : 0, &h);
	p[1].value.b = val(h);
	return res;
}

static TEE_Result cmd_create_overwrite(uint32_t types, TEE_Param p[4], bool in_shm)
{
	uint8_t id[ID_ROOM];
	size_t len = 0;

	if (types != T(MEMREF_INPUT, VALUE_INPUT, NONE, NONE) ||
	    (!in_shm && !copy_id(&p[0], id, &len)))
		return TEE_ERROR_BAD_PARAMETERS;
	return TEE_CreatePersistentObject(p[1].value.a, in_shm ? p[0].memref.buffer : id,
					  in_shm ? p[0].memref.size : len, TEE_DATA_FLAG_OVERWRITE,
					  TEE_HANDLE_NULL, NULL, 0, NULL);
}

static TEE_Result cmd_rename(uint32_t types, TEE_Param p[4], bool in_shm)
{
	uint8_t id[ID_ROOM];
	size_t len = 0;

	if (types != T(VALUE_INPUT, MEMREF_INPUT, NONE, NONE) ||
	    (!in_shm && !copy_id(&p[1], id, &len)))
		return TEE_ERROR_BAD_PARAMETERS;
	return TEE_RenamePersistentObject(obj(p[0].value.a), in_shm ? p[1].memref.buffer : id,
					  in_shm ? p[1].memref.size : len);
}

static TEE_Result cmd_next_enum(uint32_t types, TEE_Param p[4])
{
	TEE_ObjectInfo info;
	uint8_t id[TEE_OBJECT_ID_MAX_LEN];
	size_t len = sizeof(id);
	bool want_info = TEE_PARAM_TYPE_GET(types, 1) == TEE_PARAM_TYPE_MEMREF_OUTPUT;
	TEE_Result res = TEE_SUCCESS;

	if (types != T(VALUE_INPUT, MEMREF_OUTPUT, MEMREF_OUTPUT, NONE) &&
	    types != T(VALUE_INPUT, NONE, MEMREF_OUTPUT, NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (want_info && p[1].memref.size < sizeof(info))
		return TEE_ERROR_SHORT_BUFFER;
	res = TEE_GetNextPersistentObject(en(p[0].value.a), want_info ? &info : NULL, id, &len);
	if (res)
		return res;
	if (want_info) {
		memcpy(p[1].memref.buffer, &info, sizeof(info));
		p[1].memref.size = sizeof(info);
	}
	if (p[2].memref.size < len)
		return TEE_ERROR_SHORT_BUFFER;
	memcpy(p[2].memref.buffer, id, len);
	p[2].memref.size = len;
	return TEE_SUCCESS;
}

static TEE_Result cmd_obj_info(uint32_t types, TEE_Param p[4])
{
	TEE_ObjectInfo info;
	struct ta_storage_obj_info out;
	TEE_Result res = TEE_SUCCESS;

	if (types != T(VALUE_INPUT, MEMREF_OUTPUT, NONE, NONE) || p[1].memref.size < sizeof(out))
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_GetObjectInfo1(obj(p[0].value.a), &info);
	if (res)
		return res;
	out.object_type = info.objectType;
	out.object_size = info.objectSize;
	out.max_object_size = info.maxObjectSize;
	out.object_usage = info.objectUsage;
	out.data_size = (uint32_t)info.dataSize;
	out.data_position = (uint32_t)info.dataPosition;
	out.handle_flags = info.handleFlags;
	memcpy(p[1].memref.buffer, &out, sizeof(out));
	p[1].memref.size = sizeof(out);
	return TEE_SUCCESS;
}

/* One AES block through a CBC operation keyed with key. */
static TEE_Result aes_block(TEE_ObjectHandle key, uint8_t out[16])
{
	static const uint8_t iv[16];
	static const uint8_t in[16] = "swtee storage!!";
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	size_t len = 16;
	TEE_Result res = TEE_AllocateOperation(&op, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, 256);

	if (res)
		return res;
	res = TEE_SetOperationKey(op, key);
	if (!res) {
		TEE_CipherInit(op, iv, sizeof(iv));
		res = TEE_CipherDoFinal(op, in, sizeof(in), out, &len);
	}
	TEE_FreeOperation(op);
	return res;
}

static TEE_Result cmd_key_in_persistent(uint32_t storage)
{
	static const char name[] = "persistent-aes-key";
	const uint32_t flags =
	    TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META | TEE_DATA_FLAG_OVERWRITE;
	TEE_ObjectHandle key = TEE_HANDLE_NULL;
	TEE_ObjectHandle pkey = TEE_HANDLE_NULL;
	TEE_ObjectInfo info;
	uint8_t a[16];
	uint8_t b[16];
	uint8_t c[16];
	TEE_Result res = TEE_AllocateTransientObject(TEE_TYPE_AES, 256, &key);

	if (res)
		return res;
	res = TEE_GenerateKey(key, 256, NULL, 0);
	if (!res)
		res = TEE_CreatePersistentObject(storage, name, sizeof(name), flags, key, NULL, 0,
						 &pkey);
	if (!res)
		res = aes_block(key, a);
	if (!res)
		res = aes_block(pkey, b);
	if (!res && TEE_MemCompare(a, b, sizeof(a)))
		res = TEE_ERROR_SIGNATURE_INVALID;
	/* Closed and opened again, the key still works, and is the same key. */
	TEE_CloseObject(pkey);
	pkey = TEE_HANDLE_NULL;
	if (!res)
		res = TEE_OpenPersistentObject(
		    storage, name, sizeof(name),
		    TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META, &pkey);
	if (!res)
		res = TEE_GetObjectInfo1(pkey, &info);
	if (!res && (info.objectType != TEE_TYPE_AES || info.objectSize != 256 ||
		     !(info.handleFlags & TEE_HANDLE_FLAG_PERSISTENT)))
		res = TEE_ERROR_BAD_FORMAT;
	if (!res)
		res = aes_block(pkey, c);
	if (!res && TEE_MemCompare(a, c, sizeof(a)))
		res = TEE_ERROR_SIGNATURE_INVALID;
	if (pkey)
		TEE_CloseAndDeletePersistentObject1(pkey);
	TEE_FreeTransientObject(key);
	return res;
}

static TEE_Result cmd_loop(uint32_t storage)
{
	const uint32_t flags = TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE |
			       TEE_DATA_FLAG_ACCESS_WRITE_META | TEE_DATA_FLAG_OVERWRITE;
	char name[32];
	uint8_t data[100];
	uint8_t back[100];
	TEE_Result res = TEE_SUCCESS;

	for (unsigned int i = 0; i < 20 && !res; i++) {
		TEE_ObjectHandle h = TEE_HANDLE_NULL;
		size_t n = 0;

		snprintf(name, sizeof(name), "loop-object-%u", i);
		TEE_MemFill(data, i, sizeof(data));
		res = TEE_CreatePersistentObject(storage, name, strlen(name), flags,
						 TEE_HANDLE_NULL, data, sizeof(data), &h);
		if (res)
			break;
		TEE_CloseObject(h);
		res = TEE_OpenPersistentObject(storage, name, strlen(name),
					       flags & ~TEE_DATA_FLAG_OVERWRITE, &h);
		if (res)
			break;
		res = TEE_ReadObjectData(h, back, sizeof(back), &n);
		if (!res && (n != sizeof(back) || TEE_MemCompare(data, back, n)))
			res = TEE_ERROR_CORRUPT_OBJECT;
		if (!res)
			res = TEE_CloseAndDeletePersistentObject1(h);
		else
			TEE_CloseObject(h);
	}
	return res;
}

static void many_data(uint32_t i, uint8_t out[16])
{
	for (uint32_t k = 0; k < 16; k++)
		out[k] = (uint8_t)(i * 31 + k);
}

static TEE_Result many_count(uint32_t storage, uint32_t *found)
{
	TEE_ObjectEnumHandle e = TEE_HANDLE_NULL;
	TEE_ObjectInfo info;
	char id[TEE_OBJECT_ID_MAX_LEN];
	size_t len = sizeof(id);
	TEE_Result res = TEE_AllocatePersistentObjectEnumerator(&e);

	*found = 0;
	if (res)
		return res;
	res = TEE_StartPersistentObjectEnumerator(e, storage);
	while (!res) {
		len = sizeof(id);
		res = TEE_GetNextPersistentObject(e, &info, id, &len);
		if (!res && len > 5 && !TEE_MemCompare(id, "many-", 5))
			(*found)++;
	}
	TEE_FreePersistentObjectEnumerator(e);
	return res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_SUCCESS : res;
}

static TEE_Result cmd_many(uint32_t types, TEE_Param p[4])
{
	const uint32_t flags = TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META;
	uint32_t storage = p[0].value.a;
	uint32_t count = p[0].value.b;
	uint32_t phase = p[1].value.a;
	TEE_Result res = TEE_SUCCESS;
	char name[32];
	uint8_t data[16];
	uint8_t back[16];

	if (types != T(VALUE_INPUT, VALUE_INOUT, NONE, NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	for (uint32_t i = 0; i < count && !res; i++) {
		TEE_ObjectHandle h = TEE_HANDLE_NULL;
		size_t n = 0;

		snprintf(name, sizeof(name), "many-%u", i);
		many_data(i, data);
		switch (phase) {
		case TA_STORAGE_MANY_CREATE:
			res = TEE_CreatePersistentObject(storage, name, strlen(name), flags,
							 TEE_HANDLE_NULL, data, sizeof(data), &h);
			if (!res)
				TEE_CloseObject(h);
			break;
		case TA_STORAGE_MANY_CHECK:
		case TA_STORAGE_MANY_DELETE:
			res = TEE_OpenPersistentObject(storage, name, strlen(name), flags, &h);
			if (res)
				break;
			res = TEE_ReadObjectData(h, back, sizeof(back), &n);
			if (!res && (n != sizeof(back) || TEE_MemCompare(data, back, n)))
				res = TEE_ERROR_CORRUPT_OBJECT;
			if (!res && phase == TA_STORAGE_MANY_DELETE)
				res = TEE_CloseAndDeletePersistentObject1(h);
			else
				TEE_CloseObject(h);
			break;
		default:
			return TEE_ERROR_BAD_PARAMETERS;
		}
	}
	if (!res)
		res = many_count(storage, &p[1].value.b);
	return res;
}

static TEE_Result cmd_fill(uint32_t types, TEE_Param p[4])
{
	TEE_ObjectHandle h = obj(p[0].value.a);
	uint32_t seed = p[0].value.b;
	uint32_t total = p[1].value.a;
	uint32_t chunk = p[1].value.b;
	TEE_ObjectInfo info;
	uint8_t *buf = NULL;
	TEE_Result res = TEE_SUCCESS;

	if (types != T(VALUE_INPUT, VALUE_INPUT, NONE, NONE) || !chunk || chunk > CHUNK_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_GetObjectInfo1(h, &info);
	if (res)
		return res;
	buf = TEE_Malloc(chunk, TEE_MALLOC_FILL_ZERO);
	if (!buf)
		return TEE_ERROR_OUT_OF_MEMORY;
	for (uint32_t done = 0; done < total && !res;) {
		uint32_t n = total - done < chunk ? total - done : chunk;

		for (uint32_t i = 0; i < n; i++)
			buf[i] = ta_storage_pattern(seed, info.dataPosition + done + i);
		res = TEE_WriteObjectData(h, buf, n);
		done += n;
	}
	TEE_Free(buf);
	return res;
}

static TEE_Result cmd_check(uint32_t types, TEE_Param p[4])
{
	TEE_ObjectHandle h = obj(p[0].value.a);
	uint32_t seed = p[0].value.b;
	uint32_t total = p[1].value.a;
	uint32_t chunk = p[1].value.b;
	uint32_t done = 0;
	uint32_t bad = 0xffffffff;
	TEE_ObjectInfo info;
	uint8_t *buf = NULL;
	TEE_Result res = TEE_SUCCESS;

	if (types != T(VALUE_INPUT, VALUE_INOUT, NONE, NONE) || !chunk || chunk > CHUNK_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_GetObjectInfo1(h, &info);
	if (res)
		return res;
	buf = TEE_Malloc(chunk, TEE_MALLOC_FILL_ZERO);
	if (!buf)
		return TEE_ERROR_OUT_OF_MEMORY;
	while (done < total && !res) {
		size_t n = 0;

		res = TEE_ReadObjectData(h, buf, total - done < chunk ? total - done : chunk, &n);
		for (size_t i = 0; !res && i < n && bad == 0xffffffff; i++)
			if (buf[i] != ta_storage_pattern(seed, info.dataPosition + done + i))
				bad = done + (uint32_t)i;
		done += (uint32_t)n;
		if (!n)
			break;
	}
	TEE_Free(buf);
	p[1].value.a = done;
	p[1].value.b = bad;
	return res;
}

static TEE_Result cmd_bench(uint32_t types, TEE_Param p[4])
{
	static const char name[] = "bench";
	uint32_t op = p[0].value.a;
	uint32_t storage = p[0].value.b;
	uint32_t size = p[1].value.a;
	uint32_t chunk = p[1].value.b;
	const uint32_t rw = TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE |
			    TEE_DATA_FLAG_ACCESS_WRITE_META;
	TEE_ObjectHandle h = TEE_HANDLE_NULL;
	uint8_t *buf = NULL;
	TEE_Result res = TEE_SUCCESS;

	if (types != T(VALUE_INPUT, VALUE_INPUT, NONE, NONE) || !chunk || chunk > CHUNK_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	buf = TEE_Malloc(chunk, TEE_MALLOC_FILL_ZERO);
	if (!buf)
		return TEE_ERROR_OUT_OF_MEMORY;
	for (uint32_t i = 0; i < chunk; i++)
		buf[i] = ta_storage_pattern(op, i);
	if (op == TA_STORAGE_BENCH_WRITE)
		res = TEE_CreatePersistentObject(storage, name, sizeof(name),
						 rw | TEE_DATA_FLAG_OVERWRITE, TEE_HANDLE_NULL,
						 NULL, 0, &h);
	else
		res = TEE_OpenPersistentObject(storage, name, sizeof(name), rw, &h);
	for (uint32_t done = 0; !res && done < size && op != TA_STORAGE_BENCH_DELETE;) {
		uint32_t n = size - done < chunk ? size - done : chunk;
		size_t got = 0;

		if (op == TA_STORAGE_BENCH_WRITE) {
			res = TEE_WriteObjectData(h, buf, n);
		} else {
			res = TEE_ReadObjectData(h, buf, n, &got);
			if (!res && got != n)
				res = TEE_ERROR_CORRUPT_OBJECT;
			if (!res && op == TA_STORAGE_BENCH_REWRITE)
				res = TEE_SeekObjectData(h, -(intmax_t)n, TEE_DATA_SEEK_CUR);
			if (!res && op == TA_STORAGE_BENCH_REWRITE)
				res = TEE_WriteObjectData(h, buf, n);
		}
		done += n;
	}
	if (h && op == TA_STORAGE_BENCH_DELETE)
		res = TEE_CloseAndDeletePersistentObject1(h);
	else if (h)
		TEE_CloseObject(h);
	TEE_Free(buf);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types, TEE_Param p[4])
{
	TEE_ObjectHandle h = TEE_HANDLE_NULL;
	TEE_ObjectEnumHandle e = TEE_HANDLE_NULL;
	TEE_Time t = {0};
	size_t n = 0;
	TEE_Result res = TEE_SUCCESS;

	(void)ctx;
	switch (cmd) {
	case TA_STORAGE_CMD_OPEN:
		return cmd_open(types, p, false);
	case TA_STORAGE_CMD_OPEN_ID_IN_SHM:
		return cmd_open(types, p, true);
	case TA_STORAGE_CMD_CREATE:
		return cmd_create(types, p, false);
	case TA_STORAGE_CMD_CREATE_ID_IN_SHM:
		return cmd_create(types, p, true);
	case TA_STORAGE_CMD_CREATE_OVERWRITE:
		return cmd_create_overwrite(types, p, false);
	case TA_STORAGE_CMD_CREATEOVER_ID_IN_SHM:
		return cmd_create_overwrite(types, p, true);
	case TA_STORAGE_CMD_RENAME:
		return cmd_rename(types, p, false);
	case TA_STORAGE_CMD_RENAME_ID_IN_SHM:
		return cmd_rename(types, p, true);
	case TA_STORAGE_CMD_CLOSE:
		TEE_CloseObject(obj(p[0].value.a));
		return TEE_SUCCESS;
	case TA_STORAGE_CMD_READ:
		if (types != T(MEMREF_OUTPUT, VALUE_INOUT, NONE, NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		res =
		    TEE_ReadObjectData(obj(p[1].value.a), p[0].memref.buffer, p[0].memref.size, &n);
		p[1].value.b = (uint32_t)n;
		return res;
	case TA_STORAGE_CMD_WRITE:
		if (types != T(MEMREF_INPUT, VALUE_INPUT, NONE, NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		return TEE_WriteObjectData(obj(p[1].value.a), p[0].memref.buffer, p[0].memref.size);
	case TA_STORAGE_CMD_SEEK:
		if (types != T(VALUE_INPUT, VALUE_INOUT, NONE, NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		res = TEE_SeekObjectData(obj(p[0].value.a), (int32_t)p[0].value.b, p[1].value.a);
		/* The position after it, also after a refusal (which must not move it). */
		{
			TEE_ObjectInfo info = {0};
			TEE_Result r2 = TEE_GetObjectInfo1(obj(p[0].value.a), &info);

			p[1].value.b = (uint32_t)info.dataPosition;
			if (!res)
				res = r2;
		}
		return res;
	case TA_STORAGE_CMD_UNLINK:
		return TEE_CloseAndDeletePersistentObject1(obj(p[0].value.a));
	case TA_STORAGE_CMD_TRUNC:
		return TEE_TruncateObjectData(obj(p[0].value.a), p[0].value.b);
	case TA_STORAGE_CMD_ALLOC_ENUM:
		res = TEE_AllocatePersistentObjectEnumerator(&e);
		p[0].value.a = (uint32_t)(uintptr_t)e;
		return res;
	case TA_STORAGE_CMD_FREE_ENUM:
		TEE_FreePersistentObjectEnumerator(en(p[0].value.a));
		return TEE_SUCCESS;
	case TA_STORAGE_CMD_RESET_ENUM:
		TEE_ResetPersistentObjectEnumerator(en(p[0].value.a));
		return TEE_SUCCESS;
	case TA_STORAGE_CMD_START_ENUM:
		return TEE_StartPersistentObjectEnumerator(en(p[0].value.a), p[0].value.b);
	case TA_STORAGE_CMD_NEXT_ENUM:
		return cmd_next_enum(types, p);
	case TA_STORAGE_CMD_RESTRICT_USAGE:
		return TEE_RestrictObjectUsage1(obj(p[0].value.a), p[0].value.b);
	case TA_STORAGE_CMD_ALLOC_OBJ:
		res = TEE_AllocateTransientObject(p[0].value.a, p[0].value.b, &h);
		p[1].value.a = val(h);
		return res;
	case TA_STORAGE_CMD_FREE_OBJ:
		TEE_FreeTransientObject(obj(p[0].value.a));
		return TEE_SUCCESS;
	case TA_STORAGE_CMD_RESET_OBJ:
		TEE_ResetTransientObject(obj(p[0].value.a));
		return TEE_SUCCESS;
	case TA_STORAGE_CMD_GET_OBJ_INFO:
		return cmd_obj_info(types, p);
	case TA_STORAGE_CMD_INFO_RESULT: {
		TEE_ObjectInfo info = {0};

		p[1].value.a = TEE_GetObjectInfo1(obj(p[0].value.a), &info);
		p[1].value.b = (uint32_t)info.dataSize;
		return TEE_SUCCESS;
	}
	case TA_STORAGE_CMD_KEY_IN_PERSISTENT:
		return cmd_key_in_persistent(p[0].value.a);
	case TA_STORAGE_CMD_LOOP:
		return cmd_loop(p[0].value.a);
	case TA_STORAGE_CMD_TIME_GET:
		if (types != T(VALUE_OUTPUT, VALUE_OUTPUT, NONE, NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		p[1].value.a = TEE_GetTAPersistentTime(&t);
		p[0].value.a = t.seconds;
		p[0].value.b = t.millis;
		return TEE_SUCCESS;
	case TA_STORAGE_CMD_TIME_SET:
		t.seconds = p[0].value.a;
		t.millis = p[0].value.b;
		return TEE_SetTAPersistentTime(&t);
	case TA_STORAGE_CMD_FILL:
		return cmd_fill(types, p);
	case TA_STORAGE_CMD_CHECK:
		return cmd_check(types, p);
	case TA_STORAGE_CMD_BENCH:
		return cmd_bench(types, p);
	case TA_STORAGE_CMD_MANY:
		return cmd_many(types, p);
	case TA_STORAGE_CMD_SLOW_DESTROY:
		if (types != T(VALUE_INPUT, NONE, NONE, NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		destroy_wait_ms = p[0].value.a;
		return TEE_SUCCESS;
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
