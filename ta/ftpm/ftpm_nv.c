/*
 * libtpms' NV in GP trusted storage. libtpms keeps its NV image in memory
 * and hands it over whole, marshalled, at every commit ("permall": the
 * persistent state, NV indices, persistent objects, and the saved state
 * after a Shutdown(STATE)): a few KiB. Each name is one persistent object,
 * replaced by a single TEE_CreatePersistentObject with
 * TEE_DATA_FLAG_OVERWRITE, which the storage engine makes atomic: after a
 * crash the TPM finds the NV of its last commit or the one before, never a
 * mix. Encryption, authentication and rollback detection are the storage
 * engine's.
 *
 * A state that cannot be read (an integrity or rollback failure, storage
 * unavailable) is not taken for a blank TPM: the load fails, libtpms does
 * not start, and the error reaches the client opening the TA.
 */
#include <stdlib.h>
#include <string.h>

#include <libtpms/tpm_error.h>
#include <libtpms/tpm_library.h>
#include <trace.h>

#include "ftpm.h"

/* Far above any NV image libtpms makes; a bigger object is not ours. */
#define NV_OBJECT_MAX (1024 * 1024)
#define NV_FLAGS_READ (TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_SHARE_READ)
#define NV_FLAGS_WRITE                                                                             \
	(TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE |                                  \
	 TEE_DATA_FLAG_ACCESS_WRITE_META | TEE_DATA_FLAG_OVERWRITE)

static TEE_Result nv_error;

static void note(TEE_Result res, const char *what, const char *name)
{
	EMSG("%s of TPM NV object %s failed: 0x%08x", what, name, res);
	if (nv_error == TEE_SUCCESS)
		nv_error = res;
}

TEE_Result ftpm_nv_take_error(void)
{
	TEE_Result res = nv_error;

	nv_error = TEE_SUCCESS;
	return res;
}

uint32_t ftpm_nv_init(void)
{
	return TPM_SUCCESS;
}

uint32_t ftpm_nv_load(unsigned char **data, uint32_t *length, uint32_t tpm_number, const char *name)
{
	TEE_ObjectHandle h = TEE_HANDLE_NULL;
	TEE_ObjectInfo info;
	TEE_Result res = TEE_ERROR_GENERIC;
	unsigned char *buf = NULL;
	size_t got = 0;
	uint32_t rc = TPM_FAIL;

	(void)tpm_number;
	*data = NULL;
	*length = 0;
	res = TEE_OpenPersistentObject(TEE_STORAGE_PRIVATE, name, strlen(name), NV_FLAGS_READ, &h);
	if (res == TEE_ERROR_ITEM_NOT_FOUND)
		return TPM_RETRY; /* libtpms' "nothing stored" */
	if (res != TEE_SUCCESS) {
		note(res, "opening", name);
		goto out;
	}
	res = TEE_GetObjectInfo1(h, &info);
	if (res != TEE_SUCCESS) {
		note(res, "reading the size", name);
		goto out;
	}
	if (!info.dataSize || info.dataSize > NV_OBJECT_MAX) {
		note(TEE_ERROR_CORRUPT_OBJECT, "checking the size", name);
		goto out;
	}
	/* libtpms releases it with free(). */
	buf = malloc(info.dataSize);
	if (!buf) {
		note(TEE_ERROR_OUT_OF_MEMORY, "loading", name);
		goto out;
	}
	res = TEE_ReadObjectData(h, buf, info.dataSize, &got);
	if (res != TEE_SUCCESS || got != info.dataSize) {
		note(res != TEE_SUCCESS ? res : TEE_ERROR_CORRUPT_OBJECT, "reading", name);
		goto out;
	}
	*data = buf;
	*length = info.dataSize;
	buf = NULL; /* transferred */
	rc = TPM_SUCCESS;
out:
	free(buf);
	TEE_CloseObject(h);
	return rc;
}

uint32_t ftpm_nv_store(const unsigned char *data, uint32_t length, uint32_t tpm_number,
		       const char *name)
{
	TEE_ObjectHandle h = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	(void)tpm_number;
	res = TEE_CreatePersistentObject(TEE_STORAGE_PRIVATE, name, strlen(name), NV_FLAGS_WRITE,
					 TEE_HANDLE_NULL, data, length, &h);
	if (res != TEE_SUCCESS) {
		note(res, "writing", name);
		return TPM_FAIL;
	}
	TEE_CloseObject(h);
	return TPM_SUCCESS;
}

uint32_t ftpm_nv_delete(uint32_t tpm_number, const char *name, unsigned char must_exist)
{
	TEE_ObjectHandle h = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	(void)tpm_number;
	res = TEE_OpenPersistentObject(TEE_STORAGE_PRIVATE, name, strlen(name),
				       TEE_DATA_FLAG_ACCESS_WRITE_META, &h);
	if (res == TEE_ERROR_ITEM_NOT_FOUND)
		return must_exist ? TPM_FAIL : TPM_SUCCESS;
	if (res == TEE_SUCCESS)
		res = TEE_CloseAndDeletePersistentObject1(h);
	if (res != TEE_SUCCESS) {
		note(res, "deleting", name);
		return TPM_FAIL;
	}
	return TPM_SUCCESS;
}
