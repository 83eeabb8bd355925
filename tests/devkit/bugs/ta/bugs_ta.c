/*
 * Planted bugs for the kit's debugging tests. The line of each bug is
 * what the sanitizer and valgrind reports must name.
 */
#include <stdlib.h>
#include <tee_internal_api.h>

#include <bugs_ta.h>

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
}

static uint32_t count(uint32_t a)
{
	if (a <= 100)
		return 2 * a;
	return a - 100;
}

static TEE_Result use_after_free(void)
{
	char *volatile p = malloc(32);

	if (!p)
		return TEE_ERROR_OUT_OF_MEMORY;
	p[5] = 'x';
	free(p);
	return p[5] == 'x' ? TEE_SUCCESS : TEE_ERROR_GENERIC; /* BUG: use after free */
}

static TEE_Result bad_shift(uint32_t by)
{
	volatile int one = 1;
	volatile int r = one << by; /* BUG: shift exponent too large */

	return r ? TEE_SUCCESS : TEE_ERROR_GENERIC;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	switch (cmd) {
	case TA_BUGS_CMD_COUNT:
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INOUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		params[0].value.a = count(params[0].value.a);
		return TEE_SUCCESS;
	case TA_BUGS_CMD_USE_AFTER_FREE:
		return use_after_free();
	case TA_BUGS_CMD_BAD_SHIFT:
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		return bad_shift(params[0].value.a);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
