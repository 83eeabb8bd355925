/*
 * The trusted storage engine of the core: its private types. The design, the
 * on-disk layout and the commit protocol are in docs/storage.md; in short:
 *
 *   HUK (secure dir) -> SSK -> TSK per TA -> FEK per object (random)
 *
 * Each TA has a store: a directory of the REE FS (opaque name) served by the
 * supplicant, holding a write-ahead journal, a directory snapshot and the
 * files of its objects, and a slot of the emulated RPMB in the secure dir
 * that anchors the head of the journal's hash chain with a monotonic counter.
 * An object is data blocks of STOR_BLOCK bytes, each AES-GCM sealed under the
 * object's FEK with a fresh IV, under a tree of map pages whose entries pin
 * each block's IV and tag (and each lower page's hash); the root sits in the
 * object's directory entry. Every change is a transaction: one journal
 * record, anchored by the RPMB slot: for a small one, one fdatasync of the
 * slot's log (journal.h).
 *
 * Threads: the epoll thread of the core only sets channels up. Each TA
 * instance that uses storage gets a worker thread with a supplicant channel
 * of its own; the stores of different TAs share no lock.
 *
 * The headers: format.h (sizes and formats), keys.h (keys and primitives),
 * rpmb.h (the RPMB slot), reefs.h (the REE FS channel), this one (the store,
 * its directory, transactions, the map and object data, which include the
 * others), and the private ones of journal.h and worker.h.
 */
#ifndef SWTEE_STORAGE_H
#define SWTEE_STORAGE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <tee_api_defines.h>

#include "buf.h"
#include "format.h"
#include "keys.h"
#include "must_check.h"
#include "proto.h"
#include "reefs.h"
#include "rpmb.h"
#include "uuid.h"

/* Bound on what one store keeps: objects, and map pages cached. */
#define STOR_OBJECTS_MAX 100000
#define STOR_PAGE_CACHE 256

/* ---- the store ---- */

/* One object in a store's directory. */
struct stor_entry {
	uint8_t fid[STOR_FID]; /* random; names its files, never changes */
	uint8_t ns;
	uint8_t flags;
	uint8_t id_len;
	uint8_t id[PROTO_STOR_ID_MAX];
	uint8_t *fek; /* STOR_KEY bytes of secmem */
	uint64_t size;
	uint8_t root[STOR_HASH]; /* the root of its map (see map.c) */
	uint32_t type;
	uint32_t obj_size;
	uint32_t max_size;
	uint32_t usage;
	uint32_t attr_len; /* the attribute blob, in file <fid>.a */
	uint8_t attr_iv[STOR_IV];
	uint8_t attr_tag[STOR_TAG];
	/* not stored: */
	/*
	 * Blocks any state since the last checkpoint referred to: a record
	 * replayed after a crash may rewrite those, so only blocks past it may
	 * be written in place (they are in no record's images).
	 */
	uint64_t hw;
	bool dir_synced;	/* its data file is known to be in the directory for good */
	struct stor_open *open; /* handles on it, when open */
	struct stor_entry *hnext;
};

/* What an open object keeps: its handles' flags, its cipher, a read cache. */
struct stor_open {
	uint32_t nhandles;
	uint32_t *hflags;
	size_t hcap;
	EVP_CIPHER_CTX *ctx;
	uint64_t ra_first; /* blocks [ra_first, ra_first + ra_n) are in ra */
	uint32_t ra_n;
	uint8_t *ra;
	/* The last block a pending change sealed: read-ahead once it commits. */
	uint8_t *pend;
	uint64_t pend_block;
	bool pend_set;
	/* blocks the pending change sealed; a truncation counts as many */
	uint64_t pend_blocks;
};

#define STOR_RA_BLOCKS 16

struct map_page {
	uint8_t fid[STOR_FID];
	uint8_t level;
	uint32_t index;
	uint8_t hash[STOR_HASH];
	uint8_t e[STOR_BLOCK];
	uint64_t used;
};

struct dirty_set {
	uint8_t (*fid)[STOR_FID + 1]; /* fid and file kind */
	size_t n;
	size_t cap;
	bool lost; /* one could not be added: sync every file */
};

