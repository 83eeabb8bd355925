/*
 * The map of an object: a tree of pages over its blocks that pins, for every
 * block, the IV and GCM tag of its current version, and for every page, the
 * SHA-256 of the pages below. The root is in the object's directory entry.
 *
 *   level 1 page p: entries of blocks 128p .. 128p+127 (iv, tag, flags)
 *   level L page p: SHA-256 of level L-1 pages 128p .. 128p+127
 *   depth: 0 for at most one block (the root is that block's entry), else
 *          the fewest levels whose top has one page (the root is its hash)
 *
 * An all-zero entry is a hole: a block of zeros never written, or a page of
 * holes never stored. A page is hashed as a full 4096-byte page with zeros
 * past its last entry, with the object's file id and its position, so that
 * growing an object leaves the pages it had untouched, and no page can
 * stand in for another. Page p of level L is stored as its first n entries
 * (n from the object's size) at p * 4096 of file <fid>.L, or fewer: a
 * truncation up adds holes without writing the page, and entries past the
 * end of the file read as holes (the hash decides). An object has no
 * minimum size on disk.
 *
 * A transaction changes copies of the pages (struct txn_page); the cache of
 * verified pages is only ever given whole pages of committed trees.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "secure.h"
#include "storage.h"

struct txn_page {
	struct txn_page *next;
	uint8_t fid[STOR_FID];
	uint8_t level;
	uint32_t index;
	uint8_t hash[STOR_HASH];
	bool zero; /* all holes: not stored */
	uint8_t e[STOR_BLOCK];
};

static const uint8_t zero_hash[STOR_HASH];

unsigned int map_depth(uint64_t size)
{
	uint64_t n = map_blocks(size);
	uint64_t cover = STOR_FANOUT;
	unsigned int d = 1;

	if (n <= 1)
		return 0;
	while (cover < n) {
		cover *= STOR_FANOUT;
		d++;
	}
	return d;
}

uint64_t map_blocks(uint64_t size)
{
	return (size + STOR_BLOCK - 1) / STOR_BLOCK;
}

static uint64_t span(unsigned int level)
{
	uint64_t s = 1;

	for (unsigned int i = 0; i < level; i++)
		s *= STOR_FANOUT;
	return s;
}

/* Pages at level L, and entries in page p, for an object of n blocks. */
static uint64_t pages_at(uint64_t n, unsigned int level)
{
	return (n + span(level) - 1) / span(level);
}

static uint32_t entries_in(uint64_t n, unsigned int level, uint64_t p)
{
	uint64_t children = pages_at(n, level - 1);
	uint64_t left = children > p * STOR_FANOUT ? children - p * STOR_FANOUT : 0;

	return left > STOR_FANOUT ? STOR_FANOUT : (uint32_t)left;
}

