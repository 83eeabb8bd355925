/*
 * Fuzzes the reading of an object from the files the supplicant hands back:
 * its map pages (page_load, page_expected and map_get, src/core/storage/
 * map.c), its data blocks (fetch and obj_read), its attribute blob
 * (obj_get_attrs) and the recovery check of blocks written in place
 * (obj_check_blocks, object.c). The input is size:u64, then commands, each
 * cmd:u8 len:u16 and len bytes:
 *
 *   cmd % 8 = 0  block b:u32 (mod the blocks of the object): the bytes are
 *                its plaintext, sealed under the test FEK; its map entry is
 *                set, and the pages above it are hashed up to the root
 *             1  raw bytes at block b:u32 of the data file
 *             2  block b:u32's map entry: 32 bytes as they are
 *             3  page level:u8 index:u32 pin:u8 and its bytes: with pin,
 *                they are the page (its parent hashes them); else they
 *                overwrite it in its file once the tree is built
 *             4  the attribute blob: mode:u8 (0 sealed, 1 raw, 2 sealed
 *                but one byte longer in the entry) and its bytes
 *             5  a read: pos:u32 len:u32
 *             6  a check of blocks written in place: first:u32 n:u16
 *             7  the fault schedule of the supplicant
 *
 * The oracle: a read that succeeds returns the plaintext of the blocks
 * that were sealed and zeros for holes; a check that passes covers sealed
 * blocks only; attributes that open are the ones sealed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_storage_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAP_PAGES 48
#define MAP_BLOCKS 48
#define MAP_OPS 8
#define READ_MAX (1024u * 1024 + 2 * STOR_BLOCK)

enum { CMD_BLOCK, CMD_RAWBLOCK, CMD_ENT, CMD_PAGE, CMD_ATTR, CMD_READ, CMD_CHECK, CMD_FAULTS };

struct page {
	uint8_t level;
	uint32_t index;
	uint8_t e[STOR_BLOCK];
	size_t stored; /* bytes of it in its file */
	bool pinned;
};

struct sealed {
	uint64_t b;
	uint8_t ivtag[STOR_IV + STOR_TAG];
	uint8_t plain[STOR_BLOCK];
};

struct op {
	uint8_t cmd;
	uint32_t a;
	uint32_t n;
};

/* A raw page, written over the built one. */
struct over {
	uint8_t level;
	uint32_t index;
	const uint8_t *p;
	size_t n;
};

static struct {
	uint64_t size;
	uint64_t nblk; /* blocks of the object */
	unsigned int depth;
	uint8_t root[STOR_HASH];
	struct page pages[MAP_PAGES];
	size_t npages;
	struct sealed sealed[MAP_BLOCKS];
	size_t nsealed;
	struct op ops[MAP_OPS];
	size_t nops;
	struct over over[MAP_OPS];
	size_t nover;
	uint32_t attr_len;
	uint8_t attr_iv[STOR_IV];
	uint8_t attr_tag[STOR_TAG];
	const uint8_t *attr_plain; /* sealed: what must come back */
	uint64_t iv_counter;
} m;

static const uint8_t fid[STOR_FID] = {0x6d, 0x61, 0x70, 0x66, 0x75, 0x7a, 0x7a};
static const uint8_t fek[STOR_KEY] = {0x66, 0x65, 0x6b};

/* ---- the object's layout (docs/storage.md, map.c) ---- */

static uint32_t block_len(uint64_t b)
{
	uint64_t start = b * STOR_BLOCK;

	if (start >= m.size)
		return 0;
	return m.size - start < STOR_BLOCK ? (uint32_t)(m.size - start) : STOR_BLOCK;
}

static uint64_t pages_at(unsigned int level)
{
	uint64_t n = m.nblk;

	for (unsigned int i = 0; i < level; i++)
		n = (n + STOR_FANOUT - 1) / STOR_FANOUT;
	return n;
}

static uint32_t entries_in(unsigned int level, uint64_t p)
{
	uint64_t children = pages_at(level - 1);
	uint64_t left = children > p * STOR_FANOUT ? children - p * STOR_FANOUT : 0;

	return left > STOR_FANOUT ? STOR_FANOUT : (uint32_t)left;
}

