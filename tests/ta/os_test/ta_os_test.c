/*
 * The "os_test" test TA (ta_os_test.h): checks the GP memory functions,
 * access rights, instance data, cancellation and time from inside a TA, and
 * commits the misuses GP makes a panic on demand.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>
#include <trace.h>

#include "ta_os_test.h"

#define ACCESS_RW (TEE_MEMORY_ACCESS_READ | TEE_MEMORY_ACCESS_WRITE)
#define ACCESS_ANY (TEE_MEMORY_ACCESS_ANY_OWNER)

struct checks {
	uint32_t run;
	uint32_t failed;
	uint32_t first;
};

static const char rodata[64] = "read-only data of the os_test TA";
static char data[64] = "writable data";
static char bss[64];
/* A table of pointers: relocated at load time, then read-only (RELRO). */
static const char *const relro[] = {rodata, data, bss};
static const void *stale;

static void check(struct checks *c, bool ok)
{
	if (!ok) {
		if (!c->failed)
			c->first = c->run;
		c->failed++;
		EMSG("check %u failed", c->run);
	}
	c->run++;
}

static TEE_Result report(struct checks *c, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	p[0].value.a = c->failed;
	p[0].value.b = c->failed ? c->first : TA_OS_TEST_NO_FAILURE;
	p[1].value.a = c->run;
	return TEE_SUCCESS;
}

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
	TEE_Free((void *)TEE_GetInstanceData());
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	(void)types;
	(void)params;
	*ctx = NULL;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

static bool all_bytes(const void *p, uint8_t v, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i] != v)
			return false;
	return true;
}

static uint64_t prng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check_hints(struct checks *c)
{
	uint8_t *p = TEE_Malloc(4096, TEE_USER_MEM_HINT_NO_FILL_ZERO);
	void *z = TEE_Malloc(0, TEE_MALLOC_FILL_ZERO);

	check(c, p != NULL);
	if (p) {
		memset(p, 0xaa, 4096);
		TEE_Free(p);
	}
	/* The block just freed comes back zeroed with FILL_ZERO and NO_SHARE. */
	p = TEE_Malloc(4096, TEE_MALLOC_FILL_ZERO);
	check(c, p && all_bytes(p, 0, 4096));
	TEE_Free(p);
	p = TEE_Malloc(4096, TEE_MALLOC_NO_SHARE);
	check(c, p && all_bytes(p, 0, 4096));
	TEE_Free(p);
	p = TEE_Malloc(100, TEE_MALLOC_NO_FILL | TEE_MALLOC_NO_SHARE);
	check(c, p != NULL && ((uintptr_t)p % 16) == 0);
	TEE_Free(p);
	/* Unknown hints get NULL. */
	check(c, TEE_Malloc(16, 0x4) == NULL);
	check(c, TEE_Malloc(16, 0x80000001) == NULL);
	check(c, TEE_Malloc(16, 0x100) == NULL);
	/* Zero bytes: a pointer, which TEE_Free and TEE_Realloc accept. */
	check(c, z != NULL);
	TEE_Free(z);
	TEE_Free(NULL);
	check(c, TEE_CheckMemoryAccessRights(TEE_MEMORY_ACCESS_READ, z, 0) == TEE_SUCCESS);
	check(c,
	      TEE_CheckMemoryAccessRights(TEE_MEMORY_ACCESS_READ, z, 1) == TEE_ERROR_ACCESS_DENIED);
	p = TEE_Realloc(z, 10);
	check(c, p && all_bytes(p, 0, 10));
	TEE_Free(p);
	p = __GP11_TEE_Malloc(64, TEE_MALLOC_FILL_ZERO);
	check(c, p && all_bytes(p, 0, 64));
	p = __GP11_TEE_Realloc(p, 128);
	check(c, p && all_bytes(p, 0, 128));
	TEE_Free(p);
}

