/* The single-instance test TAs (see ta_sims.h). */
#include <tee_internal_api.h>
#include <trace.h>

#include "ta_sims.h"
#include "user_ta_header_defines.h"

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

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
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

static TEE_Result open_to(TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_TASessionHandle s = TEE_HANDLE_NULL;
	TEE_UUID target;
	uint32_t origin = 0;

	if (p[0].memref.size != sizeof(target))
		return TEE_ERROR_BAD_PARAMETERS;
	TEE_MemMove(&target, p[0].memref.buffer, sizeof(target));
	p[1].value.a = TEE_OpenTASession(&target, TEE_TIMEOUT_INFINITE, 0, NULL, &s, &origin);
	TEE_CloseTASession(s);
	return TEE_SUCCESS;
}

static TEE_Result call_back(TEE_Param p[TEE_NUM_PARAMS])
{
	static const TEE_UUID self = TA_UUID;
	TEE_TASessionHandle s = TEE_HANDLE_NULL;
	TEE_UUID target;
	TEE_Param q[TEE_NUM_PARAMS];
	uint32_t origin = 0;

	if (p[0].memref.size != sizeof(target))
		return TEE_ERROR_BAD_PARAMETERS;
	TEE_MemMove(&target, p[0].memref.buffer, sizeof(target));
	p[1].value.b = TEE_OpenTASession(&target, TEE_TIMEOUT_INFINITE, 0, NULL, &s, &origin);
	if (p[1].value.b)
		return TEE_SUCCESS;
	TEE_MemFill(q, 0, sizeof(q));
	q[0].memref.buffer = (void *)&self;
	q[0].memref.size = sizeof(self);
	TEE_InvokeTACommand(s, TEE_TIMEOUT_INFINITE, TA_SIMS_CMD_OPEN_TO,
			    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT,
					    TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE,
					    TEE_PARAM_TYPE_NONE),
			    q, &origin);
	p[1].value.a = q[1].value.a;
	TEE_CloseTASession(s);
	return TEE_SUCCESS;
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
	case TA_SIMS_CMD_OPEN_TO:
		return open_to(p);
	case TA_SIMS_CMD_CALL_BACK:
		return call_back(p);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
