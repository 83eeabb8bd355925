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

/* TEE_OpenTASession: a session whose client is the calling TA. */
static void open_ta(struct core *c, struct instance *in, struct buf_reader *r, struct msg_fds *fds)
{
	struct swtee_uuid uuid = {{0}};
	uint8_t out[16];
	struct buf_writer w;
	uint32_t sid = 0;
	uint32_t res = 0;
	int sock = -1;

	buf_get_bytes(r, uuid.b, sizeof(uuid.b));
	if (!buf_done(r) || fds->n) {
		instance_kill(in, "sent a malformed session request");
		return;
	}
	/* The caller's identity is its UUID, which the core verified. */
	res = instance_open_session(c, NULL, in, &uuid, TEE_LOGIN_TRUSTED_APP, &in->uuid, &sock,
				    &sid);
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_OPEN_TA_RSP);
	buf_put_u32(&w, res);
	buf_put_u32(&w, TEEC_ORIGIN_TEE);
	buf_put_u32(&w, sid);
	if (instance_send(in, out, buf_written(&w), sock >= 0 ? &sock : NULL, sock >= 0 ? 1 : 0))
		instance_kill(in, "does not take the answer to its request");
	if (sock >= 0)
		close(sock);
}

void ta_request_dispatch(struct core *c, struct instance *in, uint32_t type, struct buf_reader *r,
			 struct msg_fds *fds)
{
	switch (type) {
	case MSG_CTL_OPEN_TA:
		open_ta(c, in, r, fds);
		break;
	case MSG_CTL_STORAGE:
		storage_ctl_request(c, in, r, fds);
		break;
	case MSG_CTL_SOCKET:
		sockets_ctl_request(c, in, r, fds);
		break;
	default:
		instance_kill(in, "sent an unknown request");
		break;
	}
}
