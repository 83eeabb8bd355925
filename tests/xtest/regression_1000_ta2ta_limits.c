/*
 * regression 1091: what one TA may ask of the core in sessions on other
 * TAs, asked straight on its control socket past the runtime's checks: at
 * most PROTO_TA2TA_MAX (64) held at once, the rest refused as busy; and a
 * web of 4 x 64 sessions between single-instance TAs does not slow the
 * cycle check of the next open (a walk over every path took minutes).
 */
#include <string.h>
#include <time.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_hostile.h"
#include "xtest_helpers.h"

#define TEE_ERROR_BUSY_CODE 0xFFFF000DU
#define HELD_MAX 64

static const TEEC_UUID hostile_uuid = TA_HOSTILE_UUID;
static const TEEC_UUID shared_uuid[4] = {TA_HOSTILE_SHARED_UUID(1), TA_HOSTILE_SHARED_UUID(2),
					 TA_HOSTILE_SHARED_UUID(3), TA_HOSTILE_SHARED_UUID(4)};

/* The canonical 16 bytes of a hostile build's UUID (n = 0: the keep-alive sims TA). */
static void canonical(uint8_t out[16], uint8_t n)
{
	static const uint8_t base[16] = {0x5a, 0x1f, 0x0b, 0x7e, 0x3c, 0x2d, 0x4e, 0x6f,
					 0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x71, 0x00};

	memcpy(out, base, sizeof(base));
	if (n) {
		out[15] = n;
	} else {
		out[14] = 0x6e;
		out[15] = 0x04;
	}
}

/* s asks for count sessions on TA n; *got and *refusal as the TA says. */
static TEEC_Result raw_open(TEEC_Session *s, uint8_t n, uint32_t count, uint32_t *got,
			    uint32_t *refusal)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint8_t uuid[16];
	uint32_t orig = 0;
	TEEC_Result res = 0;

	canonical(uuid, n);
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = uuid;
	op.params[0].tmpref.size = sizeof(uuid);
	op.params[1].value.a = count;
	res = TEEC_InvokeCommand(s, TA_HOSTILE_CMD_RAW_OPEN_TA, &op, &orig);
	*got = op.params[1].value.a;
	*refusal = op.params[1].value.b;
	return res;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void xtest_tee_test_1091(ADBG_Case_t *c)
{
	TEEC_Session h = {0};
	TEEC_Session shared[4];
	size_t nshared = 0;
	struct timespec t0;
	uint32_t orig = 0;
	uint32_t got = 0;
	uint32_t refusal = 0;
	double took = 0;

	Do_ADBG_BeginSubCase(c, "At most 64 sessions held on other TAs");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&h, &hostile_uuid, NULL, &orig))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, raw_open(&h, 0, HELD_MAX + 6, &got, &refusal))) {
			ADBG_EXPECT(c, HELD_MAX, got);
			ADBG_EXPECT(c, TEE_ERROR_BUSY_CODE, refusal);
		}
		TEEC_CloseSession(&h);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "4 x 64 sessions between TAs: the next open is not slowed");
	for (; nshared < 4; nshared++) {
		uint8_t next = nshared < 3 ? (uint8_t)(nshared + 2) : 0;

		if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&shared[nshared],
									 &shared_uuid[nshared],
									 NULL, &orig)))
			break;
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, raw_open(&shared[nshared], next, HELD_MAX, &got, &refusal)) ||
		    !ADBG_EXPECT(c, HELD_MAX, got)) {
			nshared++;
			break;
		}
	}
	if (nshared == 4 &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&h, &hostile_uuid, NULL, &orig))) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		if (ADBG_EXPECT_TEEC_SUCCESS(c, raw_open(&h, 1, 1, &got, &refusal)))
			ADBG_EXPECT(c, 1, got);
		took = seconds_since(&t0);
		Do_ADBG_Log("an open past 64^4 paths took %.3f s", took);
		ADBG_EXPECT_TRUE(c, took < 5.0);
		TEEC_CloseSession(&h);
	}
	/* The keep-alive TAs let their sessions go, so that nothing is left held. */
	while (nshared) {
		nshared--;
		(void)raw_open(&shared[nshared], 1, 0, &got, &refusal);
		TEEC_CloseSession(&shared[nshared]);
	}
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1091, xtest_tee_test_1091, "TA-to-TA sessions: limit, cycle check");
