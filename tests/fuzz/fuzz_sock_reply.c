/*
 * Fuzzes the core's parsing of tee-supplicant's answers on a socket channel
 * (src/core/sockets/relay.c and ops.c). The instance's side is a fixed run
 * of well-formed requests (opens by address and by name, TCP and UDP, IPv4
 * and IPv6, send, receive, every ioctl, close); the supplicant's answers are
 * the input: the first byte sets what waits on the instance's end of the
 * channel (bit 0: a cancellation, bit 1: a malformed message), then come
 * answers, each a 16-bit little-endian length and its bytes, all queued
 * before the run, after which the supplicant's end says no more. Whatever
 * the answers, the core's answers to the instance must hold up, and what it
 * asks the supplicant must be well-formed: no connection or peer to an
 * address the policy (loopback only) refuses.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tee_api_defines.h>
#include <tee_isocket.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "log.h"
#include "msg.h"
#include "sockets/sockets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum step_kind { OPEN, SEND, RECV, IOCTL, CLOSE };

struct step {
	enum step_kind kind;
	uint32_t proto;	 /* OPEN */
	uint32_t ipver;	 /* OPEN */
	const char *arg; /* OPEN: host; IOCTL TEE_UDP_CHANGEADDR: host */
	uint32_t num;	 /* OPEN: port; SEND, RECV: length; IOCTL: command */
	uint32_t timeout;
	size_t sock; /* which of the sockets opened so far */
};

static const struct step script[] = {
    {OPEN, TEE_ISOCKET_PROTOCOLID_TCP, TEE_IP_VERSION_DC, "localhost", 8080, 0, 0},
    {OPEN, TEE_ISOCKET_PROTOCOLID_UDP, TEE_IP_VERSION_4, "127.0.0.1", 53, 0, 0},
    {OPEN, TEE_ISOCKET_PROTOCOLID_TCP, TEE_IP_VERSION_6, "ip6-name.test", 443, 0, 0},
    {SEND, 0, 0, NULL, 100, 1000, 0},
    {RECV, 0, 0, NULL, 64, 0, 0},
    {RECV, 0, 0, NULL, 4096, PROTO_SOCK_NO_TIMEOUT, 0},
    {IOCTL, 0, 0, NULL, TEE_TCP_SET_RECVBUF, 0, 0},
    {IOCTL, 0, 0, NULL, TEE_TCP_SET_SENDBUF, 0, 0},
    {IOCTL, 0, 0, "example.test", TEE_UDP_CHANGEADDR, 0, 1},
    {IOCTL, 0, 0, "::ffff:127.0.0.2", TEE_UDP_CHANGEADDR, 0, 1},
    {IOCTL, 0, 0, "0.0.0.0", TEE_UDP_CHANGEADDR, 0, 1},
    {IOCTL, 0, 0, NULL, TEE_UDP_CHANGEPORT, 0, 1},
    {SEND, 0, 0, NULL, 1, 0, 1},
    {CLOSE, 0, 0, NULL, 0, 0, 0},
    {SEND, 0, 0, NULL, 2000, PROTO_SOCK_NO_TIMEOUT, 2},
    {RECV, 0, 0, NULL, 0, 10, 2},
    {RECV, 0, 0, NULL, 0, PROTO_SOCK_NO_TIMEOUT, 1},
    {CLOSE, 0, 0, NULL, 0, 0, 1},
    {CLOSE, 0, 0, NULL, 0, 0, 2},
};

#define NSTEPS (sizeof(script) / sizeof(script[0]))

static uint8_t req[PROTO_SOCK_MSG_MAX];
static uint8_t sent_req[PROTO_SOCK_MSG_MAX];

