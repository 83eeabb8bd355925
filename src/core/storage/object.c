/*
 * Object data. Block b of an object is its bytes [4096 b, 4096 b + 4096),
 * the last one shorter, sealed with AES-256-GCM under the object's FEK with
 * a fresh random IV at every write and (file id, b) as additional data, and
 * stored as ciphertext alone at 4096 b of the object's data file <fid>: the
 * IV and tag live in the map (map.c). A block of zeros that was never
 * written is a hole: nothing stored.
 *
 * Reads go through a read-ahead of STOR_RA_BLOCKS blocks per open object,
 * or straight into the caller's (private) buffer for long aligned reads;
 * nothing is released before its tag verified. Writes seal the blocks they
 * touch (merging with the old plaintext of a block they cover in part) and
 * hand them to the transaction: as journal images, or, for at least
 * DIRECT_MIN bytes of blocks no committed state refers to, written in place
 * and synced before the record (journal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "secure.h"
#include "storage.h"

#define DIRECT_MIN (64u * 1024)
#define RUN_MAX (256u * 1024)
#define BIG_READ_BLOCKS (FS_READ_AREA_LEN / STOR_BLOCK)

static uint32_t block_len(uint64_t size, uint64_t b)
{
	uint64_t start = b * STOR_BLOCK;

	if (start >= size)
		return 0;
	return size - start < STOR_BLOCK ? (uint32_t)(size - start) : STOR_BLOCK;
}

static void block_aad(const uint8_t fid[STOR_FID], uint64_t b, uint8_t aad[STOR_FID + 8])
{
	struct buf_writer w;

	buf_writer_init(&w, aad, STOR_FID + 8);
	buf_put_bytes(&w, fid, STOR_FID);
	buf_put_u64(&w, b);
}

TEE_Result obj_open(struct stor_entry *e)
{
	struct stor_open *o = NULL;

	if (e->open)
		return TEE_SUCCESS;
	o = calloc(1, sizeof(*o));
	if (!o)
		return TEE_ERROR_OUT_OF_MEMORY;
	o->ctx = crypt_ctx_new(e->fek);
	o->ra = malloc((size_t)STOR_RA_BLOCKS * STOR_BLOCK);
	o->pend = malloc(STOR_BLOCK);
	if (!o->ctx || !o->ra || !o->pend) {
		EVP_CIPHER_CTX_free(o->ctx);
		free(o->ra);
		free(o->pend);
		free(o);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	e->open = o;
	return TEE_SUCCESS;
}

void obj_close(struct stor_entry *e)
{
	struct stor_open *o = e ? e->open : NULL;

	if (!o)
		return;
	EVP_CIPHER_CTX_free(o->ctx);
	secure_wipe(o->ra, (size_t)STOR_RA_BLOCKS * STOR_BLOCK);
	free(o->ra);
	secure_wipe(o->pend, STOR_BLOCK);
	free(o->pend);
	free(o->hflags);
	free(o);
	e->open = NULL;
}

void obj_invalidate(struct stor_entry *e)
{
	if (e && e->open) {
		e->open->ra_n = 0;
		e->open->pend_set = false;
		e->open->pend_blocks = 0;
	}
}

void obj_committed(struct stor_entry *e, bool ok)
{
	struct stor_open *o = e ? e->open : NULL;

	if (!o)
		return;
	/* A write of one block in the read-ahead: the rest of it still holds. */
	if (ok && o->pend_set && o->pend_blocks == 1 && o->ra_n && o->pend_block >= o->ra_first &&
	    o->pend_block < o->ra_first + o->ra_n && o->pend_block < map_blocks(e->size)) {
		memcpy(o->ra + (o->pend_block - o->ra_first) * STOR_BLOCK, o->pend,
		       block_len(e->size, o->pend_block));
		o->pend_set = false;
		o->pend_blocks = 0;
		return;
	}
	o->ra_n = 0;
	if (ok && o->pend_set && o->pend_block < map_blocks(e->size)) {
		memcpy(o->ra, o->pend, block_len(e->size, o->pend_block));
		o->ra_first = o->pend_block;
		o->ra_n = 1;
	}
	o->pend_set = false;
	o->pend_blocks = 0;
}

