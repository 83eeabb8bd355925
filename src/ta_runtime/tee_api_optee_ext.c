/*
 * The functions OP-TEE's TA headers declare beyond the GP API
 * (tee_internal_api_extensions.h, and libutils' atomic.h, string_ext.h,
 * mempool.h and trace.h's hex dump; printk.h's are in printk.c), so that
 * every function the kit declares is one the runtime exports. The headers
 * carry the contracts.
 *
 * Choices where swtee differs from OP-TEE's hardware:
 *   - cache maintenance: a TA is a host process on cache-coherent memory,
 *     so the operations only check, as OP-TEE's core does, that the TA has
 *     TA_FLAG_CACHE_MAINTENANCE and that the range is a client's memref
 *     (OP-TEE allows them on shared memory only, never on TA memory);
 *   - tee_map_zi: anonymous pages, readable and writable, never executable
 *     (the sandbox allows no other mmap); only ranges it mapped can be
 *     unmapped through tee_unmap;
 *   - the heap marks count what malloc() and friends hold (glibc's heap,
 *     whose per-thread cache of small freed blocks counts as held);
 *     TEE_Malloc's arena keeps no count the runtime could read;
 *   - supplicant plugins: tee_invoke_supp_plugin reaches tee-supplicant
 *     through the instance's plugin channel (plugin_chan.c), not through
 *     the system pseudo-TA, and carries at most PROTO_PLUGIN_DATA_MAX bytes.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic.h>
#include <mempool.h>
#include <printk.h>
#include <string_ext.h>
#include <tee_internal_api_extensions.h>
#include <trace.h>

#include "arena.h"
#include "plugin_chan.h"
#include "runtime.h"
#include "secure.h"

/* atomic.h */

uint32_t atomic_inc32(volatile uint32_t *v)
{
	return __atomic_add_fetch(v, 1, __ATOMIC_SEQ_CST);
}

uint32_t atomic_dec32(volatile uint32_t *v)
{
	return __atomic_sub_fetch(v, 1, __ATOMIC_SEQ_CST);
}

/* tee_uuid_from_str */

TEE_Result tee_uuid_from_str(TEE_UUID *uuid, const char *s)
{
	struct swtee_uuid u;

	if (!uuid)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!s || strnlen(s, SWTEE_UUID_STR_LEN) != SWTEE_UUID_STR_LEN - 1 || !uuid_parse(s, &u))
		return TEE_ERROR_BAD_FORMAT;
	uuid_to_fields(&u, &uuid->timeLow, &uuid->timeMid, &uuid->timeHiAndVersion,
		       uuid->clockSeqAndNode);
	return TEE_SUCCESS;
}

/* Cache maintenance */

static TEE_Result cache_check(char *buf, size_t len)
{
	uint64_t off = 0;

	if (!(rt.flags & TA_FLAG_CACHE_MAINTENANCE))
		return TEE_ERROR_NOT_SUPPORTED;
	if (!len)
		return TEE_SUCCESS;
	/* Readable by the TA at all, shared or not ... */
	if (TEE_CheckMemoryAccessRights(TEE_MEMORY_ACCESS_READ | TEE_MEMORY_ACCESS_ANY_OWNER, buf,
					len) != TEE_SUCCESS)
		return TEE_ERROR_ACCESS_DENIED;
	/* ... and not the TA's own: only shared memory passes without ANY_OWNER refused. */
	if (rt_arena_offset(buf, 1, &off) || rt_arena_offset(buf + len - 1, 1, &off) ||
	    TEE_CheckMemoryAccessRights(TEE_MEMORY_ACCESS_READ, buf, len) == TEE_SUCCESS)
		return TEE_ERROR_ACCESS_DENIED;
	return TEE_SUCCESS;
}

TEE_Result TEE_CacheClean(char *buf, size_t len)
{
	return cache_check(buf, len);
}

TEE_Result TEE_CacheFlush(char *buf, size_t len)
{
	return cache_check(buf, len);
}

TEE_Result TEE_CacheInvalidate(char *buf, size_t len)
{
	return cache_check(buf, len);
}

/* tee_map_zi and tee_unmap */

