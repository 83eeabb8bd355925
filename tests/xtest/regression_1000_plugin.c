/*
 * regression 1080-1089: tee-supplicant plugins (tee_invoke_supp_plugin),
 * through the plugin TA (tests/ta/plugin) to the test plugins of
 * tests/plugins. The cases skip unless tee-supplicant loaded those: run them
 * with swtee run --plugin-path BUILD/tests/plugins (ctest
 * xtest.regression_108x). 1089 crashes the supplicant, so it runs only with
 * SWTEE_XTEST_PLUGIN_CRASH=1 (ctest plugins.crash).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_basic.h"
#include "ta_plugin.h"
#include "test_plugin.h"
#include "xtest_helpers.h"

static const TEEC_UUID plugin_ta_uuid = TA_PLUGIN_UUID;
static const TEEC_UUID basic_uuid = TA_BASIC_UUID;

#define PLUGIN_DATA_MAX (64u * 1024)
#define STALL_MS 1500
#define PROMPT_MS 1000

/* One tee_invoke_supp_plugin in the TA; buf NULL passes NULL and 0. */
static TEEC_Result plugin_call(TEEC_Session *s, uint32_t cmd, uint32_t sub_cmd, void *buf,
			       size_t len, uint32_t flags, uint32_t target, uint32_t *outlen)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, buf ? TEEC_MEMREF_TEMP_INOUT : TEEC_NONE,
					 TEEC_VALUE_INOUT, TEEC_NONE);
	op.params[0].value.a = cmd;
	op.params[0].value.b = sub_cmd;
	op.params[1].tmpref.buffer = buf;
	op.params[1].tmpref.size = len;
	op.params[2].value.a = flags;
	op.params[2].value.b = target;
	res = TEEC_InvokeCommand(s, TA_PLUGIN_CMD_INVOKE, &op, &orig);
	*outlen = op.params[2].value.a;
	return res;
}

/* TA_PLUGIN_CMD_BIG over len bytes of the TA's heap. */
static TEEC_Result plugin_big(TEEC_Session *s, uint32_t len, uint32_t *wrong, uint32_t *outlen)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = len;
	res = TEEC_InvokeCommand(s, TA_PLUGIN_CMD_BIG, &op, &orig);
	*wrong = op.params[1].value.a;
	*outlen = op.params[1].value.b;
	return res;
}

/* Opens the plugin TA; false, the case skipped, when the test plugin is not loaded. */
static bool plugin_open(ADBG_Case_t *c, TEEC_Session *s)
{
	uint32_t outlen = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(s, &plugin_ta_uuid, NULL, NULL)))
		return false;
	res = plugin_call(s, TEST_PLUGIN_CMD_PING, 0, NULL, 0, 0, TA_PLUGIN_TARGET_TEST, &outlen);
	if (res == TEEC_ERROR_ITEM_NOT_FOUND) {
		TEEC_CloseSession(s);
		Do_ADBG_Skip(c, "the test plugin is not loaded: swtee run --plugin-path "
				"BUILD/tests/plugins (ctest xtest.regression_108x)");
		return false;
	}
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, res)) {
		TEEC_CloseSession(s);
		return false;
	}
	return true;
}

