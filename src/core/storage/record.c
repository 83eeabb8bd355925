/*
 * A journal record: its head, its operations (meta), and how they are
 * carried out, on the files (after a commit, and again at recovery) and on
 * the store in memory. journal.h has the format.
 */

#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "secure.h"

const char file_kinds[FILE_KINDS] = {0, '1', '2', '3', 'a'};

void rhead_encode(uint8_t out[RHDR_LEN], const struct rhead *h)
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

bool rhead_decode(const uint8_t in[RHDR_LEN], uint64_t seq, const uint8_t prev[STOR_TAG],
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

bool kind_ok(uint8_t k)
{
	for (size_t i = 0; i < FILE_KINDS; i++)
		if (k == (uint8_t)file_kinds[i])
			return true;
	return false;
}

bool meta_skip(struct buf_reader *r, uint8_t op)
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

uint32_t meta_file_ops(const uint8_t *meta, size_t len)
{
	struct buf_reader r;
	uint32_t n = 0;

	buf_reader_init(&r, meta, len);
	while (buf_left(&r)) {
		uint8_t op = 0;

		buf_get_u8(&r, &op);
		if (op == META_REMOVE)
			n += FILE_KINDS;
		else if (op == META_COPY || op == META_TRUNCATE)
			n++;
		if (!meta_skip(&r, op))
			return PROTO_FS_OPS_MAX + 1;
	}
	return n;
}

bool rec_finish(EVP_CIPHER_CTX *gcm, const uint8_t *head, size_t head_len, const uint8_t *ct,
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

/* ---- reading a REE file back ---- */

bool jr_get(struct jreader *j, uint64_t off, void *dst, size_t n, TEE_Result *io)
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

/* ---- the dirty set: files changed in place since the checkpoint ---- */

void dirty_add(struct store *s, const uint8_t fid[STOR_FID], uint8_t kind)
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

/* ---- applying a record's operations ---- */

void apply_run(struct apply *a)
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

/* META_PUT: an entry, new or changed. */
static bool apply_put(struct store *s, struct buf_reader *r, bool mem)
{
	struct stor_entry *tmp = entry_new();
	struct stor_entry *e = NULL;
	struct stor_entry *other = NULL;
	bool ok = false;

	if (!tmp || !entry_get(r, tmp))
		goto out;
	e = mem ? dir_find_fid(s, tmp->fid) : NULL;
	other = e ? dir_find(s, tmp->ns, tmp->id, tmp->id_len) : NULL;
	if (other && other != e)
		goto out; /* renamed onto another object's id: ids are unique */
	if (e) {
		entry_update(s, e, tmp);
	} else if (mem) {
		tmp->hw = map_blocks(tmp->size);
		if (dir_find(s, tmp->ns, tmp->id, tmp->id_len) || dir_insert(s, tmp))
			goto out;
		tmp = NULL; /* transferred */
	}
	ok = true;
out:
	entry_free(tmp);
	return ok;
}

/* META_DEL (the entry) or META_REMOVE (its files). */
static bool apply_remove(struct store *s, struct apply *a, struct buf_reader *r, uint8_t op,
			 bool mem)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t fid[STOR_FID];

	if (!buf_get_bytes(r, fid, STOR_FID))
		return false;
	if (op == META_DEL && mem) {
		struct stor_entry *e = dir_find_fid(s, fid);

		if (!e || e->open)
			return false;
		map_cache_drop(s, fid);
		dir_remove(s, e);
	}
	for (size_t i = 0; a && op == META_REMOVE && i < FILE_KINDS; i++) {
		file_name(fid, (uint8_t)file_kinds[i], name);
		fsb_remove(a->b, name);
	}
	return true;
}

/* The file an operation names and the offset in it: (fid, kind, off), checked. */
static bool get_file_at(struct buf_reader *r, uint8_t fid[STOR_FID], uint8_t *kind, uint64_t *off)
{
	buf_get_bytes(r, fid, STOR_FID);
	buf_get_u8(r, kind);
	buf_get_u64(r, off);
	return buf_ok(r) && kind_ok(*kind) && *off <= STOR_MAX_SIZE + STOR_BLOCK;
}

/* META_COPY: bytes of the record's bulk into a file. */
static bool apply_copy(struct store *s, struct apply *a, struct buf_reader *r, bool mem)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t fid[STOR_FID];
	uint8_t kind = 0;
	uint64_t v = 0;
	uint64_t off = 0;
	uint32_t n = 0;

	buf_get_u64(r, &v);
	buf_get_u32(r, &n);
	if (!get_file_at(r, fid, &kind, &off))
		return false;
	if (a) {
		if (v > a->bulk_len || n > a->bulk_len - v)
			return false;
		file_name(fid, kind, name);
		apply_image(a, v, n, name, off);
	}
	if (mem)
		dirty_add(s, fid, kind);
	return true;
}