static void check_realloc(struct checks *c)
{
	uint8_t *p = TEE_Malloc(100, TEE_MALLOC_FILL_ZERO);
	uint8_t *q = NULL;
	uint8_t *blocker = NULL;

	check(c, p != NULL);
	if (!p)
		return;
	memset(p, 0x11, 100);
	/* Grow (moving, since a block sits right after), shrink, grow in place. */
	blocker = TEE_Malloc(32, TEE_MALLOC_FILL_ZERO);
	q = TEE_Realloc(p, 5000);
	check(c, q && all_bytes(q, 0x11, 100));
	p = q ? q : p;
	q = TEE_Realloc(p, 10);
	check(c, q && all_bytes(q, 0x11, 10));
	p = q ? q : p;
	q = TEE_Realloc(p, 3000);
	/* What grew reads as zero, even where the block once held data (swtee's choice). */
	check(c, q && all_bytes(q, 0x11, 10) && all_bytes(q + 10, 0, 2990));
	p = q ? q : p;
	/* More than the heap: NULL, and the block stays as it was. */
	q = TEE_Realloc(p, TA_OS_TEST_DATA_SIZE + 1);
	check(c, q == NULL && all_bytes(p, 0x11, 10));
	/* Zero bytes: freed, and a zero-size pointer back. */
	q = TEE_Realloc(p, 0);
	check(c, q != NULL);
	TEE_Free(q);
	q = TEE_Realloc(NULL, 40);
	check(c, q && all_bytes(q, 0, 40));
	TEE_Free(q);
	TEE_Free(blocker);
}

/* The heap holds TA_DATA_SIZE and no more, and gives it all back. */
static void check_bound(struct checks *c)
{
	enum { BLOCK = 1024, MAX_BLOCKS = TA_OS_TEST_DATA_SIZE / BLOCK + 2 };
	static void *blocks[MAX_BLOCKS];
	size_t n = 0;
	void *big = NULL;

	check(c, TEE_Malloc(TA_OS_TEST_DATA_SIZE + 1, 0) == NULL);
	check(c, TEE_Malloc(SIZE_MAX, 0) == NULL);
	check(c, TEE_Malloc(SIZE_MAX - 8, 0) == NULL);
	while (n < MAX_BLOCKS &&
	       (blocks[n] = TEE_Malloc(BLOCK, TEE_MALLOC_NO_FILL | TEE_MALLOC_NO_SHARE)))
		n++;
	/* All of it, less the headers: at least 95%. */
	check(c, n <= TA_OS_TEST_DATA_SIZE / BLOCK && n >= TA_OS_TEST_DATA_SIZE / BLOCK * 95 / 100);
	/* Free every other block, then the rest: the holes merge again. */
	for (size_t i = 0; i < n; i += 2)
		TEE_Free(blocks[i]);
	check(c, TEE_Malloc(3 * BLOCK, 0) == NULL);
	for (size_t i = 1; i < n; i += 2)
		TEE_Free(blocks[i]);
	big = TEE_Malloc(TA_OS_TEST_DATA_SIZE * 9 / 10, TEE_MALLOC_FILL_ZERO);
	check(c, big != NULL);
	TEE_Free(big);
}

/* Random allocations, resizes and frees, each block's content checked. */
static void check_stress(struct checks *c)
{
	enum { SLOTS = 64, ROUNDS = 20000 };
	static uint8_t *slot[SLOTS];
	static size_t size[SLOTS];
	uint64_t s = 0x9e3779b97f4a7c15ULL;
	bool ok = true;

	for (int r = 0; r < ROUNDS && ok; r++) {
		size_t i = prng(&s) % SLOTS;
		size_t n = prng(&s) % ((prng(&s) & 7) ? 512 : 16384);

		if (slot[i]) {
			ok = all_bytes(slot[i], (uint8_t)i, size[i]);
			if (prng(&s) & 1) {
				uint8_t *q = TEE_Realloc(slot[i], n ? n : 1);

				if (q) {
					size_t keep = size[i] < (n ? n : 1) ? size[i] : (n ? n : 1);

					ok = ok && all_bytes(q, (uint8_t)i, keep);
					slot[i] = q;
					size[i] = n ? n : 1;
					memset(q, (int)i, size[i]);
				}
				continue;
			}
			TEE_Free(slot[i]);
			slot[i] = NULL;
			continue;
		}
		slot[i] = TEE_Malloc(n, TEE_MALLOC_NO_FILL | TEE_MALLOC_NO_SHARE);
		size[i] = n;
		if (slot[i] && n)
			memset(slot[i], (int)i, n);
		ok = ok && (((uintptr_t)slot[i]) % 16) == 0;
	}
	for (int i = 0; i < SLOTS; i++) {
		if (slot[i] && size[i])
			ok = ok && all_bytes(slot[i], (uint8_t)i, size[i]);
		TEE_Free(slot[i]);
		slot[i] = NULL;
	}
	check(c, ok);
	/* Everything came back: one block of 90% of the heap fits again. */
	slot[0] = TEE_Malloc(TA_OS_TEST_DATA_SIZE * 9 / 10, 0);
	check(c, slot[0] != NULL);
	TEE_Free(slot[0]);
	slot[0] = NULL;
}

