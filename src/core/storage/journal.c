/*
 * Transactions, checkpoints and recovery of a store: what makes every change
 * of a TA's storage atomic, durable when the call returns, and anchored
 * against rollback. docs/storage.md has the whole story; in short:
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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "secure.h"
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

static const char kinds[] = {0, '1', '2', '3', 'a'};

static uint8_t *wa(struct store *s, uint32_t off)
{
	return s->fs->win + off;
}

static void file_name(const uint8_t fid[STOR_FID], uint8_t kind, char out[PROTO_FS_NAME_MAX + 1])
{
	entry_file(fid, (char)kind, out);
}

void journal_dir_file(uint64_t seq, char out[PROTO_FS_NAME_MAX + 1])
{
	snprintf(out, PROTO_FS_NAME_MAX + 1, "d%016llx", (unsigned long long)seq);
}

static uint64_t align8(uint64_t v)
{
	return (v + 7) & ~7ull;
}

/* ---- the dirty set: files changed in place since the checkpoint ---- */

static void dirty_add(struct store *s, const uint8_t fid[STOR_FID], uint8_t kind)
{
	struct dirty_set *d = &s->dirty;

	for (size_t i = 0; i < d->n; i++)
		if (d->fid[i][STOR_FID] == kind && !memcmp(d->fid[i], fid, STOR_FID))
			return;
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		void *p = realloc(d->fid, cap * sizeof(*d->fid));

		if (!p) {
			/* The next checkpoint cannot name it: sync everything it can. */
			d->lost = true;
			return;
		}
		d->fid = p;
		d->cap = cap;
	}
	memcpy(d->fid[d->n], fid, STOR_FID);
	d->fid[d->n][STOR_FID] = kind;
	d->n++;
}

/* ---- header slots ---- */

struct jhdr {
	uint64_t seq;
	uint8_t prev[STOR_TAG];
	uint64_t dir_seq;
	uint64_t dir_len;
	uint8_t dir_hash[STOR_HASH];
	uint8_t tag[STOR_TAG];
};

static void hdr_encode(struct store *s, uint8_t out[HDR_LEN], const struct jhdr *h)
{
	struct buf_writer w;
	EVP_CIPHER_CTX *ctx = crypt_ctx_new(s->keys->journal);

	buf_writer_init(&w, out, HDR_LEN);
	buf_put_u32(&w, J_MAGIC_HDR);
	buf_put_u32(&w, J_VERSION);
	buf_put_u64(&w, h->seq);
	buf_put_bytes(&w, h->prev, STOR_TAG);
	buf_put_u64(&w, h->dir_seq);
	buf_put_u64(&w, h->dir_len);
	buf_put_bytes(&w, h->dir_hash, STOR_HASH);
	if (crypt_random(out + HDR_BODY, STOR_IV) || !ctx ||
	    crypt_seal(ctx, out + HDR_BODY, out, HDR_BODY, NULL, NULL, 0, out + HDR_BODY + STOR_IV))
		memset(out + HDR_BODY + STOR_IV, 0, STOR_TAG); /* will not verify */
	EVP_CIPHER_CTX_free(ctx);
}

static bool hdr_decode(struct store *s, const uint8_t in[HDR_LEN], struct jhdr *h)
{
	struct buf_reader r;
	uint32_t magic = 0;
	uint32_t version = 0;
	EVP_CIPHER_CTX *ctx = crypt_ctx_new(s->keys->journal);
	bool ok = ctx && !crypt_open(ctx, in + HDR_BODY, in, HDR_BODY, NULL, NULL, 0,
				     in + HDR_BODY + STOR_IV);

	EVP_CIPHER_CTX_free(ctx);
	if (!ok)
		return false;
	buf_reader_init(&r, in, HDR_BODY);
	buf_get_u32(&r, &magic);
	buf_get_u32(&r, &version);
	buf_get_u64(&r, &h->seq);
	buf_get_bytes(&r, h->prev, STOR_TAG);
	buf_get_u64(&r, &h->dir_seq);
	buf_get_u64(&r, &h->dir_len);
	buf_get_bytes(&r, h->dir_hash, STOR_HASH);
	memcpy(h->tag, in + HDR_BODY + STOR_IV, STOR_TAG);
	/* A snapshot has a sequence number: dir_seq 0 is none (the sweep would remove d0...0). */
	return buf_done(&r) && magic == J_MAGIC_HDR && version == J_VERSION && h->seq &&
	       (h->dir_seq || !h->dir_len) &&
	       h->dir_len <= (uint64_t)STOR_OBJECTS_MAX * ENTRY_BYTES + DHDR_LEN + STOR_TAG;
}

/* ---- record heads ---- */

struct rhead {
	uint64_t seq;
	uint8_t prev[STOR_TAG];
	uint64_t bulk;
	uint32_t meta;
	uint8_t iv[STOR_IV];
};

static void rhead_encode(uint8_t out[RHDR_LEN], const struct rhead *h)
{
	struct buf_writer w;

	buf_writer_init(&w, out, RHDR_LEN);
	buf_put_u32(&w, J_MAGIC_REC);
	buf_put_u32(&w, J_VERSION);
	buf_put_u64(&w, h->seq);
	buf_put_bytes(&w, h->prev, STOR_TAG);
	buf_put_u64(&w, h->bulk);
	buf_put_u32(&w, h->meta);
	buf_put_bytes(&w, h->iv, STOR_IV);
}

/* Parses a head: false unless it is the record seq after prev, and bounded. */
static bool rhead_decode(const uint8_t in[RHDR_LEN], uint64_t seq, const uint8_t prev[STOR_TAG],
			 struct rhead *h)
{
	struct buf_reader r;
	uint32_t magic = 0;
	uint32_t version = 0;

	buf_reader_init(&r, in, RHDR_LEN);
	buf_get_u32(&r, &magic);
	buf_get_u32(&r, &version);
	buf_get_u64(&r, &h->seq);
	buf_get_bytes(&r, h->prev, STOR_TAG);
	buf_get_u64(&r, &h->bulk);
	buf_get_u32(&r, &h->meta);
	buf_get_bytes(&r, h->iv, STOR_IV);
	return buf_done(&r) && magic == J_MAGIC_REC && version == J_VERSION && h->seq == seq &&
	       secure_equal(h->prev, prev, STOR_TAG) && h->bulk <= BULK_MAX && h->meta <= META_MAX;
}

/* ---- transactions: building ---- */

void txn_begin(struct txn *t, struct store *s)
{
	memset(t, 0, sizeof(*t));
	t->s = s;
	fsb_init(&t->b, s->fs, s->dir);
	if (s->readonly) {
		t->err = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		return;
	}
	if (crypt_random(t->iv, STOR_IV)) {
		t->err = TEE_ERROR_GENERIC;
		return;
	}
	t->gcm = crypt_ctx_new(s->keys->journal);
	if (!t->gcm || !EVP_CipherInit_ex(t->gcm, NULL, NULL, NULL, t->iv, 1))
		t->err = TEE_ERROR_OUT_OF_MEMORY;
}

static void txn_fail(struct txn *t, TEE_Result res)
{
	if (!t->err)
		t->err = res;
}

static void meta_need(struct txn *t, size_t n)
{
	uint8_t *p = NULL;
	size_t cap = 0;

	if (t->err)
		return;
	if (t->meta_len + n > META_MAX) {
		txn_fail(t, TEE_ERROR_STORAGE_NO_SPACE);
		return;
	}
	if (t->meta_len + n <= t->meta_cap)
		return;
	cap = t->meta_cap ? t->meta_cap * 2 : 4096;
	while (cap < t->meta_len + n)
		cap *= 2;
	p = realloc(t->meta, cap);
	if (!p) {
		txn_fail(t, TEE_ERROR_OUT_OF_MEMORY);
		return;
	}
	t->meta = p;
	t->meta_cap = cap;
}

/* A writer over the next n bytes of meta, or a failed one. */
static void meta_writer(struct txn *t, struct buf_writer *w, size_t n)
{
	static uint8_t sink[1];

	meta_need(t, n);
	if (t->err) {
		buf_writer_init(w, sink, 0);
		w->failed = true;
		return;
	}
	buf_writer_init(w, t->meta + t->meta_len, n);
	t->meta_len += n;
}

/* Queues the gathered write in place. */
static void drun_queue(struct txn *t)
{
	if (!t->drun_len)
		return;
	fsb_write(&t->b, t->drun_name, t->drun_off, t->drun_len, t->drun_win);
	t->drun_len = 0;
}

/* What a failed batch of the transaction means for it: a file it needs is gone. */
static TEE_Result settle_error(TEE_Result res)
{
	return res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res;
}

/* Runs what is queued in t->b; a failure here leaves no committed trace. */
static void txn_run(struct txn *t)
{
	drun_queue(t);
	if (t->b.nops)
		txn_fail(t, settle_error(fsb_run(&t->b)));
	t->direct_staged = 0;
	t->direct_sent = 0;
}

