/*
 * The builders of the storage harnesses: the journal "j", the RPMB log and
 * anchor, directory snapshots, sealed with the test keys the way the engine
 * seals them; and the loading of a store with its checks
 * (fuzz_storage_env.h).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_storage_env.h"

/* ---- the journal builder ---- */

static uint64_t align8(uint64_t v)
{
	return (v + 7) & ~7ull;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* One-shot AES-256-GCM under key; aad and in may be empty. */
static void seal(const uint8_t key[STOR_KEY], const uint8_t iv[STOR_IV], const uint8_t *aad,
		 size_t aadlen, const uint8_t *in, uint8_t *out, size_t len, uint8_t tag[STOR_TAG])
{
	EVP_CIPHER_CTX *ctx = crypt_ctx_new(key);
	uint8_t none[1] = {0};

	if (!ctx || crypt_seal(ctx, iv, aad, aadlen, len ? in : none, len ? out : none, len, tag))
		abort();
	EVP_CIPHER_CTX_free(ctx);
}

/* IVs need not be fresh here: only distinct enough to look like the real ones. */
static void test_iv(uint8_t iv[STOR_IV], uint64_t seq, uint8_t what)
{
	memset(iv, what, STOR_IV);
	for (int i = 0; i < 8; i++)
		iv[i] ^= (uint8_t)(seq >> (8 * i));
}

void jb_init(struct jb *b)
{
	memset(b, 0, sizeof(*b));
	b->jend = JF_RECORDS;
	b->counter = 2;
}

static void chain_base(struct jb *b, uint64_t seq, const uint8_t tag[STOR_TAG])
{
	b->chain = true;
	b->seq = b->prev_seq = b->base_seq = seq;
	memcpy(b->tag, tag, STOR_TAG);
	memcpy(b->prev_tag, tag, STOR_TAG);
	memcpy(b->base_tag, tag, STOR_TAG);
	b->jend = JF_RECORDS;
}

void jb_header(struct jb *b, const uint8_t *p, size_t n)
{
	uint8_t raw[JF_HDR_LEN] = {0};
	uint8_t prev[STOR_TAG] = {0};
	struct buf_reader r;
	struct buf_writer w;
	uint8_t slot = 0;
	uint8_t mode = 0;
	uint64_t seq = 0;
	size_t left = 0;

	buf_reader_init(&r, p, n);
	if (!buf_get_u8(&r, &slot) || !buf_get_u8(&r, &mode))
		return;
	left = buf_left(&r);
	switch (mode & 3) {
	case 0:
		if (!buf_get_u64(&r, &seq) || !seq)
			seq = 1;
		left = buf_left(&r);
		buf_get_bytes(&r, prev, left < STOR_TAG ? left : STOR_TAG);
		buf_writer_init(&w, raw, JF_HDR_BODY);
		buf_put_u32(&w, JF_MAGIC_HDR);
		buf_put_u32(&w, JF_VERSION);
		buf_put_u64(&w, seq);
		buf_put_bytes(&w, prev, STOR_TAG);
		if (mode & 0x10 && b->snap) {
			buf_put_u64(&w, b->snap_seq);
			buf_put_u64(&w, b->snap_len);
			buf_put_bytes(&w, b->snap_hash, STOR_HASH);
		}
		break;
	case 1:
		buf_get_bytes(&r, raw, left < JF_HDR_BODY ? left : JF_HDR_BODY);
		seq = le64(raw + 8);
		break;
	default:
		buf_get_bytes(&r, raw, left < JF_HDR_LEN ? left : JF_HDR_LEN);
		break;
	}
	if ((mode & 3) < 2) {
		test_iv(raw + JF_HDR_BODY, seq, 0x48);
		seal(fse_keys()->journal, raw + JF_HDR_BODY, raw, JF_HDR_BODY, NULL, NULL, 0,
		     raw + JF_HDR_BODY + STOR_IV);
		chain_base(b, seq, raw + JF_HDR_BODY + STOR_IV);
	}
	fse_put("j", (uint64_t)(slot & 1) * JF_HDR_SLOT, raw, JF_HDR_LEN);
}

/*
 * A sealed record (seq after prev) into out, which has room for
 * JF_RHDR_LEN + bulk_len + meta_len + STOR_TAG bytes: its length. The tag
 * is the record's chain tag.
 */
static size_t seal_record(uint8_t *out, uint64_t seq, const uint8_t prev[STOR_TAG],
			  const uint8_t *bulk, size_t bulk_len, const uint8_t *meta,
			  size_t meta_len, uint8_t tag[STOR_TAG])
{
	uint8_t iv[STOR_IV];
	uint8_t *aad = malloc(bulk_len + JF_RHDR_LEN);
	struct buf_writer w;

	if (!aad)
		abort();
	test_iv(iv, seq, 0x52);
	buf_writer_init(&w, out, JF_RHDR_LEN);
	buf_put_u32(&w, JF_MAGIC_REC);
	buf_put_u32(&w, JF_VERSION);
	buf_put_u64(&w, seq);
	buf_put_bytes(&w, prev, STOR_TAG);
	buf_put_u64(&w, bulk_len);
	buf_put_u32(&w, (uint32_t)meta_len);
	buf_put_bytes(&w, iv, STOR_IV);
	if (bulk_len)
		memcpy(out + JF_RHDR_LEN, bulk, bulk_len);
	/* The additional data is the bulk, then the head. */
	if (bulk_len)
		memcpy(aad, bulk, bulk_len);
	memcpy(aad + bulk_len, out, JF_RHDR_LEN);
	seal(fse_keys()->journal, iv, aad, bulk_len + JF_RHDR_LEN, meta,
	     out + JF_RHDR_LEN + bulk_len, meta_len, tag);
	memcpy(out + JF_RHDR_LEN + bulk_len + meta_len, tag, STOR_TAG);
	free(aad);
	return JF_RHDR_LEN + bulk_len + meta_len + STOR_TAG;
}

/*
 * The record of p (see jb_record) chained after (*seq, tag), into a new
 * buffer *out: its length. A sealed one moves the chain on.
 */
static size_t build_record(const uint8_t *p, size_t n, uint64_t *seq, uint8_t tag[STOR_TAG],
			   uint8_t **out)
{
	struct buf_reader r;
	uint8_t flags = 0;
	uint16_t bulk_len = 0;
	const uint8_t *bulk = NULL;
	const uint8_t *meta = NULL;
	size_t meta_len = 0;
	size_t len = 0;

	*out = NULL;
	buf_reader_init(&r, p, n);
	if (!buf_get_u8(&r, &flags))
		return 0;
	if (flags & 1) {
		len = buf_left(&r);
		*out = malloc(len ? len : 1);
		if (!*out)
			abort();
		buf_get_bytes(&r, *out, len);
		if (flags & 2 && len >= 8 + 8 + STOR_TAG) {
			struct buf_writer w;

			buf_writer_init(&w, *out + 8, 8 + STOR_TAG);
			buf_put_u64(&w, *seq + 1);
			buf_put_bytes(&w, tag, STOR_TAG);
		}
		return len;
	}
	buf_get_u16(&r, &bulk_len);
	if (bulk_len > buf_left(&r))
		bulk_len = (uint16_t)buf_left(&r);
	buf_get_ptr(&r, &bulk, bulk_len);
	meta_len = buf_left(&r);
	buf_get_ptr(&r, &meta, meta_len);
	*out = malloc(JF_RHDR_LEN + (size_t)bulk_len + meta_len + STOR_TAG);
	if (!*out)
		abort();
	len = seal_record(*out, *seq + 1, tag, bulk, bulk_len, meta, meta_len, tag);
	++*seq;
	return len;
}

void jb_record(struct jb *b, bool log, const uint8_t *p, size_t n)
{
	uint64_t seq = b->seq;
	uint8_t tag[STOR_TAG];
	uint8_t *rec = NULL;
	size_t len = 0;

	if (log) {
		if (b->nlog < JB_LOG_MAX) {
			b->log_rec[b->nlog] = p;
			b->log_len[b->nlog] = n;
			b->nlog++;
		}
		return;
	}
	memcpy(tag, b->tag, STOR_TAG);
	len = build_record(p, n, &seq, tag, &rec);
	if (len && !fse_put("j", b->jend, rec, len)) {
		if (seq != b->seq) {
			b->prev_seq = b->seq;
			memcpy(b->prev_tag, b->tag, STOR_TAG);
			b->seq = seq;
			memcpy(b->tag, tag, STOR_TAG);
		}
		b->jend = align8(b->jend + len);
	}
	free(rec);
}

void jb_snapshot(struct jb *b, const uint8_t *p, size_t n)
{
	char name[PROTO_FS_NAME_MAX + 1];
	struct buf_reader r;
	struct buf_writer w;
	uint8_t mode = 0;
	uint64_t seq = 0;
	uint8_t tset = 0;
	uint64_t toff = 0;
	uint64_t tree = 0;
	uint8_t *file = NULL;
	size_t len = 0;

	buf_reader_init(&r, p, n);
	if (!buf_get_u8(&r, &mode) || !buf_get_u64(&r, &seq))
		return;
	if (mode == 1) {
		len = buf_left(&r);
		file = malloc(len ? len : 1);
		if (!file)
			abort();
		buf_get_bytes(&r, file, len);
	} else {
		const uint8_t *ents = NULL;
		size_t count = 0;
		uint8_t iv[STOR_IV];

		buf_get_u8(&r, &tset);
		buf_get_u64(&r, &toff);
		buf_get_u64(&r, &tree);
		count = buf_left(&r) / ENTRY_BYTES;
		buf_get_ptr(&r, &ents, count * ENTRY_BYTES);
		len = JF_DHDR_LEN + count * ENTRY_BYTES + STOR_TAG;
		file = malloc(len);
		if (!file)
			abort();
		test_iv(iv, seq, 0x44);
		buf_writer_init(&w, file, JF_DHDR_LEN);
		buf_put_u32(&w, JF_MAGIC_DIR);
		buf_put_u32(&w, JF_VERSION);
		buf_put_u64(&w, seq);
		buf_put_u32(&w, (uint32_t)count + (mode == 2 ? 1 : 0));
		buf_put_u8(&w, tset);
		buf_put_u64(&w, toff);
		buf_put_u64(&w, tree);
		buf_put_bytes(&w, iv, STOR_IV);
		seal(fse_keys()->dir, iv, file, JF_DHDR_LEN, ents, file + JF_DHDR_LEN,
		     count * ENTRY_BYTES, file + JF_DHDR_LEN + count * ENTRY_BYTES);
	}
	journal_dir_file(seq, name);
	fse_put(name, 0, file, len);
	b->snap = true;
	b->snap_seq = seq;
	b->snap_len = len;
	crypt_sha256(file, len, b->snap_hash);
	free(file);
}

void jb_anchor(struct jb *b, const uint8_t *p, size_t n)
{
	struct buf_reader r;

	buf_reader_init(&r, p, n);
	buf_get_u8(&r, &b->anchor_flags);
	if (!buf_get_u64(&r, &b->counter))
		b->counter = 2;
	buf_get_u32(&r, &b->log_end);
}

void jb_finish(struct jb *b)
{
	struct rpmb_slot a = {0};
	uint64_t prev_seq = 0;
	uint8_t prev_tag[STOR_TAG];
	uint64_t end = 0;
	uint64_t prev_end = 0;
	size_t cap = RPMB_LOG_OFF;
	uint8_t *slot = NULL;

	if (b->anchor_flags & 32)
		return;
	for (size_t i = 0; i < b->nlog; i++)
		cap += align8(JF_RHDR_LEN + b->log_len[i] + STOR_TAG);
	slot = calloc(1, cap);
	if (!slot)
		abort();
	/* Where the anchor is: the end of the REE chain, or the link before. */
	a.counter = b->counter;
	a.seq = b->anchor_flags & 1 ? b->prev_seq : b->seq;
	memcpy(a.tag, b->anchor_flags & 1 ? b->prev_tag : b->tag, STOR_TAG);
	/* The log chains after it. */
	a.log_seq = prev_seq = a.seq;
	memcpy(a.log_tag, a.tag, STOR_TAG);
	memcpy(prev_tag, a.tag, STOR_TAG);
	for (size_t i = 0; i < b->nlog; i++) {
		uint64_t seq = a.log_seq;
		uint8_t tag[STOR_TAG];
		uint8_t *rec = NULL;
		size_t len = 0;

		memcpy(tag, a.log_tag, STOR_TAG);
		len = build_record(b->log_rec[i], b->log_len[i], &seq, tag, &rec);
		if (!len) {
			free(rec);
			continue; /* an empty command: no record */
		}
		if (len > RPMB_LOG_SIZE - end) {
			free(rec);
			break;
		}
		memcpy(slot + RPMB_LOG_OFF + end, rec, len);
		free(rec);
		prev_end = end;
		end = align8(end + len);
		if (end > RPMB_LOG_SIZE)
			end = RPMB_LOG_SIZE;
		if (seq != a.log_seq) {
			prev_seq = a.log_seq;
			memcpy(prev_tag, a.log_tag, STOR_TAG);
			a.log_seq = seq;
			memcpy(a.log_tag, tag, STOR_TAG);
		}
	}
	a.log_end = end;
	if (b->anchor_flags & 4 && b->nlog) {
		/* A crash between the record and the head that names it. */
		a.log_seq = prev_seq;
		memcpy(a.log_tag, prev_tag, STOR_TAG);
		a.log_end = prev_end;
	}
	if (b->anchor_flags & 8) {
		a.log_seq++;
		a.log_tag[0] ^= 0x5a;
	}
	if (b->anchor_flags & 16)
		a.log_end = b->log_end;
	fse_anchor_encode(slot + (a.counter % 2) * RF_COPY_OFF, &a);
	if (b->anchor_flags & 2) {
		struct rpmb_slot o = {.counter = a.counter - 1};

		o.seq = o.log_seq = b->base_seq;
		memcpy(o.tag, b->base_tag, STOR_TAG);
		memcpy(o.log_tag, b->base_tag, STOR_TAG);
		fse_anchor_encode(slot + (o.counter % 2) * RF_COPY_OFF, &o);
	}
	fse_slot_write(slot, (size_t)(RPMB_LOG_OFF + end));
	free(slot);
	b->slot = true;
}

/* ---- loading a store ---- */

/* The directory must be what the engine promises: sorted, bounded, one entry per id. */
static void check_dir(struct store *s)
{
	if (s->n > STOR_OBJECTS_MAX)
		abort();
	for (size_t i = 0; i < s->n; i++) {
		struct stor_entry *e = s->sorted[i];

		if (i && memcmp(s->sorted[i - 1]->fid, e->fid, STOR_FID) >= 0)
			abort();
		if (e->ns > STOR_NS_RPMB || e->id_len > PROTO_STOR_ID_MAX ||
		    (e->flags & ~ENTRY_CORRUPT) || e->size > STOR_MAX_SIZE ||
		    e->attr_len > PROTO_STOR_ATTR_MAX)
			abort();
		if (dir_find(s, e->ns, e->id, e->id_len) != e)
			abort();
	}
}

/* SHA-256 of the directory and the persistent time; not of flags, which reads may set. */
static void dir_digest(struct store *s, uint8_t out[STOR_HASH])
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	uint8_t ent[ENTRY_BYTES];
	uint8_t time[1 + 8 + 8];
	struct buf_writer w;
	unsigned int len = 0;

	if (!md || !EVP_DigestInit_ex(md, EVP_sha256(), NULL))
		abort();
	for (size_t i = 0; i < s->n; i++) {
		fse_entry_encode(ent, s->sorted[i]);
		ent[STOR_FID + 1] = 0; /* the flags */
		EVP_DigestUpdate(md, ent, sizeof(ent));
	}
	buf_writer_init(&w, time, sizeof(time));
	buf_put_u8(&w, s->time_set);
	buf_put_u64(&w, (uint64_t)s->time_offset_ms);
	buf_put_u64(&w, s->time_ree_ms);
	EVP_DigestUpdate(md, time, sizeof(time));
	if (!EVP_DigestFinal_ex(md, out, &len))
		abort();
	EVP_MD_CTX_free(md);
}