/* META_TRUNCATE: a file cut to a length. */
static bool apply_truncate(struct store *s, struct apply *a, struct buf_reader *r, bool mem)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t fid[STOR_FID];
	uint8_t kind = 0;
	uint64_t off = 0;

	if (!get_file_at(r, fid, &kind, &off))
		return false;
	/*
	 * Replayed, a truncation of a data file could cut what a later
	 * record wrote there in place: it is left out (a longer data file
	 * holds only bytes no map entry refers to). A map file is written
	 * by records' images alone, which replay in order after it, and
	 * must end where the cut left it: the entries of a page past the
	 * end of its file read as holes (map.c), and a later truncation up
	 * relies on that, writing no page. Left out, the replay of an
	 * earlier, longer image of the page would show its old entries
	 * there, and the object would fail its check.
	 */
	if (a && (!a->replay || kind != 0)) {
		file_name(fid, kind, name);
		fsb_truncate(a->b, name, off);
	}
	if (mem)
		dirty_add(s, fid, kind);
	return true;
}

/* META_DIRECT: checked at recovery (direct_landed); only skipped here. */
static bool apply_direct(struct buf_reader *r)
{
	uint8_t fid[STOR_FID];
	uint64_t first = 0;
	uint32_t n = 0;

	buf_get_bytes(r, fid, STOR_FID);
	buf_get_u64(r, &first);
	buf_get_u32(r, &n);
	return buf_ok(r) && n && n <= DV_MAX && buf_skip(r, (size_t)n * DV_BYTES);
}

/* META_TIME: the TA's persistent time offset. */
static bool apply_time(struct store *s, struct buf_reader *r, bool mem)
{
	uint64_t offset = 0;
	uint64_t ree = 0;

	buf_get_u64(r, &offset);
	buf_get_u64(r, &ree);
	if (!buf_ok(r))
		return false;
	if (mem) {
		s->time_set = true;
		s->time_offset_ms = (int64_t)offset;
		s->time_ree_ms = ree;
	}
	return true;
}

bool meta_apply(struct store *s, struct apply *a, const uint8_t *meta, size_t len, bool mem)
{
	struct buf_reader r;
	bool ok = true;

	buf_reader_init(&r, meta, len);
	while (ok && buf_left(&r)) {
		uint8_t op = 0;

		if (a && !fsb_room(a->b, FILE_KINDS, OP_BYTES))
			apply_run(a);
		buf_get_u8(&r, &op);
		switch (op) {
		case META_PUT:
			ok = apply_put(s, &r, mem);
			break;
		case META_DEL:
		case META_REMOVE:
			ok = apply_remove(s, a, &r, op, mem);
			break;
		case META_COPY:
			ok = apply_copy(s, a, &r, mem);
			break;
		case META_TRUNCATE:
			ok = apply_truncate(s, a, &r, mem);
			break;
		case META_CONFIRM:
			break;
		case META_DIRECT:
			ok = apply_direct(&r);
			break;
		case META_TIME:
			ok = apply_time(s, &r, mem);
			break;
		default:
			ok = false;
			break;
		}
	}
	return ok && buf_done(&r);
}