/* txn_run without waiting: a later settle reads the reply. Whether a batch went. */
static bool txn_send(struct txn *t)
{
	bool sent = false;

	drun_queue(t);
	if (!t->err && t->b.nops) {
		sent = !fsb_send(&t->b, NULL);
		if (!sent)
			txn_fail(t, TEE_ERROR_STORAGE_NOT_AVAILABLE);
	}
	t->direct_staged = 0;
	t->direct_sent = 0;
	return sent;
}

/* Sends the REE bulk staged in the window. */
static void ree_flush(struct txn *t)
{
	if (!t->staged || t->err)
		return;
	if (!fsb_room(&t->b, 1, OP_BYTES))
		txn_run(t);
	fsb_write(&t->b, JNAME, t->rec + RHDR_LEN + t->bulk_sent, t->staged,
		  FS_WRITE_AREA + RHDR_LEN);
	txn_run(t);
	t->bulk_sent += t->staged;
	t->staged = 0;
}

/* Bulk bytes to the REE journal through the window (already in the MAC). */
static void ree_stage(struct txn *t, const uint8_t *p, size_t len)
{
	while (len && !t->err) {
		size_t n = BULK_ROOM - t->staged;

		if (!n) {
			ree_flush(t);
			continue;
		}
		if (n > len)
			n = len;
		memcpy(wa(t->s, FS_WRITE_AREA + RHDR_LEN + t->staged), p, n);
		t->staged += (uint32_t)n;
		p += n;
		len -= n;
	}
}

static TEE_Result checkpoint(struct store *s);

/*
 * The record turns out large: it goes to the REE journal. The RPMB log must
 * be empty first (the chain runs REE journal, then RPMB log): a checkpoint.
 */
static void go_ree(struct txn *t)
{
	struct store *s = t->s;

	if (t->ree || t->err)
		return;
	txn_run(t); /* what is staged in the window goes before the checkpoint uses it */
	if (!t->err && s->rpmb.log_end)
		txn_fail(t, checkpoint(s));
	if (t->err)
		return;
	t->ree = true;
	t->rec = s->jend;
	ree_stage(t, t->pbulk, t->bulk);
	free(t->pbulk);
	t->pbulk = NULL;
	t->pcap = 0;
}

uint64_t txn_bulk(struct txn *t, const void *p, size_t len)
{
	uint64_t at = t->bulk;
	int outl = 0;

	if (t->bulk + len > BULK_MAX || len > INT32_MAX)
		txn_fail(t, TEE_ERROR_STORAGE_NO_SPACE);
	if (t->err)
		return at;
	if (!EVP_CipherUpdate(t->gcm, NULL, &outl, p, (int)len)) {
		txn_fail(t, TEE_ERROR_GENERIC);
		return at;
	}
	if (!t->ree && t->bulk + len > STOR_LOG_INLINE) {
		go_ree(t);
		if (t->err)
			return at;
	}
	if (t->ree) {
		ree_stage(t, p, len);
	} else {
		if (!t->pbulk || t->bulk + len > t->pcap) {
			size_t cap = t->pcap ? t->pcap * 2 : 16384;
			uint8_t *q = NULL;

			while (cap < t->bulk + len)
				cap *= 2;
			q = realloc(t->pbulk, cap);
			if (!q) {
				txn_fail(t, TEE_ERROR_OUT_OF_MEMORY);
				return at;
			}
			t->pbulk = q;
			t->pcap = cap;
		}
		if (len)
			memcpy(t->pbulk + t->bulk, p, len);
	}
	t->bulk += len;
	return at;
}

void txn_image(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t off, const void *p,
	       size_t len)
{
	uint64_t at = txn_bulk(t, p, len);
	struct buf_writer w;

	meta_writer(t, &w, 1 + 8 + 4 + STOR_FID + 1 + 8);
	buf_put_u8(&w, META_COPY);
	buf_put_u64(&w, at);
	buf_put_u32(&w, (uint32_t)len);
	buf_put_bytes(&w, fid, STOR_FID);
	buf_put_u8(&w, (uint8_t)kind);
	buf_put_u64(&w, off);
}

uint8_t *txn_direct_buf(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t off,
			size_t len, size_t left, bool new_file)
{
	char name[PROTO_FS_NAME_MAX + 1];
	/* All of the write area, unless REE bulk is staged in its first half. */
	uint32_t start = t->ree ? DIRECT_REGION : FS_WRITE_AREA;
	uint32_t room = t->ree ? DIRECT_ROOM : FS_WRITE_AREA_LEN;
	uint32_t win = 0;
	uint32_t unsent = 0;
	size_t i = 0;

	if (t->err || len > STOR_BLOCK)
		return NULL;
	entry_file(fid, kind, name);
	if (!t->ndirect || strcmp(t->direct[t->ndirect - 1], name) != 0) {
		for (i = 0; i < t->ndirect; i++)
			if (!strcmp(t->direct[i], name))
				break;
		if (i == t->ndirect) {
			void *q = realloc(t->direct, (t->ndirect + 1) * sizeof(*t->direct));

			if (!q) {
				txn_fail(t, TEE_ERROR_OUT_OF_MEMORY);
				return NULL;
			}
			t->direct = q;
			memcpy(t->direct[t->ndirect++], name, sizeof(name));
		}
	}
	t->direct_new |= new_file;
	if (t->direct_staged + len > room || !fsb_room(&t->b, 3, OP_BYTES)) {
		txn_run(t);
		if (t->err)
			return NULL;
	}
	win = start + t->direct_staged;
	if (t->drun_len && !strcmp(t->drun_name, name) && off == t->drun_off + t->drun_len &&
	    win == t->drun_win + t->drun_len) {
		t->drun_len += (uint32_t)len;
	} else {
		drun_queue(t);
		memcpy(t->drun_name, name, sizeof(name));
		t->drun_off = off;
		t->drun_win = win;
		t->drun_len = (uint32_t)len;
	}
	t->direct_staged += (uint32_t)len;
	/*
	 * Every DIRECT_PIPE bytes, what is sealed goes out without waiting, and
	 * the supplicant starts writing it back: the disk works while the rest
	 * is sealed. The fdatasync before the record waits for it all.
	 */
	unsent = t->direct_staged - t->direct_sent - (uint32_t)len;
	if (unsent >= DIRECT_PIPE ||
	    (unsent >= DIRECT_TAIL && left < DIRECT_TAIL && left + len >= DIRECT_TAIL)) {
		uint32_t done_len = t->drun_len - (uint32_t)len;

		/* The pieces before this one; this one is still to be filled. */
		if (done_len) {
			fsb_write(&t->b, t->drun_name, t->drun_off, done_len, t->drun_win);
			fsb_writeout(&t->b, t->drun_name, t->drun_off, done_len);
			t->drun_off += done_len;
			t->drun_win += done_len;
			t->drun_len = (uint32_t)len;
		}
		if (fsb_send(&t->b, NULL)) {
			txn_fail(t, TEE_ERROR_STORAGE_NOT_AVAILABLE);
			return NULL;
		}
		t->direct_sent = t->direct_staged - (uint32_t)len;
	}
	return wa(t->s, win);
}

struct dv_ent {
	uint8_t fid[STOR_FID];
	uint64_t b;
	uint8_t ivtag[DV_BYTES];
};

void txn_direct_ent(struct txn *t, const uint8_t fid[STOR_FID], uint64_t b,
		    const uint8_t iv[STOR_IV], const uint8_t tag[STOR_TAG])
{
	struct dv_ent *d = NULL;

	if (t->dv_over)
		return;
	if (t->ndv == DV_MAX) {
		t->dv_over = true;
		free(t->dv);
		t->dv = NULL;
		t->ndv = 0;
		return;
	}
	if (t->ndv == t->dv_cap) {
		size_t cap = t->dv_cap ? t->dv_cap * 2 : 64;

		d = realloc(t->dv, cap * sizeof(*d));
		if (!d) {
			t->dv_over = true; /* the slower order needs no list */
			return;
		}
		t->dv = d;
		t->dv_cap = cap;
	}
	d = &t->dv[t->ndv++];
	memcpy(d->fid, fid, STOR_FID);
	d->b = b;
	memcpy(d->ivtag, iv, STOR_IV);
	memcpy(d->ivtag + STOR_IV, tag, STOR_TAG);
}

/* The blocks written in place, as META_DIRECT runs at the end of the record's meta. */
static void dv_meta(struct txn *t)
{
	size_t i = 0;

	while (i < t->ndv && !t->err) {
		struct buf_writer w;
		size_t k = 1;

		while (i + k < t->ndv && t->dv[i + k].b == t->dv[i].b + k &&
		       !memcmp(t->dv[i + k].fid, t->dv[i].fid, STOR_FID))
			k++;
		meta_writer(t, &w, 1 + STOR_FID + 8 + 4 + k * DV_BYTES);
		buf_put_u8(&w, META_DIRECT);
		buf_put_bytes(&w, t->dv[i].fid, STOR_FID);
		buf_put_u64(&w, t->dv[i].b);
		buf_put_u32(&w, (uint32_t)k);
		for (size_t n = 0; n < k; n++)
			buf_put_bytes(&w, t->dv[i + n].ivtag, DV_BYTES);
		i += k;
	}
}