/* SHA-256 of "swtee-map" fid level index and the whole page. */
static void page_hash(uint8_t level, uint32_t index, const uint8_t e[STOR_BLOCK],
		      uint8_t out[STOR_HASH])
{
	static uint8_t buf[9 + STOR_FID + 1 + 4 + STOR_BLOCK];
	struct buf_writer w;

	buf_writer_init(&w, buf, sizeof(buf));
	buf_put_bytes(&w, "swtee-map", 9);
	buf_put_bytes(&w, fid, STOR_FID);
	buf_put_u8(&w, level);
	buf_put_u32(&w, index);
	buf_put_bytes(&w, e, STOR_BLOCK);
	crypt_sha256(buf, sizeof(buf), out);
}

static void seal(const uint8_t *aad, size_t aadlen, const uint8_t *in, uint8_t *out, size_t len,
		 uint8_t iv[STOR_IV], uint8_t tag[STOR_TAG])
{
	EVP_CIPHER_CTX *ctx = crypt_ctx_new(fek);
	uint8_t none[1] = {0};

	memset(iv, 0x49, STOR_IV);
	memcpy(iv, &m.iv_counter, sizeof(m.iv_counter));
	m.iv_counter++;
	if (!ctx || crypt_seal(ctx, iv, aad, aadlen, len ? in : none, len ? out : none, len, tag))
		abort();
	EVP_CIPHER_CTX_free(ctx);
}

static struct page *page_get(uint8_t level, uint32_t index)
{
	struct page *p = NULL;

	for (size_t i = 0; i < m.npages; i++)
		if (m.pages[i].level == level && m.pages[i].index == index)
			return &m.pages[i];
	if (m.npages == MAP_PAGES)
		return NULL;
	p = &m.pages[m.npages++];
	memset(p, 0, sizeof(*p));
	p->level = level;
	p->index = index;
	p->stored = (size_t)entries_in(level, index) * STOR_ENTRY;
	return p;
}

/* Where block b's map entry lives: the root when the object has one block. */
static uint8_t *entry_slot(uint64_t b)
{
	struct page *p = NULL;

	if (!m.depth)
		return b ? NULL : m.root;
	p = page_get(1, (uint32_t)(b / STOR_FANOUT));
	return p ? p->e + (b % STOR_FANOUT) * STOR_ENTRY : NULL;
}

static void add_block(uint32_t b, const uint8_t *p, size_t n)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t aad[STOR_FID + 8];
	uint8_t ct[STOR_BLOCK];
	struct sealed *s = NULL;
	struct buf_writer w;
	uint8_t *slot = NULL;
	uint32_t len = 0;

	if (!m.nblk)
		return;
	b %= m.nblk;
	slot = entry_slot(b);
	for (size_t i = 0; i < m.nsealed && !s; i++)
		if (m.sealed[i].b == b)
			s = &m.sealed[i];
	if (!s && m.nsealed < MAP_BLOCKS)
		s = &m.sealed[m.nsealed++];
	if (!slot || !s)
		return;
	len = block_len(b);
	s->b = b;
	memset(s->plain, 0, sizeof(s->plain));
	memcpy(s->plain, p, n < len ? n : len);
	buf_writer_init(&w, aad, sizeof(aad));
	buf_put_bytes(&w, fid, STOR_FID);
	buf_put_u64(&w, b);
	seal(aad, sizeof(aad), s->plain, ct, len, s->ivtag, s->ivtag + STOR_IV);
	entry_file(fid, 0, name);
	fse_put(name, (uint64_t)b * STOR_BLOCK, ct, len);
	buf_writer_init(&w, slot, STOR_ENTRY);
	buf_put_bytes(&w, s->ivtag, STOR_IV + STOR_TAG);
	buf_put_u32(&w, 1);
}

