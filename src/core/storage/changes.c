/*
 * The requests that change a store: a create or a write, in one piece or
 * several (pending, the store locked meanwhile), the one-step changes
 * (truncate, rename, restrict), deletes and the persistent time. Each one
 * transaction (txn.c, commit.c); worker.h has the contracts.
 */

#include <string.h>
#include <time.h>

#include "worker.h"

void pending_end(struct worker *w)
{
	if (!w->p.active)
		return;
	if (!w->p.create)
		obj_invalidate(w->p.e); /* what it sealed never happened */
	txn_abort(&w->p.t);
	entry_free(w->p.w);
	memset(&w->p, 0, sizeof(w->p));
	unlock(w);
}

/* Commits the pending create or write, then ends it. */
static TEE_Result pending_commit(struct worker *w, uint32_t *h)
{
	struct pending *p = &w->p;
	struct store *s = w->store;
	uint8_t fid[STOR_FID];
	struct stor_entry *e = NULL;
	bool in_place = false;
	TEE_Result res = TEE_ERROR_GENERIC;

	memcpy(fid, p->w->fid, STOR_FID);
	if (p->create && p->e) {
		/* The object it replaces goes in the same transaction. */
		txn_del(&p->t, p->e->fid);
		txn_remove(&p->t, p->e->fid);
	}
	res = txn_map_finish(&p->t, p->create ? NULL : p->e, p->w);
	in_place = p->t.ndirect > 0;
	if (!res) {
		txn_put(&p->t, p->w);
		res = txn_commit(&p->t);
	} else {
		txn_abort(&p->t);
	}
	if (!res && in_place) {
		/* Its data file and the directory were synced with the commit. */
		e = dir_find_fid(s, fid);
		if (e)
			e->dir_synced = true;
	}
	if (!p->create)
		obj_committed(p->e, !res);
	if (!res && p->create) {
		e = dir_find_fid(s, fid);
		res = e ? handle_add(w, e, p->flags, h) : TEE_ERROR_GENERIC;
	}
	if (res == TEE_ERROR_CORRUPT_OBJECT && !p->create)
		fix_result(w, p->e, res);
	entry_free(p->w);
	memset(p, 0, sizeof(*p));
	unlock(w);
	return res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res;
}

/* A piece of initial data at the bulk window's start (after skip bytes). */
static TEE_Result create_piece(struct worker *w, size_t skip, size_t n)
{
	struct pending *p = &w->p;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (n > p->left || skip + n > PROTO_STOR_WINDOW)
		return TEE_ERROR_BAD_PARAMETERS;
	/* Pieces but the last end on a block boundary. */
	if (n < p->left && (p->next + n) % STOR_BLOCK)
		return TEE_ERROR_BAD_PARAMETERS;
	res = obj_write(w->store, &p->t, NULL, p->w, p->next, w->bulk + skip, n);
	p->next += n;
	p->left -= n;
	return res;
}

/* A create request as the instance sent it. */
struct create_req {
	uint8_t id[PROTO_STOR_ID_MAX];
	uint32_t len;
	uint32_t flags;
	uint32_t info[4]; /* type, object size, max size, usage */
	uint32_t attr_len;
	uint32_t data_len;
	uint8_t ns;
};

/* Reads and checks a create request into cr. */
static TEE_Result create_parse(const struct worker *w, struct buf_reader *r, struct create_req *cr)
{
	uint32_t storage = 0;

	buf_get_u32(r, &storage);
	buf_get_u32(r, &cr->flags);
	get_id(r, cr->id, &cr->len);
	for (int i = 0; i < 4; i++)
		buf_get_u32(r, &cr->info[i]);
	buf_get_u32(r, &cr->attr_len);
	buf_get_u32(r, &cr->data_len);
	if (!buf_done(r) || cr->len > PROTO_STOR_ID_MAX || (cr->flags & ~CREATE_FLAGS) ||
	    cr->attr_len > PROTO_STOR_ATTR_MAX || w->p.active)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!ns_of(storage, &cr->ns))
		return TEE_ERROR_ITEM_NOT_FOUND;
	return TEE_SUCCESS;
}

