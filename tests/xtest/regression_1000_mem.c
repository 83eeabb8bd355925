/*
 * regression 1013-1016: the GP Trusted Core Framework as a TA sees it,
 * through the os_test TA: memory allocation and the heap bound, memory
 * access rights (TA memory and every kind of client memref), instance data,
 * cancellation masking and time, and the panics GP specifies.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_os_test.h"
#include "xtest_helpers.h"

#define SHM_SIZE 4096
#define PART_OFFSET 16
#define PART_SIZE 100

static const TEEC_UUID os_test_uuid = TA_OS_TEST_UUID;

/* Runs a self-checking command; true when the TA found nothing wrong. */
static bool self_check(ADBG_Case_t *c, TEEC_Session *s, uint32_t cmd)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, cmd, &op, &orig)))
		return false;
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].value.a, >, 0);
	if (!ADBG_EXPECT(c, 0, op.params[0].value.a)) {
		Do_ADBG_Log("  first failed check: %" PRIu32, op.params[0].value.b);
		return false;
	}
	return true;
}

static void xtest_tee_test_1013(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &os_test_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "TEE_Malloc hints, TEE_Realloc, TEE_Free, the TA_DATA_SIZE bound");
	self_check(c, &s, TA_OS_TEST_CMD_MALLOC);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "TEE_MemMove, TEE_MemFill, TEE_MemCompare, GP 1.1 variants");
	self_check(c, &s, TA_OS_TEST_CMD_MEM);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1013, xtest_tee_test_1013,
		 "Test TEE Internal API memory allocation and the heap bound");

/*
 * CMD_ACCESS_PARAMS with the memrefs the caller set in op slots 0-2;
 * strict: the slots whose one-byte-more must be refused.
 */
static void access_params(ADBG_Case_t *c, TEEC_Session *s, TEEC_Operation *op, uint32_t strict)
{
	uint32_t orig = 0;

	op->params[3].value.a = strict;
	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c, TEEC_InvokeCommand(s, TA_OS_TEST_CMD_ACCESS_PARAMS, op, &orig)))
		return;
	if (!ADBG_EXPECT(c, 0, op->params[3].value.a))
		Do_ADBG_Log("  first failed check: %" PRIu32, op->params[3].value.b);
}

static void access_temp(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint8_t in[300] = {1};
	uint8_t out[200] = {2};
	uint8_t inout[100] = {3};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT,
					 TEEC_MEMREF_TEMP_INOUT, TEEC_VALUE_INOUT);
	op.params[0].tmpref.buffer = in;
	op.params[0].tmpref.size = sizeof(in);
	op.params[1].tmpref.buffer = out;
	op.params[1].tmpref.size = sizeof(out);
	op.params[2].tmpref.buffer = inout;
	op.params[2].tmpref.size = sizeof(inout);
	access_params(c, s, &op, 0);
}

/* Whole and partial memrefs of three shared memories, one per direction. */
static void access_shm(ADBG_Case_t *c, TEEC_Session *s, TEEC_SharedMemory shm[3])
{
	static const uint32_t whole_dir[3] = {TEEC_MEM_INPUT, TEEC_MEM_OUTPUT,
					      TEEC_MEM_INPUT | TEEC_MEM_OUTPUT};
	static const uint32_t partial[3] = {TEEC_MEMREF_PARTIAL_INPUT, TEEC_MEMREF_PARTIAL_OUTPUT,
					    TEEC_MEMREF_PARTIAL_INOUT};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Operation stale = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	for (int i = 0; i < 3; i++)
		if (!ADBG_EXPECT(c, whole_dir[i], shm[i].flags))
			return;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_MEMREF_WHOLE, TEEC_MEMREF_WHOLE,
					 TEEC_VALUE_INOUT);
	for (int i = 0; i < 3; i++)
		op.params[i].memref.parent = &shm[i];
	access_params(c, s, &op, 0);

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(partial[0], partial[1], partial[2], TEEC_VALUE_INOUT);
	for (int i = 0; i < 3; i++) {
		op.params[i].memref.parent = &shm[i];
		op.params[i].memref.offset = PART_OFFSET;
		op.params[i].memref.size = PART_SIZE;
	}
	access_params(c, s, &op, 0x7);

	/* The first memref, kept by the TA, is not the TA's to use any more. */
	stale.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, TEEC_InvokeCommand(s, TA_OS_TEST_CMD_ACCESS_STALE, &stale, &orig)))
		ADBG_EXPECT(c, 0, stale.params[0].value.a);
}

static void xtest_tee_test_1014(ADBG_Case_t *c)
{
	static const uint32_t dir[3] = {TEEC_MEM_INPUT, TEEC_MEM_OUTPUT,
					TEEC_MEM_INPUT | TEEC_MEM_OUTPUT};
	static uint8_t reg_buf[3][SHM_SIZE];
	TEEC_SharedMemory shm[3];
	TEEC_Session s = {0};
	uint32_t orig = 0;
	int n = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &os_test_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "Heap, stack, data, rodata, RELRO, code, libc heap, bad requests");
	self_check(c, &s, TA_OS_TEST_CMD_ACCESS);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Temporary memrefs: shared, read-only when input");
	access_temp(c, &s);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Allocated shared memory, whole and partial");
	memset(shm, 0, sizeof(shm));
	for (n = 0; n < 3; n++) {
		shm[n].size = SHM_SIZE;
		shm[n].flags = dir[n];
		if (!ADBG_EXPECT_TEEC_SUCCESS(c,
					      TEEC_AllocateSharedMemory(&xtest_teec_ctx, &shm[n])))
			break;
	}
	if (n == 3)
		access_shm(c, &s, shm);
	while (n--)
		TEEC_ReleaseSharedMemory(&shm[n]);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Registered shared memory, whole and partial");
	memset(shm, 0, sizeof(shm));
	for (n = 0; n < 3; n++) {
		shm[n].buffer = reg_buf[n];
		shm[n].size = SHM_SIZE;
		shm[n].flags = dir[n];
		if (!ADBG_EXPECT_TEEC_SUCCESS(c,
					      TEEC_RegisterSharedMemory(&xtest_teec_ctx, &shm[n])))
			break;
	}
	if (n == 3)
		access_shm(c, &s, shm);
	while (n--)
		TEEC_ReleaseSharedMemory(&shm[n]);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1014, xtest_tee_test_1014,
		 "Test TEE_CheckMemoryAccessRights on TA memory and client memrefs");

