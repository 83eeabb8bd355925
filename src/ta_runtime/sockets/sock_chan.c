/*
 * The socket channel of the instance: asked for once over the control
 * socket (MSG_CTL_SOCKET), then one request and one MSG_SOCK_RSP at a time.
 * The wait is sliced so that a client's cancellation reaches the call that
 * blocks: the core and the supplicant stop it and it answers
 * TEE_ERROR_CANCEL. A channel that fails stays failed.
 */
#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "log.h"
#include "sockets.h"

#define CANCEL_POLL_MS 20

static int chan_fd = -1;
static bool chan_failed;

static bool chan_open(void)
{
	uint8_t out[4];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t res = 0;

	if (chan_fd >= 0)
		return true;
	if (chan_failed)
		return false;
	chan_failed = true;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_SOCKET);
	res =
	    rt_ctl_request(out, buf_written(&w), -1, MSG_CTL_SOCKET_RSP, in, sizeof(in), &fds, &r);
	if (!buf_done(&r) || res || fds.n != 1) {
		msg_fds_close(&fds);
		log_error("sockets are not available (0x%08x)", res);
		return false;
	}
	chan_fd = msg_fds_take(&fds, 0);
	msg_fds_close(&fds);
	chan_failed = false;
	return true;
}

static void chan_lost(void)
{
	log_error("the socket channel to the core is gone");
	close(chan_fd);
	chan_fd = -1;
	chan_failed = true;
}

/* Waits until the channel is readable, passing on one cancellation. */
static int wait_reply(void)
{
	bool cancel_sent = false;

	for (;;) {
		struct pollfd p = {.fd = chan_fd, .events = POLLIN};
		int rc = poll(&p, 1, cancel_sent ? -1 : CANCEL_POLL_MS);

		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return -1;
		if (rc > 0)
			return 0;
		if (TEE_GetCancellationFlag()) {
			uint8_t out[4];
			struct buf_writer w;

			buf_writer_init(&w, out, sizeof(out));
			buf_put_u32(&w, MSG_SOCK_CANCEL);
			if (msg_send(chan_fd, out, buf_written(&w), NULL, 0))
				return -1;
			cancel_sent = true;
		}
	}
}

TEE_Result sock_chan_call(const void *req, size_t len, uint8_t *rsp, size_t cap,
			  struct buf_reader *r)
{
	struct msg_fds fds;
	uint32_t type = 0;
	uint32_t res = 0;
	ssize_t n = 0;

	buf_reader_init(r, rsp, 0);
	if (!chan_open())
		return TEE_ERROR_COMMUNICATION;
	if (msg_send(chan_fd, req, len, NULL, 0) || wait_reply()) {
		chan_lost();
		return TEE_ERROR_COMMUNICATION;
	}
	do {
		n = msg_recv(chan_fd, rsp, cap, &fds);
	} while (n == -EINTR);
	msg_fds_close(&fds);
	if (n <= 0) {
		chan_lost();
		return TEE_ERROR_COMMUNICATION;
	}
	buf_reader_init(r, rsp, (size_t)n);
	buf_get_u32(r, &type);
	buf_get_u32(r, &res);
	if (!buf_ok(r) || type != MSG_SOCK_RSP) {
		chan_lost();
		buf_reader_init(r, rsp, 0);
		return TEE_ERROR_COMMUNICATION;
	}
	return res;
}
