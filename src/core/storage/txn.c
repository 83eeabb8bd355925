/*
 * Building a transaction: its bulk (in private memory while the record may
 * still go to the RPMB log, staged to the REE journal once it is large),
 * its operations, and the blocks written in place, sent ahead while the
 * rest is sealed. commit.c makes it durable (journal.h).
 */

#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "secure.h"

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

void txn_fail(struct txn *t, TEE_Result res)
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

void meta_writer(struct txn *t, struct buf_writer *w, size_t n)
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

void drun_queue(struct txn *t)
{
	if (!t->drun_len)
		return;
	fsb_write(&t->b, t->drun_name, t->drun_off, t->drun_len, t->drun_win);
	t->drun_len = 0;
}

TEE_Result settle_error(TEE_Result res)
{
	return res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res;
}

void txn_run(struct txn *t)
{
	drun_queue(t);
	if (t->b.nops)
		txn_fail(t, settle_error(fsb_run(&t->b)));
	t->direct_staged = 0;
	t->direct_sent = 0;
}

bool txn_send(struct txn *t)
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

void ree_flush(struct txn *t)
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

void go_ree(struct txn *t)
{
	struct store *s = t->s;

	if (t->ree || t->err)
		return;
	txn_run(t); /* what is staged in the window goes before the checkpoint uses it */
	if (!t->err && s->rpmb.log_end)
		txn_fail(t, checkpoint_write(s));
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

/* Notes file name as written in place, to sync before the record. False on a failure. */
static bool direct_note(struct txn *t, const char name[PROTO_FS_NAME_MAX + 1])
{
	size_t i = 0;
	void *q = NULL;

	if (t->ndirect && strcmp(t->direct[t->ndirect - 1], name) == 0)
		return true;
	for (i = 0; i < t->ndirect; i++)
		if (!strcmp(t->direct[i], name))
			return true;
	q = realloc(t->direct, (t->ndirect + 1) * sizeof(*t->direct));
	if (!q) {
		txn_fail(t, TEE_ERROR_OUT_OF_MEMORY);
		return false;
	}
	t->direct = q;
	memcpy(t->direct[t->ndirect++], name, PROTO_FS_NAME_MAX + 1);
	return true;
}

/* The len bytes at off in file name, from win: onto the run of writes, or a new run. */
static void drun_add(struct txn *t, const char name[PROTO_FS_NAME_MAX + 1], uint64_t off,
		     uint32_t win, size_t len)
{
	if (t->drun_len && !strcmp(t->drun_name, name) && off == t->drun_off + t->drun_len &&
	    win == t->drun_win + t->drun_len) {
		t->drun_len += (uint32_t)len;
		return;
	}
	drun_queue(t);
	memcpy(t->drun_name, name, PROTO_FS_NAME_MAX + 1);
	t->drun_off = off;
	t->drun_win = win;
	t->drun_len = (uint32_t)len;
}

/*
 * Every DIRECT_PIPE bytes, what is sealed goes out without waiting, and
 * the supplicant starts writing it back: the disk works while the rest
 * is sealed. The fdatasync before the record waits for it all.
 * False on a failure.
 */
static bool direct_pipe(struct txn *t, size_t len, size_t left)
{
	uint32_t unsent = t->direct_staged - t->direct_sent - (uint32_t)len;
	uint32_t done_len = 0;

	if (unsent < DIRECT_PIPE &&
	    !(unsent >= DIRECT_TAIL && left < DIRECT_TAIL && left + len >= DIRECT_TAIL))
		return true;
	/* The pieces before this one; this one is still to be filled. */
	done_len = t->drun_len - (uint32_t)len;
	if (done_len) {
		fsb_write(&t->b, t->drun_name, t->drun_off, done_len, t->drun_win);
		fsb_writeout(&t->b, t->drun_name, t->drun_off, done_len);
		t->drun_off += done_len;
		t->drun_win += done_len;
		t->drun_len = (uint32_t)len;
	}
	if (fsb_send(&t->b, NULL)) {
		txn_fail(t, TEE_ERROR_STORAGE_NOT_AVAILABLE);
		return false;
	}
	t->direct_sent = t->direct_staged - (uint32_t)len;
	return true;
}

uint8_t *txn_direct_buf(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t off,
			size_t len, size_t left, bool new_file)
{
	char name[PROTO_FS_NAME_MAX + 1];
	/* All of the write area, unless REE bulk is staged in its first half. */
	uint32_t start = t->ree ? DIRECT_REGION : FS_WRITE_AREA;
	uint32_t room = t->ree ? DIRECT_ROOM : FS_WRITE_AREA_LEN;
	uint32_t win = 0;

	if (t->err || len > STOR_BLOCK)
		return NULL;
	entry_file(fid, kind, name);
	if (!direct_note(t, name))
		return NULL;
	t->direct_new |= new_file;
	if (t->direct_staged + len > room || !fsb_room(&t->b, 3, OP_BYTES)) {
		txn_run(t);
		if (t->err)
			return NULL;
	}
	win = start + t->direct_staged;
	drun_add(t, name, off, win, len);
	t->direct_staged += (uint32_t)len;
	if (!direct_pipe(t, len, left))
		return NULL;
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

void dv_meta(struct txn *t)
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
