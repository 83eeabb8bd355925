/*
 * The plugin test TA: tee_invoke_supp_plugin behind commands (see
 * ta_plugin.h), for xtest 1080-1089 against the plugins of tests/plugins.
 */
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>

#include <pta_system.h>
#include <string.h>

#include "ta_plugin.h"
#include "test_plugin.h"

static const TEE_UUID test_plugin = TEST_PLUGIN_UUID;
static const TEE_UUID bad_init_plugin = TEST_PLUGIN_BAD_INIT_UUID;
static const TEE_UUID no_plugin = {0x3151995e, 0xfb6a, 0x4c13, {0, 0, 0, 0, 0, 0, 0, 1}};

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[4], void **ctx)
{
	(void)types;
	(void)params;
	(void)ctx;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

static const TEE_UUID *target(uint32_t which)
{
	switch (which) {
	case TA_PLUGIN_TARGET_TEST:
		return &test_plugin;
	case TA_PLUGIN_TARGET_BAD_INIT:
		return &bad_init_plugin;
	case TA_PLUGIN_TARGET_NONE:
		return &no_plugin;
	default:
		return NULL;
	}
}

/* As tee_invoke_supp_plugin, through the system pseudo-TA's command. */
static TEE_Result invoke_via_pta(const TEE_UUID *uuid, uint32_t cmd, uint32_t sub_cmd, void *buf,
				 size_t len, size_t *outlen)
{
	static const TEE_UUID system_uuid = PTA_SYSTEM_UUID;
	TEE_TASessionHandle s = TEE_HANDLE_NULL;
	TEE_Param q[TEE_NUM_PARAMS];
	TEE_UUID u;
	uint32_t origin = 0;
	TEE_Result res =
	    TEE_OpenTASession(&system_uuid, TEE_TIMEOUT_INFINITE, 0, NULL, &s, &origin);

	if (res)
		return res;
	memcpy(&u, uuid, sizeof(u));
	memset(q, 0, sizeof(q));
	q[0].memref.buffer = &u;
	q[0].memref.size = sizeof(u);
	q[1].value.a = cmd;
	q[1].value.b = sub_cmd;
	q[2].memref.buffer = buf;
	q[2].memref.size = len;
	res = TEE_InvokeTACommand(
	    s, TEE_TIMEOUT_INFINITE, PTA_SYSTEM_SUPP_PLUGIN_INVOKE,
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_VALUE_INPUT,
			    TEE_PARAM_TYPE_MEMREF_INOUT, TEE_PARAM_TYPE_VALUE_OUTPUT),
	    q, &origin);
	if (outlen)
		*outlen = q[3].value.a;
	TEE_CloseTASession(s);
	return res;
}

static TEE_Result cmd_invoke(uint32_t types, TEE_Param p[4])
{
	uint32_t t1 = TEE_PARAM_TYPE_GET(types, 1);
	uint32_t flags = 0;
	void *buf = NULL;
	size_t len = 0;
	size_t outlen = TA_PLUGIN_UNTOUCHED;
	uint8_t empty[1] = {0};
	TEE_Result res = TEE_ERROR_GENERIC;

	if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_VALUE_INPUT ||
	    (t1 != TEE_PARAM_TYPE_MEMREF_INOUT && t1 != TEE_PARAM_TYPE_NONE) ||
	    TEE_PARAM_TYPE_GET(types, 2) != TEE_PARAM_TYPE_VALUE_INOUT ||
	    TEE_PARAM_TYPE_GET(types, 3) != TEE_PARAM_TYPE_NONE)
		return TEE_ERROR_BAD_PARAMETERS;
	flags = p[2].value.a;
	if (t1 == TEE_PARAM_TYPE_MEMREF_INOUT) {
		buf = p[1].memref.buffer;
		len = p[1].memref.size;
	}
	if (flags & TA_PLUGIN_ARG_EMPTY_BUF) {
		buf = empty;
		len = 0;
	}
	if (flags & TA_PLUGIN_ARG_NULL_BUF)
		buf = NULL;
	if (flags & TA_PLUGIN_ARG_VIA_PTA)
		res = invoke_via_pta(target(p[2].value.b), p[0].value.a, p[0].value.b, buf, len,
				     &outlen);
	else
		res =
		    tee_invoke_supp_plugin(target(p[2].value.b), p[0].value.a, p[0].value.b, buf,
					   len, (flags & TA_PLUGIN_ARG_NO_OUTLEN) ? NULL : &outlen);
	p[2].value.a = (uint32_t)outlen;
	return res;
}

static TEE_Result cmd_big(uint32_t types, TEE_Param p[4])
{
	uint8_t *buf = NULL;
	size_t len = 0;
	size_t outlen = 0;
	uint32_t wrong = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	len = p[0].value.a;
	buf = TEE_Malloc(len ? len : 1, TEE_MALLOC_FILL_ZERO);
	if (!buf)
		return TEE_ERROR_OUT_OF_MEMORY;
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)i;
	res = tee_invoke_supp_plugin(&test_plugin, TEST_PLUGIN_CMD_ADD, 1, len ? buf : NULL, len,
				     &outlen);
	for (size_t i = 0; i < len; i++)
		if (buf[i] != (uint8_t)(i + 1))
			wrong++;
	p[1].value.a = wrong;
	p[1].value.b = (uint32_t)outlen;
	TEE_Free(buf);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types, TEE_Param p[4])
{
	(void)ctx;
	switch (cmd) {
	case TA_PLUGIN_CMD_INVOKE:
		return cmd_invoke(types, p);
	case TA_PLUGIN_CMD_BIG:
		return cmd_big(types, p);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
