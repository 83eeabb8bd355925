/*
 * regression 6xxx: the GP Trusted Storage API through the storage test TA
 * (tests/ta/storage), each case once per storage ID: TEE_STORAGE_PRIVATE,
 * TEE_STORAGE_PRIVATE_REE and TEE_STORAGE_PRIVATE_RPMB. An ID the TEE does
 * not have (creating gives ITEM_NOT_FOUND or STORAGE_NOT_AVAILABLE) is
 * skipped, as OP-TEE's xtest does; swtee has all three.
 *
 * A GP panic ends the TA instance: the case sees TEEC_ERROR_TARGET_DEAD and
 * opens a new session.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tee_api_defines.h>
#include <tee_api_defines_extensions.h>

#include "adbg.h"
#include "ta_storage.h"
#include "xtest_helpers.h"

static const TEEC_UUID storage_uuid = TA_STORAGE_UUID;
static const TEEC_UUID storage2_uuid = TA_STORAGE2_UUID;

#define RW (TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE)
#define RWM (RW | TEE_DATA_FLAG_ACCESS_WRITE_META)
#define SHARE (TEE_DATA_FLAG_SHARE_READ | TEE_DATA_FLAG_SHARE_WRITE)

static uint8_t id_a[] = {0x00, 0x6e, 0x04, 0x57, 0x08, 0xfb, 0x71, 0x96,
			 0xf0, 0x2e, 0x55, 0x3d, 0x02, 0xc3, 0xa6, 0x92};
static uint8_t id_b[] = {0x01, 0x00};
static uint8_t id_c[] = {'s', 't', 'o', 'r', 'a', 'g', 'e', '-', 'c'};
static uint8_t id_d[] = {0x03, 0x13, 0x03};
static uint8_t data_a[32] = {0x00, 0x6e, 0x04, 0x57, 0x08, 0xfb, 0x71, 0x96, 0x00, 0x2e, 0x55,
			     0x3d, 0x02, 0xc3, 0xa6, 0x92, 0x00, 0xc3, 0xef, 0x8a, 0xb2, 0x34,
			     0x53, 0xe6, 0x00, 0x74, 0x9c, 0xd6, 0x36, 0xe7, 0xa8, 0x00};
static uint8_t data_b[32] = {0x01, 0x6e, 0x04, 0x57, 0x08, 0xfb, 0x71, 0x96, 0x01, 0x2e, 0x55,
			     0x3d, 0x02, 0xc3, 0xa6, 0x92, 0x01, 0xc3, 0xef, 0x8a, 0xb2, 0x34,
			     0x53, 0xe6, 0x01, 0x74, 0x9c, 0xd6, 0x36, 0xe7, 0xa8, 0x01};

/* ---- the TA's commands ---- */

static TEEC_Result st_open(TEEC_Session *s, const void *id, size_t len, uint32_t flags, uint32_t *h,
			   uint32_t storage)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT, TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)id;
	op.params[0].tmpref.size = len;
	op.params[1].value.a = flags;
	op.params[2].value.a = storage;
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_OPEN, &op, &orig);
	*h = res ? 0 : op.params[1].value.b;
	return res;
}

static TEEC_Result st_create_attr(TEEC_Session *s, const void *id, size_t len, uint32_t flags,
				  uint32_t attr, const void *data, size_t dlen, uint32_t *h,
				  uint32_t storage)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT, TEEC_VALUE_INPUT,
					 data ? TEEC_MEMREF_TEMP_INPUT : TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)id;
	op.params[0].tmpref.size = len;
	op.params[1].value.a = flags;
	op.params[2].value.a = attr;
	op.params[2].value.b = storage;
	op.params[3].tmpref.buffer = (void *)data;
	op.params[3].tmpref.size = dlen;
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_CREATE, &op, &orig);
	*h = res ? 0 : op.params[1].value.b;
	return res;
}

static TEEC_Result st_create(TEEC_Session *s, const void *id, size_t len, uint32_t flags,
			     const void *data, size_t dlen, uint32_t *h, uint32_t storage)
{
	return st_create_attr(s, id, len, flags, 0, data, dlen, h, storage);
}

static TEEC_Result st_create_overwrite(TEEC_Session *s, const void *id, size_t len,
				       uint32_t storage)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)id;
	op.params[0].tmpref.size = len;
	op.params[1].value.a = storage;
	return TEEC_InvokeCommand(s, TA_STORAGE_CMD_CREATE_OVERWRITE, &op, &orig);
}

static TEEC_Result st_value(TEEC_Session *s, uint32_t cmd, uint32_t a, uint32_t b)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = a;
	op.params[0].value.b = b;
	return TEEC_InvokeCommand(s, cmd, &op, &orig);
}

static TEEC_Result st_close(TEEC_Session *s, uint32_t h)
{
	return st_value(s, TA_STORAGE_CMD_CLOSE, h, 0);
}

static TEEC_Result st_unlink(TEEC_Session *s, uint32_t h)
{
	return st_value(s, TA_STORAGE_CMD_UNLINK, h, 0);
}

static TEEC_Result st_trunc(TEEC_Session *s, uint32_t h, uint32_t size)
{
	return st_value(s, TA_STORAGE_CMD_TRUNC, h, size);
}

static TEEC_Result st_read(TEEC_Session *s, uint32_t h, void *buf, size_t len, uint32_t *count)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf;
	op.params[0].tmpref.size = len;
	op.params[1].value.a = h;
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_READ, &op, &orig);
	*count = op.params[1].value.b;
	return res;
}

static TEEC_Result st_write(TEEC_Session *s, uint32_t h, const void *buf, size_t len)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)buf;
	op.params[0].tmpref.size = len;
	op.params[1].value.a = h;
	return TEEC_InvokeCommand(s, TA_STORAGE_CMD_WRITE, &op, &orig);
}

static TEEC_Result st_seek(TEEC_Session *s, uint32_t h, int32_t off, uint32_t whence, uint32_t *pos)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	op.params[0].value.b = (uint32_t)off;
	op.params[1].value.a = whence;
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_SEEK, &op, &orig);
	if (pos)
		*pos = op.params[1].value.b;
	return res;
}

static TEEC_Result st_rename(TEEC_Session *s, uint32_t h, const void *id, size_t len)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	op.params[1].tmpref.buffer = (void *)id;
	op.params[1].tmpref.size = len;
	return TEEC_InvokeCommand(s, TA_STORAGE_CMD_RENAME, &op, &orig);
}

static TEEC_Result st_alloc_enum(TEEC_Session *s, uint32_t *e)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_ALLOC_ENUM, &op, &orig);
	*e = op.params[0].value.a;
	return res;
}

static TEEC_Result st_next_enum(TEEC_Session *s, uint32_t e, struct ta_storage_obj_info *info,
				void *id, size_t *len)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint8_t raw[64];
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, info ? TEEC_MEMREF_TEMP_OUTPUT : TEEC_NONE,
			     TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE);
	op.params[0].value.a = e;
	op.params[1].tmpref.buffer = raw;
	op.params[1].tmpref.size = sizeof(raw);
	op.params[2].tmpref.buffer = id;
	op.params[2].tmpref.size = *len;
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_NEXT_ENUM, &op, &orig);
	*len = op.params[2].tmpref.size;
	if (!res && info) {
		/* TEE_ObjectInfo of the TA: seven fields, dataSize and dataPosition size_t. */
		uint32_t v[4];
		size_t sz[2];
		uint32_t flags = 0;

		memcpy(v, raw, sizeof(v));
		memcpy(sz, raw + 16, sizeof(sz));
		memcpy(&flags, raw + 16 + sizeof(sz), sizeof(flags));
		info->object_type = v[0];
		info->object_size = v[1];
		info->max_object_size = v[2];
		info->object_usage = v[3];
		info->data_size = (uint32_t)sz[0];
		info->data_position = (uint32_t)sz[1];
		info->handle_flags = flags;
	}
	return res;
}

static TEEC_Result st_info(TEEC_Session *s, uint32_t h, struct ta_storage_obj_info *info)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	op.params[1].tmpref.buffer = info;
	op.params[1].tmpref.size = sizeof(*info);
	return TEEC_InvokeCommand(s, TA_STORAGE_CMD_GET_OBJ_INFO, &op, &orig);
}

static TEEC_Result st_alloc_obj(TEEC_Session *s, uint32_t type, uint32_t max, uint32_t *h)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = type;
	op.params[0].value.b = max;
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_ALLOC_OBJ, &op, &orig);
	*h = op.params[1].value.a;
	return res;
}

