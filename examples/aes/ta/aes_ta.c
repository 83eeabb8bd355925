/*
 * AES-CBC and AES-CTR with a key the client provides, one operation per
 * session: PREPARE picks the algorithm, mode and key size, SET_KEY loads
 * the key, SET_IV starts the operation and CIPHER runs data through it.
 */
#include <inttypes.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>

#include <aes_ta.h>

struct aes_cipher {
	uint32_t algo;
	uint32_t mode;
	uint32_t key_size;
	TEE_OperationHandle op;
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
	struct aes_cipher *sess = TEE_Malloc(sizeof(*sess), TEE_MALLOC_FILL_ZERO);

	if (!sess)
		return TEE_ERROR_OUT_OF_MEMORY;
	sess->op = TEE_HANDLE_NULL;
	sess->key = TEE_HANDLE_NULL;
	*session = sess;
	return TEE_SUCCESS;
}

static void release(struct aes_cipher *sess)
{
	if (sess->op != TEE_HANDLE_NULL)
		TEE_FreeOperation(sess->op);
	if (sess->key != TEE_HANDLE_NULL)
		TEE_FreeTransientObject(sess->key);
	sess->op = TEE_HANDLE_NULL;
	sess->key = TEE_HANDLE_NULL;
}

void TA_CloseSessionEntryPoint(void *session)
{
	struct aes_cipher *sess = session;

	release(sess);
	TEE_Free(sess);
}

static TEE_Result prepare(struct aes_cipher *sess, uint32_t param_types, TEE_Param params[4])
{
	const uint32_t exp = TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_VALUE_INPUT,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	TEE_Result res = TEE_ERROR_GENERIC;

	if (param_types != exp)
		return TEE_ERROR_BAD_PARAMETERS;
	switch (params[0].value.a) {
	case TA_AES_ALGO_CBC:
		sess->algo = TEE_ALG_AES_CBC_NOPAD;
		break;
	case TA_AES_ALGO_CTR:
		sess->algo = TEE_ALG_AES_CTR;
		break;
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
	switch (params[0].value.b) {
	case TA_AES_MODE_ENCODE:
		sess->mode = TEE_MODE_ENCRYPT;
		break;
	case TA_AES_MODE_DECODE:
		sess->mode = TEE_MODE_DECRYPT;
		break;
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
	sess->key_size = params[1].value.a;
	if (sess->key_size != 16 && sess->key_size != 24 && sess->key_size != 32)
		return TEE_ERROR_BAD_PARAMETERS;
	DMSG("AES algo 0x%08" PRIx32 ", mode %" PRIu32 ", %" PRIu32 "-byte key", sess->algo,
	     sess->mode, sess->key_size);

	release(sess);
	res = TEE_AllocateOperation(&sess->op, sess->algo, sess->mode, sess->key_size * 8);
	if (res != TEE_SUCCESS) {
		EMSG("TEE_AllocateOperation: 0x%08" PRIx32, res);
		return res;
	}
	res = TEE_AllocateTransientObject(TEE_TYPE_AES, sess->key_size * 8, &sess->key);
	if (res != TEE_SUCCESS) {
		EMSG("TEE_AllocateTransientObject: 0x%08" PRIx32, res);
		release(sess);
	}
	return res;
}

static TEE_Result set_key(struct aes_cipher *sess, uint32_t param_types, TEE_Param params[4])
{
	const uint32_t exp = TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	TEE_Attribute attr;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (param_types != exp || sess->op == TEE_HANDLE_NULL ||
	    params[0].memref.size != sess->key_size)
		return TEE_ERROR_BAD_PARAMETERS;
	TEE_InitRefAttribute(&attr, TEE_ATTR_SECRET_VALUE, params[0].memref.buffer,
			     params[0].memref.size);
	TEE_ResetTransientObject(sess->key);
	res = TEE_PopulateTransientObject(sess->key, &attr, 1);
	if (res != TEE_SUCCESS)
		return res;
	/* Also puts the operation back in its initial state (GP 1.3). */
	return TEE_SetOperationKey(sess->op, sess->key);
}

static TEE_Result set_iv(struct aes_cipher *sess, uint32_t param_types, TEE_Param params[4])
{
	const uint32_t exp = TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);

	if (param_types != exp || sess->op == TEE_HANDLE_NULL || params[0].memref.size != 16)
		return TEE_ERROR_BAD_PARAMETERS;
	TEE_CipherInit(sess->op, params[0].memref.buffer, params[0].memref.size);
	return TEE_SUCCESS;
}

static TEE_Result cipher(struct aes_cipher *sess, uint32_t param_types, TEE_Param params[4])
{
	const uint32_t exp =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);

	if (param_types != exp || sess->op == TEE_HANDLE_NULL)
		return TEE_ERROR_BAD_PARAMETERS;
	if (params[1].memref.size < params[0].memref.size) {
		params[1].memref.size = params[0].memref.size;
		return TEE_ERROR_SHORT_BUFFER;
	}
	return TEE_CipherUpdate(sess->op, params[0].memref.buffer, params[0].memref.size,
				params[1].memref.buffer, &params[1].memref.size);
}

TEE_Result TA_InvokeCommandEntryPoint(void *session, uint32_t cmd, uint32_t param_types,
				      TEE_Param params[4])
{
	struct aes_cipher *sess = session;

	switch (cmd) {
	case TA_AES_CMD_PREPARE:
		return prepare(sess, param_types, params);
	case TA_AES_CMD_SET_KEY:
		return set_key(sess, param_types, params);
	case TA_AES_CMD_SET_IV:
		return set_iv(sess, param_types, params);
	case TA_AES_CMD_CIPHER:
		return cipher(sess, param_types, params);
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
