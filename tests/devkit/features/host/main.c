/*
 * devkit_features: checks that each of the kit's flags reached the sources
 * it was meant for, and no other; prints the TA's TRACE_LEVEL.
 */
#include <stdio.h>
#include <stdlib.h>

#include <featlib.h>
#include <tee_client_api.h>

#include <features_ta.h>

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_Operation op = {0};
	TEEC_UUID uuid = TA_FEATURES_UUID;
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	if (TEEC_InitializeContext(NULL, &ctx))
		return 2;
	if (TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin))
		return 2;
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(&sess, TA_FEATURES_CMD_REPORT, &op, &origin);
	TEEC_CloseSession(&sess);
	TEEC_FinalizeContext(&ctx);
	if (res) {
		fprintf(stderr, "REPORT: 0x%08x (origin %u)\n", res, origin);
		return 1;
	}
	printf("top 0x%02x (want 0x%02x), sub 0x%02x (want 0x%02x), lib 0x%08x, TRACE_LEVEL %u\n",
	       op.params[0].value.a, TOP_ALL, op.params[0].value.b, SUB_ALL, op.params[1].value.a,
	       op.params[1].value.b);
	return op.params[0].value.a == TOP_ALL && op.params[0].value.b == SUB_ALL &&
		       op.params[1].value.a == FEATLIB_MAGIC
		   ? 0
		   : 1;
}
