/*
 * Committing a transaction: a small record to the RPMB log with one
 * fdatasync, a large one to the REE journal and then the RPMB anchor; then
 * its file operations, sent without waiting, and the store in memory
 * (journal.h).
 */

#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "log.h"
#include "secure.h"

/*
 * Space for what the record's file operations write after the commit point
 * (its images), allocated before it: a full disk then fails the transaction
 * while nothing counts yet, instead of the apply after it.
 */
static void reserve_images(struct txn *t)
{
	struct buf_reader r;

	buf_reader_init(&r, t->meta, t->meta_len);
	while (buf_left(&r) && !t->err) {
		char name[PROTO_FS_NAME_MAX + 1];
		uint8_t fid[STOR_FID];
		uint8_t op = 0;
		uint8_t kind = 0;
		uint64_t off = 0;
		uint32_t n = 0;

		buf_get_u8(&r, &op);
		if (op != META_COPY) {
			if (!meta_skip(&r, op))
				return;
			continue;
		}
		buf_skip(&r, 8);
		buf_get_u32(&r, &n);
		buf_get_bytes(&r, fid, STOR_FID);
		buf_get_u8(&r, &kind);
		buf_get_u64(&r, &off);
		if (!buf_ok(&r) || !kind_ok(kind))
			return;
		if (!fsb_room(&t->b, 1, OP_BYTES))
			txn_run(t);
		file_name(fid, kind, name);
		fsb_reserve(&t->b, name, off, n);
	}
}

/* Whether t only deletes objects: directory entries and their files. */
static bool deletes_only(const struct txn *t)
{
	struct buf_reader r;

	if (t->bulk || t->ndirect || !t->meta_len)
		return false;
	buf_reader_init(&r, t->meta, t->meta_len);
	while (buf_left(&r)) {
		uint8_t op = 0;

		buf_get_u8(&r, &op);
		if ((op != META_DEL && op != META_REMOVE) || !meta_skip(&r, op))
			return false;
	}
	return true;
}

/* Seals meta into out and the tag after it, head and bulk being the AAD. */
static bool seal_meta(struct txn *t, const uint8_t head[RHDR_LEN], uint8_t *out)
{
	int outl = 0;

	return EVP_CipherUpdate(t->gcm, NULL, &outl, head, RHDR_LEN) &&
	       (!t->meta_len || EVP_CipherUpdate(t->gcm, out, &outl, t->meta, (int)t->meta_len)) &&
	       EVP_CipherFinal_ex(t->gcm, out + t->meta_len, &outl) == 1 &&
	       EVP_CIPHER_CTX_ctrl(t->gcm, EVP_CTRL_GCM_GET_TAG, STOR_TAG, out + t->meta_len);
}

/* Files written in place: durable before the record may be. */
static void sync_direct(struct txn *t)
{
	drun_queue(t); /* the last write in place goes before the syncs */
	for (size_t i = 0; i < t->ndirect; i++) {
		if (!fsb_room(&t->b, 2, OP_BYTES))
			txn_run(t);
		fsb_sync(&t->b, t->direct[i]);
	}
	if (t->direct_new)
		fsb_syncdir(&t->b);
}

/* The record in one buffer: its head, its bulk, then the sealed meta and its tag. */
static uint8_t *log_record(const struct txn *t, const uint8_t head[RHDR_LEN], const uint8_t *sealed,
			   uint64_t total)
{
	uint8_t *rec = malloc((size_t)total);

	if (!rec)
		return NULL;
	memcpy(rec, head, RHDR_LEN);
	if (t->bulk)
		memcpy(rec + RHDR_LEN, t->pbulk, (size_t)t->bulk);
	memcpy(rec + RHDR_LEN + t->bulk, sealed, t->meta_len + STOR_TAG);
	return rec;
}

/*
 * The writes in place land before the record goes out, so that a full
 * disk fails them while nothing counts yet; only their sync overlaps.
 * A failure goes to t->err.
 */
