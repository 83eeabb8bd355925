/*
 * The journal of a store, the private header of its files: transactions,
 * checkpoints and recovery, what makes every change of a TA's storage
 * atomic, durable when the call returns, and anchored against rollback.
 * docs/storage.md has the whole story; in short:
 *
 * Every transaction is one record, chained to the one before by sequence
 * number and tag:
 *
 *   head: magic version seq prev_tag bulk_len meta_len iv
 *   bulk: sealed block and map page images, attribute blobs
 *   meta: the operations, AES-GCM sealed under the TA's journal key with
 *         bulk || head as additional data
 *   tag:  the record's GCM tag, which is also its chain tag
 *
 * A small record (bulk up to STOR_LOG_INLINE) is appended to the log in the
 * TA's RPMB slot, together with the slot's new head, and made durable by
 * one fdatasync in the core. A large one goes to the REE journal "j" in the
 * supplicant's directory, where it is written and fdatasync'd, and then the
 * RPMB slot anchors it (one more fdatasync); the RPMB log is emptied by a
 * checkpoint first, so that the chain runs: REE journal, then RPMB log.
 * Blocks written in place (new data no committed state refers to) are
 * fdatasync'd before a large record; a small record lists them
 * (META_DIRECT) and they are synced while it is, and recovery drops a last
 * record whose blocks did not land (direct_landed) unless a record follows
 * it (the next commit, or journal_confirm when the instance is idle). Then
 * the record's file operations are sent without sync and without waiting:
 * images to their files, truncations, removals (fsb_send; whatever uses
 * the channel or the store next waits for them).
 *
 * A checkpoint makes those files durable, writes a snapshot of the
 * directory d<seq> and the other of the two header slots at 0 and 4096 of
 * "j" (naming the snapshot and its SHA-256), anchors it in the RPMB slot and
 * so empties the log; REE records start again at 8192.
 *
 * Recovery takes the newest header whose chain reaches the RPMB anchor (or
 * one past it, a commit cut off between its two syncs), the snapshot it
 * names, the REE records after it, then the RPMB log records, and replays
 * them; then the directory is swept of files no entry names (sweep.c). The REE side is hostile: a
 * chain that stops short of the anchor is a rollback or damage, and the store then answers
 * TEE_ERROR_CORRUPT_OBJECT.
 *
 * The files: record.c (the record format, its operations applied to the
 * files and to the store in memory), checkpoint.c (header slots, directory
 * snapshots, checkpoints), txn.c (building a transaction), commit.c (making
 * it durable: the RPMB log or the REE journal), recovery.c (the load: the
 * chain checked against the anchor, then replayed).
 */
#ifndef SWTEE_STORAGE_JOURNAL_H
#define SWTEE_STORAGE_JOURNAL_H

#include "storage.h"

#define JNAME "j"
#define J_MAGIC_HDR 0x484a5753u /* "SWJH" */
#define J_MAGIC_REC 0x524a5753u /* "SWJR" */
#define J_MAGIC_DIR 0x444a5753u /* "SWJD" */
#define J_VERSION 1u
#define HDR_SLOT 4096u
#define RECORDS_START (2 * HDR_SLOT)
#define HDR_BODY (4 + 4 + 8 + STOR_TAG + 8 + 8 + STOR_HASH)
#define HDR_LEN (HDR_BODY + STOR_IV + STOR_TAG)
#define RHDR_LEN (4 + 4 + 8 + STOR_TAG + 8 + 4 + STOR_IV)
#define DHDR_LEN (4 + 4 + 8 + 4 + 1 + 8 + 8 + STOR_IV)
#define JOURNAL_STEP (1024u * 1024)
#define JOURNAL_SOFT (8u * 1024 * 1024)
#define META_MAX (4u * 1024 * 1024)
#define BULK_MAX (1ull << 34)
#define DIRTY_MAX 2048
/* Records with this much bulk at most go to the RPMB log. */
#define STOR_LOG_INLINE (256u * 1024)
/* The end of the RPMB log, kept for deletes when a checkpoint finds the disk full. */
#define LOG_KEEP (32u * 1024)
/* The write area: REE records staged first, files written in place after. */
#define BULK_REGION (FS_WRITE_AREA_LEN / 2)
#define BULK_ROOM (BULK_REGION - RHDR_LEN)
#define DIRECT_REGION (FS_WRITE_AREA + BULK_REGION)
#define DIRECT_ROOM (FS_WRITE_AREA_LEN - BULK_REGION)
/*
 * At most this many blocks written in place are listed in a record (META_DIRECT)
 * so that their sync can run alongside the record's; beyond, it comes first.
 */
