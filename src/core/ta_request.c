/*
 * Requests TA instances make of the core. The instance is hostile: every
 * request is parsed whole, and one that does not parse ends the instance.
 */
#include <unistd.h>

#include <tee_client_api.h>
#include <tee_api_defines.h>

#include "core.h"
#include "log.h"
#include "proto.h"
#include "pta_image.h"
#include "secure.h"
#include "storage/storage.h"

#define UNIQUE_KEY_MIN 16
#define UNIQUE_KEY_MAX 32

/* TEE_OpenTASession: a session whose client is the calling TA. */
static void open_ta(struct core *c, struct instance *in, struct buf_reader *r, struct msg_fds *fds)
{
	struct swtee_uuid uuid = {{0}};

	buf_get_bytes(r, uuid.b, sizeof(uuid.b));
	if (!buf_done(r) || fds->n) {
		instance_kill(in, "sent a malformed session request");
		return;
	}
	if (open_pending(c, NULL, in)) {
		instance_kill(in, "asked for a second session before the first was answered");
		return;
	}
	/* The caller's identity is its UUID, which the core verified. */
	open_start(c, NULL, in, &uuid, TEE_LOGIN_TRUSTED_APP, &in->uuid);
}

void ta_request_open_answer(struct instance *in, uint32_t res, uint32_t sid, int sock)
{
	uint8_t out[16];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_OPEN_TA_RSP);
	buf_put_u32(&w, res);
	buf_put_u32(&w, TEEC_ORIGIN_TEE);
	buf_put_u32(&w, sid);
	if (instance_send(in, out, buf_written(&w), sock >= 0 ? &sock : NULL, sock >= 0 ? 1 : 0))
		instance_kill(in, "does not take the answer to its request");
}

/*
 * The system pseudo-TA's TA-unique key: bound to the device (the HUK) and to
 * the TA the core loaded into this instance, whatever the instance says.
 */
static void derive_key(struct instance *in, struct buf_reader *r, const struct msg_fds *fds)
{
	uint8_t out[8 + UNIQUE_KEY_MAX];
	uint8_t key[UNIQUE_KEY_MAX];
	const uint8_t *extra = NULL;
	struct buf_writer w;
	uint32_t key_len = 0;
	uint32_t extra_len = 0;
	uint32_t res = TEE_SUCCESS;

	buf_get_u32(r, &key_len);
	buf_get_u32(r, &extra_len);
	if (buf_ok(r) && extra_len <= KEYS_UNIQUE_EXTRA_MAX)
		buf_get_ptr(r, &extra, extra_len);
	if (!buf_done(r) || fds->n || extra_len > KEYS_UNIQUE_EXTRA_MAX ||
	    key_len < UNIQUE_KEY_MIN || key_len > UNIQUE_KEY_MAX) {
		instance_kill(in, "sent a malformed key derivation request");
		return;
	}
	if (keys_ta_unique(&in->uuid, extra, extra_len, key, key_len)) {
		log_info("TA-unique key asked for, but there is no device key (no secure dir)");
		res = TEE_ERROR_NOT_SUPPORTED;
	}
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_DERIVE_KEY_RSP);
	buf_put_u32(&w, res);
	if (!res)
		buf_put_bytes(&w, key, key_len);
	if (instance_send(in, out, buf_written(&w), NULL, 0))
		instance_kill(in, "does not take the answer to its request");
	secure_wipe(key, sizeof(key));
	secure_wipe(out, sizeof(out));
}

/* Sends what a channel handler answered, or stops the instance it refused. */
static void send_reply(struct instance *in, struct ta_reply *rep)
{
	uint8_t out[16];
	struct buf_writer w;

	if (rep->violation) {
		instance_kill(in, rep->violation);
		goto out;
	}
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, rep->type);
	buf_put_u32(&w, rep->res);
	for (size_t i = 0; i < rep->nwords; i++)
		buf_put_u32(&w, rep->word[i]);
	if (instance_send(in, out, buf_written(&w), rep->nfds ? rep->fd : NULL, rep->nfds))
		instance_kill(in, "does not take the answer to its request");
out:
	for (size_t i = 0; i < rep->nfds; i++)
		close(rep->fd[i]);
}

void ta_request_dispatch(struct core *c, struct instance *in, uint32_t type, struct buf_reader *r,
			 struct msg_fds *fds)
{
	struct ta_reply rep = {.violation = NULL};

	switch (type) {
	case MSG_CTL_OPEN_TA:
		open_ta(c, in, r, fds);
		break;
	case MSG_CTL_STORAGE:
		storage_ctl_request(c, in->id, &in->uuid, r, fds, &rep);
		send_reply(in, &rep);
		break;
	case MSG_CTL_SOCKET:
		sockets_ctl_request(c, in->id, &in->uuid, r, fds, &rep);
		send_reply(in, &rep);
		break;
	case MSG_CTL_DERIVE_KEY:
		derive_key(in, r, fds);
		break;
	case MSG_CTL_PLUGIN:
		plugins_ctl_request(c, in->id, &in->uuid, r, fds, &rep);
		send_reply(in, &rep);
		break;
	case MSG_CTL_STATS:
		pta_stats_request(c, in, r, fds);
		break;
	case MSG_CTL_TA_INSTALL:
		ta_store_request(c, in, r, fds);
		break;
	case MSG_CTL_ATTEST:
		pta_attest_request(c, in, r, fds);
		break;
	case MSG_CTL_DLOPEN:
		ta_dlopen_request(c, in, r, fds);
		break;
	default:
		instance_kill(in, "sent an unknown request");
		break;
	}
}