static void log_land_direct(struct txn *t, bool overlap)
{
	reserve_images(t);
	if (overlap) {
		/*
		 * The record lists the blocks written in place (META_DIRECT):
		 * their sync runs while the record's does, and recovery drops a
		 * last record whose blocks did not all land (direct_landed).
		 * The last writes and the syncs go as two batches at once, so
		 * that the supplicant starts the syncs as soon as the writes are
		 * done; only the writes are waited for here.
		 */
		bool syncs = false;

		txn_send(t);
		sync_direct(t);
		syncs = txn_send(t);
		if (!t->err)
			txn_fail(t, settle_error(reefs_settle_keep(t->s->fs, syncs ? 1 : 0)));
	} else {
		sync_direct(t);
		txn_run(t);
	}
}

/* The record to the RPMB log. On failure the store broke, unless nothing can count. */
static TEE_Result log_append(struct txn *t, const uint8_t *rec, uint64_t total,
			     const uint8_t tag[STOR_TAG], uint64_t seq, bool overlap)
{
	struct store *s = t->s;
	int r = rpmb_log_append(&s->rpmb, s->keys, rec, (size_t)total, seq, tag);

	if (overlap && reefs_settle(s->fs)) {
		/* The record may count while its blocks are not all there. */
		if (r != RPMB_LOG_NOTHING)
			store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a commit did not finish");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	if (r == RPMB_LOG_NOTHING)
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	if (r) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "the RPMB slot cannot be written");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	return TEE_SUCCESS;
}

/*
 * Durable: now its files, without waiting. Whatever uses the channel
 * or the store next waits for them first (reefs_settle, store_lock).
 * A failure breaks the store.
 */
static TEE_Result log_apply(struct txn *t, struct apply *a)
{
	struct store *s = t->s;

	if (!meta_apply(s, a, t->meta, t->meta_len, false)) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a transaction is malformed");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	if (a->b->nops && !a->io)
		a->io = fsb_send(a->b, &s->applying);
	if (a->io) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a commit did not finish");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	return TEE_SUCCESS;
}

/*
 * A small record: to the RPMB log with its head in one fdatasync, then its
 * file operations. On failure the store broke, unless nothing can count.
 */
static TEE_Result commit_log(struct txn *t, const uint8_t head[RHDR_LEN], const uint8_t *sealed,
			     uint64_t total, const uint8_t tag[STOR_TAG], uint64_t seq)
{
	struct apply a = {.s = t->s, .b = &t->b, .bulk = t->pbulk, .bulk_len = t->bulk};
	uint8_t *rec = log_record(t, head, sealed, total);
	bool overlap = t->ndv && !t->dv_over;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!rec)
		return TEE_ERROR_OUT_OF_MEMORY;
	log_land_direct(t, overlap);
	res = t->err;
	if (!res)
		res = log_append(t, rec, total, tag, seq, overlap);
	if (!res)
		res = log_apply(t, &a);
	secure_wipe(rec, (size_t)total);
	free(rec);
	return res;
}

/* The journal in steps: zeros past the record, so that the next ones overwrite, not append. */
static void ree_grow(struct txn *t, uint64_t end)
{
	struct store *s = t->s;
	uint64_t grow = 0;

	if (end <= s->jalloc)
		return;
	grow = (end + JOURNAL_STEP - 1) / JOURNAL_STEP * JOURNAL_STEP;
	if (!fsb_room(&t->b, 1, OP_BYTES))
		txn_run(t);
	if (grow > end)
		fsb_zero(&t->b, JNAME, end, (uint32_t)(grow - end));
	s->jalloc = grow;
}

/*
 * The record to the journal: in one write when it fits the write area with
 * its staged bulk, else its sealed meta in pieces and then its head.
 * Returns the index of the record's (last) write; a failure goes to t->err.
 */