static TEE_Result corrupt(struct stor_entry *e, uint64_t b)
{
	char name[PROTO_FS_NAME_MAX + 1];

	entry_file(e->fid, 0, name);
	if (!(e->flags & ENTRY_CORRUPT))
		log_error("storage: object %s block %llu fails its integrity check; "
			  "the object is marked corrupt",
			  name, (unsigned long long)b);
	e->flags |= ENTRY_CORRUPT;
	obj_invalidate(e);
	return TEE_ERROR_CORRUPT_OBJECT;
}

/*
 * Blocks [b, b + k) of committed e, opened, into out (k * STOR_BLOCK bytes;
 * the last block may be short, holes are zeros).
 */
static TEE_Result fetch(struct store *s, struct stor_entry *e, uint64_t b, uint64_t k, uint8_t *out)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t aad[STOR_FID + 8];
	struct map_ent *ents = calloc(k, sizeof(*ents));
	uint8_t *ct = NULL;
	uint64_t lo = UINT64_MAX;
	uint64_t hi = 0;
	struct fsb fb;
	uint32_t op = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!ents)
		return TEE_ERROR_OUT_OF_MEMORY;
	res = map_get(s, e, b, k, ents);
	if (res == TEE_ERROR_CORRUPT_OBJECT)
		res = corrupt(e, b);
	if (res)
		goto out;
	for (uint64_t i = 0; i < k; i++) {
		if (!ents[i].present)
			continue;
		if (lo == UINT64_MAX)
			lo = (b + i) * STOR_BLOCK;
		hi = (b + i) * STOR_BLOCK + block_len(e->size, b + i);
	}
	if (lo != UINT64_MAX) {
		ct = malloc((size_t)(hi - lo));
		if (!ct) {
			res = TEE_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		entry_file(e->fid, 0, name);
		fsb_init(&fb, s->fs, s->dir);
		op = fsb_read(&fb, name, lo, (uint32_t)(hi - lo), FS_READ_AREA);
		res = fsb_run(&fb);
		if (res == TEE_ERROR_ITEM_NOT_FOUND || (!res && fb.counts[op] != hi - lo))
			res = corrupt(e, b);
		if (res)
			goto out;
		/* Out of the shared window before anything looks at it. */
		memcpy(ct, s->fs->win + FS_READ_AREA, (size_t)(hi - lo));
	}
	for (uint64_t i = 0; i < k; i++) {
		uint64_t blk = b + i;
		uint32_t len = block_len(e->size, blk);
		uint8_t *dst = out + i * STOR_BLOCK;

		if (!ents[i].present) {
			memset(dst, 0, len);
			continue;
		}
		block_aad(e->fid, blk, aad);
		if (crypt_open(e->open->ctx, ents[i].iv, aad, sizeof(aad),
			       ct + (blk * STOR_BLOCK - lo), dst, len, ents[i].tag)) {
			secure_wipe(out, (size_t)k * STOR_BLOCK);
			res = corrupt(e, blk);
			goto out;
		}
	}
out:
	free(ents);
	free(ct);
	return res;
}

TEE_Result obj_read(struct store *s, struct stor_entry *e, uint64_t pos, uint8_t *dst, size_t len)
{
	struct stor_open *o = e->open;
	uint64_t nblocks = map_blocks(e->size);
	TEE_Result res = TEE_ERROR_GENERIC;

	if (e->flags & ENTRY_CORRUPT)
		return TEE_ERROR_CORRUPT_OBJECT;
	if (pos >= e->size)
		return TEE_SUCCESS;
	if (len > e->size - pos)
		len = (size_t)(e->size - pos);
	while (len) {
		uint64_t b = pos / STOR_BLOCK;
		uint32_t in = (uint32_t)(pos % STOR_BLOCK);
		size_t n = 0;

		/*
		 * Whole blocks, more than a read-ahead: straight to the caller.
		 * A read of one read-ahead (the TA runtime's) goes through it,
		 * so that writes over what was just read find the old blocks.
		 */
		if (!in && len > (size_t)STOR_RA_BLOCKS * STOR_BLOCK) {
			uint64_t k = len / STOR_BLOCK;

			if (k > BIG_READ_BLOCKS)
				k = BIG_READ_BLOCKS;
			res = fetch(s, e, b, k, dst);
			if (res)
				return res;
			n = (size_t)k * STOR_BLOCK;
		} else {
			if (!o->ra_n || b < o->ra_first || b >= o->ra_first + o->ra_n) {
				uint64_t k =
				    nblocks - b < STOR_RA_BLOCKS ? nblocks - b : STOR_RA_BLOCKS;

				o->ra_n = 0;
				res = fetch(s, e, b, k, o->ra);
				if (res)
					return res;
				o->ra_first = b;
				o->ra_n = (uint32_t)k;
			}
			n = block_len(e->size, b) - in;
			if (n > len)
				n = len;
			memcpy(dst, o->ra + (b - o->ra_first) * STOR_BLOCK + in, n);
		}
		dst += n;
		pos += n;
		len -= n;
	}
	return TEE_SUCCESS;
}

