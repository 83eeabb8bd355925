/* Counts the calls of each session. */
#include <tee_internal_api.h>
#include <trace.h>

#include <counter_ta.h>

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	uint32_t *n = TEE_Malloc(sizeof(*n), TEE_MALLOC_FILL_ZERO);

	if (!n)
		return TEE_ERROR_OUT_OF_MEMORY;
	*ctx = n;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	TEE_Free(ctx);
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	uint32_t *n = ctx;

	if (cmd != COUNTER_CMD_NEXT ||
	    types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	params[0].value.a = ++*n;
	params[0].value.b = TRACE_LEVEL;
	IMSG("call %u", *n);
	return TEE_SUCCESS;
}