#define DV_MAX 1024u
#define DV_BYTES (STOR_IV + STOR_TAG)
/*
 * Writes in place go out in pieces of this much while the rest is sealed,
 * and the last DIRECT_TAIL bytes of a change apart: what is still to be
 * written when the sealing ends, before the fdatasync, is then small.
 */
#define DIRECT_PIPE (256u * 1024)
#define DIRECT_TAIL (64u * 1024)
#define OP_BYTES (4 + 1 + PROTO_FS_NAME_MAX + 8 + 4 + 1 + PROTO_FS_NAME_MAX + 8)

/* The kinds of an object's files (entry_file): data, map levels 1 to 3, attributes. */
#define FILE_KINDS 5
extern const char file_kinds[FILE_KINDS];

/* The window of the store's channel at off (the supplicant's too: never trusted). */
static inline uint8_t *wa(struct store *s, uint32_t off)
{
	return s->fs->win + off;
}

/* The name of the file of kind (one of file_kinds) of the object fid. */
static inline void file_name(const uint8_t fid[STOR_FID], uint8_t kind,
			     char out[PROTO_FS_NAME_MAX + 1])
{
	entry_file(fid, (char)kind, out);
}

static inline uint64_t align8(uint64_t v)
{
	return (v + 7) & ~7ull;
}

/* ---- record.c: the record format, and its operations applied ---- */

/* A record's head, in clear: the AAD of its meta with its bulk. */
struct rhead {
	uint64_t seq;
	uint8_t prev[STOR_TAG];
	uint64_t bulk;
	uint32_t meta;
	uint8_t iv[STOR_IV];
};

/* Encodes h into out (RHDR_LEN bytes). */
void rhead_encode(uint8_t out[RHDR_LEN], const struct rhead *h);
/*
 * Parses the head in into h (in is the caller's private copy): false
 * unless it is the record seq after prev, and its bulk and meta are
 * bounded (BULK_MAX, META_MAX).
 */
SWTEE_MUST_CHECK bool rhead_decode(const uint8_t in[RHDR_LEN], uint64_t seq,
				   const uint8_t prev[STOR_TAG], struct rhead *h);
/* Sequential reads of a REE file into private memory. */
struct jreader {
	struct store *s;
	struct fsb b;
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t *buf;
	uint64_t at; /* file offset of buf[0] */
	uint32_t len;
};

/*
 * Copies [off, off + n) of the file j->name to dst through the read area of
 * the window (copied out before it is looked at); false when it is not all
 * there, with *io set when the channel failed (TEE_ERROR_ITEM_NOT_FOUND:
 * no such file). j->buf holds FS_READ_AREA_LEN bytes.
 */
SWTEE_MUST_CHECK bool jr_get(struct jreader *j, uint64_t off, void *dst, size_t n, TEE_Result *io);
/*
 * Opens len bytes of ct into pt (len + 1 bytes at least) once the bulk
 * went through gcm (keyed, with its IV): head (head_len bytes) is the rest
 * of the AAD, tag the GCM tag. True only when the tag matches; pt is then
 * the plaintext, and otherwise to be wiped unread.
 */
SWTEE_MUST_CHECK bool rec_finish(EVP_CIPHER_CTX *gcm, const uint8_t *head, size_t head_len,
				 const uint8_t *ct, uint32_t len, const uint8_t tag[STOR_TAG],
				 uint8_t *pt);
/* Whether k is one of file_kinds. */
bool kind_ok(uint8_t k);
/* Skips the body of an op of a record's meta (after its code); false when malformed. */
bool meta_skip(struct buf_reader *r, uint8_t op);
/* How many file operations meta asks for (more than fit, for a malformed one). */
uint32_t meta_file_ops(const uint8_t *meta, size_t len);
/*
 * Adds (fid, kind) to the files the store changed in place since the
 * checkpoint; when it cannot, s->dirty.lost says every file is to be synced.
 */
void dirty_add(struct store *s, const uint8_t fid[STOR_FID], uint8_t kind);

