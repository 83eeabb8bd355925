/*
 * regression 1061: the invoke-tests pseudo-TA (OP-TEE's UUID and command
 * ids), which a client application opens directly. Its parameter commands
 * give the answers their inputs call for and refuse other parameter types,
 * its self-tests run, and every command of OP-TEE's that swtee has no
 * analogue for is TEEC_ERROR_NOT_SUPPORTED from the TA, not a success.
 */
#include <string.h>
#include <time.h>

#include <pta_invoke_tests.h>
#include <pta_stats.h>
#include <tee_client_api.h>

#include "adbg.h"
#include "ta_basic.h"
#include "ta_hostile.h"
#include "ta_sims.h"
#include "xtest_helpers.h"

static const TEEC_UUID invoke_uuid = PTA_INVOKE_TESTS_UUID;

static TEEC_Result call(TEEC_Session *s, uint32_t cmd, TEEC_Operation *op, uint32_t *orig)
{
	*orig = 0;
	return TEEC_InvokeCommand(s, cmd, op, orig);
}

static void test_params(ADBG_Case_t *c, TEEC_Session *s)
{
	static uint8_t buf[16 * 1024];
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	uint8_t sum = 0;

	for (size_t n = 0; n < sizeof(buf); n++) {
		buf[n] = (uint8_t)(n * 7 + 3);
		sum = (uint8_t)(sum + buf[n]);
	}
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INOUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf;
	op.params[0].tmpref.size = sizeof(buf);
	op.params[1].value.a = 40;
	op.params[1].value.b = 2;
	ADBG_EXPECT_TEEC_SUCCESS(c, call(s, PTA_INVOKE_TESTS_CMD_PARAMS, &op, &orig));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, buf[0], ==, sum);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].value.a, ==, 42);

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT,
					 TEEC_VALUE_INPUT);
	op.params[0].value.a = 1;
	op.params[0].value.b = 10;
	op.params[1].value.a = 2;
	op.params[1].value.b = 20;
	op.params[3].value.a = 4;
	op.params[3].value.b = 40;
	ADBG_EXPECT_TEEC_SUCCESS(c, call(s, PTA_INVOKE_TESTS_CMD_PARAMS, &op, &orig));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[2].value.a, ==, 7);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[2].value.b, ==, 70);

	/* An input memref, or nothing at all, is no case of the command. */
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf;
	op.params[0].tmpref.size = 16;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				call(s, PTA_INVOKE_TESTS_CMD_PARAMS, &op, &orig));
	ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TRUSTED_APP, orig);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				call(s, PTA_INVOKE_TESTS_CMD_PARAMS, NULL, &orig));
}

static void test_memref_null(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	uint8_t one = 1;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	ADBG_EXPECT_TEEC_SUCCESS(c, call(s, PTA_INVOKE_TESTS_CMD_MEMREF_NULL, &op, &orig));
	op.params[0].tmpref.buffer = &one;
	op.params[0].tmpref.size = 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				call(s, PTA_INVOKE_TESTS_CMD_MEMREF_NULL, &op, &orig));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = NULL;
	op.params[0].tmpref.size = 0;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				call(s, PTA_INVOKE_TESTS_CMD_MEMREF_NULL, &op, &orig));
}

static void test_self_tests(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	ADBG_EXPECT_TEEC_SUCCESS(c, call(s, PTA_INVOKE_TESTS_CMD_SELF_TESTS, NULL, &orig));
	ADBG_EXPECT_TEEC_SUCCESS(c, call(s, PTA_INVOKE_TESTS_CMD_TRACE, NULL, &orig));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				call(s, PTA_INVOKE_TESTS_CMD_SELF_TESTS, &op, &orig));
}

static void test_not_supported(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint32_t cmds[] = {
	    PTA_INVOKE_TESTS_CMD_COPY_NSEC_TO_SEC,
	    PTA_INVOKE_TESTS_CMD_FS_HTREE,
	    PTA_INVOKE_TESTS_CMD_MUTEX,
	    PTA_INVOKE_TESTS_CMD_LOCKDEP,
	    PTA_INVOKE_TEST_CMD_AES_PERF,
	    PTA_INVOKE_TESTS_CMD_DT_DRIVER_TESTS,
	    PTA_INVOKE_TESTS_CMD_TRANSFER_LIST_TESTS,
	    0x7fff,
	};
	uint32_t orig = 0;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED, call(s, cmds[i], NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TRUSTED_APP, orig);
	}
}

/* Two sessions at once, each in an instance of its own, both served. */
static void test_two_sessions(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Session s2 = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &invoke_uuid, NULL, &orig)))
		return;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 5;
	op.params[0].value.b = 6;
	ADBG_EXPECT_TEEC_SUCCESS(c, call(&s2, PTA_INVOKE_TESTS_CMD_PARAMS, &op, &orig));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[0].value.a, ==, 11);
	TEEC_CloseSession(&s2);
	ADBG_EXPECT_TEEC_SUCCESS(c, call(s, PTA_INVOKE_TESTS_CMD_TRACE, NULL, &orig));
}