/* What a TA does next with a store it could open: read some objects, go idle. */
/* Any result will do here: what is checked is the state the calls leave. */
static void any_result(TEE_Result res)
{
	(void)res;
}

static void use_store(struct store *s)
{
	uint8_t *buf = malloc(2 * STOR_BLOCK);
	uint8_t *blob = malloc(PROTO_STOR_ATTR_MAX);

	if (!buf || !blob)
		abort();
	for (size_t i = 0; i < s->n && i < 4 && !s->broken; i++) {
		struct stor_entry *e = s->sorted[i];

		if (obj_open(e))
			continue;
		any_result(obj_read(s, e, 0, buf, 2 * STOR_BLOCK));
		any_result(obj_get_attrs(s, e, blob));
		obj_close(e);
	}
	free(buf);
	free(blob);
	any_result(journal_confirm(s));
	any_result(journal_checkpoint(s));
	check_dir(s);
}

/*
 * A store that loaded and went idle whole must load again, the same, from
 * what it left on disk (with the supplicant honest from now on), when its
 * first load was shown its files whole. A READ answered short or failed
 * (fse_hidden) hides the end of "j" or an object's blocks: the first load
 * then rightly leaves out a change whose call never returned (a record
 * past the anchor, a last log record whose blocks it did not find), which
 * the next load, shown everything, takes, or refuses when it is no record
 * the engine writes. Then only the directory's consistency is checked.
 */