/*
 * Locks the store for a create; *old is the object of that id it replaces
 * (an overwrite), if any. One held open by this instance is waited for once
 * (releases_wait); otherwise the id taken is TEE_ERROR_ACCESS_CONFLICT.
 */
static TEE_Result create_lock(struct worker *w, const struct create_req *cr,
			      struct stor_entry **old)
{
	bool overwrite = (cr->flags & TEE_DATA_FLAG_OVERWRITE) != 0;
	bool retried = false;
	TEE_Result res = TEE_ERROR_GENERIC;

	for (;;) {
		bool held = false;

		res = lock(w);
		if (res)
			return res;
		*old = dir_find(w->store, cr->ns, cr->id, cr->len);
		if (!*old || (overwrite && !(*old)->open))
			return TEE_SUCCESS;
		held = (*old)->open && overwrite;
		unlock(w);
		*old = NULL;
		if (!held || retried || !w->releases_wait(w))
			return TEE_ERROR_ACCESS_CONFLICT;
		retried = true;
	}
}

/* The pending create of cr, replacing old, with the store locked; unlocked on failure. */
static TEE_Result create_begin(struct worker *w, const struct create_req *cr,
			       struct stor_entry *old)
{
	struct pending *p = &w->p;

	memset(p, 0, sizeof(*p));
	p->w = entry_new();
	if (!p->w) {
		unlock(w);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	p->active = true;
	p->create = true;
	p->e = old;
	p->flags = cr->flags & OPEN_FLAGS;
	p->left = cr->data_len;
	if (crypt_random(p->w->fid, STOR_FID) || crypt_random(p->w->fek, STOR_KEY)) {
		pending_end(w);
		return TEE_ERROR_GENERIC;
	}
	p->w->ns = cr->ns;
	p->w->id_len = (uint8_t)cr->len;
	memcpy(p->w->id, cr->id, cr->len);
	p->w->type = cr->info[0];
	p->w->obj_size = cr->info[1];
	p->w->max_size = cr->info[2];
	p->w->usage = cr->info[3];
	txn_begin(&p->t, w->store);
	return TEE_SUCCESS;
}

/* The attribute blob first in the window, then as much data as fits; pending ended on failure. */
static TEE_Result create_first(struct worker *w, const struct create_req *cr)
{
	size_t room = PROTO_STOR_WINDOW - cr->attr_len;
	size_t first = cr->data_len < room ? cr->data_len : room;
	TEE_Result res = obj_put_attrs(&w->p.t, w->p.w, w->bulk, cr->attr_len);

	if (first < cr->data_len)
		first -= first % STOR_BLOCK;
	if (!res)
		res = create_piece(w, cr->attr_len, first);
	if (res)
		pending_end(w);
	return res;
}

/* After a piece of a create: more to come, or the commit and the new handle. */
static void create_next(struct worker *w)
{
	uint8_t out[8];
	struct buf_writer bw;
	uint32_t h = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (w->p.left) {
		reply(w, TEE_SUCCESS, (const uint8_t *)"\0\0\0\0", 4); /* more to come */
		return;
	}
	res = pending_commit(w, &h);
	buf_writer_init(&bw, out, sizeof(out));
	buf_put_u32(&bw, h);
	reply(w, res, out, res ? 0 : buf_written(&bw));
}

bool do_create(struct worker *w, struct buf_reader *r)
{
	struct create_req cr;
	struct stor_entry *old = NULL;
	TEE_Result res = create_parse(w, r, &cr);

	if (!res)
		res = create_lock(w, &cr, &old);
	if (res) {
		reply(w, res, NULL, 0);
		return true;
	}
	res = create_begin(w, &cr, old);
	if (!res)
		res = create_first(w, &cr);
	if (res) {
		reply(w, res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res,
		      NULL, 0);
		return true;
	}
	create_next(w);
	return true;
}

bool do_create_part(struct worker *w, struct buf_reader *r)
{
	uint32_t n = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &n);
	if (!buf_done(r) || !w->p.active || !w->p.create) {
		pending_end(w);
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return true;
	}
	res = create_piece(w, 0, n);
	if (res) {
		pending_end(w);
		reply(w, res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res,
		      NULL, 0);
		return true;
	}
	create_next(w);
	return true;
}