static uint32_t ree_write_record(struct txn *t, const uint8_t head[RHDR_LEN], const uint8_t *sealed,
				 uint64_t total)
{
	struct store *s = t->s;
	size_t done = 0;
	size_t left = t->meta_len + STOR_TAG;

	if (!t->bulk_sent && t->staged + t->meta_len + STOR_TAG <= BULK_ROOM) {
		memcpy(wa(s, FS_WRITE_AREA), head, RHDR_LEN);
		memcpy(wa(s, FS_WRITE_AREA + RHDR_LEN + t->staged), sealed, t->meta_len + STOR_TAG);
		if (!fsb_room(&t->b, 2, OP_BYTES))
			txn_run(t);
		return fsb_write(&t->b, JNAME, t->rec, (uint32_t)total, FS_WRITE_AREA);
	}
	ree_flush(t);
	while (left && !t->err) {
		size_t n = left < BULK_ROOM ? left : BULK_ROOM;

		memcpy(wa(s, FS_WRITE_AREA + RHDR_LEN), sealed + done, n);
		fsb_write(&t->b, JNAME, t->rec + RHDR_LEN + t->bulk + done, (uint32_t)n,
			  FS_WRITE_AREA + RHDR_LEN);
		txn_run(t);
		done += n;
		left -= n;
	}
	memcpy(wa(s, FS_WRITE_AREA), head, RHDR_LEN);
	if (!fsb_room(&t->b, 2, OP_BYTES))
		txn_run(t);
	return fsb_write(&t->b, JNAME, t->rec, RHDR_LEN, FS_WRITE_AREA);
}

/*
 * After the record's write and sync are queued: its files, then the RPMB
 * anchor. From the record's write on it may be durable: a failure then
 * breaks the store, unless nothing of the record got written.
 */
static TEE_Result ree_finish(struct txn *t, struct apply *a, uint32_t rec_write, uint64_t end,
			     const uint8_t tag[STOR_TAG], uint64_t seq)
{
	struct store *s = t->s;
	bool rec_ran = false;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!fsb_room(&t->b, meta_file_ops(t->meta, t->meta_len), OP_BYTES)) {
		res = fsb_run(&t->b);
		rec_ran = true;
		if (res)
			goto failed;
	}
	if (!meta_apply(s, a, t->meta, t->meta_len, false)) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a transaction is malformed");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	if (a->io) {
		res = a->io;
		rec_ran = true;
		goto failed;
	}
	res = fsb_run(&t->b);
	if (res)
		goto failed;
	if (rpmb_update(&s->rpmb, s->keys, seq, tag)) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "the RPMB slot cannot be written");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	s->jend = align8(end);
	if (s->jend > s->jalloc)
		s->jalloc = s->jend;
	return TEE_SUCCESS;
failed:
	if (!rec_ran && t->b.failed <= rec_write)
		/* Nothing of the record can count: the transaction did not happen. */
		return res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res;
	store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a commit did not finish");
	return TEE_ERROR_STORAGE_NOT_AVAILABLE;
}

/* A large record: to the REE journal, fdatasync, its files, then the RPMB anchor. */
static TEE_Result commit_ree(struct txn *t, const uint8_t head[RHDR_LEN], const uint8_t *sealed,
			     uint64_t total, const uint8_t tag[STOR_TAG], uint64_t seq)
{
	struct apply a = {.s = t->s, .b = &t->b, .ree = true, .rec = t->rec, .bulk_len = t->bulk};
	uint64_t end = t->rec + total;
	uint32_t rec_write = 0;

	reserve_images(t);
	sync_direct(t);
	ree_grow(t, end);
	rec_write = ree_write_record(t, head, sealed, total);
	if (t->err)
		return t->err;
	fsb_sync(&t->b, JNAME);
	return ree_finish(t, &a, rec_write, end, tag, seq);
}

/*
 * Where the record of total bytes goes: the REE journal when it is too
 * large for the RPMB log even when empty; else a checkpoint first when the
 * log has no room left for it. A failure goes to t->err.
 */
static void commit_place(struct txn *t, uint64_t total)
{
	struct store *s = t->s;
	TEE_Result c = TEE_SUCCESS;

	/* Too large for the RPMB log even when empty: the REE journal. */
	if (!t->ree && total > RPMB_LOG_SIZE - LOG_KEEP)
		go_ree(t);
	/* Room in the log, or a checkpoint that makes it. */
	if (t->ree || t->err || s->rpmb.log_end + total <= RPMB_LOG_SIZE - LOG_KEEP)
		return;
	txn_run(t);
	if (!t->err)
		c = checkpoint_write(s);
	/*
	 * A checkpoint needs REE space for its snapshot: on a full disk,
	 * deleting is how a TA makes room again, so a transaction that
	 * only deletes may use the end of the log kept for it.
	 */
	if (c == TEE_ERROR_STORAGE_NO_SPACE && deletes_only(t) &&
	    s->rpmb.log_end + total <= RPMB_LOG_SIZE)
		c = TEE_SUCCESS;
	txn_fail(t, c);
}

