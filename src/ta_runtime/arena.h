/*
 * The TA heap: one arena of exactly TA_DATA_SIZE bytes, mapped when the TA
 * is loaded, from which TEE_Malloc and TEE_Realloc allocate. Block headers
 * live inside the arena, so the bound counts them, as OP-TEE's does. A side
 * bitmap (outside the arena) marks where blocks start, so that a pointer the
 * heap did not hand out, or one freed already, is recognised and not
 * trusted. Not thread-safe: a TA instance runs its entry points on one thread.
 */
#ifndef SWTEE_ARENA_H
#define SWTEE_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Maps the arena of size bytes (rounded down to the heap's alignment) and
 * the zero-size page. Returns 0, or -1 when the mapping fails, in which case
 * every allocation but the zero-size one fails.
 */
int rt_arena_map(size_t size);

/* A block of at least size (> 0) bytes, 16-byte aligned, or NULL when none is free. */
void *rt_arena_alloc(size_t size);

/*
 * Frees p, which must be a block the heap handed out and has not freed;
 * anything else panics in func's name.
 */
void rt_arena_free(void *p, const char *func);

/*
 * Resizes p (as rt_arena_free checks it) to size (> 0) bytes, in place when
 * it can. Bytes past the old size are zero (the arena keeps every byte of a
 * block past the size last asked for at zero). Returns the block, or NULL
 * (p untouched) when there is no room.
 */
void *rt_arena_resize(void *p, size_t size, const char *func);

/* The non-NULL pointer TEE_Malloc returns for 0 bytes: any access to it faults. */
void *rt_arena_zero_ptr(void);

/*
 * The sealed memfd behind the arena, for the core to map (the caller owns
 * it from then on); -1 when the arena has none, or after the first call.
 */
int rt_arena_take_fd(void);

/* Whether [p, p + len) lies in the arena; *off is then p's offset in it. */
bool rt_arena_offset(const void *p, size_t len, uint64_t *off);

/* The arena's bounds, [*start, *end); both 0 when there is no arena. */
void rt_arena_range(uintptr_t *start, uintptr_t *end);

#endif
