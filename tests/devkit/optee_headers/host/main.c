/*
 * Runs every command of the optee_headers TA and checks what it returns;
 * the TA checks the rest itself. Prints "ok <command>" for each, and exits
 * non-zero at the first that fails.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <optee_headers_ta.h>

static TEEC_Session sess;

static int invoke(const char *name, uint32_t cmd, TEEC_Operation *op)
{
	uint32_t origin = 0;
	TEEC_Result res = TEEC_InvokeCommand(&sess, cmd, op, &origin);

	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "FAIL %s: 0x%08" PRIx32 " (origin %" PRIu32 ")\n", name, res,
			origin);
		return 1;
	}
	return 0;
}

static int check(const char *name, int ok)
{
	if (!ok) {
		fprintf(stderr, "FAIL %s: wrong result\n", name);
		return 1;
	}
	printf("ok %s\n", name);
	return 0;
}

static int test_atomic(void)
{
	TEEC_Operation op = {0};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 41;
	if (invoke("atomic", TA_OH_CMD_ATOMIC, &op))
		return 1;
	return check("atomic", op.params[0].value.a == 42 && op.params[0].value.b == 42);
}

static int test_uuid(void)
{
	static const char s[] = "5B9E0E40-2636-11e1-ad9e-0002a5d5c51b";
	TEEC_Operation op = {0};

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)s;
	op.params[0].tmpref.size = strlen(s);
	if (invoke("uuid", TA_OH_CMD_UUID, &op))
		return 1;
	return check("uuid", op.params[1].value.a == 0x5b9e0e40 &&
				 op.params[1].value.b == (0x2636u << 16 | 0x11e1u));
}

static int test_plain(const char *name, uint32_t cmd)
{
	TEEC_Operation op = {0};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	if (invoke(name, cmd, &op))
		return 1;
	return check(name, 1);
}

/*
 * The TA's helpers; OPTEE_HEADERS_HEAP_UNCOUNTED=1 (an AddressSanitizer
 * build of swtee, whose malloc glibc does not count) tells it so.
 */
static int test_helpers(void)
{
	const char *uncounted = getenv("OPTEE_HEADERS_HEAP_UNCOUNTED");
	TEEC_Operation op = {0};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = uncounted && !strcmp(uncounted, "1");
	if (invoke("helpers", TA_OH_CMD_HELPERS, &op))
		return 1;
	return check("helpers", 1);
}

/* TEE_Cache* succeed on the client's memref and refuse the TA's own memory. */
static int test_cache(void)
{
	char buf[256] = {0};
	TEEC_Operation op = {0};

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INOUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf;
	op.params[0].tmpref.size = sizeof(buf);
	if (invoke("cache", TA_OH_CMD_CACHE, &op))
		return 1;
	return check("cache", op.params[1].value.a == TEEC_SUCCESS &&
				  op.params[1].value.b == 0xFFFF0001 /* ACCESS_DENIED */);
}

int main(void)
{
	TEEC_UUID uuid = TA_OPTEE_HEADERS_UUID;
	TEEC_Context ctx;
	uint32_t origin = 0;
	int bad = 0;

	if (TEEC_InitializeContext(NULL, &ctx) != TEEC_SUCCESS ||
	    TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin) !=
		TEEC_SUCCESS) {
		fprintf(stderr, "FAIL: cannot open a session (origin %" PRIu32 ")\n", origin);
		return 1;
	}
	bad = test_atomic() || test_uuid() || test_plain("map_zi", TA_OH_CMD_MAP_ZI) ||
	      test_cache() || test_helpers();
	TEEC_CloseSession(&sess);
	TEEC_FinalizeContext(&ctx);
	return bad;
}