static bool all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (long)(t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

static void xtest_tee_test_1080(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint8_t buf[300];
	uint32_t outlen = 0;
	uint32_t wrong = 0;
	bool ok = true;

	if (!plugin_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "Data to the plugin and back");
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)i;
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s, TEST_PLUGIN_CMD_ADD, 3, buf, sizeof(buf), 0,
						TA_PLUGIN_TARGET_TEST, &outlen));
	ADBG_EXPECT(c, sizeof(buf), outlen);
	for (size_t i = 0; i < sizeof(buf); i++)
		ok = ok && buf[i] == (uint8_t)(i + 3);
	ADBG_EXPECT_TRUE(c, ok);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The same through the system pseudo-TA's command");
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)i;
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s, TEST_PLUGIN_CMD_ADD, 5, buf, sizeof(buf),
						TA_PLUGIN_ARG_VIA_PTA, TA_PLUGIN_TARGET_TEST,
						&outlen));
	ADBG_EXPECT(c, sizeof(buf), outlen);
	ok = true;
	for (size_t i = 0; i < sizeof(buf); i++)
		ok = ok && buf[i] == (uint8_t)(i + 5);
	ADBG_EXPECT_TRUE(c, ok);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
				plugin_call(&s, TEST_PLUGIN_CMD_ADD, 5, buf, 16,
					    TA_PLUGIN_ARG_VIA_PTA, TA_PLUGIN_TARGET_NONE, &outlen));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "64 KiB from the TA's heap, and none");
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_big(&s, PLUGIN_DATA_MAX, &wrong, &outlen));
	ADBG_EXPECT(c, 0, wrong);
	ADBG_EXPECT(c, PLUGIN_DATA_MAX, outlen);
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_big(&s, 0, &wrong, &outlen));
	ADBG_EXPECT(c, 0, outlen);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The plugin's error comes back, with its data");
	memset(buf, 0, sizeof(buf));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED,
				plugin_call(&s, TEST_PLUGIN_CMD_FAIL, TEEC_ERROR_ACCESS_DENIED, buf,
					    16, 0, TA_PLUGIN_TARGET_TEST, &outlen));
	ADBG_EXPECT(c, 16, outlen);
	ADBG_EXPECT_TRUE(c, all_bytes(buf, 16, TEST_PLUGIN_FAIL_BYTE));
	ADBG_EXPECT_TRUE(c, all_bytes(buf + 16, sizeof(buf) - 16, 0));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				plugin_call(&s, 99, 0, NULL, 0, 0, TA_PLUGIN_TARGET_TEST, &outlen));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1080, xtest_tee_test_1080,
		 "Supplicant plugins: data to a plugin and back");

static void xtest_tee_test_1081(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint8_t buf[32];
	uint32_t outlen = 0;

	if (!plugin_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "Only out_len bytes come back");
	memset(buf, 0, sizeof(buf));
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s, TEST_PLUGIN_CMD_OUTLEN, 5, buf, sizeof(buf), 0,
						TA_PLUGIN_TARGET_TEST, &outlen));
	ADBG_EXPECT(c, 5, outlen);
	ADBG_EXPECT_TRUE(c, all_bytes(buf, 5, TEST_PLUGIN_OUTLEN_BYTE));
	ADBG_EXPECT_TRUE(c, all_bytes(buf + 5, sizeof(buf) - 5, 0));
	memset(buf, 0, sizeof(buf));
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s, TEST_PLUGIN_CMD_OUTLEN, 0, buf, sizeof(buf), 0,
						TA_PLUGIN_TARGET_TEST, &outlen));
	ADBG_EXPECT(c, 0, outlen);
	ADBG_EXPECT_TRUE(c, all_bytes(buf, sizeof(buf), 0));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "An out_len past the buffer is reported as it is");
	memset(buf, 0, sizeof(buf));
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s, TEST_PLUGIN_CMD_OUTLEN, 100, buf, sizeof(buf),
						0, TA_PLUGIN_TARGET_TEST, &outlen));
	ADBG_EXPECT(c, 100, outlen);
	ADBG_EXPECT_TRUE(c, all_bytes(buf, sizeof(buf), TEST_PLUGIN_OUTLEN_BYTE));
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s, TEST_PLUGIN_CMD_OUTLEN, 7, NULL, 0, 0,
						TA_PLUGIN_TARGET_TEST, &outlen));
	ADBG_EXPECT(c, 7, outlen);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "No outlen pointer");
	memset(buf, 1, sizeof(buf));
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s, TEST_PLUGIN_CMD_ADD, 1, buf, sizeof(buf),
						TA_PLUGIN_ARG_NO_OUTLEN, TA_PLUGIN_TARGET_TEST,
						&outlen));
	ADBG_EXPECT(c, TA_PLUGIN_UNTOUCHED, outlen);
	ADBG_EXPECT_TRUE(c, all_bytes(buf, sizeof(buf), 2));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1081, xtest_tee_test_1081, "Supplicant plugins: the out length");

