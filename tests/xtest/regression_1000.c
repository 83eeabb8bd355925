/*
 * regression 1xxx: sessions, parameters, shared memory, instances, panics,
 * cancellation and client death, through the GP Client API.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>
#include <tee_client_api_extensions.h>

#include "adbg.h"
#include "ta_basic.h"
#include "ta_sims.h"
#include "xtest_helpers.h"

static const TEEC_UUID basic_uuid = TA_BASIC_UUID;
static const TEEC_UUID sims_uuid = TA_SIMS_UUID;
static const TEEC_UUID single_uuid = TA_SINGLE_UUID;
static const TEEC_UUID keepalive_uuid = TA_KEEPALIVE_UUID;
static const TEEC_UUID create_fail_uuid = TA_CREATE_FAIL_UUID;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static TEEC_Result invoke_values(TEEC_Session *s, uint32_t cmd, uint32_t a, uint32_t *out_a,
				 uint32_t *out_b, uint32_t *orig)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = a;
	res = TEEC_InvokeCommand(s, cmd, &op, orig);
	if (out_a)
		*out_a = op.params[0].value.a;
	if (out_b)
		*out_b = op.params[0].value.b;
	return res;
}

static void xtest_tee_test_1001(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	Do_ADBG_BeginSubCase(c, "Open, invoke and close");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TRUSTED_APP, orig);
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
		op.params[0].value.a = 40;
		op.params[0].value.b = 2;
		ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_ADD, &op, &orig));
		ADBG_EXPECT(c, 42, op.params[1].value.a);
		ADBG_EXPECT(c, 40 ^ 2, op.params[1].value.b);
		ADBG_EXPECT(c, 1, op.started);
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
					TEEC_InvokeCommand(&s, 0xbad, NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TRUSTED_APP, orig);
		TEEC_CloseSession(&s);
	}
	Do_ADBG_EndSubCase(c, "Open, invoke and close");

	Do_ADBG_BeginSubCase(c, "Open session parameters and refusal");
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 7;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, &op, &orig))) {
		ADBG_EXPECT(c, 8, op.params[0].value.a);
		TEEC_CloseSession(&s);
	}
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 0xdead;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED,
				xtest_teec_open_session(&s, &basic_uuid, &op, &orig));
	ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TRUSTED_APP, orig);
	Do_ADBG_EndSubCase(c, "Open session parameters and refusal");

	Do_ADBG_BeginSubCase(c, "Unknown UUID");
	{
		TEEC_UUID none = {0x0badc0de, 0x1, 0x2, {1, 2, 3, 4, 5, 6, 7, 8}};

		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
					xtest_teec_open_session(&s, &none, NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
	}
	Do_ADBG_EndSubCase(c, "Unknown UUID");

	Do_ADBG_BeginSubCase(c, "Bad arguments");
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_BAD_PARAMETERS,
	    TEEC_OpenSession(&xtest_teec_ctx, &s, NULL, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig));
	ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_API, orig);
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_BAD_PARAMETERS,
	    TEEC_OpenSession(&xtest_teec_ctx, &s, &basic_uuid, 0x77, NULL, NULL, &orig));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				TEEC_OpenSession(&xtest_teec_ctx, &s, &basic_uuid, TEEC_LOGIN_GROUP,
						 NULL, NULL, &orig));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig))) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(4, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, &op, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_API, orig);
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].memref.parent = NULL;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, &op, &orig));
		/* The session is still usable after refused calls. */
		ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, NULL, &orig));
		TEEC_CloseSession(&s);
	}
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				TEEC_InvokeCommand(NULL, 0, NULL, &orig));
	Do_ADBG_EndSubCase(c, "Bad arguments");
}
ADBG_CASE_DEFINE(regression, 1001, xtest_tee_test_1001, "Sessions: open, invoke, close");

static void check_reverse(ADBG_Case_t *c, const uint8_t *in, const uint8_t *out, size_t n)
{
	size_t bad = n;

	for (size_t i = 0; i < n && bad == n; i++)
		if (out[i] != in[n - 1 - i])
			bad = i;
	ADBG_EXPECT(c, n, bad);
}