/*
 * The record's head h, chained to the store's head, encoded into head, and
 * its meta sealed into *sealed (meta_len bytes and the tag after them), a
 * buffer the caller frees, also on failure.
 */
static TEE_Result seal_record(struct txn *t, struct rhead *h, uint8_t head[RHDR_LEN],
			      uint8_t **sealed)
{
	struct store *s = t->s;

	h->seq = s->seq + 1;
	memcpy(h->prev, s->tag, STOR_TAG);
	h->bulk = t->bulk;
	h->meta = (uint32_t)t->meta_len;
	memcpy(h->iv, t->iv, STOR_IV);
	rhead_encode(head, h);
	*sealed = malloc(t->meta_len + STOR_TAG);
	if (!*sealed)
		return TEE_ERROR_OUT_OF_MEMORY;
	return seal_meta(t, head, *sealed) ? TEE_SUCCESS : TEE_ERROR_GENERIC;
}

/* Whether the journal has grown enough since the checkpoint for the next one. */
static bool checkpoint_due(const struct store *s)
{
	return s->jend - RECORDS_START > JOURNAL_SOFT || s->dirty.n > DIRTY_MAX || s->dirty.lost;
}

/*
 * The record seq (chain tag tag) of t is durable and anchored: the store in
 * memory follows it, then a checkpoint if one is due.
 */
static void commit_follow(struct txn *t, uint64_t seq, const uint8_t tag[STOR_TAG])
{
	struct store *s = t->s;

	s->unconfirmed = !t->ree && t->ndv && !t->dv_over;
	s->seq = seq;
	memcpy(s->tag, tag, STOR_TAG);
	s->since_ckpt++;
	if (!meta_apply(s, NULL, t->meta, t->meta_len, true))
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "the directory cannot follow");
	map_txn_install(t);
	if (!s->broken && checkpoint_due(s) && checkpoint_write(s))
		log_debug(
		    "storage: the commit stands; its checkpoint is tried again at the next one");
}

TEE_Result txn_commit(struct txn *t)
{
	struct rhead h = {0};
	uint8_t head[RHDR_LEN];
	uint8_t tag[STOR_TAG];
	uint8_t *sealed = NULL;
	uint64_t total = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (t->err) {
		res = t->err;
		goto out;
	}
	if (!t->meta_len && !t->bulk) {
		res = TEE_SUCCESS; /* nothing changed */
		goto out;
	}
	/* Blocks written in place, listed so that their sync can overlap the record's. */
	if (!t->ree && t->ndv && !t->dv_over)
		dv_meta(t);
	if (t->err) {
		res = t->err;
		goto out;
	}
	total = RHDR_LEN + t->bulk + t->meta_len + STOR_TAG;
	commit_place(t, total);
	if (t->err) {
		res = t->err;
		goto out;
	}
	/* After any checkpoint the commit needed: the record follows the head. */
	res = seal_record(t, &h, head, &sealed);
	if (res)
		goto out;
	memcpy(tag, sealed + t->meta_len, STOR_TAG);
	if (t->ree)
		res = commit_ree(t, head, sealed, total, tag, h.seq);
	else
		res = commit_log(t, head, sealed, total, tag, h.seq);
	if (!res)
		commit_follow(t, h.seq, tag);
out:
	if (sealed)
		secure_wipe(sealed, t->meta_len + STOR_TAG);
	free(sealed);
	txn_abort(t);
	return res;
}

TEE_Result journal_confirm(struct store *s)
{
	struct buf_writer w;
	struct txn t;

	if (!s->unconfirmed || s->broken)
		return s->broken;
	txn_begin(&t, s);
	meta_writer(&t, &w, 1);
	buf_put_u8(&w, META_CONFIRM);
	return txn_commit(&t);
}