/* Writes or checks size bytes of the pattern of seed, from the position on. */
static TEEC_Result st_pattern(TEEC_Session *s, bool check, uint32_t h, uint32_t seed, uint32_t size,
			      uint32_t chunk, uint32_t *bad)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(
	    TEEC_VALUE_INPUT, check ? TEEC_VALUE_INOUT : TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	op.params[0].value.b = seed;
	op.params[1].value.a = size;
	op.params[1].value.b = chunk;
	res = TEEC_InvokeCommand(s, check ? TA_STORAGE_CMD_CHECK : TA_STORAGE_CMD_FILL, &op, &orig);
	if (check && bad)
		*bad = op.params[1].value.a != size ? op.params[1].value.a : op.params[1].value.b;
	return res;
}

static bool sess_open(ADBG_Case_t *c, TEEC_Session *s)
{
	uint32_t orig = 0;

	return ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(s, &storage_uuid, NULL, &orig));
}

/* A call that must panic the TA: TARGET_DEAD, then a new session. */
static bool expect_panic(ADBG_Case_t *c, TEEC_Session *s, TEEC_Result res)
{
	bool ok = ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD, res);

	TEEC_CloseSession(s);
	return sess_open(c, s) && ok;
}

/* ---- storage IDs ---- */

static const uint32_t storage_ids[] = {TEE_STORAGE_PRIVATE, TEE_STORAGE_PRIVATE_REE,
				       TEE_STORAGE_PRIVATE_RPMB};

static bool storage_available(uint32_t id)
{
	static const uint8_t probe[] = "xtest-storage-probe";
	TEEC_Session s = {0};
	uint32_t orig = 0;
	uint32_t h = 0;
	TEEC_Result res = TEEC_SUCCESS;

	if (xtest_teec_open_session(&s, &storage_uuid, NULL, &orig))
		return false;
	res = st_create(&s, probe, sizeof(probe), RWM | TEE_DATA_FLAG_OVERWRITE, NULL, 0, &h, id);
	if (!res)
		st_unlink(&s, h);
	TEEC_CloseSession(&s);
	return res == TEEC_SUCCESS;
}

static void for_each_storage(ADBG_Case_t *c, void (*fn)(ADBG_Case_t *c, uint32_t storage))
{
	for (size_t i = 0; i < sizeof(storage_ids) / sizeof(storage_ids[0]); i++) {
		uint32_t id = storage_ids[i];

		/* OP-TEE's xtest skips an ID a TEE lacks; swtee has all three. */
		if (!ADBG_EXPECT_TRUE(c, storage_available(id))) {
			Do_ADBG_Log("    storage id %08x: not available", id);
			continue;
		}
		Do_ADBG_BeginSubCase(c, "Storage id: %08x", id);
		fn(c, id);
		Do_ADBG_EndSubCase(c, "Storage id: %08x", id);
	}
}

#define STORAGE_CASE(num, title)                                                                   \
	static void xtest_tee_test_##num(ADBG_Case_t *c)                                           \
	{                                                                                          \
		for_each_storage(c, test_##num);                                                   \
	}                                                                                          \
	ADBG_CASE_DEFINE(regression, num, xtest_tee_test_##num, title)

/* Removes id if it is there (an earlier failed run may have left it). */
static void scrub(TEEC_Session *s, const void *id, size_t len, uint32_t storage)
{
	uint32_t h = 0;

	if (!st_open(s, id, len, TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage))
		st_unlink(s, h);
}

/* ---- the cases ---- */

static void test_6001(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint8_t long_id[65];
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_create(&s, id_a, sizeof(id_a),
			     TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_ACCESS_WRITE_META, data_a,
			     sizeof(data_a), &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	/* A zero-length ID, with and without a buffer, is an ID like any other. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_a, 0, TEE_DATA_FLAG_ACCESS_WRITE_META,
						  data_a, sizeof(data_a), &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, NULL, 0, TEE_DATA_FLAG_ACCESS_WRITE_META,
						  data_a, sizeof(data_a), &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	/* 64 bytes is the longest ID; 65 is a programming error. */
	memset(long_id, 'x', sizeof(long_id));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, long_id, 64, TEE_DATA_FLAG_ACCESS_WRITE_META,
						  NULL, 0, &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	expect_panic(
	    c, &s,
	    st_create(&s, long_id, 65, TEE_DATA_FLAG_ACCESS_WRITE_META, NULL, 0, &h, storage));
	/* Unknown flags are a programming error too. */
	expect_panic(c, &s, st_create(&s, id_a, sizeof(id_a), 0x8000, NULL, 0, &h, storage));
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6001, "Test TEE_CreatePersistentObject");

static void test_6002(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	scrub(&s, id_b, sizeof(id_b), storage);
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_ITEM_NOT_FOUND,
	    st_open(&s, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_READ, &h, storage));
	if (!ADBG_EXPECT_TEEC_SUCCESS(c,
				      st_create(&s, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_WRITE,
						data_a, sizeof(data_a), &h, storage)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	/* The same with the empty ID. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, NULL, 0, TEE_DATA_FLAG_ACCESS_WRITE, data_a,
						  sizeof(data_a), &h, storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, st_open(&s, NULL, 0, TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage)))
			ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	}
	/* An unknown storage ID holds nothing. */
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_ITEM_NOT_FOUND,
	    st_open(&s, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_READ, &h, 0x12345678));
out:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6002, "Test TEE_OpenPersistentObject");

static void test_6003(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint8_t out[64];
	uint32_t count = 0;
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	scrub(&s, id_c, sizeof(id_c), storage);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c,
				      st_create(&s, id_c, sizeof(id_c), TEE_DATA_FLAG_ACCESS_WRITE,
						data_b, sizeof(data_b), &h, storage)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c,
		st_open(&s, id_c, sizeof(id_c),
			TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage)))
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, 10, &count)))
		ADBG_EXPECT_BUFFER(c, data_b, 10, out, count);
	/* The rest, then nothing: a read at the end gives 0 bytes. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
		ADBG_EXPECT_BUFFER(c, data_b + 10, sizeof(data_b) - 10, out, count);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
		ADBG_EXPECT(c, 0, count);
	/* Reading needs ACCESS_READ. */
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id_c, sizeof(id_c), TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage)))
		expect_panic(c, &s, st_read(&s, h, out, 10, &count));
	scrub(&s, id_c, sizeof(id_c), storage);
out:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6003, "Test TEE_ReadObjectData");

static void test_6004(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint8_t out[64];
	uint32_t count = 0;
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	scrub(&s, id_c, sizeof(id_c), storage);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c,
				      st_create(&s, id_c, sizeof(id_c), TEE_DATA_FLAG_ACCESS_WRITE,
						data_b, sizeof(data_b), &h, storage)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id_c, sizeof(id_c), TEE_DATA_FLAG_ACCESS_WRITE, &h, storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, data_a, sizeof(data_a)));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	}
	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c,
		st_open(&s, id_c, sizeof(id_c),
			TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage)))
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
		ADBG_EXPECT_BUFFER(c, data_a, sizeof(data_a), out, count);
	/* Writing needs ACCESS_WRITE. */
	expect_panic(c, &s, st_write(&s, h, data_a, 4));
	scrub(&s, id_c, sizeof(id_c), storage);
out:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6004, "Test TEE_WriteObjectData");

static void test_6005(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint8_t out[32];
	uint32_t count = 0;
	uint32_t pos = 0;
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						   RWM | TEE_DATA_FLAG_OVERWRITE, data_a,
						   sizeof(data_a), &h, storage)))
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 10, TEE_DATA_SEEK_SET, &pos)) &&
	    ADBG_EXPECT(c, 10, pos) && ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, 10, &count)))
		ADBG_EXPECT_BUFFER(c, data_a + 10, 10, out, count);
	ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, -5, TEE_DATA_SEEK_CUR, &pos));
	ADBG_EXPECT(c, 15, pos);
	ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, -2, TEE_DATA_SEEK_END, &pos));
	ADBG_EXPECT(c, 30, pos);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
		ADBG_EXPECT_BUFFER(c, data_a + 30, 2, out, count);
	/* Before the start is the start. */
	ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, -100, TEE_DATA_SEEK_CUR, &pos));
	ADBG_EXPECT(c, 0, pos);
	/* Past the end is fine, a read there gives nothing. */
	ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 1000, TEE_DATA_SEEK_END, &pos));
	ADBG_EXPECT(c, 1032, pos);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
		ADBG_EXPECT(c, 0, count);
	/* Up to TEE_DATA_MAX_POSITION, and not one past. */
	ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, INT32_MAX, TEE_DATA_SEEK_SET, &pos));
	ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, INT32_MAX, TEE_DATA_SEEK_CUR, &pos));
	ADBG_EXPECT(c, 0xfffffffe, pos);
	ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 1, TEE_DATA_SEEK_CUR, &pos));
	ADBG_EXPECT(c, TEE_DATA_MAX_POSITION, pos);
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_OVERFLOW, st_seek(&s, h, 1, TEE_DATA_SEEK_CUR, &pos));
	ADBG_EXPECT(c, TEE_DATA_MAX_POSITION, pos);
	/* A write there would go past it. */
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_OVERFLOW, st_write(&s, h, data_a, 1));
	ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, -1, TEE_DATA_SEEK_CUR, &pos));
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_OVERFLOW, st_write(&s, h, data_a, 2));
	/* A bad whence is a programming error. */
	expect_panic(c, &s, st_seek(&s, h, 0, 7, &pos));
	scrub(&s, id_b, sizeof(id_b), storage);
out:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6005, "Test TEE_SeekObjectData");

static void test_6006(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_create(&s, id_b, sizeof(id_b),
			     TEE_DATA_FLAG_ACCESS_WRITE_META | TEE_DATA_FLAG_OVERWRITE, data_a,
			     sizeof(data_a), &h, storage)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h)))
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_ITEM_NOT_FOUND,
		    st_open(&s, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_READ, &h, storage));
	/* TEE_HANDLE_NULL is nothing to delete. */
	ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, 0));
	/* Deleting needs ACCESS_WRITE_META. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_READ,
						  NULL, 0, &h, storage)))
		expect_panic(c, &s, st_unlink(&s, h));
	scrub(&s, id_b, sizeof(id_b), storage);
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6006, "Test TEE_CloseAndDeletePersistentObject");

static void test_6007(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint8_t out[64];
	uint8_t expect[64];
	uint32_t count = 0;
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "Truncate");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						  RWM | TEE_DATA_FLAG_OVERWRITE, data_a,
						  sizeof(data_a), &h, storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, 10));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 5, TEE_DATA_SEEK_SET, NULL));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, 10, &count)))
			ADBG_EXPECT_BUFFER(c, data_a + 5, 5, out, count);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     st_open(&s, id_b, sizeof(id_b), RWM, &h, storage))) {
			ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 5, TEE_DATA_SEEK_SET, NULL));
			if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, 10, &count)))
				ADBG_EXPECT_BUFFER(c, data_a + 5, 5, out, count);
			ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
		}
	}
	Do_ADBG_EndSubCase(c, "Truncate");

	Do_ADBG_BeginSubCase(c, "Extend");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						  RWM | TEE_DATA_FLAG_OVERWRITE, data_a,
						  sizeof(data_a), &h, storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, 40));
		memset(expect, 0, sizeof(expect));
		memcpy(expect, data_a + 30, 2);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     st_open(&s, id_b, sizeof(id_b), RWM, &h, storage))) {
			ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 30, TEE_DATA_SEEK_SET, NULL));
			if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
				ADBG_EXPECT_BUFFER(c, expect, 10, out, count);
			ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
		}
	}
	Do_ADBG_EndSubCase(c, "Extend");

	Do_ADBG_BeginSubCase(c, "Hole");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						  RWM | TEE_DATA_FLAG_OVERWRITE, data_a,
						  sizeof(data_a), &h, storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 80, TEE_DATA_SEEK_SET, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, data_a, sizeof(data_a)));
		memset(expect, 0, sizeof(expect));
		memcpy(expect + 6, data_a, 4);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
		if (ADBG_EXPECT_TEEC_SUCCESS(c,
					     st_open(&s, id_b, sizeof(id_b), RWM, &h, storage))) {
			ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 74, TEE_DATA_SEEK_SET, NULL));
			if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, 10, &count)))
				ADBG_EXPECT_BUFFER(c, expect, 10, out, count);
			ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
		}
	}
	Do_ADBG_EndSubCase(c, "Hole");

	Do_ADBG_BeginSubCase(c, "Across blocks");
	/* Shrinking and growing over block and map page boundaries. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						  RWM | TEE_DATA_FLAG_OVERWRITE, NULL, 0, &h,
						  storage))) {
		uint32_t bad = 0;

		ADBG_EXPECT_TEEC_SUCCESS(c, st_pattern(&s, false, h, 7, 600000, 65536, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, 5000));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, 700000));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 0, TEE_DATA_SEEK_SET, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_pattern(&s, true, h, 7, 5000, 4096, &bad));
		ADBG_EXPECT(c, 0xffffffff, bad);
		memset(expect, 0, sizeof(expect));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 699990, TEE_DATA_SEEK_SET, NULL));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
			ADBG_EXPECT_BUFFER(c, expect, 10, out, count);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, 0));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 0, TEE_DATA_SEEK_SET, NULL));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
			ADBG_EXPECT(c, 0, count);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	}
	Do_ADBG_EndSubCase(c, "Across blocks");
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6007, "Test TEE_TruncateObjectData");

static void test_6008(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint8_t out[32];
	uint32_t count = 0;
	uint32_t h = 0;
	uint32_t h2 = 0;

	if (!sess_open(c, &s))
		return;
	scrub(&s, id_c, sizeof(id_c), storage);
	scrub(&s, id_d, sizeof(id_d), storage);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c,
				      st_create(&s, id_c, sizeof(id_c), TEE_DATA_FLAG_ACCESS_WRITE,
						data_b, sizeof(data_b), &h, storage)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c,
		st_open(&s, id_c, sizeof(id_c),
			TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, data_a, sizeof(data_a)));
	ADBG_EXPECT_TEEC_SUCCESS(c, st_rename(&s, h, id_d, sizeof(id_d)));
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_ITEM_NOT_FOUND,
	    st_open(&s, id_c, sizeof(id_c), TEE_DATA_FLAG_ACCESS_READ, &h, storage));
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id_d, sizeof(id_d),
			   TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META, &h,
			   storage))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
			ADBG_EXPECT_BUFFER(c, data_a, sizeof(data_a), out, count);
		/* To the empty ID and back. */
		ADBG_EXPECT_TEEC_SUCCESS(c, st_rename(&s, h, NULL, 0));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s, NULL, 0, RWM, &h, storage))) {
			ADBG_EXPECT_TEEC_SUCCESS(c, st_rename(&s, h, id_d, sizeof(id_d)));
			/* The name of another object is taken. */
			if (ADBG_EXPECT_TEEC_SUCCESS(
				c, st_create(&s, id_c, sizeof(id_c), RWM, NULL, 0, &h2, storage))) {
				ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_CONFLICT,
							st_rename(&s, h, id_c, sizeof(id_c)));
				ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h2));
			}
			/* Renaming needs ACCESS_WRITE_META. */
			ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
			if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s, id_d, sizeof(id_d),
								TEE_DATA_FLAG_ACCESS_READ, &h,
								storage)))
				expect_panic(c, &s, st_rename(&s, h, id_b, sizeof(id_b)));
		}
	}
	scrub(&s, id_d, sizeof(id_d), storage);
out:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6008, "Test TEE_RenamePersistentObject");

static void test_6009(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	const uint8_t *ids[3] = {id_a, id_b, id_d};
	const size_t lens[3] = {sizeof(id_a), sizeof(id_b), sizeof(id_d)};
	struct ta_storage_obj_info info;
	uint8_t id[64];
	bool seen[3] = {false, false, false};
	uint32_t h = 0;
	uint32_t e = 0;
	size_t n = 0;

	if (!sess_open(c, &s))
		return;
	for (int i = 0; i < 3; i++) {
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, st_create(&s, ids[i], lens[i],
				     TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_OVERWRITE, data_b,
				     sizeof(data_b) - (size_t)i, &h, storage)))
			ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	}
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_alloc_enum(&s, &e)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_START_ENUM, e, storage));
	for (int k = 0; k < 3; k++) {
		n = sizeof(id);
		if (!ADBG_EXPECT_TEEC_SUCCESS(c,
					      st_next_enum(&s, e, k == 1 ? NULL : &info, id, &n)))
			break;
		for (int i = 0; i < 3; i++) {
			if (n != lens[i] || memcmp(id, ids[i], n))
				continue;
			ADBG_EXPECT_BOOLEAN(c, false, seen[i]);
			seen[i] = true;
			if (k != 1) {
				ADBG_EXPECT(c, sizeof(data_b) - (size_t)i, info.data_size);
				ADBG_EXPECT(c, TEE_TYPE_DATA, info.object_type);
			}
		}
	}
	for (int i = 0; i < 3; i++)
		ADBG_EXPECT_BOOLEAN(c, true, seen[i]);
	n = sizeof(id);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND, st_next_enum(&s, e, &info, id, &n));
	/* Reset and started again: the same three once more. */
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_RESET_ENUM, e, 0));
	n = sizeof(id);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND, st_next_enum(&s, e, NULL, id, &n));
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_START_ENUM, e, storage));
	for (int k = 0; k < 3; k++) {
		n = sizeof(id);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_next_enum(&s, e, NULL, id, &n));
	}
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_FREE_ENUM, e, 0));
out:
	for (int i = 0; i < 3; i++)
		scrub(&s, ids[i], lens[i], storage);
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6009, "Test TEE Internal API Persistent Object Enumeration Functions");

