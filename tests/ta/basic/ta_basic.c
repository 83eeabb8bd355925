/* A multi-instance TA with one command per client-API feature under test. */
#include <string.h>
#include <tee_internal_api.h>
#include <trace.h>

#include "pta_system_client.h"
#include "ta_basic.h"

struct session {
	uint32_t counter;
	uint32_t login;
	TEE_UUID identity;
};

static uint32_t instance_counter;

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	struct session *s = TEE_Malloc(sizeof(*s), TEE_MALLOC_FILL_ZERO);

	if (!s)
		return TEE_ERROR_OUT_OF_MEMORY;
	/* An open with value[0] input of 0xdead fails on purpose. */
	if (TEE_PARAM_TYPE_GET(types, 0) == TEE_PARAM_TYPE_VALUE_INPUT &&
	    params[0].value.a == 0xdead) {
		TEE_Free(s);
		return TEE_ERROR_ACCESS_DENIED;
	}
	/* value[0] inout: report a + 1 back. */
	if (TEE_PARAM_TYPE_GET(types, 0) == TEE_PARAM_TYPE_VALUE_INOUT)
		params[0].value.a++;
	*ctx = s;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	TEE_Free(ctx);
}

static TEE_Result reverse(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	const uint8_t *in = p[0].memref.buffer;
	uint8_t *out = p[1].memref.buffer;
	size_t n = p[0].memref.size;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[1].memref.size < n) {
		p[1].memref.size = n;
		return TEE_ERROR_SHORT_BUFFER;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = in[n - 1 - i];
	p[1].memref.size = n;
	return TEE_SUCCESS;
}

static const TEE_UUID self_uuid = TA_BASIC_UUID;

static TEE_Result ta2ta(uint32_t cmd, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_TASessionHandle s = TEE_HANDLE_NULL;
	TEE_Param q[TEE_NUM_PARAMS];
	uint32_t origin = 0;
	TEE_Result res = TEE_SUCCESS;

	res = TEE_OpenTASession(&self_uuid, TEE_TIMEOUT_INFINITE, 0, NULL, &s, &origin);
	if (res)
		return res;
	TEE_MemFill(q, 0, sizeof(q));
	switch (cmd) {
	case TA_BASIC_CMD_TA2TA_ADD:
		q[0].value = p[0].value;
		res = TEE_InvokeTACommand(s, TEE_TIMEOUT_INFINITE, TA_BASIC_CMD_ADD,
					  TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT,
							  TEE_PARAM_TYPE_VALUE_OUTPUT,
							  TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE),
					  q, &origin);
		p[1].value.a = q[1].value.a;
		p[1].value.b = origin;
		break;
	case TA_BASIC_CMD_TA2TA_PASS:
		q[0] = p[0];
		q[1] = p[1];
		res = TEE_InvokeTACommand(s, TEE_TIMEOUT_INFINITE, TA_BASIC_CMD_REVERSE,
					  TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT,
							  TEE_PARAM_TYPE_MEMREF_OUTPUT,
							  TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE),
					  q, &origin);
		p[1].memref.size = q[1].memref.size;
		p[2].value.a = res;
		res = res == TEE_ERROR_SHORT_BUFFER ? res : TEE_SUCCESS;
		break;
	case TA_BASIC_CMD_TA2TA_PANIC:
		q[0].value.a = 0xbeef;
		p[1].value.a = TEE_InvokeTACommand(
		    s, TEE_TIMEOUT_INFINITE, TA_BASIC_CMD_PANIC,
		    TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE),
		    q, &origin);
		p[1].value.b = origin;
		/* The dead callee's session still closes cleanly. */
		break;
	case TA_BASIC_CMD_TA2TA_TIMEOUT:
		q[0].value.a = p[0].value.a;
		p[1].value.a = TEE_InvokeTACommand(
		    s, p[0].value.b, TA_BASIC_CMD_WAIT,
		    TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE),
		    q, &origin);
		break;
	default:
		res = TEE_ERROR_NOT_SUPPORTED;
		break;
	}
	TEE_CloseTASession(s);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param p[TEE_NUM_PARAMS])
{
	struct session *s = ctx;
	TEE_Identity id;
	uint8_t *b = NULL;

	switch (cmd) {
	case TA_BASIC_CMD_NOP:
		return TEE_SUCCESS;
	case TA_BASIC_CMD_ADD:
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT,
					     TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		p[1].value.a = p[0].value.a + p[0].value.b;
		p[1].value.b = p[0].value.a ^ p[0].value.b;
		return TEE_SUCCESS;
	case TA_BASIC_CMD_REVERSE:
		return reverse(types, p);
	case TA_BASIC_CMD_INC_INOUT:
		if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_MEMREF_INOUT)
			return TEE_ERROR_BAD_PARAMETERS;
		b = p[0].memref.buffer;
		for (size_t i = 0; i < p[0].memref.size; i++)
			b[i]++;
		return TEE_SUCCESS;
	case TA_BASIC_CMD_PANIC:
		TEE_Panic(p[0].value.a);
		return TEE_ERROR_GENERIC;
	case TA_BASIC_CMD_CRASH:
		*(volatile int *)(uintptr_t)p[0].value.a = 1;
		return TEE_ERROR_GENERIC;
	case TA_BASIC_CMD_WAIT:
		TEE_UnmaskCancellation();
		p[1].value.a = TEE_Wait(p[0].value.a);
		return p[1].value.a;
	case TA_BASIC_CMD_HANG:
		for (;;)
			;
	case TA_BASIC_CMD_IDENTITY:
		(void)id;
		return TEE_ERROR_NOT_SUPPORTED;
	case TA_BASIC_CMD_COUNTER:
		p[0].value.a = ++instance_counter;
		p[0].value.b = ++s->counter;
		return TEE_SUCCESS;
	case TA_BASIC_CMD_MEMREF_INFO:
		p[1].value.a = p[0].memref.buffer == NULL;
		p[1].value.b = (uint32_t)p[0].memref.size;
		return TEE_SUCCESS;
	case TA_BASIC_CMD_TA2TA_ADD:
	case TA_BASIC_CMD_TA2TA_PASS:
	case TA_BASIC_CMD_TA2TA_PANIC:
	case TA_BASIC_CMD_TA2TA_TIMEOUT:
		return ta2ta(cmd, p);
	case TA_BASIC_CMD_TYPES:
		p[0].value.a = types;
		return TEE_SUCCESS;
	case TA_BASIC_CMD_PTA_SYSTEM:
		return test_pta_system(p[2].value.a, p);
	case TA_BASIC_CMD_TOUCH:
		if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_MEMREF_INOUT ||
		    !p[0].memref.buffer || !p[0].memref.size)
			return TEE_ERROR_BAD_PARAMETERS;
		b = p[0].memref.buffer;
		b[0]++;
		return TEE_SUCCESS;
	default:
		EMSG("unknown command %u", cmd);
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
