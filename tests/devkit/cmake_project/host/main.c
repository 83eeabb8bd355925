/* counter_client: three calls count 1, 2, 3; the TA was built at level 2. */
#include <stdio.h>

#include <tee_client_api.h>

#include <counter_ta.h>

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = COUNTER_TA_UUID;
	uint32_t origin = 0;
	int rc = 0;

	if (TEEC_InitializeContext(NULL, &ctx) ||
	    TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin)) {
		fprintf(stderr, "cannot reach the TA (origin %u)\n", origin);
		return 2;
	}
	for (uint32_t want = 1; want <= 3; want++) {
		TEEC_Operation op = {0};

		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		if (TEEC_InvokeCommand(&sess, COUNTER_CMD_NEXT, &op, &origin) ||
		    op.params[0].value.a != want || op.params[0].value.b != 2) {
			fprintf(stderr, "call %u: got %u (level %u)\n", want, op.params[0].value.a,
				op.params[0].value.b);
			rc = 1;
		}
	}
	TEEC_CloseSession(&sess);
	TEEC_FinalizeContext(&ctx);
	printf("counter: %s\n", rc ? "FAILED" : "OK");
	return rc;
}
