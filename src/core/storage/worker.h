/*
 * The storage channel of a TA instance, the private header of its files:
 * worker.c (the thread and the channel's setup), requests.c (the dispatch
 * table), reads.c and changes.c (the requests), handles.c (the handle
 * table), access.c (what every request goes through).
 */
#ifndef SWTEE_STORAGE_WORKER_H
#define SWTEE_STORAGE_WORKER_H

#include <tee_api_defines.h>

#include "msg.h"
#include "storage.h"

#define HANDLES_MAX 4096
#define ACCESS_FLAGS                                                                               \
	(TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_ACCESS_WRITE_META)
#define SHARE_FLAGS (TEE_DATA_FLAG_SHARE_READ | TEE_DATA_FLAG_SHARE_WRITE)
#define OPEN_FLAGS (ACCESS_FLAGS | SHARE_FLAGS)
#define CREATE_FLAGS (OPEN_FLAGS | TEE_DATA_FLAG_OVERWRITE)

struct whandle {
	struct stor_entry *e; /* NULL: free */
	uint32_t flags;
};

/* A create or write that comes in several pieces. */
struct pending {
	bool active;
	bool create;
	struct txn t;
	struct stor_entry *w; /* the transaction's copy */
	struct stor_entry *e; /* the committed entry (write), or the one replaced (create) */
	uint32_t handle;
	uint32_t flags;
	uint64_t next; /* where the next piece goes */
	uint64_t left; /* create: initial data still to come */
};

struct worker {
	pthread_t thread;
	uint32_t instance;
	struct swtee_uuid uuid;
	int sock;
	uint8_t *bulk;	     /* shared with the instance */
	const uint8_t *heap; /* the instance's heap, read-only; NULL without it */
	size_t heap_len;
	struct reefs *fs; /* own_fs, or the caller's (worker_attach) */
	struct reefs own_fs;
	struct store *store;
	struct whandle *h;
	size_t nh;
	uint8_t *buf; /* private, PROTO_STOR_WINDOW bytes */
	struct pending p;
	bool confirm_due; /* see journal_confirm */
	/*
	 * Waits (bounded) for the workers of instances that have just ended to
	 * close what they held; whether there were any (worker.c).
	 */
	bool (*releases_wait)(const struct worker *self);
	struct worker *next;
};

/* ---- requests.c ---- */

/*
 * Serves one request of in[0..n) (a copy in private memory); false when it
 * does not parse, and the channel then ends (a pending create or write ends
 * with it). Every request that parses gets exactly one reply.
 */
bool requests_serve(struct worker *w, const uint8_t *in, size_t n);
/* The end of the instance's requests: what they left open closes, its store is let go. */
void requests_end(struct worker *w);

/* ---- the requests: reads.c and changes.c ---- */
/*
 * Each parses the rest of its request from r (after the handle h where it
 * takes one) and replies; false, with no reply, when it does not parse.
 */
bool do_open(struct worker *w, struct buf_reader *r);
bool do_read(struct worker *w, struct buf_reader *r);
void do_close(struct worker *w, uint32_t h);
void do_info(struct worker *w, uint32_t h);
void do_attrs(struct worker *w, uint32_t h);
bool do_enum(struct worker *w, struct buf_reader *r);
bool do_time_get(struct worker *w, struct buf_reader *r);
bool do_create(struct worker *w, struct buf_reader *r);
bool do_create_part(struct worker *w, struct buf_reader *r);
bool do_write(struct worker *w, struct buf_reader *r);
bool do_truncate(struct worker *w, uint32_t h, struct buf_reader *r);
bool do_rename(struct worker *w, uint32_t h, struct buf_reader *r);
bool do_restrict(struct worker *w, uint32_t h, struct buf_reader *r);
void do_delete(struct worker *w, uint32_t h);
bool do_time_set(struct worker *w, struct buf_reader *r);
/* Drops the pending create or write, if any, and lets go of the store it locked. */
void pending_end(struct worker *w);

/* ---- handles.c ---- */

/* The handle h of w (1-based), or NULL when it names no open handle. */
struct whandle *handle_of(struct worker *w, uint32_t h);
/* Whether e may get a handle with flags beside those it has (GP's sharing rules). */
bool may_open(const struct stor_entry *e, uint32_t flags);
/*
 * A new handle of w on e with flags (e opened if it was not): its number
 * in *h. TEE_SUCCESS, TEE_ERROR_OUT_OF_MEMORY (HANDLES_MAX reached too),
 * or obj_open's error.
 */
SWTEE_MUST_CHECK TEE_Result handle_add(struct worker *w, struct stor_entry *e, uint32_t flags,
				       uint32_t *h);
/* Closes the handle wh (e closed with its last one); wh is free again. */
void handle_drop(struct whandle *wh);

/* ---- access.c ---- */

/* The answer to a request: MSG_STOR_RSP, res, then n bytes of extra (at most 248). */
void reply(struct worker *w, TEE_Result res, const uint8_t *extra, size_t n);
/* An object's info as replies carry it: type, sizes, usage, data size, flags. */
void put_info(struct buf_writer *bw, const struct stor_entry *e, uint32_t flags);
/* An object id: len:u32 (at most PROTO_STOR_ID_MAX) then its bytes. */
bool get_id(struct buf_reader *r, uint8_t id[PROTO_STOR_ID_MAX], uint32_t *len);
/* The namespace of a storage ID; false for an ID this TEE does not have. */
bool ns_of(uint32_t storage, uint8_t *ns);
/*
 * Locks the store of w (found on first use), loaded if need be: TEE_SUCCESS
 * with it locked, or its error with it unlocked.
 */
SWTEE_MUST_CHECK TEE_Result lock(struct worker *w);
/* Locks the store whatever its state (to close handles); -1 when there is none. */
int lock_any(struct worker *w);
/* Lets go of the store; a record that waits for one after it is confirmed when idle. */
void unlock(struct worker *w);
/*
 * The result a request answers for res on e: a corrupt object is marked so
 * for good (a record), TEE_ERROR_ITEM_NOT_FOUND (a file gone) becomes
 * TEE_ERROR_STORAGE_NOT_AVAILABLE. The store is locked.
 */
TEE_Result fix_result(struct worker *w, struct stor_entry *e, TEE_Result res);
/*
 * The handle h of a request, which must have the access need: *out, with
 * the store locked, or TEE_ERROR_BAD_PARAMETERS, TEE_ERROR_ACCESS_DENIED,
 * TEE_ERROR_CORRUPT_OBJECT or lock's error, unlocked.
 */
TEE_Result begin(struct worker *w, uint32_t h, uint32_t need, struct whandle **out);
/* The REE's time of day, in ms. */
uint64_t ree_now_ms(void);

#endif
