/*
 * Handle tables: what the TA holds instead of pointers into the runtime.
 *
 * A handle is a 32-bit value
 *
 *	[31:28] the table's kind (HANDLE_KIND_*, never 0)
 *	[27:16] a generation, bumped each time the slot is reused
 *	[15:0]  the slot number + 1
 *
 * so TEE_HANDLE_NULL (0) is never a handle, a handle of one kind is never
 * taken for another, and a handle kept after it was released (or made up)
 * is recognised as dead with overwhelming likelihood. Lookups never trust
 * the value: every field is checked against the table.
 *
 * A table belongs to one thread (the TA's), as everything in the runtime.
 */
#ifndef SWTEE_HANDLE_H
#define SWTEE_HANDLE_H

#include <stddef.h>
#include <stdint.h>

enum handle_kind {
	HANDLE_KIND_OBJECT = 0x1,     /* TEE_ObjectHandle: transient and persistent */
	HANDLE_KIND_OPERATION = 0x2,  /* TEE_OperationHandle */
	HANDLE_KIND_OBJ_ENUM = 0x3,   /* TEE_ObjectEnumHandle (trusted storage) */
	HANDLE_KIND_TA_SESSION = 0x4, /* TEE_TASessionHandle (TA-to-TA) */
};

#define HANDLE_SLOTS_MAX 0xffffU

struct handle_slot {
	void *ptr; /* NULL: the slot is free */
	uint16_t gen;
};

struct handle_table {
	uint32_t kind; /* an enum handle_kind */
	uint32_t max;  /* live handles allowed, at most HANDLE_SLOTS_MAX */
	struct handle_slot *slots;
	uint32_t nslots; /* allocated */
	uint32_t live;
};

#define HANDLE_TABLE_INIT(k, m)                                                                    \
	{                                                                                          \
		.kind = (k), .max = (m)                                                            \
	}

/*
 * Stores p (not NULL) and returns its handle, or 0 when the table holds
 * max handles already or memory runs out. The table does not own p.
 */
uint32_t handle_new(struct handle_table *t, void *p);
/* The pointer behind a live handle h, or NULL for anything else. */
void *handle_lookup(const struct handle_table *t, uint32_t h);
/* Releases a live handle and returns its pointer; NULL if h is not live. */
void *handle_release(struct handle_table *t, uint32_t h);
/* Number of live handles. */
uint32_t handle_count(const struct handle_table *t);

#endif
