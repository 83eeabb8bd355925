/*
 * regression 1070: TA shared libraries. The shlib TA links a TA library
 * ("top") that links another ("base"), each named by UUID and verified by
 * the core as TA images are. The case checks that the calls reach them,
 * that their constructors ran first, what dlopen() finds once the sandbox
 * is on, and that a damaged or misplaced library keeps the TA from loading.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_shlib.h"
#include "xtest_helpers.h"

#define BASIC_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01"
#define SHLIB_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e10"
#define UNKNOWN_LIB "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6fff"

static const TEEC_UUID shlib_uuid = TA_SHLIB_UUID;
static const TEEC_UUID top_uuid = {
    0x5a1f0b7e, 0x3c2d, 0x4e6f, {0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6f, 0x01}};

static void test_calls(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 6;
	op.params[0].value.b = 7;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, TA_SHLIB_CMD_CALL, &op, &orig)))
		ADBG_EXPECT(c, 6 + 6 * 7, op.params[1].value.a);
}

/* Each library's constructor before those of what needs it. */
static void test_init_order(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     TEEC_InvokeCommand(s, TA_SHLIB_CMD_INIT_ORDER, &op, &orig))) {
		ADBG_EXPECT(c, 3, op.params[0].value.a);
		ADBG_EXPECT(c, SHLIB_ID_BASE | SHLIB_ID_TOP << 4 | SHLIB_ID_TA << 8,
			    op.params[0].value.b);
	}
}

/* dlopen(name) in the TA (NULL for an empty name); returns whether it gave a handle. */
static bool try_dlopen(ADBG_Case_t *c, TEEC_Session *s, const char *name, uint32_t *value,
		       char *err, size_t errlen)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	memset(err, 0, errlen);
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_OUTPUT,
					 TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)name;
	op.params[0].tmpref.size = strlen(name);
	op.params[2].tmpref.buffer = err;
	op.params[2].tmpref.size = errlen - 1;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, TA_SHLIB_CMD_DLOPEN, &op, &orig)))
		return false;
	*value = op.params[1].value.b;
	return op.params[1].value.a != 0;
}

static void test_dlopen(ADBG_Case_t *c, TEEC_Session *s)
{
	char err[256];
	uint32_t v = 0;

	/* The TA itself, and through it what it links. */
	if (ADBG_EXPECT_TRUE(c, try_dlopen(c, s, "", &v, err, sizeof(err))))
		ADBG_EXPECT(c, 3 + 3 * 4, v);
	/* A library it links, by UUID. */
	if (ADBG_EXPECT_TRUE(c, try_dlopen(c, s, TA_SHLIB_TOP_NAME, &v, err, sizeof(err))))
		ADBG_EXPECT(c, 3 + 3 * 4, v);
	/* Any other name: no handle, a reason, and the instance carries on. */
	ADBG_EXPECT_TRUE(c, !try_dlopen(c, s, UNKNOWN_LIB, &v, err, sizeof(err)));
	ADBG_EXPECT_TRUE(c, strstr(err, "no such TA library") != NULL);
	ADBG_EXPECT_TRUE(c, !try_dlopen(c, s, "/etc/passwd", &v, err, sizeof(err)));
	ADBG_EXPECT_TRUE(c, strstr(err, "by UUID only") != NULL);
	ADBG_EXPECT_TRUE(c, !try_dlopen(c, s, "libc.so.6", &v, err, sizeof(err)));
	test_calls(c, s);
}

/* The TA and its two libraries, as the dynamic loader lists them. */
static void test_phdr(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, TA_SHLIB_CMD_PHDR, &op, &orig)))
		ADBG_EXPECT(c, 3, op.params[0].value.a);
}

/*
 * As OP-TEE's: every module is visited though the callback returns nonzero,
 * and the call returns the last visit's value (OP-TEE's xtest 1030).
 */
static void test_phdr_all(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, TA_SHLIB_CMD_PHDR_ALL, &op, &orig))) {
		ADBG_EXPECT(c, 3, op.params[0].value.a);
		ADBG_EXPECT(c, 123, op.params[0].value.b);
	}
}

static TEEC_Result dl_call(TEEC_Session *s, uint32_t a, uint32_t *result, uint32_t *ids)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = a;
	res = TEEC_InvokeCommand(s, TA_SHLIB_CMD_DL_CALL, &op, &orig);
	*result = op.params[1].value.a;
	*ids = op.params[1].value.b;
	return res;
}

/*
 * A library the TA does not link, loaded with dlopen() once the TA runs:
 * verified by the core, its constructor run then (after the others), its
 * symbols and the TA's resolving each other, listed by dl_iterate_phdr, and
 * a panic in it ends the instance as one in the TA does.
 */
