/*
 * The storage channels of TA instances. An instance asks once, over its
 * control socket (MSG_CTL_STORAGE); the epoll thread answers with a socket
 * and a bulk window, gives the supplicant a REE FS channel of its own, and
 * starts a worker thread that serves the instance's storage requests from
 * then on, off the epoll loop. Each request locks the TA's store for as long
 * as it takes (store.c): instances of different TAs never wait for each
 * other, instances of one TA take turns.
 *
 * The instance is hostile: requests are parsed whole and bounded, object
 * ids are at most 64 bytes, flags and handles are checked, and a request
 * that does not parse ends the channel. Data in the bulk window is read
 * once (sealed as it is read) and never parsed.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <tee_api_defines_extensions.h>
#include <tee_client_api.h>

#include "core.h"
#include "log.h"
#include "memfd.h"
#include "msg.h"
#include "secure.h"
#include "storage.h"

#define HANDLES_MAX 4096
#define HEAP_MAX ((uint64_t)1 << 32) /* a TA heap is at most 4 GiB (TA_DATA_SIZE) */
#define FINI_WAIT_S 5
#define CONFIRM_IDLE_MS 2
#define ACCESS_FLAGS                                                                               \
	(TEE_DATA_FLAG_ACCESS_READ | TEE_DATA_FLAG_ACCESS_WRITE | TEE_DATA_FLAG_ACCESS_WRITE_META)
#define SHARE_FLAGS (TEE_DATA_FLAG_SHARE_READ | TEE_DATA_FLAG_SHARE_WRITE)
#define OPEN_FLAGS (ACCESS_FLAGS | SHARE_FLAGS)
#define CREATE_FLAGS (OPEN_FLAGS | TEE_DATA_FLAG_OVERWRITE)

struct whandle {
	struct stor_entry *e; /* NULL: free */
	uint32_t flags;
};

/* A create or write that comes in several pieces. */
struct pending {
	bool active;
	bool create;
	struct txn t;
	struct stor_entry *w; /* the transaction's copy */
	struct stor_entry *e; /* the committed entry (write), or the one replaced (create) */
	uint32_t handle;
	uint32_t flags;
	uint64_t next; /* where the next piece goes */
	uint64_t left; /* create: initial data still to come */
};

struct worker {
	pthread_t thread;
	uint32_t instance;
	struct swtee_uuid uuid;
	int sock;
	uint8_t *bulk;	     /* shared with the instance */
	const uint8_t *heap; /* the instance's heap, read-only; NULL without it */
	size_t heap_len;
	struct reefs *fs; /* own_fs, or the caller's (worker_attach) */
	struct reefs own_fs;
	struct store *store;
	struct whandle *h;
	size_t nh;
	uint8_t *buf; /* private, PROTO_STOR_WINDOW bytes */
	struct pending p;
	bool confirm_due; /* see journal_confirm */
	struct worker *next;
};

/* The running workers; each thread unlinks and frees its own when it ends. */
static pthread_mutex_t workers_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t workers_ended = PTHREAD_COND_INITIALIZER;
static struct worker *workers;

#define RELEASE_WAIT_S 2

/* ---- replies ---- */

static void reply(struct worker *w, TEE_Result res, const uint8_t *extra, size_t n)
{
	uint8_t out[256];
	struct buf_writer bw;

	buf_writer_init(&bw, out, sizeof(out));
	buf_put_u32(&bw, MSG_STOR_RSP);
	buf_put_u32(&bw, res);
	if (n)
		buf_put_bytes(&bw, extra, n);
	msg_send(w->sock, out, buf_written(&bw), NULL, 0);
}

static void put_info(struct buf_writer *bw, const struct stor_entry *e, uint32_t flags)
{
	buf_put_u32(bw, e->type);
	buf_put_u32(bw, e->obj_size);
	buf_put_u32(bw, e->max_size);
	buf_put_u32(bw, e->usage);
	buf_put_u64(bw, e->size);
	buf_put_u32(bw, flags);
}

/* ---- parsing ---- */

static bool get_id(struct buf_reader *r, uint8_t id[PROTO_STOR_ID_MAX], uint32_t *len)
{
	return buf_get_u32(r, len) && *len <= PROTO_STOR_ID_MAX && buf_get_bytes(r, id, *len);
}

/* The namespace of a storage ID; false for an ID this TEE does not have. */
static bool ns_of(uint32_t storage, uint8_t *ns)
{
	switch (storage) {
	case TEE_STORAGE_PRIVATE:
	case TEE_STORAGE_PRIVATE_REE:
		*ns = STOR_NS_PRIVATE;
		return true;
	case TEE_STORAGE_PRIVATE_RPMB:
		*ns = STOR_NS_RPMB;
		return true;
	default:
		return false;
	}
}

static struct whandle *handle_of(struct worker *w, uint32_t h)
{
	if (!h || h > w->nh || !w->h[h - 1].e)
		return NULL;
	return &w->h[h - 1];
}

/* ---- handles and sharing ---- */