/* Whether a second handle may join a first one, as GP's sharing rules say. */
static bool may_share(uint32_t a, uint32_t b)
{
	if ((a | b) & TEE_DATA_FLAG_ACCESS_WRITE_META)
		return false;
	if (((a | b) & TEE_DATA_FLAG_ACCESS_READ) &&
	    !((a & TEE_DATA_FLAG_SHARE_READ) && (b & TEE_DATA_FLAG_SHARE_READ)))
		return false;
	if (((a | b) & TEE_DATA_FLAG_ACCESS_WRITE) &&
	    !((a & TEE_DATA_FLAG_SHARE_WRITE) && (b & TEE_DATA_FLAG_SHARE_WRITE)))
		return false;
	return true;
}

static void test_6010(ADBG_Case_t *c, uint32_t storage)
{
	static const uint32_t flag_sets[] = {
	    0,
	    TEE_DATA_FLAG_ACCESS_READ,
	    TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_SHARE_READ,
	    TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_SHARE_WRITE,
	    RW | SHARE,
	    TEE_DATA_FLAG_ACCESS_WRITE_META,
	    TEE_DATA_FLAG_SHARE_READ,
	    SHARE,
	};
	const uint32_t f = RWM | SHARE | TEE_DATA_FLAG_OVERWRITE;
	TEEC_Session s = {0};
	uint8_t data[1024];
	uint8_t out[1024];
	uint32_t o1 = 0;
	uint32_t o2 = 0;
	uint32_t e = 0;
	uint32_t n = 0;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)i;
	if (!sess_open(c, &s))
		return;

	Do_ADBG_BeginSubCase(c, "CreatePersistentObject AccessConflict");
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_create(&s, id_a, sizeof(id_a), f, data, sizeof(data), &o1, storage))) {
		/* Open, so even OVERWRITE may not replace it. */
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_ACCESS_CONFLICT,
		    st_create(&s, id_a, sizeof(id_a), RW, data, sizeof(data), &o2, storage));
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_ACCESS_CONFLICT,
		    st_create(&s, id_a, sizeof(id_a), f, data, sizeof(data), &o2, storage));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, o1));
	}
	Do_ADBG_EndSubCase(c, "CreatePersistentObject AccessConflict");

	Do_ADBG_BeginSubCase(c, "Sharing rules");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_a, sizeof(id_a), TEE_DATA_FLAG_OVERWRITE,
						  data, 16, &o1, storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, o1));
		for (size_t i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
			if (!ADBG_EXPECT_TEEC_SUCCESS(
				c, st_open(&s, id_a, sizeof(id_a), flag_sets[i], &o1, storage)))
				continue;
			for (size_t j = 0; j < sizeof(flag_sets) / sizeof(flag_sets[0]); j++) {
				TEEC_Result res =
				    st_open(&s, id_a, sizeof(id_a), flag_sets[j], &o2, storage);

				if (!ADBG_EXPECT_TEEC_RESULT(c,
							     may_share(flag_sets[i], flag_sets[j])
								 ? TEEC_SUCCESS
								 : TEEC_ERROR_ACCESS_CONFLICT,
							     res))
					Do_ADBG_Log("    flags %#x then %#x", flag_sets[i],
						    flag_sets[j]);
				if (!res)
					st_close(&s, o2);
			}
			st_close(&s, o1);
		}
		scrub(&s, id_a, sizeof(id_a), storage);
	}
	Do_ADBG_EndSubCase(c, "Sharing rules");

	Do_ADBG_BeginSubCase(c, "Two writers, one object");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_a, sizeof(id_a),
						  RW | SHARE | TEE_DATA_FLAG_OVERWRITE, data, 100,
						  &o1, storage)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c,
				     st_open(&s, id_a, sizeof(id_a), RW | SHARE, &o2, storage))) {
		struct ta_storage_obj_info info;

		/* What one handle writes, the other sees at once, size included. */
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, o2, 0, TEE_DATA_SEEK_END, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, o2, data + 100, 28));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_info(&s, o1, &info)))
			ADBG_EXPECT(c, 128, info.data_size);
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, o1, out, sizeof(out), &n)))
			ADBG_EXPECT_BUFFER(c, data, 128, out, n);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, o2));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, o1));
	}
	scrub(&s, id_a, sizeof(id_a), storage);
	Do_ADBG_EndSubCase(c, "Two writers, one object");

	Do_ADBG_BeginSubCase(c, "RestrictObjectUsage Panic");
	expect_panic(c, &s, st_value(&s, TA_STORAGE_CMD_RESTRICT_USAGE, 0xffffbad0, 0xffffffff));
	Do_ADBG_EndSubCase(c, "RestrictObjectUsage Panic");

	Do_ADBG_BeginSubCase(c, "SeekObjectData BadHandle");
	expect_panic(c, &s, st_seek(&s, 0xffffbad0, 5, TEE_DATA_SEEK_SET, NULL));
	Do_ADBG_EndSubCase(c, "SeekObjectData BadHandle");

	Do_ADBG_BeginSubCase(c, "SeekObjectData NotPersist");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_alloc_obj(&s, TEE_TYPE_AES, 256, &o1)))
		expect_panic(c, &s, st_seek(&s, o1, 5, TEE_DATA_SEEK_SET, NULL));
	Do_ADBG_EndSubCase(c, "SeekObjectData NotPersist");

	Do_ADBG_BeginSubCase(c, "SeekWriteRead");
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_create(&s, id_a, sizeof(id_a), f, data, sizeof(data), &o1, storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, o1, 2, TEE_DATA_SEEK_SET, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, o1, 0, TEE_DATA_SEEK_END, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, o1, data, sizeof(data)));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, o1, sizeof(data), TEE_DATA_SEEK_SET, NULL));
		memset(out, 0xab, sizeof(out));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, o1, out, sizeof(out), &n)))
			ADBG_EXPECT_BUFFER(c, data, sizeof(data), out, n);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, o1, 10, TEE_DATA_SEEK_END, NULL));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, o1, out, sizeof(out), &n)))
			ADBG_EXPECT(c, 0, n);
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, st_seek(&s, o1, -(int32_t)sizeof(data) / 2, TEE_DATA_SEEK_END, NULL));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, o1, out, sizeof(out) / 2, &n)))
			ADBG_EXPECT_BUFFER(c, data + sizeof(data) / 2, sizeof(data) / 2, out, n);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, o1));
	}
	Do_ADBG_EndSubCase(c, "SeekWriteRead");

	Do_ADBG_BeginSubCase(c, "Rename Access Conflict");
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_create(&s, id_a, sizeof(id_a), f, data, sizeof(data), &o1, storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, o1));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b), f, data,
							  sizeof(data) / 2, &o2, storage))) {
			ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_CONFLICT,
						st_rename(&s, o2, id_a, sizeof(id_a)));
			ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, o2));
		}
		scrub(&s, id_a, sizeof(id_a), storage);
	}
	Do_ADBG_EndSubCase(c, "Rename Access Conflict");

	Do_ADBG_BeginSubCase(c, "Enumerator alloc, reset, start on nothing");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_alloc_enum(&s, &e))) {
		size_t len = sizeof(out);

		ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_RESET_ENUM, e, 0));
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
					st_next_enum(&s, e, NULL, out, &len));
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
					st_value(&s, TA_STORAGE_CMD_START_ENUM, e, storage));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_FREE_ENUM, e, 0));
	}
	Do_ADBG_EndSubCase(c, "Enumerator alloc, reset, start on nothing");

	Do_ADBG_BeginSubCase(c, "Close Free Reset Null");
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, 0));
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_FREE_OBJ, 0, 0));
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_RESET_OBJ, 0, 0));
	Do_ADBG_EndSubCase(c, "Close Free Reset Null");
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6010, "Test Storage");

