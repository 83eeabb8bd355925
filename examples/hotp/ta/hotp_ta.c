/*
 * HOTP (RFC 4226): HMAC-SHA1 of an 8-byte big-endian counter under a
 * shared secret, truncated to 6 decimal digits. The secret stays in the TA.
 */
#include <string.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>

#include <hotp_ta.h>

#define MAX_KEY_SIZE 64
#define SHA1_SIZE 20
#define DIGITS_MOD 1000000

struct hotp {
	uint8_t key[MAX_KEY_SIZE];
	size_t key_len;
	uint64_t counter;
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
	struct hotp *state = TEE_Malloc(sizeof(*state), TEE_MALLOC_FILL_ZERO);

	if (!state)
		return TEE_ERROR_OUT_OF_MEMORY;
	*session = state;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *session)
{
	struct hotp *state = session;

	TEE_MemFill(state, 0, sizeof(*state));
	TEE_Free(state);
}

static TEE_Result hmac_sha1(const uint8_t *key, size_t key_len, const uint8_t *in, size_t in_len,
			    uint8_t out[SHA1_SIZE])
{
	TEE_Attribute attr;
	TEE_ObjectHandle key_obj = TEE_HANDLE_NULL;
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	size_t out_len = SHA1_SIZE;
	TEE_Result res = TEE_ERROR_GENERIC;

	res = TEE_AllocateOperation(&op, TEE_ALG_HMAC_SHA1, TEE_MODE_MAC, key_len * 8);
	if (res != TEE_SUCCESS)
		goto out;
	res = TEE_AllocateTransientObject(TEE_TYPE_HMAC_SHA1, key_len * 8, &key_obj);
	if (res != TEE_SUCCESS)
		goto out;
	TEE_InitRefAttribute(&attr, TEE_ATTR_SECRET_VALUE, key, key_len);
	res = TEE_PopulateTransientObject(key_obj, &attr, 1);
	if (res != TEE_SUCCESS)
		goto out;
	res = TEE_SetOperationKey(op, key_obj);
	if (res != TEE_SUCCESS)
		goto out;
	TEE_MACInit(op, NULL, 0);
	res = TEE_MACComputeFinal(op, in, in_len, out, &out_len);
	if (res == TEE_SUCCESS && out_len != SHA1_SIZE)
		res = TEE_ERROR_GENERIC;
out:
	if (op != TEE_HANDLE_NULL)
		TEE_FreeOperation(op);
	if (key_obj != TEE_HANDLE_NULL)
		TEE_FreeTransientObject(key_obj);
	return res;
}

static TEE_Result register_key(struct hotp *state, uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp = TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);

	if (pt != exp || !params[0].memref.size || params[0].memref.size > MAX_KEY_SIZE)
		return TEE_ERROR_BAD_PARAMETERS;
	memcpy(state->key, params[0].memref.buffer, params[0].memref.size);
	state->key_len = params[0].memref.size;
	state->counter = 0;
	DMSG("registered a %zu-byte key", state->key_len);
	return TEE_SUCCESS;
}

static TEE_Result get_hotp(struct hotp *state, uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp = TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	uint8_t counter[8];
	uint8_t mac[SHA1_SIZE];
	uint32_t code = 0;
	size_t off = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (pt != exp || !state->key_len)
		return TEE_ERROR_BAD_PARAMETERS;
	for (size_t i = 0; i < sizeof(counter); i++)
		counter[i] = (uint8_t)(state->counter >> (56 - 8 * i));
	res = hmac_sha1(state->key, state->key_len, counter, sizeof(counter), mac);
	if (res != TEE_SUCCESS)
		return res;
	/* Dynamic truncation, RFC 4226 section 5.3. */
	off = mac[SHA1_SIZE - 1] & 0xf;
	code = ((uint32_t)(mac[off] & 0x7f) << 24) | ((uint32_t)mac[off + 1] << 16) |
	       ((uint32_t)mac[off + 2] << 8) | mac[off + 3];
	params[0].value.a = code % DIGITS_MOD;
	state->counter++;
	return TEE_SUCCESS;
}

TEE_Result TA_InvokeCommandEntryPoint(void *session, uint32_t cmd, uint32_t pt, TEE_Param params[4])
{
	switch (cmd) {
	case TA_HOTP_CMD_REGISTER_SHARED_KEY:
		return register_key(session, pt, params);
	case TA_HOTP_CMD_GET_HOTP:
		return get_hotp(session, pt, params);
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