static void page_hash(const uint8_t fid[STOR_FID], uint8_t level, uint32_t index,
		      const uint8_t e[STOR_BLOCK], uint8_t out[STOR_HASH])
{
	uint8_t pre[9 + STOR_FID + 1 + 4];
	struct buf_writer w;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned int len = 0;

	buf_writer_init(&w, pre, sizeof(pre));
	buf_put_bytes(&w, "swtee-map", 9);
	buf_put_bytes(&w, fid, STOR_FID);
	buf_put_u8(&w, level);
	buf_put_u32(&w, index);
	if (!md || !EVP_DigestInit_ex(md, EVP_sha256(), NULL) ||
	    !EVP_DigestUpdate(md, pre, sizeof(pre)) || !EVP_DigestUpdate(md, e, STOR_BLOCK) ||
	    !EVP_DigestFinal_ex(md, out, &len))
		memset(out, 0xff, STOR_HASH); /* matches nothing stored */
	EVP_MD_CTX_free(md);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

/*
 * An entry as ent_encode writes it: a block (flags 1) or a hole (all
 * zeros). Anything else is no entry the engine wrote: false.
 */
static bool ent_decode(const uint8_t *p, struct map_ent *out)
{
	struct buf_reader r;
	uint32_t flags = 0;

	buf_reader_init(&r, p, STOR_ENTRY);
	buf_get_bytes(&r, out->iv, STOR_IV);
	buf_get_bytes(&r, out->tag, STOR_TAG);
	buf_get_u32(&r, &flags);
	out->present = flags == 1;
	return flags == 1 || all_zero(p, STOR_ENTRY);
}

static void ent_encode(uint8_t *p, const struct map_ent *in)
{
	struct buf_writer w;

	if (!in || !in->present) {
		memset(p, 0, STOR_ENTRY);
		return;
	}
	buf_writer_init(&w, p, STOR_ENTRY);
	buf_put_bytes(&w, in->iv, STOR_IV);
	buf_put_bytes(&w, in->tag, STOR_TAG);
	buf_put_u32(&w, 1);
}

/* ---- the cache of verified committed pages ---- */

static struct map_page *cache_find(struct store *s, const uint8_t fid[STOR_FID], uint8_t level,
				   uint32_t index, const uint8_t hash[STOR_HASH])
{
	for (size_t i = 0; i < STOR_PAGE_CACHE; i++) {
		struct map_page *p = s->pages[i];

		if (p && p->level == level && p->index == index && !memcmp(p->fid, fid, STOR_FID) &&
		    !memcmp(p->hash, hash, STOR_HASH)) {
			p->used = ++s->page_tick;
			return p;
		}
	}
	return NULL;
}

static void cache_put(struct store *s, const uint8_t fid[STOR_FID], uint8_t level, uint32_t index,
		      const uint8_t hash[STOR_HASH], const uint8_t e[STOR_BLOCK])
{
	struct map_page *victim = NULL;
	size_t slot = 0;

	for (size_t i = 0; i < STOR_PAGE_CACHE; i++) {
		struct map_page *p = s->pages[i];

		if (p && p->level == level && p->index == index && !memcmp(p->fid, fid, STOR_FID)) {
			slot = i; /* the same page, another version: replace it */
			victim = p;
			break;
		}
		if (!p) {
			slot = i;
			victim = NULL;
			break;
		}
		if (!victim || p->used < victim->used) {
			victim = p;
			slot = i;
		}
	}
	if (!victim) {
		victim = malloc(sizeof(*victim));
		if (!victim)
			return;
		s->pages[slot] = victim;
	}
	memcpy(victim->fid, fid, STOR_FID);
	victim->level = level;
	victim->index = index;
	memcpy(victim->hash, hash, STOR_HASH);
	memcpy(victim->e, e, STOR_BLOCK);
	victim->used = ++s->page_tick;
}

void map_cache_drop(struct store *s, const uint8_t fid[STOR_FID])
{
	for (size_t i = 0; i < STOR_PAGE_CACHE; i++) {
		if (s->pages[i] && !memcmp(s->pages[i]->fid, fid, STOR_FID)) {
			free(s->pages[i]);
			s->pages[i] = NULL;
		}
	}
}

void map_cache_free(struct store *s)
{
	for (size_t i = 0; i < STOR_PAGE_CACHE; i++) {
		free(s->pages[i]);
		s->pages[i] = NULL;
	}
}

/*
 * Page (level, index) of the committed tree of e, whose hash must be hash,
 * into out (all STOR_BLOCK bytes, zeros past its entries).
 */
static TEE_Result page_load(struct store *s, const struct stor_entry *e, uint8_t level,
			    uint32_t index, const uint8_t hash[STOR_HASH], uint8_t out[STOR_BLOCK])
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t got[STOR_HASH];
	struct map_page *p = NULL;
	struct fsb b;
	uint32_t n = entries_in(map_blocks(e->size), level, index);
	uint32_t op = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!memcmp(hash, zero_hash, STOR_HASH)) {
		memset(out, 0, STOR_BLOCK); /* a page of holes */
		return TEE_SUCCESS;
	}
	p = cache_find(s, e->fid, level, index, hash);
	if (p) {
		memcpy(out, p->e, STOR_BLOCK);
		return TEE_SUCCESS;
	}
	entry_file(e->fid, (char)('0' + level), name);
	fsb_init(&b, s->fs, s->dir);
	op = fsb_read(&b, name, (uint64_t)index * STOR_BLOCK, n * STOR_ENTRY, FS_READ_AREA);
	res = fsb_run(&b);
	if (res == TEE_ERROR_ITEM_NOT_FOUND)
		return TEE_ERROR_CORRUPT_OBJECT;
	if (res)
		return res;
	/*
	 * Out of the shared window first: the supplicant could change it under
	 * us. A file may end before the page's last entries: a truncation up
	 * adds holes without writing the page (its hash, over the zero-padded
	 * page, does not change). Missing entries are zeros; the hash decides.
	 */
	memset(out, 0, STOR_BLOCK);
	memcpy(out, s->fs->win + FS_READ_AREA, b.counts[op]);
	page_hash(e->fid, level, index, out, got);
	if (!secure_equal(got, hash, STOR_HASH))
		return TEE_ERROR_CORRUPT_OBJECT;
	cache_put(s, e->fid, level, index, hash, out);
	return TEE_SUCCESS;
}