static void test_6012(ADBG_Case_t *c, uint32_t storage)
{
	static const uint8_t id[] = {0x00, 0x01, 0x02};
	TEEC_Session s = {0};
	uint8_t out[16];
	uint32_t count = 0;
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_create_overwrite(&s, id, sizeof(id), storage));
	TEEC_CloseSession(&s);
	if (!sess_open(c, &s))
		return;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_create_overwrite(&s, id, sizeof(id), storage));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id, sizeof(id),
						  TEE_DATA_FLAG_ACCESS_WRITE |
						      TEE_DATA_FLAG_ACCESS_WRITE_META |
						      TEE_DATA_FLAG_OVERWRITE,
						  data_a, 8, &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	TEEC_CloseSession(&s);
	if (!sess_open(c, &s))
		return;
	/* Without OVERWRITE: refused, and the object is as it was. */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_CONFLICT,
				st_create(&s, id, sizeof(id), TEE_DATA_FLAG_ACCESS_WRITE_META,
					  data_b, 16, &h, storage));
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id, sizeof(id),
			   TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META, &h,
			   storage))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
			ADBG_EXPECT_BUFFER(c, data_a, 8, out, count);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	}
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6012, "Test TEE GP TTA DS init objects");

static void test_6013(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};

	if (!sess_open(c, &s))
		return;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_KEY_IN_PERSISTENT, storage, 0));
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6013, "Key usage in Persistent objects");

static void test_6014(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};

	if (!sess_open(c, &s))
		return;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_LOOP, storage, 0));
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6014, "Loop on Persistent objects");

static void test_6015(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	TEEC_Session s2 = {0};
	uint8_t id[64];
	size_t n = sizeof(id);
	uint32_t orig = 0;
	uint32_t h = 0;
	uint32_t h2 = 0;
	uint32_t e = 0;

	if (!sess_open(c, &s))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &storage2_uuid, NULL, &orig)))
		goto out2;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						   RWM | TEE_DATA_FLAG_OVERWRITE, data_a,
						   sizeof(data_a), &h, storage)))
		goto out;
	/* The other TA can neither open it, nor see it, nor delete it by creating over it. */
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_ITEM_NOT_FOUND,
	    st_open(&s2, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_READ, &h2, storage));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_alloc_enum(&s2, &e))) {
		TEEC_Result res = st_value(&s2, TA_STORAGE_CMD_START_ENUM, e, storage);

		if (!res) {
			while (!st_next_enum(&s2, e, NULL, id, &n)) {
				ADBG_EXPECT_TRUE(c, n != sizeof(id_b) || memcmp(id, id_b, n) != 0);
				n = sizeof(id);
			}
		} else {
			ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND, res);
		}
		st_value(&s2, TA_STORAGE_CMD_FREE_ENUM, e, 0);
	}
	ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
out:
	TEEC_CloseSession(&s2);
out2:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6015, "Storage isolation");

struct thread_arg {
	ADBG_Case_t *c;
	uint32_t storage;
	char name[16];
	const TEEC_UUID *uuid;
	int loops;
};

static void *thread_6016(void *p)
{
	struct thread_arg *a = p;
	TEEC_Session s = {0};
	uint8_t out[64];
	uint32_t orig = 0;
	uint32_t count = 0;
	uint32_t h = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(a->c, xtest_teec_open_session(&s, a->uuid, NULL, &orig)))
		return NULL;
	for (int i = 0; i < a->loops; i++) {
		uint32_t bad = 0;

		if (!ADBG_EXPECT_TEEC_SUCCESS(
			a->c, st_create(&s, a->name, sizeof(a->name),
					TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_OVERWRITE,
					data_b, sizeof(data_b), &h, a->storage)))
			break;
		ADBG_EXPECT_TEEC_SUCCESS(a->c, st_close(&s, h));
		if (!ADBG_EXPECT_TEEC_SUCCESS(a->c,
					      st_open(&s, a->name, sizeof(a->name),
						      TEE_DATA_FLAG_ACCESS_WRITE, &h, a->storage)))
			break;
		ADBG_EXPECT_TEEC_SUCCESS(a->c, st_write(&s, h, data_a, sizeof(data_a)));
		ADBG_EXPECT_TEEC_SUCCESS(a->c,
					 st_pattern(&s, false, h, (uint32_t)i, 20000, 3000, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(a->c, st_close(&s, h));
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			a->c, st_open(&s, a->name, sizeof(a->name),
				      TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META,
				      &h, a->storage)))
			break;
		if (ADBG_EXPECT_TEEC_SUCCESS(a->c, st_read(&s, h, out, sizeof(data_a), &count)))
			ADBG_EXPECT_BUFFER(a->c, data_a, sizeof(data_a), out, count);
		ADBG_EXPECT_TEEC_SUCCESS(a->c,
					 st_pattern(&s, true, h, (uint32_t)i, 20000, 4096, &bad));
		ADBG_EXPECT(a->c, 0xffffffff, bad);
		ADBG_EXPECT_TEEC_SUCCESS(a->c, st_unlink(&s, h));
	}
	TEEC_CloseSession(&s);
	return NULL;
}

#define THREADS_6016 4

static void test_6016(ADBG_Case_t *c, uint32_t storage)
{
	struct thread_arg arg[THREADS_6016];
	pthread_t t[THREADS_6016];
	size_t started = 0;

	/* Two TAs at once, two sessions (instances) of each. */
	Do_ADBG_Log("    threads: %d, loops: %d", THREADS_6016, 8);
	for (size_t i = 0; i < THREADS_6016; i++) {
		arg[i].c = c;
		arg[i].storage = storage;
		arg[i].uuid = i % 2 ? &storage2_uuid : &storage_uuid;
		arg[i].loops = 8;
		snprintf(arg[i].name, sizeof(arg[i].name), "file_%zu", i);
		if (!ADBG_EXPECT(c, 0, pthread_create(&t[i], NULL, thread_6016, &arg[i])))
			break;
		started++;
	}
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
}
STORAGE_CASE(6016, "Storage concurrency");

static void test_6017(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	struct ta_storage_obj_info i1;
	struct ta_storage_obj_info i2;
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c, st_create(&s, id_b, sizeof(id_b),
			     TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_OVERWRITE, NULL, 0, &h,
			     storage)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, data_a, sizeof(data_a)));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_info(&s, h, &i1))) {
		ADBG_EXPECT(c, sizeof(data_a), i1.data_size);
		ADBG_EXPECT(c, sizeof(data_a), i1.data_position);
		ADBG_EXPECT(c, TEE_TYPE_DATA, i1.object_type);
		ADBG_EXPECT(c,
			    TEE_HANDLE_FLAG_PERSISTENT | TEE_HANDLE_FLAG_INITIALIZED |
				TEE_DATA_FLAG_ACCESS_WRITE,
			    i1.handle_flags);
	}
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id_b, sizeof(id_b), TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_info(&s, h, &i2))) {
			ADBG_EXPECT(c, i1.data_size, i2.data_size);
			ADBG_EXPECT(c, 0, i2.data_position);
			ADBG_EXPECT(c, 0xffffffff, i2.object_usage);
		}
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	}
out:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6017, "Test Persistent objects info");