/* The instance's request for step s, with the handles opened so far. */
static size_t build(const struct step *s, const uint32_t *handles, struct buf_writer *w)
{
	static const uint8_t payload[2000] = {1, 2, 3};
	uint32_t h = handles[s->sock];
	uint32_t v = 0;

	buf_writer_init(w, req, sizeof(req));
	switch (s->kind) {
	case OPEN:
		buf_put_u32(w, MSG_SOCK_OPEN);
		buf_put_u32(w, s->proto);
		buf_put_u32(w, s->ipver);
		buf_put_u32(w, s->num);
		buf_put_u32(w, (uint32_t)strlen(s->arg));
		buf_put_bytes(w, s->arg, strlen(s->arg));
		break;
	case SEND:
		buf_put_u32(w, MSG_SOCK_SEND);
		buf_put_u32(w, h);
		buf_put_u32(w, s->timeout);
		buf_put_u32(w, s->num);
		buf_put_bytes(w, payload, s->num);
		break;
	case RECV:
		buf_put_u32(w, MSG_SOCK_RECV);
		buf_put_u32(w, h);
		buf_put_u32(w, s->timeout);
		buf_put_u32(w, s->num);
		break;
	case IOCTL:
		buf_put_u32(w, MSG_SOCK_IOCTL);
		buf_put_u32(w, h);
		buf_put_u32(w, s->num);
		if (s->num == TEE_UDP_CHANGEADDR) {
			buf_put_u32(w, (uint32_t)strlen(s->arg));
			buf_put_bytes(w, s->arg, strlen(s->arg));
		} else if (s->num == TEE_UDP_CHANGEPORT) {
			buf_put_u32(w, 2);
			buf_put_u16(w, 5353);
		} else {
			v = s->num == TEE_TCP_SET_RECVBUF ? 4096 : 512 * 1024;
			buf_put_u32(w, 4);
			buf_put_u32(w, v);
		}
		break;
	case CLOSE:
		buf_put_u32(w, MSG_SOCK_CLOSE);
		buf_put_u32(w, h);
		break;
	}
	return buf_written(w);
}

/* An address as the core sends it, checked against the policy. */
static void check_addr(const struct sock_relay *rl, struct buf_reader *r, uint32_t port)
{
	struct sock_peer p;

	memset(&p, 0, sizeof(p));
	if (!buf_get_u32(r, &p.family) || !buf_get_bytes(r, p.addr, sizeof(p.addr)))
		abort();
	if (p.family != PROTO_SOCK_INET4 && p.family != PROTO_SOCK_INET6)
		abort();
	p.port = (uint16_t)port;
	if (!port || port > 65535 || !sock_policy_allows(&rl->uuid, &p))
		abort(); /* the core asked for a connection the policy refuses */
}

/* What the core asked the supplicant meanwhile: each request well-formed. */
static void check_requests(const struct sock_relay *rl, int sock)
{
	for (;;) {
		struct msg_fds fds;
		struct buf_reader r;
		uint32_t type = 0;
		uint32_t v[4] = {0};
		ssize_t n = msg_recv(sock, sent_req, sizeof(sent_req), &fds);

		/* Nothing more; or the core closed its end with our answers unread. */
		if (n == -EAGAIN || n == 0 || n == -ECONNRESET)
			return;
		if (n < 0 || fds.n)
			abort(); /* an oversized request, or one with descriptors */
		buf_reader_init(&r, sent_req, (size_t)n);
		buf_get_u32(&r, &type);
		switch (type) {
		case MSG_SOCK_CONNECT: /* proto port timeout n n*addr */
			for (int i = 0; i < 4; i++)
				buf_get_u32(&r, &v[i]);
			if (!v[3] || v[3] > PROTO_SOCK_ADDRS_MAX)
				abort();
			for (uint32_t i = 0; i < v[3]; i++)
				check_addr(rl, &r, v[1]);
			break;
		case MSG_SOCK_SETPEER: { /* handle addr port */
			struct buf_reader a;

			buf_get_u32(&r, &v[0]);
			if (!buf_get_sub(&r, &a, 20) || !buf_get_u32(&r, &v[1]))
				abort();
			check_addr(rl, &a, v[1]);
			break;
		}
		case MSG_SOCK_RESOLVE: /* proto ipver host */
			for (int i = 0; i < 3; i++)
				buf_get_u32(&r, &v[i]);
			if (!v[2] || v[2] > PROTO_SOCK_HOST_MAX || !buf_skip(&r, v[2]))
				abort();
			break;
		case MSG_SOCK_SEND: /* handle timeout len data */
			for (int i = 0; i < 3; i++)
				buf_get_u32(&r, &v[i]);
			if (v[2] > PROTO_SOCK_DATA_MAX || !buf_skip(&r, v[2]))
				abort();
			break;
		case MSG_SOCK_RECV: /* handle timeout len; len 0 asks at once */
			for (int i = 0; i < 3; i++)
				buf_get_u32(&r, &v[i]);
			if (v[2] > PROTO_SOCK_DATA_MAX || (!v[2] && v[1]))
				abort();
			break;
		case MSG_SOCK_SETBUF:
			for (int i = 0; i < 3; i++)
				buf_get_u32(&r, &v[i]);
			break;
		case MSG_SOCK_CLOSE:
			buf_get_u32(&r, &v[0]);
			break;
		case MSG_SOCK_CANCEL:
		case MSG_SOCK_CLOSE_ALL:
			break;
		default:
			abort();
		}
		if (!buf_done(&r))
			abort();
	}
}

