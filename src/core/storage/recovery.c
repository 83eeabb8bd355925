/*
 * Recovery of a store at load: the newest header slot whose chain reaches
 * the RPMB anchor, the directory snapshot it names, then the REE journal's
 * records and the RPMB log's replayed (journal.h). The REE side is hostile.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "log.h"
#include "secure.h"

/* A record as recovery reads it. */
struct rec {
	struct rhead h;
	uint64_t end; /* REE: offset after it */
	uint8_t tag[STOR_TAG];
	uint8_t *meta; /* with want: the operations, in clear */
	uint8_t *bulk; /* with want, from the RPMB log: its bulk */
};

static void rec_free(struct rec *r)
{
	if (r->meta) {
		secure_wipe(r->meta, r->h.meta);
		free(r->meta);
	}
	r->meta = NULL;
	r->bulk = NULL;
}

/* Reads and checks the REE record at off; false when there is no valid one. */
static bool ree_rec_read(struct jreader *j, uint64_t off, uint64_t seq,
			 const uint8_t prev[STOR_TAG], bool want, struct rec *rc, TEE_Result *io)
{
	uint8_t head[RHDR_LEN];
	uint8_t *chunk = NULL;
	uint8_t *ct = NULL;
	uint8_t *pt = NULL;
	EVP_CIPHER_CTX *gcm = NULL;
	bool ok = false;
	int outl = 0;

	memset(rc, 0, sizeof(*rc));
	if (!jr_get(j, off, head, sizeof(head), io) || !rhead_decode(head, seq, prev, &rc->h))
		return false;
	chunk = malloc(FS_READ_AREA_LEN);
	ct = malloc((size_t)rc->h.meta + 1);
	pt = malloc((size_t)rc->h.meta + 1);
	gcm = crypt_ctx_new(j->s->keys->journal);
	if (!chunk || !ct || !pt || !gcm || !EVP_CipherInit_ex(gcm, NULL, NULL, NULL, rc->h.iv, 0))
		goto out;
	for (uint64_t done = 0; done < rc->h.bulk;) {
		size_t n = rc->h.bulk - done < FS_READ_AREA_LEN ? (size_t)(rc->h.bulk - done)
								: FS_READ_AREA_LEN;

		if (!jr_get(j, off + RHDR_LEN + done, chunk, n, io) ||
		    !EVP_CipherUpdate(gcm, NULL, &outl, chunk, (int)n))
			goto out;
		done += n;
	}
	if (!jr_get(j, off + RHDR_LEN + rc->h.bulk, ct, rc->h.meta, io) ||
	    !jr_get(j, off + RHDR_LEN + rc->h.bulk + rc->h.meta, rc->tag, STOR_TAG, io) ||
	    !rec_finish(gcm, head, RHDR_LEN, ct, rc->h.meta, rc->tag, pt))
		goto out;
	rc->end = off + RHDR_LEN + rc->h.bulk + rc->h.meta + STOR_TAG;
	if (want) {
		rc->meta = pt;
		pt = NULL; /* transferred */
	}
	ok = true;
out:
	EVP_CIPHER_CTX_free(gcm);
	free(chunk);
	free(ct);
	if (pt) {
		secure_wipe(pt, (size_t)rc->h.meta + 1);
		free(pt);
	}
	return ok;
}

