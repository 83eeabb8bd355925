/* The single-instance test TAs (see ta_sims.h). */
#include <tee_internal_api.h>
#include <trace.h>

#include "ta_sims.h"

static uint32_t counter;
static uint32_t open_sessions;
static uint32_t closed_sessions;
static uint32_t token;

TEE_Result TA_CreateEntryPoint(void)
{
#ifdef TA_SIMS_CREATE_FAILS
	return TA_CREATE_FAIL_CODE;
#else
	TEE_Time t;

	TEE_GetSystemTime(&t);
	token = t.seconds * 1000 + t.millis + 1;
	return TEE_SUCCESS;
#endif
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS],
				    void **ctx)
{
	(void)types;
	(void)params;
	*ctx = NULL;
	open_sessions++;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
	open_sessions--;
	closed_sessions++;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param p[TEE_NUM_PARAMS])
{
	(void)ctx;
	(void)types;
	switch (cmd) {
	case TA_SIMS_CMD_COUNTER:
		p[0].value.a = ++counter;
		p[0].value.b = open_sessions;
		return TEE_SUCCESS;
	case TA_SIMS_CMD_PANIC:
		TEE_Panic(p[0].value.a);
		return TEE_ERROR_GENERIC;
	case TA_SIMS_CMD_CLOSED:
		p[0].value.a = closed_sessions;
		return TEE_SUCCESS;
	case TA_SIMS_CMD_TOKEN:
		p[0].value.a = token;
		return TEE_SUCCESS;
	case TA_SIMS_CMD_SPIN_CANCEL:
		TEE_UnmaskCancellation();
		while (!TEE_GetCancellationFlag())
			;
		return TEE_ERROR_CANCEL;
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
