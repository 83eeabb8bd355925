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
#include "must_check.h"
#include "proto.h"
#include "uuid.h"

typedef uint32_t TEE_Result;

#define STOR_KEY 32
#define STOR_IV 12
#define STOR_TAG 16
#define STOR_HASH 32
#define STOR_FID 16
#define STOR_BLOCK 4096u
#define STOR_ENTRY 32u			      /* a map entry */
#define STOR_FANOUT (STOR_BLOCK / STOR_ENTRY) /* entries per map page */
#define STOR_LEVELS 3			      /* 128^3 blocks > 4 GiB */
#define STOR_MAX_SIZE 0xffffffffull	      /* TEE_DATA_MAX_POSITION */
#define STOR_NS_PRIVATE 0		      /* TEE_STORAGE_PRIVATE and _REE */
#define STOR_NS_RPMB 1			      /* TEE_STORAGE_PRIVATE_RPMB */
#define STOR_DIRNAME_LEN PROTO_FS_DIR_LEN

/* Bound on what one store keeps: objects, and map pages cached. */
#define STOR_OBJECTS_MAX 100000
#define STOR_PAGE_CACHE 256

/* ---- secmem.c: locked, non-dumpable memory for keys ---- */

/* n <= 128 bytes of zeroed locked memory, or NULL. */
SWTEE_MUST_CHECK void *secmem_alloc(size_t n);
/* Wipes and releases p (NULL is fine). */
void secmem_free(void *p);

/* ---- keys.c: the key chain and the primitives ---- */

/*
 * Loads the HUK from secure_dir/huk, making it (0600) on first start, and
 * derives the SSK and the RPMB key into locked memory. 0 or -1.
 */
SWTEE_MUST_CHECK int keys_init(const char *secure_dir);
void keys_fini(void);
bool keys_ready(void);
const char *keys_secure_dir(void);

struct ta_keys {
	uint8_t dir[STOR_KEY];	   /* directory snapshots */
	uint8_t journal[STOR_KEY]; /* journal records and headers */
	uint8_t binding[STOR_TAG]; /* ties an RPMB slot to its TA */
};

/* The TA's keys (from its TSK) and the name of its REE FS directory. */
void keys_for_ta(const struct swtee_uuid *uuid, struct ta_keys *k,
		 char dirname[STOR_DIRNAME_LEN + 1]);
/*
 * The device-unique key of the TA uuid, from extra[0..extra_len) (at most
 * KEYS_UNIQUE_EXTRA_MAX bytes), into key[0..key_len) (at most 32 bytes).
 * Returns 0, or -1 without the storage keys or for a size out of range.
 */
#define KEYS_UNIQUE_EXTRA_MAX 1024
SWTEE_MUST_CHECK int keys_ta_unique(const struct swtee_uuid *uuid, const void *extra,
				    size_t extra_len, uint8_t *key, size_t key_len);
/* HMAC-SHA256 under the RPMB key. */
void keys_rpmb_mac(const void *p, size_t n, uint8_t mac[STOR_HASH]);

SWTEE_MUST_CHECK int crypt_random(void *p, size_t n);
void crypt_sha256(const void *p, size_t n, uint8_t out[STOR_HASH]);
void crypt_hmac(const uint8_t key[STOR_KEY], const void *a, size_t an, const void *b, size_t bn,
		uint8_t out[STOR_HASH]);
/*
 * One-shot AES-256-GCM under ctx, a cipher context already keyed (see
 * crypt_ctx_new; never NULL). seal writes len bytes to out and the tag:
 * 0 or -1. open returns 0 only when the tag matches; on any failure the len
 * bytes of out are wiped, so no unverified plaintext is left in it. out may
 * be NULL when len is 0 (a tag over the AAD alone).
 */
SWTEE_MUST_CHECK EVP_CIPHER_CTX *crypt_ctx_new(const uint8_t key[STOR_KEY]);
SWTEE_MUST_CHECK int crypt_seal(EVP_CIPHER_CTX *ctx, const uint8_t iv[STOR_IV], const void *aad,
				size_t aadlen, const uint8_t *in, uint8_t *out, size_t len,
				uint8_t tag[STOR_TAG]);
SWTEE_MUST_CHECK int crypt_open(EVP_CIPHER_CTX *ctx, const uint8_t iv[STOR_IV], const void *aad,
				size_t aadlen, const uint8_t *in, uint8_t *out, size_t len,
				const uint8_t tag[STOR_TAG]);

/* ---- rpmb.c: the emulated RPMB, one slot file per TA ---- */

#define RPMB_LOG_OFF 4096
#define RPMB_LOG_SIZE (2u * 1024 * 1024)