#define ZI_MAPS_MAX 256

struct zi_map {
	void *addr;
	size_t len; /* as the TA asked; 0 for a free slot */
};

static struct zi_map zi_maps[ZI_MAPS_MAX];

static size_t page_len(size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (len + page - 1) & ~(page - 1);
}

static struct zi_map *zi_slot(void *addr, size_t len)
{
	for (size_t i = 0; i < ZI_MAPS_MAX; i++) {
		if (zi_maps[i].addr == addr && zi_maps[i].len == len)
			return &zi_maps[i];
	}
	return NULL;
}

void *tee_map_zi_va(uintptr_t va, size_t len, uint32_t flags)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct zi_map *slot = zi_slot(NULL, 0);
	int mflags = MAP_PRIVATE | MAP_ANONYMOUS;
	void *p = NULL;

	if (!slot || !len || len > SIZE_MAX - page || (flags & ~TEE_MEMORY_ACCESS_ANY_OWNER) ||
	    (va & (page - 1)))
		return NULL;
	if (va)
		mflags |= MAP_FIXED_NOREPLACE;
	p = mmap((void *)va, page_len(len), PROT_READ | PROT_WRITE, mflags, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	/* A kernel without MAP_FIXED_NOREPLACE takes va as a hint. */
	if (va && p != (void *)va) {
		munmap(p, page_len(len));
		return NULL;
	}
	slot->addr = p;
	slot->len = len;
	return p;
}

void *tee_map_zi(size_t len, uint32_t flags)
{
	return tee_map_zi_va(0, len, flags);
}

TEE_Result tee_unmap(void *buf, size_t len)
{
	struct zi_map *slot = NULL;

	if (!buf || !len)
		return TEE_ERROR_BAD_PARAMETERS;
	slot = zi_slot(buf, len);
	if (!slot)
		return TEE_ERROR_BAD_PARAMETERS;
	if (munmap(buf, page_len(len)))
		return TEE_ERROR_GENERIC;
	slot->addr = NULL;
	slot->len = 0;
	return TEE_SUCCESS;
}

/* Heap marks */

static size_t heap_mark;

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

void tee_user_mem_mark_heap(void)
{
	/*
	 * glibc sets up a thread's malloc cache at its first malloc: have that
	 * happen before the mark, not count as a leak after it.
	 */
	void *volatile warm = malloc(1);

	free(warm);
	heap_mark = heap_in_use();
}

size_t tee_user_mem_check_heap(void)
{
	size_t now = heap_in_use();

	return now > heap_mark ? now - heap_mark : 0;
}

/* Supplicant plugins */

TEE_Result tee_invoke_supp_plugin(const TEE_UUID *uuid, uint32_t cmd, uint32_t sub_cmd, void *buf,
				  size_t len, size_t *outlen)
{
	struct swtee_uuid u;
	size_t out = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	/* As on OP-TEE, *outlen is left alone when the arguments are refused. */
	if (!uuid || (len && !buf) || (!len && buf))
		return TEE_ERROR_BAD_PARAMETERS;
	uuid_from_fields(&u, uuid->timeLow, uuid->timeMid, uuid->timeHiAndVersion,
			 uuid->clockSeqAndNode);
	res = rt_plugin_invoke(&u, cmd, sub_cmd, buf, len, &out);
	if (outlen)
		*outlen = out;
	return res;
}

/* string_ext.h */

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t n = strlen(src);

	if (size) {
		size_t c = n < size ? n : size - 1;

		memcpy(dst, src, c);
		dst[c] = '\0';
	}
	return n;
}

size_t strlcat(char *dst, const char *src, size_t size)
{
	size_t d = strnlen(dst, size);

	if (d == size)
		return size + strlen(src);
	return d + strlcpy(dst + d, src, size - d);
}

int consttime_memcmp(const void *p1, const void *p2, size_t nb)
{
	return !secure_equal(p1, p2, nb);
}

void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	/* The asm may read s, so the stores before it cannot be dropped. */
	__asm__ volatile("" : : "r"(s) : "memory");
}

/* trace.h hex dumps */

