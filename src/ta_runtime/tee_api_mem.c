/*
 * GP memory management. The TA heap is bounded by the TA's TA_DATA_SIZE:
 * each block carries a header with its size, so the total in use is known
 * and TEE_Free/TEE_Realloc never trust the TA about sizes.
 */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"
#include "secure.h"

#define HDR_MAGIC 0x5357544dU

struct blk {
	alignas(max_align_t) size_t size;
	uint32_t magic;
};

static size_t heap_limit;
static size_t heap_used;
static uint8_t zero_size_dummy;

void rt_heap_init(uint32_t limit)
{
	heap_limit = limit;
	heap_used = 0;
}

static struct blk *blk_of(void *p)
{
	struct blk *b = (struct blk *)p - 1;

	if (b->magic != HDR_MAGIC)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_Free");
	return b;
}

static void *blk_alloc(size_t size)
{
	struct blk *b = NULL;

	if (heap_limit && (size > heap_limit || heap_used > heap_limit - size))
		return NULL;
	if (size > SIZE_MAX - sizeof(*b))
		return NULL;
	b = malloc(sizeof(*b) + size);
	if (!b)
		return NULL;
	b->size = size;
	b->magic = HDR_MAGIC;
	heap_used += size;
	return b + 1;
}

void *TEE_Malloc(size_t size, uint32_t hint)
{
	bool fill = true;
	void *p = NULL;

	switch (hint) {
	case TEE_MALLOC_FILL_ZERO:
	case TEE_MALLOC_NO_SHARE:
		break;
	case TEE_MALLOC_NO_FILL | TEE_MALLOC_NO_SHARE:
	case TEE_USER_MEM_HINT_NO_FILL_ZERO:
		fill = false;
		break;
	case TEE_MALLOC_NO_FILL:
		/* NO_FILL on its own is a programming error, as in OP-TEE. */
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_Malloc");
	default:
		return NULL;
	}
	if (!size)
		return &zero_size_dummy;
	p = blk_alloc(size);
	if (p && fill)
		memset(p, 0, size);
	return p;
}

void TEE_Free(void *buffer)
{
	struct blk *b = NULL;

	if (!buffer || buffer == &zero_size_dummy)
		return;
	b = blk_of(buffer);
	heap_used -= b->size;
	b->magic = 0;
	free(b);
}

void *TEE_Realloc(void *buffer, size_t newSize)
{
	struct blk *b = NULL;
	void *p = NULL;

	if (!buffer || buffer == &zero_size_dummy)
		return TEE_Malloc(newSize, TEE_MALLOC_FILL_ZERO);
	b = blk_of(buffer);
	if (!newSize) {
		TEE_Free(buffer);
		return &zero_size_dummy;
	}
	p = blk_alloc(newSize);
	if (!p)
		return NULL;
	memcpy(p, buffer, b->size < newSize ? b->size : newSize);
	if (newSize > b->size)
		memset((uint8_t *)p + b->size, 0, newSize - b->size);
	TEE_Free(buffer);
	return p;
}

void TEE_MemMove(void *dest, const void *src, size_t size)
{
	if (size)
		memmove(dest, src, size);
}

int32_t TEE_MemCompare(const void *buffer1, const void *buffer2, size_t size)
{
	const uint8_t *a = buffer1;
	const uint8_t *b = buffer2;
	int32_t res = 0;

	/* Constant time: every byte is read, the first difference decides. */
	for (size_t i = 0; i < size; i++) {
		int32_t d = (int32_t)a[i] - (int32_t)b[i];
		int32_t first = (res == 0) & (d != 0);

		res |= -first & (d < 0 ? -1 : 1);
	}
	return res;
}

void TEE_MemFill(void *buff, uint32_t x, size_t size)
{
	if (size)
		memset(buff, (int)(uint8_t)x, size);
}

void TEE_SetInstanceData(const void *instanceData)
{
	rt.instance_data = instanceData;
}

const void *TEE_GetInstanceData(void)
{
	return rt.instance_data;
}
