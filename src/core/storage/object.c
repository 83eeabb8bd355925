/*
 * Object data: the open state of an object, its reads, its attribute blob,
 * and the check of blocks written in place; writes are object_write.c's.
 * Block b of an object is sealed with AES-256-GCM under the object's FEK
 * with a fresh random IV at every write and (file id, b) as additional
 * data, and stored as ciphertext alone at 4096 b of the object's data file
 * <fid>: the IV and tag live in the map (map.c). A block of zeros that was
 * never written is a hole: nothing stored.
 *
 * Reads go through a read-ahead of STOR_RA_BLOCKS blocks per open object,
 * or straight into the caller's (private) buffer for long aligned reads;
 * nothing is released before its tag verified.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "object.h"
#include "secure.h"

#define BIG_READ_BLOCKS (FS_READ_AREA_LEN / STOR_BLOCK)

uint32_t obj_block_len(uint64_t size, uint64_t b)
{
	uint64_t start = b * STOR_BLOCK;

	if (start >= size)
		return 0;
	return size - start < STOR_BLOCK ? (uint32_t)(size - start) : STOR_BLOCK;
}

void obj_block_aad(const uint8_t fid[STOR_FID], uint64_t b, uint8_t aad[STOR_FID + 8])
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
		       obj_block_len(e->size, o->pend_block));
		o->pend_set = false;
		o->pend_blocks = 0;
		return;
	}
	o->ra_n = 0;
	if (ok && o->pend_set && o->pend_block < map_blocks(e->size)) {
		memcpy(o->ra, o->pend, obj_block_len(e->size, o->pend_block));
		o->ra_first = o->pend_block;
		o->ra_n = 1;
	}
	o->pend_set = false;
	o->pend_blocks = 0;
}

TEE_Result obj_corrupt(struct stor_entry *e, uint64_t b)
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
		res = obj_corrupt(e, b);
	if (res)
		goto out;
	for (uint64_t i = 0; i < k; i++) {
		if (!ents[i].present)
			continue;
		if (lo == UINT64_MAX)
			lo = (b + i) * STOR_BLOCK;
		hi = (b + i) * STOR_BLOCK + obj_block_len(e->size, b + i);
	}
	if (lo != UINT64_MAX) {
		/* hi > lo: the callers fetch blocks below the end of e, none of them empty. */
		/* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI) */
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
			res = obj_corrupt(e, b);
		if (res)
			goto out;
		/* Out of the shared window before anything looks at it. */
		memcpy(ct, s->fs->win + FS_READ_AREA, (size_t)(hi - lo));
	}
	for (uint64_t i = 0; i < k; i++) {
		uint64_t blk = b + i;
		uint32_t len = obj_block_len(e->size, blk);
		uint8_t *dst = out + i * STOR_BLOCK;

		if (!ents[i].present) {
			memset(dst, 0, len);
			continue;
		}
		obj_block_aad(e->fid, blk, aad);
		if (crypt_open(e->open->ctx, ents[i].iv, aad, sizeof(aad),
			       ct + (blk * STOR_BLOCK - lo), dst, len, ents[i].tag)) {
			secure_wipe(out, (size_t)k * STOR_BLOCK);
			res = obj_corrupt(e, blk);
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
			n = obj_block_len(e->size, b) - in;
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
		res = obj_corrupt(e, 0);
	if (!res) {
		memcpy(ct, s->fs->win + FS_READ_AREA, e->attr_len);
		attr_aad(e->fid, aad);
		if (crypt_open(e->open->ctx, e->attr_iv, aad, sizeof(aad), ct, blob, e->attr_len,
			       e->attr_tag))
			res = obj_corrupt(e, 0);
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
		want = (uint32_t)((last - b0) * STOR_BLOCK + obj_block_len(e->size, last));
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

			obj_block_aad(e->fid, b0 + i, aad);
			if (crypt_open(ctx, it, aad, sizeof(aad), ct + (size_t)i * STOR_BLOCK, pt,
				       obj_block_len(e->size, b0 + i), it + STOR_IV)) {
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