static void xtest_tee_test_1082(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint8_t buf[32];
	uint32_t outlen = 0;

	if (!plugin_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "A UUID no plugin has");
	memset(buf, 7, sizeof(buf));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
				plugin_call(&s, TEST_PLUGIN_CMD_ADD, 1, buf, sizeof(buf), 0,
					    TA_PLUGIN_TARGET_NONE, &outlen));
	ADBG_EXPECT(c, 0, outlen);
	ADBG_EXPECT_TRUE(c, all_bytes(buf, sizeof(buf), 7));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1082, xtest_tee_test_1082, "Supplicant plugins: an unknown UUID");

static void xtest_tee_test_1083(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t outlen = 0;

	if (!plugin_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "The first plugin of a UUID serves it, after its init");
	/* The duplicate would say TEEC_ERROR_ACCESS_CONFLICT, one without init BAD_STATE. */
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s, TEST_PLUGIN_CMD_PING, 0, NULL, 0, 0,
						TA_PLUGIN_TARGET_TEST, &outlen));
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "A plugin whose init failed is not there");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
				plugin_call(&s, TEST_PLUGIN_CMD_PING, 0, NULL, 0, 0,
					    TA_PLUGIN_TARGET_BAD_INIT, &outlen));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1083, xtest_tee_test_1083,
		 "Supplicant plugins: duplicates refused, failed inits skipped");

static void xtest_tee_test_1084(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint8_t buf[16];
	uint32_t outlen = 0;
	uint32_t wrong = 0;

	if (!plugin_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "More than 64 KiB is refused");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_OUT_OF_MEMORY,
				plugin_big(&s, PLUGIN_DATA_MAX + 1, &wrong, &outlen));
	ADBG_EXPECT(c, PLUGIN_DATA_MAX + 1, wrong);
	ADBG_EXPECT(c, 0, outlen);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Bad arguments, outlen left alone");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				plugin_call(&s, TEST_PLUGIN_CMD_PING, 0, buf, sizeof(buf), 0,
					    TA_PLUGIN_TARGET_NULL, &outlen));
	ADBG_EXPECT(c, TA_PLUGIN_UNTOUCHED, outlen);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				plugin_call(&s, TEST_PLUGIN_CMD_PING, 0, buf, sizeof(buf),
					    TA_PLUGIN_ARG_NULL_BUF, TA_PLUGIN_TARGET_TEST,
					    &outlen));
	ADBG_EXPECT(c, TA_PLUGIN_UNTOUCHED, outlen);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				plugin_call(&s, TEST_PLUGIN_CMD_PING, 0, buf, sizeof(buf),
					    TA_PLUGIN_ARG_EMPTY_BUF, TA_PLUGIN_TARGET_TEST,
					    &outlen));
	ADBG_EXPECT(c, TA_PLUGIN_UNTOUCHED, outlen);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The channel still serves");
	ADBG_EXPECT_TEEC_SUCCESS(c, plugin_big(&s, 100, &wrong, &outlen));
	ADBG_EXPECT(c, 0, wrong);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1084, xtest_tee_test_1084,
		 "Supplicant plugins: size limit and bad arguments");

struct stall {
	TEEC_Session *s;
	TEEC_Result res;
	long ms;
	volatile bool done;
};

static void *stall_main(void *arg)
{
	struct stall *st = arg;
	struct timespec t0;
	uint32_t outlen = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	st->res = plugin_call(st->s, TEST_PLUGIN_CMD_SLEEP, STALL_MS, NULL, 0, 0,
			      TA_PLUGIN_TARGET_TEST, &outlen);
	st->ms = ms_since(&t0);
	st->done = true;
	return NULL;
}