/* Sealed blocks on their way to a transaction's journal images, in contiguous runs. */
struct run {
	uint8_t *buf;
	size_t cap; /* bytes at buf: at most RUN_MAX */
	uint64_t first;
	uint32_t len;
	uint64_t next; /* the block the run can take next */
};

static void run_flush(struct txn *t, struct run *r, const uint8_t fid[STOR_FID])
{
	if (!r->len)
		return;
	txn_image(t, fid, 0, r->first * STOR_BLOCK, r->buf, r->len);
	r->len = 0;
}

/* Adds a sealed block to the run; -1 when its buffer cannot be had. */
static int run_add(struct txn *t, struct run *r, const uint8_t fid[STOR_FID], uint64_t b,
		   const uint8_t *ct, uint32_t len)
{
	/* Taken at the first block: a change whose blocks all go in place needs none. */
	if (!r->buf) {
		r->buf = malloc(r->cap);
		if (!r->buf)
			return -1;
	}
	if (r->len && (b != r->next || r->len + STOR_BLOCK > r->cap))
		run_flush(t, r, fid);
	if (!r->len)
		r->first = b;
	memcpy(r->buf + r->len, ct, len);
	r->len += len;
	r->next = b + 1;
	/* A short block ends the file: nothing can follow it in the run. */
	if (len < STOR_BLOCK)
		run_flush(t, r, fid);
	return 0;
}

/*
 * Seals the new content of the blocks in [bfirst, blast] that the write or
 * truncation touches and hands them to t. plain(b, out) gives a block's new
 * plaintext (returns its length, or 0 for "leave this block alone").
 */
struct seal_ctx {
	struct store *s;
	struct txn *t;
	struct stor_entry *e; /* committed; NULL for a new object */
	struct stor_entry *w; /* the transaction's copy */
	EVP_CIPHER_CTX *ctx;
	uint64_t pos;
	const uint8_t *src;
	size_t len;
	uint64_t old_size; /* the size the blocks had before this change */
	bool direct;
};

/* The block's new plaintext into out; 0 when the block is not touched. */
static TEE_Result new_plain(struct seal_ctx *c, uint64_t b, uint8_t *out, uint32_t *len)
{
	uint64_t start = b * STOR_BLOCK;
	uint32_t nlen = block_len(c->w->size, b);
	uint32_t olen = block_len(c->old_size, b);
	uint64_t end = c->pos + c->len;
	TEE_Result res = TEE_ERROR_GENERIC;

	*len = nlen;
	memset(out, 0, STOR_BLOCK);
	/* Old content the change does not cover wholly. */
	if (olen && !(c->len && c->pos <= start && end >= start + nlen)) {
		if (!c->e || start >= c->e->size) {
			*len = 0; /* cannot happen: pieces end on block boundaries */
			return TEE_ERROR_BAD_STATE;
		}
		res = obj_read(c->s, c->e, start, out, olen < nlen ? olen : nlen);
		if (res)
			return res;
	}
	if (c->len && end > start && c->pos < start + nlen) {
		uint64_t from = c->pos > start ? c->pos : start;
		uint64_t to = end < start + nlen ? end : start + nlen;

		memcpy(out + (from - start), c->src + (from - c->pos), (size_t)(to - from));
	}
	return TEE_SUCCESS;
}

