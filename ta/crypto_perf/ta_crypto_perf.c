/*
 * The crypto_perf TA: entry points and command dispatch. Each session
 * holds its own prepared operations (crypto_perf.h).
 */
#include <tee_internal_api.h>
#include <trace.h>

#include "crypto_perf.h"

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	struct perf_session *s = NULL;

	(void)params;
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	s = TEE_Malloc(sizeof(*s), TEE_MALLOC_FILL_ZERO);
	if (!s)
		return TEE_ERROR_OUT_OF_MEMORY;
	*ctx = s;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	struct perf_session *s = ctx;

	if (!s)
		return;
	perf_cipher_clear(&s->cipher);
	perf_hash_clear(&s->hash);
	perf_asym_clear(&s->asym);
	TEE_Free(s);
}

bool perf_memref_in(uint32_t types, unsigned int slot)
{
	uint32_t t = TEE_PARAM_TYPE_GET(types, slot);

	return t == TEE_PARAM_TYPE_MEMREF_INPUT || t == TEE_PARAM_TYPE_MEMREF_INOUT;
}

bool perf_memref_out(uint32_t types, unsigned int slot)
{
	uint32_t t = TEE_PARAM_TYPE_GET(types, slot);

	return t == TEE_PARAM_TYPE_MEMREF_OUTPUT || t == TEE_PARAM_TYPE_MEMREF_INOUT;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	struct perf_session *s = ctx;

	switch (cmd) {
	case TA_CRYPTO_PERF_CMD_CIPHER_PREPARE_KEY:
		return perf_cipher_prepare(s, types, params);
	case TA_CRYPTO_PERF_CMD_CIPHER_PROCESS:
		return perf_cipher_process(s, types, params);
	case TA_CRYPTO_PERF_CMD_HASH_PREPARE_OP:
		return perf_hash_prepare(s, types, params);
	case TA_CRYPTO_PERF_CMD_HASH_PROCESS:
		return perf_hash_process(s, types, params);
	case TA_CRYPTO_PERF_CMD_ASYM_PREPARE_KEY:
		return perf_asym_prepare_key(s, types, params);
	case TA_CRYPTO_PERF_CMD_ASYM_PREPARE_OP:
		return perf_asym_prepare_op(s, types, params);
	case TA_CRYPTO_PERF_CMD_ASYM_PROCESS:
		return perf_asym_process(s, types, params);
	case TA_CRYPTO_PERF_CMD_ASYM_GEN_KEYPAIR:
		return perf_asym_gen_keypair(s, types, params);
	default:
		EMSG("unknown command 0x%x", cmd);
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