/* A write's request: where its bytes go and where they are. */
struct write_req {
	uint32_t h;
	uint64_t pos;
	uint32_t len;
	uint32_t more;
	const uint8_t *src;
};

/* Reads a write's request into q: TEE_SUCCESS, or the result to reply with. */
static TEE_Result write_req_get(struct worker *w, struct buf_reader *r, struct write_req *q)
{
	const struct pending *p = &w->p;
	uint32_t flags = 0;
	uint64_t from = 0;

	q->src = w->bulk;
	buf_get_u32(r, &q->h);
	buf_get_u64(r, &q->pos);
	buf_get_u32(r, &q->len);
	buf_get_u32(r, &flags);
	if (flags & PROTO_STOR_WRITE_HEAP) {
		/* In the instance's heap: all of it inside the mapping. */
		buf_get_u64(r, &from);
		q->src = w->heap && from <= w->heap_len && q->len <= w->heap_len - from
			     ? w->heap + from
			     : NULL;
	}
	q->more = flags & PROTO_STOR_WRITE_MORE;
	if (!buf_done(r) || !q->src || q->len > PROTO_STOR_WINDOW ||
	    (flags & ~(PROTO_STOR_WRITE_MORE | PROTO_STOR_WRITE_HEAP)) ||
	    (p->active && (p->create || p->handle != q->h || p->next != q->pos)) ||
	    (q->more && (q->pos + q->len) % STOR_BLOCK))
		return TEE_ERROR_BAD_PARAMETERS;
	if (q->pos + q->len > STOR_MAX_SIZE)
		return TEE_ERROR_OVERFLOW;
	return TEE_SUCCESS;
}

/* The first write of a change to handle h: its object locked and copied. False once replied. */
static bool write_begin(struct worker *w, uint32_t h)
{
	struct pending *p = &w->p;
	struct whandle *wh = NULL;
	TEE_Result res = begin(w, h, TEE_DATA_FLAG_ACCESS_WRITE, &wh);

	if (res) {
		reply(w, res, NULL, 0);
		return false;
	}
	p->w = entry_dup(wh->e);
	if (!p->w) {
		unlock(w);
		reply(w, TEE_ERROR_OUT_OF_MEMORY, NULL, 0);
		return false;
	}
	p->active = true;
	p->e = wh->e;
	p->handle = h;
	txn_begin(&p->t, w->store);
	return true;
}

/* A write that failed with res: the change ends, a corrupt object gets its fix. */
static void write_failed(struct worker *w, TEE_Result res)
{
	struct stor_entry *e = w->p.e;

	pending_end(w);
	if (res == TEE_ERROR_CORRUPT_OBJECT && !lock(w)) {
		fix_result(w, e, res);
		unlock(w);
	}
	reply(w, res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res, NULL, 0);
}

bool do_write(struct worker *w, struct buf_reader *r)
{
	struct pending *p = &w->p;
	struct write_req q;
	uint32_t dummy = 0;
	TEE_Result res = write_req_get(w, r, &q);

	if (res) {
		pending_end(w);
		reply(w, res, NULL, 0);
		return true;
	}
	if (!p->active && !write_begin(w, q.h))
		return true;
	res = obj_write(w->store, &p->t, p->e, p->w, q.pos, q.src, q.len);
	p->next = q.pos + q.len;
	if (res) {
		write_failed(w, res);
		return true;
	}
	if (q.more) {
		reply(w, TEE_SUCCESS, NULL, 0);
		return true;
	}
	res = pending_commit(w, &dummy);
	reply(w, res, NULL, 0);
	return true;
}