/* GP's sharing rules, as OP-TEE applies them to every pair of handles. */
static bool compatible(uint32_t a, uint32_t b)
{
	if ((a | b) & TEE_DATA_FLAG_ACCESS_WRITE_META)
		return false;
	if (((a | b) & TEE_DATA_FLAG_ACCESS_READ) &&
	    !((a & TEE_DATA_FLAG_SHARE_READ) && (b & TEE_DATA_FLAG_SHARE_READ)))
		return false;
	if (((a | b) & TEE_DATA_FLAG_ACCESS_WRITE) &&
	    !((a & TEE_DATA_FLAG_SHARE_WRITE) && (b & TEE_DATA_FLAG_SHARE_WRITE)))
		return false;
	return true;
}

static bool may_open(const struct stor_entry *e, uint32_t flags)
{
	if (!e->open)
		return true;
	for (uint32_t i = 0; i < e->open->nhandles; i++)
		if (!compatible(e->open->hflags[i], flags))
			return false;
	return true;
}

static TEE_Result handle_add(struct worker *w, struct stor_entry *e, uint32_t flags, uint32_t *h)
{
	struct stor_open *o = NULL;
	size_t i = 0;
	TEE_Result res = obj_open(e);

	if (res)
		return res;
	o = e->open;
	for (i = 0; i < w->nh; i++)
		if (!w->h[i].e)
			break;
	if (i == w->nh) {
		struct whandle *p = NULL;

		if (w->nh >= HANDLES_MAX)
			goto full;
		p = realloc(w->h, (w->nh + 16) * sizeof(*p));
		if (!p)
			goto full;
		memset(p + w->nh, 0, 16 * sizeof(*p));
		w->h = p;
		w->nh += 16;
	}
	if (o->nhandles == o->hcap) {
		uint32_t *f = realloc(o->hflags, (o->hcap + 4) * sizeof(*f));

		if (!f)
			goto full;
		o->hflags = f;
		o->hcap += 4;
	}
	o->hflags[o->nhandles++] = flags;
	w->h[i].e = e;
	w->h[i].flags = flags;
	*h = (uint32_t)i + 1;
	return TEE_SUCCESS;
full:
	if (!o->nhandles)
		obj_close(e);
	return TEE_ERROR_OUT_OF_MEMORY;
}

static void handle_drop(struct whandle *wh)
{
	struct stor_entry *e = wh->e;
	struct stor_open *o = e->open;

	for (uint32_t i = 0; o && i < o->nhandles; i++) {
		if (o->hflags[i] == wh->flags) {
			o->hflags[i] = o->hflags[--o->nhandles];
			break;
		}
	}
	if (o && !o->nhandles)
		obj_close(e);
	wh->e = NULL;
	wh->flags = 0;
}

/* ---- the store, around each request ---- */

static TEE_Result lock(struct worker *w)
{
	TEE_Result res = TEE_SUCCESS;

	if (!w->store) {
		w->store = store_get(&w->uuid);
		if (!w->store)
			return TEE_ERROR_OUT_OF_MEMORY;
	}
	res = store_lock(w->store, w->fs);
	if (res)
		store_unlock(w->store);
	return res;
}

/* Locks the store whatever its state (to close handles); -1 when there is none. */
static int lock_any(struct worker *w)
{
	if (!w->store)
		return -1;
	store_lock(w->store, w->fs); /* locked even when it fails */
	return 0;
}

static void unlock(struct worker *w)
{
	/* A record of this store waits for one after it: when idle (worker_main). */
	if (w->store->unconfirmed)
		w->confirm_due = true;
	store_unlock(w->store);
}

/* After an integrity failure: the object stays failed, also after a restart. */
static void persist_corrupt(struct worker *w, struct stor_entry *e)
{
	struct stor_entry *d = entry_dup(e);
	struct txn t;

	if (!d)
		return;
	txn_begin(&t, w->store);
	txn_put(&t, d);
	txn_commit(&t);
	entry_free(d);
}

static TEE_Result fix_result(struct worker *w, struct stor_entry *e, TEE_Result res)
{
	if (res == TEE_ERROR_CORRUPT_OBJECT && e && (e->flags & ENTRY_CORRUPT))
		persist_corrupt(w, e);
	if (res == TEE_ERROR_ITEM_NOT_FOUND)
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	return res;
}

/* Whether the instance of worker o has ended (its end of the channel closed). */
static bool instance_ended(const struct worker *o)
{
	struct pollfd p = {.fd = o->sock, .events = POLLIN | POLLRDHUP};

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLRDHUP | POLLERR));
}

/*
 * An object held open by an instance that has just ended is closed by that
 * instance's worker, which may not have got to it yet when the client, told
 * of the end by its own connection, already opens a new session. A conflict
 * then waits (bounded) for the workers of ended instances to be done, and
 * is tried once more. Whether there were any.
 */
static bool releases_wait(const struct worker *self)
{
	struct timespec limit;
	bool any = false;

	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += RELEASE_WAIT_S;
	pthread_mutex_lock(&workers_lock);
	for (;;) {
		bool ending = false;

		for (const struct worker *o = workers; o && !ending; o = o->next)
			ending = o != self && instance_ended(o);
		if (!ending)
			break;
		any = true;
		if (pthread_cond_timedwait(&workers_ended, &workers_lock, &limit))
			break;
	}
	pthread_mutex_unlock(&workers_lock);
	return any;
}