static void xtest_tee_test_1002(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Session s2 = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_SharedMemory in = {0};
	TEEC_SharedMemory out = {0};
	uint8_t buf_in[3000];
	uint8_t buf_out[3000];
	uint32_t orig = 0;

	for (size_t i = 0; i < sizeof(buf_in); i++)
		buf_in[i] = (uint8_t)(i * 7 + 3);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig)))
		return;

	Do_ADBG_BeginSubCase(c, "Temporary memrefs in and out");
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf_in;
	op.params[0].tmpref.size = sizeof(buf_in);
	op.params[1].tmpref.buffer = buf_out;
	op.params[1].tmpref.size = sizeof(buf_out);
	memset(buf_out, 0, sizeof(buf_out));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_REVERSE, &op, &orig))) {
		ADBG_EXPECT(c, sizeof(buf_in), op.params[1].tmpref.size);
		check_reverse(c, buf_in, buf_out, sizeof(buf_in));
	}
	Do_ADBG_EndSubCase(c, "Temporary memrefs in and out");

	Do_ADBG_BeginSubCase(c, "Temporary memref inout");
	memset(&op, 0, sizeof(op));
	memcpy(buf_out, buf_in, sizeof(buf_in));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf_out;
	op.params[0].tmpref.size = 1000;
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     TEEC_InvokeCommand(&s, TA_BASIC_CMD_INC_INOUT, &op, &orig))) {
		ADBG_EXPECT(c, (uint8_t)(buf_in[0] + 1), buf_out[0]);
		ADBG_EXPECT(c, (uint8_t)(buf_in[999] + 1), buf_out[999]);
		ADBG_EXPECT(c, buf_in[1000], buf_out[1000]); /* outside the memref */
	}
	Do_ADBG_EndSubCase(c, "Temporary memref inout");

	Do_ADBG_BeginSubCase(c, "Allocated shared memory, whole and partial");
	in.size = sizeof(buf_in);
	in.flags = TEEC_MEM_INPUT;
	out.size = sizeof(buf_out);
	out.flags = TEEC_MEM_OUTPUT;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_AllocateSharedMemory(&xtest_teec_ctx, &in)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_AllocateSharedMemory(&xtest_teec_ctx, &out))) {
		memcpy(in.buffer, buf_in, sizeof(buf_in));
		memset(&op, 0, sizeof(op));
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_MEMREF_WHOLE, TEEC_NONE, TEEC_NONE);
		op.params[0].memref.parent = &in;
		op.params[1].memref.parent = &out;
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_REVERSE, &op, &orig))) {
			ADBG_EXPECT(c, sizeof(buf_in), op.params[1].memref.size);
			check_reverse(c, buf_in, out.buffer, sizeof(buf_in));
		}
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INPUT,
						 TEEC_MEMREF_PARTIAL_OUTPUT, TEEC_NONE, TEEC_NONE);
		op.params[0].memref.parent = &in;
		op.params[0].memref.offset = 100;
		op.params[0].memref.size = 50;
		op.params[1].memref.parent = &out;
		op.params[1].memref.offset = 2000;
		op.params[1].memref.size = 64;
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_REVERSE, &op, &orig))) {
			ADBG_EXPECT(c, 50, op.params[1].memref.size);
			check_reverse(c, buf_in + 100, (uint8_t *)out.buffer + 2000, 50);
		}
		/* Direction the shm does not allow. */
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, &op, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_API, orig);
		/* Outside the shm, by one byte. */
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].memref.offset = sizeof(buf_in) - 10;
		op.params[0].memref.size = 11;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, &op, &orig));
		op.params[0].memref.offset = SIZE_MAX;
		op.params[0].memref.size = 2;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, &op, &orig));
	}
	TEEC_ReleaseSharedMemory(&in);
	TEEC_ReleaseSharedMemory(&out);
	Do_ADBG_EndSubCase(c, "Allocated shared memory, whole and partial");

	Do_ADBG_BeginSubCase(c, "Registered shared memory, whole and partial");
	memset(&in, 0, sizeof(in));
	memset(&out, 0, sizeof(out));
	memset(buf_out, 0, sizeof(buf_out));
	in.buffer = buf_in;
	in.size = sizeof(buf_in);
	in.flags = TEEC_MEM_INPUT;
	out.buffer = buf_out;
	out.size = sizeof(buf_out);
	out.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_RegisterSharedMemory(&xtest_teec_ctx, &in)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_RegisterSharedMemory(&xtest_teec_ctx, &out))) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_MEMREF_PARTIAL_OUTPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].memref.parent = &in;
		op.params[1].memref.parent = &out;
		op.params[1].memref.offset = 0;
		op.params[1].memref.size = sizeof(buf_out);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_REVERSE, &op, &orig)))
			check_reverse(c, buf_in, buf_out, sizeof(buf_in));
		/* Inout on a registered buffer: changes come back to it. */
		memcpy(buf_out, buf_in, sizeof(buf_in));
		memset(&op, 0, sizeof(op));
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].memref.parent = &out;
		op.params[0].memref.offset = 10;
		op.params[0].memref.size = 20;
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_INC_INOUT, &op, &orig))) {
			ADBG_EXPECT(c, buf_in[9], buf_out[9]);
			ADBG_EXPECT(c, (uint8_t)(buf_in[10] + 1), buf_out[10]);
			ADBG_EXPECT(c, (uint8_t)(buf_in[29] + 1), buf_out[29]);
			ADBG_EXPECT(c, buf_in[30], buf_out[30]);
		}
	}
	TEEC_ReleaseSharedMemory(&in);
	TEEC_ReleaseSharedMemory(&out);
	Do_ADBG_EndSubCase(c, "Registered shared memory, whole and partial");

	Do_ADBG_BeginSubCase(c, "NULL and empty memrefs");
	memset(&op, 0, sizeof(op));
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = NULL;
	op.params[0].tmpref.size = 123;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_MEMREF_INFO, &op, &orig))) {
		ADBG_EXPECT(c, 1, op.params[1].value.a);
		ADBG_EXPECT(c, 123, op.params[1].value.b);
	}
	op.params[0].tmpref.buffer = buf_out;
	op.params[0].tmpref.size = 0;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_MEMREF_INFO, &op, &orig))) {
		ADBG_EXPECT(c, 0, op.params[1].value.a);
		ADBG_EXPECT(c, 0, op.params[1].value.b);
	}
	/*
	 * The same as the first call of a new session, before any temporary
	 * memref has given it shared memory: still not NULL.
	 */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &basic_uuid, NULL, &orig))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s2, TA_BASIC_CMD_MEMREF_INFO, &op, &orig))) {
			ADBG_EXPECT(c, 0, op.params[1].value.a);
			ADBG_EXPECT(c, 0, op.params[1].value.b);
		}
		TEEC_CloseSession(&s2);
	}
	Do_ADBG_EndSubCase(c, "NULL and empty memrefs");

	Do_ADBG_BeginSubCase(c, "Every parameter type reaches the TA");
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INOUT, TEEC_MEMREF_TEMP_INPUT,
					 TEEC_MEMREF_TEMP_OUTPUT, TEEC_MEMREF_TEMP_INOUT);
	op.params[1].tmpref.buffer = buf_in;
	op.params[1].tmpref.size = 1;
	op.params[2].tmpref.buffer = buf_out;
	op.params[2].tmpref.size = 1;
	op.params[3].tmpref.buffer = buf_out + 8;
	op.params[3].tmpref.size = 1;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_TYPES, &op, &orig)))
		ADBG_EXPECT(c, 0x7653, op.params[0].value.a);
	Do_ADBG_EndSubCase(c, "Every parameter type reaches the TA");
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1002, xtest_tee_test_1002,
		 "Parameters: values, temporary, allocated and registered memrefs");