/* Seals the given blocks (ascending, no holes among them) into t. */
static TEE_Result seal_blocks(struct seal_ctx *c, const uint64_t *blocks, size_t nb)
{
	uint8_t aad[STOR_FID + 8];
	uint8_t *plain = malloc(STOR_BLOCK);
	uint8_t *ct = malloc(STOR_BLOCK);
	uint8_t *dst = NULL;
	struct map_ent *ents = calloc(nb ? nb : 1, sizeof(*ents));
	uint8_t *ivs = malloc((nb ? nb : 1) * STOR_IV);
	uint64_t old_n = c->e ? map_blocks(c->e->size) : 0;
	uint64_t hw = c->e && c->e->hw > old_n ? c->e->hw : old_n;
	/* Sized to the change; taken by the first block that is not written in place. */
	struct run r = {.cap = nb && nb < RUN_MAX / STOR_BLOCK ? nb * STOR_BLOCK : RUN_MAX};
	/* Writing in place to a file the directory may not hold for good: sync it too. */
	bool new_file = !c->e || !c->e->dir_synced;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!plain || !ct || !ents || !ivs) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	/* A fresh IV per block, drawn for all of them at once. */
	if (crypt_random(ivs, nb * STOR_IV)) {
		res = TEE_ERROR_GENERIC;
		goto out;
	}
	/* What the read-ahead may keep when this commits (obj_committed). */
	if (c->e && c->e->open)
		c->e->open->pend_blocks += c->len ? nb : UINT32_MAX;
	for (size_t i = 0; i < nb; i++) {
		uint64_t b = blocks[i];
		uint64_t start = b * STOR_BLOCK;
		uint32_t len = block_len(c->w->size, b);
		const uint8_t *in = plain;

		/*
		 * A block the change covers whole is sealed from the caller's
		 * buffer, read once; the last one goes through plain, kept
		 * for the read-ahead.
		 */
		if (i + 1 < nb && c->len && len && c->pos <= start &&
		    c->pos + c->len >= start + len) {
			in = c->src + (start - c->pos);
		} else {
			res = new_plain(c, b, plain, &len);
			if (res)
				goto out;
		}
		ents[i].present = true;
		block_aad(c->w->fid, b, aad);
		if (c->direct && b >= hw) {
			/* In place: sealed straight into the window the supplicant writes from. */
			run_flush(c->t, &r, c->w->fid);
			dst = txn_direct_buf(c->t, c->w->fid, 0, b * STOR_BLOCK, len,
					     (nb - 1 - i) * STOR_BLOCK, new_file);
			if (!dst) {
				res = c->t->err;
				goto out;
			}
		} else {
			dst = ct;
		}
		memcpy(ents[i].iv, ivs + i * STOR_IV, STOR_IV);
		if (crypt_seal(c->ctx, ents[i].iv, aad, sizeof(aad), in, dst, len, ents[i].tag)) {
			res = TEE_ERROR_GENERIC;
			goto out;
		}
		if (dst != ct) {
			txn_direct_ent(c->t, c->w->fid, b, ents[i].iv, ents[i].tag);
		} else if (run_add(c->t, &r, c->w->fid, b, ct, len)) {
			res = TEE_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		if (i + 1 == nb && c->e && c->e->open && len) {
			memcpy(c->e->open->pend, plain, len);
			c->e->open->pend_block = b;
			c->e->open->pend_set = true;
		}
		if (i + 1 == nb || blocks[i + 1] != b + 1) {
			/* the map takes runs of consecutive blocks */
			size_t j = i;

			while (j > 0 && blocks[j - 1] == blocks[j] - 1)
				j--;
			res = map_set(c->s, c->t, c->e, c->w->fid, blocks[j], i - j + 1, &ents[j]);
			if (res)
				goto out;
		}
	}
	run_flush(c->t, &r, c->w->fid);
	res = c->t->err;
out:
	if (plain)
		secure_wipe(plain, STOR_BLOCK);
	free(plain);
	free(ct);
	free(ents);
	free(r.buf);
	free(ivs);
	return res;
}

static EVP_CIPHER_CTX *cipher_of(struct stor_entry *e, struct stor_entry *w, EVP_CIPHER_CTX **own)
{
	*own = NULL;
	if (e && e->open && e->open->ctx)
		return e->open->ctx;
	*own = crypt_ctx_new(w->fek);
	return *own;
}

