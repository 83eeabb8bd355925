/*
 * regression 1060: the system pseudo-TA (OP-TEE's UUID and command ids),
 * reached by TAs. A TA-unique key is the same for the same TA and extra
 * data, differs with either, keeps to OP-TEE's size bounds and never lands
 * in a client's memory; a client application is refused the pseudo-TA, and
 * a TA that forges the core request behind it ends.
 */
#include <string.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "test_pta_system.h"
#include "ta_basic.h"
#include "ta_hostile.h"
#include "xtest_helpers.h"

#define KEY_MAX 32
#define EXTRA_MAX 1024

static const TEEC_UUID basic_uuid = TA_BASIC_UUID;
static const TEEC_UUID hostile_uuid = TA_HOSTILE_UUID;
static const TEEC_UUID system_pta_uuid = {
    0x3a2f8978, 0x5dc0, 0x11e8, {0x9c, 0x2d, 0xfa, 0x7a, 0xe0, 0x1b, 0xbe, 0xbc}};

/* One call of the TA's system pseudo-TA command; extra may be NULL. */
static TEEC_Result pta_call(TEEC_Session *s, uint32_t cmd, uint32_t mode, const void *extra,
			    size_t extra_len, void *key, size_t key_len)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT,
					 TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)extra;
	op.params[0].tmpref.size = extra_len;
	op.params[1].tmpref.buffer = key;
	op.params[1].tmpref.size = key_len;
	op.params[2].value.a = mode;
	return TEEC_InvokeCommand(s, cmd, &op, &orig);
}

static TEEC_Result derive(TEEC_Session *s, const void *extra, size_t extra_len, void *key,
			  size_t key_len)
{
	return pta_call(s, TA_BASIC_CMD_PTA_SYSTEM, PTA_SYSTEM_CLIENT_KEY, extra, extra_len, key,
			key_len);
}

static void test_same_inputs(ADBG_Case_t *c, TEEC_Session *s)
{
	static const char extra[] = "swtee extra data";
	uint8_t k1[KEY_MAX] = {0};
	uint8_t k2[KEY_MAX] = {0};
	uint8_t k3[KEY_MAX] = {0};
	uint8_t zero[KEY_MAX] = {0};
	TEEC_Session s2 = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, NULL, 0, k1, sizeof(k1))))
		return;
	ADBG_EXPECT_TRUE(c, memcmp(k1, zero, sizeof(k1)) != 0);
	/* Another session (the instance is the same TA's): the same key. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &basic_uuid, NULL, &orig))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, derive(&s2, NULL, 0, k2, sizeof(k2))))
			ADBG_EXPECT_BUFFER(c, k1, sizeof(k1), k2, sizeof(k2));
		TEEC_CloseSession(&s2);
	}
	/* Extra data gives another key, the same each time. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, extra, sizeof(extra), k2, sizeof(k2))) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, extra, sizeof(extra), k3, sizeof(k3)))) {
		ADBG_EXPECT_BUFFER(c, k2, sizeof(k2), k3, sizeof(k3));
		ADBG_EXPECT_TRUE(c, memcmp(k1, k2, sizeof(k1)) != 0);
	}
	/* One byte more of extra data: another key again. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, extra, sizeof(extra) - 1, k3, sizeof(k3))))
		ADBG_EXPECT_TRUE(c, memcmp(k2, k3, sizeof(k2)) != 0);
}

static void test_bounds(ADBG_Case_t *c, TEEC_Session *s)
{
	static uint8_t extra[EXTRA_MAX + 1];
	uint8_t key[KEY_MAX + 1] = {0};
	size_t len = 0;

	for (len = 16; len <= KEY_MAX; len += 8)
		if (!ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, NULL, 0, key, len)))
			Do_ADBG_Log("  key of %zu bytes", len);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, derive(s, NULL, 0, key, 15));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, derive(s, NULL, 0, key, KEY_MAX + 1));
	ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, extra, EXTRA_MAX, key, 16));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				derive(s, extra, EXTRA_MAX + 1, key, 16));
}

/* Straight into the client's memory: refused, and the key is not there. */
static void test_not_into_client_memory(ADBG_Case_t *c, TEEC_Session *s)
{
	uint8_t got[KEY_MAX];
	uint8_t key[KEY_MAX] = {0};

	memset(got, 0xa5, sizeof(got));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SECURITY,
				pta_call(s, TA_BASIC_CMD_PTA_SYSTEM, PTA_SYSTEM_CLIENT_KEY_SHARED,
					 NULL, 0, got, sizeof(got)));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, NULL, 0, key, sizeof(key))))
		ADBG_EXPECT_TRUE(c, memcmp(got, key, sizeof(key)) != 0);
}

