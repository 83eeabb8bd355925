/*
 * A client for the fault tests: opens a session to the basic TA, says
 * "ready", then makes calls until one fails and prints what it got:
 * "<call> <result hex> <origin>". usage: fault_client wait|nop
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "ta_basic.h"

int main(int argc, char **argv)
{
	static const TEEC_UUID uuid = TA_BASIC_UUID;
	TEEC_Context ctx;
	TEEC_Session s;
	TEEC_Operation op;
	uint32_t orig = 0;
	TEEC_Result res = 0;
	bool wait = argc > 1 && !strcmp(argv[1], "wait");

	res = TEEC_InitializeContext(NULL, &ctx);
	if (!res)
		res = TEEC_OpenSession(&ctx, &s, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);
	if (res) {
		printf("open %08x %u\n", res, orig);
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		memset(&op, 0, sizeof(op));
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
		op.params[0].value.a = 200;
		res =
		    TEEC_InvokeCommand(&s, wait ? TA_BASIC_CMD_WAIT : TA_BASIC_CMD_NOP, &op, &orig);
		if (res)
			break;
	}
	printf("invoke %08x %u\n", res, orig);
	fflush(stdout);
	/* A moment for the TEE to see what happened, then a new session. */
	usleep(500 * 1000);
	res = TEEC_OpenSession(&ctx, &s, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);
	printf("reopen %08x %u\n", res, orig);
	fflush(stdout);
	return 0;
}