static TEE_Result cmd_malloc(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct checks c = {0};

	check_hints(&c);
	check_realloc(&c);
	check_bound(&c);
	check_stress(&c);
	return report(&c, types, p);
}

static TEE_Result cmd_mem(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct checks c = {0};
	uint8_t a[32];
	uint8_t b[32];

	for (int i = 0; i < 32; i++)
		a[i] = (uint8_t)i;
	/* Overlapping moves, both ways. */
	TEE_MemMove(a + 4, a, 16);
	check(&c, a[4] == 0 && a[19] == 15);
	TEE_MemMove(a, a + 4, 16);
	check(&c, a[0] == 0 && a[15] == 15);
	TEE_MemMove(NULL, NULL, 0);
	__GP11_TEE_MemMove(b, a, 32);
	check(&c, !memcmp(a, b, 32));
	/* Fill takes the low byte of x. */
	TEE_MemFill(b, 0x1234, 32);
	check(&c, all_bytes(b, 0x34, 32));
	__GP11_TEE_MemFill(b, 0xff01, 16);
	check(&c, all_bytes(b, 0x01, 16) && all_bytes(b + 16, 0x34, 16));
	TEE_MemFill(NULL, 0, 0);
	/* Compare: the sign of the first difference, as unsigned bytes. */
	memset(a, 0x80, 32);
	memset(b, 0x80, 32);
	check(&c, TEE_MemCompare(a, b, 32) == 0);
	check(&c, TEE_MemCompare(NULL, NULL, 0) == 0);
	b[31] = 0x81;
	check(&c, TEE_MemCompare(a, b, 32) < 0 && TEE_MemCompare(b, a, 32) > 0);
	b[3] = 0x7f;
	check(&c, TEE_MemCompare(a, b, 32) > 0 && TEE_MemCompare(b, a, 32) < 0);
	check(&c, TEE_MemCompare(a, b, 3) == 0);
	a[0] = 0xff;
	b[0] = 0x00;
	check(&c, TEE_MemCompare(a, b, 1) > 0 && __GP11_TEE_MemCompare(b, a, 1) < 0);
	return report(&c, types, p);
}

static bool granted(uint32_t flags, const void *p, size_t n)
{
	return TEE_CheckMemoryAccessRights(flags, (void *)p, n) == TEE_SUCCESS;
}

static void check_private(struct checks *c, const void *p, size_t n, bool writable)
{
	check(c, granted(TEE_MEMORY_ACCESS_READ, p, n));
	check(c, granted(TEE_MEMORY_ACCESS_READ | ACCESS_ANY, p, n));
	check(c, granted(TEE_MEMORY_ACCESS_READ | TEE_MEMORY_ACCESS_SECURE, p, n));
	check(c, !granted(TEE_MEMORY_ACCESS_READ | TEE_MEMORY_ACCESS_NONSECURE, p, n));
	check(c, granted(ACCESS_RW, p, n) == writable);
	check(c, granted(ACCESS_RW | ACCESS_ANY, p, n) == writable);
	check(c, __GP11_TEE_CheckMemoryAccessRights(ACCESS_RW, (void *)p, (uint32_t)n) ==
		     (writable ? TEE_SUCCESS : TEE_ERROR_ACCESS_DENIED));
}

static TEE_Result cmd_access(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct checks c = {0};
	uint8_t stack[256];
	uint8_t *heap = TEE_Malloc(1000, 0);
	uint8_t *cheap = malloc(1000);

	memset(stack, 0, sizeof(stack));
	check_private(&c, stack, sizeof(stack), true);
	check(&c, heap != NULL);
	if (heap)
		check_private(&c, heap, 1000, true);
	check_private(&c, rodata, sizeof(rodata), false);
	check_private(&c, data, sizeof(data), true);
	check_private(&c, bss, sizeof(bss), true);
	check_private(&c, relro, sizeof(relro), false);
	check_private(&c, (const void *)(uintptr_t)cmd_access, 16, false);
	/* Memory of the C library's heap, which malloc gives a TA. */
	check(&c, cheap != NULL);
	if (cheap)
		check_private(&c, cheap, 1000, true);
	free(cheap);
	/* Nothing at all, and bad requests. */
	check(&c, granted(TEE_MEMORY_ACCESS_READ, NULL, 0));
	check(&c, !granted(TEE_MEMORY_ACCESS_READ, NULL, 1));
	check(&c, !granted(0, NULL, 16));
	check(&c, !granted(TEE_MEMORY_ACCESS_READ, (void *)(uintptr_t)16, 4096));
	check(&c, !granted(TEE_MEMORY_ACCESS_READ, stack, SIZE_MAX));
	check(&c, !granted(TEE_MEMORY_ACCESS_READ | 0x8, stack, 1));
	check(&c, !granted(TEE_MEMORY_ACCESS_READ | TEE_MEMORY_ACCESS_SECURE |
			       TEE_MEMORY_ACCESS_NONSECURE,
			   stack, 1));
	check(&c, granted(0, stack, 1));
	/* The heap ends at TA_DATA_SIZE bytes: a guard page follows. */
	if (heap) {
		check(&c, !granted(TEE_MEMORY_ACCESS_READ, heap, TA_OS_TEST_DATA_SIZE + 8192));
		TEE_Free(heap);
	}
	return report(&c, types, p);
}