void txn_put(struct txn *t, const struct stor_entry *e)
{
	struct buf_writer w;

	meta_writer(t, &w, 1 + ENTRY_BYTES);
	buf_put_u8(&w, META_PUT);
	entry_put(&w, e);
}

void txn_del(struct txn *t, const uint8_t fid[STOR_FID])
{
	struct buf_writer w;

	meta_writer(t, &w, 1 + STOR_FID);
	buf_put_u8(&w, META_DEL);
	buf_put_bytes(&w, fid, STOR_FID);
}

void txn_truncate(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t size)
{
	struct buf_writer w;

	meta_writer(t, &w, 1 + STOR_FID + 1 + 8);
	buf_put_u8(&w, META_TRUNCATE);
	buf_put_bytes(&w, fid, STOR_FID);
	buf_put_u8(&w, (uint8_t)kind);
	buf_put_u64(&w, size);
}

void txn_remove(struct txn *t, const uint8_t fid[STOR_FID])
{
	struct buf_writer w;

	meta_writer(t, &w, 1 + STOR_FID);
	buf_put_u8(&w, META_REMOVE);
	buf_put_bytes(&w, fid, STOR_FID);
}

void txn_time(struct txn *t, int64_t offset_ms, uint64_t ree_ms)
{
	struct buf_writer w;

	meta_writer(t, &w, 1 + 8 + 8);
	buf_put_u8(&w, META_TIME);
	buf_put_u64(&w, (uint64_t)offset_ms);
	buf_put_u64(&w, ree_ms);
}

static void sink_image(void *ctx, const uint8_t fid[STOR_FID], char kind, uint64_t off,
		       const void *p, size_t len)
{
	txn_image(ctx, fid, kind, off, p, len);
}

static void sink_truncate(void *ctx, const uint8_t fid[STOR_FID], char kind, uint64_t size)
{
	txn_truncate(ctx, fid, kind, size);
}

TEE_Result txn_map_finish(struct txn *t, const struct stor_entry *e, struct stor_entry *w)
{
	const struct map_sink sink = {.ctx = t, .image = sink_image, .truncate = sink_truncate};

	return map_finish(t->s, t, e, w, &sink);
}

void txn_abort(struct txn *t)
{
	map_txn_free(t);
	EVP_CIPHER_CTX_free(t->gcm);
	if (t->meta)
		secure_wipe(t->meta, t->meta_cap); /* entries carry FEKs */
	free(t->meta);
	free(t->pbulk);
	free(t->direct);
	free(t->dv);
	memset(t, 0, sizeof(*t));
}

/* ---- applying a record's operations ---- */

static bool kind_ok(uint8_t k)
{
	for (size_t i = 0; i < sizeof(kinds); i++)
		if (k == (uint8_t)kinds[i])
			return true;
	return false;
}

/* Where a record's images come from when its file operations run. */
struct apply {
	struct store *s;
	struct fsb *b;
	bool ree;	     /* copied by the supplicant from the REE journal */
	bool replay;	     /* recovery: truncations are left out (see meta_apply) */
	uint64_t rec;	     /* REE: the record's offset there */
	const uint8_t *bulk; /* not REE: the bulk in memory, written from the window */
	uint64_t bulk_len;
	uint32_t staged; /* window bytes used by queued writes */
	TEE_Result io;
};

static void apply_run(struct apply *a)
{
	if (a->b->nops && !a->io)
		a->io = fsb_run(a->b);
	a->staged = 0;
}

static void apply_image(struct apply *a, uint64_t off, uint32_t len, const char *name, uint64_t to)
{
	if (a->ree) {
		fsb_copy(a->b, JNAME, a->rec + RHDR_LEN + off, len, name, to);
		return;
	}
	/* The read area: a commit's images may still be written from it meanwhile. */
	if (!a->staged && a->s->fs->inflight) {
		TEE_Result res = reefs_settle(a->s->fs);

		if (res && !a->io)
			a->io = res;
	}
	while (len) {
		uint32_t n = FS_READ_AREA_LEN - a->staged;

		if (!n || !fsb_room(a->b, 1, OP_BYTES)) {
			apply_run(a);
			continue;
		}
		if (n > len)
			n = len;
		memcpy(wa(a->s, FS_READ_AREA + a->staged), a->bulk + off, n);
		fsb_write(a->b, name, to, n, FS_READ_AREA + a->staged);
		a->staged += n;
		off += n;
		to += n;
		len -= n;
	}
}

static void entry_update(struct store *s, struct stor_entry *e, const struct stor_entry *n)
{
	uint64_t blocks = map_blocks(n->size);

	uint8_t old_ns = e->ns;
	uint8_t old_len = e->id_len;
	uint8_t old_id[PROTO_STOR_ID_MAX];

	memcpy(old_id, e->id, old_len);
	e->ns = n->ns;
	e->flags = n->flags;
	e->id_len = n->id_len;
	memcpy(e->id, n->id, n->id_len);
	memcpy(e->fek, n->fek, STOR_KEY);
	e->size = n->size;
	memcpy(e->root, n->root, STOR_HASH);
	e->type = n->type;
	e->obj_size = n->obj_size;
	e->max_size = n->max_size;
	e->usage = n->usage;
	e->attr_len = n->attr_len;
	memcpy(e->attr_iv, n->attr_iv, STOR_IV);
	memcpy(e->attr_tag, n->attr_tag, STOR_TAG);
	if (blocks > e->hw)
		e->hw = blocks;
	dir_rehash(s, e, old_ns, old_id, old_len);
}

/*
 * Runs the operations of meta: with a, its file operations (queued on a->b,
 * which runs when full); with mem, its directory and time operations on the
 * store in memory. Returns false when meta is malformed.
 */
static bool meta_apply(struct store *s, struct apply *a, const uint8_t *meta, size_t len, bool mem)
{
	struct buf_reader r;

	buf_reader_init(&r, meta, len);
	while (buf_left(&r)) {
		char name[PROTO_FS_NAME_MAX + 1];
		uint8_t fid[STOR_FID];
		uint8_t op = 0;
		uint8_t kind = 0;
		uint64_t v = 0;
		uint64_t off = 0;
		uint32_t n = 0;

		if (a && !fsb_room(a->b, sizeof(kinds), OP_BYTES))
			apply_run(a);
		buf_get_u8(&r, &op);
		switch (op) {
		case META_PUT: {
			struct stor_entry *tmp = entry_new();
			struct stor_entry *e = NULL;
			struct stor_entry *other = NULL;

			if (!tmp)
				return false;
			if (!entry_get(&r, tmp)) {
				entry_free(tmp);
				return false;
			}
			e = mem ? dir_find_fid(s, tmp->fid) : NULL;
			other = e ? dir_find(s, tmp->ns, tmp->id, tmp->id_len) : NULL;
			if (other && other != e) {
				/* Renamed onto another object's id: ids are unique. */
				entry_free(tmp);
				return false;
			}
			if (e) {
				entry_update(s, e, tmp);
				entry_free(tmp);
			} else if (mem) {
				tmp->hw = map_blocks(tmp->size);
				if (dir_find(s, tmp->ns, tmp->id, tmp->id_len) ||
				    dir_insert(s, tmp)) {
					entry_free(tmp);
					return false;
				}
			} else {
				entry_free(tmp);
			}
			break;
		}
		case META_DEL:
		case META_REMOVE:
			if (!buf_get_bytes(&r, fid, STOR_FID))
				return false;
			if (op == META_DEL && mem) {
				struct stor_entry *e = dir_find_fid(s, fid);

				if (!e || e->open)
					return false;
				map_cache_drop(s, fid);
				dir_remove(s, e);
			}
			for (size_t i = 0; a && op == META_REMOVE && i < sizeof(kinds); i++) {
				file_name(fid, (uint8_t)kinds[i], name);
				fsb_remove(a->b, name);
			}
			break;
		case META_COPY:
			buf_get_u64(&r, &v);
			buf_get_u32(&r, &n);
			buf_get_bytes(&r, fid, STOR_FID);
			buf_get_u8(&r, &kind);
			buf_get_u64(&r, &off);
			if (!buf_ok(&r) || !kind_ok(kind) || off > STOR_MAX_SIZE + STOR_BLOCK)
				return false;
			if (a) {
				if (v > a->bulk_len || n > a->bulk_len - v)
					return false;
				file_name(fid, kind, name);
				apply_image(a, v, n, name, off);
			}
			if (mem)
				dirty_add(s, fid, kind);
			break;
		case META_TRUNCATE:
			buf_get_bytes(&r, fid, STOR_FID);
			buf_get_u8(&r, &kind);
			buf_get_u64(&r, &off);
			if (!buf_ok(&r) || !kind_ok(kind) || off > STOR_MAX_SIZE + STOR_BLOCK)
				return false;
			/*
			 * Replayed, a truncation could cut what a later record
			 * wrote in place: it is left out (a longer file holds only
			 * bytes nothing refers to).
			 */
			if (a && !a->replay) {
				file_name(fid, kind, name);
				fsb_truncate(a->b, name, off);
			}
			if (mem)
				dirty_add(s, fid, kind);
			break;
		case META_CONFIRM:
			break;
		case META_DIRECT:
			/* Checked at recovery (direct_landed); nothing to do. */
			buf_get_bytes(&r, fid, STOR_FID);
			buf_get_u64(&r, &v);
			buf_get_u32(&r, &n);
			if (!buf_ok(&r) || !n || n > DV_MAX || !buf_skip(&r, (size_t)n * DV_BYTES))
				return false;
			break;
		case META_TIME:
			buf_get_u64(&r, &v);
			buf_get_u64(&r, &off);
			if (!buf_ok(&r))
				return false;
			if (mem) {
				s->time_set = true;
				s->time_offset_ms = (int64_t)v;
				s->time_ree_ms = off;
			}
			break;
		default:
			return false;
		}
	}
	return buf_done(&r);
}

