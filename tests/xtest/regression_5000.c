/*
 * regression 5xxx: the GP TEE Client API itself (contexts, sessions to TAs
 * that do not exist, shared memory), through libteec only.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>

#include "adbg.h"
#include "xtest_helpers.h"

#define SHM_32K (32 * 1024)
/* Flag bits the Client API does not define. */
#define SHM_UNKNOWN_FLAG 0x00000004
#define SHM_HIGH_FLAG 0x80000000

/* A context of the subcase's own, on the TEE named by -d. */
static bool ctx_open(ADBG_Case_t *c, TEEC_Context *ctx)
{
	return ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InitializeContext(xtest_tee_name, ctx));
}

static TEEC_Result shm_allocate(TEEC_Context *ctx, TEEC_SharedMemory *shm, size_t size,
				uint32_t flags)
{
	memset(shm, 0, sizeof(*shm));
	shm->size = size;
	shm->flags = flags;
	return TEEC_AllocateSharedMemory(ctx, shm);
}

static TEEC_Result shm_register(TEEC_Context *ctx, TEEC_SharedMemory *shm, void *buf, size_t size,
				uint32_t flags)
{
	memset(shm, 0, sizeof(*shm));
	shm->buffer = buf;
	shm->size = size;
	shm->flags = flags;
	return TEEC_RegisterSharedMemory(ctx, shm);
}

static void pattern_fill(uint8_t *p, size_t size, uint8_t seed)
{
	size_t i = 0;

	for (i = 0; i < size; i++)
		p[i] = (uint8_t)(seed + i * 13 + (i >> 8));
}

/*
 * Checks that shm kept the size and flags asked for, has a buffer when the
 * size is not 0, and that the whole buffer can be written and read back.
 */
static void check_allocated(ADBG_Case_t *c, const TEEC_SharedMemory *shm, size_t size,
			    uint32_t flags)
{
	uint8_t *ref = NULL;

	ADBG_EXPECT_COMPARE_UNSIGNED(c, shm->flags, ==, flags);
	/* Writing size bytes to a block of another size could overrun it. */
	if (!ADBG_EXPECT_COMPARE_UNSIGNED(c, shm->size, ==, size) || !size)
		return;
	if (!ADBG_EXPECT_NOT_NULL(c, shm->buffer))
		return;
	ref = malloc(size);
	if (!ADBG_EXPECT_NOT_NULL(c, ref))
		return;
	pattern_fill(ref, size, 0x5a);
	pattern_fill(shm->buffer, size, 0x5a);
	ADBG_EXPECT_BUFFER(c, ref, size, shm->buffer, size);
	free(ref);
}

/* Checks that a registration left the caller's buffer, size and flags as they were. */
static void check_registered(ADBG_Case_t *c, const TEEC_SharedMemory *shm, const void *buf,
			     size_t size, uint32_t flags)
{
	ADBG_EXPECT_POINTER(c, buf, shm->buffer);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, shm->size, ==, size);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, shm->flags, ==, flags);
}

static void test_close_session_null(ADBG_Case_t *c)
{
	(void)c;
	TEEC_CloseSession(NULL); /* must simply return */
}

static void test_allocate(ADBG_Case_t *c, size_t size, uint32_t flags)
{
	TEEC_Context ctx;
	TEEC_SharedMemory shm;

	if (!ctx_open(c, &ctx))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, shm_allocate(&ctx, &shm, size, flags))) {
		check_allocated(c, &shm, size, flags);
		TEEC_ReleaseSharedMemory(&shm);
	}
	TEEC_FinalizeContext(&ctx);
}

static void test_register(ADBG_Case_t *c, size_t size, uint32_t flags)
{
	TEEC_Context ctx;
	TEEC_SharedMemory shm;
	/* At least one byte, so that a zero-length registration has a real buffer. */
	uint8_t *buf = calloc(1, size ? size : 1);

	if (!ADBG_EXPECT_NOT_NULL(c, buf))
		return;
	pattern_fill(buf, size, 0x21);
	if (!ctx_open(c, &ctx))
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, shm_register(&ctx, &shm, buf, size, flags))) {
		check_registered(c, &shm, buf, size, flags);
		TEEC_ReleaseSharedMemory(&shm);
	}
	TEEC_FinalizeContext(&ctx);
out:
	free(buf);
}

static void test_allocate_in(ADBG_Case_t *c)
{
	test_allocate(c, 1024, TEEC_MEM_INPUT);
}