static void xtest_tee_test_1003(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_SharedMemory shm = {0};
	uint8_t in[100];
	uint8_t out[10];
	uint32_t orig = 0;

	memset(in, 0x5a, sizeof(in));
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "Short temporary memref");
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = in;
	op.params[0].tmpref.size = sizeof(in);
	op.params[1].tmpref.buffer = out;
	op.params[1].tmpref.size = sizeof(out);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				TEEC_InvokeCommand(&s, TA_BASIC_CMD_REVERSE, &op, &orig));
	ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TRUSTED_APP, orig);
	ADBG_EXPECT(c, sizeof(in), op.params[1].tmpref.size);
	Do_ADBG_EndSubCase(c, "Short temporary memref");

	Do_ADBG_BeginSubCase(c, "Short partial and whole memrefs");
	shm.size = 16;
	shm.flags = TEEC_MEM_OUTPUT;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_AllocateSharedMemory(&xtest_teec_ctx, &shm))) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_PARTIAL_OUTPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].tmpref.buffer = in;
		op.params[0].tmpref.size = 40;
		op.params[1].memref.parent = &shm;
		op.params[1].memref.offset = 4;
		op.params[1].memref.size = 8;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					TEEC_InvokeCommand(&s, TA_BASIC_CMD_REVERSE, &op, &orig));
		ADBG_EXPECT(c, 40, op.params[1].memref.size);
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_WHOLE,
						 TEEC_NONE, TEEC_NONE);
		op.params[1].memref.size = 0;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					TEEC_InvokeCommand(&s, TA_BASIC_CMD_REVERSE, &op, &orig));
		ADBG_EXPECT(c, 40, op.params[1].memref.size);
		TEEC_ReleaseSharedMemory(&shm);
	}
	Do_ADBG_EndSubCase(c, "Short partial and whole memrefs");
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1003, xtest_tee_test_1003, "Short buffers write the needed size back");