static void add_attr(const uint8_t *p, size_t n)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t aad[4 + STOR_FID] = {'a', 't', 't', 'r'};
	uint8_t *ct = NULL;
	uint8_t mode = 0;

	if (!n)
		return;
	mode = p[0] % 3;
	p++;
	n--;
	if (n > PROTO_STOR_ATTR_MAX - 1)
		n = PROTO_STOR_ATTR_MAX - 1;
	entry_file(fid, 'a', name);
	m.attr_len = (uint32_t)n + (mode == 2 ? 1 : 0);
	m.attr_plain = NULL;
	if (mode == 1) {
		fse_put(name, 0, p, n);
		return;
	}
	ct = malloc(n ? n : 1);
	if (!ct)
		abort();
	memcpy(aad + 4, fid, STOR_FID);
	seal(aad, sizeof(aad), p, ct, n, m.attr_iv, m.attr_tag);
	fse_put(name, 0, ct, n);
	free(ct);
	m.attr_plain = mode == 0 ? p : NULL;
}

/* Hashes every page into its parent, bottom up, to the root; writes them out. */
static void build_tree(void)
{
	char name[PROTO_FS_NAME_MAX + 1];

	for (unsigned int l = 1; l <= m.depth; l++) {
		for (size_t i = 0; i < m.npages; i++) {
			struct page *p = &m.pages[i];
			struct page *up = NULL;
			uint8_t h[STOR_HASH];

			if (p->level != l || p->index >= pages_at(l))
				continue;
			page_hash(p->level, p->index, p->e, h);
			if (l == m.depth) {
				memcpy(m.root, h, STOR_HASH);
				continue;
			}
			up = page_get((uint8_t)(l + 1), p->index / STOR_FANOUT);
			if (up)
				memcpy(up->e + (p->index % STOR_FANOUT) * STOR_ENTRY, h, STOR_HASH);
		}
	}
	for (size_t i = 0; i < m.npages; i++) {
		struct page *p = &m.pages[i];

		if (p->level > m.depth)
			continue;
		entry_file(fid, (char)('0' + p->level), name);
		fse_put(name, (uint64_t)p->index * STOR_BLOCK, p->e, p->stored);
	}
	for (size_t i = 0; i < m.nover; i++) {
		entry_file(fid, (char)('0' + m.over[i].level), name);
		fse_put(name, (uint64_t)m.over[i].index * STOR_BLOCK, m.over[i].p, m.over[i].n);
	}
}

static void parse(const uint8_t *data, size_t size)
{
	struct buf_reader r;

	/* The page and block tables are cleared as they are filled. */
	m.npages = m.nsealed = m.nops = m.nover = 0;
	m.attr_len = 0;
	m.attr_plain = NULL;
	memset(m.root, 0, STOR_HASH);
	buf_reader_init(&r, data, size);
	buf_get_u64(&r, &m.size);
	m.size %= STOR_MAX_SIZE + 1;
	m.nblk = map_blocks(m.size);
	m.depth = map_depth(m.size);
	while (buf_left(&r)) {
		struct buf_reader c;
		const uint8_t *p = NULL;
		uint16_t len = 0;
		uint8_t cmd = 0;
		uint32_t a = 0;
		uint32_t n = 0;
		uint8_t level = 0;
		uint8_t pin = 0;
		uint16_t k = 0;

		buf_get_u8(&r, &cmd);
		buf_get_u16(&r, &len);
		if (len > buf_left(&r))
			len = (uint16_t)buf_left(&r);
		if (!buf_get_sub(&r, &c, len))
			break;
		switch (cmd % 8) {
		case CMD_BLOCK:
		case CMD_RAWBLOCK:
		case CMD_ENT:
			if (!buf_get_u32(&c, &a))
				break;
			n = (uint32_t)buf_left(&c);
			buf_get_ptr(&c, &p, n);
			if (cmd % 8 == CMD_BLOCK) {
				add_block(a, p, n);
			} else if (cmd % 8 == CMD_RAWBLOCK) {
				char name[PROTO_FS_NAME_MAX + 1];

				entry_file(fid, 0, name);
				fse_put(name, (uint64_t)a * STOR_BLOCK, p, n);
			} else if (m.nblk && entry_slot(a % m.nblk)) {
				memcpy(entry_slot(a % m.nblk), p, n < STOR_ENTRY ? n : STOR_ENTRY);
			}
			break;
		case CMD_PAGE:
			if (!buf_get_u8(&c, &level) || !buf_get_u32(&c, &a) ||
			    !buf_get_u8(&c, &pin))
				break;
			level = (uint8_t)(1 + level % STOR_LEVELS);
			n = (uint32_t)buf_left(&c);
			if (n > STOR_BLOCK)
				n = STOR_BLOCK;
			buf_get_ptr(&c, &p, n);
			if (pin & 1) {
				struct page *pg = page_get(level, a);

				if (pg) {
					memset(pg->e, 0, STOR_BLOCK);
					memcpy(pg->e, p, n);
					pg->stored = n;
					pg->pinned = true;
				}
			} else if (m.nover < MAP_OPS) {
				m.over[m.nover++] = (struct over){level, a, p, n};
			}
			break;
		case CMD_ATTR:
			n = (uint32_t)buf_left(&c);
			buf_get_ptr(&c, &p, n);
			add_attr(p, n);
			break;
		case CMD_READ:
		case CMD_CHECK:
			buf_get_u32(&c, &a);
			if (cmd % 8 == CMD_READ) {
				buf_get_u32(&c, &n);
			} else {
				buf_get_u16(&c, &k);
				n = k;
			}
			if (m.nops < MAP_OPS)
				m.ops[m.nops++] = (struct op){(uint8_t)(cmd % 8), a, n};
			break;
		default:
			n = (uint32_t)buf_left(&c);
			buf_get_ptr(&c, &p, n);
			fse_faults(p, n);
			break;
		}
	}
}