/* The key is the calling TA's: another TA with the same extra data gets another. */
static void test_bound_to_ta(ADBG_Case_t *c, TEEC_Session *s)
{
	static const char extra[] = "same extra data";
	uint8_t mine[KEY_MAX] = {0};
	uint8_t theirs[KEY_MAX] = {0};
	TEEC_Session h = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, extra, sizeof(extra), mine, sizeof(mine))) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&h, &hostile_uuid, NULL, &orig)))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     pta_call(&h, TA_HOSTILE_CMD_PTA_SYSTEM, PTA_SYSTEM_CLIENT_KEY,
					      extra, sizeof(extra), theirs, sizeof(theirs))))
		ADBG_EXPECT_TRUE(c, memcmp(mine, theirs, sizeof(mine)) != 0);
	TEEC_CloseSession(&h);
}

static void test_entropy(ADBG_Case_t *c, TEEC_Session *s)
{
	static const char seed[] = "some bytes from the normal world";
	uint8_t none[1] = {0};

	ADBG_EXPECT_TEEC_SUCCESS(c, pta_call(s, TA_BASIC_CMD_PTA_SYSTEM, PTA_SYSTEM_CLIENT_ENTROPY,
					     seed, sizeof(seed), none, 0));
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_BAD_PARAMETERS,
	    pta_call(s, TA_BASIC_CMD_PTA_SYSTEM, PTA_SYSTEM_CLIENT_ENTROPY, seed, 0, none, 0));
}

/* A client application is not a TA: the pseudo-TA refuses it, as on OP-TEE. */
static void test_client_refused(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t orig = 0;
	TEEC_Result res = xtest_teec_open_session(&s, &system_pta_uuid, NULL, &orig);

	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED, res);
	ADBG_EXPECT(c, TEEC_ORIGIN_TRUSTED_APP, orig);
	if (res == TEEC_SUCCESS)
		TEEC_CloseSession(&s);
}

/* A forged request for a key longer than any ends that instance only. */
static void test_forged_request(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Session h = {0};
	uint32_t orig = 0;
	uint8_t key[16] = {0};

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&h, &hostile_uuid, NULL, &orig)))
		return;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD,
				TEEC_InvokeCommand(&h, TA_HOSTILE_CMD_FORGE_DERIVE, NULL, &orig));
	TEEC_CloseSession(&h);
	ADBG_EXPECT_TEEC_SUCCESS(c, derive(s, NULL, 0, key, sizeof(key)));
}

static void xtest_tee_test_1060(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "TA-unique key: the same inputs give the same key");
	test_same_inputs(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "TA-unique key: key and extra data sizes");
	test_bounds(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "TA-unique key: never into a client's memory");
	test_not_into_client_memory(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "TA-unique key: another TA, another key");
	test_bound_to_ta(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "RNG entropy from a TA");
	test_entropy(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "A client application is refused the system pseudo-TA");
	test_client_refused(c);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "A forged key request ends the TA that sent it");
	test_forged_request(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1060, xtest_tee_test_1060, "System pseudo-TA");