/* A one-step change of the object behind handle h: truncate, rename, restrict. */
static void change(struct worker *w, uint32_t h, uint32_t need, uint32_t op, uint64_t arg,
		   const uint8_t *id, uint32_t id_len)
{
	struct whandle *wh = NULL;
	struct stor_entry *d = NULL;
	struct txn t;
	TEE_Result res = begin(w, h, need, &wh);

	if (res) {
		reply(w, res, NULL, 0);
		return;
	}
	d = entry_dup(wh->e);
	if (!d) {
		unlock(w);
		reply(w, TEE_ERROR_OUT_OF_MEMORY, NULL, 0);
		return;
	}
	txn_begin(&t, w->store);
	switch (op) {
	case MSG_STOR_TRUNCATE:
		res = obj_truncate(w->store, &t, wh->e, d, arg);
		if (!res)
			res = txn_map_finish(&t, wh->e, d);
		break;
	case MSG_STOR_RENAME: {
		struct stor_entry *other = dir_find(w->store, d->ns, id, id_len);

		if (other)
			res = TEE_ERROR_ACCESS_CONFLICT;
		d->id_len = (uint8_t)id_len;
		memcpy(d->id, id, id_len);
		break;
	}
	case MSG_STOR_RESTRICT:
		d->usage &= (uint32_t)arg;
		break;
	default:
		res = TEE_ERROR_BAD_PARAMETERS;
		break;
	}
	if (!res) {
		txn_put(&t, d);
		res = txn_commit(&t);
	} else {
		txn_abort(&t);
	}
	obj_committed(wh->e, !res);
	res = fix_result(w, wh->e, res);
	unlock(w);
	entry_free(d);
	reply(w, res, NULL, 0);
}

bool do_truncate(struct worker *w, uint32_t h, struct buf_reader *r)
{
	uint64_t v = 0;

	buf_get_u64(r, &v);
	if (!buf_done(r))
		return false;
	if (v > STOR_MAX_SIZE) {
		reply(w, TEE_ERROR_STORAGE_NO_SPACE, NULL, 0);
		return true;
	}
	change(w, h, TEE_DATA_FLAG_ACCESS_WRITE, MSG_STOR_TRUNCATE, v, NULL, 0);
	return true;
}

bool do_rename(struct worker *w, uint32_t h, struct buf_reader *r)
{
	uint8_t id[PROTO_STOR_ID_MAX];
	uint32_t len = 0;

	if (!get_id(r, id, &len) || !buf_done(r))
		return false;
	change(w, h, TEE_DATA_FLAG_ACCESS_WRITE_META, MSG_STOR_RENAME, 0, id, len);
	return true;
}

bool do_restrict(struct worker *w, uint32_t h, struct buf_reader *r)
{
	uint32_t usage = 0;

	buf_get_u32(r, &usage);
	if (!buf_done(r))
		return false;
	change(w, h, 0, MSG_STOR_RESTRICT, usage, NULL, 0);
	return true;
}

void do_delete(struct worker *w, uint32_t h)
{
	struct whandle *wh = handle_of(w, h);
	struct stor_entry *e = NULL;
	struct txn t;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!wh) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	if (!(wh->flags & TEE_DATA_FLAG_ACCESS_WRITE_META)) {
		reply(w, TEE_ERROR_ACCESS_DENIED, NULL, 0);
		return;
	}
	lock_any(w);
	/* The handle is closed whatever happens; a corrupt object may go too. */
	e = wh->e;
	handle_drop(wh);
	res = w->store->broken;
	if (!res) {
		txn_begin(&t, w->store);
		txn_del(&t, e->fid);
		txn_remove(&t, e->fid);
		res = txn_commit(&t);
	}
	unlock(w);
	reply(w, res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res, NULL, 0);
}

bool do_time_set(struct worker *w, struct buf_reader *r)
{
	uint32_t sec = 0;
	uint32_t ms = 0;
	uint64_t now = ree_now_ms();
	struct txn t;
	TEE_Result res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &sec);
	buf_get_u32(r, &ms);
	if (!buf_done(r) || ms > 999) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return true;
	}
	res = lock(w);
	if (res) {
		reply(w, res, NULL, 0);
		return true;
	}
	txn_begin(&t, w->store);
	txn_time(&t, (int64_t)sec * 1000 + ms - (int64_t)now, now);
	res = txn_commit(&t);
	unlock(w);
	reply(w, res, NULL, 0);
	return true;
}