static void test_allocate_out_of_memory(ADBG_Case_t *c)
{
	TEEC_Context ctx;
	TEEC_SharedMemory shm;

	TEEC_Result res = TEEC_ERROR_GENERIC;

	if (!ctx_open(c, &ctx))
		return;
	res = shm_allocate(&ctx, &shm, SIZE_MAX, TEEC_MEM_INPUT);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_OUT_OF_MEMORY, res);
	if (res == TEEC_SUCCESS)
		TEEC_ReleaseSharedMemory(&shm);
	TEEC_FinalizeContext(&ctx);
}

/* A version-4 UUID from the kernel's random pool: no TA has it. */
static void random_uuid(TEEC_UUID *uuid)
{
	uint8_t b[16] = {0x3b, 0x2c, 0x6e, 0x11, 0x9d, 0x47, 0x4f, 0x0a,
			 0x8e, 0x52, 0x19, 0xc4, 0x77, 0x05, 0xe3, 0x6d};

	/* On the unlikely failure the fixed bytes above serve just as well. */
	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		b[0] ^= 0xa5;
	uuid->timeLow = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	uuid->timeMid = (uint16_t)(b[4] << 8 | b[5]);
	uuid->timeHiAndVersion = (uint16_t)(0x4000 | ((b[6] & 0x0f) << 8) | b[7]);
	memcpy(uuid->clockSeqAndNode, b + 8, sizeof(uuid->clockSeqAndNode));
	uuid->clockSeqAndNode[0] = (uint8_t)(0x80 | (uuid->clockSeqAndNode[0] & 0x3f));
}

static void test_open_session_not_existing_ta(ADBG_Case_t *c)
{
	TEEC_Context ctx;
	TEEC_Session session;
	TEEC_UUID uuid;
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	random_uuid(&uuid);
	if (!ctx_open(c, &ctx))
		return;
	res = TEEC_OpenSession(&ctx, &session, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);
	if (ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND, res))
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, origin);
	else if (res == TEEC_SUCCESS)
		TEEC_CloseSession(&session);
	TEEC_FinalizeContext(&ctx);
}

static void test_allocate_inout(ADBG_Case_t *c)
{
	test_allocate(c, 4, TEEC_MEM_INPUT | TEEC_MEM_OUTPUT);
}

static void test_register_in(ADBG_Case_t *c)
{
	test_register(c, 5, TEEC_MEM_INPUT);
}

static void test_register_not_zero_length_out(ADBG_Case_t *c)
{
	test_register(c, 4, TEEC_MEM_OUTPUT);
}

static void test_register_inout(ADBG_Case_t *c)
{
	test_register(c, 7, TEEC_MEM_INPUT | TEEC_MEM_OUTPUT);
}

static void test_register_zero_length_out(ADBG_Case_t *c)
{
	test_register(c, 0, TEEC_MEM_OUTPUT);
}

static void test_allocate_out(ADBG_Case_t *c)
{
	test_allocate(c, 0, TEEC_MEM_OUTPUT);
}

static void test_finalize_context_null(ADBG_Case_t *c)
{
	(void)c;
	TEEC_FinalizeContext(NULL); /* must simply return */
}

static void test_initialize_context_not_existing_tee(ADBG_Case_t *c)
{
	TEEC_Context ctx;
	TEEC_Result res = TEEC_InitializeContext("no-such-tee", &ctx);

	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND, res);
	if (res == TEEC_SUCCESS)
		TEEC_FinalizeContext(&ctx);
}

/* Memory from TEEC_AllocateSharedMemory may be registered again, as any memory. */
static void test_allocate_then_register_same_memory(ADBG_Case_t *c)
{
	TEEC_Context ctx;
	TEEC_SharedMemory allocated;
	TEEC_SharedMemory registered;

	if (!ctx_open(c, &ctx))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, shm_allocate(&ctx, &allocated, 32, TEEC_MEM_INPUT)))
		goto out;
	check_allocated(c, &allocated, 32, TEEC_MEM_INPUT);
	if (allocated.buffer &&
	    ADBG_EXPECT_TEEC_SUCCESS(
		c, shm_register(&ctx, &registered, allocated.buffer, 32, TEEC_MEM_INPUT))) {
		check_registered(c, &registered, allocated.buffer, 32, TEEC_MEM_INPUT);
		TEEC_ReleaseSharedMemory(&registered);
	}
	TEEC_ReleaseSharedMemory(&allocated);