/* Checks the RPMB log record at off of log (trusted memory); false when there is none. */
static bool log_rec_read(struct store *s, const uint8_t *log, uint64_t off, uint64_t seq,
			 const uint8_t prev[STOR_TAG], bool want, struct rec *rc)
{
	uint8_t *pt = NULL;
	EVP_CIPHER_CTX *gcm = NULL;
	uint64_t total = 0;
	bool ok = false;
	int outl = 0;

	memset(rc, 0, sizeof(*rc));
	if (off > RPMB_LOG_SIZE - RHDR_LEN || !rhead_decode(log + off, seq, prev, &rc->h))
		return false;
	total = RHDR_LEN + rc->h.bulk + rc->h.meta + STOR_TAG;
	if (total > RPMB_LOG_SIZE - off)
		return false;
	pt = malloc((size_t)rc->h.meta + 1);
	gcm = crypt_ctx_new(s->keys->journal);
	if (!pt || !gcm || !EVP_CipherInit_ex(gcm, NULL, NULL, NULL, rc->h.iv, 0) ||
	    (rc->h.bulk &&
	     !EVP_CipherUpdate(gcm, NULL, &outl, log + off + RHDR_LEN, (int)rc->h.bulk)))
		goto out;
	memcpy(rc->tag, log + off + total - STOR_TAG, STOR_TAG);
	if (!rec_finish(gcm, log + off, RHDR_LEN, log + off + RHDR_LEN + rc->h.bulk, rc->h.meta,
			rc->tag, pt))
		goto out;
	rc->end = off + total;
	if (want) {
		rc->meta = pt;
		rc->bulk = (uint8_t *)log + off + RHDR_LEN;
		pt = NULL; /* transferred */
	}
	ok = true;
out:
	EVP_CIPHER_CTX_free(gcm);
	if (pt) {
		secure_wipe(pt, (size_t)rc->h.meta + 1);
		free(pt);
	}
	return ok;
}

/* What recovery learns of the chain: where a part ends. */
struct chain_end {
	uint64_t seq;
	uint8_t tag[STOR_TAG];
	uint8_t prev[STOR_TAG]; /* of the last link */
	uint64_t end;		/* byte offset after it */
	uint64_t prev_end;	/* where it starts (after the link before) */
	uint64_t n;		/* records */
};

/* Follows REE records from header h as far as they go. */
static void ree_walk(struct jreader *j, const struct jhdr *h, struct chain_end *c, TEE_Result *io)
{
	struct rec rc;

	c->seq = h->seq;
	memcpy(c->tag, h->tag, STOR_TAG);
	memcpy(c->prev, h->prev, STOR_TAG);
	c->end = RECORDS_START;
	c->n = 0;
	while (ree_rec_read(j, c->end, c->seq + 1, c->tag, false, &rc, io)) {
		memcpy(c->prev, c->tag, STOR_TAG);
		c->seq = rc.h.seq;
		memcpy(c->tag, rc.tag, STOR_TAG);
		c->end = align8(rc.end);
		c->n++;
	}
}

/* Follows the RPMB log from the anchor as far as it goes. */
static void log_walk(struct store *s, const uint8_t *log, struct chain_end *c)
{
	struct rec rc;

	c->seq = s->rpmb.seq;
	memcpy(c->tag, s->rpmb.tag, STOR_TAG);
	memset(c->prev, 0, STOR_TAG);
	c->end = 0;
	c->prev_end = 0;
	c->n = 0;
	while (log_rec_read(s, log, c->end, c->seq + 1, c->tag, false, &rc)) {
		c->prev_end = c->end;
		memcpy(c->prev, c->tag, STOR_TAG);
		c->seq = rc.h.seq;
		memcpy(c->tag, rc.tag, STOR_TAG);
		c->end = align8(rc.end);
		c->n++;
	}
}

/*
 * Whether the RPMB log ends where its head says, give or take the one
 * record a crash inside its single fdatasync can leave on either side.
 */
static bool log_consistent(const struct store *s, const struct chain_end *l)
{
	const struct rpmb_slot *r = &s->rpmb;

	if (l->seq == r->log_seq)
		return secure_equal(l->tag, r->log_tag, STOR_TAG);
	if (l->seq == r->log_seq + 1)
		return secure_equal(l->prev, r->log_tag, STOR_TAG);
	return l->seq + 1 == r->log_seq;
}

/* The last META_PUT of fid in meta, into e (fresh); false when there is none. */
static bool meta_entry(const uint8_t *meta, size_t len, const uint8_t fid[STOR_FID],
		       struct stor_entry *e)
{
	struct buf_reader r;
	bool found = false;

