/*
 * One source, two ABIs. Built for GP 1.1 it sees memref sizes as uint32_t
 * and calls the __GP11_ functions; built for 1.3, size_t. The client
 * checks that each instance gets the ABI it was built for.
 */
#include <string.h>
#include <tee_internal_api.h>

#include <size_ta.h>

#if __OPTEE_CORE_API_COMPAT_1_1
typedef uint32_t ta_size_t;
#else
typedef size_t ta_size_t;
#endif

_Static_assert(sizeof(((TEE_Param *)0)->memref.size) == sizeof(ta_size_t),
	       "TEE_Param does not have the memref size of the API the TA is built for");

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

static TEE_Result fill(TEE_Param params[TEE_NUM_PARAMS])
{
	uint8_t *out = params[1].memref.buffer;
	ta_size_t n = params[0].value.a;

	if (params[1].memref.size < n) {
		params[1].memref.size = n;
		return TEE_ERROR_SHORT_BUFFER;
	}
	for (ta_size_t i = 0; i < n; i++)
		out[i] = (uint8_t)i;
	params[1].memref.size = n;
	return TEE_SUCCESS;
}

static TEE_Result echo_size(TEE_Param params[TEE_NUM_PARAMS])
{
	const uint8_t *in = params[0].memref.buffer;
	uint32_t sum = 0;

	for (ta_size_t i = 0; i < params[0].memref.size; i++)
		sum = sum * 31 + in[i];
	params[1].value.a = (uint32_t)params[0].memref.size;
	params[1].value.b = sum;
	return TEE_SUCCESS;
}

static TEE_Result property(TEE_Param params[TEE_NUM_PARAMS])
{
	char buf[128];
	ta_size_t len = params[0].memref.size;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (len > sizeof(buf))
		return TEE_ERROR_BAD_PARAMETERS;
	/* &len is a uint32_t * for GP 1.1, a size_t * for 1.3: it compiles only so. */
	res = TEE_GetPropertyAsString(TEE_PROPSET_CURRENT_TA, "gpd.ta.description", buf, &len);
	if (res == TEE_SUCCESS)
		memcpy(params[0].memref.buffer, buf, len);
	params[0].memref.size = len;
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	switch (cmd) {
	case TA_SIZE_CMD_INFO:
		params[0].value.a = sizeof(params[0].memref.size);
		params[0].value.b = __OPTEE_CORE_API_COMPAT_1_1;
		return TEE_SUCCESS;
	case TA_SIZE_CMD_FILL:
		return fill(params);
	case TA_SIZE_CMD_ECHO_SIZE:
		return echo_size(params);
	case TA_SIZE_CMD_PROPERTY:
		return property(params);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
