/*
 * What every request of a storage channel goes through: the parsing of
 * what requests share, the store locked around it (loaded on first use),
 * the handle it names checked, its reply (worker.h).
 */

#include <string.h>
#include <time.h>

#include <tee_api_defines_extensions.h>

#include "log.h"
#include "worker.h"

/* ---- replies and parsing ---- */

void reply(struct worker *w, TEE_Result res, const uint8_t *extra, size_t n)
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

void put_info(struct buf_writer *bw, const struct stor_entry *e, uint32_t flags)
{
	buf_put_u32(bw, e->type);
	buf_put_u32(bw, e->obj_size);
	buf_put_u32(bw, e->max_size);
	buf_put_u32(bw, e->usage);
	buf_put_u64(bw, e->size);
	buf_put_u32(bw, flags);
}

bool get_id(struct buf_reader *r, uint8_t id[PROTO_STOR_ID_MAX], uint32_t *len)
{
	return buf_get_u32(r, len) && *len <= PROTO_STOR_ID_MAX && buf_get_bytes(r, id, *len);
}

bool ns_of(uint32_t storage, uint8_t *ns)
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

/* ---- the store, around each request ---- */

TEE_Result lock(struct worker *w)
{
	TEE_Result res = TEE_ERROR_GENERIC;

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

int lock_any(struct worker *w)
{
	if (!w->store)
		return -1;
	/*
	 * Locked even when it fails (a broken store, one not loaded): the caller
	 * ends the channel either way. A store its channel never got loaded is
	 * not loaded now: a load (or the first RPMB slot of a new store) after the
	 * instance has gone would race with whatever its client does next.
	 */
	if (store_lock_loaded(w->store, w->fs))
		log_debug("storage: a channel ends on a store that is not available");
	return 0;
}

void unlock(struct worker *w)
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
	if (txn_commit(&t))
		log_error("storage: an object's integrity failure could not be recorded: it is "
			  "found again at its next read");
	entry_free(d);
}

TEE_Result fix_result(struct worker *w, struct stor_entry *e, TEE_Result res)
{
	if (res == TEE_ERROR_CORRUPT_OBJECT && e && (e->flags & ENTRY_CORRUPT))
		persist_corrupt(w, e);
	if (res == TEE_ERROR_ITEM_NOT_FOUND)
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
	return res;
}

TEE_Result begin(struct worker *w, uint32_t h, uint32_t need, struct whandle **out)
{
	struct whandle *wh = handle_of(w, h);
	TEE_Result res = TEE_ERROR_GENERIC;

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

uint64_t ree_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}