struct store {
	struct swtee_uuid uuid;
	char dir[STOR_DIRNAME_LEN + 1];
	pthread_mutex_t lock;
	unsigned int refs; /* under the stores table lock */
	bool loaded;
	/*
	 * Its RPMB slot or its REE files cannot be written (read-only file
	 * systems, seen at load): reads work, every transaction fails with
	 * TEE_ERROR_STORAGE_NOT_AVAILABLE before it starts.
	 */
	bool readonly;
	TEE_Result broken;    /* not TEE_SUCCESS: every call fails with it */
	struct ta_keys *keys; /* secmem */
	struct reefs *fs;     /* the channel of the worker holding the lock */
	/* a channel still applying a committed record (fsb_send): applying.post */
	struct fs_owner applying;
	struct rpmb_slot rpmb;
	/* the directory */
	struct stor_entry **sorted; /* by fid */
	size_t n;
	size_t cap;
	struct stor_entry **hash; /* by (ns, id) */
	size_t hsize;
	/* the journal */
	uint64_t seq;		/* of the chain head */
	uint8_t tag[STOR_TAG];	/* of the chain head */
	int hslot;		/* the header slot in use */
	uint64_t jend;		/* where the next record goes */
	uint64_t jalloc;	/* bytes of journal written (zeros past jend) */
	uint64_t dir_seq;	/* the snapshot file d.<dir_seq>, 0: none */
	struct dirty_set dirty; /* files changed in place since the checkpoint */
	uint64_t since_ckpt;	/* records since the checkpoint */
	/*
	 * The last record of the RPMB log lists blocks written in place: a
	 * load would check they landed, and drop it if not. Its call has
	 * returned, so journal_confirm puts a record after it when idle.
	 */
	bool unconfirmed;
	/* persistent time */
	bool time_set;
	int64_t time_offset_ms; /* TA time minus REE time */
	uint64_t time_ree_ms;	/* REE time when it was set */
	/* map page cache */
	struct map_page *pages[STOR_PAGE_CACHE];
	uint64_t page_tick;
	uint64_t txn_count;
	struct store *next;
};

/* store.c */
/* The store of uuid, referenced; NULL when out of memory. */
SWTEE_MUST_CHECK struct store *store_get(const struct swtee_uuid *uuid);
void store_put(struct store *s);
/* Locks s for the worker whose channel is fs, loading it first if needed. */
SWTEE_MUST_CHECK TEE_Result store_lock(struct store *s, struct reefs *fs);
/*
 * As store_lock, but a store not loaded yet stays so (its channel ends:
 * nothing of it was used): TEE_ERROR_STORAGE_NOT_AVAILABLE, still locked.
 */
SWTEE_MUST_CHECK TEE_Result store_lock_loaded(struct store *s, struct reefs *fs);
void store_unlock(struct store *s);
/* True when the caller holds the only reference to s. */
bool store_sole(struct store *s);

/*
 * store_break.c: a store out of service, said by any layer (commit,
 * checkpoint, load) without calling back up into store.c. Marks s broken
 * with res (kept for the rest of its life in memory) and logs why, once.
 */
void store_break(struct store *s, TEE_Result res, const char *why);

/* dir.c: the directory of a store */
struct stor_entry *dir_find(struct store *s, uint8_t ns, const uint8_t *id, size_t id_len);
struct stor_entry *dir_find_fid(struct store *s, const uint8_t fid[STOR_FID]);
/* The first entry of ns whose fid follows after (or the first of all). */
struct stor_entry *dir_next(struct store *s, uint8_t ns, const uint8_t *after);
/* Adds e (owned by the directory from then on). 0 or -1. */
SWTEE_MUST_CHECK int dir_insert(struct store *s, struct stor_entry *e);
/* Takes e out and frees it. */
void dir_remove(struct store *s, struct stor_entry *e);
/* Re-files e after its id changed. */
void dir_rehash(struct store *s, struct stor_entry *e, uint8_t old_ns, const uint8_t *old_id,
		size_t old_len);
void dir_free_all(struct store *s);
SWTEE_MUST_CHECK struct stor_entry *entry_new(void);
/* A copy of e's stored fields (not its open state), or NULL. */
SWTEE_MUST_CHECK struct stor_entry *entry_dup(const struct stor_entry *e);
void entry_free(struct stor_entry *e);
/* e's stored fields, ENTRY_BYTES of them (format.h). */
void entry_put(struct buf_writer *w, const struct stor_entry *e);
/* Parses into e (whose fek is allocated); false when malformed. */
SWTEE_MUST_CHECK bool entry_get(struct buf_reader *r, struct stor_entry *e);
/* The name of one of an object's files: "" kind for data, '1'..'3' map levels, 'a' attrs. */
void entry_file(const uint8_t fid[STOR_FID], char kind, char out[PROTO_FS_NAME_MAX + 1]);

/*
 * the journal: transactions, checkpoints and recovery (journal.h has its
 * files; format.h the operations of a record)
 */

struct txn_page; /* map pages a transaction changed */
struct dv_ent;	 /* a block written in place (txn.c) */

