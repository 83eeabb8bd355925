/*
 * regression 1011: one TA as the client of another (GP Internal Client API):
 * values, memrefs passed on from the client, a callee that dies, a
 * cancellation timeout, and cycles refused instead of hanging.
 */
#include <string.h>
#include <time.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_basic.h"
#include "ta_sims.h"
#include "xtest_helpers.h"

static const TEEC_UUID basic_uuid = TA_BASIC_UUID;
static const TEEC_UUID sims_uuid = TA_SIMS_UUID;
static const TEEC_UUID keepalive_uuid = TA_KEEPALIVE_UUID;

#define TEE_ERROR_BUSY_CODE 0xFFFF000DU

static void xtest_tee_test_1011(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Session s2 = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint8_t in[300];
	uint8_t out[300];
	uint32_t orig = 0;
	struct timespec t0;
	struct timespec t1;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "Values through a second TA");
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 1000;
	op.params[0].value.b = 337;
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     TEEC_InvokeCommand(&s, TA_BASIC_CMD_TA2TA_ADD, &op, &orig))) {
		ADBG_EXPECT(c, 1337, op.params[1].value.a);
		ADBG_EXPECT(c, TEEC_ORIGIN_TRUSTED_APP, op.params[1].value.b);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Client memrefs passed on to a second TA");
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i ^ 0x5c);
	memset(out, 0, sizeof(out));
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT,
					 TEEC_VALUE_OUTPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = in;
	op.params[0].tmpref.size = sizeof(in);
	op.params[1].tmpref.buffer = out;
	op.params[1].tmpref.size = sizeof(out);
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     TEEC_InvokeCommand(&s, TA_BASIC_CMD_TA2TA_PASS, &op, &orig))) {
		ADBG_EXPECT(c, 0, op.params[2].value.a);
		ADBG_EXPECT(c, sizeof(in), op.params[1].tmpref.size);
		ADBG_EXPECT(c, in[0], out[sizeof(out) - 1]);
		ADBG_EXPECT(c, in[sizeof(in) - 1], out[0]);
	}
	op.params[1].tmpref.size = 10;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				TEEC_InvokeCommand(&s, TA_BASIC_CMD_TA2TA_PASS, &op, &orig));
	ADBG_EXPECT(c, sizeof(in), op.params[1].tmpref.size);
	Do_ADBG_EndSubCase(c, NULL);

	/*
	 * Empty but not NULL, as the first memrefs of a new session: the
	 * caller has no shared memory for its callee yet, and must still pass
	 * them on as empty buffers.
	 */
	Do_ADBG_BeginSubCase(c, "Empty client memrefs passed on to a second TA");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &basic_uuid, NULL, &orig))) {
		op.params[0].tmpref.size = 0;
		op.params[1].tmpref.size = 0;
		op.params[2].value.a = 1;
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s2, TA_BASIC_CMD_TA2TA_PASS, &op, &orig))) {
			ADBG_EXPECT(c, TEEC_SUCCESS, op.params[2].value.a);
			ADBG_EXPECT(c, 0, op.params[1].tmpref.size);
		}
		TEEC_CloseSession(&s2);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A callee that panics is a dead target to its caller only");
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_TA2TA_PANIC, &op, &orig))) {
		ADBG_EXPECT(c, TEEC_ERROR_TARGET_DEAD, op.params[1].value.a);
		ADBG_EXPECT(c, TEEC_ORIGIN_TEE, op.params[1].value.b);
	}
	ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, NULL, &orig));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A cancellation timeout reaches the callee");
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 20000;
	op.params[0].value.b = 100;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_TA2TA_TIMEOUT, &op, &orig))) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ADBG_EXPECT(c, TEEC_ERROR_CANCEL, op.params[1].value.a);
		ADBG_EXPECT_COMPARE_SIGNED(c, (long)(t1.tv_sec - t0.tv_sec), <, 10);
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);

	Do_ADBG_BeginSubCase(c, "A single-instance TA calling itself gets an error, not a hang");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &sims_uuid, NULL, &orig))) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_OUTPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].tmpref.buffer = (void *)&sims_uuid;
		op.params[0].tmpref.size = sizeof(sims_uuid);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_SIMS_CMD_OPEN_TO, &op, &orig)))
			ADBG_EXPECT(c, TEE_ERROR_BUSY_CODE, op.params[1].value.a);
		Do_ADBG_EndSubCase(c, NULL);

		Do_ADBG_BeginSubCase(c, "A cycle A -> B -> A gets an error, not a hang");
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_OUTPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].tmpref.buffer = (void *)&keepalive_uuid;
		op.params[0].tmpref.size = sizeof(keepalive_uuid);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_SIMS_CMD_CALL_BACK, &op, &orig))) {
			ADBG_EXPECT(c, 0, op.params[1].value.b);
			ADBG_EXPECT(c, TEE_ERROR_BUSY_CODE, op.params[1].value.a);
		}
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 TEEC_InvokeCommand(&s, TA_SIMS_CMD_COUNTER, &op, &orig));
		TEEC_CloseSession(&s);
	}
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1011, xtest_tee_test_1011, "Test TA-to-TA features");
