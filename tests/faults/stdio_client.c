/*
 * A client for faults.ta_output: has the hostile TA play with its standard
 * streams, once returning and once panicking, and prints what it got:
 * "stdio <result hex> <origin> stdin <bytes read>" then "panic <result hex>
 * <origin>". With "flood N": has it write N lines as fast as it can, and
 * prints "flood <result hex>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include "ta_hostile.h"

static TEEC_Result stdio_call(TEEC_Context *ctx, uint32_t panic, uint32_t *got, uint32_t *orig)
{
	static const TEEC_UUID uuid = TA_HOSTILE_UUID;
	TEEC_Session s;
	TEEC_Operation op;
	TEEC_Result res = TEEC_OpenSession(ctx, &s, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, orig);

	if (res)
		return res;
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = panic;
	op.params[1].value.a = 0xffffffff;
	res = TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_STDIO, &op, orig);
	*got = op.params[1].value.a;
	/* Closing ends the instance: its last words are not yet written. */
	TEEC_CloseSession(&s);
	return res;
}

static TEEC_Result flood(TEEC_Context *ctx, uint32_t lines)
{
	static const TEEC_UUID uuid = TA_HOSTILE_UUID;
	TEEC_Session s;
	TEEC_Operation op;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_OpenSession(ctx, &s, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);

	if (res)
		return res;
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = lines;
	res = TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_FLOOD, &op, &orig);
	TEEC_CloseSession(&s);
	return res;
}

int main(int argc, char **argv)
{
	TEEC_Context ctx;
	uint32_t orig = 0;
	uint32_t got = 0;
	TEEC_Result res = TEEC_InitializeContext(NULL, &ctx);

	if (res) {
		printf("context %08x\n", res);
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "flood")) {
		res = flood(&ctx, (uint32_t)strtoul(argv[2], NULL, 10));
		printf("flood %08x\n", res);
		TEEC_FinalizeContext(&ctx);
		return 0;
	}
	res = stdio_call(&ctx, 0, &got, &orig);
	printf("stdio %08x %u stdin %d\n", res, orig, (int)got);
	res = stdio_call(&ctx, 1, &got, &orig);
	printf("panic %08x %u\n", res, orig);
	TEEC_FinalizeContext(&ctx);
	return 0;
}
