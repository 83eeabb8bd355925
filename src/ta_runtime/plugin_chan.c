/*
 * The plugin channel of the instance: asked for over the control socket
 * (MSG_CTL_PLUGIN) at the first call, then one MSG_PLUGIN_INVOKE and one
 * MSG_PLUGIN_RSP at a time. The core ends the channel when the supplicant
 * failed; the next call sees it closed and asks for a new one, which a
 * supplicant that connected since serves.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "plugin_chan.h"
#include "plugin_msg.h"
#include "runtime.h"

static int chan_fd = -1;
/* The request, then the answer: one call at a time, as the TA runs one entry point. */
static uint8_t chan_msg[PROTO_PLUGIN_MSG_MAX];

static void chan_close(void)
{
	if (chan_fd >= 0)
		close(chan_fd);
	chan_fd = -1;
}

/* The core never speaks unasked: a channel readable between calls has closed. */
static void chan_check(void)
{
	struct pollfd p = {.fd = chan_fd, .events = POLLIN};

	if (chan_fd >= 0 && poll(&p, 1, 0) != 0)
		chan_close();
}

static TEE_Result chan_open(void)
{
	uint8_t out[4];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t res = TEE_ERROR_COMMUNICATION;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_PLUGIN);
	res =
	    rt_ctl_request(out, buf_written(&w), -1, MSG_CTL_PLUGIN_RSP, in, sizeof(in), &fds, &r);
	if (!buf_done(&r) || (!res && fds.n != 1))
		res = TEE_ERROR_COMMUNICATION;
	if (!res)
		chan_fd = msg_fds_take(&fds, 0);
	msg_fds_close(&fds);
	if (res)
		log_error("supplicant plugins are not available (0x%08x)", res);
	return res;
}

/* The answer in chan_msg[n] into buf and *out_len. Returns -1 when malformed. */
static int answer(size_t n, void *buf, size_t len, TEE_Result *res, size_t *out_len)
{
	struct plugin_msg_answer a;

	if (plugin_msg_parse_answer(chan_msg, n, (uint32_t)len, &a))
		return -1;
	if (a.len)
		memcpy(buf, a.data, a.len);
	*res = a.result;
	*out_len = a.out_len;
	return 0;
}

TEE_Result rt_plugin_invoke(const struct swtee_uuid *uuid, uint32_t cmd, uint32_t sub_cmd,
			    void *buf, size_t len, size_t *out_len)
{
	struct buf_writer w;
	struct msg_fds fds;
	TEE_Result res = TEE_ERROR_COMMUNICATION;
	ssize_t n = 0;

	*out_len = 0;
	if (len > PROTO_PLUGIN_DATA_MAX) {
		log_error("a plugin call carries at most %u bytes, not %zu", PROTO_PLUGIN_DATA_MAX,
			  len);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	chan_check();
	if (chan_fd < 0) {
		res = chan_open();
		if (res)
			return res;
	}
	buf_writer_init(&w, chan_msg, sizeof(chan_msg));
	buf_put_u32(&w, MSG_PLUGIN_INVOKE);
	buf_put_bytes(&w, uuid->b, sizeof(uuid->b));
	buf_put_u32(&w, cmd);
	buf_put_u32(&w, sub_cmd);
	buf_put_u32(&w, (uint32_t)len);
	buf_put_bytes(&w, buf, len);
	if (msg_send(chan_fd, chan_msg, buf_written(&w), NULL, 0))
		goto lost;
	do {
		n = msg_recv(chan_fd, chan_msg, sizeof(chan_msg), &fds);
	} while (n == -EINTR);
	if (n <= 0 || fds.n) {
		msg_fds_close(&fds);
		goto lost;
	}
	if (answer((size_t)n, buf, len, &res, out_len))
		goto lost;
	return res;
lost:
	log_error("the plugin channel to the core is gone");
	chan_close();
	return TEE_ERROR_COMMUNICATION;
}
