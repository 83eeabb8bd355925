/*
 * The requests that change no object: open, read, close, info, attributes,
 * enumeration and the persistent time (worker.h).
 */

#include <string.h>

#include <tee_api_defines_extensions.h>

#include "secure.h"
#include "worker.h"

bool do_open(struct worker *w, struct buf_reader *r)
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
	TEE_Result res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &storage);
	buf_get_u32(r, &flags);
	if (!get_id(r, id, &len) || !buf_done(r) || (flags & ~CREATE_FLAGS)) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return true;
	}
	flags &= OPEN_FLAGS;
	if (!ns_of(storage, &ns)) {
		reply(w, TEE_ERROR_ITEM_NOT_FOUND, NULL, 0);
		return true;
	}
retry:
	res = lock(w);
	if (res) {
		reply(w, res, NULL, 0);
		return true;
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
		if (w->releases_wait(w))
			goto retry;
		reply(w, res, NULL, 0);
		return true;
	}
	buf_writer_init(&bw, out, sizeof(out));
	if (!res) {
		buf_put_u32(&bw, h);
		put_info(&bw, e, flags);
		buf_put_u32(&bw, e->attr_len);
	}
	unlock(w);
	reply(w, res, out, buf_written(&bw));
	return true;
}

bool do_read(struct worker *w, struct buf_reader *r)
{
	uint8_t out[4];
	struct buf_writer bw;
	struct whandle *wh = NULL;
	uint32_t h = 0;
	uint64_t pos = 0;
	uint32_t len = 0;
	uint32_t count = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &h);
	buf_get_u64(r, &pos);
	buf_get_u32(r, &len);
	if (!buf_done(r) || len > PROTO_STOR_WINDOW) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return true;
	}
	res = begin(w, h, TEE_DATA_FLAG_ACCESS_READ, &wh);
	if (res) {
		reply(w, res, NULL, 0);
		return true;
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
	return true;
}

void do_close(struct worker *w, uint32_t h)
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

void do_info(struct worker *w, uint32_t h)
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

void do_attrs(struct worker *w, uint32_t h)
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

bool do_enum(struct worker *w, struct buf_reader *r)
{
	uint8_t out[160];
	uint8_t cursor[STOR_FID];
	struct buf_writer bw;
	struct stor_entry *e = NULL;
	uint32_t storage = 0;
	uint32_t after = 0;
	uint8_t ns = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &storage);
	buf_get_u32(r, &after);
	buf_get_bytes(r, cursor, sizeof(cursor));
	if (!buf_done(r) || after > 1) {
		reply(w, TEE_ERROR_BAD_PARAMETERS, NULL, 0);
		return true;
	}
	if (!ns_of(storage, &ns)) {
		reply(w, TEE_ERROR_ITEM_NOT_FOUND, NULL, 0);
		return true;
	}
	res = lock(w);
	if (res) {
		reply(w, res, NULL, 0);
		return true;
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
	return true;
}

bool do_time_get(struct worker *w, struct buf_reader *r)
{
	uint8_t out[16];
	struct buf_writer bw;
	uint64_t now = ree_now_ms();
	uint32_t state = 0;
	int64_t t = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!buf_done(r))
		return false;
	res = lock(w);

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
	return true;
}