#define HEX_PER_LINE 16

void dhex_dump(const char *func, int line, int level, const void *buf, int len)
{
	const uint8_t *p = buf;
	char text[HEX_PER_LINE * 3 + 1];

	if (!p || len <= 0)
		return;
	for (int at = 0; at < len; at += HEX_PER_LINE) {
		int n = len - at < HEX_PER_LINE ? len - at : HEX_PER_LINE;

		for (int i = 0; i < n; i++)
			snprintf(text + 3 * i, 4, "%02x%s", p[at + i], i + 1 < n ? " " : "");
		trace_printf(func, line, level, true, "%04x: %s", (unsigned int)at, text);
	}
}

/* mempool.h */

struct mempool {
	uint8_t *data;
	size_t size;
	ssize_t last; /* offset of the last item's header, -1 when empty */
	void (*release_mem)(void *ptr, size_t size);
};

#define ITEM_HDR ((sizeof(struct mempool_item) + MEMPOOL_ALIGN - 1) & ~(MEMPOOL_ALIGN - 1))

static struct mempool_item *pool_item(struct mempool *pool, ssize_t off)
{
	return (struct mempool_item *)(void *)(pool->data + off);
}

struct mempool *mempool_alloc_pool(void *data, size_t size,
				   void (*release_mem)(void *ptr, size_t size))
{
	struct mempool *pool = NULL;

	if (!data || ((uintptr_t)data & (MEMPOOL_ALIGN - 1)) || size > SSIZE_MAX)
		return NULL;
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	pool->data = data;
	pool->size = size;
	pool->last = -1;
	pool->release_mem = release_mem;
	return pool;
}

/* Where the next item's header goes: after the last item, aligned. */
static size_t pool_next_offset(struct mempool *pool)
{
	struct mempool_item *last = NULL;

	if (pool->last < 0)
		return 0;
	last = pool_item(pool, pool->last);
	return ((size_t)pool->last + ITEM_HDR + last->size + MEMPOOL_ALIGN - 1) &
	       ~(MEMPOOL_ALIGN - 1);
}

void *mempool_alloc(struct mempool *pool, size_t size)
{
	size_t off = pool_next_offset(pool);
	struct mempool_item *item = NULL;

	if (off > pool->size || pool->size - off < ITEM_HDR || pool->size - off - ITEM_HDR < size)
		return NULL;
	item = pool_item(pool, (ssize_t)off);
	item->size = size;
	item->prev_item_offset = pool->last;
	item->next_item_offset = -1;
	if (pool->last >= 0)
		pool_item(pool, pool->last)->next_item_offset = (ssize_t)off;
	pool->last = (ssize_t)off;
	return (uint8_t *)item + ITEM_HDR;
}

void *mempool_calloc(struct mempool *pool, size_t nmemb, size_t size)
{
	size_t total = 0;
	void *p = NULL;

	if (__builtin_mul_overflow(nmemb, size, &total))
		return NULL;
	p = mempool_alloc(pool, total);
	if (p)
		memset(p, 0, total);
	return p;
}

/* Whether ptr is the start of a live item of pool: walk back from the last. */
static bool pool_has(struct mempool *pool, const void *ptr)
{
	for (ssize_t off = pool->last; off >= 0; off = pool_item(pool, off)->prev_item_offset) {
		if (pool->data + off + ITEM_HDR == ptr)
			return true;
	}
	return false;
}

void mempool_free(struct mempool *pool, void *ptr)
{
	struct mempool_item *item = NULL;

	if (!ptr)
		return;
	if (!pool || !pool_has(pool, ptr))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, __func__);
	item = (struct mempool_item *)(void *)((uint8_t *)ptr - ITEM_HDR);
	if (item->prev_item_offset >= 0)
		pool_item(pool, item->prev_item_offset)->next_item_offset = item->next_item_offset;
	if (item->next_item_offset >= 0)
		pool_item(pool, item->next_item_offset)->prev_item_offset = item->prev_item_offset;
	else
		pool->last = item->prev_item_offset;
	if (pool->last < 0 && pool->release_mem)
		pool->release_mem(pool->data, pool->size);
}