/* The core's answer to the instance; a successful open's handle into *handle. */
static void check_answer(const struct step *s, const struct buf_writer *w, uint32_t *handle)
{
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t res = 0;
	uint32_t v = 0;

	buf_reader_init(&r, w->p, buf_written(w));
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &res);
	if (!buf_ok(&r) || type != MSG_SOCK_RSP)
		abort();
	if (s->kind == SEND) {
		if (!buf_get_u32(&r, &v) || v > s->num)
			abort();
	} else if (s->kind == RECV && !res && !s->num) {
		/* What waits, as a count: no data comes with it. */
		if (!buf_get_u32(&r, &v) || v > PROTO_SOCK_DATA_MAX)
			abort();
	} else if (s->kind == RECV && !res) {
		if (!buf_get_u32(&r, &v) || v > s->num || !buf_skip(&r, v))
			abort();
	} else if ((s->kind == OPEN || s->kind == IOCTL) && !res) {
		if (!buf_get_u32(&r, &v) || (s->kind == IOCTL && v))
			abort();
		if (s->kind == OPEN)
			*handle = v;
	}
	if (!buf_done(&r))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct sock_relay *rl = NULL;
	uint32_t handles[3] = {0};
	bool opened[3] = {false};
	size_t nopen = 0;
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
	rl = calloc(1, sizeof(*rl));
	if (!rl || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ta) ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, supp) ||
	    fcntl(supp[1], F_SETFL, O_NONBLOCK))
		abort();
	rl->ta = ta[0];
	rl->supp = supp[0];
	rl->instance = 1;
	memset(rl->uuid.b, 0x6b, sizeof(rl->uuid.b));
	uuid_format(&rl->uuid, rl->name);
	if (data[0] & 1) {
		uint8_t cancel[4] = {MSG_SOCK_CANCEL & 0xff, MSG_SOCK_CANCEL >> 8, 0, 0};

		send(ta[1], cancel, sizeof(cancel), MSG_NOSIGNAL);
	}
	if (data[0] & 2)
		send(ta[1], "??", 2, MSG_NOSIGNAL);
	/* The supplicant's answers, queued whole; then it says no more. */
	while (off + 2 <= size) {
		size_t len = (size_t)data[off] | (size_t)data[off + 1] << 8;

		off += 2;
		if (len > size - off)
			len = size - off;
		if (send(supp[1], data + off, len, MSG_NOSIGNAL) != (ssize_t)len)
			break;
		off += len;
	}
	shutdown(supp[1], SHUT_WR);
	for (size_t i = 0; i < NSTEPS && !rl->ta_gone; i++) {
		const struct step *s = &script[i];
		struct buf_writer w;
		struct buf_reader r;
		size_t len = 0;
		uint32_t type = 0;
		uint32_t handle = 0;

		/* A request on a socket that did not open would end the channel. */
		if (s->kind != OPEN && (s->sock >= nopen || !opened[s->sock]))
			continue;
		len = build(s, handles, &w);
		if (!len)
			abort();
		buf_reader_init(&r, req, len);
		buf_get_u32(&r, &type);
		buf_writer_init(&w, rl->fwd, sizeof(rl->fwd));
		sock_ops_handle(rl, type, &r, &w);
		check_requests(rl, supp[1]);
		if (rl->ta_gone)
			break;
		check_answer(s, &w, &handle);
		if (s->kind == OPEN) {
			uint32_t res = 0;
			struct buf_reader a;

			buf_reader_init(&a, rl->fwd, buf_written(&w));
			buf_skip(&a, 4);
			buf_get_u32(&a, &res);
			handles[nopen] = handle;
			opened[nopen++] = !res;
		} else if (s->kind == CLOSE) {
			opened[s->sock] = false;
		}
	}
	if (rl->supp >= 0)
		close(rl->supp);
	close(ta[0]);
	close(ta[1]);
	close(supp[1]);
	free(rl);
	return 0;
}
