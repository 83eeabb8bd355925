/*
 * Client of the random TA. Checks what can be checked of random bytes:
 * two draws differ, and a large draw uses (nearly) every byte value with
 * no value far too frequent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <random_ta.h>

static int generate(TEEC_Session *sess, void *buf, size_t len)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf;
	op.params[0].tmpref.size = len;
	res = TEEC_InvokeCommand(sess, TA_RANDOM_CMD_GENERATE, &op, &origin);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "TA_RANDOM_CMD_GENERATE: 0x%08x (origin %u)\n", res, origin);
		return -1;
	}
	return 0;
}

static int check(TEEC_Session *sess)
{
	static unsigned char big[65536];
	unsigned char a[32] = {0};
	unsigned char b[32] = {0};
	size_t seen[256] = {0};
	size_t distinct = 0;
	size_t most = 0;

	if (generate(sess, a, sizeof(a)) || generate(sess, b, sizeof(b)))
		return -1;
	printf("random: ");
	for (size_t i = 0; i < sizeof(a); i++)
		printf("%02x", a[i]);
	printf("\n");
	if (!memcmp(a, b, sizeof(a))) {
		fprintf(stderr, "two draws of 32 bytes are equal\n");
		return -1;
	}
	if (generate(sess, big, sizeof(big)))
		return -1;
	for (size_t i = 0; i < sizeof(big); i++)
		seen[big[i]]++;
	for (size_t v = 0; v < 256; v++) {
		distinct += seen[v] != 0;
		most = seen[v] > most ? seen[v] : most;
	}
	/* 256 bytes per value expected; 400 is more than 9 standard deviations away. */
	if (distinct != 256 || most > 400) {
		fprintf(stderr, "64 KiB of random bytes: %zu distinct values, one seen %zu times\n",
			distinct, most);
		return -1;
	}
	return 0;
}

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = TA_RANDOM_UUID;
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
	printf("random: %s\n", rc == EXIT_SUCCESS ? "OK" : "FAILED");
	return rc;
}
