/*
 * A client for the supplicant stall test.
 *   stall_client open UUID      opens a session, prints "open <result> <ms>"
 *   stall_client attest UUID    asks the attestation pseudo-TA for that TA
 *                               image's digest, prints "attest <result> <ms>"
 *   stall_client loop N basic|keepalive
 *                               N times: open, invoke, close; prints
 *                               "loop <done> <first error> max <ms>"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pta_attestation.h>
#include <tee_client_api.h>

#include "ta_basic.h"
#include "ta_sims.h"
#include "uuid.h"

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static TEEC_Result once(TEEC_Context *ctx, const TEEC_UUID *uuid, uint32_t cmd)
{
	TEEC_Session s;
	TEEC_Operation op;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_OpenSession(ctx, &s, uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);

	if (res)
		return res;
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(&s, cmd, &op, &orig);
	TEEC_CloseSession(&s);
	return res;
}

/* GET_TA_SHDR_DIGEST of uuid: the core waits on the supplicant for its image. */
static TEEC_Result attest(TEEC_Context *ctx, const TEEC_UUID *uuid)
{
	static const TEEC_UUID pta = PTA_ATTESTATION_UUID;
	static uint8_t out[32 + 512];
	uint8_t nonce[4] = {1, 2, 3, 4};
	TEEC_Session s;
	TEEC_Operation op;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_OpenSession(ctx, &s, &pta, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);

	if (res)
		return res;
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_INPUT,
					 TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)uuid;
	op.params[0].tmpref.size = sizeof(*uuid);
	op.params[1].tmpref.buffer = nonce;
	op.params[1].tmpref.size = sizeof(nonce);
	op.params[2].tmpref.buffer = out;
	op.params[2].tmpref.size = sizeof(out);
	res = TEEC_InvokeCommand(&s, PTA_ATTESTATION_GET_TA_SHDR_DIGEST, &op, &orig);
	TEEC_CloseSession(&s);
	return res;
}

int main(int argc, char **argv)
{
	static const TEEC_UUID basic = TA_BASIC_UUID;
	static const TEEC_UUID keepalive = TA_KEEPALIVE_UUID;
	TEEC_Context ctx;
	TEEC_Result res = 0;
	long long worst = 0;
	int done = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 3 || TEEC_InitializeContext(NULL, &ctx))
		return 2;
	if (!strcmp(argv[1], "open") || !strcmp(argv[1], "attest")) {
		struct swtee_uuid u;
		TEEC_UUID t;
		TEEC_Session s;
		uint32_t orig = 0;
		long long t0 = now_ms();

		if (!uuid_parse(argv[2], &u))
			return 2;
		uuid_to_fields(&u, &t.timeLow, &t.timeMid, &t.timeHiAndVersion, t.clockSeqAndNode);
		if (argv[1][0] == 'a')
			res = attest(&ctx, &t);
		else
			res = TEEC_OpenSession(&ctx, &s, &t, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);
		printf("%s %08x %lld\n", argv[1], res, now_ms() - t0);
		return 0;
	}
	if (argc != 4)
		return 2;
	for (int i = 0; i < atoi(argv[2]) && !res; i++) {
		bool ka = !strcmp(argv[3], "keepalive");
		long long t0 = now_ms();

		res = once(&ctx, ka ? &keepalive : &basic,
			   ka ? TA_SIMS_CMD_COUNTER : TA_BASIC_CMD_NOP);
		if (now_ms() - t0 > worst)
			worst = now_ms() - t0;
		done += !res;
	}
	printf("loop %d %08x max %lld\n", done, res, worst);
	TEEC_FinalizeContext(&ctx);
	return 0;
}