static bool memref_type(uint32_t t)
{
	return t == TEE_PARAM_TYPE_MEMREF_INPUT || t == TEE_PARAM_TYPE_MEMREF_OUTPUT ||
	       t == TEE_PARAM_TYPE_MEMREF_INOUT;
}

static TEE_Result cmd_access_params(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct checks c = {0};

	if (TEE_PARAM_TYPE_GET(types, 3) != TEE_PARAM_TYPE_VALUE_INOUT)
		return TEE_ERROR_BAD_PARAMETERS;
	stale = NULL;
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t t = TEE_PARAM_TYPE_GET(types, i);
		const void *buf = p[i].memref.buffer;
		size_t n = p[i].memref.size;
		bool w = t != TEE_PARAM_TYPE_MEMREF_INPUT;

		if (!memref_type(t) || !buf || !n)
			continue;
		if (i == 0)
			stale = buf;
		check(&c, granted(TEE_MEMORY_ACCESS_READ | ACCESS_ANY, buf, n));
		check(&c, granted(TEE_MEMORY_ACCESS_READ | ACCESS_ANY | TEE_MEMORY_ACCESS_NONSECURE,
				  buf, n));
		check(&c, !granted(TEE_MEMORY_ACCESS_READ | ACCESS_ANY | TEE_MEMORY_ACCESS_SECURE,
				   buf, n));
		check(&c, granted(ACCESS_RW | ACCESS_ANY, buf, n) == w);
		check(&c, granted(TEE_MEMORY_ACCESS_WRITE | ACCESS_ANY, buf, 1) == w);
		check(&c, !granted(TEE_MEMORY_ACCESS_READ, buf, n));
		check(&c, !granted(0, buf, n));
		check(&c, !granted(ACCESS_RW, buf, n));
		if (p[3].value.a & (1u << i))
			check(&c, !granted(TEE_MEMORY_ACCESS_READ | ACCESS_ANY, buf, n + 1));
	}
	p[3].value.a = c.failed;
	p[3].value.b = c.failed ? c.first : TA_OS_TEST_NO_FAILURE;
	return TEE_SUCCESS;
}

static TEE_Result cmd_access_stale(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct checks c = {0};

	check(&c, stale != NULL);
	check(&c, !granted(TEE_MEMORY_ACCESS_READ | ACCESS_ANY, stale, 1));
	return report(&c, types, p);
}

static TEE_Result cmd_cancel(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct checks c = {0};

	/* Masked when the session opened; each call returns the state before it. */
	check(&c, !TEE_GetCancellationFlag());
	check(&c, TEE_MaskCancellation() == true);
	check(&c, TEE_UnmaskCancellation() == true);
	check(&c, TEE_UnmaskCancellation() == false);
	check(&c, !TEE_GetCancellationFlag());
	check(&c, TEE_MaskCancellation() == false);
	check(&c, TEE_MaskCancellation() == true);
	check(&c, TEE_Wait(0) == TEE_SUCCESS);
	return report(&c, types, p);
}

static TEE_Result cmd_instance_data(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	const uint32_t *v = TEE_GetInstanceData();
	uint32_t *n = NULL;

	if (cmd == TA_OS_TEST_CMD_GET_INSTANCE_DATA) {
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		p[0].value.a = v ? *v : 0xffffffff;
		return TEE_SUCCESS;
	}
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	n = TEE_Malloc(sizeof(*n), TEE_MALLOC_FILL_ZERO);
	if (!n)
		return TEE_ERROR_OUT_OF_MEMORY;
	*n = p[0].value.a;
	TEE_SetInstanceData(n);
	TEE_Free((void *)v);
	return TEE_SUCCESS;
}

