/*
 * The stats pseudo-TA's request to the core (MSG_CTL_STATS): which TAs run,
 * with how many sessions. An instance sees only its own user's instances,
 * as `swtee status` shows a user only theirs; the asking instance itself
 * and instances being destroyed are left out.
 */
#include <tee_client_api.h>

#include "core.h"
#include "proto.h"
#include "pta_image.h"

void pta_stats_request(struct core *c, struct instance *in, struct buf_reader *r,
		       const struct msg_fds *fds)
{
	uint8_t out[12 + PROTO_STATS_TAS_MAX * PROTO_STATS_ENTRY_LEN];
	struct buf_writer w;
	uint32_t n = 0;

	if (!buf_done(r) || fds->n || !pta_is_stats(&in->uuid)) {
		instance_kill(in, "sent a stats request it may not send");
		return;
	}
	for (const struct instance *i = c->instances; i; i = i->next)
		if (i != in && !i->destroying && i->uid == in->uid && n < PROTO_STATS_TAS_MAX)
			n++;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_STATS_RSP);
	buf_put_u32(&w, TEEC_SUCCESS);
	buf_put_u32(&w, n);
	for (const struct instance *i = c->instances; i && n; i = i->next) {
		if (i == in || i->destroying || i->uid != in->uid)
			continue;
		buf_put_bytes(&w, i->uuid.b, sizeof(i->uuid.b));
		buf_put_u32(&w, i->nsessions);
		n--;
	}
	if (instance_send(in, out, buf_written(&w), NULL, 0))
		instance_kill(in, "does not take the answer to its request");
}
