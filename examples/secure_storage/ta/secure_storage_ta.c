/*
 * Persistent objects in the TA's private trusted storage: created (or
 * replaced) whole, read whole, deleted. Object ids come from the client
 * and are copied into TA memory before use.
 */
#include <inttypes.h>
#include <string.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>

#include <secure_storage_ta.h>

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t __maybe_unused param_types,
				    TEE_Param __maybe_unused params[4],
				    void __maybe_unused **session)
{
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void __maybe_unused *session)
{
}

/* A private copy of the client's object id, which the client may change meanwhile. */
static TEE_Result copy_id(const TEE_Param *p, char **id, size_t *len)
{
	if (!p->memref.size || p->memref.size > TEE_OBJECT_ID_MAX_LEN)
		return TEE_ERROR_BAD_PARAMETERS;
	*id = TEE_Malloc(p->memref.size, 0);
	if (!*id)
		return TEE_ERROR_OUT_OF_MEMORY;
	TEE_MemMove(*id, p->memref.buffer, p->memref.size);
	*len = p->memref.size;
	return TEE_SUCCESS;
}

static TEE_Result write_raw(uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_INPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	const uint32_t flags = TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE |
			       TEE_DATA_FLAG_ACCESS_WRITE_META | TEE_DATA_FLAG_OVERWRITE;
	TEE_ObjectHandle obj = TEE_HANDLE_NULL;
	char *id = NULL;
	size_t id_len = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (pt != exp)
		return TEE_ERROR_BAD_PARAMETERS;
	res = copy_id(&params[0], &id, &id_len);
	if (res != TEE_SUCCESS)
		return res;
	/* The data goes in with the creation: the object appears whole or not at all. */
	res = TEE_CreatePersistentObject(TEE_STORAGE_PRIVATE, id, id_len, flags, TEE_HANDLE_NULL,
					 params[1].memref.buffer, params[1].memref.size, &obj);
	if (res != TEE_SUCCESS)
		EMSG("TEE_CreatePersistentObject: 0x%08" PRIx32, res);
	else
		TEE_CloseObject(obj);
	TEE_Free(id);
	return res;
}

static TEE_Result read_raw(uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	TEE_ObjectHandle obj = TEE_HANDLE_NULL;
	TEE_ObjectInfo info;
	char *id = NULL;
	size_t id_len = 0;
	size_t n = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (pt != exp)
		return TEE_ERROR_BAD_PARAMETERS;
	res = copy_id(&params[0], &id, &id_len);
	if (res != TEE_SUCCESS)
		return res;
	res = TEE_OpenPersistentObject(TEE_STORAGE_PRIVATE, id, id_len,
				       TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_SHARE_READ, &obj);
	if (res != TEE_SUCCESS)
		goto out;
	res = TEE_GetObjectInfo1(obj, &info);
	if (res != TEE_SUCCESS)
		goto out;
	if (params[1].memref.size < info.dataSize) {
		params[1].memref.size = info.dataSize;
		res = TEE_ERROR_SHORT_BUFFER;
		goto out;
	}
	res = TEE_ReadObjectData(obj, params[1].memref.buffer, info.dataSize, &n);
	if (res == TEE_SUCCESS)
		params[1].memref.size = n;
out:
	if (obj != TEE_HANDLE_NULL)
		TEE_CloseObject(obj);
	TEE_Free(id);
	return res;
}

static TEE_Result delete_object(uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp = TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	TEE_ObjectHandle obj = TEE_HANDLE_NULL;
	char *id = NULL;
	size_t id_len = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (pt != exp)
		return TEE_ERROR_BAD_PARAMETERS;
	res = copy_id(&params[0], &id, &id_len);
	if (res != TEE_SUCCESS)
		return res;
	res = TEE_OpenPersistentObject(TEE_STORAGE_PRIVATE, id, id_len,
				       TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META,
				       &obj);
	if (res == TEE_SUCCESS)
		res = TEE_CloseAndDeletePersistentObject1(obj);
	TEE_Free(id);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void __maybe_unused *session, uint32_t cmd, uint32_t pt,
				      TEE_Param params[4])
{
	switch (cmd) {
	case TA_SECURE_STORAGE_CMD_WRITE_RAW:
		return write_raw(pt, params);
	case TA_SECURE_STORAGE_CMD_READ_RAW:
		return read_raw(pt, params);
	case TA_SECURE_STORAGE_CMD_DELETE:
		return delete_object(pt, params);
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
