/* The storage test TA from the host (st_client.h). */
#include <string.h>

#include "st_client.h"
#include "ta_storage.h"

#define STORAGE_PRIVATE 1u
#define CHUNK (1u << 20)

static TEEC_Context ctx;
static TEEC_Session sess;
static uint32_t last_origin;

static TEEC_Result invoke(uint32_t cmd, TEEC_Operation *op)
{
	last_origin = 0;
	return TEEC_InvokeCommand(&sess, cmd, op, &last_origin);
}

static TEEC_Result value(uint32_t cmd, uint32_t a, uint32_t b)
{
	TEEC_Operation op = {0};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = a;
	op.params[0].value.b = b;
	return invoke(cmd, &op);
}

TEEC_Result st_init(void)
{
	const TEEC_UUID uuid = TA_STORAGE_UUID;

	return st_init_ta(&uuid);
}

TEEC_Result st_init_ta(const TEEC_UUID *uuid)
{
	TEEC_Result res = TEEC_InitializeContext(NULL, &ctx);

	last_origin = 0;
	if (res)
		return res;
	res = TEEC_OpenSession(&ctx, &sess, uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &last_origin);
	if (res)
		TEEC_FinalizeContext(&ctx);
	return res;
}

uint32_t st_origin(void)
{
	return last_origin;
}

void st_fini(void)
{
	TEEC_CloseSession(&sess);
	TEEC_FinalizeContext(&ctx);
}

TEEC_Result st_open(const char *name, uint32_t flags, uint32_t *h)
{
	TEEC_Operation op = {0};
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT, TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)name;
	op.params[0].tmpref.size = strlen(name);
	op.params[1].value.a = flags;
	op.params[2].value.a = STORAGE_PRIVATE;
	res = invoke(TA_STORAGE_CMD_OPEN, &op);
	*h = res ? 0 : op.params[1].value.b;
	return res;
}

TEEC_Result st_close(uint32_t h)
{
	return value(TA_STORAGE_CMD_CLOSE, h, 0);
}

/* Closes h after a call, keeping that call's origin for st_origin. */
static void close_after(uint32_t h)
{
	uint32_t origin = last_origin;

	st_close(h);
	last_origin = origin;
}

TEEC_Result st_create(const char *name, const void *data, size_t len)
{
	TEEC_Operation op = {0};
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT, TEEC_VALUE_INPUT,
					 TEEC_MEMREF_TEMP_INPUT);
	op.params[0].tmpref.buffer = (void *)name;
	op.params[0].tmpref.size = strlen(name);
	op.params[1].value.a = ST_RWM | ST_OVERWRITE;
	op.params[2].value.b = STORAGE_PRIVATE;
	op.params[3].tmpref.buffer = (void *)data;
	op.params[3].tmpref.size = len;
	res = invoke(TA_STORAGE_CMD_CREATE, &op);
	return res ? res : st_close(op.params[1].value.b);
}

TEEC_Result st_write_at(const char *name, uint32_t off, const void *data, size_t len)
{
	TEEC_Operation op = {0};
	uint32_t h = 0;
	TEEC_Result res = st_open(name, ST_RWM, &h);

	if (res)
		return res;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	op.params[0].value.b = off;
	op.params[1].value.a = 0; /* TEE_DATA_SEEK_SET */
	res = invoke(TA_STORAGE_CMD_SEEK, &op);
	if (!res) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].tmpref.buffer = (void *)data;
		op.params[0].tmpref.size = len;
		op.params[1].value.a = h;
		res = invoke(TA_STORAGE_CMD_WRITE, &op);
	}
	close_after(h);
	return res;
}

TEEC_Result st_truncate(const char *name, uint32_t size)
{
	uint32_t h = 0;
	TEEC_Result res = st_open(name, ST_RWM, &h);

	if (res)
		return res;
	res = value(TA_STORAGE_CMD_TRUNC, h, size);
	close_after(h);
	return res;
}

TEEC_Result st_rename(const char *name, const char *to)
{
	TEEC_Operation op = {0};
	uint32_t h = 0;
	TEEC_Result res = st_open(name, ST_META, &h);

	if (res)
		return res;
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	op.params[1].tmpref.buffer = (void *)to;
	op.params[1].tmpref.size = strlen(to);
	res = invoke(TA_STORAGE_CMD_RENAME, &op);
	close_after(h);
	return res;
}

TEEC_Result st_delete(const char *name)
{
	uint32_t h = 0;
	TEEC_Result res = st_open(name, ST_META, &h);

	return res ? res : value(TA_STORAGE_CMD_UNLINK, h, 0);
}

TEEC_Result st_read_all(const char *name, uint8_t *buf, size_t cap, size_t *len)
{
	uint32_t h = 0;
	TEEC_Result res = st_open(name, ST_READ, &h);

	*len = 0;
	while (!res && *len < cap) {
		TEEC_Operation op = {0};

		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_VALUE_INOUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].tmpref.buffer = buf + *len;
		op.params[0].tmpref.size = cap - *len < CHUNK ? cap - *len : CHUNK;
		op.params[1].value.a = h;
		res = invoke(TA_STORAGE_CMD_READ, &op);
		if (res || !op.params[1].value.b)
			break;
		*len += op.params[1].value.b;
	}
	if (h)
		close_after(h);
	return res;
}

TEEC_Result st_count(uint32_t *n)
{
	TEEC_Operation op = {0};
	uint8_t id[64];
	uint32_t e = 0;
	TEEC_Result res = TEEC_SUCCESS;

	*n = 0;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	res = invoke(TA_STORAGE_CMD_ALLOC_ENUM, &op);
	if (res)
		return res;
	e = op.params[0].value.a;
	res = value(TA_STORAGE_CMD_START_ENUM, e, STORAGE_PRIVATE);
	while (!res) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE,
						 TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE);
		op.params[0].value.a = e;
		op.params[2].tmpref.buffer = id;
		op.params[2].tmpref.size = sizeof(id);
		res = invoke(TA_STORAGE_CMD_NEXT_ENUM, &op);
		if (!res)
			(*n)++;
	}
	value(TA_STORAGE_CMD_FREE_ENUM, e, 0);
	return res == TEEC_ERROR_ITEM_NOT_FOUND ? TEEC_SUCCESS : res;
}