static void test_6018(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	struct ta_storage_obj_info info;
	uint8_t *block = calloc(1, 32 * 1024);
	uint8_t *back = calloc(1, 32 * 1024);
	const size_t nblocks = 20;
	const size_t bsize = 32 * 1024;
	uint32_t count = 0;
	uint32_t bad = 0;
	uint32_t h = 0;

	if (!ADBG_EXPECT_NOT_NULL(c, block) || !ADBG_EXPECT_NOT_NULL(c, back) || !sess_open(c, &s))
		goto done;
	Do_ADBG_BeginSubCase(c, "20 writes of 32 KiB");
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     st_create(&s, id_b, sizeof(id_b),
					       TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_OVERWRITE,
					       NULL, 0, &h, storage))) {
		for (size_t n = 0; n < nblocks; n++) {
			memset(block, (int)n, bsize);
			if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, block, bsize)))
				break;
		}
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_info(&s, h, &info)))
			ADBG_EXPECT(c, nblocks * bsize, info.data_size);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id_b, sizeof(id_b),
			   TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE_META, &h,
			   storage))) {
		for (size_t n = 0; n < nblocks; n++) {
			memset(block, (int)n, bsize);
			if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, back, bsize, &count)) ||
			    !ADBG_EXPECT_BUFFER(c, block, bsize, back, count))
				break;
		}
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	}
	Do_ADBG_EndSubCase(c, "20 writes of 32 KiB");

	Do_ADBG_BeginSubCase(c, "24 MiB in 1 MiB writes, three map levels' worth");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						  RWM | TEE_DATA_FLAG_OVERWRITE, NULL, 0, &h,
						  storage))) {
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 st_pattern(&s, false, h, 0x6018, 24 << 20, 1 << 20, NULL));
		/* A rewrite in the middle, across a map page boundary. */
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, st_seek(&s, h, 512 * 1024 - 1000, TEE_DATA_SEEK_SET, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_pattern(&s, false, h, 0x6018, 3000, 3000, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 0, TEE_DATA_SEEK_SET, NULL));
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 st_pattern(&s, true, h, 0x6018, 24 << 20, 1 << 20, &bad));
		ADBG_EXPECT(c, 0xffffffff, bad);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	}
	Do_ADBG_EndSubCase(c, "24 MiB in 1 MiB writes, three map levels' worth");

	/* More than the bulk window: the core gathers the pieces in one transaction. */
	Do_ADBG_BeginSubCase(c, "One write of 3 MiB, one read");
	{
		const size_t big = 3 << 20;
		uint8_t *in = malloc(big);
		uint8_t *out = malloc(big);

		if (ADBG_EXPECT_NOT_NULL(c, in) && ADBG_EXPECT_NOT_NULL(c, out) &&
		    ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
							  RWM | TEE_DATA_FLAG_OVERWRITE, NULL, 0,
							  &h, storage))) {
			for (size_t i = 0; i < big; i++)
				in[i] = (uint8_t)(i * 7 + i / 4096);
			ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, in, big));
			ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 0, TEE_DATA_SEEK_SET, NULL));
			if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, big, &count)))
				ADBG_EXPECT_BUFFER(c, in, big, out, count);
			ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
		}
		free(in);
		free(out);
	}
	Do_ADBG_EndSubCase(c, "One write of 3 MiB, one read");
	TEEC_CloseSession(&s);
done:
	free(block);
	free(back);
}
STORAGE_CASE(6018, "Large object");

static void test_6019(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	TEEC_Session s2 = {0};
	uint8_t out[32];
	uint32_t orig = 0;
	uint32_t count = 0;
	uint32_t h = 0;
	uint32_t h2 = 0;

	if (!sess_open(c, &s))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &storage2_uuid, NULL, &orig)))
		goto out2;
	/* The same ID in two TAs: two objects. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						  RWM | TEE_DATA_FLAG_OVERWRITE, data_a,
						  sizeof(data_a), &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s2, id_b, sizeof(id_b),
						  RWM | TEE_DATA_FLAG_OVERWRITE, data_b,
						  sizeof(data_b), &h2, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s2, h2));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s, id_b, sizeof(id_b), RWM, &h, storage))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, out, sizeof(out), &count)))
			ADBG_EXPECT_BUFFER(c, data_a, sizeof(data_a), out, count);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s2, id_b, sizeof(id_b), RWM, &h2, storage))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s2, h2, out, sizeof(out), &count)))
			ADBG_EXPECT_BUFFER(c, data_b, sizeof(data_b), out, count);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s2, h2));
	}
	TEEC_CloseSession(&s2);
out2:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6019, "Storage independence");

/* A command whose object ID is the client's memref itself: the TA must die. */
/*
 * An object a session's instance still holds open is free once that session
 * has closed, as on OP-TEE: the instance ends, and lets go of what it held,
 * before TEEC_CloseSession returns, even when its TA_DestroyEntryPoint takes
 * a while. The next session at once opens it for exclusive use.
 */
static void test_6028(ADBG_Case_t *c, uint32_t storage)
{
	static const char id[] = "held-at-close";
	TEEC_Session s = {0};
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	scrub(&s, id, sizeof(id), storage);
	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c, st_create(&s, id, sizeof(id),
			     TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_ACCESS_WRITE_META, data_a,
			     sizeof(data_a), &h, storage)) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_SLOW_DESTROY, 300, 0))) {
		TEEC_CloseSession(&s);
		return;
	}
	/* Closed with the object still open in the instance. */
	TEEC_CloseSession(&s);
	if (!sess_open(c, &s))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, st_open(&s, id, sizeof(id), TEE_DATA_FLAG_ACCESS_WRITE_META, &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6028, "An object held at close is free for the next session");

static TEEC_Result id_in_shm(TEEC_Session *s, uint32_t cmd, uint32_t h, uint32_t storage)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.params[0].tmpref.buffer = id_b;
	op.params[0].tmpref.size = sizeof(id_b);
	switch (cmd) {
	case TA_STORAGE_CMD_OPEN_ID_IN_SHM:
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT,
						 TEEC_VALUE_INPUT, TEEC_NONE);
		op.params[1].value.a = RWM;
		op.params[2].value.a = storage;
		break;
	case TA_STORAGE_CMD_CREATE_ID_IN_SHM:
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT,
						 TEEC_VALUE_INPUT, TEEC_NONE);
		op.params[1].value.a = RWM | TEE_DATA_FLAG_OVERWRITE;
		op.params[2].value.b = storage;
		break;
	case TA_STORAGE_CMD_CREATEOVER_ID_IN_SHM:
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[1].value.a = storage;
		break;
	default:
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].value.a = h;
		op.params[1].tmpref.buffer = id_c;
		op.params[1].tmpref.size = sizeof(id_c);
		break;
	}
	return TEEC_InvokeCommand(s, cmd, &op, &orig);
}

static void test_6020(ADBG_Case_t *c, uint32_t storage)
{
	TEEC_Session s = {0};
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						   RWM | TEE_DATA_FLAG_OVERWRITE, data_a,
						   sizeof(data_a), &h, storage)))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	expect_panic(c, &s, id_in_shm(&s, TA_STORAGE_CMD_OPEN_ID_IN_SHM, 0, storage));
	expect_panic(c, &s, id_in_shm(&s, TA_STORAGE_CMD_CREATEOVER_ID_IN_SHM, 0, storage));
	expect_panic(c, &s, id_in_shm(&s, TA_STORAGE_CMD_CREATE_ID_IN_SHM, 0, storage));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s, id_b, sizeof(id_b), RWM, &h, storage)))
		expect_panic(c, &s, id_in_shm(&s, TA_STORAGE_CMD_RENAME_ID_IN_SHM, h, storage));
	/* None of it happened: the object is still there, under its ID. */
	scrub(&s, id_c, sizeof(id_c), storage);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s, id_b, sizeof(id_b), RWM, &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
out:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6020, "Object IDs in SHM (negative)");

static void test_6021(ADBG_Case_t *c, uint32_t storage)
{
	struct ta_storage_obj_info info;
	TEEC_Session s = {0};
	uint32_t usage = 0xffffffff;
	uint32_t h = 0;

	if (!sess_open(c, &s))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id_b, sizeof(id_b),
						   RWM | TEE_DATA_FLAG_OVERWRITE, data_a,
						   sizeof(data_a), &h, storage)))
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_info(&s, h, &info)))
		ADBG_EXPECT(c, usage, info.object_usage);
	usage &= ~TEE_USAGE_EXTRACTABLE;
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_RESTRICT_USAGE, h, usage));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_info(&s, h, &info)))
		ADBG_EXPECT(c, usage, info.object_usage);
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	TEEC_CloseSession(&s);
	if (!sess_open(c, &s))
		return;
	/* Kept in the object: a new instance sees the restriction. */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s, id_b, sizeof(id_b), RWM, &h, storage))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, st_info(&s, h, &info)))
			ADBG_EXPECT(c, usage, info.object_usage);
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	}
out:
	TEEC_CloseSession(&s);
}
STORAGE_CASE(6021, "Modify and check persistent object usage");

/*
 * Two instances of one TA on one object, taking turns: what one wrote, the
 * other reads back at once (each instance talks to the core and to the
 * supplicant over channels of its own).
 */
/* GP: every handle on an object has the same share flags. */
#define SHARE_6023 (TEE_DATA_FLAG_SHARE_READ | TEE_DATA_FLAG_SHARE_WRITE)

