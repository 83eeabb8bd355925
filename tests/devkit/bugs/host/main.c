/*
 * devkit_bugs count|uaf|shift: runs one command of the bugs TA.
 *   count  expects 7 -> 14 and 150 -> 50; exit 0 when right
 *   uaf    exit 0 when the TA died (TEEC_ERROR_TARGET_DEAD), as it must
 *          under a sanitizer; 3 when it returned
 *   shift  exit 0 when the command returned (UBSan reports and goes on)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <bugs_ta.h>

static TEEC_Result run(TEEC_Session *s, uint32_t cmd, uint32_t types, uint32_t *a)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = types;
	op.params[0].value.a = *a;
	res = TEEC_InvokeCommand(s, cmd, &op, &origin);
	*a = op.params[0].value.a;
	printf("command %u: 0x%08x (origin %u)\n", cmd, res, origin);
	return res;
}

static int count(TEEC_Session *s)
{
	const uint32_t types = TEEC_PARAM_TYPES(TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	uint32_t a = 7;
	uint32_t b = 150;

	if (run(s, TA_BUGS_CMD_COUNT, types, &a) || a != 14)
		return 1;
	if (run(s, TA_BUGS_CMD_COUNT, types, &b) || b != 50)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = TA_BUGS_UUID;
	uint32_t origin = 0;
	uint32_t a = 40;
	int rc = 2;

	if (argc != 2) {
		fprintf(stderr, "usage: devkit_bugs count|uaf|shift\n");
		return 2;
	}
	if (TEEC_InitializeContext(NULL, &ctx))
		return 2;
	if (TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin)) {
		fprintf(stderr, "cannot open a session (origin %u)\n", origin);
		TEEC_FinalizeContext(&ctx);
		return 2;
	}
	if (!strcmp(argv[1], "count"))
		rc = count(&sess);
	else if (!strcmp(argv[1], "uaf"))
		rc =
		    run(&sess, TA_BUGS_CMD_USE_AFTER_FREE, 0, &a) == TEEC_ERROR_TARGET_DEAD ? 0 : 3;
	else if (!strcmp(argv[1], "shift"))
		rc = run(&sess, TA_BUGS_CMD_BAD_SHIFT,
			 TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE),
			 &a) == TEEC_SUCCESS
			 ? 0
			 : 3;
	TEEC_CloseSession(&sess);
	TEEC_FinalizeContext(&ctx);
	return rc;
}