/* The hash that pins committed page (level, index) of e, from the top down. */
static TEE_Result page_expected(struct store *s, const struct stor_entry *e, unsigned int level,
				uint64_t index, uint8_t hash[STOR_HASH], uint8_t *scratch)
{
	unsigned int d = map_depth(e->size);

	memcpy(hash, e->root, STOR_HASH);
	for (unsigned int l = d; l > level; l--) {
		uint64_t p = index / span(l - level);
		uint64_t child = index / span(l - level - 1);
		TEE_Result res = page_load(s, e, (uint8_t)l, (uint32_t)p, hash, scratch);

		if (res)
			return res;
		memcpy(hash, scratch + (child % STOR_FANOUT) * STOR_ENTRY, STOR_HASH);
	}
	return TEE_SUCCESS;
}

TEE_Result map_get(struct store *s, const struct stor_entry *e, uint64_t b, uint64_t k,
		   struct map_ent *out)
{
	uint8_t *page = NULL;
	uint8_t hash[STOR_HASH];
	uint64_t n = map_blocks(e->size);
	uint64_t leaf = UINT64_MAX;
	TEE_Result res = TEE_ERROR_GENERIC;

	memset(out, 0, k * sizeof(*out));
	if (map_depth(e->size) == 0) {
		if (b == 0 && k && n && !ent_decode(e->root, out))
			return TEE_ERROR_CORRUPT_OBJECT;
		return TEE_SUCCESS;
	}
	page = malloc(STOR_BLOCK);
	if (!page)
		return TEE_ERROR_OUT_OF_MEMORY;
	for (uint64_t i = 0; i < k && b + i < n; i++) {
		uint64_t blk = b + i;

		if (blk / STOR_FANOUT != leaf) {
			leaf = blk / STOR_FANOUT;
			res = page_expected(s, e, 1, leaf, hash, page);
			if (!res)
				res = page_load(s, e, 1, (uint32_t)leaf, hash, page);
			if (res)
				goto out;
		}
		if (!ent_decode(page + (blk % STOR_FANOUT) * STOR_ENTRY, &out[i])) {
			res = TEE_ERROR_CORRUPT_OBJECT;
			goto out;
		}
	}
	res = TEE_SUCCESS;
out:
	free(page);
	return res;
}

/* ---- transactions ---- */

static struct txn_page *txn_find(struct txn *t, const uint8_t fid[STOR_FID], uint8_t level,
				 uint32_t index)
{
	for (struct txn_page *p = t->pages; p; p = p->next)
		if (p->level == level && p->index == index && !memcmp(p->fid, fid, STOR_FID))
			return p;
	return NULL;
}

/*
 * The transaction's copy of page (level, index) of the object whose
 * committed entry is e (NULL when it is new), made from the committed page
 * if there is one.
 */
static struct txn_page *txn_get(struct store *s, struct txn *t, const struct stor_entry *e,
				const uint8_t fid[STOR_FID], uint8_t level, uint32_t index)
{
	struct txn_page *p = txn_find(t, fid, level, index);
	uint64_t n = e ? map_blocks(e->size) : 0;
	unsigned int d = e ? map_depth(e->size) : 0;
	uint8_t hash[STOR_HASH];
	TEE_Result res = TEE_ERROR_GENERIC;

	if (p || t->err)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p) {
		t->err = TEE_ERROR_OUT_OF_MEMORY;
		return NULL;
	}
	memcpy(p->fid, fid, STOR_FID);
	p->level = level;
	p->index = index;
	if (n && level <= d && index < pages_at(n, level)) {
		res = page_expected(s, e, level, index, hash, p->e);
		if (!res)
			res = page_load(s, e, level, index, hash, p->e);
		if (res) {
			free(p);
			t->err = res;
			return NULL;
		}
	} else if (n && index == 0 && level == d + 1) {
		/* The tree grows a level: the old top goes under the new one. */
		memcpy(p->e, e->root, STOR_HASH);
	}
	p->next = t->pages;
	t->pages = p;
	return p;
}

TEE_Result map_set(struct store *s, struct txn *t, const struct stor_entry *e,
		   const uint8_t fid[STOR_FID], uint64_t first, uint64_t n,
		   const struct map_ent *ents)
{
	struct txn_page *p = NULL;

	for (uint64_t i = 0; i < n && !t->err; i++) {
		uint64_t b = first + i;

		if (!p || p->index != b / STOR_FANOUT)
			p = txn_get(s, t, e, fid, 1, (uint32_t)(b / STOR_FANOUT));
		if (p)
			ent_encode(p->e + (b % STOR_FANOUT) * STOR_ENTRY, ents ? &ents[i] : NULL);
	}
	return t->err;
}

