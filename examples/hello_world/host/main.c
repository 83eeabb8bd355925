/*
 * Client of the hello_world TA: sends 42, expects 43 back, then 42 again.
 * Exits non-zero when the TEE or the TA does not do what it should.
 */
#include <stdio.h>
#include <stdlib.h>

#include <tee_client_api.h>

#include <hello_world_ta.h>

static int check(TEEC_Result res, uint32_t origin, const char *what)
{
	if (res == TEEC_SUCCESS)
		return 0;
	fprintf(stderr, "%s failed: 0x%08x (origin %u)\n", what, res, origin);
	return -1;
}

static int invoke(TEEC_Session *sess, uint32_t cmd, uint32_t in, uint32_t want)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = in;
	if (check(TEEC_InvokeCommand(sess, cmd, &op, &origin), origin, "TEEC_InvokeCommand"))
		return -1;
	printf("TA turned %u into %u\n", in, op.params[0].value.a);
	if (op.params[0].value.a != want) {
		fprintf(stderr, "expected %u\n", want);
		return -1;
	}
	return 0;
}

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = TA_HELLO_WORLD_UUID;
	uint32_t origin = 0;
	int rc = EXIT_FAILURE;

	if (check(TEEC_InitializeContext(NULL, &ctx), 0, "TEEC_InitializeContext"))
		return EXIT_FAILURE;
	if (check(TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin),
		  origin, "TEEC_OpenSession"))
		goto out_ctx;
	if (!invoke(&sess, TA_HELLO_WORLD_CMD_INC_VALUE, 42, 43) &&
	    !invoke(&sess, TA_HELLO_WORLD_CMD_DEC_VALUE, 43, 42))
		rc = EXIT_SUCCESS;
	TEEC_CloseSession(&sess);
out_ctx:
	TEEC_FinalizeContext(&ctx);
	printf("hello_world: %s\n", rc == EXIT_SUCCESS ? "OK" : "FAILED");
	return rc;
}