/* A TA opens the pseudo-TA with TEE_OpenTASession, as a client does. */
static void test_from_ta(ADBG_Case_t *c)
{
	static const TEEC_UUID sims_uuid = TA_SIMS_UUID;
	TEEC_UUID target = invoke_uuid;
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Session t = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&t, &sims_uuid, NULL, &orig)))
		return;
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = &target;
	op.params[0].tmpref.size = sizeof(target);
	op.params[1].value.a = TEEC_ERROR_GENERIC;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, call(&t, TA_SIMS_CMD_OPEN_TO, &op, &orig)))
		ADBG_EXPECT_TEEC_SUCCESS(c, op.params[1].value.a);
	TEEC_CloseSession(&t);
}

static void xtest_tee_test_1061(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &invoke_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "PARAMS: values and a 16 KiB memref");
	test_params(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "MEMREF_NULL: a NULL memref arrives as NULL");
	test_memref_null(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "SELF_TESTS: the runtime's self-tests pass");
	test_self_tests(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Commands without an analogue are not supported");
	test_not_supported(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "A second session of its own");
	test_two_sessions(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "A TA opens it too");
	test_from_ta(c);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1061, xtest_tee_test_1061, "Invoke-tests pseudo-TA");

/*
 * regression 1062: the stats pseudo-TA. TA_STATS lists the TAs the caller's
 * user runs with their session counts (a short buffer gets the size
 * needed), GET_TIME gives the REE and TEE times, and OP-TEE's core figures
 * swtee lacks are not supported.
 */
static const TEEC_UUID stats_uuid = STATS_UUID;
static const TEEC_UUID basic_uuid = TA_BASIC_UUID;

/* Does the list of n entries hold the basic TA with one session? */
static bool lists_basic(const struct pta_stats_ta *st, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!memcmp(&st[i].uuid, &basic_uuid, sizeof(basic_uuid)) && st[i].sess_num == 1 &&
		    !st[i].panicked)
			return true;
	return false;
}

static void test_ta_stats(ADBG_Case_t *c, TEEC_Session *s)
{
	struct pta_stats_ta st[8];
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Session b = {0};
	uint32_t orig = 0;
	size_t need = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&b, &basic_uuid, NULL, &orig)))
		return;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				call(s, STATS_CMD_TA_STATS, &op, &orig));
	need = op.params[0].tmpref.size;
	ADBG_EXPECT_COMPARE_UNSIGNED(c, need % sizeof(st[0]), ==, 0);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, need, >=, sizeof(st[0]));
	op.params[0].tmpref.buffer = st;
	op.params[0].tmpref.size = sizeof(st);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, call(s, STATS_CMD_TA_STATS, &op, &orig)))
		ADBG_EXPECT_TRUE(c, lists_basic(st, op.params[0].tmpref.size / sizeof(st[0])));
	TEEC_CloseSession(&b);
}

static void test_stats_time(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	uint32_t now = (uint32_t)time(NULL);

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, call(s, STATS_CMD_GET_TIME, &op, &orig)))
		return;
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[0].value.a + 5, >=, now);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[0].value.a, <=, now + 5);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[0].value.b, <, 1000);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].value.b, <, 1000);
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				call(s, STATS_CMD_GET_TIME, &op, &orig));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				call(s, STATS_CMD_TA_STATS, NULL, &orig));
}

static void test_stats_not_supported(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint32_t cmds[] = {STATS_CMD_PAGER_STATS, STATS_CMD_ALLOC_STATS,
					STATS_CMD_MEMLEAK_STATS, STATS_CMD_PRINT_DRIVER_INFO};
	uint32_t orig = 0;

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED, call(s, cmds[i], NULL, &orig));
}

/* Another TA that sends the stats request ends; the pseudo-TA carries on. */
static void test_stats_forged(ADBG_Case_t *c, TEEC_Session *s)
{
	static const TEEC_UUID hostile_uuid = TA_HOSTILE_UUID;
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Session h = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&h, &hostile_uuid, NULL, &orig)))
		return;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD,
				call(&h, TA_HOSTILE_CMD_FORGE_STATS, NULL, &orig));
	TEEC_CloseSession(&h);
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	ADBG_EXPECT_TEEC_SUCCESS(c, call(s, STATS_CMD_GET_TIME, &op, &orig));
}

static void xtest_tee_test_1062(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &stats_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "TA_STATS: the TAs running, with their sessions");
	test_ta_stats(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "GET_TIME: REE and TEE time");
	test_stats_time(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "OP-TEE's core figures are not supported");
	test_stats_not_supported(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "A stats request from another TA ends that TA");
	test_stats_forged(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1062, xtest_tee_test_1062, "Stats pseudo-TA");