static void reload(const uint8_t want[STOR_HASH], bool same)
{
	struct store *s = store_get(fse_uuid());
	uint8_t got[STOR_HASH];
	TEE_Result res = TEE_SUCCESS;

	fse_faults(NULL, 0);
	if (!s)
		abort();
	res = store_lock(s, fse_fs());
	if (res && same)
		abort();
	if (!res) {
		check_dir(s);
		dir_digest(s, got);
		if (same && memcmp(got, want, STOR_HASH))
			abort();
	}
	reefs_settle(fse_fs());
	store_unlock(s);
	store_put(s);
}

TEE_Result fse_load(bool more, size_t *n)
{
	struct store *s = store_get(fse_uuid());
	uint8_t digest[STOR_HASH];
	bool again = false;
	bool whole = false;
	TEE_Result res = TEE_SUCCESS;

	if (!s)
		abort();
	res = store_lock(s, fse_fs());
	whole = !fse_hidden();
	if (n)
		*n = res ? 0 : s->n;
	if (!res) {
		check_dir(s);
		if (more) {
			use_store(s);
			again = !s->broken && !fse_fs()->broken;
			if (again)
				dir_digest(s, digest);
		}
	}
	reefs_settle(fse_fs());
	store_unlock(s);
	store_put(s);
	if (again)
		reload(digest, whole);
	return res;
}
