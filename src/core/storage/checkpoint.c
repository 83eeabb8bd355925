/*
 * Checkpoints of a store's journal: the files changed in place since the
 * last one made durable, a sealed snapshot of the directory d<seq>, the
 * other header slot of "j" naming it, and the RPMB anchor, which empties
 * the log (journal.h).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "log.h"
#include "secure.h"

void journal_dir_file(uint64_t seq, char out[PROTO_FS_NAME_MAX + 1])
{
	snprintf(out, PROTO_FS_NAME_MAX + 1, "d%016llx", (unsigned long long)seq);
}

/* ---- header slots ---- */

void hdr_encode(struct store *s, uint8_t out[HDR_LEN], const struct jhdr *h)
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

bool hdr_decode(struct store *s, const uint8_t in[HDR_LEN], struct jhdr *h)
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

/* ---- directory snapshots ---- */

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

/* ---- checkpoints ---- */

/* Every file an entry of the store may have: what to sync when the list is lost. */
static TEE_Result sync_all(struct store *s, struct fsb *b)
{
	char name[PROTO_FS_NAME_MAX + 1];
	TEE_Result res = TEE_ERROR_GENERIC;

	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < FILE_KINDS; k++) {
			if (!fsb_room(b, 1, OP_BYTES)) {
				res = fsb_run(b);
				if (res)
					goto out;
			}
			file_name(s->sorted[i]->fid, (uint8_t)file_kinds[k], name);
			fsb_sync(b, name);
		}
	}
	res = TEE_SUCCESS;
out:
	return res;
}

/* Step 1 of a checkpoint: what the records since the last one changed in place, synced. */
static TEE_Result sync_dirty(struct store *s, struct fsb *b)
{
	char name[PROTO_FS_NAME_MAX + 1];
	TEE_Result res = TEE_ERROR_GENERIC;

	if (s->dirty.lost) {
		res = sync_all(s, b);
		if (res)
			goto out;
	}
	for (size_t i = 0; i < s->dirty.n; i++) {
		file_name(s->dirty.fid[i], s->dirty.fid[i][STOR_FID], name);
		if (!fsb_room(b, 2, OP_BYTES)) {
			res = fsb_run(b);
			if (res)
				goto out;
		}
		fsb_sync(b, name);
	}
	fsb_syncdir(b);
	res = fsb_run(b);
out:
	return res;
}

TEE_Result checkpoint_write(struct store *s)
{
	char name[PROTO_FS_NAME_MAX + 1];
	uint8_t hdr[HDR_LEN];
	struct jhdr h = {.seq = s->seq + 1};
	uint64_t old_dir = s->dir_seq;
	struct fsb b;
	TEE_Result res = TEE_ERROR_GENERIC;
	int slot = 1 - s->hslot;

	/* 1. What the records since the last checkpoint changed in place. */
	fsb_init(&b, s->fs, s->dir);
	res = sync_dirty(s, &b);
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

TEE_Result journal_checkpoint(struct store *s)
{
	if (!s->loaded || s->broken || !s->since_ckpt || s->readonly)
		return s->broken;
	return checkpoint_write(s);
}

/* ---- read back at recovery, and a new store ---- */

/* The clear head of a directory snapshot. */
struct dhdr {
	uint32_t magic;
	uint32_t version;
	uint64_t seq;
	uint32_t count; /* entries */
	uint8_t tset;	/* the persistent time is set */
	uint64_t toff;
	uint64_t tree;
	uint8_t iv[STOR_IV];
};

/* Decodes a snapshot's head; false when it is not one. */
static bool dhdr_decode(const uint8_t head[DHDR_LEN], struct dhdr *d)
{
	struct buf_reader r;

	buf_reader_init(&r, head, DHDR_LEN);
	buf_get_u32(&r, &d->magic);
	buf_get_u32(&r, &d->version);
	buf_get_u64(&r, &d->seq);
	buf_get_u32(&r, &d->count);
	buf_get_u8(&r, &d->tset);
	buf_get_u64(&r, &d->toff);
	buf_get_u64(&r, &d->tree);
	buf_get_bytes(&r, d->iv, STOR_IV);
	return buf_done(&r) && d->magic == J_MAGIC_DIR && d->version == J_VERSION && d->tset <= 1;
}

/* The count entries of a snapshot's plaintext into the directory (unique ids). */
static TEE_Result snapshot_entries(struct store *s, const uint8_t *pt, size_t body, uint32_t count)
{
	struct buf_reader r;
	TEE_Result res = TEE_ERROR_CORRUPT_OBJECT;

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
	res = TEE_SUCCESS;
out:
	return res;
}

TEE_Result dir_snapshot_load(struct store *s, struct jreader *j, const struct jhdr *h)
{
	uint8_t head[DHDR_LEN];
	uint8_t tag[STOR_TAG];
	uint8_t hash[STOR_HASH];
	uint8_t *ct = NULL;
	uint8_t *pt = NULL;
	struct dhdr d;
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
	if (!dhdr_decode(head, &d) || d.seq != h->dir_seq ||
	    (uint64_t)d.count * ENTRY_BYTES != body)
		goto out;
	if (!EVP_CipherInit_ex(gcm, NULL, NULL, NULL, d.iv, 0) ||
	    !rec_finish(gcm, head, DHDR_LEN, ct, (uint32_t)body, tag, pt))
		goto out;
	res = snapshot_entries(s, pt, body, d.count);
	if (res)
		goto out;
	s->time_set = d.tset;
	s->time_offset_ms = (int64_t)d.toff;
	s->time_ree_ms = d.tree;
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

TEE_Result journal_create(struct store *s, bool have_slot)
{
	struct jhdr h = {.seq = 1};
	uint8_t hdr[HDR_LEN];
	struct fsb b;
	TEE_Result res = TEE_ERROR_GENERIC;

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