static TEEC_Result instance_data(TEEC_Session *s, uint32_t cmd, uint32_t *v)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(
	    cmd == TA_OS_TEST_CMD_SET_INSTANCE_DATA ? TEEC_VALUE_INPUT : TEEC_VALUE_OUTPUT,
	    TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = *v;
	res = TEEC_InvokeCommand(s, cmd, &op, &orig);
	*v = op.params[0].value.a;
	return res;
}

static void check_instance_data(ADBG_Case_t *c, TEEC_Session *s, uint32_t expected)
{
	uint32_t v = 0;

	if (ADBG_EXPECT_TEEC_SUCCESS(c, instance_data(s, TA_OS_TEST_CMD_GET_INSTANCE_DATA, &v)))
		ADBG_EXPECT(c, expected, v);
}

static void set_instance_data(ADBG_Case_t *c, TEEC_Session *s, uint32_t v)
{
	ADBG_EXPECT_TEEC_SUCCESS(c, instance_data(s, TA_OS_TEST_CMD_SET_INSTANCE_DATA, &v));
}

static void xtest_tee_test_1015(ADBG_Case_t *c)
{
	TEEC_Session s1 = {0};
	TEEC_Session s2 = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	time_t now = 0;

	Do_ADBG_BeginSubCase(c, "Instance data: shared by sessions, gone with the instance");
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &os_test_uuid, NULL, &orig)))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &os_test_uuid, NULL, &orig))) {
		check_instance_data(c, &s1, 0xffffffff);
		set_instance_data(c, &s1, 42);
		check_instance_data(c, &s2, 42);
		set_instance_data(c, &s2, 7);
		check_instance_data(c, &s1, 7);
		TEEC_CloseSession(&s2);
	}
	check_instance_data(c, &s1, 7);
	TEEC_CloseSession(&s1);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &os_test_uuid, NULL, &orig))) {
		check_instance_data(c, &s1, 0xffffffff);
		TEEC_CloseSession(&s1);
	}
	Do_ADBG_EndSubCase(c, NULL);

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &os_test_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "Cancellation: masked when the session opens, per session");
	/* Twice: the TA leaves it masked, as the second run expects to find it. */
	self_check(c, &s1, TA_OS_TEST_CMD_CANCEL);
	self_check(c, &s1, TA_OS_TEST_CMD_CANCEL);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TEE_GetREETime, TEE_GetSystemTime and TEE_Wait");
	now = time(NULL);
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE);
	op.params[0].value.a = (uint32_t)now;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s1, TA_OS_TEST_CMD_TIME, &op, &orig))) {
		ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].value.a, >=, (uint32_t)now - 2);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].value.a, <=, (uint32_t)now + 2);
		ADBG_EXPECT_TEEC_SUCCESS(c, op.params[2].value.a);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].value.b, >=, 100);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].value.b, <, 2000);
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s1);
}
ADBG_CASE_DEFINE(regression, 1015, xtest_tee_test_1015,
		 "Test instance data, cancellation masking and time");

static const char *const panic_names[TA_OS_TEST_PANIC_COUNT] = {
    "TEE_Panic(0x1234)",
    "TEE_Malloc with TEE_MALLOC_NO_FILL alone",
    "__GP11_TEE_Malloc with TEE_MALLOC_NO_FILL alone",
    "TEE_Free inside a block",
    "TEE_Free twice",
    "TEE_Free of a static variable",
    "TEE_Realloc of a freed block",
    "TEE_Realloc of a stack buffer",
    "TEE_MemMove to NULL",
    "TEE_MemFill of NULL",
    "TEE_MemCompare with NULL",
    "TEE_GetSystemTime(NULL)",
    "TEE_GetREETime(NULL)",
    "a write through TEE_Malloc(0)",
    "a write past the end of the heap",
};

static void xtest_tee_test_1016(ADBG_Case_t *c)
{
	for (uint32_t i = 0; i < TA_OS_TEST_PANIC_COUNT; i++) {
		TEEC_Session s = {0};
		TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
		uint32_t orig = 0;

		Do_ADBG_BeginSubCase(c, "%s", panic_names[i]);
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &os_test_uuid, NULL, &orig))) {
			Do_ADBG_EndSubCase(c, NULL);
			break;
		}
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].value.a = i;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD,
					TEEC_InvokeCommand(&s, TA_OS_TEST_CMD_PANIC, &op, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
		/* The session stays dead. */
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD,
					TEEC_InvokeCommand(&s, TA_OS_TEST_CMD_PANIC, &op, &orig));
		TEEC_CloseSession(&s);
		Do_ADBG_EndSubCase(c, NULL);
	}
}
ADBG_CASE_DEFINE(regression, 1016, xtest_tee_test_1016,
		 "Test the panics of the TEE Internal API framework functions");
