/*
 * Client of the hotp TA: registers the RFC 4226 test secret and checks the
 * ten HOTP values of its appendix D, in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <hotp_ta.h>

static const char secret[] = "12345678901234567890";
static const uint32_t expected[10] = {755224, 287082, 359152, 969429, 338314,
				      254676, 287922, 162583, 399871, 520489};

static int check(TEEC_Session *sess)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)secret;
	op.params[0].tmpref.size = strlen(secret);
	res = TEEC_InvokeCommand(sess, TA_HOTP_CMD_REGISTER_SHARED_KEY, &op, &origin);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "REGISTER_SHARED_KEY: 0x%08x (origin %u)\n", res, origin);
		return -1;
	}
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
		memset(&op, 0, sizeof(op));
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		res = TEEC_InvokeCommand(sess, TA_HOTP_CMD_GET_HOTP, &op, &origin);
		if (res != TEEC_SUCCESS) {
			fprintf(stderr, "GET_HOTP: 0x%08x (origin %u)\n", res, origin);
			return -1;
		}
		printf("HOTP(%zu) = %06u\n", i, op.params[0].value.a);
		if (op.params[0].value.a != expected[i]) {
			fprintf(stderr, "RFC 4226 expects %06u\n", expected[i]);
			return -1;
		}
	}
	return 0;
}

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = TA_HOTP_UUID;
	uint32_t origin = 0;
	int rc = EXIT_FAILURE;

	if (TEEC_InitializeContext(NULL, &ctx) != TEEC_SUCCESS)
		return EXIT_FAILURE;
	if (TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin) !=
	    TEEC_SUCCESS) {
		fprintf(stderr, "TEEC_OpenSession failed (origin %u)\n", origin);
		goto out;
	}
	if (!check(&sess))
		rc = EXIT_SUCCESS;
	TEEC_CloseSession(&sess);
out:
	TEEC_FinalizeContext(&ctx);
	printf("hotp: %s\n", rc == EXIT_SUCCESS ? "OK" : "FAILED");
	return rc;
}