static void xtest_tee_test_1004(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_SharedMemory shm = {0};
	uint32_t orig = 0;
	int fd = -1;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "Allocated memory is shared, not copied");
	shm.size = 1024 * 1024;
	shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_AllocateSharedMemory(&xtest_teec_ctx, &shm))) {
		uint8_t *b = shm.buffer;

		memset(b, 1, shm.size);
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].memref.parent = &shm;
		for (int i = 0; i < 3; i++)
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_INC_INOUT, &op, &orig));
		ADBG_EXPECT(c, 4, b[0]);
		ADBG_EXPECT(c, 4, b[shm.size - 1]);
		TEEC_ReleaseSharedMemory(&shm);
		ADBG_EXPECT_POINTER(c, NULL, shm.buffer);
	}
	Do_ADBG_EndSubCase(c, "Allocated memory is shared, not copied");

	Do_ADBG_BeginSubCase(c, "Many allocations and releases in one session");
	for (int i = 0; i < 300; i++) {
		memset(&shm, 0, sizeof(shm));
		shm.size = 64 + (size_t)i;
		shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
		if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_AllocateSharedMemory(&xtest_teec_ctx, &shm)))
			break;
		memset(shm.buffer, i, shm.size);
		memset(&op, 0, sizeof(op));
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].memref.parent = &shm;
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_INC_INOUT, &op, &orig)) ||
		    !ADBG_EXPECT(c, (uint8_t)(i + 1), ((uint8_t *)shm.buffer)[shm.size - 1])) {
			TEEC_ReleaseSharedMemory(&shm);
			break;
		}
		TEEC_ReleaseSharedMemory(&shm);
	}
	Do_ADBG_EndSubCase(c, "Many allocations and releases in one session");

	Do_ADBG_BeginSubCase(c, "Registered file descriptor");
	fd = memfd_create("xtest-1004", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (ADBG_EXPECT_TRUE(c, fd >= 0) && ADBG_EXPECT(c, 0, ftruncate(fd, 8192))) {
		uint8_t *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		memset(&shm, 0, sizeof(shm));
		shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
		if (ADBG_EXPECT_TRUE(c, p != MAP_FAILED) &&
		    ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_RegisterSharedMemoryFileDescriptor(&xtest_teec_ctx, &shm, fd))) {
			ADBG_EXPECT(c, 8192, shm.size);
			p[8191] = 41;
			memset(&op, 0, sizeof(op));
			op.paramTypes =
			    TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
			op.params[0].memref.parent = &shm;
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_INC_INOUT, &op, &orig));
			ADBG_EXPECT(c, 42, p[8191]);
			TEEC_ReleaseSharedMemory(&shm);
		}
		if (p != MAP_FAILED)
			munmap(p, 8192);
	}
	if (fd >= 0)
		close(fd);
	Do_ADBG_EndSubCase(c, "Registered file descriptor");
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1004, xtest_tee_test_1004,
		 "Shared memory: zero copy, churn, file descriptors");