out:
	TEEC_FinalizeContext(&ctx);
}

/* Two allocations with the same parameters are two distinct, independent blocks. */
static void test_allocate_same_memory_twice(ADBG_Case_t *c)
{
	TEEC_Context ctx;
	TEEC_SharedMemory a;
	TEEC_SharedMemory b;
	uint8_t ref[32];

	if (!ctx_open(c, &ctx))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, shm_allocate(&ctx, &a, sizeof(ref), TEEC_MEM_INPUT)))
		goto out;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, shm_allocate(&ctx, &b, sizeof(ref), TEEC_MEM_INPUT)))
		goto out_a;
	check_allocated(c, &a, sizeof(ref), TEEC_MEM_INPUT);
	check_allocated(c, &b, sizeof(ref), TEEC_MEM_INPUT);
	if (a.buffer && b.buffer && ADBG_EXPECT_COMPARE_POINTER(c, a.buffer, !=, b.buffer)) {
		pattern_fill(a.buffer, sizeof(ref), 0x11);
		pattern_fill(b.buffer, sizeof(ref), 0x77);
		pattern_fill(ref, sizeof(ref), 0x11);
		ADBG_EXPECT_BUFFER(c, ref, sizeof(ref), a.buffer, a.size);
	}
	TEEC_ReleaseSharedMemory(&b);
out_a:
	TEEC_ReleaseSharedMemory(&a);
out:
	TEEC_FinalizeContext(&ctx);
}

/* One buffer registered through two TEEC_SharedMemory at once. */
static void test_register_same_memory_twice(ADBG_Case_t *c)
{
	uint8_t buf[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0};
	TEEC_Context ctx;
	TEEC_SharedMemory first;
	TEEC_SharedMemory second;

	if (!ctx_open(c, &ctx))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c,
				      shm_register(&ctx, &first, buf, sizeof(buf), TEEC_MEM_INPUT)))
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, shm_register(&ctx, &second, buf, sizeof(buf), TEEC_MEM_INPUT))) {
		check_registered(c, &second, buf, sizeof(buf), TEEC_MEM_INPUT);
		TEEC_ReleaseSharedMemory(&second);
	}
	check_registered(c, &first, buf, sizeof(buf), TEEC_MEM_INPUT);
	TEEC_ReleaseSharedMemory(&first);
out:
	TEEC_FinalizeContext(&ctx);
}

static void test_allocate_32k(ADBG_Case_t *c)
{
	test_allocate(c, SHM_32K, TEEC_MEM_INPUT | TEEC_MEM_OUTPUT);
}

static void test_register_32k(ADBG_Case_t *c)
{
	test_register(c, SHM_32K, TEEC_MEM_INPUT | TEEC_MEM_OUTPUT);
}

static void test_initialize_context_null_name(ADBG_Case_t *c)
{
	TEEC_Context ctx;

	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InitializeContext(NULL, &ctx)))
		TEEC_FinalizeContext(&ctx);
}

static void test_release_shared_memory_null(ADBG_Case_t *c)
{
	(void)c;
	TEEC_ReleaseSharedMemory(NULL); /* must simply return */
}

static void test_allocate_null_context(ADBG_Case_t *c)
{
	TEEC_SharedMemory shm;
	TEEC_Result res = shm_allocate(NULL, &shm, 64, TEEC_MEM_INPUT);

	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, res);
	if (res == TEEC_SUCCESS)
		TEEC_ReleaseSharedMemory(&shm);
}

static void test_register_null_context(ADBG_Case_t *c)
{
	uint8_t buf[64] = {0};
	TEEC_SharedMemory shm;
	TEEC_Result res = shm_register(NULL, &shm, buf, sizeof(buf), TEEC_MEM_INPUT);

	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, res);
	if (res == TEEC_SUCCESS)
		TEEC_ReleaseSharedMemory(&shm);
}

/*
 * A registration must name memory: a NULL buffer is refused whatever its
 * size, as OP-TEE's libteec does (its 1025.1), even though the GP text
 * leaves a zero-size NULL registration open.
 */
static void test_register_null_buffer(ADBG_Case_t *c)
{
	static const size_t sizes[] = {0, 1, 64};
	TEEC_Context ctx;
	TEEC_SharedMemory shm;
	size_t i = 0;

	if (!ctx_open(c, &ctx))
		return;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		TEEC_Result res = shm_register(&ctx, &shm, NULL, sizes[i], TEEC_MEM_INPUT);

		if (!ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, res))
			Do_ADBG_Log("  with size %zu", sizes[i]);
		if (res == TEEC_SUCCESS)
			TEEC_ReleaseSharedMemory(&shm);
	}
	TEEC_FinalizeContext(&ctx);
}