/* Shrinking to w: the last page of every level loses entries, the files beyond the end go. */
static void map_shrink(struct store *s, struct txn *t, const struct stor_entry *e,
		       const struct stor_entry *w, const struct map_sink *out)
{
	uint64_t n = map_blocks(w->size);
	unsigned int old_d = e ? map_depth(e->size) : 0;
	unsigned int d = map_depth(w->size);

	for (unsigned int l = 1; l <= (d ? d : 1) && n; l++)
		txn_get(s, t, e, w->fid, (uint8_t)l, (uint32_t)(pages_at(n, l) - 1));
	for (unsigned int l = 1; l <= STOR_LEVELS; l++) {
		uint64_t len = l <= d && n ? (pages_at(n, l) - 1) * STOR_BLOCK +
						 entries_in(n, l, pages_at(n, l) - 1) * STOR_ENTRY
					   : 0;

		if (l <= old_d)
			out->truncate(out->ctx, w->fid, (char)('0' + l), len);
	}
	out->truncate(out->ctx, w->fid, 0, w->size);
}

/*
 * Page p, of level l of w's map of n blocks and depth d: trimmed and
 * hashed, its hash hung under its parent or made the root. False when the
 * parent cannot be had (t->err).
 */
static bool page_finish(struct store *s, struct txn *t, const struct stor_entry *e,
			struct stor_entry *w, struct txn_page *p, unsigned int l, uint64_t n,
			unsigned int d)
{
	struct txn_page *up = NULL;
	uint32_t cnt = 0;

	if (p->index >= pages_at(n, l) || !n) {
		p->zero = true; /* beyond the end now */
		return true;
	}
	cnt = entries_in(n, l, p->index);
	memset(p->e + cnt * STOR_ENTRY, 0, STOR_BLOCK - cnt * STOR_ENTRY);
	if (d == 0) {
		/* One block: its entry is the root, no page is stored. */
		memcpy(w->root, p->e, STOR_ENTRY);
		p->zero = true;
		return true;
	}
	p->zero = all_zero(p->e, cnt * STOR_ENTRY);
	if (p->zero)
		memset(p->hash, 0, STOR_HASH);
	else
		page_hash(w->fid, p->level, p->index, p->e, p->hash);
	if (l == d) {
		memcpy(w->root, p->hash, STOR_HASH);
		return true;
	}
	up = txn_get(s, t, e, w->fid, (uint8_t)(l + 1), p->index / STOR_FANOUT);
	if (!up)
		return false;
	memcpy(up->e + (p->index % STOR_FANOUT) * STOR_ENTRY, p->hash, STOR_HASH);
	return true;
}

/* Bottom up: trim, hash, hang each page of w's map under its parent. False on a failure. */
static bool map_hang(struct store *s, struct txn *t, const struct stor_entry *e,
		     struct stor_entry *w, uint64_t n, unsigned int d)
{
	for (unsigned int l = 1; l <= (d ? d : 1); l++) {
		for (struct txn_page *p = t->pages; p; p = p->next) {
			if (p->level != l || memcmp(p->fid, w->fid, STOR_FID) != 0)
				continue;
			if (!page_finish(s, t, e, w, p, l, n, d))
				return false;
		}
	}
	return true;
}

/* The pages of w's map that changed, as images of their files. */
static void map_images(struct txn *t, const struct stor_entry *w, const struct map_sink *out,
		       uint64_t n, unsigned int d)
{
	for (struct txn_page *p = t->pages; p; p = p->next) {
		if (memcmp(p->fid, w->fid, STOR_FID) != 0)
			continue;
		if (p->level > d)
			p->zero = true; /* above the top now */
		if (p->zero)
			continue;
		out->image(out->ctx, w->fid, (char)('0' + p->level),
			   (uint64_t)p->index * STOR_BLOCK, p->e,
			   entries_in(n, p->level, p->index) * STOR_ENTRY);
	}
}

TEE_Result map_finish(struct store *s, struct txn *t, const struct stor_entry *e,
		      struct stor_entry *w, const struct map_sink *out)
{
	uint64_t old_n = e ? map_blocks(e->size) : 0;
	uint64_t n = map_blocks(w->size);
	unsigned int old_d = e ? map_depth(e->size) : 0;
	unsigned int d = map_depth(w->size);

	if (n < old_n)
		map_shrink(s, t, e, w, out);
	/* Growing past a level: the old top hangs under new ones. */
	if (d > old_d && old_n)
		txn_get(s, t, e, w->fid, (uint8_t)(old_d + 1), 0);
	if (t->err)
		return t->err;
	if (!map_hang(s, t, e, w, n, d))
		return t->err;
	if (!n)
		memset(w->root, 0, STOR_HASH);
	map_images(t, w, out, n, d);
	return t->err;
}

void map_txn_install(struct txn *t)
{
	for (struct txn_page *p = t->pages; p; p = p->next)
		if (!p->zero)
			cache_put(t->s, p->fid, p->level, p->index, p->hash, p->e);
}

void map_txn_free(struct txn *t)
{
	while (t->pages) {
		struct txn_page *p = t->pages;

		t->pages = p->next;
		free(p);
	}
}