#define MANY_PROCS 4
#define MANY_PER_PROC 25

static int many_sessions_child(int id)
{
	TEEC_Context ctx;
	TEEC_Session s[MANY_PER_PROC];
	uint32_t orig = 0;
	int failures = 0;
	int opened = 0;

	if (TEEC_InitializeContext(xtest_tee_name, &ctx))
		return 1;
	for (int i = 0; i < MANY_PER_PROC; i++) {
		if (TEEC_OpenSession(&ctx, &s[i], &basic_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
				     &orig))
			break;
		opened++;
	}
	if (opened != MANY_PER_PROC)
		failures++;
	for (int round = 0; round < 10; round++) {
		for (int i = 0; i < opened; i++) {
			TEEC_Operation op = TEEC_OPERATION_INITIALIZER;

			op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT,
							 TEEC_NONE, TEEC_NONE);
			op.params[0].value.a = (uint32_t)id;
			op.params[0].value.b = (uint32_t)(i + round);
			if (TEEC_InvokeCommand(&s[i], TA_BASIC_CMD_ADD, &op, &orig) ||
			    op.params[1].value.a != (uint32_t)(id + i + round))
				failures++;
		}
	}
	for (int i = 0; i < opened; i++)
		TEEC_CloseSession(&s[i]);
	TEEC_FinalizeContext(&ctx);
	return failures ? 1 : 0;
}

static void xtest_tee_test_1005(ADBG_Case_t *c)
{
	pid_t pids[MANY_PROCS];
	int ok = 0;

	Do_ADBG_BeginSubCase(c, "%d sessions from %d processes at once", MANY_PROCS * MANY_PER_PROC,
			     MANY_PROCS);
	for (int p = 0; p < MANY_PROCS; p++) {
		fflush(stdout);
		pids[p] = fork();
		if (pids[p] == 0)
			_exit(many_sessions_child(p));
	}
	for (int p = 0; p < MANY_PROCS; p++) {
		int status = 0;

		if (pids[p] > 0 && waitpid(pids[p], &status, 0) == pids[p] && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			ok++;
	}
	ADBG_EXPECT(c, MANY_PROCS, ok);
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1005, xtest_tee_test_1005, "Many sessions from several processes");

static void xtest_tee_test_1012(ADBG_Case_t *c)
{
	TEEC_Session s1 = {0};
	TEEC_Session s2 = {0};
	uint32_t orig = 0;
	uint32_t a = 0;
	uint32_t b = 0;
	uint32_t token = 0;

	Do_ADBG_BeginSubCase(c, "Single instance, multi session: one instance shared");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &sims_uuid, NULL, &orig))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s2, &sims_uuid, NULL, &orig))) {
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, invoke_values(&s1, TA_SIMS_CMD_COUNTER, 0, &a, &b, &orig));
			ADBG_EXPECT(c, 1, a);
			ADBG_EXPECT(c, 2, b);
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, invoke_values(&s2, TA_SIMS_CMD_COUNTER, 0, &a, &b, &orig));
			ADBG_EXPECT(c, 2, a);
			TEEC_CloseSession(&s2);
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, invoke_values(&s1, TA_SIMS_CMD_CLOSED, 0, &a, NULL, &orig));
			ADBG_EXPECT(c, 1, a);
		}
		TEEC_CloseSession(&s1);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The instance ends with its last session");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &sims_uuid, NULL, &orig))) {
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 invoke_values(&s1, TA_SIMS_CMD_COUNTER, 0, &a, &b, &orig));
		ADBG_EXPECT(c, 1, a);
		TEEC_CloseSession(&s1);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Single instance, single session: second open is busy");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &single_uuid, NULL, &orig))) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BUSY,
					xtest_teec_open_session(&s2, &single_uuid, NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
		TEEC_CloseSession(&s1);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s2, &single_uuid, NULL, &orig)))
			TEEC_CloseSession(&s2);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Keep-alive instance outlives its sessions");
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     xtest_teec_open_session(&s1, &keepalive_uuid, NULL, &orig))) {
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, invoke_values(&s1, TA_SIMS_CMD_TOKEN, 0, &token, NULL, &orig));
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, invoke_values(&s1, TA_SIMS_CMD_COUNTER, 0, &a, NULL, &orig));
		TEEC_CloseSession(&s1);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s1, &keepalive_uuid, NULL, &orig))) {
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, invoke_values(&s1, TA_SIMS_CMD_TOKEN, 0, &b, NULL, &orig));
			ADBG_EXPECT(c, token, b);
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, invoke_values(&s1, TA_SIMS_CMD_COUNTER, 0, &b, NULL, &orig));
			ADBG_EXPECT(c, a + 1, b);
			TEEC_CloseSession(&s1);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Multi-instance TA: one instance per session");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &basic_uuid, NULL, &orig))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s2, &basic_uuid, NULL, &orig))) {
			invoke_values(&s1, TA_BASIC_CMD_COUNTER, 0, &a, NULL, &orig);
			invoke_values(&s1, TA_BASIC_CMD_COUNTER, 0, &a, NULL, &orig);
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, invoke_values(&s2, TA_BASIC_CMD_COUNTER, 0, &b, NULL, &orig));
			ADBG_EXPECT(c, 2, a);
			ADBG_EXPECT(c, 1, b);
			TEEC_CloseSession(&s2);
		}
		TEEC_CloseSession(&s1);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TA_CreateEntryPoint failure reaches the client");
	ADBG_EXPECT_TEEC_RESULT(c, TA_CREATE_FAIL_CODE,
				xtest_teec_open_session(&s1, &create_fail_uuid, NULL, &orig));
	ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TRUSTED_APP, orig);
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1012, xtest_tee_test_1012,
		 "Instances: single, multi session, keep-alive");