struct txn {
	struct store *s;
	EVP_CIPHER_CTX *gcm;
	uint8_t iv[STOR_IV];
	bool ree;	/* the record goes to the REE journal (a large one) */
	uint64_t rec;	/* REE: offset of the record in the journal */
	uint64_t bulk;	/* bytes of bulk so far */
	uint8_t *pbulk; /* not REE: the bulk, in private memory */
	size_t pcap;
	uint64_t bulk_sent;	/* REE: bytes of bulk written already */
	uint32_t staged;	/* REE: bulk bytes in the write area not yet sent */
	uint32_t direct_staged; /* bytes for files written in place, not yet synced */
	uint32_t direct_sent;	/* of which sent ahead (fsb_send) */
	/* The write in place being gathered, not queued yet: */
	char drun_name[PROTO_FS_NAME_MAX + 1];
	uint64_t drun_off;
	uint32_t drun_win;
	uint32_t drun_len;
	uint8_t *meta; /* the operations, in clear until sealed */
	size_t meta_len;
	size_t meta_cap;
	char (*direct)[PROTO_FS_NAME_MAX + 1]; /* files written in place, to sync first */
	size_t ndirect;
	bool direct_new; /* one of them is new: sync the directory too */
	struct fsb b;	 /* what goes to the supplicant ahead of the commit */
	/* The blocks written in place, so that recovery can check they landed: */
	struct dv_ent *dv;
	size_t ndv;
	size_t dv_cap;
	bool dv_over; /* too many: their sync comes before the record's */
	struct txn_page *pages;
	TEE_Result err; /* the first failure while building */
};

/* Opens the store's REE side, recovering it, or makes a new one. */
SWTEE_MUST_CHECK TEE_Result journal_load(struct store *s);
void txn_begin(struct txn *t, struct store *s);
/* Bulk data for the record: returns its offset in the journal file. */
uint64_t txn_bulk(struct txn *t, const void *p, size_t len);
/* An image for a file, applied after the commit. */
void txn_image(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t off, const void *p,
	       size_t len);
/*
 * Room for len bytes (at most STOR_BLOCK) written straight into a file no
 * committed state refers to, at off: the caller fills it before the next
 * call. Contiguous pieces go as one write. left: about how many bytes the
 * caller will still ask for after these. NULL after a failure (t->err).
 */
uint8_t *txn_direct_buf(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t off,
			size_t len, size_t left, bool new_file);
/* The IV and tag block b of fid got, sealed into a txn_direct_buf. */
void txn_direct_ent(struct txn *t, const uint8_t fid[STOR_FID], uint64_t b,
		    const uint8_t iv[STOR_IV], const uint8_t tag[STOR_TAG]);
void txn_put(struct txn *t, const struct stor_entry *e);
void txn_del(struct txn *t, const uint8_t fid[STOR_FID]);
void txn_truncate(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t size);
void txn_remove(struct txn *t, const uint8_t fid[STOR_FID]);
void txn_time(struct txn *t, int64_t offset_ms, uint64_t ree_ms);
/*
 * map_finish for t: the changed map pages of w (the working copy of e, NULL
 * for an object t creates) become images of t, and its truncations t's.
 */
SWTEE_MUST_CHECK TEE_Result txn_map_finish(struct txn *t, const struct stor_entry *e,
					   struct stor_entry *w);
/*
 * Makes the transaction durable and applies it: the directory in memory,
 * the files, the map page cache. On failure nothing changed, unless the
 * store broke (s->broken). The transaction is over either way.
 */
SWTEE_MUST_CHECK TEE_Result txn_commit(struct txn *t);
void txn_abort(struct txn *t);
/*
 * Removes what changes that never committed left behind in the store's
 * directory: files of objects no entry names, snapshots no header names.
 * Best effort, at load (sweep.c).
 */
void journal_sweep(struct store *s);
/* The name of the directory snapshot of sequence seq. */
void journal_dir_file(uint64_t seq, char out[PROTO_FS_NAME_MAX + 1]);
/*
 * If the last record lists blocks written in place (s->unconfirmed), a
 * record after it, so that no recovery can take it back.
 */
SWTEE_MUST_CHECK TEE_Result journal_confirm(struct store *s);
/*
 * A checkpoint if there are records since the last one: what a store that
 * nobody uses does, so that the next load replays nothing.
 */
SWTEE_MUST_CHECK TEE_Result journal_checkpoint(struct store *s);

/* map.c: the tree of map pages over an object's blocks */

struct map_ent {
	uint8_t iv[STOR_IV];
	uint8_t tag[STOR_TAG];
	bool present; /* false: a hole, all zeros */
};

/* Levels above the blocks for an object of size bytes. */
unsigned int map_depth(uint64_t size);
uint64_t map_blocks(uint64_t size);
/* The entries of blocks [b, b + k) of the committed tree of e. */
SWTEE_MUST_CHECK TEE_Result map_get(struct store *s, const struct stor_entry *e, uint64_t b,
				    uint64_t k, struct map_ent *out);
