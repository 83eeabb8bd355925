/*
 * Object data, the write side: a write or a truncation seals the blocks it
 * touches, each with a fresh IV (merging with the old plaintext of a block
 * it covers in part), and hands them to the transaction: as journal images,
 * or, for at least DIRECT_MIN bytes of blocks no committed state refers to,
 * written in place and synced before the record (journal.h). The map
 * (map.c) takes their IVs and tags.
 */
#include <stdlib.h>
#include <string.h>

#include "object.h"
#include "secure.h"

#define DIRECT_MIN (64u * 1024)
#define RUN_MAX (256u * 1024)

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
 * The first block of e a change may write in place: neither the committed
 * object nor any record since the checkpoint (e->hw) refers to it or those
 * after it. 0 for an object the change creates.
 */
static uint64_t in_place_from(const struct stor_entry *e)
{
	uint64_t old_n = e ? map_blocks(e->size) : 0;

	return e && e->hw > old_n ? e->hw : old_n;
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
	uint32_t nlen = obj_block_len(c->w->size, b);
	uint32_t olen = obj_block_len(c->old_size, b);
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

/* What sealing the blocks of one change works with (seal_blocks). */
struct seal_work {
	uint8_t *plain;	      /* a block's new plaintext */
	uint8_t *ct;	      /* a block sealed for the journal */
	struct map_ent *ents; /* the blocks' new map entries */
	uint8_t *ivs;	      /* the blocks' IVs */
	struct run r;
	uint64_t hw; /* blocks from here on may be written in place */
	/* Writing in place to a file the directory may not hold for good: sync it too. */
	bool new_file;
};

/* The buffers for nb blocks, and a fresh IV for each, drawn for all of them at once. */
static TEE_Result seal_work_init(struct seal_work *sw, const struct seal_ctx *c, size_t nb)
{
	sw->plain = malloc(STOR_BLOCK);
	sw->ct = malloc(STOR_BLOCK);
	sw->ents = calloc(nb ? nb : 1, sizeof(*sw->ents));
	sw->ivs = malloc((nb ? nb : 1) * STOR_IV);
	sw->hw = in_place_from(c->e);
	/* Sized to the change; taken by the first block that is not written in place. */
	sw->r = (struct run){.cap = nb && nb < RUN_MAX / STOR_BLOCK ? nb * STOR_BLOCK : RUN_MAX};
	sw->new_file = !c->e || !c->e->dir_synced;
	if (!sw->plain || !sw->ct || !sw->ents || !sw->ivs)
		return TEE_ERROR_OUT_OF_MEMORY;
	return crypt_random(sw->ivs, nb * STOR_IV) ? TEE_ERROR_GENERIC : TEE_SUCCESS;
}

static void seal_work_fini(struct seal_work *sw)
{
	if (sw->plain)
		secure_wipe(sw->plain, STOR_BLOCK);
	free(sw->plain);
	free(sw->ct);
	free(sw->ents);
	free(sw->r.buf);
	free(sw->ivs);
}

/*
 * Where block b's new plaintext is: *in, *len bytes. A block the change
 * covers whole is sealed from the caller's buffer, read once; the last one
 * goes through sw->plain, kept for the read-ahead.
 */
static TEE_Result seal_input(struct seal_ctx *c, struct seal_work *sw, uint64_t b, bool last,
			     const uint8_t **in, uint32_t *len)
{
	uint64_t start = b * STOR_BLOCK;

	*len = obj_block_len(c->w->size, b);
	*in = sw->plain;
	if (!last && c->len && *len && c->pos <= start && c->pos + c->len >= start + *len) {
		*in = c->src + (start - c->pos);
		return TEE_SUCCESS;
	}
	return new_plain(c, b, sw->plain, len);
}

/*
 * Where block b (len bytes; left: the bytes of the change after it) is
 * sealed to: in place, straight into the window the supplicant writes from,
 * or sw->ct, on its way to the journal. NULL after a failure (c->t->err).
 */
static uint8_t *seal_dest(struct seal_ctx *c, struct seal_work *sw, uint64_t b, uint32_t len,
			  size_t left)
{
	if (!c->direct || b < sw->hw)
		return sw->ct;
	run_flush(c->t, &sw->r, c->w->fid);
	return txn_direct_buf(c->t, c->w->fid, 0, b * STOR_BLOCK, len, left, sw->new_file);
}

/* The sealed block b to t: listed when written in place, else into the run of images. */
static TEE_Result seal_hand(struct seal_ctx *c, struct seal_work *sw, uint64_t b,
			    const uint8_t *dst, uint32_t len, const struct map_ent *ent)
{
	if (dst != sw->ct) {
		txn_direct_ent(c->t, c->w->fid, b, ent->iv, ent->tag);
		return TEE_SUCCESS;
	}
	if (run_add(c->t, &sw->r, c->w->fid, b, sw->ct, len))
		return TEE_ERROR_OUT_OF_MEMORY;
	return TEE_SUCCESS;
}

/* The last block the change sealed: the read-ahead once it commits (obj_committed). */
static void seal_keep_last(struct seal_ctx *c, const uint8_t *plain, uint64_t b, uint32_t len)
{
	struct stor_open *o = c->e ? c->e->open : NULL;

	if (!o || !len)
		return;
	memcpy(o->pend, plain, len);
	o->pend_block = b;
	o->pend_set = true;
}

/* The map takes runs of consecutive blocks: the one blocks[i] ends, if it does. */
static TEE_Result seal_map_run(struct seal_ctx *c, const struct seal_work *sw,
			       const uint64_t *blocks, size_t nb, size_t i)
{
	size_t j = i;

	if (i + 1 < nb && blocks[i + 1] == blocks[i] + 1)
		return TEE_SUCCESS;
	while (j > 0 && blocks[j - 1] == blocks[j] - 1)
		j--;
	return map_set(c->s, c->t, c->e, c->w->fid, blocks[j], i - j + 1, &sw->ents[j]);
}

/* Seals block blocks[i] of the nb into t. */
static TEE_Result seal_one(struct seal_ctx *c, struct seal_work *sw, const uint64_t *blocks,
			   size_t nb, size_t i)
{
	uint8_t aad[STOR_FID + 8];
	struct map_ent *ent = &sw->ents[i];
	uint64_t b = blocks[i];
	bool last = i + 1 == nb;
	const uint8_t *in = NULL;
	uint8_t *dst = NULL;
	uint32_t len = 0;
	TEE_Result res = seal_input(c, sw, b, last, &in, &len);

	if (res)
		return res;
	ent->present = true;
	obj_block_aad(c->w->fid, b, aad);
	dst = seal_dest(c, sw, b, len, (nb - 1 - i) * STOR_BLOCK);
	if (!dst)
		return c->t->err;
	memcpy(ent->iv, sw->ivs + i * STOR_IV, STOR_IV);
	if (crypt_seal(c->ctx, ent->iv, aad, sizeof(aad), in, dst, len, ent->tag))
		return TEE_ERROR_GENERIC;
	res = seal_hand(c, sw, b, dst, len, ent);
	if (res)
		return res;
	if (last)
		seal_keep_last(c, sw->plain, b, len);
	return seal_map_run(c, sw, blocks, nb, i);
}

/* Seals the given blocks (ascending, no holes among them) into t. */
static TEE_Result seal_blocks(struct seal_ctx *c, const uint64_t *blocks, size_t nb)
{
	struct seal_work sw = {0};
	TEE_Result res = seal_work_init(&sw, c, nb);

	if (res)
		goto out;
	/* What the read-ahead may keep when this commits (obj_committed). */
	if (c->e && c->e->open)
		c->e->open->pend_blocks += c->len ? nb : UINT32_MAX;
	for (size_t i = 0; i < nb && !res; i++)
		res = seal_one(c, &sw, blocks, nb, i);
	if (res)
		goto out;
	run_flush(c->t, &sw.r, c->w->fid);
	res = c->t->err;
out:
	seal_work_fini(&sw);
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
	uint64_t hw = in_place_from(e);
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
			new_bytes += obj_block_len(w->size, blocks[i]);
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
			res = obj_corrupt(e, b);
		if (!res && e && ent.present)
			res = seal_blocks(&c, &b, 1);
	} else {
		res = TEE_SUCCESS; /* whole blocks only: the map follows the size */
	}
	EVP_CIPHER_CTX_free(own);
	return res;
}
