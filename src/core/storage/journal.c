/*
 * The journal of a store: the write-ahead log that makes every change of a
 * TA's storage atomic and durable with one fdatasync, and the recovery that
 * replays it. Layout of the journal file "j" (docs/storage.md):
 *
 *   0, 4096   two header slots; the valid one with the higher sequence
 *             number is the last checkpoint: its directory snapshot
 *             d<seq> (name, length, SHA-256) and the chain tag before it
 *   8192...   records, one per transaction, each
 *               head: magic version seq prev_tag bulk_len meta_len iv
 *               bulk: sealed block and map page images, attribute blobs
 *               meta: the operations, AES-GCM sealed under the TA's journal
 *                     key with bulk || head as additional data
 *               tag:  the record's GCM tag, which is also its chain tag
 *
 * A record is valid when its tag verifies, its seq follows and its prev_tag
 * is the tag before it. The RPMB slot anchors (seq, tag) of the last one.
 *
 * Commit order, in one batch to the supplicant: files written in place for
 * the transaction (new blocks nobody refers to yet) and their fdatasync,
 * the record, fdatasync of the journal; then the record's file operations
 * (copies of images to their files, truncations, removals) without sync;
 * then, in the core, the RPMB update. A checkpoint makes the files durable,
 * writes a directory snapshot and the other header slot, and starts the
 * record area again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "secure.h"
#include "storage.h"
#include <time.h>
static double prof_now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
double prof[8]; unsigned long prof_n;

#define JNAME "j"
#define J_MAGIC_HDR 0x484a5753u	 /* "SWJH" */
#define J_MAGIC_REC 0x524a5753u	 /* "SWJR" */
#define J_MAGIC_DIR 0x444a5753u	 /* "SWJD" */
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
/* The write area: records staged first, files written in place after. */
#define BULK_REGION (FS_WRITE_AREA_LEN / 2)
#define BULK_ROOM (BULK_REGION - RHDR_LEN)
#define DIRECT_REGION (FS_WRITE_AREA + BULK_REGION)
#define DIRECT_ROOM (FS_WRITE_AREA_LEN - BULK_REGION)
#define OP_BYTES (4 + 1 + PROTO_FS_NAME_MAX + 8 + 4 + 1 + PROTO_FS_NAME_MAX + 8)

struct txn_direct {
	char name[PROTO_FS_NAME_MAX + 1];
};

static uint8_t *wa(struct store *s, uint32_t off)
{
	return s->fs->win + off;
}

static void file_name(const uint8_t fid[STOR_FID], uint8_t kind, char out[PROTO_FS_NAME_MAX + 1])
{
	entry_file(fid, (char)kind, out);
}

static void dir_file(uint64_t seq, char out[PROTO_FS_NAME_MAX + 1])
{
	snprintf(out, PROTO_FS_NAME_MAX + 1, "d%016llx", (unsigned long long)seq);
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
			/* Without the list, the next checkpoint syncs every file it can name. */
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

static void hdr_encode(struct store *s, uint8_t out[HDR_LEN], uint64_t seq,
		       const uint8_t prev[STOR_TAG], uint64_t dir_seq, uint64_t dir_len,
		       const uint8_t dir_hash[STOR_HASH])
{
	struct buf_writer w;
	EVP_CIPHER_CTX *ctx = crypt_ctx_new(s->keys->journal);

	buf_writer_init(&w, out, HDR_LEN);
	buf_put_u32(&w, J_MAGIC_HDR);
	buf_put_u32(&w, J_VERSION);
	buf_put_u64(&w, seq);
	buf_put_bytes(&w, prev, STOR_TAG);
	buf_put_u64(&w, dir_seq);
	buf_put_u64(&w, dir_len);
	buf_put_bytes(&w, dir_hash, STOR_HASH);
	crypt_random(out + HDR_BODY, STOR_IV);
	if (!ctx || crypt_seal(ctx, out + HDR_BODY, out, HDR_BODY, NULL, NULL, 0,
			       out + HDR_BODY + STOR_IV))
		memset(out + HDR_BODY + STOR_IV, 0, STOR_TAG); /* will not verify */
	EVP_CIPHER_CTX_free(ctx);
}

struct jhdr {
	uint64_t seq;
	uint8_t prev[STOR_TAG];
	uint64_t dir_seq;
	uint64_t dir_len;
	uint8_t dir_hash[STOR_HASH];
	uint8_t tag[STOR_TAG];
};

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
	return buf_done(&r) && magic == J_MAGIC_HDR && version == J_VERSION && h->seq &&
	       h->dir_len <= (uint64_t)STOR_OBJECTS_MAX * ENTRY_BYTES + DHDR_LEN + STOR_TAG;
}