/*
 * Sets the entries of blocks [first, first + n) of object fid in t (ents NULL
 * for holes); e is its committed entry, NULL for an object t creates.
 */
SWTEE_MUST_CHECK TEE_Result map_set(struct store *s, struct txn *t, const struct stor_entry *e,
				    const uint8_t fid[STOR_FID], uint64_t first, uint64_t n,
				    const struct map_ent *ents);
/*
 * Where map_finish hands what changed: each changed page as an image of its
 * file (kind '1'..'3', at off), and when the object shrinks, the new lengths
 * of its files (kind 0 for its data). ctx is the sink's own.
 */
struct map_sink {
	void *ctx;
	void (*image)(void *ctx, const uint8_t fid[STOR_FID], char kind, uint64_t off,
		      const void *p, size_t len);
	void (*truncate)(void *ctx, const uint8_t fid[STOR_FID], char kind, uint64_t size);
};
/*
 * Once the transaction's working copy w of the object has its final size:
 * trims and hashes the changed pages, hands them and the truncations to out
 * (for t: txn_map_finish), sets w->root. TEE_SUCCESS or t->err.
 */
SWTEE_MUST_CHECK TEE_Result map_finish(struct store *s, struct txn *t, const struct stor_entry *e,
				       struct stor_entry *w, const struct map_sink *out);
void map_txn_install(struct txn *t);
void map_txn_free(struct txn *t);
void map_cache_drop(struct store *s, const uint8_t fid[STOR_FID]);
void map_cache_free(struct store *s);

/* object.c: object data */

SWTEE_MUST_CHECK TEE_Result obj_open(struct stor_entry *e);
void obj_close(struct stor_entry *e);
SWTEE_MUST_CHECK TEE_Result obj_read(struct store *s, struct stor_entry *e, uint64_t pos,
				     uint8_t *dst, size_t len);
/*
 * Adds to t the write of len bytes at pos of the working copy w of e (e is
 * the committed entry, NULL for an object t creates).
 */
SWTEE_MUST_CHECK TEE_Result obj_write(struct store *s, struct txn *t, struct stor_entry *e,
				      struct stor_entry *w, uint64_t pos, const uint8_t *src,
				      size_t len);
SWTEE_MUST_CHECK TEE_Result obj_truncate(struct store *s, struct txn *t, struct stor_entry *e,
					 struct stor_entry *w, uint64_t size);
/* Forgets cached plaintext of e (after it changed). */
void obj_invalidate(struct stor_entry *e);
/*
 * After a transaction that changed e: committed (ok), the last block it
 * sealed becomes the read-ahead, so that appending in small pieces reads
 * nothing back; otherwise every cached block goes.
 */
void obj_committed(struct stor_entry *e, bool ok);
/* Seals and stores an attribute blob for the new object w. */
SWTEE_MUST_CHECK TEE_Result obj_put_attrs(struct txn *t, struct stor_entry *w, const uint8_t *blob,
					  size_t len);
/*
 * Recovery: whether blocks [first, first + n) of e (as the entry of a
 * record describes it) are in its data file as sealed with ivtags (n times
 * iv, tag). TEE_SUCCESS, TEE_ERROR_CORRUPT_OBJECT when one is not, or the
 * channel's error.
 */
SWTEE_MUST_CHECK TEE_Result obj_check_blocks(struct store *s, const struct stor_entry *e,
					     uint64_t first, uint32_t n, const uint8_t *ivtags);
SWTEE_MUST_CHECK TEE_Result obj_get_attrs(struct store *s, struct stor_entry *e, uint8_t *blob);

/* worker.c: the storage channels of TA instances */
/*
 * A storage channel served on the calling thread instead of a thread of its
 * own, for the request parser's harness (tests/fuzz/fuzz_storage_requests.c).
 * Requests go to worker_request one at a time and each answer goes to sock;
 * fs (the REE FS channel), sock, the bulk window (PROTO_STOR_WINDOW bytes)
 * and the heap (NULL: none) stay the caller's. NULL when out of memory.
 */
SWTEE_MUST_CHECK struct worker *worker_attach(const struct swtee_uuid *uuid, struct reefs *fs,
					      int sock, uint8_t *bulk, const uint8_t *heap,
					      size_t heap_len);
/* One request, as the worker thread takes it; false when it does not parse (the channel ends). */
bool worker_request(struct worker *w, const uint8_t *req, size_t n);
/* What the worker does when its instance is idle: the record after an in-place write. */
void worker_idle(struct worker *w);
/* Closes what the requests left open, as at the channel's end, and frees w (NULL: nothing). */
void worker_detach(struct worker *w);

#endif
