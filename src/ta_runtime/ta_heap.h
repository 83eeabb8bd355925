/*
 * The TA heap: one arena of exactly TA_DATA_SIZE bytes, mapped when the TA
 * is loaded, from which TEE_Malloc and TEE_Realloc allocate. Block headers
 * live inside the arena, so the bound counts them, as OP-TEE's does. A side
 * bitmap (outside the arena) marks where blocks start, so that a pointer the
 * heap did not hand out, or one freed already, is recognised and not
 * trusted. Not thread-safe: a TA instance runs its entry points on one thread.
 */
#ifndef SWTEE_TA_HEAP_H
#define SWTEE_TA_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Maps the arena of size bytes (rounded down to the heap's alignment) and
 * the zero-size page. Returns 0, or -1 when the mapping fails, in which case
 * every allocation but the zero-size one fails.
 */
int ta_heap_map(size_t size);

/* A block of at least size (> 0) bytes, 16-byte aligned, or NULL when none is free. */
void *ta_heap_alloc(size_t size);

/*
 * Frees p, which must be a block the heap handed out and has not freed;
 * anything else panics in func's name.
 */
void ta_heap_free(void *p, const char *func);

/*
 * Resizes p (as ta_heap_free checks it) to size (> 0) bytes, in place when
 * it can. Bytes past the old size are zero. Returns the block, or NULL (p
 * untouched) when there is no room.
 */
void *ta_heap_resize(void *p, size_t size, const char *func);

/* The non-NULL pointer TEE_Malloc returns for 0 bytes: any access to it faults. */
void *ta_heap_zero_ptr(void);

/* The arena's bounds, [*start, *end); both 0 when there is no arena. */
void ta_heap_range(uintptr_t *start, uintptr_t *end);

#endif