static void test_6023(ADBG_Case_t *c, uint32_t storage)
{
	static const uint32_t sizes[] = {100, 5000, 70000, 300000};
	static const char id[] = "shared_6023";
	TEEC_Session s[2];
	uint32_t h = 0;
	uint32_t bad = 0;

	memset(s, 0, sizeof(s));
	if (!sess_open(c, &s[0]))
		return;
	if (!sess_open(c, &s[1]))
		goto out;
	scrub(&s[0], id, sizeof(id), storage);
	for (uint32_t i = 0; i < 24; i++) {
		TEEC_Session *wr = &s[i % 2];
		TEEC_Session *rd = &s[(i + 1) % 2];
		uint32_t size = sizes[i % 4];

		/* Created new (odd rounds, and the first), or written over in place. */
		if (i % 2 || !i) {
			if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_create(wr, id, sizeof(id),
								   TEE_DATA_FLAG_ACCESS_WRITE |
								       SHARE_6023 |
								       TEE_DATA_FLAG_OVERWRITE,
								   NULL, 0, &h, storage)))
				break;
		} else if (!ADBG_EXPECT_TEEC_SUCCESS(
			       c, st_open(wr, id, sizeof(id),
					  TEE_DATA_FLAG_ACCESS_WRITE | SHARE_6023, &h, storage))) {
			break;
		}
		ADBG_EXPECT_TEEC_SUCCESS(c, st_pattern(wr, false, h, i, size, 4096, NULL));
		/* The reader opens while the writer still holds its handle. */
		{
			uint32_t hr = 0;

			if (ADBG_EXPECT_TEEC_SUCCESS(
				c, st_open(rd, id, sizeof(id),
					   TEE_DATA_FLAG_ACCESS_READ | SHARE_6023, &hr, storage))) {
				bad = 0;
				ADBG_EXPECT_TEEC_SUCCESS(
				    c, st_pattern(rd, true, hr, i, size, 4096, &bad));
				if (!ADBG_EXPECT(c, 0xffffffff, bad))
					Do_ADBG_Log("    round %u: size %u, first bad byte %u", i,
						    size, bad);
				ADBG_EXPECT_TEEC_SUCCESS(c, st_close(rd, hr));
			}
		}
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(wr, h));
	}
	scrub(&s[0], id, sizeof(id), storage);
	TEEC_CloseSession(&s[1]);
out:
	TEEC_CloseSession(&s[0]);
}
STORAGE_CASE(6023, "One object, two instances taking turns");

/*
 * Thousands of objects in one TA: made in one session, read back and
 * enumerated in the next (the store loaded again, from its snapshot and
 * journal), deleted in a third. The core keeps about 300 bytes of memory
 * per object (docs/storage.md).
 */
#define MANY_6024 2000

static TEEC_Result many(TEEC_Session *s, uint32_t storage, uint32_t phase, uint32_t *found)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = storage;
	op.params[0].value.b = MANY_6024;
	op.params[1].value.a = phase;
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_MANY, &op, &orig);
	*found = op.params[1].value.b;
	return res;
}

static void test_6024(ADBG_Case_t *c, uint32_t storage)
{
	static const uint32_t phases[] = {TA_STORAGE_MANY_CREATE, TA_STORAGE_MANY_CHECK,
					  TA_STORAGE_MANY_DELETE};
	static const uint32_t left[] = {MANY_6024, MANY_6024, 0};

	Do_ADBG_Log("    %d objects", MANY_6024);
	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		TEEC_Session s = {0};
		uint32_t found = 0;

		if (!sess_open(c, &s))
			return;
		if (ADBG_EXPECT_TEEC_SUCCESS(c, many(&s, storage, phases[i], &found)))
			ADBG_EXPECT_COMPARE_UNSIGNED(c, found, ==, left[i]);
		TEEC_CloseSession(&s);
	}
}
/* One storage ID: the engine is the same for all three, and each object costs a sync. */
static void xtest_tee_test_6024(ADBG_Case_t *c)
{
	test_6024(c, TEE_STORAGE_PRIVATE);
}
ADBG_CASE_DEFINE(regression, 6024, xtest_tee_test_6024, "Thousands of objects");

/*
 * Small writes at random places, each read back around it at once and the
 * whole object now and then, against a model: what the core keeps between
 * calls (read-ahead, map pages, a write's own last block) must follow.
 */
#define SIZE_6025 (80 * 1024)

static void test_6025(ADBG_Case_t *c, uint32_t storage)
{
	static const char id[] = "random_6025";
	uint8_t *model = calloc(1, SIZE_6025);
	uint8_t *back = malloc(SIZE_6025);
	uint32_t seed = 6025;
	uint32_t size = 0;
	TEEC_Session s = {0};
	uint32_t h = 0;

	if (!ADBG_EXPECT_NOT_NULL(c, model) || !ADBG_EXPECT_NOT_NULL(c, back) || !sess_open(c, &s))
		goto done;
	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c,
		st_create(&s, id, sizeof(id), RWM | TEE_DATA_FLAG_OVERWRITE, NULL, 0, &h, storage)))
		goto out;
	for (int i = 0; i < 200; i++) {
		uint8_t data[6000];
		uint32_t off = 0;
		uint32_t len = 0;
		uint32_t from = 0;
		uint32_t count = 0;

		seed = seed * 1103515245 + 12345;
		off = (seed >> 8) % (SIZE_6025 - sizeof(data));
		seed = seed * 1103515245 + 12345;
		len = 1 + (seed >> 8) % (i % 4 ? 200 : sizeof(data));
		for (uint32_t k = 0; k < len; k++)
			data[k] = (uint8_t)(seed + k + i);
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, st_seek(&s, h, (int32_t)off, TEE_DATA_SEEK_SET, NULL)) ||
		    !ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, data, len)))
			break;
		memcpy(model + off, data, len);
		if (off + len > size)
			size = off + len;
		/* Around the write: the block before to the block after. */
		from = off > 4096 ? off - 4096 : 0;
		count = 0;
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, st_seek(&s, h, (int32_t)from, TEE_DATA_SEEK_SET, NULL)) ||
		    !ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, back, len + 8192, &count)))
			break;
		if (!ADBG_EXPECT_BUFFER(c, model + from,
					from + len + 8192 < size ? len + 8192 : size - from, back,
					count)) {
			Do_ADBG_Log("    change %d: %u bytes at %u", i, len, off);
			break;
		}
		if (i % 50 == 49) {
			ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 0, TEE_DATA_SEEK_SET, NULL));
			if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, back, SIZE_6025, &count)))
				ADBG_EXPECT_BUFFER(c, model, size, back, count);
		}
	}
	ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
out:
	TEEC_CloseSession(&s);
done:
	free(model);
	free(back);
}
STORAGE_CASE(6025, "Random small writes read back against a model");

/*
 * Truncated down to a block boundary, then up, then read by a new session
 * (the store loaded from disk again): the map page grew with holes that
 * were never written to its file.
 */
static void test_6026(ADBG_Case_t *c, uint32_t storage)
{
	static const char id[] = "trunc_6026";
	const uint32_t first = 200000;
	const uint32_t down = 17 * 4096;
	const uint32_t up = 299568;
	uint8_t *back = calloc(1, up);
	uint32_t count = 0;
	uint32_t bad = 0;
	uint32_t h = 0;

	if (!ADBG_EXPECT_NOT_NULL(c, back))
		return;
	for (int round = 0; round < 2; round++) {
		TEEC_Session s = {0};

		if (!sess_open(c, &s))
			break;
		if (!round) {
			if (ADBG_EXPECT_TEEC_SUCCESS(c, st_create(&s, id, sizeof(id),
								  RWM | TEE_DATA_FLAG_OVERWRITE,
								  NULL, 0, &h, storage))) {
				ADBG_EXPECT_TEEC_SUCCESS(
				    c, st_pattern(&s, false, h, 6026, first, 4096, NULL));
				ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, down));
				ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, up));
				ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
			}
			TEEC_CloseSession(&s);
			/* The instance gone, the core lets the store go too. */
			usleep(300 * 1000);
			continue;
		} else if (ADBG_EXPECT_TEEC_SUCCESS(
			       c, st_open(&s, id, sizeof(id), RWM, &h, storage))) {
			ADBG_EXPECT_TEEC_SUCCESS(c,
						 st_pattern(&s, true, h, 6026, down, 4096, &bad));
			ADBG_EXPECT(c, 0xffffffff, bad);
			if (ADBG_EXPECT_TEEC_SUCCESS(c, st_read(&s, h, back, up, &count))) {
				ADBG_EXPECT_COMPARE_UNSIGNED(c, count, ==, up - down);
				for (uint32_t i = 0; i < count; i++)
					if (!ADBG_EXPECT(c, 0, back[i]))
						break;
			}
			ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
		}
		TEEC_CloseSession(&s);
	}
	free(back);
}
STORAGE_CASE(6026, "Truncated down and up, read after a reload");

