/*
 * OP-TEE's memory pool: a block of memory from which items are handed out
 * one after the other, for short-lived scratch allocations (OP-TEE's
 * bignum code uses it). Items are linked through headers inside the block;
 * the space of a freed item is reused once every item after it is freed
 * too, and when the pool is empty again release_mem (if not NULL) is told
 * so, to give the block's pages back. Not thread-safe. Functions of the TA
 * runtime.
 */
#ifndef MEMPOOL_H
#define MEMPOOL_H

#include <types_ext.h>

/* Item alignment within the pool. */
#define MEMPOOL_ALIGN __alignof__(long)

/* The header before each item; offsets are from the start of the block. */
struct mempool_item {
	size_t size;
	ssize_t prev_item_offset;
	ssize_t next_item_offset;
};

struct mempool;

/*
 * A pool over data[0..size), which must be MEMPOOL_ALIGN-aligned and stays
 * the caller's; release_mem(data, size) is called each time the pool
 * becomes empty. NULL if data is misaligned or no memory for the pool.
 */
struct mempool *mempool_alloc_pool(void *data, size_t size,
				   void (*release_mem)(void *ptr, size_t size));

/* An item of size bytes, MEMPOOL_ALIGN-aligned; NULL if the pool is full. */
void *mempool_alloc(struct mempool *pool, size_t size);

/* An item of nmemb * size zeroed bytes; NULL if full or on overflow. */
void *mempool_calloc(struct mempool *pool, size_t nmemb, size_t size);

/* Frees an item of pool (NULL is ignored); anything else panics the TA. */
void mempool_free(struct mempool *pool, void *ptr);

#endif /* MEMPOOL_H */