/* ---- the oracle ---- */

/* The sealed block whose iv and tag are at ivtag, for block b; NULL when none. */
static const struct sealed *sealed_as(uint64_t b, const uint8_t *ivtag)
{
	for (size_t i = 0; i < m.nsealed; i++)
		if (m.sealed[i].b == b && !memcmp(m.sealed[i].ivtag, ivtag, STOR_IV + STOR_TAG))
			return &m.sealed[i];
	return NULL;
}

/* Block b as a read that passed must return it (the whole 4096 bytes, zeros past its end). */
static void expect_block(uint64_t b, uint8_t out[STOR_BLOCK])
{
	const uint8_t *ent = NULL;
	struct page *p = NULL;
	const struct sealed *s = NULL;

	memset(out, 0, STOR_BLOCK);
	if (!m.depth) {
		ent = b ? NULL : m.root;
	} else {
		for (size_t i = 0; i < m.npages && !p; i++)
			if (m.pages[i].level == 1 && m.pages[i].index == b / STOR_FANOUT)
				p = &m.pages[i];
		ent = p ? p->e + (b % STOR_FANOUT) * STOR_ENTRY : NULL;
	}
	if (!ent || !(ent[STOR_IV + STOR_TAG] & 1))
		return; /* a hole */
	s = sealed_as(b, ent);
	if (!s)
		abort(); /* no block was sealed with that entry: it cannot have opened */
	memcpy(out, s->plain, block_len(b));
}

static void check_read(uint64_t pos, const uint8_t *got, size_t len)
{
	uint8_t want[STOR_BLOCK];
	uint64_t have = UINT64_MAX;

	if (pos >= m.size)
		return;
	if (len > m.size - pos)
		len = (size_t)(m.size - pos);
	for (size_t i = 0; i < len; i++) {
		uint64_t b = (pos + i) / STOR_BLOCK;

		if (b != have) {
			expect_block(b, want);
			have = b;
		}
		if (got[i] != want[(pos + i) % STOR_BLOCK])
			abort();
	}
}

