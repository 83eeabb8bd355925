/*
 * Fuzzes the core's parsing of what a TA instance sends on its socket
 * channel (src/core/sockets/ops.c), request after request as the relay
 * thread reads them, with the policy in force (loopback only) and the real
 * supplicant service (src/supplicant/sock_serve.c) on its own thread behind
 * it, on the in-process network of sock_fake_net.c. The first byte sets how
 * that network behaves (FAKE_NET_*); then come messages, each a 16-bit
 * little-endian length and its bytes; a length with its top bit set puts the
 * message on the instance's end of the channel instead, where the core reads
 * it while a call runs (as a cancellation would come). After each request
 * the answer and the core's record of the instance's sockets must hold up:
 * one answer of a known result, handles unique, within the limits, every
 * socket to an address the policy allows; at the end nothing stays open.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tee_api_defines.h>
#include <tee_isocket.h>

#include "log.h"
#include "msg.h"
#include "sock_fake_net.h"
#include "sock_serve.h"
#include "sockets/sockets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define QUEUED 0x8000u
#define END_WAIT_MS 10000

static bool result_known(uint32_t res)
{
	switch (res) {
	case TEE_SUCCESS:
	case TEE_ISOCKET_ERROR_REMOTE_CLOSED:
	case TEE_ISOCKET_ERROR_TIMEOUT:
	case TEE_ISOCKET_ERROR_OUT_OF_RESOURCES:
	case TEE_ISOCKET_ERROR_LARGE_BUFFER:
	case TEE_ISOCKET_ERROR_HOSTNAME:
	case TEE_ERROR_COMMUNICATION:
	case TEE_ERROR_CANCEL:
	case TEE_ERROR_BAD_PARAMETERS:
	case TEE_ERROR_OUT_OF_MEMORY:
	case TEE_ERROR_ACCESS_DENIED:
	case TEE_ERROR_NOT_SUPPORTED:
		return true;
	default:
		return false;
	}
}

/* What the core keeps of the instance's sockets, and its answer, hold up. */
static void check(const struct sock_relay *rl, const struct buf_writer *w)
{
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t res = 0;
	uint32_t total = 0;

	buf_reader_init(&r, w->p, buf_written(w));
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &res);
	if (!buf_ok(&r) || type != MSG_SOCK_RSP || !result_known(res))
		abort();
	for (size_t i = 0; i < SOCK_PER_INSTANCE; i++) {
		const struct sock_entry *e = &rl->socks[i];

		if (!e->used)
			continue;
		for (size_t k = i + 1; k < SOCK_PER_INSTANCE; k++)
			if (rl->socks[k].used && rl->socks[k].handle == e->handle)
				abort();
		if (!sock_policy_allows(&rl->uuid, &e->peer))
			abort();
		if (e->bufs[0] > SOCK_BUF_MAX || e->bufs[1] > SOCK_BUF_MAX)
			abort();
		total += e->bufs[0] + e->bufs[1];
	}
	if (total != rl->buf_total || total > SOCK_BUF_BUDGET)
		abort();
}

/* The relay's end: the supplicant closes the instance's sockets, then its channel. */
static void end_channel(struct sock_relay *rl)
{
	static uint8_t sink[PROTO_SOCK_MSG_MAX];
	uint8_t out[4];
	struct buf_writer w;

	if (rl->supp < 0)
		return;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_SOCK_CLOSE_ALL);
	msg_send(rl->supp, out, buf_written(&w), NULL, 0);
	shutdown(rl->supp, SHUT_WR);
	for (;;) {
		struct msg_fds fds;
		ssize_t n = msg_recv_timeout(rl->supp, sink, sizeof(sink), &fds, END_WAIT_MS);

		msg_fds_close(&fds);
		if (n == -ETIMEDOUT)
			abort(); /* the supplicant's service does not end */
		if (n == 0 || (n < 0 && n != -EMSGSIZE && n != -EINTR))
			break;
	}
	close(rl->supp);
	rl->supp = -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct sock_relay *rl = NULL;
	long fds0 = 0;
	size_t off = 1;
	int ta[2] = {-1, -1};
	int supp[2] = {-1, -1};

	if (!ready) {
		log_init("fuzz", 0);
		signal(SIGPIPE, SIG_IGN);
		ready = true;
	}
	if (!size)
		return 0;
	fds0 = fake_net_count_fds();
	fake_net_set(data[0]);
	rl = calloc(1, sizeof(*rl));
	if (!rl || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ta) ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, supp))
		abort();
	rl->ta = ta[0];
	rl->supp = supp[0];
	rl->instance = 1;
	memset(rl->uuid.b, 0x6b, sizeof(rl->uuid.b));
	uuid_format(&rl->uuid, rl->name);
	if (sock_serve_channel(supp[1]))
		abort();
	while (off + 2 <= size && !rl->ta_gone) {
		size_t len = (size_t)data[off] | (size_t)data[off + 1] << 8;
		bool queued = len & QUEUED;
		struct buf_reader r;
		struct buf_writer w;
		uint32_t type = 0;

		len &= ~(size_t)QUEUED;
		off += 2;
		if (len > size - off)
			len = size - off;
		if (queued) {
			send(ta[1], data + off, len, MSG_NOSIGNAL | MSG_DONTWAIT);
			off += len;
			continue;
		}
		/* As the relay thread: one message into its buffer, whole or not at all. */
		if (!len || len > sizeof(rl->req))
			break;
		memcpy(rl->req, data + off, len);
		off += len;
		buf_reader_init(&r, rl->req, len);
		buf_get_u32(&r, &type);
		if (type == MSG_SOCK_CANCEL && buf_done(&r))
			continue;
		buf_writer_init(&w, rl->fwd, sizeof(rl->fwd));
		sock_ops_handle(rl, type, &r, &w);
		if (!rl->ta_gone)
			check(rl, &w);
	}
	end_channel(rl);
	close(ta[0]);
	close(ta[1]);
	free(rl);
	if (fake_net_count_fds() != fds0)
		abort(); /* a descriptor outlived the channel */
	return 0;
}
