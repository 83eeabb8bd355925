/* Reports which of the kit's flags reached which source. */
#include <featlib.h>
#include <tee_internal_api.h>

#include <features_ta.h>

uint32_t features_sub_bits(void);

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

static uint32_t top_bits(void)
{
	uint32_t bits = 0;

#if defined(TOP_FLAG) && TOP_FLAG == 1
	bits |= TOP_CFLAGS_Y;
#endif
#if defined(FILE_FLAG) && FILE_FLAG == 2
	bits |= TOP_CFLAGS_FILE;
#endif
#ifndef __SWTEE__
	bits |= TOP_CFLAGS_REMOVED;
#endif
#ifndef SUB_FLAG
	bits |= TOP_NO_SUB_FLAGS;
#endif
#if defined(CFG_FEATURE_TEST) && CFG_FEATURE_TEST == 1
	bits |= TOP_CFG_DEFINE;
#endif
#if defined(CFG_FEATURE_NUMBER) && CFG_FEATURE_NUMBER == 42
	bits |= TOP_CFG_NUMBER;
#endif
	return bits;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	if (cmd != TA_FEATURES_CMD_REPORT ||
	    types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	EMSG("trace at level error");
	IMSG("trace at level info");
	DMSG("trace at level debug");
	FMSG("trace at level flow");
	params[0].value.a = top_bits();
	params[0].value.b = features_sub_bits();
	params[1].value.a = featlib_magic();
	params[1].value.b = TRACE_LEVEL;
	return TEE_SUCCESS;
}