static TEE_Result cmd_time(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_Time ree = {0};
	TEE_Time t0 = {0};
	TEE_Time t1 = {0};

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	TEE_GetREETime(&ree);
	p[1].value.a = ree.millis < 1000 ? ree.seconds : 0;
	TEE_GetSystemTime(&t0);
	p[2].value.a = TEE_Wait(100);
	TEE_GetSystemTime(&t1);
	if (t0.millis >= 1000 || t1.millis >= 1000)
		return TEE_ERROR_GENERIC;
	p[1].value.b = (t1.seconds - t0.seconds) * 1000 + t1.millis - t0.millis;
	return TEE_SUCCESS;
}

/* Each case is a misuse that must end the TA; none returns. */
static void misuse(uint32_t which)
{
	static uint32_t not_heap;
	uint8_t on_stack[16] = {0};
	uint8_t *p = TEE_Malloc(64, 0);
	volatile uint8_t *v = NULL;

	switch (which) {
	case TA_OS_TEST_PANIC_EXPLICIT:
		TEE_Panic(0x1234);
		break;
	case TA_OS_TEST_PANIC_MALLOC_NO_FILL:
		(void)TEE_Malloc(16, TEE_MALLOC_NO_FILL);
		break;
	case TA_OS_TEST_PANIC_GP11_MALLOC_NO_FILL:
		(void)__GP11_TEE_Malloc(16, TEE_MALLOC_NO_FILL);
		break;
	case TA_OS_TEST_PANIC_FREE_INSIDE:
		TEE_Free(p + 16);
		break;
	case TA_OS_TEST_PANIC_FREE_TWICE:
		TEE_Free(p);
		TEE_Free(p);
		break;
	case TA_OS_TEST_PANIC_FREE_NOT_HEAP:
		TEE_Free(&not_heap);
		break;
	case TA_OS_TEST_PANIC_REALLOC_FREED:
		TEE_Free(p);
		(void)TEE_Realloc(p, 128);
		break;
	case TA_OS_TEST_PANIC_REALLOC_NOT_HEAP:
		(void)TEE_Realloc(on_stack, 128);
		break;
	case TA_OS_TEST_PANIC_MEMMOVE_NULL:
		TEE_MemMove(NULL, on_stack, 4);
		break;
	case TA_OS_TEST_PANIC_MEMFILL_NULL:
		TEE_MemFill(NULL, 0, 4);
		break;
	case TA_OS_TEST_PANIC_MEMCOMPARE_NULL:
		(void)TEE_MemCompare(NULL, on_stack, 4);
		break;
	case TA_OS_TEST_PANIC_SYSTEM_TIME_NULL:
		TEE_GetSystemTime(NULL);
		break;
	case TA_OS_TEST_PANIC_REE_TIME_NULL:
		TEE_GetREETime(NULL);
		break;
	case TA_OS_TEST_PANIC_ZERO_SIZE_WRITE:
		v = TEE_Malloc(0, 0);
		v[0] = 1;
		break;
	case TA_OS_TEST_PANIC_HEAP_OVERRUN:
		v = p;
		for (size_t i = 0; i < 2 * TA_OS_TEST_DATA_SIZE + 8192; i++)
			v[i] = 0x5a;
		break;
	default:
		break;
	}
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	(void)ctx;
	switch (cmd) {
	case TA_OS_TEST_CMD_MALLOC:
		return cmd_malloc(types, params);
	case TA_OS_TEST_CMD_MEM:
		return cmd_mem(types, params);
	case TA_OS_TEST_CMD_ACCESS:
		return cmd_access(types, params);
	case TA_OS_TEST_CMD_CANCEL:
		return cmd_cancel(types, params);
	case TA_OS_TEST_CMD_ACCESS_PARAMS:
		return cmd_access_params(types, params);
	case TA_OS_TEST_CMD_ACCESS_STALE:
		return cmd_access_stale(types, params);
	case TA_OS_TEST_CMD_SET_INSTANCE_DATA:
	case TA_OS_TEST_CMD_GET_INSTANCE_DATA:
		return cmd_instance_data(cmd, types, params);
	case TA_OS_TEST_CMD_TIME:
		return cmd_time(types, params);
	case TA_OS_TEST_CMD_PANIC:
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		misuse(params[0].value.a);
		return TEE_ERROR_GENERIC;
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