static void xtest_tee_test_1007(ADBG_Case_t *c)
{
	TEEC_Session s1 = {0};
	TEEC_Session s2 = {0};
	TEEC_Session other = {0};
	uint32_t orig = 0;
	uint32_t a = 0;

	Do_ADBG_BeginSubCase(c, "TEE_Panic kills the instance, and only it");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &basic_uuid, NULL, &orig)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c,
				     xtest_teec_open_session(&other, &basic_uuid, NULL, &orig))) {
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_TARGET_DEAD,
		    invoke_values(&s1, TA_BASIC_CMD_PANIC, 0x1234, NULL, NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
		/* The session stays dead. */
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD,
					TEEC_InvokeCommand(&s1, TA_BASIC_CMD_NOP, NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 TEEC_InvokeCommand(&other, TA_BASIC_CMD_NOP, NULL, &orig));
		TEEC_CloseSession(&s1);
		TEEC_CloseSession(&other);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A crash (bad memory access) is a dead target");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &basic_uuid, NULL, &orig))) {
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_TARGET_DEAD,
		    invoke_values(&s1, TA_BASIC_CMD_CRASH, 0, NULL, NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
		TEEC_CloseSession(&s1);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A panic reaches every session of a shared instance");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s1, &sims_uuid, NULL, &orig)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &sims_uuid, NULL, &orig)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c,
				     xtest_teec_open_session(&other, &basic_uuid, NULL, &orig))) {
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_TARGET_DEAD,
		    invoke_values(&s1, TA_SIMS_CMD_PANIC, 1, NULL, NULL, &orig));
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_TARGET_DEAD,
		    invoke_values(&s2, TA_SIMS_CMD_COUNTER, 0, NULL, NULL, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 TEEC_InvokeCommand(&other, TA_BASIC_CMD_NOP, NULL, &orig));
		TEEC_CloseSession(&s1);
		TEEC_CloseSession(&s2);
		TEEC_CloseSession(&other);
		/* A new open gets a fresh instance. */
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s1, &sims_uuid, NULL, &orig))) {
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, invoke_values(&s1, TA_SIMS_CMD_COUNTER, 0, &a, NULL, &orig));
			ADBG_EXPECT(c, 1, a);
			TEEC_CloseSession(&s1);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1007, xtest_tee_test_1007, "Test Panic and crash isolation");

struct cancel_arg {
	TEEC_Operation *op;
	unsigned int delay_ms;
};

