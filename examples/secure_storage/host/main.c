/*
 * Client of the secure_storage TA: writes an object, reads it back (first
 * with a buffer too small), replaces it, reads again, deletes it and checks
 * that it is gone. Then the same object across two sessions, which proves
 * the data outlives the TA instance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <secure_storage_ta.h>

static const char obj_id[] = "swtee-example-object";

static TEEC_Result call(TEEC_Session *sess, uint32_t cmd, const void *data, size_t len,
			uint32_t data_type, size_t *out_len)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, data_type, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)obj_id;
	op.params[0].tmpref.size = strlen(obj_id);
	op.params[1].tmpref.buffer = (void *)data;
	op.params[1].tmpref.size = len;
	res = TEEC_InvokeCommand(sess, cmd, &op, &origin);
	if (out_len)
		*out_len = op.params[1].tmpref.size;
	if (res != TEEC_SUCCESS && res != TEEC_ERROR_SHORT_BUFFER &&
	    res != TEEC_ERROR_ITEM_NOT_FOUND)
		printf("command %u: 0x%08x (origin %u)\n", cmd, res, origin);
	return res;
}

static int read_back(TEEC_Session *sess, const char *want)
{
	char buf[256] = {0};
	size_t n = 0;

	if (call(sess, TA_SECURE_STORAGE_CMD_READ_RAW, buf, 4, TEEC_MEMREF_TEMP_OUTPUT, &n) !=
		TEEC_ERROR_SHORT_BUFFER ||
	    n != strlen(want)) {
		fprintf(stderr, "a 4-byte read: expected SHORT_BUFFER and %zu bytes\n",
			strlen(want));
		return -1;
	}
	if (call(sess, TA_SECURE_STORAGE_CMD_READ_RAW, buf, sizeof(buf) - 1,
		 TEEC_MEMREF_TEMP_OUTPUT, &n) ||
	    n != strlen(want) || memcmp(buf, want, n)) {
		fprintf(stderr, "read back '%s', expected '%s'\n", buf, want);
		return -1;
	}
	printf("read back: %s\n", buf);
	return 0;
}

static int open_session(TEEC_Context *ctx, TEEC_Session *sess)
{
	TEEC_UUID uuid = TA_SECURE_STORAGE_UUID;
	uint32_t origin = 0;

	if (TEEC_OpenSession(ctx, sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin) ==
	    TEEC_SUCCESS)
		return 0;
	fprintf(stderr, "TEEC_OpenSession failed (origin %u)\n", origin);
	return -1;
}

static int check(TEEC_Context *ctx)
{
	static const char first[] = "the first content";
	static const char second[] = "a second, longer content of the object";
	TEEC_Session sess;
	char buf[64];
	size_t n = 0;
	int rc = -1;

	if (open_session(ctx, &sess))
		return -1;
	if (call(&sess, TA_SECURE_STORAGE_CMD_WRITE_RAW, first, strlen(first),
		 TEEC_MEMREF_TEMP_INPUT, NULL) ||
	    read_back(&sess, first) ||
	    call(&sess, TA_SECURE_STORAGE_CMD_WRITE_RAW, second, strlen(second),
		 TEEC_MEMREF_TEMP_INPUT, NULL))
		goto out;
	TEEC_CloseSession(&sess);
	/* A new session, a new instance: the object is in storage, not in memory. */
	if (open_session(ctx, &sess))
		return -1;
	if (read_back(&sess, second) ||
	    call(&sess, TA_SECURE_STORAGE_CMD_DELETE, NULL, 0, TEEC_NONE, NULL))
		goto out;
	if (call(&sess, TA_SECURE_STORAGE_CMD_READ_RAW, buf, sizeof(buf), TEEC_MEMREF_TEMP_OUTPUT,
		 &n) != TEEC_ERROR_ITEM_NOT_FOUND) {
		fprintf(stderr, "the deleted object can still be opened\n");
		goto out;
	}
	rc = 0;
out:
	TEEC_CloseSession(&sess);
	return rc;
}

int main(void)
{
	TEEC_Context ctx;
	int rc = EXIT_FAILURE;

	if (TEEC_InitializeContext(NULL, &ctx) != TEEC_SUCCESS)
		return EXIT_FAILURE;
	if (!check(&ctx))
		rc = EXIT_SUCCESS;
	TEEC_FinalizeContext(&ctx);
	printf("secure_storage: %s\n", rc == EXIT_SUCCESS ? "OK" : "FAILED");
	return rc;
}