TEE_Result obj_write(struct store *s, struct txn *t, struct stor_entry *e, struct stor_entry *w,
		     uint64_t pos, const uint8_t *src, size_t len)
{
	struct seal_ctx c = {.s = s, .t = t, .e = e, .w = w, .pos = pos, .src = src, .len = len};
	EVP_CIPHER_CTX *own = NULL;
	uint64_t cur = w->size;
	uint64_t end = pos + len;
	uint64_t *blocks = NULL;
	uint64_t old_n = e ? map_blocks(e->size) : 0;
	uint64_t hw = e && e->hw > old_n ? e->hw : old_n;
	uint64_t new_bytes = 0;
	size_t nb = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!len)
		return TEE_SUCCESS;
	if (end > STOR_MAX_SIZE || end < pos)
		return TEE_ERROR_OVERFLOW;
	c.old_size = cur;
	w->size = end > cur ? end : cur;
	blocks = calloc(map_blocks(len) + 2, sizeof(*blocks));
	c.ctx = cipher_of(e, w, &own);
	if (!blocks || !c.ctx) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	/* A short last block before a gap grows with zeros. */
	if (pos > cur && cur % STOR_BLOCK && cur / STOR_BLOCK < pos / STOR_BLOCK)
		blocks[nb++] = cur / STOR_BLOCK;
	for (uint64_t b = pos / STOR_BLOCK; b <= (end - 1) / STOR_BLOCK; b++)
		blocks[nb++] = b;
	/* Blocks no record since the checkpoint refers to may go in place. */
	for (size_t i = 0; i < nb; i++)
		if (blocks[i] >= hw)
			new_bytes += block_len(w->size, blocks[i]);
	c.direct = new_bytes >= DIRECT_MIN;
	res = seal_blocks(&c, blocks, nb);
out:
	EVP_CIPHER_CTX_free(own);
	free(blocks);
	return res;
}

TEE_Result obj_truncate(struct store *s, struct txn *t, struct stor_entry *e, struct stor_entry *w,
			uint64_t size)
{
	struct seal_ctx c = {.s = s, .t = t, .e = e, .w = w};
	EVP_CIPHER_CTX *own = NULL;
	uint64_t cur = w->size;
	uint64_t b = 0;
	TEE_Result res = TEE_ERROR_GENERIC;
	struct map_ent ent;

	if (size == cur)
		return TEE_SUCCESS;
	if (size > STOR_MAX_SIZE)
		return TEE_ERROR_STORAGE_NO_SPACE;
	c.old_size = cur;
	w->size = size;
	c.ctx = cipher_of(e, w, &own);
	if (!c.ctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (size > cur && cur % STOR_BLOCK) {
		/* The short last block grows with zeros; the rest are holes. */
		b = cur / STOR_BLOCK;
		res = seal_blocks(&c, &b, 1);
	} else if (size < cur && size % STOR_BLOCK) {
		/* The new last block is cut short, unless it is a hole. */
		b = size / STOR_BLOCK;
		res = e ? map_get(s, e, b, 1, &ent) : TEE_SUCCESS;
		if (res == TEE_ERROR_CORRUPT_OBJECT)
			res = corrupt(e, b);
		if (!res && e && ent.present)
			res = seal_blocks(&c, &b, 1);
	} else {
		res = TEE_SUCCESS; /* whole blocks only: the map follows the size */
	}
	EVP_CIPHER_CTX_free(own);
	return res;
}

static void attr_aad(const uint8_t fid[STOR_FID], uint8_t aad[4 + STOR_FID])
{
	static const uint8_t label[4] = {'a', 't', 't', 'r'};

	memcpy(aad, label, sizeof(label));
	memcpy(aad + sizeof(label), fid, STOR_FID);
}

TEE_Result obj_put_attrs(struct txn *t, struct stor_entry *w, const uint8_t *blob, size_t len)
{
	uint8_t aad[4 + STOR_FID];
	uint8_t *ct = NULL;
	EVP_CIPHER_CTX *ctx = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	w->attr_len = 0;
	if (!len)
		return TEE_SUCCESS;
	if (len > PROTO_STOR_ATTR_MAX)
		return TEE_ERROR_STORAGE_NO_SPACE;
	ct = malloc(len);
	ctx = crypt_ctx_new(w->fek);
	if (!ct || !ctx) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	attr_aad(w->fid, aad);
	if (crypt_random(w->attr_iv, STOR_IV) ||
	    crypt_seal(ctx, w->attr_iv, aad, sizeof(aad), blob, ct, len, w->attr_tag))
		goto out;
	txn_image(t, w->fid, 'a', 0, ct, len);
	w->attr_len = (uint32_t)len;
	res = t->err;
out:
	EVP_CIPHER_CTX_free(ctx);
	free(ct);
	return res;
}

TEE_Result obj_get_attrs(struct store *s, struct stor_entry *e, uint8_t *blob)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t aad[4 + STOR_FID];
	uint8_t *ct = NULL;
	struct fsb b;
	uint32_t op = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!e->attr_len)
		return TEE_SUCCESS;
	if (e->flags & ENTRY_CORRUPT)
		return TEE_ERROR_CORRUPT_OBJECT;
	ct = malloc(e->attr_len);
	if (!ct)
		return TEE_ERROR_OUT_OF_MEMORY;
	entry_file(e->fid, 'a', name);
	fsb_init(&b, s->fs, s->dir);
	op = fsb_read(&b, name, 0, e->attr_len, FS_READ_AREA);
	res = fsb_run(&b);
	if (res == TEE_ERROR_ITEM_NOT_FOUND || (!res && b.counts[op] != e->attr_len))
		res = corrupt(e, 0);
	if (!res) {
		memcpy(ct, s->fs->win + FS_READ_AREA, e->attr_len);
		attr_aad(e->fid, aad);
		if (crypt_open(e->open->ctx, e->attr_iv, aad, sizeof(aad), ct, blob, e->attr_len,
			       e->attr_tag))
			res = corrupt(e, 0);
	}
	free(ct);
	return res;
}

