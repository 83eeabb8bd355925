/*
 * devkit_compat: a GP 1.1 TA and a GP 1.3 TA built from one source, open
 * side by side, with interleaved calls. Each must see the TEE_Param of its
 * own API (uint32_t or size_t memref sizes), and both must give the same
 * answers: short buffers report the size needed, memref sizes arrive whole,
 * and TEE_GetPropertyAsString works through its __GP11_ variant.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <size_ta.h>

struct ta {
	const char *name;
	TEEC_UUID uuid;
	uint32_t size_bytes; /* sizeof(memref.size) it must see */
	uint32_t compat;
	const char *description;
	TEEC_Session sess;
};

static int failed;

static void expect(int ok, const struct ta *t, const char *what)
{
	printf("%s %s: %s\n", ok ? "ok" : "FAIL", t->name, what);
	if (!ok)
		failed = 1;
}

static TEEC_Result invoke(struct ta *t, uint32_t cmd, TEEC_Operation *op)
{
	uint32_t origin = 0;

	return TEEC_InvokeCommand(&t->sess, cmd, op, &origin);
}

static void info(struct ta *t)
{
	TEEC_Operation op = {0};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	expect(!invoke(t, TA_SIZE_CMD_INFO, &op) && op.params[0].value.a == t->size_bytes &&
		   op.params[0].value.b == t->compat,
	       t, "TEE_Param memref size of its API");
}

static void fill(struct ta *t)
{
	TEEC_Operation op = {0};
	uint8_t buf[300] = {0};
	TEEC_Result res = TEEC_ERROR_GENERIC;
	int ok = 1;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 300;
	op.params[1].tmpref.buffer = buf;
	op.params[1].tmpref.size = 10;
	res = invoke(t, TA_SIZE_CMD_FILL, &op);
	expect(res == TEEC_ERROR_SHORT_BUFFER && op.params[1].tmpref.size == 300, t,
	       "short buffer: SHORT_BUFFER and the size needed");
	op.params[1].tmpref.size = sizeof(buf);
	res = invoke(t, TA_SIZE_CMD_FILL, &op);
	for (size_t i = 0; i < sizeof(buf); i++)
		ok &= buf[i] == (uint8_t)i;
	expect(!res && op.params[1].tmpref.size == 300 && ok, t, "output written, size updated");
}

static void echo_size(struct ta *t, TEEC_Context *ctx)
{
	TEEC_SharedMemory shm = {.size = 70000, .flags = TEEC_MEM_INPUT};
	TEEC_Operation op = {0};
	uint32_t sum = 0;

	if (TEEC_AllocateSharedMemory(ctx, &shm)) {
		expect(0, t, "shared memory");
		return;
	}
	for (size_t i = 0; i < shm.size; i++) {
		((uint8_t *)shm.buffer)[i] = (uint8_t)(i * 7);
		sum = sum * 31 + (uint8_t)(i * 7);
	}
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].memref.parent = &shm;
	expect(!invoke(t, TA_SIZE_CMD_ECHO_SIZE, &op) && op.params[1].value.a == shm.size &&
		   op.params[1].value.b == sum,
	       t, "a 70000-byte memref arrives whole");
	TEEC_ReleaseSharedMemory(&shm);
}

static void property(struct ta *t)
{
	TEEC_Operation op = {0};
	char buf[128] = "";
	size_t want = strlen(t->description) + 1;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf;
	op.params[0].tmpref.size = 4;
	res = invoke(t, TA_SIZE_CMD_PROPERTY, &op);
	expect(res == TEEC_ERROR_SHORT_BUFFER && op.params[0].tmpref.size == want, t,
	       "TEE_GetPropertyAsString, short: SHORT_BUFFER and the length");
	op.params[0].tmpref.size = sizeof(buf);
	res = invoke(t, TA_SIZE_CMD_PROPERTY, &op);
	expect(!res && op.params[0].tmpref.size == want && !strcmp(buf, t->description), t,
	       "TEE_GetPropertyAsString");
}

int main(void)
{
	struct ta tas[2] = {
	    {"GP 1.1 TA", TA_SIZE11_UUID, 4, 1, "swtee devkit test: the GP 1.1 API"},
	    {"GP 1.3 TA", TA_SIZE13_UUID, sizeof(size_t), 0, "swtee devkit test: the GP 1.3 API"},
	};
	TEEC_Context ctx;
	uint32_t origin = 0;

	if (TEEC_InitializeContext(NULL, &ctx))
		return 2;
	for (int i = 0; i < 2; i++) {
		if (TEEC_OpenSession(&ctx, &tas[i].sess, &tas[i].uuid, TEEC_LOGIN_PUBLIC, NULL,
				     NULL, &origin)) {
			fprintf(stderr, "cannot open the %s (origin %u)\n", tas[i].name, origin);
			return 2;
		}
	}
	/* Interleaved: both instances live at once. */
	for (int i = 0; i < 2; i++)
		info(&tas[i]);
	for (int i = 0; i < 2; i++)
		fill(&tas[i]);
	for (int i = 0; i < 2; i++)
		echo_size(&tas[i], &ctx);
	for (int i = 0; i < 2; i++)
		property(&tas[i]);
	for (int i = 0; i < 2; i++)
		TEEC_CloseSession(&tas[i].sess);
	TEEC_FinalizeContext(&ctx);
	printf("compat: %s\n", failed ? "FAILED" : "OK");
	return failed;
}