	buf_reader_init(&r, meta, len);
	while (buf_left(&r)) {
		const uint8_t *id = NULL;
		uint8_t op = 0;

		buf_get_u8(&r, &op);
		if (op == META_PUT && buf_left(&r) >= STOR_FID) {
			struct buf_reader at = r;

			buf_get_ptr(&at, &id, STOR_FID);
			if (!memcmp(id, fid, STOR_FID)) {
				if (!entry_get(&r, e))
					return false;
				found = true;
				continue;
			}
		}
		if (!meta_skip(&r, op))
			return false;
	}
	return found;
}

/*
 * The last record of the RPMB log may have become durable while the blocks
 * it wrote in place were still on their way (commit_log): if a crash took
 * some of them, the record never committed (its call did not return), and
 * the log ends before it. Only the last one can be in that state: the next
 * commit starts after both syncs. TEE_SUCCESS, or the channel's error.
 */
static TEE_Result direct_landed(struct store *s, const uint8_t *log, struct chain_end *lg)
{
	struct stor_entry *e = NULL;
	struct buf_reader r;
	struct rec rc;
	bool landed = true;
	bool seen = false;
	TEE_Result res = TEE_ERROR_GENERIC;

	s->unconfirmed = false;
	if (!lg->n || !log_rec_read(s, log, lg->prev_end, lg->seq, lg->prev, true, &rc))
		return TEE_SUCCESS;
	buf_reader_init(&r, rc.meta, rc.h.meta);
	while (landed && buf_left(&r)) {
		const uint8_t *ivtags = NULL;
		uint8_t fid[STOR_FID];
		uint64_t first = 0;
		uint32_t n = 0;
		uint8_t op = 0;

		buf_get_u8(&r, &op);
		if (op != META_DIRECT) {
			if (!meta_skip(&r, op))
				break; /* replay says so */
			continue;
		}
		buf_get_bytes(&r, fid, STOR_FID);
		buf_get_u64(&r, &first);
		buf_get_u32(&r, &n);
		if (!buf_ok(&r) || !n || n > DV_MAX ||
		    !buf_get_ptr(&r, &ivtags, (size_t)n * DV_BYTES))
			break;
		seen = true;
		entry_free(e);
		e = entry_new();
		if (!e) {
			res = TEE_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		if (!meta_entry(rc.meta, rc.h.meta, fid, e)) {
			landed = false;
			break;
		}
		res = obj_check_blocks(s, e, first, n, ivtags);
		if (res == TEE_ERROR_CORRUPT_OBJECT)
			landed = false;
		else if (res)
			goto out;
	}
	/* Landed: still, a later load would check again (journal_confirm). */
	s->unconfirmed = landed && seen;
	if (!landed) {
		log_info("storage: the last change before a crash did not reach the disk "
			 "whole: it never happened");
		lg->seq--;
		memcpy(lg->tag, lg->prev, STOR_TAG);
		lg->end = lg->prev_end;
		lg->n--;
	}
	res = TEE_SUCCESS;
out:
	entry_free(e);
	rec_free(&rc);
	return res;
}

/*
 * Replays the records after (seq, prev) up to seq k: from the RPMB log
 * (trusted) when log is given, else from the REE journal through j (given
 * either way), whose images are copied there by the supplicant.
 */
static bool replay(struct store *s, struct jreader *j, const uint8_t *log, uint64_t seq,
		   const uint8_t from[STOR_TAG], uint64_t k, struct fsb *b, TEE_Result *io)
{
	uint8_t prev[STOR_TAG];
	uint64_t off = log ? 0 : RECORDS_START;

	memcpy(prev, from, STOR_TAG);
	while (seq < k) {
		struct rec rc;
		struct apply a = {.s = s, .b = b, .ree = !log, .rec = off, .replay = true};
		bool ok = log ? log_rec_read(s, log, off, seq + 1, prev, true, &rc)
			      : ree_rec_read(j, off, seq + 1, prev, true, &rc, io);

		a.bulk = rc.bulk;
		a.bulk_len = rc.h.bulk;
		ok = ok && meta_apply(s, &a, rc.meta, rc.h.meta, true);
		if (log)
			apply_run(&a); /* its images go from the window before the next record's */
		if (a.io)
			*io = a.io;
		rec_free(&rc);
		if (!ok || *io)
			return false;
		seq = rc.h.seq;
		memcpy(prev, rc.tag, STOR_TAG);
		off = align8(rc.end);
	}
	return true;
}

/* What journal_load gathers on its way, step by step. */
struct load {
	struct store *s;
	int slot;	      /* rpmb_open's answer */
	struct jreader j;     /* the REE journal */
	struct jhdr h[2];     /* its two header slots */
	bool hok[2];	      /* which of them decoded */
	uint8_t *log;	      /* the RPMB log area (RPMB_LOG_SIZE bytes) */
	struct chain_end lg;  /* where the RPMB log ends */
	struct chain_end ree; /* where the picked header's REE chain ends */
	int pick;	      /* the header slot recovery starts from, or -1 */
	bool log_too;	      /* the RPMB log follows that REE chain */
};

/* A channel error as recovery reports it: a file gone means damage. */
static TEE_Result io_result(TEE_Result io)
{
	return io == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_CORRUPT_OBJECT : io;
}

/*
 * Reads the two header slots. A store without a journal is made anew
 * (*fresh) when that is all it can be; REE files gone while the RPMB slot
 * says they were there, or there without the slot, are damage.
 */
static TEE_Result load_headers(struct load *ld, bool *fresh)
{
	struct store *s = ld->s;
	uint8_t raw[HDR_LEN];
	TEE_Result io = TEE_SUCCESS;

	for (int i = 0; i < 2 && !io; i++)
		if (jr_get(&ld->j, (uint64_t)i * HDR_SLOT, raw, HDR_LEN, &io))
			ld->hok[i] = hdr_decode(s, raw, &ld->h[i]);
	if (io == TEE_ERROR_ITEM_NOT_FOUND) {
		/* No journal. Fine for a new store; otherwise it was deleted. */
		if (ld->slot == RPMB_OK && s->rpmb.log_seq) {
			log_error("storage: the REE files of a TA store are gone");
			return TEE_ERROR_CORRUPT_OBJECT;
		}
		*fresh = true;
		return journal_create(s, ld->slot == RPMB_OK);
	}
	if (io)
		return io_result(io);
	if (ld->slot == RPMB_ABSENT) {
		log_error("storage: REE files of a TA store without its RPMB slot");
		return TEE_ERROR_CORRUPT_OBJECT;
	}
	if (!s->rpmb.log_seq && !ld->hok[0] && !ld->hok[1]) {
		/* A new store whose first header never made it to disk. */
		*fresh = true;
		return journal_create(s, true);
	}
	return TEE_SUCCESS;
}

/* The RPMB log: trusted, and consistent with its head (direct_landed). */
static TEE_Result load_log(struct load *ld)
{
	struct store *s = ld->s;

	if (rpmb_log_read(&s->rpmb, ld->log)) {
		log_error("storage: a TA store's RPMB log cannot be read");
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	log_walk(s, ld->log, &ld->lg);
	if (!log_consistent(s, &ld->lg)) {
		log_error("storage: a TA store's RPMB log does not match its head");
		return TEE_ERROR_CORRUPT_OBJECT;
	}
	return io_result(direct_landed(s, ld->log, &ld->lg));
}

/*
 * The newest header whose REE chain the anchor accepts: it ends at the
 * anchor (the log then follows), or one past all we trust (a large commit
 * or a checkpoint cut off before its anchor).
 */
static TEE_Result load_pick(struct load *ld)
{
	const struct store *s = ld->s;
	const struct chain_end *lg = &ld->lg;
	struct chain_end *ree = &ld->ree;
	TEE_Result io = TEE_SUCCESS;
	int newer = ld->hok[1] && (!ld->hok[0] || ld->h[1].seq > ld->h[0].seq) ? 1 : 0;

	for (int pass = 0; pass < 2 && ld->pick < 0; pass++) {
		int i = pass ? 1 - newer : newer;

		if (!ld->hok[i])
			continue;
		ree_walk(&ld->j, &ld->h[i], ree, &io);
		if (io)
			return io_result(io);
		if (ree->seq == s->rpmb.seq && secure_equal(ree->tag, s->rpmb.tag, STOR_TAG)) {
			ld->pick = i;
			ld->log_too = true;
		} else if (ree->seq == lg->seq + 1 && secure_equal(ree->prev, lg->tag, STOR_TAG) &&
			   (!lg->n || ree->n == 0)) {
			ld->pick = i;
		}
	}
	if (ld->pick < 0) {
		log_error("storage: a TA store's journal does not reach its RPMB anchor "
			  "(rolled back or damaged)");
		return TEE_ERROR_CORRUPT_OBJECT;
	}
	return TEE_SUCCESS;
}

/* The picked header's snapshot, then the REE records, then the RPMB log's; their files again. */
static TEE_Result load_replay(struct load *ld)
{
	struct store *s = ld->s;
	const struct jhdr *h = &ld->h[ld->pick];
	struct fsb b;
	TEE_Result io = TEE_SUCCESS;
	TEE_Result res = dir_snapshot_load(s, &ld->j, h);

	if (res)
		return res;
	s->hslot = ld->pick;
	s->dir_seq = h->dir_seq;
	fsb_init(&b, s->fs, s->dir);
	if (!replay(s, &ld->j, NULL, h->seq, h->tag, ld->ree.seq, &b, &io) ||
	    (ld->log_too &&
	     !replay(s, &ld->j, ld->log, s->rpmb.seq, s->rpmb.tag, ld->lg.seq, &b, &io)))
		return io ? io_result(io) : TEE_ERROR_CORRUPT_OBJECT;
	if (b.nops)
		io = fsb_run(&b);
	return io_result(io);
}

/* Where the chain now ends, in the store and, when the log did not follow, in the anchor. */
static TEE_Result load_anchor(struct load *ld)
{
	struct store *s = ld->s;
	const struct chain_end *ree = &ld->ree;
	const struct chain_end *lg = &ld->lg;

	s->jend = ree->end;
	s->jalloc = ree->end;
	if (ld->log_too) {
		s->seq = lg->seq;
		memcpy(s->tag, lg->tag, STOR_TAG);
		/* The head moves to what the log really holds, on either side. */
		s->rpmb.log_seq = lg->seq;
		memcpy(s->rpmb.log_tag, lg->tag, STOR_TAG);
		s->rpmb.log_end = lg->end;
	} else {
		s->seq = ree->seq;
		memcpy(s->tag, ree->tag, STOR_TAG);
		if (rpmb_update(&s->rpmb, s->keys, ree->seq, ree->tag))
			return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	s->since_ckpt = ree->n + (ld->log_too ? lg->n : 0);
	if (ree->n || lg->n)
		log_debug("storage: replayed %llu journal and %llu RPMB log record(s)",
			  (unsigned long long)ree->n, (unsigned long long)lg->n);
	return TEE_SUCCESS;
}

TEE_Result journal_load(struct store *s)
{
	struct load ld = {.s = s, .j = {.s = s}, .pick = -1};
	TEE_Result res = TEE_ERROR_GENERIC;
	bool fresh = false;

	ld.slot = rpmb_open(&s->rpmb, s->dir, s->keys);
	if (ld.slot == RPMB_BAD)
		return TEE_ERROR_CORRUPT_OBJECT;
	if (ld.slot == RPMB_IO)
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	ld.j.buf = malloc(FS_READ_AREA_LEN);
	ld.log = malloc(RPMB_LOG_SIZE);
	if (!ld.j.buf || !ld.log) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	fsb_init(&ld.j.b, s->fs, s->dir);
	snprintf(ld.j.name, sizeof(ld.j.name), "%s", JNAME);
	res = load_headers(&ld, &fresh);
	if (res || fresh)
		goto out;
	res = load_log(&ld);
	if (!res)
		res = load_pick(&ld);
	if (!res)
		res = load_replay(&ld);
	if (!res)
		res = load_anchor(&ld);
out:
	free(ld.j.buf);
	free(ld.log);
	return res;
}