TEE_Result obj_check_blocks(struct store *s, const struct stor_entry *e, uint64_t first, uint32_t n,
			    const uint8_t *ivtags)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t aad[STOR_FID + 8];
	uint8_t *ct = malloc(FS_READ_AREA_LEN);
	uint8_t *pt = malloc(STOR_BLOCK);
	EVP_CIPHER_CTX *ctx = crypt_ctx_new(e->fek);
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!ct || !pt || !ctx) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	entry_file(e->fid, 0, name);
	for (uint32_t done = 0; done < n;) {
		uint32_t k = n - done < BIG_READ_BLOCKS ? n - done : BIG_READ_BLOCKS;
		uint64_t b0 = first + done;
		uint64_t last = b0 + k - 1;
		uint32_t want = 0;
		uint32_t op = 0;
		struct fsb fb;

		if (last >= map_blocks(e->size)) {
			res = TEE_ERROR_CORRUPT_OBJECT; /* not a block of the object */
			goto out;
		}
		want = (uint32_t)((last - b0) * STOR_BLOCK + block_len(e->size, last));
		fsb_init(&fb, s->fs, s->dir);
		op = fsb_read(&fb, name, b0 * STOR_BLOCK, want, FS_READ_AREA);
		res = fsb_run(&fb);
		if (res == TEE_ERROR_ITEM_NOT_FOUND || (!res && fb.counts[op] != want)) {
			res = TEE_ERROR_CORRUPT_OBJECT;
			goto out;
		}
		if (res)
			goto out;
		memcpy(ct, s->fs->win + FS_READ_AREA, want);
		for (uint32_t i = 0; i < k; i++) {
			const uint8_t *it = ivtags + (size_t)(done + i) * (STOR_IV + STOR_TAG);

			block_aad(e->fid, b0 + i, aad);
			if (crypt_open(ctx, it, aad, sizeof(aad), ct + (size_t)i * STOR_BLOCK, pt,
				       block_len(e->size, b0 + i), it + STOR_IV)) {
				res = TEE_ERROR_CORRUPT_OBJECT;
				goto out;
			}
		}
		done += k;
	}
	res = TEE_SUCCESS;
out:
	EVP_CIPHER_CTX_free(ctx);
	if (pt)
		secure_wipe(pt, STOR_BLOCK);
	free(pt);
	free(ct);
	return res;
}