/* ---- transactions ---- */

void txn_begin(struct txn *t, struct store *s)
{
	memset(t, 0, sizeof(*t));
	t->s = s;
	t->rec = s->jend;
	fsb_init(&t->b, s->fs, s->dir);
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
	meta_need(t, n);
	if (t->err) {
		static uint8_t sink[1];

		buf_writer_init(w, sink, 0);
		w->failed = true;
		return;
	}
	buf_writer_init(w, t->meta + t->meta_len, n);
	t->meta_len += n;
}

/* Runs what is queued in t->b; a failure here leaves no committed trace. */
static void txn_run(struct txn *t)
{
	TEE_Result res = TEE_SUCCESS;

	if (!t->b.nops)
		return;
	res = fsb_run(&t->b);
	if (res)
		txn_fail(t, res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res);
	t->direct_staged = 0;
}

static void bulk_flush(struct txn *t)
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
	t->flushed = true;
}

uint64_t txn_bulk(struct txn *t, const void *p, size_t len)
{
	uint64_t at = t->rec + RHDR_LEN + t->bulk;
	const uint8_t *src = p;
	int outl = 0;

	if (t->bulk + len > BULK_MAX)
		txn_fail(t, TEE_ERROR_STORAGE_NO_SPACE);
	while (len && !t->err) {
		size_t n = BULK_ROOM - t->staged;

		if (!n) {
			bulk_flush(t);
			continue;
		}
		if (n > len)
			n = len;
		memcpy(wa(t->s, FS_WRITE_AREA + RHDR_LEN + t->staged), src, n);
		if (!EVP_CipherUpdate(t->gcm, NULL, &outl, src, (int)n))
			txn_fail(t, TEE_ERROR_GENERIC);
		t->staged += (uint32_t)n;
		t->bulk += n;
		src += n;
		len -= n;
	}
	return at;
}

void txn_image(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t off,
	       const void *p, size_t len)
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