/* Where a record's images come from when its file operations run. */
struct apply {
	struct store *s;
	struct fsb *b;
	bool ree;	     /* copied by the supplicant from the REE journal */
	bool replay;	     /* recovery: data file truncations are left out (apply_truncate) */
	uint64_t rec;	     /* REE: the record's offset there */
	const uint8_t *bulk; /* not REE: the bulk in memory, written from the window */
	uint64_t bulk_len;
	uint32_t staged; /* window bytes used by queued writes */
	TEE_Result io;
};

/* Runs what a->b holds, unless a->io failed already; the first failure stays in a->io. */
void apply_run(struct apply *a);
/*
 * Runs the operations of meta (len bytes, in clear and authenticated, but
 * checked as if hostile): with a, its file operations (queued on a->b,
 * which runs when full; a failure in a->io); with mem, its directory and
 * time operations on the store s in memory. Returns false when meta is
 * malformed; the store in memory may then be half changed.
 */
SWTEE_MUST_CHECK bool meta_apply(struct store *s, struct apply *a, const uint8_t *meta, size_t len,
				 bool mem);

/* ---- checkpoint.c: header slots, directory snapshots, checkpoints ---- */

/* A header slot of the journal: the checkpoint it describes. */
struct jhdr {
	uint64_t seq;
	uint8_t prev[STOR_TAG];
	uint64_t dir_seq;
	uint64_t dir_len;
	uint8_t dir_hash[STOR_HASH];
	uint8_t tag[STOR_TAG];
};

/* Encodes and seals h under the store's journal key into out (a tag of zeros on failure). */
void hdr_encode(struct store *s, uint8_t out[HDR_LEN], const struct jhdr *h);
/* Opens and parses the header slot in into h; false when it does not verify or is malformed. */
SWTEE_MUST_CHECK bool hdr_decode(struct store *s, const uint8_t in[HDR_LEN], struct jhdr *h);
/*
 * A checkpoint of s now: the files changed in place synced, a snapshot of
 * the directory, the other header slot, then the RPMB anchor (which empties
 * the log). TEE_SUCCESS; an error with nothing changed (a failure before
 * the header's write: TEE_ERROR_STORAGE_NO_SPACE for a full disk); or
 * TEE_ERROR_STORAGE_NOT_AVAILABLE with the store broken.
 */
SWTEE_MUST_CHECK TEE_Result checkpoint_write(struct store *s);
/*
 * Reads and checks the snapshot that header h names, through j, into the
 * directory of s (empty before) and its persistent time. TEE_SUCCESS,
 * TEE_ERROR_CORRUPT_OBJECT (missing, damaged or not the one named),
 * TEE_ERROR_OUT_OF_MEMORY, or the channel's error. j reads "j" again after.
 */
SWTEE_MUST_CHECK TEE_Result dir_snapshot_load(struct store *s, struct jreader *j,
					      const struct jhdr *h);
/*
 * A new store: its RPMB slot first (unless have_slot), then the journal
 * with its first header, then the slot anchors it. TEE_SUCCESS,
 * TEE_ERROR_STORAGE_NO_SPACE (no room for the slot) or
 * TEE_ERROR_STORAGE_NOT_AVAILABLE.
 */
SWTEE_MUST_CHECK TEE_Result journal_create(struct store *s, bool have_slot);

/* ---- txn.c: building a transaction, as commit.c uses it ---- */

/* Keeps the first failure of t in t->err. */
void txn_fail(struct txn *t, TEE_Result res);
/* A writer over the next n bytes of t's meta, or a failed one (t->err then says why). */
void meta_writer(struct txn *t, struct buf_writer *w, size_t n);
/* Queues the write in place being gathered, if any, on t->b. */
void drun_queue(struct txn *t);
/* What a failed batch of the transaction means for it: a file it needs is gone. */
TEE_Result settle_error(TEE_Result res);
/* Runs what is queued in t->b; a failure here leaves no committed trace (t->err). */
void txn_run(struct txn *t);
/* txn_run without waiting: a later settle reads the reply. Whether a batch went. */
bool txn_send(struct txn *t);
/* Sends the REE bulk staged in the window to the journal, and waits for it. */
void ree_flush(struct txn *t);
/*
 * The record turns out large: it goes to the REE journal from now on. The
 * RPMB log must be empty first (the chain runs REE journal, then RPMB log):
 * a checkpoint. A failure in t->err.
 */
void go_ree(struct txn *t);
/* The blocks written in place, as META_DIRECT runs at the end of t's meta. */
void dv_meta(struct txn *t);

#endif