static void test_dl_at_run_time(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	const uint32_t before = SHLIB_ID_BASE | SHLIB_ID_TOP << 4 | SHLIB_ID_TA << 8;
	uint32_t result = 0;
	uint32_t ids = 0;
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, dl_call(s, 21, &result, &ids)))
		return;
	ADBG_EXPECT(c, 42, result);
	ADBG_EXPECT(c, before | SHLIB_ID_DL << 12, ids);
	/* Loaded once: its constructor does not run again. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, dl_call(s, 5, &result, &ids))) {
		ADBG_EXPECT(c, 10, result);
		ADBG_EXPECT(c, before | SHLIB_ID_DL << 12, ids);
	}
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, TA_SHLIB_CMD_PHDR, &op, &orig)))
		ADBG_EXPECT(c, 4, op.params[0].value.a);
	test_calls(c, s);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD,
				TEEC_InvokeCommand(s, TA_SHLIB_CMD_DL_PANIC, NULL, &orig));
	ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
}

/* Puts img in dir as name.ta, expects the shlib TA refused, then takes it away. */
static void expect_refused(ADBG_Case_t *c, const char *dir, const char *name, const uint8_t *img,
			   size_t len)
{
	char path[PATH_MAX];
	TEEC_Session s = {0};
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	snprintf(path, sizeof(path), "%s/%s.ta", dir, name);
	if (!ADBG_EXPECT_TRUE(c, xtest_write_file(path, img, len)))
		return;
	res = xtest_teec_open_session(&s, &shlib_uuid, NULL, &orig);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SECURITY, res);
	if (!res)
		TEEC_CloseSession(&s);
	unlink(path);
}

static void test_bad_libraries(ADBG_Case_t *c)
{
	const char *dir = getenv("SWTEE_RUN_TA_DIR");
	uint8_t *lib = NULL;
	uint8_t *other = NULL;
	size_t len = 0;
	size_t other_len = 0;
	TEEC_Session s = {0};
	uint32_t orig = 0;

	if (!dir) {
		Do_ADBG_Log("  skipped: needs SWTEE_RUN_TA_DIR (run under swtee run)");
		return;
	}
	lib = xtest_installed_ta(TA_SHLIB_BASE_NAME, &len);
	if (!ADBG_EXPECT_NOT_NULL(c, lib) || !ADBG_EXPECT_COMPARE_UNSIGNED(c, len, >, 1024))
		goto out;
	/* A flipped bit in the ELF of the library the library needs. */
	lib[len - 200] ^= 0x10;
	expect_refused(c, dir, TA_SHLIB_BASE_NAME, lib, len);
	/* A TA signed for another UUID in the library's place. */
	other = xtest_installed_ta(BASIC_NAME, &other_len);
	if (ADBG_EXPECT_NOT_NULL(c, other))
		expect_refused(c, dir, TA_SHLIB_BASE_NAME, other, other_len);
	/* A library opened as a TA is no TA. */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SECURITY,
				xtest_teec_open_session(&s, &top_uuid, NULL, &orig));
	/*
	 * A damaged library loaded at run time: dlopen gives NULL, the TA
	 * carries on, and loads it once it is whole again.
	 */
	free(other);
	other = xtest_installed_ta(TA_SHLIB_DL_NAME, &other_len);
	if (ADBG_EXPECT_NOT_NULL(c, other) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &shlib_uuid, NULL, &orig))) {
		char path[PATH_MAX];
		uint32_t result = 0;
		uint32_t ids = 0;

		snprintf(path, sizeof(path), "%s/%s.ta", dir, TA_SHLIB_DL_NAME);
		other[other_len - 200] ^= 0x10;
		if (ADBG_EXPECT_TRUE(c, xtest_write_file(path, other, other_len))) {
			ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
						dl_call(&s, 1, &result, &ids));
			test_calls(c, &s);
			unlink(path);
		}
		if (ADBG_EXPECT_TEEC_SUCCESS(c, dl_call(&s, 4, &result, &ids)))
			ADBG_EXPECT(c, 8, result);
		TEEC_CloseSession(&s);
	}
	/* With the damage gone, the TA loads again. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &shlib_uuid, NULL, &orig))) {
		test_calls(c, &s);
		TEEC_CloseSession(&s);
	}
out:
	free(other);
	free(lib);
}

static void xtest_tee_test_1070(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &shlib_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "Calls through two TA libraries");
	test_calls(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Library constructors run before the TA's");
	test_init_order(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "dlopen finds the TA and its libraries, nothing else");
	test_dlopen(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "dl_iterate_phdr visits the TA and its libraries");
	test_phdr(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c,
			     "dl_iterate_phdr visits every module whatever the callback returns");
	test_phdr_all(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "dlopen loads a library the TA does not link");
	test_dl_at_run_time(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
	Do_ADBG_BeginSubCase(c, "A damaged or misplaced library keeps the TA from loading");
	test_bad_libraries(c);
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1070, xtest_tee_test_1070, "TA shared libraries");