/* ---- requests ---- */

static void do_open(struct worker *w, struct buf_reader *r)
{
	uint8_t id[PROTO_STOR_ID_MAX];
	uint8_t out[64];
	struct buf_writer bw;
	struct stor_entry *e = NULL;
	uint32_t storage = 0;
	uint32_t flags = 0;
	uint32_t len = 0;
	uint32_t h = 0;
	uint8_t ns = 0;
	bool retried = false;
	TEE_Result res = TEE_SUCCESS;

	buf_get_u32(r, &storage);
	buf_get_u32(r, &flags);
	if (!get_id(r, id, &len) || !buf_done(r) || (flags & ~CREATE_FLAGS)) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	flags &= OPEN_FLAGS;
	if (!ns_of(storage, &ns)) {
		reply(w, TEE_ERROR_ITEM_NOT_FOUND, NULL, 0);
		return;
	}
retry:
	res = lock(w);
	if (res) {
		reply(w, res, NULL, 0);
		return;
	}
	e = dir_find(w->store, ns, id, len);
	if (!e)
		res = TEE_ERROR_ITEM_NOT_FOUND;
	else if (e->flags & ENTRY_CORRUPT)
		res = TEE_ERROR_CORRUPT_OBJECT;
	else if (!may_open(e, flags))
		res = TEE_ERROR_ACCESS_CONFLICT;
	else
		res = handle_add(w, e, flags, &h);
	if (res == TEE_ERROR_ACCESS_CONFLICT && !retried) {
		unlock(w);
		retried = true;
		if (releases_wait(w))
			goto retry;
		reply(w, res, NULL, 0);
		return;
	}
	buf_writer_init(&bw, out, sizeof(out));
	if (!res) {
		buf_put_u32(&bw, h);
		put_info(&bw, e, flags);
		buf_put_u32(&bw, e->attr_len);
	}
	unlock(w);
	reply(w, res, out, buf_written(&bw));
}

static void pending_end(struct worker *w)
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
	TEE_Result res = TEE_SUCCESS;

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
	TEE_Result res = TEE_SUCCESS;

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

static void do_create(struct worker *w, struct buf_reader *r)
{
	uint8_t id[PROTO_STOR_ID_MAX];
	uint8_t out[8];
	struct buf_writer bw;
	struct pending *p = &w->p;
	struct stor_entry *old = NULL;
	uint32_t storage = 0;
	uint32_t flags = 0;
	uint32_t len = 0;
	uint32_t info[4];
	uint32_t attr_len = 0;
	uint32_t data_len = 0;
	uint32_t h = 0;
	size_t first = 0;
	uint8_t ns = 0;
	bool retried = false;
	TEE_Result res = TEE_SUCCESS;

	buf_get_u32(r, &storage);
	buf_get_u32(r, &flags);
	get_id(r, id, &len);
	for (int i = 0; i < 4; i++)
		buf_get_u32(r, &info[i]);
	buf_get_u32(r, &attr_len);
	buf_get_u32(r, &data_len);
	if (!buf_done(r) || len > PROTO_STOR_ID_MAX || (flags & ~CREATE_FLAGS) ||
	    attr_len > PROTO_STOR_ATTR_MAX || p->active) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	if (!ns_of(storage, &ns)) {
		reply(w, TEE_ERROR_ITEM_NOT_FOUND, NULL, 0);
		return;
	}
retry:
	res = lock(w);
	if (res) {
		reply(w, res, NULL, 0);
		return;
	}
	old = dir_find(w->store, ns, id, len);
	if (old && (!(flags & TEE_DATA_FLAG_OVERWRITE) || old->open)) {
		bool held = old->open && (flags & TEE_DATA_FLAG_OVERWRITE);

		unlock(w);
		if (held && !retried) {
			retried = true;
			if (releases_wait(w))
				goto retry;
		}
		reply(w, TEE_ERROR_ACCESS_CONFLICT, NULL, 0);
		return;
	}
	memset(p, 0, sizeof(*p));
	p->w = entry_new();
	if (!p->w) {
		unlock(w);
		reply(w, TEE_ERROR_OUT_OF_MEMORY, NULL, 0);
		return;
	}
	p->active = true;
	p->create = true;
	p->e = old;
	p->flags = flags & OPEN_FLAGS;
	p->left = data_len;
	if (crypt_random(p->w->fid, STOR_FID) || crypt_random(p->w->fek, STOR_KEY)) {
		pending_end(w);
		reply(w, TEE_ERROR_GENERIC, NULL, 0);
		return;
	}
	p->w->ns = ns;
	p->w->id_len = (uint8_t)len;
	memcpy(p->w->id, id, len);
	p->w->type = info[0];
	p->w->obj_size = info[1];
	p->w->max_size = info[2];
	p->w->usage = info[3];
	txn_begin(&p->t, w->store);
	/* The attribute blob comes first in the window, the data after it. */
	res = obj_put_attrs(&p->t, p->w, w->bulk, attr_len);
	first = data_len < PROTO_STOR_WINDOW - attr_len ? data_len : PROTO_STOR_WINDOW - attr_len;
	if (first < data_len)
		first -= first % STOR_BLOCK;
	if (!res)
		res = create_piece(w, attr_len, first);
	if (res) {
		pending_end(w);
		reply(w, res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res,
		      NULL, 0);
		return;
	}
	if (p->left) {
		reply(w, TEE_SUCCESS, (const uint8_t *)"\0\0\0\0", 4); /* more to come */
		return;
	}
	res = pending_commit(w, &h);
	buf_writer_init(&bw, out, sizeof(out));
	buf_put_u32(&bw, h);
	reply(w, res, out, res ? 0 : buf_written(&bw));
}