static const uint32_t bad_shm_flags[] = {
    0,
    TEEC_MEM_INPUT | SHM_UNKNOWN_FLAG,
    TEEC_MEM_OUTPUT | SHM_HIGH_FLAG,
    TEEC_MEM_INPUT | TEEC_MEM_OUTPUT | 0xfffffff0,
};

static void test_allocate_bad_flags(ADBG_Case_t *c)
{
	TEEC_Context ctx;
	TEEC_SharedMemory shm;
	size_t i = 0;

	if (!ctx_open(c, &ctx))
		return;
	for (i = 0; i < sizeof(bad_shm_flags) / sizeof(bad_shm_flags[0]); i++) {
		TEEC_Result res = shm_allocate(&ctx, &shm, 64, bad_shm_flags[i]);

		if (!ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, res))
			Do_ADBG_Log("  with flags 0x%x", (unsigned int)bad_shm_flags[i]);
		if (res == TEEC_SUCCESS)
			TEEC_ReleaseSharedMemory(&shm);
	}
	TEEC_FinalizeContext(&ctx);
}

static void test_register_bad_flags(ADBG_Case_t *c)
{
	uint8_t buf[64] = {0};
	TEEC_Context ctx;
	TEEC_SharedMemory shm;
	size_t i = 0;

	if (!ctx_open(c, &ctx))
		return;
	for (i = 0; i < sizeof(bad_shm_flags) / sizeof(bad_shm_flags[0]); i++) {
		TEEC_Result res = shm_register(&ctx, &shm, buf, sizeof(buf), bad_shm_flags[i]);

		if (!ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, res))
			Do_ADBG_Log("  with flags 0x%x", (unsigned int)bad_shm_flags[i]);
		if (res == TEEC_SUCCESS)
			TEEC_ReleaseSharedMemory(&shm);
	}
	TEEC_FinalizeContext(&ctx);
}

struct subcase_5006 {
	const char *title;
	void (*run)(ADBG_Case_t *c);
};

/* The first seventeen are OP-TEE's 5006 subcases, in its order. */
static const struct subcase_5006 subcases_5006[] = {
    {"CloseSession_null", test_close_session_null},
    {"Allocate_In", test_allocate_in},
    {"Allocate_out_of_memory", test_allocate_out_of_memory},
    {"OpenSession_error_notExistingTA", test_open_session_not_existing_ta},
    {"Allocate_InOut", test_allocate_inout},
    {"Register_In", test_register_in},
    {"Register_notZeroLength_Out", test_register_not_zero_length_out},
    {"Register_InOut", test_register_inout},
    {"Register_zeroLength_Out", test_register_zero_length_out},
    {"Allocate_Out", test_allocate_out},
    {"FinalizeContext_null", test_finalize_context_null},
    {"InitializeContext_NotExistingTEE", test_initialize_context_not_existing_tee},
    {"AllocateThenRegister_SameMemory", test_allocate_then_register_same_memory},
    {"AllocateSameMemory_twice", test_allocate_same_memory_twice},
    {"RegisterSameMemory_twice", test_register_same_memory_twice},
    {"Allocate_sharedMemory_32k", test_allocate_32k},
    {"Register_sharedMemory_32k", test_register_32k},
    {"InitializeContext_nullName", test_initialize_context_null_name},
    {"ReleaseSharedMemory_null", test_release_shared_memory_null},
    {"Allocate_nullContext", test_allocate_null_context},
    {"Register_nullContext", test_register_null_context},
    {"Allocate_badFlags", test_allocate_bad_flags},
    {"Register_badFlags", test_register_bad_flags},
    {"Register_nullBuffer", test_register_null_buffer},
};

static void xtest_tee_test_5006(ADBG_Case_t *c)
{
	size_t i = 0;

	for (i = 0; i < sizeof(subcases_5006) / sizeof(subcases_5006[0]); i++) {
		Do_ADBG_BeginSubCase(c, "%s", subcases_5006[i].title);
		subcases_5006[i].run(c);
		Do_ADBG_EndSubCase(c, "%s", subcases_5006[i].title);
	}
}
ADBG_CASE_DEFINE(regression, 5006, xtest_tee_test_5006, "Tests for Global platform TEEC");