/*
 * Small reads one after the other take a read-ahead in the TA when no other
 * handle can write the object: writes and truncations through the handle
 * must show in later reads, and with shared writing a write through another
 * instance's handle must show at once.
 */
#define SIZE_6027 (100 * 1024)

/* Reads len bytes at off in 100-byte reads, as a TA reading a record at a time. */
static bool read_small(ADBG_Case_t *c, TEEC_Session *s, uint32_t h, uint32_t off, uint8_t *dst,
		       uint32_t len, uint32_t *total)
{
	*total = 0;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(s, h, (int32_t)off, TEE_DATA_SEEK_SET, NULL)))
		return false;
	while (*total < len) {
		uint32_t n = len - *total < 100 ? len - *total : 100;
		uint32_t count = 0;

		if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_read(s, h, dst + *total, n, &count)))
			return false;
		*total += count;
		if (count < n)
			break;
	}
	return true;
}

/*
 * More handles reading at once than the TA keeps read-aheads for (16): the
 * rest read through the core, all read what their objects hold.
 */
#define MANY_6027 20
#define LEN_6027 3000

static void many_6027(ADBG_Case_t *c, TEEC_Session *s, uint32_t storage, uint8_t *model,
		      uint8_t *back)
{
	uint32_t h[MANY_6027] = {0};
	char id[MANY_6027][16];
	bool ok = true;

	for (int i = 0; i < MANY_6027 && ok; i++) {
		snprintf(id[i], sizeof(id[i]), "ra_6027_%d", i);
		memset(model + i * LEN_6027, 'a' + i, LEN_6027);
		ok = ADBG_EXPECT_TEEC_SUCCESS(
		    c, st_create(s, id[i], strlen(id[i]), RWM | TEE_DATA_FLAG_OVERWRITE,
				 model + i * LEN_6027, LEN_6027, &h[i], storage));
	}
	/* 100 bytes from each in turn, so that every handle reads on where it ended. */
	for (uint32_t off = 0; ok && off < LEN_6027; off += 100) {
		for (int i = 0; i < MANY_6027 && ok; i++) {
			uint32_t count = 0;

			ok = ADBG_EXPECT_TEEC_SUCCESS(
				 c, st_read(s, h[i], back + i * LEN_6027 + off, 100, &count)) &&
			     ADBG_EXPECT_COMPARE_UNSIGNED(c, count, ==, 100);
		}
	}
	if (ok)
		ADBG_EXPECT_BUFFER(c, model, MANY_6027 * LEN_6027, back, MANY_6027 * LEN_6027);
	for (int i = 0; i < MANY_6027; i++)
		if (h[i])
			ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(s, h[i]));
}

static void test_6027(ADBG_Case_t *c, uint32_t storage)
{
	static const char id[] = "readahead_6027";
	uint8_t *model = calloc(1, SIZE_6027);
	uint8_t *back = malloc(SIZE_6027);
	uint8_t data[3000];
	TEEC_Session s = {0};
	TEEC_Session s2 = {0};
	uint32_t h = 0;
	uint32_t h2 = 0;
	uint32_t got = 0;

	if (!ADBG_EXPECT_NOT_NULL(c, model) || !ADBG_EXPECT_NOT_NULL(c, back) || !sess_open(c, &s))
		goto done;
	for (uint32_t i = 0; i < SIZE_6027; i++)
		model[i] = (uint8_t)(i * 7 + i / 251);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c,
				      st_create(&s, id, sizeof(id), RWM | TEE_DATA_FLAG_OVERWRITE,
						model, SIZE_6027, &h, storage)))
		goto out;
	/* Reading on where the last read ended; then a write inside what was read ahead. */
	if (read_small(c, &s, h, 1000, back, 500, &got))
		ADBG_EXPECT_BUFFER(c, model + 1000, 500, back, got);
	memset(data, 0xa5, sizeof(data));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 1400, TEE_DATA_SEEK_SET, NULL)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, data, sizeof(data))))
		memcpy(model + 1400, data, sizeof(data));
	if (read_small(c, &s, h, 1000, back, 8000, &got))
		ADBG_EXPECT_BUFFER(c, model + 1000, 8000, back, got);
	/* A write across the read-ahead's end, and reads going on over it. */
	memset(data, 0x3c, sizeof(data));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s, h, 64 * 1024, TEE_DATA_SEEK_SET, NULL)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s, h, data, sizeof(data))))
		memcpy(model + 64 * 1024, data, sizeof(data));
	if (read_small(c, &s, h, 0, back, SIZE_6027, &got))
		ADBG_EXPECT_BUFFER(c, model, SIZE_6027, back, got);
	/* Cut inside what was read ahead, then grown: the end moved, zeros after it. */
	if (read_small(c, &s, h, 5000, back, 300, &got) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, 5500)) &&
	    read_small(c, &s, h, 5300, back, 1000, &got))
		ADBG_EXPECT_BUFFER(c, model + 5300, 200, back, got);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_trunc(&s, h, 9000)) &&
	    read_small(c, &s, h, 5300, back, 3700, &got)) {
		memset(model + 5500, 0, 3500);
		ADBG_EXPECT_BUFFER(c, model + 5300, 3700, back, got);
	}
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));

	/* Shared writing: another instance's write shows in the next read. */
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s, id, sizeof(id), RW | SHARE, &h, storage)) ||
	    !sess_open(c, &s2))
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s2, id, sizeof(id), RW | SHARE, &h2, storage))) {
		memset(data, 0x77, sizeof(data));
		if (read_small(c, &s, h, 0, back, 1000, &got) &&
		    ADBG_EXPECT_TEEC_SUCCESS(c, st_seek(&s2, h2, 1000, TEE_DATA_SEEK_SET, NULL)) &&
		    ADBG_EXPECT_TEEC_SUCCESS(c, st_write(&s2, h2, data, 2000))) {
			memcpy(model + 1000, data, 2000);
			if (read_small(c, &s, h, 1000, back, 3000, &got))
				ADBG_EXPECT_BUFFER(c, model + 1000, 3000, back, got);
		}
		ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s2, h2));
	}
	TEEC_CloseSession(&s2);
	ADBG_EXPECT_TEEC_SUCCESS(c, st_close(&s, h));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, st_open(&s, id, sizeof(id), RWM, &h, storage)))
		ADBG_EXPECT_TEEC_SUCCESS(c, st_unlink(&s, h));
	many_6027(c, &s, storage, model, back);
out:
	TEEC_CloseSession(&s);
done:
	free(model);
	free(back);
}
STORAGE_CASE(6027, "Read-ahead in the TA follows writes, truncation and sharing");

/* ---- TA persistent time: once, it does not depend on the storage ID ---- */

static TEEC_Result time_get(TEEC_Session *s, uint32_t *sec, uint32_t *ms, uint32_t *result)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_TIME_GET, &op, &orig);
	*sec = op.params[0].value.a;
	*ms = op.params[0].value.b;
	*result = op.params[1].value.a;
	return res;
}

static void xtest_tee_test_6022(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Session s2 = {0};
	uint32_t orig = 0;
	uint32_t sec = 0;
	uint32_t ms = 0;
	uint32_t res = 0;

	if (!sess_open(c, &s))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s2, &storage2_uuid, NULL, &orig)))
		goto out;
	Do_ADBG_BeginSubCase(c, "Set, kept, per TA");
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_TIME_SET, 1000000, 250));
	TEEC_CloseSession(&s);
	if (!sess_open(c, &s))
		goto out2;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, time_get(&s, &sec, &ms, &res))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, res);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, sec, >=, 1000000);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, sec, <=, 1000000 + 60);
	}
	/* The other TA's time is its own. */
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s2, TA_STORAGE_CMD_TIME_SET, 5, 0));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, time_get(&s2, &sec, &ms, &res))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, res);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, sec, <=, 5 + 60);
	}
	Do_ADBG_EndSubCase(c, "Set, kept, per TA");

	Do_ADBG_BeginSubCase(c, "Overflow");
	ADBG_EXPECT_TEEC_SUCCESS(c, st_value(&s, TA_STORAGE_CMD_TIME_SET, 0xffffffff, 999));
	usleep(1100 * 1000);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, time_get(&s, &sec, &ms, &res))) {
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_OVERFLOW, res);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, sec, <, 60);
	}
	Do_ADBG_EndSubCase(c, "Overflow");
out2:
	TEEC_CloseSession(&s2);
out:
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 6022, xtest_tee_test_6022, "TA persistent time");
