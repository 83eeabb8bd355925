/*
 * ECDSA over P-256 with SHA-256: a key pair per session, made in the TA;
 * signatures in the raw r || s form GP uses; verification with the
 * session's key or with a public key the client gives.
 */
#include <inttypes.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>

#include <ecdsa_ta.h>

#define KEY_BITS 256
#define COORD_SIZE 32
#define DIGEST_SIZE 32

struct ecdsa {
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
	struct ecdsa *state = TEE_Malloc(sizeof(*state), TEE_MALLOC_FILL_ZERO);

	if (!state)
		return TEE_ERROR_OUT_OF_MEMORY;
	state->key = TEE_HANDLE_NULL;
	*session = state;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *session)
{
	struct ecdsa *state = session;

	if (state->key != TEE_HANDLE_NULL)
		TEE_FreeTransientObject(state->key);
	TEE_Free(state);
}

static TEE_Result sha256(const void *msg, size_t len, uint8_t digest[DIGEST_SIZE])
{
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	size_t n = DIGEST_SIZE;
	TEE_Result res = TEE_AllocateOperation(&op, TEE_ALG_SHA256, TEE_MODE_DIGEST, 0);

	if (res != TEE_SUCCESS)
		return res;
	res = TEE_DigestDoFinal(op, msg, len, digest, &n);
	TEE_FreeOperation(op);
	return res;
}

static TEE_Result gen_key(struct ecdsa *state)
{
	TEE_Attribute curve;
	TEE_ObjectHandle key = TEE_HANDLE_NULL;
	TEE_Result res = TEE_AllocateTransientObject(TEE_TYPE_ECDSA_KEYPAIR, KEY_BITS, &key);

	if (res != TEE_SUCCESS)
		return res;
	TEE_InitValueAttribute(&curve, TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0);
	res = TEE_GenerateKey(key, KEY_BITS, &curve, 1);
	if (res != TEE_SUCCESS) {
		EMSG("TEE_GenerateKey: 0x%08" PRIx32, res);
		TEE_FreeTransientObject(key);
		return res;
	}
	if (state->key != TEE_HANDLE_NULL)
		TEE_FreeTransientObject(state->key);
	state->key = key;
	return TEE_SUCCESS;
}

/* Signs or verifies SHA-256(msg) with key; sig is in or out by mode. */
static TEE_Result run(TEE_ObjectHandle key, uint32_t mode, const TEE_Param *msg, void *sig,
		      size_t *sig_len)
{
	uint8_t digest[DIGEST_SIZE];
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	TEE_Result res = sha256(msg->memref.buffer, msg->memref.size, digest);

	if (res != TEE_SUCCESS)
		return res;
	res = TEE_AllocateOperation(&op, TEE_ALG_ECDSA_SHA256, mode, KEY_BITS);
	if (res != TEE_SUCCESS)
		return res;
	res = TEE_SetOperationKey(op, key);
	if (res == TEE_SUCCESS && mode == TEE_MODE_SIGN)
		res = TEE_AsymmetricSignDigest(op, NULL, 0, digest, sizeof(digest), sig, sig_len);
	else if (res == TEE_SUCCESS)
		res =
		    TEE_AsymmetricVerifyDigest(op, NULL, 0, digest, sizeof(digest), sig, *sig_len);
	TEE_FreeOperation(op);
	return res;
}

static TEE_Result get_public_key(struct ecdsa *state, TEE_Param *out)
{
	size_t x_len = COORD_SIZE;
	size_t y_len = COORD_SIZE;
	uint8_t *buf = out->memref.buffer;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (out->memref.size < 2 * COORD_SIZE) {
		out->memref.size = 2 * COORD_SIZE;
		return TEE_ERROR_SHORT_BUFFER;
	}
	res = TEE_GetObjectBufferAttribute(state->key, TEE_ATTR_ECC_PUBLIC_VALUE_X, buf, &x_len);
	if (res == TEE_SUCCESS)
		res = TEE_GetObjectBufferAttribute(state->key, TEE_ATTR_ECC_PUBLIC_VALUE_Y,
						   buf + COORD_SIZE, &y_len);
	if (res == TEE_SUCCESS && (x_len != COORD_SIZE || y_len != COORD_SIZE))
		res = TEE_ERROR_GENERIC;
	if (res == TEE_SUCCESS)
		out->memref.size = 2 * COORD_SIZE;
	return res;
}

static TEE_Result verify_with_key(TEE_Param params[4])
{
	const uint8_t *xy = params[0].memref.buffer;
	TEE_Attribute attrs[3];
	TEE_ObjectHandle key = TEE_HANDLE_NULL;
	size_t sig_len = params[2].memref.size;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (params[0].memref.size != 2 * COORD_SIZE)
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_AllocateTransientObject(TEE_TYPE_ECDSA_PUBLIC_KEY, KEY_BITS, &key);
	if (res != TEE_SUCCESS)
		return res;
	TEE_InitRefAttribute(&attrs[0], TEE_ATTR_ECC_PUBLIC_VALUE_X, xy, COORD_SIZE);
	TEE_InitRefAttribute(&attrs[1], TEE_ATTR_ECC_PUBLIC_VALUE_Y, xy + COORD_SIZE, COORD_SIZE);
	TEE_InitValueAttribute(&attrs[2], TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0);
	res = TEE_PopulateTransientObject(key, attrs, 3);
	if (res == TEE_SUCCESS)
		res = run(key, TEE_MODE_VERIFY, &params[1], params[2].memref.buffer, &sig_len);
	TEE_FreeTransientObject(key);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void *session, uint32_t cmd, uint32_t pt, TEE_Param params[4])
{
	const uint32_t in_out =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	const uint32_t in_in =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_INPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	const uint32_t out = TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_OUTPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	const uint32_t in3 =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_INPUT,
			    TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_NONE);
	struct ecdsa *state = session;
	size_t n = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (cmd == TA_ECDSA_CMD_GEN_KEY)
		return gen_key(state);
	if (cmd == TA_ECDSA_CMD_VERIFY_WITH_KEY)
		return pt == in3 ? verify_with_key(params) : TEE_ERROR_BAD_PARAMETERS;
	if (state->key == TEE_HANDLE_NULL)
		return TEE_ERROR_BAD_STATE;
	switch (cmd) {
	case TA_ECDSA_CMD_SIGN:
		if (pt != in_out)
			return TEE_ERROR_BAD_PARAMETERS;
		n = params[1].memref.size;
		res = run(state->key, TEE_MODE_SIGN, &params[0], params[1].memref.buffer, &n);
		params[1].memref.size = n;
		return res;
	case TA_ECDSA_CMD_VERIFY:
		if (pt != in_in)
			return TEE_ERROR_BAD_PARAMETERS;
		n = params[1].memref.size;
		return run(state->key, TEE_MODE_VERIFY, &params[0], params[1].memref.buffer, &n);
	case TA_ECDSA_CMD_GET_PUBLIC_KEY:
		return pt == out ? get_public_key(state, &params[0]) : TEE_ERROR_BAD_PARAMETERS;
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