struct rpmb_slot {
	int fd;
	uint64_t counter;	   /* writes so far */
	uint64_t seq;		   /* the REE journal position anchored */
	uint8_t tag[STOR_TAG];	   /* and its chain tag */
	uint64_t log_seq;	   /* the last record of the log (seq when empty) */
	uint8_t log_tag[STOR_TAG]; /* its chain tag */
	uint64_t log_end;	   /* bytes of log used */
	bool readonly;		   /* opened for reading only (a read-only secure dir) */
};

enum { RPMB_OK, RPMB_ABSENT, RPMB_BAD, RPMB_IO, RPMB_FULL };
enum { RPMB_LOG_NOTHING = 1, RPMB_LOG_MAYBE = 2 };

/*
 * Opens and authenticates the TA's slot: RPMB_OK (read-only when the secure
 * dir cannot be written), RPMB_ABSENT, RPMB_BAD or RPMB_IO.
 */
SWTEE_MUST_CHECK int rpmb_open(struct rpmb_slot *r, const char *dirname, const struct ta_keys *k);
/*
 * Makes the slot (counter 0, seq 0, empty log): durable before it returns.
 * RPMB_OK, RPMB_FULL (no space in the secure dir) or RPMB_IO.
 */
SWTEE_MUST_CHECK int rpmb_create(struct rpmb_slot *r, const char *dirname, const struct ta_keys *k);
/* Anchors (seq, tag) and empties the log: written and fdatasync'd. 0 or -1. */
SWTEE_MUST_CHECK int rpmb_update(struct rpmb_slot *r, const struct ta_keys *k, uint64_t seq,
				 const uint8_t tag[STOR_TAG]);
/*
 * Appends record (seq, tag) of len bytes to the log with one fdatasync.
 * 0; RPMB_LOG_NOTHING when nothing of it can count; RPMB_LOG_MAYBE when it
 * may or may not have become durable.
 */
SWTEE_MUST_CHECK int rpmb_log_append(struct rpmb_slot *r, const struct ta_keys *k, const void *rec,
				     size_t len, uint64_t seq, const uint8_t tag[STOR_TAG]);
/*
 * The whole log area into buf (RPMB_LOG_SIZE bytes); what lies past the end
 * of a short slot file reads as zeros (no record). 0, or -1 on a read error.
 */
SWTEE_MUST_CHECK int rpmb_log_read(const struct rpmb_slot *r, void *buf);
void rpmb_close(struct rpmb_slot *r);

/* ---- reefs.c: a REE FS channel to the supplicant ---- */

/* The window: the first half for reads, the second for what is written. */
#define FS_READ_AREA 0u
#define FS_READ_AREA_LEN (PROTO_FS_WINDOW / 2)
#define FS_WRITE_AREA (PROTO_FS_WINDOW / 2)
#define FS_WRITE_AREA_LEN (PROTO_FS_WINDOW / 2)

/* Batches sent ahead without waiting (fsb_send), at most. */
#define FS_INFLIGHT_MAX 8

struct reefs;

/*
 * Whom batches sent ahead apply for (fsb_send): a store's committed record.
 * post is the channel still applying one of them, NULL when none is in
 * flight; failed is called, with the result to break with, for each of
 * them that fails (the store in memory no longer matches its files).
 */
struct fs_owner {
	struct reefs *post;
	void (*failed)(struct fs_owner *o, TEE_Result res);
};

struct reefs {
	int sock;
	uint8_t *win; /* shared with the supplicant: never trust what it holds */
	bool broken;
	/* Batches sent whose replies are still to be read, in order: */
	uint32_t inflight;
	uint32_t inflight_nops[FS_INFLIGHT_MAX];
	struct fs_owner *inflight_owner[FS_INFLIGHT_MAX]; /* see fsb_send */
};

/* A batch of operations, built then run. Names are PROTO_FS_NAME_MAX at most. */
struct fsb {
	struct reefs *fs;
	char dir[PROTO_FS_DIR_LEN + 1];
	uint8_t msg[PROTO_MSG_MAX];
	struct buf_writer w;
	uint32_t nops;
	uint32_t want[PROTO_FS_OPS_MAX]; /* what a READ asked for */
	uint32_t counts[PROTO_FS_OPS_MAX];
	/* after a failed run: the index of the op; nops when no reply said (any may have run) */
	uint32_t failed;
	uint32_t fs_res; /* FS_RES_* of that op */
};

SWTEE_MUST_CHECK int reefs_open(struct reefs *fs, int sock, int win_fd);
void reefs_close(struct reefs *fs);