static void xtest_tee_test_1085(ADBG_Case_t *c)
{
	TEEC_Session s1 = {0};
	TEEC_Session s2 = {0};
	TEEC_Session b = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	struct stall st = {.s = &s1, .res = TEEC_ERROR_GENERIC};
	struct timespec t0;
	struct timespec pause = {.tv_nsec = 200 * 1000 * 1000};
	pthread_t t;
	uint32_t outlen = 0;
	uint32_t orig = 0;

	if (!plugin_open(c, &s1))
		return;
	if (pthread_create(&t, NULL, stall_main, &st)) {
		ADBG_EXPECT_TRUE(c, false);
		TEEC_CloseSession(&s1);
		return;
	}
	nanosleep(&pause, NULL);
	Do_ADBG_BeginSubCase(c, "Other instances load and call plugins meanwhile");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     xtest_teec_open_session(&s2, &plugin_ta_uuid, NULL, &orig))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, plugin_call(&s2, TEST_PLUGIN_CMD_ADD, 1, NULL, 0, 0,
							TA_PLUGIN_TARGET_TEST, &outlen));
		TEEC_CloseSession(&s2);
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&b, &basic_uuid, NULL, &orig))) {
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&b, TA_BASIC_CMD_NOP, &op, &orig));
		TEEC_CloseSession(&b);
	}
	ADBG_EXPECT_COMPARE_SIGNED(c, ms_since(&t0), <, PROMPT_MS);
	ADBG_EXPECT_BOOLEAN(c, false, st.done);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The stalled call returns when the plugin does");
	pthread_join(t, NULL);
	ADBG_EXPECT_TEEC_SUCCESS(c, st.res);
	ADBG_EXPECT_COMPARE_SIGNED(c, st.ms, >=, STALL_MS);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s1);
}
ADBG_CASE_DEFINE(regression, 1085, xtest_tee_test_1085,
		 "Supplicant plugins: a stalled plugin holds only its caller");

static void xtest_tee_test_1089(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Session s2 = {0};
	TEEC_Session b = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint8_t buf[8] = {0};
	uint32_t outlen = 0;
	uint32_t orig = 0;
	const char *crash = getenv("SWTEE_XTEST_PLUGIN_CRASH");

	if (!crash || strcmp(crash, "1")) {
		Do_ADBG_Skip(c, "crashes tee-supplicant for the rest of the run: set "
				"SWTEE_XTEST_PLUGIN_CRASH=1 (ctest plugins.crash)");
		return;
	}
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&b, &basic_uuid, NULL, &orig)))
		return;
	if (!plugin_open(c, &s)) {
		TEEC_CloseSession(&b);
		return;
	}
	Do_ADBG_BeginSubCase(c, "The call that crashes the supplicant fails");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_COMMUNICATION,
				plugin_call(&s, TEST_PLUGIN_CMD_CRASH, 0, buf, sizeof(buf), 0,
					    TA_PLUGIN_TARGET_TEST, &outlen));
	ADBG_EXPECT(c, 0, outlen);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The TEE serves on without a supplicant");
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&b, TA_BASIC_CMD_NOP, &op, &orig));
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_COMMUNICATION,
	    plugin_call(&s, TEST_PLUGIN_CMD_PING, 0, NULL, 0, 0, TA_PLUGIN_TARGET_TEST, &outlen));
	/* Nobody loads a TA any more: swtee run does not start the supplicant again. */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_COMMUNICATION,
				xtest_teec_open_session(&s2, &plugin_ta_uuid, NULL, &orig));
	ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&b, TA_BASIC_CMD_NOP, &op, &orig));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
	TEEC_CloseSession(&b);
}
ADBG_CASE_DEFINE(regression, 1089, xtest_tee_test_1089,
		 "Supplicant plugins: a plugin that crashes the supplicant");