static void do_create_part(struct worker *w, struct buf_reader *r)
{
	uint8_t out[8];
	struct buf_writer bw;
	uint32_t n = 0;
	uint32_t h = 0;
	TEE_Result res = TEE_SUCCESS;

	buf_get_u32(r, &n);
	if (!buf_done(r) || !w->p.active || !w->p.create) {
		pending_end(w);
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	res = create_piece(w, 0, n);
	if (res) {
		pending_end(w);
		reply(w, res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res,
		      NULL, 0);
		return;
	}
	if (w->p.left) {
		reply(w, TEE_SUCCESS, (const uint8_t *)"\0\0\0\0", 4);
		return;
	}
	res = pending_commit(w, &h);
	buf_writer_init(&bw, out, sizeof(out));
	buf_put_u32(&bw, h);
	reply(w, res, out, res ? 0 : buf_written(&bw));
}

/* The handle of a request, with access it must have; locks the store. */
static TEE_Result begin(struct worker *w, uint32_t h, uint32_t need, struct whandle **out)
{
	struct whandle *wh = handle_of(w, h);
	TEE_Result res = TEE_SUCCESS;

	*out = NULL;
	if (!wh)
		return TEE_ERROR_BAD_PARAMETERS;
	if ((wh->flags & need) != need)
		return TEE_ERROR_ACCESS_DENIED;
	res = lock(w);
	if (res)
		return res;
	if (wh->e->flags & ENTRY_CORRUPT) {
		unlock(w);
		return TEE_ERROR_CORRUPT_OBJECT;
	}
	*out = wh;
	return TEE_SUCCESS;
}

static void do_read(struct worker *w, struct buf_reader *r)
{
	uint8_t out[4];
	struct buf_writer bw;
	struct whandle *wh = NULL;
	uint32_t h = 0;
	uint64_t pos = 0;
	uint32_t len = 0;
	uint32_t count = 0;
	TEE_Result res = TEE_SUCCESS;

	buf_get_u32(r, &h);
	buf_get_u64(r, &pos);
	buf_get_u32(r, &len);
	if (!buf_done(r) || len > PROTO_STOR_WINDOW) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	res = begin(w, h, TEE_DATA_FLAG_ACCESS_READ, &wh);
	if (res) {
		reply(w, res, NULL, 0);
		return;
	}
	if (pos < wh->e->size)
		count = wh->e->size - pos < len ? (uint32_t)(wh->e->size - pos) : len;
	res = obj_read(w->store, wh->e, pos, w->buf, count);
	res = fix_result(w, wh->e, res);
	unlock(w);
	if (!res)
		memcpy(w->bulk, w->buf, count);
	secure_wipe(w->buf, count);
	buf_writer_init(&bw, out, sizeof(out));
	buf_put_u32(&bw, count);
	reply(w, res, out, res ? 0 : buf_written(&bw));
}

static void do_write(struct worker *w, struct buf_reader *r)
{
	struct pending *p = &w->p;
	struct whandle *wh = NULL;
	uint32_t h = 0;
	uint64_t pos = 0;
	uint32_t len = 0;
	uint32_t flags = 0;
	uint32_t more = 0;
	uint64_t from = 0;
	const uint8_t *src = w->bulk;
	uint32_t dummy = 0;
	TEE_Result res = TEE_SUCCESS;

	buf_get_u32(r, &h);
	buf_get_u64(r, &pos);
	buf_get_u32(r, &len);
	buf_get_u32(r, &flags);
	if (flags & PROTO_STOR_WRITE_HEAP) {
		/* In the instance's heap: all of it inside the mapping. */
		buf_get_u64(r, &from);
		src = w->heap && from <= w->heap_len && len <= w->heap_len - from ? w->heap + from
										  : NULL;
	}
	more = flags & PROTO_STOR_WRITE_MORE;
	if (!buf_done(r) || !src || len > PROTO_STOR_WINDOW ||
	    (flags & ~(PROTO_STOR_WRITE_MORE | PROTO_STOR_WRITE_HEAP)) ||
	    (p->active && (p->create || p->handle != h || p->next != pos)) ||
	    (more && (pos + len) % STOR_BLOCK)) {
		pending_end(w);
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	if (pos + len > STOR_MAX_SIZE) {
		pending_end(w);
		reply(w, TEE_ERROR_OVERFLOW, NULL, 0);
		return;
	}
	if (!p->active) {
		res = begin(w, h, TEE_DATA_FLAG_ACCESS_WRITE, &wh);
		if (res) {
			reply(w, res, NULL, 0);
			return;
		}
		p->w = entry_dup(wh->e);
		if (!p->w) {
			unlock(w);
			reply(w, TEE_ERROR_OUT_OF_MEMORY, NULL, 0);
			return;
		}
		p->active = true;
		p->e = wh->e;
		p->handle = h;
		txn_begin(&p->t, w->store);
	}
	res = obj_write(w->store, &p->t, p->e, p->w, pos, src, len);
	p->next = pos + len;
	if (res) {
		struct stor_entry *e = p->e;

		pending_end(w);
		if (res == TEE_ERROR_CORRUPT_OBJECT && !lock(w)) {
			fix_result(w, e, res);
			unlock(w);
		}
		reply(w, res == TEE_ERROR_ITEM_NOT_FOUND ? TEE_ERROR_STORAGE_NOT_AVAILABLE : res,
		      NULL, 0);
		return;
	}
	if (more) {
		reply(w, TEE_SUCCESS, NULL, 0);
		return;
	}
	res = pending_commit(w, &dummy);
	reply(w, res, NULL, 0);
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

static void do_delete(struct worker *w, uint32_t h)
{
	struct whandle *wh = handle_of(w, h);
	struct stor_entry *e = NULL;
	struct txn t;
	TEE_Result res = TEE_SUCCESS;

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

static void do_close(struct worker *w, uint32_t h)
{
	struct whandle *wh = handle_of(w, h);

	if (!wh) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	/* Closing takes the lock even of a broken store: handles must go. */
	lock_any(w);
	handle_drop(wh);
	unlock(w);
	reply(w, TEE_SUCCESS, NULL, 0);
}

static void do_info(struct worker *w, uint32_t h)
{
	uint8_t out[8];
	struct buf_writer bw;
	struct whandle *wh = NULL;
	TEE_Result res = begin(w, h, 0, &wh);

	buf_writer_init(&bw, out, sizeof(out));
	if (!res) {
		buf_put_u64(&bw, wh->e->size);
		unlock(w);
	}
	reply(w, res, out, buf_written(&bw));
}

static void do_attrs(struct worker *w, uint32_t h)
{
	uint8_t out[4];
	struct buf_writer bw;
	struct whandle *wh = NULL;
	uint32_t len = 0;
	TEE_Result res = begin(w, h, 0, &wh);

	if (res) {
		reply(w, res, NULL, 0);
		return;
	}
	len = wh->e->attr_len;
	res = obj_get_attrs(w->store, wh->e, w->buf);
	res = fix_result(w, wh->e, res);
	unlock(w);
	if (!res)
		memcpy(w->bulk, w->buf, len);
	secure_wipe(w->buf, len);
	buf_writer_init(&bw, out, sizeof(out));
	buf_put_u32(&bw, len);
	reply(w, res, out, res ? 0 : buf_written(&bw));
}

static void do_enum(struct worker *w, struct buf_reader *r)
{
	uint8_t out[160];
	uint8_t cursor[STOR_FID];
	struct buf_writer bw;
	struct stor_entry *e = NULL;
	uint32_t storage = 0;
	uint32_t after = 0;
	uint8_t ns = 0;
	TEE_Result res = TEE_SUCCESS;

	buf_get_u32(r, &storage);
	buf_get_u32(r, &after);
	buf_get_bytes(r, cursor, sizeof(cursor));
	if (!buf_done(r) || after > 1) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	if (!ns_of(storage, &ns)) {
		reply(w, TEE_ERROR_ITEM_NOT_FOUND, NULL, 0);
		return;
	}
	res = lock(w);
	if (res) {
		reply(w, res, NULL, 0);
		return;
	}
	e = dir_next(w->store, ns, after ? cursor : NULL);
	buf_writer_init(&bw, out, sizeof(out));
	if (e) {
		buf_put_bytes(&bw, e->fid, STOR_FID);
		put_info(&bw, e, 0);
		buf_put_u32(&bw, e->id_len);
		buf_put_bytes(&bw, e->id, e->id_len);
	} else {
		res = TEE_ERROR_ITEM_NOT_FOUND;
	}
	unlock(w);
	reply(w, res, out, buf_written(&bw));
}

static uint64_t ree_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void do_time_get(struct worker *w)
{
	uint8_t out[16];
	struct buf_writer bw;
	uint64_t now = ree_now_ms();
	uint32_t state = 0;
	int64_t t = 0;
	TEE_Result res = lock(w);

	if (!res) {
		if (w->store->time_set) {
			t = (int64_t)now + w->store->time_offset_ms;
			/* The REE clock went back past the setting: it cannot be trusted. */
			state = now < w->store->time_ree_ms || t < 0 ? 2 : 1;
		}
		unlock(w);
	} else if (res == TEE_ERROR_CORRUPT_OBJECT) {
		state = 2;
		res = TEE_SUCCESS;
	}
	buf_writer_init(&bw, out, sizeof(out));
	buf_put_u32(&bw, state);
	buf_put_u64(&bw, t < 0 ? 0 : (uint64_t)t / 1000);
	buf_put_u32(&bw, t < 0 ? 0 : (uint32_t)((uint64_t)t % 1000));
	reply(w, res, out, res ? 0 : buf_written(&bw));
}

static void do_time_set(struct worker *w, struct buf_reader *r)
{
	uint32_t sec = 0;
	uint32_t ms = 0;
	uint64_t now = ree_now_ms();
	struct txn t;
	TEE_Result res = TEE_SUCCESS;

	buf_get_u32(r, &sec);
	buf_get_u32(r, &ms);
	if (!buf_done(r) || ms > 999) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return;
	}
	res = lock(w);
	if (res) {
		reply(w, res, NULL, 0);
		return;
	}
	txn_begin(&t, w->store);
	txn_time(&t, (int64_t)sec * 1000 + ms - (int64_t)now, now);
	res = txn_commit(&t);
	unlock(w);
	reply(w, res, NULL, 0);
}

/* One request; false when it does not parse (the channel then ends). */
static bool handle_request(struct worker *w, const uint8_t *in, size_t n)
{
	struct buf_reader r;
	uint8_t id[PROTO_STOR_ID_MAX];
	uint32_t type = 0;
	uint32_t h = 0;
	uint32_t a = 0;
	uint64_t v = 0;

	buf_reader_init(&r, in, n);
	buf_get_u32(&r, &type);
	/* A pending create or write takes nothing else until it ends. */
	if (w->p.active && type != MSG_STOR_WRITE && type != MSG_STOR_CREATE_PART) {
		pending_end(w);
		return false;
	}
	switch (type) {
	case MSG_STOR_OPEN:
		do_open(w, &r);
		return true;
	case MSG_STOR_CREATE:
		do_create(w, &r);
		return true;
	case MSG_STOR_CREATE_PART:
		do_create_part(w, &r);
		return true;
	case MSG_STOR_READ:
		do_read(w, &r);
		return true;
	case MSG_STOR_WRITE:
		do_write(w, &r);
		return true;
	case MSG_STOR_ENUM_NEXT:
		do_enum(w, &r);
		return true;
	case MSG_STOR_TIME_SET:
		do_time_set(w, &r);
		return true;
	case MSG_STOR_TIME_GET:
		if (!buf_done(&r))
			return false;
		do_time_get(w);
		return true;
	default:
		break;
	}
	buf_get_u32(&r, &h);
	switch (type) {
	case MSG_STOR_CLOSE:
	case MSG_STOR_DELETE:
	case MSG_STOR_INFO:
	case MSG_STOR_ATTRS:
		if (!buf_done(&r))
			return false;
		if (type == MSG_STOR_CLOSE)
			do_close(w, h);
		else if (type == MSG_STOR_DELETE)
			do_delete(w, h);
		else if (type == MSG_STOR_INFO)
			do_info(w, h);
		else
			do_attrs(w, h);
		return true;
	case MSG_STOR_TRUNCATE:
		buf_get_u64(&r, &v);
		if (!buf_done(&r))
			return false;
		if (v > STOR_MAX_SIZE) {
			reply(w, TEE_ERROR_STORAGE_NO_SPACE, NULL, 0);
			return true;
		}
		change(w, h, TEE_DATA_FLAG_ACCESS_WRITE, type, v, NULL, 0);
		return true;
	case MSG_STOR_RENAME:
		if (!get_id(&r, id, &a) || !buf_done(&r))
			return false;
		change(w, h, TEE_DATA_FLAG_ACCESS_WRITE_META, type, 0, id, a);
		return true;
	case MSG_STOR_RESTRICT:
		buf_get_u32(&r, &a);
		if (!buf_done(&r))
			return false;
		change(w, h, 0, type, a, NULL, 0);
		return true;
	default:
		return false;
	}
}

/* The end of the instance's requests: what they left open closes, its store is let go. */
static void requests_end(struct worker *w)
{
	pending_end(w);
	if (!lock_any(w)) {
		/* What this channel still applies ends before the channel does. */
		reefs_settle(w->fs);
		for (size_t i = 0; i < w->nh; i++)
			if (w->h[i].e)
				handle_drop(&w->h[i]);
		/* The last instance of the TA that used it: leave nothing to replay. */
		if (store_sole(w->store) && !w->fs->broken)
			journal_checkpoint(w->store);
		else if (!w->fs->broken)
			journal_confirm(w->store);
		unlock(w);
		store_put(w->store);
		w->store = NULL;
	}
	free(w->h);
	w->h = NULL;
	w->nh = 0;
	if (w->buf) {
		secure_wipe(w->buf, PROTO_STOR_WINDOW);
		free(w->buf);
	}
	w->buf = NULL;
}

static void worker_release(struct worker *w)
{
	requests_end(w);
	if (w->own_fs.win)
		munmap(w->own_fs.win, PROTO_FS_WINDOW);
	w->own_fs.win = NULL;
	if (w->bulk)
		munmap(w->bulk, PROTO_STOR_WINDOW);
	w->bulk = NULL;
	if (w->heap)
		munmap((void *)w->heap, w->heap_len);
	w->heap = NULL;
}

static void worker_free(struct worker *w)
{
	if (w->own_fs.sock >= 0)
		close(w->own_fs.sock);
	if (w->sock >= 0)
		close(w->sock);
	free(w);
}

/*
 * The last commit wrote blocks in place alongside its record: unless the
 * instance asks for more within CONFIRM_IDLE_MS (the next commit does the
 * same), a record after it, so that a crash cannot take the change back.
 */
static void confirm(struct worker *w)
{
	w->confirm_due = false;
	if (lock(w))
		return;
	journal_confirm(w->store);
	w->confirm_due = false;
	store_unlock(w->store);
}

static void confirm_when_idle(struct worker *w)
{
	struct pollfd p = {.fd = w->sock, .events = POLLIN};

	if (poll(&p, 1, CONFIRM_IDLE_MS) != 0)
		return; /* a request (or an error) first; confirm_due stays */
	confirm(w);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint8_t *in = malloc(PROTO_MSG_MAX);

	while (in) {
		struct msg_fds fds;
		ssize_t n = 0;

		/* Not in the middle of a write in pieces: the store is locked then. */
		if (w->confirm_due && !w->p.active)
			confirm_when_idle(w);
		n = msg_recv(w->sock, in, PROTO_MSG_MAX, &fds);

		if (n <= 0)
			break;
		if (fds.n) {
			msg_fds_close(&fds);
			break;
		}
		if (!handle_request(w, in, (size_t)n)) {
			char name[SWTEE_UUID_STR_LEN];

			uuid_format(&w->uuid, name);
			log_error("TA %s instance %u sent a malformed storage request; "
				  "its storage channel is closed",
				  name, w->instance);
			break;
		}
	}
	free(in);
	worker_release(w);
	/*
	 * Nothing of the instance's outlives it. Its descriptors close under
	 * the lock, so storage_fini never shuts down a number reused since.
	 */
	pthread_mutex_lock(&workers_lock);
	for (struct worker **pp = &workers; *pp; pp = &(*pp)->next) {
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	}
	worker_free(w);
	/*
	 * OpenSSL frees this thread's state (its DRBG) here, not in a key
	 * destructor after the return: storage_fini may already have let the
	 * core exit, and OpenSSL's cleanup at exit deletes that key.
	 */
	OPENSSL_thread_stop();
	pthread_cond_broadcast(&workers_ended);
	pthread_mutex_unlock(&workers_lock);
	return NULL;
}

struct worker *worker_attach(const struct swtee_uuid *uuid, struct reefs *fs, int sock,
			     uint8_t *bulk, const uint8_t *heap, size_t heap_len)
{
	struct worker *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->buf = malloc(PROTO_STOR_WINDOW);
	if (!w->buf) {
		free(w);
		return NULL;
	}
	w->uuid = *uuid;
	w->fs = fs;
	w->own_fs.sock = -1;
	w->sock = sock;
	w->bulk = bulk;
	w->heap = heap;
	w->heap_len = heap_len;
	return w;
}

bool worker_request(struct worker *w, const uint8_t *req, size_t n)
{
	return handle_request(w, req, n);
}

void worker_idle(struct worker *w)
{
	if (w->confirm_due && !w->p.active)
		confirm(w);
}

void worker_detach(struct worker *w)
{
	if (!w)
		return;
	requests_end(w);
	free(w);
}

/*
 * The heap an instance hands over with its storage request: a memfd sealed
 * against shrinking (so that reading it can never fault), mapped read-only.
 * -1 for anything else; 0 with *heap NULL when it cannot be mapped.
 */
static int heap_map(int fd, const uint8_t **heap, size_t *len)
{
	struct stat st;
	int seals = fcntl(fd, F_GET_SEALS);
	void *p = MAP_FAILED;

	*heap = NULL;
	*len = 0;
	if (seals < 0 || !(seals & F_SEAL_SHRINK) || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0 || (uint64_t)st.st_size > HEAP_MAX)
		return -1;
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		log_info("cannot map an instance's heap (%s): its writes come through the window",
			 strerror(errno));
		return 0;
	}
	*heap = p;
	*len = (size_t)st.st_size;
	return 0;
}

void storage_ctl_request(struct core *c, uint32_t instance, const struct swtee_uuid *uuid,
			 struct buf_reader *r, struct msg_fds *fds, struct ta_reply *rep)
{
	struct worker *w = NULL;
	int sv[2] = {-1, -1};
	int bulk_fd = -1;
	int fs_sock = -1;
	int fs_win = -1;
	void *bulk = MAP_FAILED;
	const uint8_t *heap = NULL;
	size_t heap_len = 0;
	bool heap_taken = false;
	TEE_Result res = TEE_ERROR_STORAGE_NOT_AVAILABLE;

	if (!buf_done(r) || fds->n > 1 || (fds->n && heap_map(fds->fd[0], &heap, &heap_len))) {
		rep->violation = "sent a malformed storage request";
		return;
	}
	pthread_mutex_lock(&workers_lock);
	for (w = workers; w; w = w->next) {
		if (w->instance == instance) {
			pthread_mutex_unlock(&workers_lock);
			rep->violation = "asked for a second storage channel";
			if (heap)
				munmap((void *)heap, heap_len);
			return;
		}
	}
	pthread_mutex_unlock(&workers_lock);
	if (!keys_ready()) {
		log_error("trusted storage is off (no secure dir, or its keys could not be "
			  "set up: see the log at start)");
		goto reply;
	}
	if (!c->supplicant) {
		log_error("trusted storage needs tee-supplicant with -f DIR");
		goto reply;
	}
	res = TEE_ERROR_OUT_OF_MEMORY;
	w = calloc(1, sizeof(*w));
	if (!w)
		goto reply;
	w->sock = -1;
	w->own_fs.sock = -1;
	w->fs = &w->own_fs;
	w->heap = heap; /* unmapped by worker_release */
	w->heap_len = heap_len;
	heap_taken = true;
	w->buf = malloc(PROTO_STOR_WINDOW);
	bulk_fd = memfd_new_sealed("swtee-storage", PROTO_STOR_WINDOW);
	if (!w->buf || bulk_fd < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		goto reply;
	bulk = mmap(NULL, PROTO_STOR_WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, bulk_fd, 0);
	if (bulk == MAP_FAILED)
		goto reply;
	w->bulk = bulk; /* unmapped by worker_release */
	res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	fs_win = memfd_new_sealed("swtee-reefs", PROTO_FS_WINDOW);
	if (fs_win < 0 || supplicant_open_channel(c, MSG_SUPP_FS_CHANNEL, fs_win, &fs_sock) ||
	    reefs_open(&w->own_fs, fs_sock, fs_win))
		goto reply;
	fs_sock = -1; /* transferred */
	close(fs_win);
	fs_win = -1;
	w->sock = sv[0];
	sv[0] = -1;
	w->instance = instance;
	w->uuid = *uuid;
	/* Listed before the thread runs: it unlinks itself when it ends. */
	pthread_mutex_lock(&workers_lock);
	if (pthread_create(&w->thread, NULL, worker_main, w)) {
		pthread_mutex_unlock(&workers_lock);
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto reply;
	}
	pthread_detach(w->thread);
	w->next = workers;
	workers = w;
	pthread_mutex_unlock(&workers_lock);
	w = NULL; /* the thread owns it */
	res = TEE_SUCCESS;
reply:
	rep->type = MSG_CTL_STORAGE_RSP;
	rep->res = res;
	rep->word[0] = !res && heap ? 1 : 0;
	rep->nwords = 1;
	if (!res) {
		rep->fd[0] = sv[1];
		rep->fd[1] = bulk_fd;
		rep->nfds = 2;
		sv[1] = bulk_fd = -1; /* transferred */
	}
	if (heap && !heap_taken)
		munmap((void *)heap, heap_len);
	if (w) {
		worker_release(w);
		worker_free(w);
	}
	if (fs_sock >= 0)
		close(fs_sock);
	if (fs_win >= 0)
		close(fs_win);
	for (int i = 0; i < 2; i++)
		if (sv[i] >= 0)
			close(sv[i]);
	if (bulk_fd >= 0)
		close(bulk_fd);
}

int storage_init(const char *secure_dir)
{
	/*
	 * Workers and store loads use buffers of 1-2 MiB: from mmap always, so
	 * that they go back to the kernel when freed. glibc would otherwise
	 * raise its threshold after the first free and keep them in the arena
	 * of each worker thread (some MiB of resident memory per arena).
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	if (!secure_dir || !*secure_dir) {
		log_info("no secure dir: trusted storage is off");
		return 0;
	}
	if (keys_init(secure_dir)) {
		log_error("cannot set up the storage keys in %s: trusted storage is off",
			  secure_dir);
		return -1;
	}
	return 0;
}

void storage_fini(void)
{
	struct timespec limit;

	/*
	 * Each worker finishes the request it runs, sees its instance's channel
	 * end and leaves its store checkpointed; one that takes longer than
	 * FINI_WAIT_S (a supplicant that stalls) has its REE FS channel cut.
	 */
	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += FINI_WAIT_S;
	pthread_mutex_lock(&workers_lock);
	for (struct worker *w = workers; w; w = w->next)
		shutdown(w->sock, SHUT_RDWR);
	while (workers && !pthread_cond_timedwait(&workers_ended, &workers_lock, &limit))
		;
	for (struct worker *w = workers; w; w = w->next)
		if (w->own_fs.sock >= 0)
			shutdown(w->own_fs.sock, SHUT_RDWR);
	while (workers)
		pthread_cond_wait(&workers_ended, &workers_lock);
	pthread_mutex_unlock(&workers_lock);
	keys_fini();
}
