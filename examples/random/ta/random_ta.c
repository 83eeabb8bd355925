/* Random bytes from the TEE's generator, into the client's buffer. */
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>

#include <random_ta.h>

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t __maybe_unused param_types,
				    TEE_Param __maybe_unused params[4],
				    void __maybe_unused **sess_ctx)
{
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void __maybe_unused *sess_ctx)
{
}

static TEE_Result generate(uint32_t param_types, TEE_Param params[4])
{
	uint32_t exp_param_types =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_OUTPUT, TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE,
			    TEE_PARAM_TYPE_NONE);
	uint8_t chunk[256];
	uint8_t *out = NULL;
	size_t left = 0;

	if (param_types != exp_param_types)
		return TEE_ERROR_BAD_PARAMETERS;
	out = params[0].memref.buffer;
	left = params[0].memref.size;
	IMSG("generating %zu random bytes", left);
	/* Generated in TA memory, then copied out: the client never sees the TEE's buffer. */
	while (left) {
		size_t n = left < sizeof(chunk) ? left : sizeof(chunk);

		TEE_GenerateRandom(chunk, n);
		TEE_MemMove(out, chunk, n);
		out += n;
		left -= n;
	}
	TEE_MemFill(chunk, 0, sizeof(chunk));
	return TEE_SUCCESS;
}

TEE_Result TA_InvokeCommandEntryPoint(void __maybe_unused *sess_ctx, uint32_t cmd_id,
				      uint32_t param_types, TEE_Param params[4])
{
	switch (cmd_id) {
	case TA_RANDOM_CMD_GENERATE:
		return generate(param_types, params);
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