static TEE_Result run_ops(struct store *s, struct stor_entry *e, uint8_t *buf, uint8_t *blob)
{
	TEE_Result first = TEE_SUCCESS;

	for (size_t i = 0; i < m.nops; i++) {
		const struct op *op = &m.ops[i];
		TEE_Result res = TEE_SUCCESS;

		if (op->cmd == CMD_READ) {
			size_t len = op->n % (READ_MAX + 1);

			res = obj_read(s, e, op->a, buf, len);
			if (!res)
				check_read(op->a, buf, len);
		} else {
			uint32_t n = op->n % (1024 + 1);
			uint8_t *ivtags = calloc(n ? n : 1, STOR_IV + STOR_TAG);

			if (!ivtags)
				abort();
			for (uint32_t k = 0; k < n; k++)
				for (size_t j = 0; j < m.nsealed; j++)
					if (m.sealed[j].b == (uint64_t)op->a + k)
						memcpy(ivtags + (size_t)k * (STOR_IV + STOR_TAG),
						       m.sealed[j].ivtag, STOR_IV + STOR_TAG);
			res = obj_check_blocks(s, e, op->a, n, ivtags);
			for (uint32_t k = 0; !res && k < n; k++)
				if (!sealed_as((uint64_t)op->a + k,
					       ivtags + (size_t)k * (STOR_IV + STOR_TAG)))
					abort();
			free(ivtags);
		}
		if (res && !first)
			first = res;
	}
	if (m.attr_len) {
		TEE_Result res = obj_get_attrs(s, e, blob);

		if (!res && m.attr_plain && memcmp(blob, m.attr_plain, m.attr_len))
			abort();
		if (!res && !m.attr_plain && m.attr_len)
			abort(); /* a raw or mislabelled blob cannot open */
		if (res && !first)
			first = res;
	}
	return first;
}

static TEE_Result run(const uint8_t *data, size_t size)
{
	static uint8_t *buf;
	static uint8_t *blob;
	struct stor_entry *e = NULL;
	struct store *s = NULL;
	TEE_Result res = TEE_SUCCESS;

	if (!buf) {
		buf = malloc(READ_MAX);
		blob = malloc(PROTO_STOR_ATTR_MAX);
		if (!buf || !blob)
			abort();
	}
	fse_reset();
	fse_mkdir();
	parse(data, size);
	build_tree();
	e = entry_new();
	s = store_get(fse_uuid());
	if (!e || !s)
		abort();
	memcpy(e->fid, fid, STOR_FID);
	memcpy(e->fek, fek, STOR_KEY);
	e->id_len = 1;
	e->size = m.size;
	memcpy(e->root, m.root, STOR_HASH);
	e->attr_len = m.attr_len;
	memcpy(e->attr_iv, m.attr_iv, STOR_IV);
	memcpy(e->attr_tag, m.attr_tag, STOR_TAG);
	s->fs = fse_fs();
	res = obj_open(e);
	if (!res)
		res = run_ops(s, e, buf, blob);
	reefs_settle(fse_fs());
	obj_close(e);
	entry_free(e);
	s->fs = NULL;
	store_put(s);
	return res;
}

/*
 * A two-level object with two blocks sealed, read whole, and its attributes
 * must come back: otherwise the builders no longer match the engine.
 */
static void self_check(void)
{
	uint8_t in[256];
	struct buf_writer w;

	buf_writer_init(&w, in, sizeof(in));
	buf_put_u64(&w, 129 * STOR_BLOCK + 100);
	for (uint32_t b = 0; b < 130; b += 129) {
		buf_put_u8(&w, CMD_BLOCK);
		buf_put_u16(&w, 4 + 5);
		buf_put_u32(&w, b);
		buf_put_bytes(&w, b ? "world" : "hello", 5);
	}
	buf_put_u8(&w, CMD_ATTR);
	buf_put_u16(&w, 1 + 4);
	buf_put_u8(&w, 0);
	buf_put_bytes(&w, "attr", 4);
	buf_put_u8(&w, CMD_READ);
	buf_put_u16(&w, 8);
	buf_put_u32(&w, 0);
	buf_put_u32(&w, 130 * STOR_BLOCK);
	buf_put_u8(&w, CMD_CHECK);
	buf_put_u16(&w, 6);
	buf_put_u32(&w, 129);
	buf_put_u16(&w, 1);
	if (run(in, buf_written(&w)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool checked;

	fse_init();
	if (!checked) {
		self_check();
		checked = true;
	}
	run(data, size);
	return 0;
}