/* Skips the body of an op of a record's meta (after its code); false when malformed. */
static bool meta_skip(struct buf_reader *r, uint8_t op)
{
	uint32_t n = 0;

	switch (op) {
	case META_PUT:
		return buf_skip(r, ENTRY_BYTES);
	case META_DEL:
	case META_REMOVE:
		return buf_skip(r, STOR_FID);
	case META_COPY:
		return buf_skip(r, 8 + 4 + STOR_FID + 1 + 8);
	case META_TRUNCATE:
		return buf_skip(r, STOR_FID + 1 + 8);
	case META_TIME:
		return buf_skip(r, 16);
	case META_CONFIRM:
		return true;
	case META_DIRECT:
		return buf_skip(r, STOR_FID + 8) && buf_get_u32(r, &n) && n && n <= DV_MAX &&
		       buf_skip(r, (size_t)n * DV_BYTES);
	default:
		return false;
	}
}

/* How many file operations meta asks for (more than fit, for a malformed one). */
static uint32_t meta_file_ops(const uint8_t *meta, size_t len)
{
	struct buf_reader r;
	uint32_t n = 0;

	buf_reader_init(&r, meta, len);
	while (buf_left(&r)) {
		uint8_t op = 0;

		buf_get_u8(&r, &op);
		if (op == META_REMOVE)
			n += sizeof(kinds);
		else if (op == META_COPY || op == META_TRUNCATE)
			n++;
		if (!meta_skip(&r, op))
			return PROTO_FS_OPS_MAX + 1;
	}
	return n;
}

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

/* ---- transactions: commit ---- */

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

/*
 * A small record: to the RPMB log with its head in one fdatasync, then its
 * file operations. On failure the store broke, unless nothing can count.
 */
static TEE_Result commit_log(struct txn *t, const uint8_t head[RHDR_LEN], const uint8_t *sealed,
			     uint64_t total, const uint8_t tag[STOR_TAG], uint64_t seq)
{
	struct store *s = t->s;
	struct apply a = {.s = s, .b = &t->b, .bulk = t->pbulk, .bulk_len = t->bulk};
	uint8_t *rec = malloc((size_t)total);
	bool overlap = t->ndv && !t->dv_over;
	TEE_Result res = TEE_SUCCESS;
	int r = 0;

	if (!rec)
		return TEE_ERROR_OUT_OF_MEMORY;
	memcpy(rec, head, RHDR_LEN);
	if (t->bulk)
		memcpy(rec + RHDR_LEN, t->pbulk, (size_t)t->bulk);
	memcpy(rec + RHDR_LEN + t->bulk, sealed, t->meta_len + STOR_TAG);
	/*
	 * The writes in place land before the record goes out, so that a full
	 * disk fails them while nothing counts yet; only their sync overlaps.
	 */
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
			txn_fail(t, settle_error(reefs_settle_keep(s->fs, syncs ? 1 : 0)));
	} else {
		sync_direct(t);
		txn_run(t);
	}
	if (t->err) {
		res = t->err;
		goto out;
	}
	r = rpmb_log_append(&s->rpmb, s->keys, rec, (size_t)total, seq, tag);
	if (overlap && reefs_settle(s->fs)) {
		/* The record may count while its blocks are not all there. */
		if (r != RPMB_LOG_NOTHING)
			store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a commit did not finish");
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		goto out;
	}
	if (r == RPMB_LOG_NOTHING) {
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		goto out;
	}
	if (r) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "the RPMB slot cannot be written");
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		goto out;
	}
	/*
	 * Durable: now its files, without waiting. Whatever uses the channel
	 * or the store next waits for them first (reefs_settle, store_lock).
	 */
	if (!meta_apply(s, &a, t->meta, t->meta_len, false)) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a transaction is malformed");
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		goto out;
	}
	if (a.b->nops && !a.io)
		a.io = fsb_send(a.b, &s->applying);
	if (a.io) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a commit did not finish");
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
out:
	secure_wipe(rec, (size_t)total);
	free(rec);
	return res;
}

