/*
 * The requests of a storage channel, one table from each message type to
 * what serves it. The instance is hostile: requests are parsed whole and
 * bounded, and one that does not parse ends the channel (worker.h).
 */

#include "secure.h"
#include "log.h"
#include "worker.h"

/*
 * How a request is served: by body, which parses the rest of it; or, after
 * the handle it names, by on_handle (a request of the handle alone) or by
 * with_handle, which parses the rest. Each returns false when the request
 * does not parse.
 */
struct request_kind {
	bool (*body)(struct worker *w, struct buf_reader *r);
	void (*on_handle)(struct worker *w, uint32_t h);
	bool (*with_handle)(struct worker *w, uint32_t h, struct buf_reader *r);
	bool while_pending; /* taken while a create or write in pieces is pending */
};

#define MSG_STOR_FIRST MSG_STOR_OPEN
#define MSG_STOR_LAST MSG_STOR_CREATE_PART

static const struct request_kind requests[MSG_STOR_LAST - MSG_STOR_FIRST + 1] = {
    [MSG_STOR_OPEN - MSG_STOR_FIRST] = {.body = do_open},
    [MSG_STOR_CREATE - MSG_STOR_FIRST] = {.body = do_create},
    [MSG_STOR_CREATE_PART - MSG_STOR_FIRST] = {.body = do_create_part, .while_pending = true},
    [MSG_STOR_READ - MSG_STOR_FIRST] = {.body = do_read},
    [MSG_STOR_WRITE - MSG_STOR_FIRST] = {.body = do_write, .while_pending = true},
    [MSG_STOR_ENUM_NEXT - MSG_STOR_FIRST] = {.body = do_enum},
    [MSG_STOR_TIME_SET - MSG_STOR_FIRST] = {.body = do_time_set},
    [MSG_STOR_TIME_GET - MSG_STOR_FIRST] = {.body = do_time_get},
    [MSG_STOR_CLOSE - MSG_STOR_FIRST] = {.on_handle = do_close},
    [MSG_STOR_DELETE - MSG_STOR_FIRST] = {.on_handle = do_delete},
    [MSG_STOR_INFO - MSG_STOR_FIRST] = {.on_handle = do_info},
    [MSG_STOR_ATTRS - MSG_STOR_FIRST] = {.on_handle = do_attrs},
    [MSG_STOR_TRUNCATE - MSG_STOR_FIRST] = {.with_handle = do_truncate},
    [MSG_STOR_RENAME - MSG_STOR_FIRST] = {.with_handle = do_rename},
    [MSG_STOR_RESTRICT - MSG_STOR_FIRST] = {.with_handle = do_restrict},
};

bool requests_serve(struct worker *w, const uint8_t *in, size_t n)
{
	const struct request_kind *k = NULL;
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t h = 0;

	buf_reader_init(&r, in, n);
	buf_get_u32(&r, &type);
	if (type >= MSG_STOR_FIRST && type <= MSG_STOR_LAST)
		k = &requests[type - MSG_STOR_FIRST];
	/* A pending create or write takes nothing else until it ends. */
	if (w->p.active && !(k && k->while_pending)) {
		pending_end(w);
		return false;
	}
	if (!k)
		return false;
	if (k->body)
		return k->body(w, &r);
	buf_get_u32(&r, &h);
	if (k->with_handle)
		return k->with_handle(w, h, &r);
	if (!buf_done(&r))
		return false;
	k->on_handle(w, h);
	return true;
}

void requests_end(struct worker *w)
{
	TEE_Result end = TEE_SUCCESS;

	pending_end(w);
	if (!lock_any(w)) {
		/* What this channel still applies ends before the channel does. */
		reefs_settle(w->fs);
		for (size_t i = 0; i < w->nh; i++)
			if (w->h[i].e)
				handle_drop(&w->h[i]);
		/* The last instance of the TA that used it: leave nothing to replay. */
		if (store_sole(w->store) && !w->fs->broken)
			end = journal_checkpoint(w->store);
		else if (!w->fs->broken)
			end = journal_confirm(w->store);
		if (end)
			log_debug(
			    "storage: a channel ends with records for the next load to replay");
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