void fsb_init(struct fsb *b, struct reefs *fs, const char *dir);
/* True when nops more ops of about bytes each still fit the message. */
bool fsb_room(const struct fsb *b, uint32_t nops, size_t bytes);
/* Each returns the op's index. The window ranges are the caller's to manage. */
uint32_t fsb_read(struct fsb *b, const char *name, uint64_t off, uint32_t len, uint32_t win);
uint32_t fsb_write(struct fsb *b, const char *name, uint64_t off, uint32_t len, uint32_t win);
uint32_t fsb_copy(struct fsb *b, const char *from, uint64_t from_off, uint32_t len, const char *to,
		  uint64_t to_off);
uint32_t fsb_truncate(struct fsb *b, const char *name, uint64_t size);
uint32_t fsb_sync(struct fsb *b, const char *name);
uint32_t fsb_remove(struct fsb *b, const char *name);
uint32_t fsb_syncdir(struct fsb *b);
uint32_t fsb_mkdir(struct fsb *b);
uint32_t fsb_zero(struct fsb *b, const char *name, uint64_t off, uint32_t len);
/* A hint: start writing [off, off + len) of the file back to the disk. */
uint32_t fsb_writeout(struct fsb *b, const char *name, uint64_t off, uint32_t len);
/*
 * Space for [off, off + len) of the file, allocated without changing its
 * size or bytes: later writes there cannot fail for a full disk.
 */
uint32_t fsb_reserve(struct fsb *b, const char *name, uint64_t off, uint32_t len);
/* The names after `after` ("" for all), sorted, NUL-terminated, from window offset 0. */
uint32_t fsb_list(struct fsb *b, const char *after);
/*
 * Runs the batch. TEE_SUCCESS, or: TEE_ERROR_ITEM_NOT_FOUND (a file is
 * absent), TEE_ERROR_STORAGE_NO_SPACE, TEE_ERROR_STORAGE_NOT_AVAILABLE (the
 * supplicant failed, lied or is gone: the channel is then broken). b->failed
 * says which op failed. The batch is empty again afterwards.
 */
SWTEE_MUST_CHECK TEE_Result fsb_run(struct fsb *b);
/*
 * Sends the batch without waiting for its reply: the next fsb_run or
 * reefs_settle on the channel reads it. Its ops must leave nothing in the
 * window to read, and the window ranges it writes from must stay as they
 * are until then. With owner, the batch applies a committed record of its
 * store (owner->post points to the channel meanwhile): if it fails, or
 * cannot be sent, owner->failed is told. TEE_SUCCESS; else the failure of
 * a batch sent before, settled to make room, or the channel's: the batch
 * is then dropped (b empty again), never sent.
 */
SWTEE_MUST_CHECK TEE_Result fsb_send(struct fsb *b, struct fs_owner *owner);
/* Reads the replies of all batches sent ahead; the first failure, if any. */
TEE_Result reefs_settle(struct reefs *fs);
/* The same for all but the last keep of them, which stay in flight. */
TEE_Result reefs_settle_keep(struct reefs *fs, uint32_t keep);

/* ---- the store ---- */

#define ENTRY_CORRUPT 0x01 /* an integrity check failed: the object stays failed */

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
/* Serialised form of an entry (the part that is stored). */
#define ENTRY_BYTES                                                                                \
	(STOR_FID + 3 + PROTO_STOR_ID_MAX + STOR_KEY + 8 + STOR_HASH + 20 + STOR_IV + STOR_TAG)
void entry_put(struct buf_writer *w, const struct stor_entry *e);
/* Parses into e (whose fek is allocated); false when malformed. */
SWTEE_MUST_CHECK bool entry_get(struct buf_reader *r, struct stor_entry *e);
/* The name of one of an object's files: "" kind for data, '1'..'3' map levels, 'a' attrs. */
void entry_file(const uint8_t fid[STOR_FID], char kind, char out[PROTO_FS_NAME_MAX + 1]);

/* the journal: transactions, checkpoints and recovery (journal.h has its files) */

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

/*
 * Meta operations, replayed in order at commit and at recovery. Image
 * offsets are into the record's bulk.
 */
#define META_PUT 1	/* entry */
#define META_DEL 2	/* fid */
#define META_COPY 3	/* bulk offset:u64 len:u32 fid kind:u8 off:u64 */
#define META_TRUNCATE 4 /* fid kind:u8 size:u64 */
#define META_REMOVE 5	/* fid: every file of the object */
#define META_TIME 6	/* offset_ms:u64 ree_ms:u64 */
/*
 * fid first:u64 n:u32, then n times iv tag: blocks the record wrote in
 * place, synced while the record itself was (commit_log); recovery checks
 * they landed before it counts the record.
 */
#define META_DIRECT 7
/* nothing: a record that only makes the one before it no longer the last */
#define META_CONFIRM 8

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
