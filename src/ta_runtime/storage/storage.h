/*
 * The Trusted Storage API in the TA runtime: persistent objects, their
 * enumeration, data streams, and the TA persistent time. Everything is kept
 * by the core (src/core/storage); the runtime checks the TA's arguments as
 * GP demands (panics included), talks to the core over the instance's
 * storage channel, and represents an open persistent object as a key object
 * of the object layer (crypto/object.h) with the persistent flag and the
 * storage fields filled in.
 */
#ifndef SWTEE_RT_STORAGE_H
#define SWTEE_RT_STORAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "object.h"
#include "runtime.h"

/* What struct tee_obj.storage points at for a persistent object. */
struct stor_obj {
	uint32_t handle;  /* the core's */
	uint32_t storage; /* the storage ID it was opened in */
	uint32_t flags;	  /* TEE_DATA_FLAG_* it was opened with */
	bool corrupt;	  /* an integrity check failed: it stays failed */
	/*
	 * Read-ahead (tee_api_stream.c), for handles without
	 * TEE_DATA_FLAG_SHARE_WRITE: no other handle can write the object
	 * then, so data read from the core stays what the object holds as
	 * long as writes through this handle update it too.
	 */
	uint8_t *ra;	 /* STOR_RA_LEN bytes once used */
	uint64_t ra_pos; /* ra holds the data at [ra_pos, ra_pos + ra_len) */
	uint32_t ra_len;
	uint64_t ra_next; /* where the last read ended: a read there is sequential */
};

#define STOR_RA_LEN (64u * 1024)

/* stor_chan.c: the storage channel to the core */

/* The bulk window (PROTO_STOR_WINDOW bytes), once stor_call has worked. */
uint8_t *stor_bulk(void);
/* The bulk window, opening the channel first if needed; NULL without one. */
uint8_t *stor_window(void);
/*
 * Whether the core can take [p, p + len) from the TA's heap (a write of at
 * least STOR_HEAP_MIN bytes from a TEE_Malloc'd buffer, on a channel that
 * has the heap); *off is then its offset in the heap. Below that size the
 * copy through the bulk window costs less than the core's first touch of
 * the heap's pages.
 */
bool stor_heap_offset(const void *p, size_t len, uint64_t *off);
#define STOR_HEAP_MIN (64u * 1024)

/*
 * Sends the request and waits for its MSG_STOR_RSP. Returns the result the
 * core gave, with *r over what follows it in rsp; or
 * TEE_ERROR_STORAGE_NOT_AVAILABLE when there is no channel (r then empty).
 */
TEE_Result stor_call(const void *req, size_t len, uint8_t *rsp, size_t cap, struct buf_reader *r);

/* tee_api_pobj.c */

/* The persistent object behind h; panics (naming func) for anything else. */
struct tee_obj *stor_obj_from_handle(TEE_ObjectHandle h, const char *func);
static inline struct stor_obj *stor_of(struct tee_obj *o)
{
	return o->storage;
}
/*
 * Checks an object ID from the TA: at most TEE_OBJECT_ID_MAX_LEN bytes, not
 * NULL with a length, not in a client's shared memory. Panics otherwise.
 */
void stor_check_id(const void *id, size_t len, const char *func);
/* The data size of o as the core knows it now (others may write it). */
TEE_Result stor_refresh_size(struct tee_obj *o);
/* Records a result of the core for o (marks it corrupt when it is). */
TEE_Result stor_note(struct tee_obj *o, TEE_Result res);
/* Frees so (its read-ahead included). */
void stor_obj_free(struct stor_obj *so);
/* Panics with res unless it is one of the n codes in ok (or TEE_SUCCESS). */
void stor_expect(TEE_Result res, const TEE_Result *ok, size_t n, const char *func);

#endif