static void *cancel_thread(void *p)
{
	struct cancel_arg *a = p;
	struct timespec ts = {.tv_sec = a->delay_ms / 1000,
			      .tv_nsec = (long)(a->delay_ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
	TEEC_RequestCancellation(a->op);
	return NULL;
}

static void xtest_tee_test_1009(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	struct cancel_arg arg = {.op = &op, .delay_ms = 200};
	pthread_t t;
	uint32_t orig = 0;
	double t0 = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "TEE_Wait 100 ms");
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 100;
	t0 = now_ms();
	ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_WAIT, &op, &orig));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, (unsigned int)(now_ms() - t0), >=, 100);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TEE_Wait cancelled from another thread");
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 30000;
	t0 = now_ms();
	if (ADBG_EXPECT(c, 0, pthread_create(&t, NULL, cancel_thread, &arg))) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_CANCEL,
					TEEC_InvokeCommand(&s, TA_BASIC_CMD_WAIT, &op, &orig));
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TRUSTED_APP, orig);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, (unsigned int)(now_ms() - t0), <, 10000);
		pthread_join(t, NULL);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The next call is not cancelled");
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 10;
	ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_WAIT, &op, &orig));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);

	Do_ADBG_BeginSubCase(c, "A TA polling TEE_GetCancellationFlag");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &sims_uuid, NULL, &orig))) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		if (ADBG_EXPECT(c, 0, pthread_create(&t, NULL, cancel_thread, &arg))) {
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_CANCEL,
			    TEEC_InvokeCommand(&s, TA_SIMS_CMD_SPIN_CANCEL, &op, &orig));
			pthread_join(t, NULL);
		}
		TEEC_CloseSession(&s);
	}
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1009, xtest_tee_test_1009, "TEE Wait and cancellation");

static void xtest_tee_test_1010(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t orig = 0;
	uint32_t closed = 0;
	uint32_t after = 0;
	int sync[2] = {-1, -1};
	pid_t pid = 0;
	char ch = 0;

	Do_ADBG_BeginSubCase(c, "A killed client's session is closed by the TA");
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &sims_uuid, NULL, &orig)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, invoke_values(&s, TA_SIMS_CMD_CLOSED, 0, &closed, NULL, &orig));
	if (!ADBG_EXPECT(c, 0, pipe(sync)))
		goto close;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		TEEC_Context ctx;
		TEEC_Session cs;

		if (!TEEC_InitializeContext(xtest_tee_name, &ctx) &&
		    !TEEC_OpenSession(&ctx, &cs, &sims_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig))
			(void)!write(sync[1], "o", 1);
		pause();
		_exit(0);
	}
	if (ADBG_EXPECT_TRUE(c, pid > 0) && ADBG_EXPECT(c, 1, read(sync[0], &ch, 1))) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		for (int i = 0; i < 100; i++) {
			struct timespec ts = {.tv_nsec = 20 * 1000 * 1000};

			invoke_values(&s, TA_SIMS_CMD_CLOSED, 0, &after, NULL, &orig);
			if (after == closed + 1)
				break;
			nanosleep(&ts, NULL);
		}
		ADBG_EXPECT(c, closed + 1, after);
	}
close:
	TEEC_CloseSession(&s);
out:
	if (sync[0] >= 0)
		close(sync[0]);
	if (sync[1] >= 0)
		close(sync[1]);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A client killed while its TA hangs");
	if (!ADBG_EXPECT(c, 0, pipe(sync)))
		return;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		TEEC_Context ctx;
		TEEC_Session cs;

		if (!TEEC_InitializeContext(xtest_tee_name, &ctx) &&
		    !TEEC_OpenSession(&ctx, &cs, &basic_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
				      &orig)) {
			(void)!write(sync[1], "o", 1);
			TEEC_InvokeCommand(&cs, TA_BASIC_CMD_HANG, NULL, &orig);
		}
		_exit(0);
	}
	if (ADBG_EXPECT_TRUE(c, pid > 0) && ADBG_EXPECT(c, 1, read(sync[0], &ch, 1))) {
		struct timespec ts = {.tv_nsec = 100 * 1000 * 1000};

		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		/* Everyone else carries on while the core deals with the orphan. */
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig))) {
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, NULL, &orig));
			TEEC_CloseSession(&s);
		}
	}
	close(sync[0]);
	close(sync[1]);
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1010, xtest_tee_test_1010, "Client death");
