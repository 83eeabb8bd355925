/*
 * The firmware TPM TA: GP entry points and its commands (ftpm_ta.h). The
 * TPM is powered on when the instance is created (or a session opens while
 * it is off) and runs until the TEE stops or a client powers it off; its
 * one instance is kept alive between sessions, and the core gives it one
 * session at a time, as OP-TEE does.
 */
#include <string.h>
#include <tee_internal_api.h>
#include <trace.h>

#include "buf.h"
#include "ftpm.h"

/* The command, copied out of client memory before anything reads it. */
static uint8_t cmd_buf[FTPM_MAX_COMMAND];

TEE_Result TA_CreateEntryPoint(void)
{
	TEE_Result res = ftpm_setup();

	if (res != TEE_SUCCESS)
		return res;
	return ftpm_power_on(0);
}

/*
 * The TEE is stopping: no Shutdown here (the storage may be gone already);
 * the normal world's driver sends one first (swtee-tpm does), as an OS does.
 */
void TA_DestroyEntryPoint(void)
{
	ftpm_power_off(0);
}

/*
 * A client that finds the TPM off (the last one powered it off on leaving)
 * boots it, as a machine boots when its OS loads the TPM driver: a client
 * written for OP-TEE's TA knows no power command.
 */
TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	(void)params;
	(void)ctx;
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	return ftpm_is_on() ? TEE_SUCCESS : ftpm_power_on(0);
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

static TEE_Result submit(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	uint32_t t2 = TEE_PARAM_TYPE_GET(types, 2);
	struct buf_reader r;
	const uint8_t *rsp = NULL;
	uint32_t rsp_len = 0;
	uint32_t len = 0;
	uint8_t loc = 0;
	size_t in = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_MEMREF_INPUT ||
	    TEE_PARAM_TYPE_GET(types, 1) != TEE_PARAM_TYPE_MEMREF_INOUT ||
	    (t2 != TEE_PARAM_TYPE_NONE && t2 != TEE_PARAM_TYPE_VALUE_INPUT) ||
	    TEE_PARAM_TYPE_GET(types, 3) != TEE_PARAM_TYPE_NONE)
		return TEE_ERROR_BAD_PARAMETERS;
	in = p[0].memref.size;
	if (!p[0].memref.buffer || in < TPM_HEADER_SIZE || in > FTPM_MAX_COMMAND ||
	    !p[1].memref.buffer || !p[1].memref.size)
		return TEE_ERROR_BAD_PARAMETERS;
	if (t2 == TEE_PARAM_TYPE_VALUE_INPUT) {
		if (p[2].value.a > 4)
			return TEE_ERROR_BAD_PARAMETERS;
		loc = (uint8_t)p[2].value.a;
	}
	/* Client memory is shared: copy first, then read only the copy. */
	memcpy(cmd_buf, p[0].memref.buffer, in);
	/* commandSize, after the tag */
	buf_reader_init(&r, cmd_buf, in);
	buf_skip(&r, 2);
	buf_get_be32(&r, &len);
	if (len > in)
		return TEE_ERROR_BAD_PARAMETERS;
	res = ftpm_execute(cmd_buf, len, loc, &rsp, &rsp_len);
	if (res != TEE_SUCCESS)
		return res;
	if (rsp_len > p[1].memref.size) {
		p[1].memref.size = rsp_len;
		return TEE_ERROR_SHORT_BUFFER;
	}
	memcpy(p[1].memref.buffer, rsp, rsp_len);
	p[1].memref.size = rsp_len;
	return TEE_SUCCESS;
}

/* The flags of a power command: none, or value input [0]. */
static TEE_Result power_flags(uint32_t types, TEE_Param p[TEE_NUM_PARAMS], uint32_t *flags)
{
	*flags = 0;
	if (types == TEE_PARAM_TYPES(TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE))
		return TEE_SUCCESS;
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[0].value.a & ~(FTPM_POWER_MANUAL_STARTUP | FTPM_POWER_ORDERLY))
		return TEE_ERROR_BAD_PARAMETERS;
	*flags = p[0].value.a;
	return TEE_SUCCESS;
}

static TEE_Result hash_data(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	static uint8_t copy[FTPM_MAX_COMMAND];
	size_t n = p[0].memref.size;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (n > sizeof(copy) || (n && !p[0].memref.buffer))
		return TEE_ERROR_BAD_PARAMETERS;
	if (n)
		memcpy(copy, p[0].memref.buffer, n);
	return ftpm_hash_data(copy, (uint32_t)n);
}

static TEE_Result established(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	bool set = false;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (cmd == TA_FTPM_GET_ESTABLISHED) {
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		res = ftpm_established_get(&set);
		p[0].value.a = set;
		p[0].value.b = 0;
		return res;
	}
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE) ||
	    p[0].value.a > 4)
		return TEE_ERROR_BAD_PARAMETERS;
	return ftpm_established_reset((uint8_t)p[0].value.a);
}

static bool no_params(uint32_t types)
{
	return types == TEE_PARAM_TYPES(TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE,
					TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	uint32_t flags = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	(void)ctx;
	switch (cmd) {
	case TA_FTPM_SUBMIT_COMMAND:
		return submit(types, params);
	case TA_FTPM_EMULATE_PPI:
		return TEE_ERROR_NOT_SUPPORTED;
	case TA_FTPM_POWER_ON:
		res = power_flags(types, params, &flags);
		return res != TEE_SUCCESS ? res : ftpm_power_on(flags);
	case TA_FTPM_POWER_OFF:
		res = power_flags(types, params, &flags);
		if (res == TEE_SUCCESS)
			ftpm_power_off(flags);
		return res;
	case TA_FTPM_HASH_START:
		return no_params(types) ? ftpm_hash_start() : TEE_ERROR_BAD_PARAMETERS;
	case TA_FTPM_HASH_DATA:
		return hash_data(types, params);
	case TA_FTPM_HASH_END:
		return no_params(types) ? ftpm_hash_end() : TEE_ERROR_BAD_PARAMETERS;
	case TA_FTPM_GET_ESTABLISHED:
	case TA_FTPM_RESET_ESTABLISHED:
		return established(cmd, types, params);
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
