/*
 * RSA in the TA: GEN_KEY makes a key pair that never leaves the TA,
 * ENCRYPT and DECRYPT use it with RSAES-OAEP (MGF1, SHA-256).
 */
#include <inttypes.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>

#include <acipher_ta.h>

struct acipher {
	TEE_ObjectHandle key;
};

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t __maybe_unused param_types,
				    TEE_Param __maybe_unused params[4], void **session)
{
	struct acipher *state = TEE_Malloc(sizeof(*state), TEE_MALLOC_FILL_ZERO);

	if (!state)
		return TEE_ERROR_OUT_OF_MEMORY;
	state->key = TEE_HANDLE_NULL;
	*session = state;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *session)
{
	struct acipher *state = session;

	if (state->key != TEE_HANDLE_NULL)
		TEE_FreeTransientObject(state->key);
	TEE_Free(state);
}

static TEE_Result gen_key(struct acipher *state, uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp = TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	uint32_t bits = 0;
	TEE_ObjectHandle key = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (pt != exp)
		return TEE_ERROR_BAD_PARAMETERS;
	bits = params[0].value.a;
	res = TEE_AllocateTransientObject(TEE_TYPE_RSA_KEYPAIR, bits, &key);
	if (res != TEE_SUCCESS) {
		EMSG("TEE_AllocateTransientObject(RSA, %" PRIu32 "): 0x%08" PRIx32, bits, res);
		return res;
	}
	res = TEE_GenerateKey(key, bits, NULL, 0);
	if (res != TEE_SUCCESS) {
		EMSG("TEE_GenerateKey(%" PRIu32 "): 0x%08" PRIx32, bits, res);
		TEE_FreeTransientObject(key);
		return res;
	}
	if (state->key != TEE_HANDLE_NULL)
		TEE_FreeTransientObject(state->key);
	state->key = key;
	IMSG("generated a %" PRIu32 "-bit RSA key", bits);
	return TEE_SUCCESS;
}

static TEE_Result rsa_crypt(struct acipher *state, uint32_t mode, uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	TEE_ObjectInfo info;
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (pt != exp || state->key == TEE_HANDLE_NULL)
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_GetObjectInfo1(state->key, &info);
	if (res != TEE_SUCCESS)
		return res;
	res =
	    TEE_AllocateOperation(&op, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA256, mode, info.objectSize);
	if (res != TEE_SUCCESS)
		return res;
	res = TEE_SetOperationKey(op, state->key);
	if (res == TEE_SUCCESS && mode == TEE_MODE_ENCRYPT)
		res = TEE_AsymmetricEncrypt(op, NULL, 0, params[0].memref.buffer,
					    params[0].memref.size, params[1].memref.buffer,
					    &params[1].memref.size);
	else if (res == TEE_SUCCESS)
		res = TEE_AsymmetricDecrypt(op, NULL, 0, params[0].memref.buffer,
					    params[0].memref.size, params[1].memref.buffer,
					    &params[1].memref.size);
	TEE_FreeOperation(op);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void *session, uint32_t cmd, uint32_t pt, TEE_Param params[4])
{
	switch (cmd) {
	case TA_ACIPHER_CMD_GEN_KEY:
		return gen_key(session, pt, params);
	case TA_ACIPHER_CMD_ENCRYPT:
		return rsa_crypt(session, TEE_MODE_ENCRYPT, pt, params);
	case TA_ACIPHER_CMD_DECRYPT:
		return rsa_crypt(session, TEE_MODE_DECRYPT, pt, params);
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
