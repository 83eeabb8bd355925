/*
 * The supplicant's socket service: real TCP and UDP sockets for one TA
 * instance per channel. The core has checked every request against its
 * policy and limits and resolved every address before asking for a
 * connection; this side does the system calls, each bounded in time with
 * poll, and still checks what it is sent (the core is the only peer, but a
 * parser trusts no one). A call in progress watches the channel too: a
 * MSG_SOCK_CANCEL stops it, a MSG_SOCK_CLOSE_ALL or the channel's end closes
 * everything.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <tee_api_defines.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "buf.h"
#include "log.h"
#include "msg.h"
#include "proto.h"
#include "sock_serve.h"

#define CHAN_SOCKS_MAX 64 /* above the core's own limit: a second wall */

struct net_sock {
	bool used;
	uint32_t handle;
	uint32_t proto;
	int fd;
};

struct chan {
	int sock;
	bool ending; /* CLOSE_ALL, the channel's end, or a malformed message */
	uint32_t next_handle;
	struct net_sock socks[CHAN_SOCKS_MAX];
	uint8_t in[PROTO_SOCK_MSG_MAX];
	uint8_t out[PROTO_SOCK_MSG_MAX];
	uint8_t data[PROTO_SOCK_DATA_MAX];
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t deadline_of(uint32_t timeout)
{
	return timeout == PROTO_SOCK_NO_TIMEOUT ? -1 : now_ms() + timeout;
}

/* What the core sends while a call runs: a cancellation or the end. */
static uint32_t chan_interrupt(struct chan *ch)
{
	uint8_t in[16];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	ssize_t n = msg_recv(ch->sock, in, sizeof(in), &fds);

	msg_fds_close(&fds);
	if (n == -EINTR || n == -EAGAIN)
		return TEE_SUCCESS;
	buf_reader_init(&r, in, n > 0 ? (size_t)n : 0);
	buf_get_u32(&r, &type);
	if (buf_done(&r) && type == MSG_SOCK_CANCEL)
		return TEE_ERROR_CANCEL;
	ch->ending = true;
	return TEE_ERROR_COMMUNICATION;
}

/*
 * Waits until fd is ready for events or deadline (-1: none) passes, while
 * watching the channel. Returns TEE_SUCCESS, TEE_ISOCKET_ERROR_TIMEOUT,
 * TEE_ERROR_CANCEL or TEE_ERROR_COMMUNICATION (the channel ends).
 */
static uint32_t wait_fd(struct chan *ch, int fd, short events, int64_t deadline)
{
	for (;;) {
		struct pollfd p[2] = {
		    {.fd = fd, .events = events},
		    {.fd = ch->sock, .events = POLLIN},
		};
		int wait = -1;
		int rc = 0;

		if (deadline >= 0) {
			int64_t left = deadline - now_ms();

			wait = left > 0 ? (int)(left > 60000 ? 60000 : left) : 0;
		}
		rc = poll(p, 2, wait);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return TEE_ERROR_COMMUNICATION;
		if (p[1].revents) {
			uint32_t res = chan_interrupt(ch);

			if (res)
				return res;
		}
		if (p[0].revents)
			return TEE_SUCCESS;
		if (!rc && deadline >= 0 && now_ms() >= deadline)
			return TEE_ISOCKET_ERROR_TIMEOUT;
	}
}

static struct net_sock *sock_of(struct chan *ch, uint32_t handle)
{
	for (size_t i = 0; i < CHAN_SOCKS_MAX; i++)
		if (ch->socks[i].used && ch->socks[i].handle == handle)
			return &ch->socks[i];
	return NULL;
}

static uint32_t errno_result(int err)
{
	switch (err) {
	case EPIPE:
	case ECONNRESET:
	case ENOTCONN:
	case ECONNABORTED:
		return TEE_ISOCKET_ERROR_REMOTE_CLOSED;
	case ETIMEDOUT:
		return TEE_ISOCKET_ERROR_TIMEOUT;
	case EMSGSIZE:
		return TEE_ISOCKET_ERROR_LARGE_BUFFER;
	case EMFILE:
	case ENFILE:
	case ENOBUFS:
	case ENOMEM:
		return TEE_ISOCKET_ERROR_OUT_OF_RESOURCES;
	default:
		return TEE_ERROR_COMMUNICATION;
	}
}

/* A sockaddr for addr (family:u32 addr[16]) and port. */
static bool get_addr(struct buf_reader *r, uint16_t port, struct sockaddr_storage *ss,
		     socklen_t *len)
{
	uint32_t family = 0;
	uint8_t a[16];

	memset(ss, 0, sizeof(*ss));
	if (!buf_get_u32(r, &family) || !buf_get_bytes(r, a, sizeof(a)))
		return false;
	if (family == PROTO_SOCK_INET4) {
		struct sockaddr_in *in4 = (struct sockaddr_in *)ss;

		in4->sin_family = AF_INET;
		in4->sin_port = htons(port);
		memcpy(&in4->sin_addr, a, 4);
		*len = sizeof(*in4);
		return true;
	}
	if (family == PROTO_SOCK_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		memcpy(&in6->sin6_addr, a, 16);
		*len = sizeof(*in6);
		return true;
	}
	return false;
}

static bool get_host(struct buf_reader *r, char host[PROTO_SOCK_HOST_MAX + 1])
{
	const uint8_t *p = NULL;
	uint32_t len = 0;

	if (!buf_get_u32(r, &len) || !len || len > PROTO_SOCK_HOST_MAX ||
	    !buf_get_ptr(r, &p, len) || memchr(p, '\0', len))
		return false;
	memcpy(host, p, len);
	host[len] = '\0';
	return true;
}

static uint32_t op_resolve(struct chan *ch, struct buf_reader *r, struct buf_writer *w)
{
	char host[PROTO_SOCK_HOST_MAX + 1];
	struct addrinfo hints;
	struct addrinfo *list = NULL;
	uint8_t addrs[PROTO_SOCK_ADDRS_MAX][20];
	uint32_t proto = 0;
	uint32_t ipver = 0;
	uint32_t n = 0;

	(void)ch;
	buf_get_u32(r, &proto);
	buf_get_u32(r, &ipver);
	if (!get_host(r, host) || !buf_done(r))
		return TEE_ERROR_BAD_PARAMETERS;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = ipver == TEE_IP_VERSION_4   ? AF_INET
			  : ipver == TEE_IP_VERSION_6 ? AF_INET6
						      : AF_UNSPEC;
	hints.ai_socktype = proto == TEE_ISOCKET_PROTOCOLID_UDP ? SOCK_DGRAM : SOCK_STREAM;
	if (getaddrinfo(host, NULL, &hints, &list))
		return TEE_ISOCKET_ERROR_HOSTNAME;
	for (struct addrinfo *ai = list; ai && n < PROTO_SOCK_ADDRS_MAX; ai = ai->ai_next) {
		uint8_t e[20] = {0};
		bool dup = false;

		if (ai->ai_family == AF_INET) {
			e[0] = PROTO_SOCK_INET4;
			memcpy(e + 4, &((struct sockaddr_in *)ai->ai_addr)->sin_addr, 4);
		} else if (ai->ai_family == AF_INET6) {
			e[0] = PROTO_SOCK_INET6;
			memcpy(e + 4, &((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr, 16);
		} else {
			continue;
		}
		for (uint32_t i = 0; i < n; i++)
			dup = dup || !memcmp(addrs[i], e, sizeof(e));
		if (!dup)
			memcpy(addrs[n++], e, sizeof(e));
	}
	freeaddrinfo(list);
	if (!n)
		return TEE_ISOCKET_ERROR_HOSTNAME;
	buf_put_u32(w, n);
	for (uint32_t i = 0; i < n; i++) {
		buf_put_u32(w, addrs[i][0]);
		buf_put_bytes(w, addrs[i] + 4, 16);
	}
	return TEE_SUCCESS;
}

/* One connection attempt to ss within deadline: the socket in *fd. */
static uint32_t connect_one(struct chan *ch, uint32_t proto, const struct sockaddr_storage *ss,
			    socklen_t len, int64_t deadline, int *fd)
{
	int type = proto == TEE_ISOCKET_PROTOCOLID_UDP ? SOCK_DGRAM : SOCK_STREAM;
	int err = 0;
	socklen_t elen = sizeof(err);
	uint32_t res = 0;

	*fd = socket(ss->ss_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (*fd < 0)
		return errno_result(errno);
	if (!connect(*fd, (const struct sockaddr *)ss, len))
		return TEE_SUCCESS;
	if (errno != EINPROGRESS) {
		/* Refused, unreachable, reset on the way: the connection failed. */
		res = errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM
			  ? TEE_ISOCKET_ERROR_OUT_OF_RESOURCES
			  : TEE_ERROR_COMMUNICATION;
		goto fail;
	}
	res = wait_fd(ch, *fd, POLLOUT, deadline);
	if (res)
		goto fail;
	if (getsockopt(*fd, SOL_SOCKET, SO_ERROR, &err, &elen) || err) {
		res = err == ETIMEDOUT ? TEE_ISOCKET_ERROR_TIMEOUT : TEE_ERROR_COMMUNICATION;
		goto fail;
	}
	return TEE_SUCCESS;
fail:
	close(*fd);
	*fd = -1;
	return res;
}

static uint32_t op_connect(struct chan *ch, struct buf_reader *r, struct buf_writer *w)
{
	struct net_sock *slot = NULL;
	uint32_t proto = 0;
	uint32_t port = 0;
	uint32_t timeout = 0;
	uint32_t n = 0;
	uint32_t res = TEE_ERROR_COMMUNICATION;
	int64_t deadline = 0;
	int fd = -1;

	buf_get_u32(r, &proto);
	buf_get_u32(r, &port);
	buf_get_u32(r, &timeout);
	buf_get_u32(r, &n);
	if (!buf_ok(r) || !n || n > PROTO_SOCK_ADDRS_MAX || buf_left(r) != n * 20u ||
	    (proto != TEE_ISOCKET_PROTOCOLID_TCP && proto != TEE_ISOCKET_PROTOCOLID_UDP) || !port ||
	    port > 65535)
		return TEE_ERROR_BAD_PARAMETERS;
	for (size_t i = 0; i < CHAN_SOCKS_MAX && !slot; i++)
		if (!ch->socks[i].used)
			slot = &ch->socks[i];
	if (!slot)
		return TEE_ISOCKET_ERROR_OUT_OF_RESOURCES;
	deadline = deadline_of(timeout);
	for (uint32_t i = 0; i < n; i++) {
		struct sockaddr_storage ss;
		socklen_t len = 0;

		if (!get_addr(r, (uint16_t)port, &ss, &len))
			return TEE_ERROR_BAD_PARAMETERS;
		res = connect_one(ch, proto, &ss, len, deadline, &fd);
		if (!res) {
			slot->used = true;
			slot->handle = ++ch->next_handle;
			slot->proto = proto;
			slot->fd = fd;
			buf_put_u32(w, slot->handle);
			buf_put_u32(w, i);
			return TEE_SUCCESS;
		}
		if (res == TEE_ERROR_CANCEL || ch->ending)
			break;
	}
	return res;
}

static uint32_t op_send(struct chan *ch, struct buf_reader *r, struct buf_writer *w)
{
	struct net_sock *s = NULL;
	const uint8_t *data = NULL;
	uint32_t handle = 0;
	uint32_t timeout = 0;
	uint32_t len = 0;
	uint32_t sent = 0;
	uint32_t res = TEE_SUCCESS;
	int64_t deadline = 0;

	buf_get_u32(r, &handle);
	buf_get_u32(r, &timeout);
	buf_get_u32(r, &len);
	if (len > PROTO_SOCK_DATA_MAX || !buf_get_ptr(r, &data, len) || !buf_done(r))
		return TEE_ERROR_BAD_PARAMETERS;
	s = sock_of(ch, handle);
	if (!s)
		return TEE_ERROR_BAD_PARAMETERS;
	deadline = deadline_of(timeout);
	while (sent < len || (!len && s->proto == TEE_ISOCKET_PROTOCOLID_UDP && !sent)) {
		ssize_t n = send(s->fd, data + sent, len - sent, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n >= 0) {
			sent += (uint32_t)n;
			if (s->proto == TEE_ISOCKET_PROTOCOLID_UDP)
				break; /* one datagram */
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			res = errno_result(errno);
			break;
		}
		res = wait_fd(ch, s->fd, POLLOUT, deadline);
		if (res)
			break;
	}
	buf_put_u32(w, sent);
	return res;
}

/*
 * A receive of length 0: how much waits, taken from the socket's queue
 * without removing it, at once. A datagram's whole size (MSG_TRUNC), the
 * bytes of a stream up to PROTO_SOCK_DATA_MAX; 0 when nothing waits or the
 * stream's peer closed.
 */
static uint32_t recv_queued(struct chan *ch, const struct net_sock *s, struct buf_writer *w)
{
	int flags = MSG_PEEK | MSG_DONTWAIT;
	ssize_t n = 0;

	if (s->proto == TEE_ISOCKET_PROTOCOLID_UDP)
		flags |= MSG_TRUNC;
	do {
		n = recv(s->fd, ch->data, sizeof(ch->data), flags);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
		return errno_result(errno);
	if (n < 0)
		n = 0;
	buf_put_u32(w, n > PROTO_SOCK_DATA_MAX ? PROTO_SOCK_DATA_MAX : (uint32_t)n);
	return TEE_SUCCESS;
}

static uint32_t op_recv(struct chan *ch, struct buf_reader *r, struct buf_writer *w)
{
	struct net_sock *s = NULL;
	uint32_t handle = 0;
	uint32_t timeout = 0;
	uint32_t len = 0;
	uint8_t *data = ch->data;
	int64_t deadline = 0;

	buf_get_u32(r, &handle);
	buf_get_u32(r, &timeout);
	buf_get_u32(r, &len);
	if (!buf_done(r) || len > PROTO_SOCK_DATA_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	s = sock_of(ch, handle);
	if (!s)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!len)
		return recv_queued(ch, s, w);
	deadline = deadline_of(timeout);
	for (;;) {
		ssize_t n = recv(s->fd, data, len, MSG_DONTWAIT);
		uint32_t res = 0;

		if (n > 0 || (n == 0 && s->proto == TEE_ISOCKET_PROTOCOLID_UDP)) {
			buf_put_u32(w, (uint32_t)n);
			buf_put_bytes(w, data, (size_t)n);
			return TEE_SUCCESS;
		}
		if (n == 0)
			return TEE_ISOCKET_ERROR_REMOTE_CLOSED;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return errno_result(errno);
		res = wait_fd(ch, s->fd, POLLIN, deadline);
		if (res)
			return res;
	}
}

static uint32_t op_close(struct chan *ch, struct buf_reader *r)
{
	struct net_sock *s = NULL;
	uint32_t handle = 0;

	buf_get_u32(r, &handle);
	if (!buf_done(r))
		return TEE_ERROR_BAD_PARAMETERS;
	s = sock_of(ch, handle);
	if (!s)
		return TEE_ERROR_BAD_PARAMETERS;
	close(s->fd);
	memset(s, 0, sizeof(*s));
	return TEE_SUCCESS;
}

static uint32_t op_setpeer(struct chan *ch, struct buf_reader *r)
{
	struct sockaddr_storage ss;
	struct buf_reader a;
	struct net_sock *s = NULL;
	socklen_t len = 0;
	uint32_t handle = 0;
	uint32_t port = 0;

	buf_get_u32(r, &handle);
	if (!buf_get_sub(r, &a, 20) || !buf_get_u32(r, &port) || !buf_done(r) || !port ||
	    port > 65535 || !get_addr(&a, (uint16_t)port, &ss, &len))
		return TEE_ERROR_BAD_PARAMETERS;
	s = sock_of(ch, handle);
	if (!s || s->proto != TEE_ISOCKET_PROTOCOLID_UDP)
		return TEE_ERROR_BAD_PARAMETERS;
	if (connect(s->fd, (struct sockaddr *)&ss, len))
		return errno_result(errno);
	return TEE_SUCCESS;
}

static uint32_t op_setbuf(struct chan *ch, struct buf_reader *r)
{
	struct net_sock *s = NULL;
	uint32_t handle = 0;
	uint32_t which = 0;
	uint32_t size = 0;
	int v = 0;

	buf_get_u32(r, &handle);
	buf_get_u32(r, &which);
	buf_get_u32(r, &size);
	if (!buf_done(r) || which > 1 || size > INT32_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	s = sock_of(ch, handle);
	if (!s)
		return TEE_ERROR_BAD_PARAMETERS;
	v = (int)size;
	if (setsockopt(s->fd, SOL_SOCKET, which ? SO_SNDBUF : SO_RCVBUF, &v, sizeof(v)))
		return TEE_ERROR_BAD_PARAMETERS;
	return TEE_SUCCESS;
}

static void chan_free(struct chan *ch)
{
	size_t n = 0;

	for (size_t i = 0; i < CHAN_SOCKS_MAX; i++) {
		if (!ch->socks[i].used)
			continue;
		close(ch->socks[i].fd);
		n++;
	}
	if (n)
		log_debug("closed %zu socket%s of a TA instance that is gone", n,
			  n == 1 ? "" : "s");
	close(ch->sock);
	free(ch);
}

static void *chan_thread(void *arg)
{
	struct chan *ch = arg;

	while (!ch->ending) {
		struct msg_fds fds;
		struct buf_reader r;
		struct buf_writer w;
		uint32_t type = 0;
		uint32_t res = 0;
		ssize_t n = msg_recv(ch->sock, ch->in, sizeof(ch->in), &fds);

		msg_fds_close(&fds);
		if (n == -EINTR)
			continue;
		if (n <= 0)
			break;
		buf_reader_init(&r, ch->in, (size_t)n);
		buf_get_u32(&r, &type);
		if (type == MSG_SOCK_CANCEL)
			continue; /* late: its call answered already */
		if (type == MSG_SOCK_CLOSE_ALL)
			break;
		/* The answer's fields go after type and result, which come last. */
		buf_writer_init(&w, ch->out + 8, sizeof(ch->out) - 8);
		switch (type) {
		case MSG_SOCK_RESOLVE:
			res = op_resolve(ch, &r, &w);
			break;
		case MSG_SOCK_CONNECT:
			res = op_connect(ch, &r, &w);
			break;
		case MSG_SOCK_SEND:
			res = op_send(ch, &r, &w);
			break;
		case MSG_SOCK_RECV:
			res = op_recv(ch, &r, &w);
			break;
		case MSG_SOCK_CLOSE:
			res = op_close(ch, &r);
			break;
		case MSG_SOCK_SETPEER:
			res = op_setpeer(ch, &r);
			break;
		case MSG_SOCK_SETBUF:
			res = op_setbuf(ch, &r);
			break;
		default:
			log_error("unknown socket request 0x%x from the core", type);
			res = TEE_ERROR_BAD_PARAMETERS;
			break;
		}
		if (ch->ending)
			break;
		{
			struct buf_writer hw;
			size_t len = res && type != MSG_SOCK_SEND ? 0 : buf_written(&w);

			buf_writer_init(&hw, ch->out, 8);
			buf_put_u32(&hw, MSG_SOCK_RSP);
			buf_put_u32(&hw, res);
			if (msg_send(ch->sock, ch->out, 8 + len, NULL, 0))
				break;
		}
	}
	chan_free(ch);
	return NULL;
}

int sock_serve_channel(int sock)
{
	struct chan *ch = calloc(1, sizeof(*ch));
	pthread_attr_t attr;
	pthread_t t;

	if (!ch)
		goto fail;
	ch->sock = sock;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, chan_thread, ch)) {
		pthread_attr_destroy(&attr);
		goto fail;
	}
	pthread_attr_destroy(&attr);
	return 0;
fail:
	log_error("cannot serve a socket channel");
	free(ch);
	close(sock);
	return -1;
}
