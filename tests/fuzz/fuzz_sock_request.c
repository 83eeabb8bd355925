/*
 * Fuzzes tee-supplicant's socket service (src/supplicant/sock_serve.c): what
 * the core sends on a socket channel. The service runs as in the
 * supplicant, on its own thread, against the in-process network of
 * sock_fake_net.c. The first byte sets how that network behaves
 * (FAKE_NET_*); then come messages, each a 16-bit little-endian length and
 * its bytes. Every request but MSG_SOCK_CANCEL and MSG_SOCK_CLOSE_ALL must
 * be answered promptly with a MSG_SOCK_RSP of a result the core accepts, and
 * when the channel ends every descriptor the service opened must be closed.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tee_api_defines.h>
#include <tee_isocket.h>

#include "buf.h"
#include "log.h"
#include "msg.h"
#include "proto.h"
#include "sock_fake_net.h"
#include "sock_serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ANSWER_WAIT_MS 10000

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
		return true;
	default:
		return false;
	}
}

/* The answer to a request: a MSG_SOCK_RSP, within bounds. False when the channel ended. */
static bool check_answer(int sock)
{
	static uint8_t in[PROTO_SOCK_MSG_MAX + 16];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t res = 0;
	ssize_t n = msg_recv_timeout(sock, in, sizeof(in), &fds, ANSWER_WAIT_MS);

	if (n == -ETIMEDOUT || fds.n || n > (ssize_t)PROTO_SOCK_MSG_MAX)
		abort(); /* no answer in time, descriptors, or an oversized answer */
	if (n <= 0)
		return false;
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &res);
	if (!buf_ok(&r) || type != MSG_SOCK_RSP || !result_known(res))
		abort();
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	static uint8_t sink[PROTO_SOCK_MSG_MAX + 16];
	long fds0 = 0;
	size_t off = 1;
	int sv[2] = {-1, -1};

	if (!ready) {
		log_init("fuzz", 0);
		signal(SIGPIPE, SIG_IGN);
		ready = true;
	}
	if (!size)
		return 0;
	fds0 = fake_net_count_fds();
	fake_net_set(data[0]);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		abort();
	if (sock_serve_channel(sv[1]))
		abort();
	while (off + 2 <= size) {
		size_t len = (size_t)data[off] | (size_t)data[off + 1] << 8;
		uint32_t type = 0;

		off += 2;
		if (len > size - off)
			len = size - off;
		if (send(sv[0], data + off, len, MSG_NOSIGNAL) != (ssize_t)len)
			break;
		for (size_t i = 0; i < 4 && len >= 4; i++)
			type |= (uint32_t)data[off + i] << (8 * i);
		off += len;
		/* An empty message reads as the channel's end. */
		if (!len || type == MSG_SOCK_CLOSE_ALL)
			break;
		if (type == MSG_SOCK_CANCEL)
			continue; /* late: nothing to answer */
		if (!check_answer(sv[0]))
			break;
	}
	/* The end of the channel: the service closes everything and then its end. */
	shutdown(sv[0], SHUT_WR);
	for (;;) {
		struct msg_fds fds;
		ssize_t n = msg_recv_timeout(sv[0], sink, sizeof(sink), &fds, ANSWER_WAIT_MS);

		msg_fds_close(&fds);
		if (n == -ETIMEDOUT)
			abort(); /* the service does not end */
		if (n == 0 || (n < 0 && n != -EMSGSIZE && n != -EINTR))
			break;
	}
	close(sv[0]);
	if (fake_net_count_fds() != fds0)
		abort(); /* a descriptor outlived its channel */
	return 0;
}