void txn_direct(struct txn *t, const uint8_t fid[STOR_FID], char kind, uint64_t off,
		const void *p, size_t len, bool new_file)
{
	char name[PROTO_FS_NAME_MAX + 1];
	const uint8_t *src = p;
	size_t i = 0;

	entry_file(fid, kind, name);
	for (i = 0; i < t->ndirect; i++)
		if (!strcmp(t->direct[i], name))
			break;
	if (i == t->ndirect) {
		void *q = realloc(t->direct, (t->ndirect + 1) * sizeof(*t->direct));

		if (!q) {
			txn_fail(t, TEE_ERROR_OUT_OF_MEMORY);
			return;
		}
		t->direct = q;
		memcpy(t->direct[t->ndirect++], name, sizeof(name));
	}
	t->direct_new |= new_file;
	while (len && !t->err) {
		size_t n = DIRECT_ROOM - t->direct_staged;

		if (!n || !fsb_room(&t->b, 2, OP_BYTES)) {
			txn_run(t);
			continue;
		}
		if (n > len)
			n = len;
		memcpy(wa(t->s, DIRECT_REGION + t->direct_staged), src, n);
		fsb_write(&t->b, name, off, (uint32_t)n, DIRECT_REGION + t->direct_staged);
		t->direct_staged += (uint32_t)n;
		src += n;
		off += n;
		len -= n;
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

void txn_abort(struct txn *t)
{
	map_txn_free(t);
	EVP_CIPHER_CTX_free(t->gcm);
	if (t->meta)
		secure_wipe(t->meta, t->meta_cap); /* entries carry FEKs */
	free(t->meta);
	free(t->direct);
	memset(t, 0, sizeof(*t));
}

/* ---- applying meta operations ---- */

static const char kinds[] = { 0, '1', '2', '3', 'a' };

static bool kind_ok(uint8_t k)
{
	for (size_t i = 0; i < sizeof(kinds); i++)
		if (k == (uint8_t)kinds[i])
			return true;
	return false;
}

/*
 * Queues the file operations of meta on b (running it when full; the first
 * run must already include what makes the record durable). With mem, also
 * applies the directory and time operations to the store in memory.
 * Returns false when meta is malformed.
 */
static bool meta_apply(struct store *s, struct fsb *b, const uint8_t *meta, size_t len, bool mem,
		       TEE_Result *io)
{
	struct buf_reader r;

	buf_reader_init(&r, meta, len);
	while (buf_left(&r)) {
		char name[PROTO_FS_NAME_MAX + 1];
		char from[PROTO_FS_NAME_MAX + 1];
		uint8_t fid[STOR_FID];
		uint8_t op = 0;
		uint8_t kind = 0;
		uint64_t a = 0;
		uint64_t off = 0;
		uint32_t n = 0;

		if (b && !fsb_room(b, sizeof(kinds), OP_BYTES) && !*io)
			*io = fsb_run(b);
		buf_get_u8(&r, &op);
		switch (op) {
		case META_PUT: {
			struct stor_entry *tmp = entry_new();
			struct stor_entry *e = NULL;

			if (!tmp)
				return false;
			if (!entry_get(&r, tmp)) {
				entry_free(tmp);
				return false;
			}
			e = mem ? dir_find_fid(s, tmp->fid) : NULL;
			if (mem && e) {
				uint8_t old_ns = e->ns;
				uint8_t old_len = e->id_len;
				uint8_t old_id[PROTO_STOR_ID_MAX];

				memcpy(old_id, e->id, old_len);
				e->ns = tmp->ns;
				e->flags = tmp->flags;
				e->id_len = tmp->id_len;
				memcpy(e->id, tmp->id, tmp->id_len);
				memcpy(e->fek, tmp->fek, STOR_KEY);
				e->size = tmp->size;
				memcpy(e->root, tmp->root, STOR_HASH);
				e->type = tmp->type;
				e->obj_size = tmp->obj_size;
				e->max_size = tmp->max_size;
				e->usage = tmp->usage;
				e->attr_len = tmp->attr_len;
				memcpy(e->attr_iv, tmp->attr_iv, STOR_IV);
				memcpy(e->attr_tag, tmp->attr_tag, STOR_TAG);
				dir_rehash(s, e, old_ns, old_id, old_len);
				entry_free(tmp);
			} else if (mem) {
				struct stor_entry *clash = dir_find(s, tmp->ns, tmp->id, tmp->id_len);

				if (clash || dir_insert(s, tmp)) {
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
			buf_get_bytes(&r, fid, STOR_FID);
			if (!buf_ok(&r))
				return false;
			if (op == META_DEL && mem) {
				struct stor_entry *e = dir_find_fid(s, fid);

				if (!e || e->open)
					return false;
				map_cache_drop(s, fid);
				dir_remove(s, e);
			}
			if (op == META_REMOVE && b) {
				for (size_t i = 0; i < sizeof(kinds); i++) {
					file_name(fid, (uint8_t)kinds[i], name);
					fsb_remove(b, name);
				}
			}
			break;
		case META_COPY:
			buf_get_u64(&r, &a);
			buf_get_u32(&r, &n);
			buf_get_bytes(&r, fid, STOR_FID);
			buf_get_u8(&r, &kind);
			buf_get_u64(&r, &off);
			if (!buf_ok(&r) || !kind_ok(kind) || a < RECORDS_START ||
			    off > STOR_MAX_SIZE + STOR_BLOCK)
				return false;
			if (b) {
				snprintf(from, sizeof(from), "%s", JNAME);
				file_name(fid, kind, name);
				fsb_copy(b, from, a, n, name, off);
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
			if (b) {
				file_name(fid, kind, name);
				fsb_truncate(b, name, off);
			}
			if (mem)
				dirty_add(s, fid, kind);
			break;
		case META_TIME:
			buf_get_u64(&r, &a);
			buf_get_u64(&r, &off);
			if (!buf_ok(&r))
				return false;
			if (mem) {
				s->time_set = true;
				s->time_offset_ms = (int64_t)a;
				s->time_ree_ms = off;
			}
			break;
		default:
			return false;
		}
	}
	return buf_done(&r);
}

/* How many file operations meta asks for (an upper bound for a malformed one). */
static uint32_t meta_file_ops(const uint8_t *meta, size_t len)
{
	struct buf_reader r;
	uint32_t n = 0;

	buf_reader_init(&r, meta, len);
	while (buf_left(&r)) {
		uint8_t op = 0;

		buf_get_u8(&r, &op);
		switch (op) {
		case META_PUT:
			buf_skip(&r, ENTRY_BYTES);
			break;
		case META_DEL:
			buf_skip(&r, STOR_FID);
			break;
		case META_REMOVE:
			buf_skip(&r, STOR_FID);
			n += sizeof(kinds);
			break;
		case META_COPY:
			buf_skip(&r, 8 + 4 + STOR_FID + 1 + 8);
			n++;
			break;
		case META_TRUNCATE:
			buf_skip(&r, STOR_FID + 1 + 8);
			n++;
			break;
		case META_TIME:
			buf_skip(&r, 16);
			break;
		default:
			return PROTO_FS_OPS_MAX + 1;
		}
	}
	return buf_ok(&r) ? n : PROTO_FS_OPS_MAX + 1;
}

/* ---- commit ---- */

static void rhdr_encode(uint8_t out[RHDR_LEN], uint64_t seq, const uint8_t prev[STOR_TAG],
			uint64_t bulk, uint32_t meta, const uint8_t iv[STOR_IV])
{
	struct buf_writer w;

	buf_writer_init(&w, out, RHDR_LEN);
	buf_put_u32(&w, J_MAGIC_REC);
	buf_put_u32(&w, J_VERSION);
	buf_put_u64(&w, seq);
	buf_put_bytes(&w, prev, STOR_TAG);
	buf_put_u64(&w, bulk);
	buf_put_u32(&w, meta);
	buf_put_bytes(&w, iv, STOR_IV);
}

static TEE_Result checkpoint(struct store *s);

/* Seals meta into out (len bytes) and the tag after it. */
static bool seal_meta(struct txn *t, const uint8_t head[RHDR_LEN], uint8_t *out)
{
	int outl = 0;

	return EVP_CipherUpdate(t->gcm, NULL, &outl, head, RHDR_LEN) &&
	       (!t->meta_len ||
		EVP_CipherUpdate(t->gcm, out, &outl, t->meta, (int)t->meta_len)) &&
	       EVP_CipherFinal_ex(t->gcm, out + t->meta_len, &outl) == 1 &&
	       EVP_CIPHER_CTX_ctrl(t->gcm, EVP_CTRL_GCM_GET_TAG, STOR_TAG, out + t->meta_len);
}

TEE_Result txn_commit(struct txn *t)
{
	struct store *s = t->s;
	uint8_t head[RHDR_LEN];
	uint8_t tag[STOR_TAG];
	uint8_t *sealed = NULL;
	uint64_t seq = s->seq + 1;
	uint64_t total = 0;
	uint64_t end = 0;
	uint64_t alloc = s->jalloc;
	uint32_t rec_write = 0;
	bool rec_ran = false;
	TEE_Result res = TEE_SUCCESS;
	TEE_Result io = TEE_SUCCESS;

	if (t->err) {
		res = t->err;
		goto out;
	}
	if (!t->meta_len && !t->bulk)
		goto out; /* nothing changed */
	total = RHDR_LEN + t->bulk + t->meta_len + STOR_TAG;
	end = t->rec + total;
	rhdr_encode(head, seq, s->tag, t->bulk, (uint32_t)t->meta_len, t->iv);
	sealed = malloc(t->meta_len + STOR_TAG);
	if (!sealed || !seal_meta(t, head, sealed)) {
		res = sealed ? TEE_ERROR_GENERIC : TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	memcpy(tag, sealed + t->meta_len, STOR_TAG);
	/* Files written in place must be durable before the record may be. */
	for (size_t i = 0; i < t->ndirect; i++) {
		if (!fsb_room(&t->b, 2, OP_BYTES))
			txn_run(t);
		fsb_sync(&t->b, t->direct[i]);
	}
	if (t->direct_new)
		fsb_syncdir(&t->b);
	if (end > alloc) {
		/* Zeros past the record, so that the next ones overwrite, not append. */
		uint64_t grow = (end + JOURNAL_STEP - 1) / JOURNAL_STEP * JOURNAL_STEP;

		if (!fsb_room(&t->b, 1, OP_BYTES))
			txn_run(t);
		if (grow > end)
			fsb_zero(&t->b, JNAME, end, (uint32_t)(grow - end));
		alloc = grow;
	}
	if (!t->flushed && t->staged + t->meta_len + STOR_TAG <= BULK_ROOM) {
		/* The common case: the whole record in one write. */
		memcpy(wa(s, FS_WRITE_AREA), head, RHDR_LEN);
		memcpy(wa(s, FS_WRITE_AREA + RHDR_LEN + t->staged), sealed,
		       t->meta_len + STOR_TAG);
		if (!fsb_room(&t->b, 4, OP_BYTES))
			txn_run(t);
		rec_write = fsb_write(&t->b, JNAME, t->rec, (uint32_t)total, FS_WRITE_AREA);
	} else {
		size_t done = 0;
		size_t left = t->meta_len + STOR_TAG;

		bulk_flush(t);
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
		if (!fsb_room(&t->b, 4, OP_BYTES))
			txn_run(t);
		rec_write = fsb_write(&t->b, JNAME, t->rec, RHDR_LEN, FS_WRITE_AREA);
	}
	if (t->err) {
		res = t->err;
		goto out;
	}
	fsb_sync(&t->b, JNAME);
	/*
	 * From the record's write on it may be durable: a failure after it
	 * breaks the store. Its file operations go in the same batch when they
	 * fit, after the sync.
	 */
	if (!fsb_room(&t->b, meta_file_ops(t->meta, t->meta_len), OP_BYTES)) {
		res = fsb_run(&t->b);
		rec_ran = true;
		if (res)
			goto failed;
	}
	if (!meta_apply(s, &t->b, t->meta, t->meta_len, false, &io)) {
		res = TEE_ERROR_GENERIC;
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a transaction is malformed");
		goto out;
	}
	if (io) {
		res = io;
		rec_ran = true;
		goto failed;
	}
	{ double a = prof_now();
	res = fsb_run(&t->b);
	prof[1] += prof_now() - a; }
	if (res)
		goto failed;
	{ double a = prof_now(); int rr = rpmb_update(&s->rpmb, s->keys, seq, tag); prof[2] += prof_now() - a; prof_n++;
	if (rr) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "the RPMB slot cannot be written");
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		goto out;
	} }
	/* Durable and anchored: now the store in memory follows. */
	s->seq = seq;
	memcpy(s->tag, tag, STOR_TAG);
	s->jend = (end + 7) & ~7ull;
	s->jalloc = alloc > s->jend ? alloc : s->jend;
	if (!meta_apply(s, NULL, t->meta, t->meta_len, true, &io))
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "the directory cannot follow");
	map_txn_install(t);
	s->txn_count++;
	if (!s->broken && (s->jend - RECORDS_START > JOURNAL_SOFT || s->dirty.n > DIRTY_MAX))
		checkpoint(s);
	res = TEE_SUCCESS;
	goto out;
failed:
	if (!rec_ran && t->b.failed <= rec_write) {
		/* Nothing of the record can count: the transaction did not happen. */
		if (res == TEE_ERROR_ITEM_NOT_FOUND)
			res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	} else {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a commit did not finish");
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
out:
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
	struct dir_out d = { .s = s };
	uint8_t head[DHDR_LEN];
	uint8_t iv[STOR_IV];
	uint8_t tag[STOR_TAG];
	uint8_t ent[ENTRY_BYTES];
	struct buf_writer w;
	unsigned int hl = 0;
	int outl = 0;

	dir_file(seq, d.name);
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

static TEE_Result checkpoint(struct store *s)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t hdr[HDR_LEN];
	uint8_t hash[STOR_HASH];
	uint8_t tag[STOR_TAG];
	uint64_t seq = s->seq + 1;
	uint64_t len = 0;
	uint64_t old_dir = s->dir_seq;
	struct fsb b;
	TEE_Result res = TEE_SUCCESS;
	int slot = 1 - s->hslot;

	/* 1. What the records since the last checkpoint changed in place. */
	fsb_init(&b, s->fs, s->dir);
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
		res = dir_snapshot(s, seq, &len, hash);
	if (res) {
		log_error("storage: a checkpoint failed (0x%08x); the journal keeps growing", res);
		return res;
	}
	/* 3. The other header slot: from its write on, the checkpoint may count. */
	hdr_encode(s, hdr, seq, s->tag, seq, len, hash);
	memcpy(tag, hdr + HDR_BODY + STOR_IV, STOR_TAG);
	memcpy(wa(s, FS_WRITE_AREA), hdr, HDR_LEN);
	fsb_write(&b, JNAME, (uint64_t)slot * HDR_SLOT, HDR_LEN, FS_WRITE_AREA);
	fsb_sync(&b, JNAME);
	res = fsb_run(&b);
	if (res || rpmb_update(&s->rpmb, s->keys, seq, tag)) {
		store_break(s, TEE_ERROR_STORAGE_NOT_AVAILABLE, "a checkpoint did not finish");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	s->seq = seq;
	memcpy(s->tag, tag, STOR_TAG);
	s->hslot = slot;
	s->jend = RECORDS_START;
	s->dir_seq = seq;
	s->dirty.n = 0;
	/* 4. Tidying: nothing refers to these any more. */
	if (old_dir) {
		dir_file(old_dir, name);
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

/* ---- recovery ---- */

/* Sequential reads of the journal into private memory. */
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

struct rec_info {
	uint64_t seq;
	uint64_t end;
	uint8_t tag[STOR_TAG];
	uint8_t prev[STOR_TAG];
	uint8_t *meta; /* with want_meta */
	uint32_t meta_len;
};

/* Reads and checks the record at off; false when there is no valid one. */
static bool rec_read(struct jreader *j, uint64_t off, uint64_t seq, const uint8_t prev[STOR_TAG],
		     bool want_meta, struct rec_info *ri, TEE_Result *io)
{
	uint8_t head[RHDR_LEN];
	uint8_t tag[STOR_TAG];
	uint8_t *chunk = NULL;
	uint8_t *ct = NULL;
	uint8_t *pt = NULL;
	struct buf_reader r;
	uint32_t magic = 0;
	uint32_t version = 0;
	uint64_t rseq = 0;
	uint64_t bulk = 0;
	uint32_t meta = 0;
	uint8_t rprev[STOR_TAG];
	uint8_t iv[STOR_IV];
	EVP_CIPHER_CTX *gcm = NULL;
	bool ok = false;
	int outl = 0;

	if (!jr_get(j, off, head, sizeof(head), io))
		return false;
	buf_reader_init(&r, head, sizeof(head));
	buf_get_u32(&r, &magic);
	buf_get_u32(&r, &version);
	buf_get_u64(&r, &rseq);
	buf_get_bytes(&r, rprev, STOR_TAG);
	buf_get_u64(&r, &bulk);
	buf_get_u32(&r, &meta);
	buf_get_bytes(&r, iv, STOR_IV);
	if (!buf_done(&r) || magic != J_MAGIC_REC || version != J_VERSION || rseq != seq ||
	    !secure_equal(rprev, prev, STOR_TAG) || bulk > BULK_MAX || meta > META_MAX)
		return false;
	chunk = malloc(FS_READ_AREA_LEN);
	ct = malloc((size_t)meta + 1);
	pt = malloc((size_t)meta + 1);
	gcm = crypt_ctx_new(j->s->keys->journal);
	if (!chunk || !ct || !pt || !gcm || !EVP_CipherInit_ex(gcm, NULL, NULL, NULL, iv, 0))
		goto out;
	for (uint64_t done = 0; done < bulk;) {
		size_t n = bulk - done < FS_READ_AREA_LEN ? (size_t)(bulk - done) : FS_READ_AREA_LEN;

		if (!jr_get(j, off + RHDR_LEN + done, chunk, n, io) ||
		    !EVP_CipherUpdate(gcm, NULL, &outl, chunk, (int)n))
			goto out;
		done += n;
	}
	if (!EVP_CipherUpdate(gcm, NULL, &outl, head, RHDR_LEN) ||
	    !jr_get(j, off + RHDR_LEN + bulk, ct, meta, io) ||
	    !jr_get(j, off + RHDR_LEN + bulk + meta, tag, STOR_TAG, io) ||
	    (meta && !EVP_CipherUpdate(gcm, pt, &outl, ct, (int)meta)) ||
	    !EVP_CIPHER_CTX_ctrl(gcm, EVP_CTRL_GCM_SET_TAG, STOR_TAG, tag) ||
	    EVP_CipherFinal_ex(gcm, pt + meta, &outl) != 1)
		goto out;
	ri->seq = rseq;
	ri->end = off + RHDR_LEN + bulk + meta + STOR_TAG;
	memcpy(ri->tag, tag, STOR_TAG);
	memcpy(ri->prev, rprev, STOR_TAG);
	ri->meta_len = meta;
	if (want_meta) {
		ri->meta = pt;
		pt = NULL; /* transferred */
	}
	ok = true;
out:
	EVP_CIPHER_CTX_free(gcm);
	free(chunk);
	free(ct);
	if (pt) {
		secure_wipe(pt, (size_t)meta + 1);
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
	int outl = 0;

	if (!h->dir_len)
		return TEE_SUCCESS; /* an empty store */
	dir_file(h->dir_seq, j->name);
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
	    !EVP_CipherUpdate(gcm, NULL, &outl, head, DHDR_LEN) ||
	    (body && !EVP_CipherUpdate(gcm, pt, &outl, ct, (int)body)) ||
	    !EVP_CIPHER_CTX_ctrl(gcm, EVP_CTRL_GCM_SET_TAG, STOR_TAG, tag) ||
	    EVP_CipherFinal_ex(gcm, pt + body, &outl) != 1)
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
	static const uint8_t zero[STOR_HASH];
	uint8_t hdr[HDR_LEN];
	struct fsb b;
	TEE_Result res = TEE_SUCCESS;

	if (!have_slot && rpmb_create(&s->rpmb, s->dir, s->keys)) {
		log_error("storage: cannot create an RPMB slot");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	fsb_init(&b, s->fs, s->dir);
	hdr_encode(s, hdr, 1, zero, 0, 0, zero);
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

/*
 * Follows the chain from header h: how far it goes, and whether the RPMB
 * slot accepts where it ends (at the anchor, or one past it when the last
 * commit stopped between its journal sync and its RPMB update).
 */
static bool chain_walk(struct store *s, struct jreader *j, const struct jhdr *h, uint64_t *k,
		       uint8_t tag[STOR_TAG], uint64_t *end, TEE_Result *io)
{
	struct rec_info ri;
	uint8_t prev[STOR_TAG];
	uint64_t off = RECORDS_START;
	bool accept = false;

	*k = h->seq;
	memcpy(tag, h->tag, STOR_TAG);
	memcpy(prev, h->prev, STOR_TAG);
	*end = RECORDS_START;
	for (;;) {
		if (*k == s->rpmb.seq && secure_equal(tag, s->rpmb.tag, STOR_TAG))
			accept = true;
		else if (*k == s->rpmb.seq + 1 && secure_equal(prev, s->rpmb.tag, STOR_TAG))
			accept = true;
		else
			accept = false;
		if (*k > s->rpmb.seq)
			break; /* one past the anchor at most */
		memset(&ri, 0, sizeof(ri));
		if (!rec_read(j, off, *k + 1, tag, false, &ri, io))
			break;
		memcpy(prev, tag, STOR_TAG);
		*k = ri.seq;
		memcpy(tag, ri.tag, STOR_TAG);
		off = (ri.end + 7) & ~7ull;
		*end = off;
	}
	return accept && !*io;
}

TEE_Result journal_load(struct store *s)
{
	struct jreader j = { .s = s };
	struct jhdr h[2];
	bool hok[2] = { false, false };
	uint8_t raw[HDR_LEN];
	uint8_t tag[STOR_TAG];
	uint64_t k = 0;
	uint64_t end = 0;
	uint64_t replayed = 0;
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
	if (!j.buf)
		return TEE_ERROR_OUT_OF_MEMORY;
	fsb_init(&j.b, s->fs, s->dir);
	snprintf(j.name, sizeof(j.name), "%s", JNAME);
	/* The two header slots. */
	for (int i = 0; i < 2; i++) {
		if (jr_get(&j, (uint64_t)i * HDR_SLOT, raw, HDR_LEN, &io))
			hok[i] = hdr_decode(s, raw, &h[i]);
		if (io == TEE_ERROR_ITEM_NOT_FOUND)
			break;
		if (io)
			goto io_fail;
	}
	if (io == TEE_ERROR_ITEM_NOT_FOUND) {
		/* No journal. Fine for a new store; otherwise it was deleted. */
		io = TEE_SUCCESS;
		if (r == RPMB_OK && s->rpmb.seq) {
			log_error("storage: the REE files of a TA store are gone");
			res = TEE_ERROR_CORRUPT_OBJECT;
			goto out;
		}
		res = store_init(s, r == RPMB_OK);
		goto out;
	}
	if (r == RPMB_ABSENT) {
		log_error("storage: REE files of a TA store without its RPMB slot");
		res = TEE_ERROR_CORRUPT_OBJECT;
		goto out;
	}
	/* The newest header whose chain the RPMB slot accepts. */
	if (r == RPMB_OK && !s->rpmb.seq && !hok[0] && !hok[1]) {
		/* A new store whose first header never made it to disk. */
		res = store_init(s, true);
		goto out;
	}
	newer = hok[1] && (!hok[0] || h[1].seq > h[0].seq) ? 1 : 0;
	for (int pass = 0; pass < 2 && pick < 0; pass++) {
		int i = pass ? 1 - newer : newer;

		if (!hok[i])
			continue;
		if (chain_walk(s, &j, &h[i], &k, tag, &end, &io))
			pick = i;
		if (io)
			goto io_fail;
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
	/* Replay the records: the directory in memory, their files again. */
	{
		uint8_t prev[STOR_TAG];
		uint64_t off = RECORDS_START;
		uint64_t seq = h[pick].seq;
		struct fsb b;

		fsb_init(&b, s->fs, s->dir);
		memcpy(prev, h[pick].tag, STOR_TAG);
		while (seq < k) {
			struct rec_info ri = { 0 };
			bool ok = rec_read(&j, off, seq + 1, prev, true, &ri, &io);

			if (ok)
				ok = meta_apply(s, &b, ri.meta, ri.meta_len, true, &io);
			if (ri.meta) {
				secure_wipe(ri.meta, ri.meta_len);
				free(ri.meta);
			}
			if (io)
				goto io_fail;
			if (!ok) {
				res = TEE_ERROR_CORRUPT_OBJECT;
				goto out;
			}
			seq = ri.seq;
			memcpy(prev, ri.tag, STOR_TAG);
			off = (ri.end + 7) & ~7ull;
			replayed++;
		}
		if (b.nops)
			io = fsb_run(&b);
		if (io)
			goto io_fail;
	}
	s->seq = k;
	memcpy(s->tag, tag, STOR_TAG);
	s->jend = end;
	s->jalloc = end;
	if (k == s->rpmb.seq + 1 && rpmb_update(&s->rpmb, s->keys, k, tag)) {
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		goto out;
	}
	if (replayed)
		log_debug("storage: replayed %llu journal record(s)", (unsigned long long)replayed);
	res = TEE_SUCCESS;
	goto out;
io_fail:
	res = io == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_CORRUPT_OBJECT : io;
out:
	free(j.buf);
	return res;
}