/* A large record: to the REE journal, fdatasync, its files, then the RPMB anchor. */
static TEE_Result commit_ree(struct txn *t, const uint8_t head[RHDR_LEN], const uint8_t *sealed,
			     uint64_t total, const uint8_t tag[STOR_TAG], uint64_t seq)
{
	struct store *s = t->s;
	struct apply a = {.s = s, .b = &t->b, .ree = true, .rec = t->rec, .bulk_len = t->bulk};
	uint64_t end = t->rec + total;
	uint32_t rec_write = 0;
	bool rec_ran = false;
	TEE_Result res = TEE_SUCCESS;

	reserve_images(t);
	sync_direct(t);
	if (end > s->jalloc) {
		/* Zeros past the record, so that the next ones overwrite, not append. */
		uint64_t grow = (end + JOURNAL_STEP - 1) / JOURNAL_STEP * JOURNAL_STEP;

		if (!fsb_room(&t->b, 1, OP_BYTES))
			txn_run(t);
		if (grow > end)
			fsb_zero(&t->b, JNAME, end, (uint32_t)(grow - end));
		s->jalloc = grow;
	}
	if (!t->bulk_sent && t->staged + t->meta_len + STOR_TAG <= BULK_ROOM) {
		/* The whole record in one write. */
		memcpy(wa(s, FS_WRITE_AREA), head, RHDR_LEN);
		memcpy(wa(s, FS_WRITE_AREA + RHDR_LEN + t->staged), sealed, t->meta_len + STOR_TAG);
		if (!fsb_room(&t->b, 2, OP_BYTES))
			txn_run(t);
		rec_write = fsb_write(&t->b, JNAME, t->rec, (uint32_t)total, FS_WRITE_AREA);
	} else {
		size_t done = 0;
		size_t left = t->meta_len + STOR_TAG;

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
		rec_write = fsb_write(&t->b, JNAME, t->rec, RHDR_LEN, FS_WRITE_AREA);
	}
	if (t->err)
		return t->err;
	fsb_sync(&t->b, JNAME);
	/* From the record's write on it may be durable: a failure then breaks the store. */
	if (!fsb_room(&t->b, meta_file_ops(t->meta, t->meta_len), OP_BYTES)) {
		res = fsb_run(&t->b);
		rec_ran = true;
		if (res)
			goto failed;
	}
	if (!meta_apply(s, &a, t->meta, t->meta_len, false)) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a transaction is malformed");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	if (a.io) {
		res = a.io;
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

TEE_Result txn_commit(struct txn *t)
{
	struct store *s = t->s;
	struct rhead h = {0};
	uint8_t head[RHDR_LEN];
	uint8_t tag[STOR_TAG];
	uint8_t *sealed = NULL;
	uint64_t total = 0;
	TEE_Result res = TEE_SUCCESS;

	if (t->err) {
		res = t->err;
		goto out;
	}
	if (!t->meta_len && !t->bulk)
		goto out; /* nothing changed */
	/* Blocks written in place, listed so that their sync can overlap the record's. */
	if (!t->ree && t->ndv && !t->dv_over)
		dv_meta(t);
	if (t->err) {
		res = t->err;
		goto out;
	}
	total = RHDR_LEN + t->bulk + t->meta_len + STOR_TAG;
	/* Too large for the RPMB log even when empty: the REE journal. */
	if (!t->ree && total > RPMB_LOG_SIZE - LOG_KEEP)
		go_ree(t);
	/* Room in the log, or a checkpoint that makes it. */
	if (!t->ree && !t->err && s->rpmb.log_end + total > RPMB_LOG_SIZE - LOG_KEEP) {
		TEE_Result c = TEE_SUCCESS;

		txn_run(t);
		if (!t->err)
			c = checkpoint(s);
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
	if (t->err) {
		res = t->err;
		goto out;
	}
	/* After any checkpoint the commit needed: the record follows the head. */
	h.seq = s->seq + 1;
	memcpy(h.prev, s->tag, STOR_TAG);
	h.bulk = t->bulk;
	h.meta = (uint32_t)t->meta_len;
	memcpy(h.iv, t->iv, STOR_IV);
	rhead_encode(head, &h);
	sealed = malloc(t->meta_len + STOR_TAG);
	if (!sealed || !seal_meta(t, head, sealed)) {
		res = sealed ? TEE_ERROR_GENERIC : TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	memcpy(tag, sealed + t->meta_len, STOR_TAG);
	if (t->ree)
		res = commit_ree(t, head, sealed, total, tag, h.seq);
	else
		res = commit_log(t, head, sealed, total, tag, h.seq);
	if (res)
		goto out;
	/* Durable and anchored: now the store in memory follows. */
	s->unconfirmed = !t->ree && t->ndv && !t->dv_over;
	s->seq = h.seq;
	memcpy(s->tag, tag, STOR_TAG);
	s->since_ckpt++;
	if (!meta_apply(s, NULL, t->meta, t->meta_len, true))
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "the directory cannot follow");
	map_txn_install(t);
	if (!s->broken &&
	    (s->jend - RECORDS_START > JOURNAL_SOFT || s->dirty.n > DIRTY_MAX || s->dirty.lost))
		checkpoint(s);
out:
	if (sealed)
		secure_wipe(sealed, t->meta_len + STOR_TAG);
	free(sealed);
	txn_abort(t);
	return res;
}

/* ---- checkpoints and directory snapshots ---- */

struct dir_out {
	struct store *s;
	struct fsb b;
	EVP_CIPHER_CTX *gcm;
	EVP_MD_CTX *md;
	char name[PROTO_FS_NAME_MAX + 1];
	uint64_t off;
	uint32_t staged;
	TEE_Result err;
};

static void dir_out_flush(struct dir_out *d)
{
	if (!d->staged || d->err)
		return;
	fsb_write(&d->b, d->name, d->off, d->staged, FS_WRITE_AREA);
	d->err = fsb_run(&d->b);
	d->off += d->staged;
	d->staged = 0;
}

/* Appends len bytes; clear ones are sealed first. */
static void dir_out_put(struct dir_out *d, const uint8_t *p, size_t len, bool seal)
{
	while (len && !d->err) {
		size_t n = FS_WRITE_AREA_LEN - d->staged;
		uint8_t *dst = wa(d->s, FS_WRITE_AREA + d->staged);
		int outl = 0;

		if (!n) {
			dir_out_flush(d);
			continue;
		}
		if (n > len)
			n = len;
		if (seal) {
			if (!EVP_CipherUpdate(d->gcm, dst, &outl, p, (int)n))
				d->err = TEE_ERROR_GENERIC;
		} else {
			memcpy(dst, p, n);
		}
		EVP_DigestUpdate(d->md, dst, n);
		d->staged += (uint32_t)n;
		p += n;
		len -= n;
	}
}

/* Writes d<seq>: every entry and the persistent time, sealed. */
static TEE_Result dir_snapshot(struct store *s, uint64_t seq, uint64_t *len,
			       uint8_t hash[STOR_HASH])
{
	struct dir_out d = {.s = s};
	uint8_t head[DHDR_LEN];
	uint8_t iv[STOR_IV];
	uint8_t tag[STOR_TAG];
	uint8_t ent[ENTRY_BYTES];
	struct buf_writer w;
	unsigned int hl = 0;
	int outl = 0;

	journal_dir_file(seq, d.name);
	fsb_init(&d.b, s->fs, s->dir);
	d.gcm = crypt_ctx_new(s->keys->dir);
	d.md = EVP_MD_CTX_new();
	if (!d.gcm || !d.md || crypt_random(iv, sizeof(iv)) ||
	    !EVP_DigestInit_ex(d.md, EVP_sha256(), NULL)) {
		d.err = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	buf_writer_init(&w, head, sizeof(head));
	buf_put_u32(&w, J_MAGIC_DIR);
	buf_put_u32(&w, J_VERSION);
	buf_put_u64(&w, seq);
	buf_put_u32(&w, (uint32_t)s->n);
	buf_put_u8(&w, s->time_set);
	buf_put_u64(&w, (uint64_t)s->time_offset_ms);
	buf_put_u64(&w, s->time_ree_ms);
	buf_put_bytes(&w, iv, STOR_IV);
	if (!EVP_CipherInit_ex(d.gcm, NULL, NULL, NULL, iv, 1) ||
	    !EVP_CipherUpdate(d.gcm, NULL, &outl, head, sizeof(head))) {
		d.err = TEE_ERROR_GENERIC;
		goto out;
	}
	dir_out_put(&d, head, sizeof(head), false);
	for (size_t i = 0; i < s->n && !d.err; i++) {
		buf_writer_init(&w, ent, sizeof(ent));
		entry_put(&w, s->sorted[i]);
		dir_out_put(&d, ent, sizeof(ent), true);
	}
	secure_wipe(ent, sizeof(ent));
	if (!d.err && (EVP_CipherFinal_ex(d.gcm, tag, &outl) != 1 ||
		       !EVP_CIPHER_CTX_ctrl(d.gcm, EVP_CTRL_GCM_GET_TAG, STOR_TAG, tag)))
		d.err = TEE_ERROR_GENERIC;
	dir_out_put(&d, tag, sizeof(tag), false);
	dir_out_flush(&d);
	*len = d.off;
	EVP_DigestFinal_ex(d.md, hash, &hl);
	if (!d.err) {
		fsb_sync(&d.b, d.name);
		fsb_syncdir(&d.b);
		d.err = fsb_run(&d.b);
	}
out:
	EVP_CIPHER_CTX_free(d.gcm);
	EVP_MD_CTX_free(d.md);
	return d.err;
}

/* Every file an entry of the store may have: what to sync when the list is lost. */
static TEE_Result sync_all(struct store *s, struct fsb *b)
{
	char name[PROTO_FS_NAME_MAX + 1];
	TEE_Result res = TEE_SUCCESS;

	for (size_t i = 0; i < s->n && !res; i++) {
		for (size_t k = 0; k < sizeof(kinds) && !res; k++) {
			if (!fsb_room(b, 1, OP_BYTES))
				res = fsb_run(b);
			file_name(s->sorted[i]->fid, (uint8_t)kinds[k], name);
			fsb_sync(b, name);
		}
	}
	return res;
}

static TEE_Result checkpoint(struct store *s)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t hdr[HDR_LEN];
	struct jhdr h = {.seq = s->seq + 1};
	uint64_t old_dir = s->dir_seq;
	struct fsb b;
	TEE_Result res = TEE_SUCCESS;
	int slot = 1 - s->hslot;

	/* 1. What the records since the last checkpoint changed in place. */
	fsb_init(&b, s->fs, s->dir);
	if (s->dirty.lost)
		res = sync_all(s, &b);
	for (size_t i = 0; i < s->dirty.n && !res; i++) {
		file_name(s->dirty.fid[i], s->dirty.fid[i][STOR_FID], name);
		if (!fsb_room(&b, 2, OP_BYTES))
			res = fsb_run(&b);
		fsb_sync(&b, name);
	}
	fsb_syncdir(&b);
	if (!res)
		res = fsb_run(&b);
	/* 2. The directory as it is now. */
	if (!res)
		res = dir_snapshot(s, h.seq, &h.dir_len, h.dir_hash);
	if (res) {
		log_error("storage: a checkpoint failed (0x%08x)", res);
		return res;
	}
	/* 3. The other header slot: from its write on, the checkpoint may count. */
	h.dir_seq = h.seq;
	memcpy(h.prev, s->tag, STOR_TAG);
	hdr_encode(s, hdr, &h);
	memcpy(h.tag, hdr + HDR_BODY + STOR_IV, STOR_TAG);
	memcpy(wa(s, FS_WRITE_AREA), hdr, HDR_LEN);
	fsb_write(&b, JNAME, (uint64_t)slot * HDR_SLOT, HDR_LEN, FS_WRITE_AREA);
	fsb_sync(&b, JNAME);
	res = fsb_run(&b);
	/* 4. The anchor, which also empties the RPMB log. */
	if (res || rpmb_update(&s->rpmb, s->keys, h.seq, h.tag)) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a checkpoint did not finish");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	s->seq = h.seq;
	memcpy(s->tag, h.tag, STOR_TAG);
	s->hslot = slot;
	/* Nothing is replayed from before this point any more; every file is in the directory. */
	for (size_t i = 0; i < s->n; i++) {
		s->sorted[i]->hw = map_blocks(s->sorted[i]->size);
		s->sorted[i]->dir_synced = true;
	}
	s->jend = RECORDS_START;
	s->dir_seq = h.seq;
	s->dirty.n = 0;
	s->dirty.lost = false;
	s->since_ckpt = 0;
	s->unconfirmed = false;
	/* 5. Tidying: nothing refers to these any more. */
	if (old_dir) {
		journal_dir_file(old_dir, name);
		fsb_remove(&b, name);
	}
	if (s->jalloc > RECORDS_START + 2 * JOURNAL_SOFT) {
		fsb_truncate(&b, JNAME, RECORDS_START + JOURNAL_STEP);
		s->jalloc = RECORDS_START + JOURNAL_STEP;
	}
	if (b.nops && fsb_run(&b))
		log_error("storage: cannot tidy the journal of a store");
	return TEE_SUCCESS;
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

TEE_Result journal_checkpoint(struct store *s)
{
	if (!s->loaded || s->broken || !s->since_ckpt || s->readonly)
		return s->broken;
	return checkpoint(s);
}

/* ---- recovery ---- */

/* Sequential reads of a REE file into private memory. */
struct jreader {
	struct store *s;
	struct fsb b;
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t *buf;
	uint64_t at; /* file offset of buf[0] */
	uint32_t len;
};

/* Copies [off, off + n) of the file to dst; false when it is not all there. */
static bool jr_get(struct jreader *j, uint64_t off, void *dst, size_t n, TEE_Result *io)
{
	uint8_t *out = dst;

	while (n) {
		uint32_t i = 0;

		if (off >= j->at && off < j->at + j->len) {
			size_t k = j->at + j->len - off;

			if (k > n)
				k = n;
			memcpy(out, j->buf + (off - j->at), k);
			out += k;
			off += k;
			n -= k;
			continue;
		}
		i = fsb_read(&j->b, j->name, off, FS_READ_AREA_LEN, FS_READ_AREA);
		*io = fsb_run(&j->b);
		if (*io)
			return false;
		j->len = j->b.counts[i];
		j->at = off;
		/* The window is the supplicant's too: copy it out before looking. */
		memcpy(j->buf, j->s->fs->win + FS_READ_AREA, j->len);
		if (!j->len)
			return false;
	}
	return true;
}

/* A record as recovery reads it. */
struct rec {
	struct rhead h;
	uint64_t end; /* REE: offset after it */
	uint8_t tag[STOR_TAG];
	uint8_t *meta; /* with want: the operations, in clear */
	uint8_t *bulk; /* with want, from the RPMB log: its bulk */
};

static void rec_free(struct rec *r)
{
	if (r->meta) {
		secure_wipe(r->meta, r->h.meta);
		free(r->meta);
	}
	r->meta = NULL;
	r->bulk = NULL;
}

/* Opens the sealed part after head (the rest of the AAD) went through gcm. */
static bool rec_finish(EVP_CIPHER_CTX *gcm, const uint8_t *head, size_t head_len, const uint8_t *ct,
		       uint32_t len, const uint8_t tag[STOR_TAG], uint8_t *pt)
{
	uint8_t t[STOR_TAG];
	int outl = 0;

	memcpy(t, tag, STOR_TAG);
	return EVP_CipherUpdate(gcm, NULL, &outl, head, (int)head_len) &&
	       (!len || EVP_CipherUpdate(gcm, pt, &outl, ct, (int)len)) &&
	       EVP_CIPHER_CTX_ctrl(gcm, EVP_CTRL_GCM_SET_TAG, STOR_TAG, t) &&
	       EVP_CipherFinal_ex(gcm, pt + len, &outl) == 1;
}

/* Reads and checks the REE record at off; false when there is no valid one. */
static bool ree_rec_read(struct jreader *j, uint64_t off, uint64_t seq,
			 const uint8_t prev[STOR_TAG], bool want, struct rec *rc, TEE_Result *io)
{
	uint8_t head[RHDR_LEN];
	uint8_t *chunk = NULL;
	uint8_t *ct = NULL;
	uint8_t *pt = NULL;
	EVP_CIPHER_CTX *gcm = NULL;
	bool ok = false;
	int outl = 0;

	memset(rc, 0, sizeof(*rc));
	if (!jr_get(j, off, head, sizeof(head), io) || !rhead_decode(head, seq, prev, &rc->h))
		return false;
	chunk = malloc(FS_READ_AREA_LEN);
	ct = malloc((size_t)rc->h.meta + 1);
	pt = malloc((size_t)rc->h.meta + 1);
	gcm = crypt_ctx_new(j->s->keys->journal);
	if (!chunk || !ct || !pt || !gcm || !EVP_CipherInit_ex(gcm, NULL, NULL, NULL, rc->h.iv, 0))
		goto out;
	for (uint64_t done = 0; done < rc->h.bulk;) {
		size_t n = rc->h.bulk - done < FS_READ_AREA_LEN ? (size_t)(rc->h.bulk - done)
								: FS_READ_AREA_LEN;

		if (!jr_get(j, off + RHDR_LEN + done, chunk, n, io) ||
		    !EVP_CipherUpdate(gcm, NULL, &outl, chunk, (int)n))
			goto out;
		done += n;
	}
	if (!jr_get(j, off + RHDR_LEN + rc->h.bulk, ct, rc->h.meta, io) ||
	    !jr_get(j, off + RHDR_LEN + rc->h.bulk + rc->h.meta, rc->tag, STOR_TAG, io) ||
	    !rec_finish(gcm, head, RHDR_LEN, ct, rc->h.meta, rc->tag, pt))
		goto out;
	rc->end = off + RHDR_LEN + rc->h.bulk + rc->h.meta + STOR_TAG;
	if (want) {
		rc->meta = pt;
		pt = NULL; /* transferred */
	}
	ok = true;
out:
	EVP_CIPHER_CTX_free(gcm);
	free(chunk);
	free(ct);
	if (pt) {
		secure_wipe(pt, (size_t)rc->h.meta + 1);
		free(pt);
	}
	return ok;
}

/* Checks the RPMB log record at off of log (trusted memory); false when there is none. */
static bool log_rec_read(struct store *s, const uint8_t *log, uint64_t off, uint64_t seq,
			 const uint8_t prev[STOR_TAG], bool want, struct rec *rc)
{
	uint8_t *pt = NULL;
	EVP_CIPHER_CTX *gcm = NULL;
	uint64_t total = 0;
	bool ok = false;
	int outl = 0;

	memset(rc, 0, sizeof(*rc));
	if (off > RPMB_LOG_SIZE - RHDR_LEN || !rhead_decode(log + off, seq, prev, &rc->h))
		return false;
	total = RHDR_LEN + rc->h.bulk + rc->h.meta + STOR_TAG;
	if (total > RPMB_LOG_SIZE - off)
		return false;
	pt = malloc((size_t)rc->h.meta + 1);
	gcm = crypt_ctx_new(s->keys->journal);
	if (!pt || !gcm || !EVP_CipherInit_ex(gcm, NULL, NULL, NULL, rc->h.iv, 0) ||
	    (rc->h.bulk &&
	     !EVP_CipherUpdate(gcm, NULL, &outl, log + off + RHDR_LEN, (int)rc->h.bulk)))
		goto out;
	memcpy(rc->tag, log + off + total - STOR_TAG, STOR_TAG);
	if (!rec_finish(gcm, log + off, RHDR_LEN, log + off + RHDR_LEN + rc->h.bulk, rc->h.meta,
			rc->tag, pt))
		goto out;
	rc->end = off + total;
	if (want) {
		rc->meta = pt;
		rc->bulk = (uint8_t *)log + off + RHDR_LEN;
		pt = NULL; /* transferred */
	}
	ok = true;
out:
	EVP_CIPHER_CTX_free(gcm);
	if (pt) {
		secure_wipe(pt, (size_t)rc->h.meta + 1);
		free(pt);
	}
	return ok;
}

/* Reads and checks the snapshot the header names, into the directory. */
static TEE_Result dir_load(struct store *s, struct jreader *j, const struct jhdr *h)
{
	uint8_t head[DHDR_LEN];
	uint8_t tag[STOR_TAG];
	uint8_t hash[STOR_HASH];
	uint8_t iv[STOR_IV];
	uint8_t *ct = NULL;
	uint8_t *pt = NULL;
	struct buf_reader r;
	uint32_t magic = 0;
	uint32_t version = 0;
	uint64_t seq = 0;
	uint32_t count = 0;
	uint8_t tset = 0;
	uint64_t toff = 0;
	uint64_t tree = 0;
	size_t body = 0;
	unsigned int hl = 0;
	EVP_CIPHER_CTX *gcm = NULL;
	EVP_MD_CTX *md = NULL;
	TEE_Result res = TEE_ERROR_CORRUPT_OBJECT;
	TEE_Result io = TEE_SUCCESS;

	if (!h->dir_len)
		return TEE_SUCCESS; /* an empty store */
	journal_dir_file(h->dir_seq, j->name);
	j->len = 0;
	if (h->dir_len < DHDR_LEN + STOR_TAG)
		goto out;
	body = (size_t)(h->dir_len - DHDR_LEN - STOR_TAG);
	ct = malloc(body + 1);
	pt = malloc(body + 1);
	gcm = crypt_ctx_new(s->keys->dir);
	md = EVP_MD_CTX_new();
	if (!ct || !pt || !gcm || !md) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	if (!jr_get(j, 0, head, DHDR_LEN, &io) || !jr_get(j, DHDR_LEN, ct, body, &io) ||
	    !jr_get(j, DHDR_LEN + body, tag, STOR_TAG, &io))
		goto out;
	EVP_DigestInit_ex(md, EVP_sha256(), NULL);
	EVP_DigestUpdate(md, head, DHDR_LEN);
	EVP_DigestUpdate(md, ct, body);
	EVP_DigestUpdate(md, tag, STOR_TAG);
	EVP_DigestFinal_ex(md, hash, &hl);
	if (!secure_equal(hash, h->dir_hash, STOR_HASH))
		goto out;
	buf_reader_init(&r, head, DHDR_LEN);
	buf_get_u32(&r, &magic);
	buf_get_u32(&r, &version);
	buf_get_u64(&r, &seq);
	buf_get_u32(&r, &count);
	buf_get_u8(&r, &tset);
	buf_get_u64(&r, &toff);
	buf_get_u64(&r, &tree);
	buf_get_bytes(&r, iv, STOR_IV);
	if (!buf_done(&r) || magic != J_MAGIC_DIR || version != J_VERSION || seq != h->dir_seq ||
	    (uint64_t)count * ENTRY_BYTES != body || tset > 1)
		goto out;
	if (!EVP_CipherInit_ex(gcm, NULL, NULL, NULL, iv, 0) ||
	    !rec_finish(gcm, head, DHDR_LEN, ct, (uint32_t)body, tag, pt))
		goto out;
	buf_reader_init(&r, pt, body);
	for (uint32_t i = 0; i < count; i++) {
		struct stor_entry *e = entry_new();

		if (!e) {
			res = TEE_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		if (!entry_get(&r, e) || dir_find(s, e->ns, e->id, e->id_len) || dir_insert(s, e)) {
			entry_free(e);
			goto out;
		}
		e->hw = map_blocks(e->size);
	}
	s->time_set = tset;
	s->time_offset_ms = (int64_t)toff;
	s->time_ree_ms = tree;
	res = TEE_SUCCESS;
out:
	if (io)
		res = io == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_CORRUPT_OBJECT : io;
	EVP_CIPHER_CTX_free(gcm);
	EVP_MD_CTX_free(md);
	free(ct);
	if (pt) {
		secure_wipe(pt, body + 1);
		free(pt);
	}
	snprintf(j->name, sizeof(j->name), "%s", JNAME);
	j->len = 0;
	return res;
}

/* A new store: slot first, then the journal, then the slot anchors it. */
static TEE_Result store_init(struct store *s, bool have_slot)
{
	struct jhdr h = {.seq = 1};
	uint8_t hdr[HDR_LEN];
	struct fsb b;
	TEE_Result res = TEE_SUCCESS;

	if (!have_slot) {
		int r = rpmb_create(&s->rpmb, s->dir, s->keys);

		if (r)
			return r == RPMB_FULL ? TEE_ERROR_STORAGE_NO_SPACE
					      : TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	fsb_init(&b, s->fs, s->dir);
	hdr_encode(s, hdr, &h);
	memcpy(wa(s, FS_WRITE_AREA), hdr, HDR_LEN);
	fsb_mkdir(&b);
	fsb_remove(&b, JNAME);
	fsb_write(&b, JNAME, 0, HDR_LEN, FS_WRITE_AREA);
	fsb_zero(&b, JNAME, HDR_SLOT, HDR_SLOT + JOURNAL_STEP);
	fsb_sync(&b, JNAME);
	fsb_syncdir(&b);
	res = fsb_run(&b);
	if (res)
		return res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res;
	if (rpmb_update(&s->rpmb, s->keys, 1, hdr + HDR_BODY + STOR_IV))
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	s->seq = 1;
	memcpy(s->tag, hdr + HDR_BODY + STOR_IV, STOR_TAG);
	s->hslot = 0;
	s->jend = RECORDS_START;
	s->jalloc = RECORDS_START + JOURNAL_STEP;
	s->dir_seq = 0;
	return TEE_SUCCESS;
}

/* What recovery learns of the chain: where a part ends. */
struct chain_end {
	uint64_t seq;
	uint8_t tag[STOR_TAG];
	uint8_t prev[STOR_TAG]; /* of the last link */
	uint64_t end;		/* byte offset after it */
	uint64_t prev_end;	/* where it starts (after the link before) */
	uint64_t n;		/* records */
};

/* Follows REE records from header h as far as they go. */
static void ree_walk(struct jreader *j, const struct jhdr *h, struct chain_end *c, TEE_Result *io)
{
	struct rec rc;

	c->seq = h->seq;
	memcpy(c->tag, h->tag, STOR_TAG);
	memcpy(c->prev, h->prev, STOR_TAG);
	c->end = RECORDS_START;
	c->n = 0;
	while (ree_rec_read(j, c->end, c->seq + 1, c->tag, false, &rc, io)) {
		memcpy(c->prev, c->tag, STOR_TAG);
		c->seq = rc.h.seq;
		memcpy(c->tag, rc.tag, STOR_TAG);
		c->end = align8(rc.end);
		c->n++;
	}
}

/* Follows the RPMB log from the anchor as far as it goes. */
static void log_walk(struct store *s, const uint8_t *log, struct chain_end *c)
{
	struct rec rc;

	c->seq = s->rpmb.seq;
	memcpy(c->tag, s->rpmb.tag, STOR_TAG);
	memset(c->prev, 0, STOR_TAG);
	c->end = 0;
	c->prev_end = 0;
	c->n = 0;
	while (log_rec_read(s, log, c->end, c->seq + 1, c->tag, false, &rc)) {
		c->prev_end = c->end;
		memcpy(c->prev, c->tag, STOR_TAG);
		c->seq = rc.h.seq;
		memcpy(c->tag, rc.tag, STOR_TAG);
		c->end = align8(rc.end);
		c->n++;
	}
}

/*
 * Whether the RPMB log ends where its head says, give or take the one
 * record a crash inside its single fdatasync can leave on either side.
 */
static bool log_consistent(const struct store *s, const struct chain_end *l)
{
	const struct rpmb_slot *r = &s->rpmb;

	if (l->seq == r->log_seq)
		return secure_equal(l->tag, r->log_tag, STOR_TAG);
	if (l->seq == r->log_seq + 1)
		return secure_equal(l->prev, r->log_tag, STOR_TAG);
	return l->seq + 1 == r->log_seq;
}

/* Replays the REE records after header h up to seq k. */
static bool ree_replay(struct store *s, struct jreader *j, const struct jhdr *h, uint64_t k,
		       struct fsb *b, TEE_Result *io)
{
	uint8_t prev[STOR_TAG];
	uint64_t off = RECORDS_START;
	uint64_t seq = h->seq;

	memcpy(prev, h->tag, STOR_TAG);
	while (seq < k) {
		struct rec rc;
		struct apply a = {.s = s, .b = b, .ree = true, .rec = off, .replay = true};
		bool ok = ree_rec_read(j, off, seq + 1, prev, true, &rc, io);

		a.bulk_len = rc.h.bulk;
		ok = ok && meta_apply(s, &a, rc.meta, rc.h.meta, true);
		if (a.io)
			*io = a.io;
		rec_free(&rc);
		if (!ok || *io)
			return false;
		seq = rc.h.seq;
		memcpy(prev, rc.tag, STOR_TAG);
		off = align8(rc.end);
	}
	return true;
}

/* Replays the RPMB log records (trusted) up to seq k. */
/* The last META_PUT of fid in meta, into e (fresh); false when there is none. */
static bool meta_entry(const uint8_t *meta, size_t len, const uint8_t fid[STOR_FID],
		       struct stor_entry *e)
{
	struct buf_reader r;
	bool found = false;

	buf_reader_init(&r, meta, len);
	while (buf_left(&r)) {
		const uint8_t *id = NULL;
		uint8_t op = 0;

		buf_get_u8(&r, &op);
		if (op == META_PUT && buf_left(&r) >= STOR_FID) {
			struct buf_reader at = r;

			buf_get_ptr(&at, &id, STOR_FID);
			if (!memcmp(id, fid, STOR_FID)) {
				if (!entry_get(&r, e))
					return false;
				found = true;
				continue;
			}
		}
		if (!meta_skip(&r, op))
			return false;
	}
	return found;
}

/*
 * The last record of the RPMB log may have become durable while the blocks
 * it wrote in place were still on their way (commit_log): if a crash took
 * some of them, the record never committed (its call did not return), and
 * the log ends before it. Only the last one can be in that state: the next
 * commit starts after both syncs. TEE_SUCCESS, or the channel's error.
 */
static TEE_Result direct_landed(struct store *s, const uint8_t *log, struct chain_end *lg)
{
	struct stor_entry *e = NULL;
	struct buf_reader r;
	struct rec rc;
	bool landed = true;
	bool seen = false;
	TEE_Result res = TEE_SUCCESS;

	s->unconfirmed = false;
	if (!lg->n || !log_rec_read(s, log, lg->prev_end, lg->seq, lg->prev, true, &rc))
		return TEE_SUCCESS;
	buf_reader_init(&r, rc.meta, rc.h.meta);
	while (landed && !res && buf_left(&r)) {
		const uint8_t *ivtags = NULL;
		uint8_t fid[STOR_FID];
		uint64_t first = 0;
		uint32_t n = 0;
		uint8_t op = 0;

		buf_get_u8(&r, &op);
		if (op != META_DIRECT) {
			if (!meta_skip(&r, op))
				break; /* replay says so */
			continue;
		}
		buf_get_bytes(&r, fid, STOR_FID);
		buf_get_u64(&r, &first);
		buf_get_u32(&r, &n);
		if (!buf_ok(&r) || !n || n > DV_MAX ||
		    !buf_get_ptr(&r, &ivtags, (size_t)n * DV_BYTES))
			break;
		seen = true;
		entry_free(e);
		e = entry_new();
		if (!e) {
			res = TEE_ERROR_OUT_OF_MEMORY;
			break;
		}
		if (!meta_entry(rc.meta, rc.h.meta, fid, e)) {
			landed = false;
			break;
		}
		res = obj_check_blocks(s, e, first, n, ivtags);
		if (res == TEE_ERROR_CORRUPT_OBJECT) {
			landed = false;
			res = TEE_SUCCESS;
		}
	}
	/* Landed: still, a later load would check again (journal_confirm). */
	s->unconfirmed = landed && !res && seen;
	if (!landed && !res) {
		log_info("storage: the last change before a crash did not reach the disk "
			 "whole: it never happened");
		lg->seq--;
		memcpy(lg->tag, lg->prev, STOR_TAG);
		lg->end = lg->prev_end;
		lg->n--;
	}
	entry_free(e);
	rec_free(&rc);
	return res;
}

static bool log_replay(struct store *s, const uint8_t *log, uint64_t k, struct fsb *b,
		       TEE_Result *io)
{
	uint8_t prev[STOR_TAG];
	uint64_t off = 0;
	uint64_t seq = s->rpmb.seq;

	memcpy(prev, s->rpmb.tag, STOR_TAG);
	while (seq < k) {
		struct rec rc;
		struct apply a = {.s = s, .b = b, .replay = true};
		bool ok = log_rec_read(s, log, off, seq + 1, prev, true, &rc);

		a.bulk = rc.bulk;
		a.bulk_len = rc.h.bulk;
		ok = ok && meta_apply(s, &a, rc.meta, rc.h.meta, true);
		apply_run(&a);
		if (a.io)
			*io = a.io;
		rec_free(&rc);
		if (!ok || *io)
			return false;
		seq = rc.h.seq;
		memcpy(prev, rc.tag, STOR_TAG);
		off = align8(rc.end);
	}
	return true;
}

TEE_Result journal_load(struct store *s)
{
	struct jreader j = {.s = s};
	struct jhdr h[2];
	struct chain_end ree = {0};
	struct chain_end lg = {0};
	bool hok[2] = {false, false};
	bool log_too = false;
	uint8_t raw[HDR_LEN];
	uint8_t *log = NULL;
	struct fsb b;
	int pick = -1;
	int newer = 0;
	int r = rpmb_open(&s->rpmb, s->dir, s->keys);
	TEE_Result res = TEE_SUCCESS;
	TEE_Result io = TEE_SUCCESS;

	if (r == RPMB_BAD)
		return TEE_ERROR_CORRUPT_OBJECT;
	if (r == RPMB_IO)
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	j.buf = malloc(FS_READ_AREA_LEN);
	log = malloc(RPMB_LOG_SIZE);
	if (!j.buf || !log) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	fsb_init(&j.b, s->fs, s->dir);
	fsb_init(&b, s->fs, s->dir);
	snprintf(j.name, sizeof(j.name), "%s", JNAME);
	/* The two header slots. */
	for (int i = 0; i < 2 && !io; i++)
		if (jr_get(&j, (uint64_t)i * HDR_SLOT, raw, HDR_LEN, &io))
			hok[i] = hdr_decode(s, raw, &h[i]);
	if (io == TEE_ERROR_ITEM_NOT_FOUND) {
		/* No journal. Fine for a new store; otherwise it was deleted. */
		io = TEE_SUCCESS;
		if (r == RPMB_OK && s->rpmb.log_seq) {
			log_error("storage: the REE files of a TA store are gone");
			res = TEE_ERROR_CORRUPT_OBJECT;
			goto out;
		}
		res = store_init(s, r == RPMB_OK);
		goto out;
	}
	if (io)
		goto io_fail;
	if (r == RPMB_ABSENT) {
		log_error("storage: REE files of a TA store without its RPMB slot");
		res = TEE_ERROR_CORRUPT_OBJECT;
		goto out;
	}
	if (!s->rpmb.log_seq && !hok[0] && !hok[1]) {
		/* A new store whose first header never made it to disk. */
		res = store_init(s, true);
		goto out;
	}
	/* The RPMB log: trusted, and consistent with its head. */
	rpmb_log_read(&s->rpmb, log);
	log_walk(s, log, &lg);
	if (!log_consistent(s, &lg)) {
		log_error("storage: a TA store's RPMB log does not match its head");
		res = TEE_ERROR_CORRUPT_OBJECT;
		goto out;
	}
	io = direct_landed(s, log, &lg);
	if (io)
		goto io_fail;
	/*
	 * The newest header whose REE chain the anchor accepts: it ends at the
	 * anchor (the log then follows), or one past all we trust (a large
	 * commit or a checkpoint cut off before its anchor).
	 */
	newer = hok[1] && (!hok[0] || h[1].seq > h[0].seq) ? 1 : 0;
	for (int pass = 0; pass < 2 && pick < 0; pass++) {
		int i = pass ? 1 - newer : newer;

		if (!hok[i])
			continue;
		ree_walk(&j, &h[i], &ree, &io);
		if (io)
			goto io_fail;
		if (ree.seq == s->rpmb.seq && secure_equal(ree.tag, s->rpmb.tag, STOR_TAG)) {
			pick = i;
			log_too = true;
		} else if (ree.seq == lg.seq + 1 && secure_equal(ree.prev, lg.tag, STOR_TAG) &&
			   (!lg.n || ree.n == 0)) {
			pick = i;
		}
	}
	if (pick < 0) {
		log_error("storage: a TA store's journal does not reach its RPMB anchor "
			  "(rolled back or damaged)");
		res = TEE_ERROR_CORRUPT_OBJECT;
		goto out;
	}
	res = dir_load(s, &j, &h[pick]);
	if (res)
		goto out;
	s->hslot = pick;
	s->dir_seq = h[pick].dir_seq;
	/* Replay: the REE records, then the RPMB log's; their files again. */
	if (!ree_replay(s, &j, &h[pick], ree.seq, &b, &io) ||
	    (log_too && !log_replay(s, log, lg.seq, &b, &io))) {
		if (io)
			goto io_fail;
		res = TEE_ERROR_CORRUPT_OBJECT;
		goto out;
	}
	if (b.nops)
		io = fsb_run(&b);
	if (io)
		goto io_fail;
	s->jend = ree.end;
	s->jalloc = ree.end;
	if (log_too) {
		s->seq = lg.seq;
		memcpy(s->tag, lg.tag, STOR_TAG);
		/* The head moves to what the log really holds, on either side. */
		s->rpmb.log_seq = lg.seq;
		memcpy(s->rpmb.log_tag, lg.tag, STOR_TAG);
		s->rpmb.log_end = lg.end;
	} else {
		s->seq = ree.seq;
		memcpy(s->tag, ree.tag, STOR_TAG);
		if (rpmb_update(&s->rpmb, s->keys, ree.seq, ree.tag)) {
			res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
			goto out;
		}
	}
	s->since_ckpt = ree.n + (log_too ? lg.n : 0);
	if (ree.n || lg.n)
		log_debug("storage: replayed %llu journal and %llu RPMB log record(s)",
			  (unsigned long long)ree.n, (unsigned long long)lg.n);
	res = TEE_SUCCESS;
	goto out;
io_fail:
	res = io == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_CORRUPT_OBJECT : io;
out:
	free(j.buf);
	free(log);
	return res;
}
