/*
 * What the socket cases (regression_2000*.c) share: the loopback servers
 * they run and the socket test TA's commands (see sock_client.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <tee_isocket.h>
#include <tee_tcpsocket.h>

#include "sock_client.h"
#include "ta_socket.h"
#include "xtest_helpers.h"

#define SRV_CONNS 80

static void srv_close_conn(struct sk_srv *s, int *fds, size_t i)
{
	close(fds[i]);
	fds[i] = -1;
	atomic_fetch_sub(&s->conns, 1);
}

static void srv_accept(struct sk_srv *s, int *fds)
{
	int fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC);
	size_t i = 0;

	if (fd < 0)
		return;
	while (i < SRV_CONNS && fds[i] >= 0)
		i++;
	if (i == SRV_CONNS) {
		close(fd);
		return;
	}
	fds[i] = fd;
	atomic_fetch_add(&s->conns, 1);
	if (s->mode == SK_SRV_PARTIAL) {
		if (send(fd, SK_PARTIAL_TEXT, strlen(SK_PARTIAL_TEXT), MSG_NOSIGNAL) < 0)
			srv_close_conn(s, fds, i);
	}
}

/* What a connection's readable event means in each mode (a reset server resets). */
static void srv_conn(struct sk_srv *s, int *fds, size_t i)
{
	static _Thread_local uint8_t buf[65536];
	ssize_t n = recv(fds[i], buf, sizeof(buf), MSG_DONTWAIT);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		srv_close_conn(s, fds, i);
		return;
	}
	if (n < 0)
		return;
	if (s->mode == SK_SRV_CLOSE_EARLY) {
		srv_close_conn(s, fds, i);
		return;
	}
	if (s->mode == SK_SRV_RESET) {
		struct linger l = {.l_onoff = 1, .l_linger = 0};

		setsockopt(fds[i], SOL_SOCKET, SO_LINGER, &l, sizeof(l));
		srv_close_conn(s, fds, i);
		return;
	}
	if (s->mode == SK_SRV_ECHO) {
		ssize_t off = 0;

		while (off < n) {
			ssize_t w = send(fds[i], buf + off, (size_t)(n - off), MSG_NOSIGNAL);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				srv_close_conn(s, fds, i);
				return;
			}
			off += w;
		}
	}
}

static void *srv_main(void *arg)
{
	struct sk_srv *s = arg;
	int fds[SRV_CONNS];

	for (size_t i = 0; i < SRV_CONNS; i++)
		fds[i] = -1;
	while (!atomic_load(&s->stop)) {
		struct pollfd p[1 + SRV_CONNS];
		size_t map[SRV_CONNS];
		nfds_t n = 1;

		p[0].fd = s->fd;
		p[0].events = POLLIN;
		/* Silent and partial servers never read: only a close wakes them. */
		for (size_t i = 0; i < SRV_CONNS; i++) {
			if (fds[i] < 0)
				continue;
			p[n].fd = fds[i];
			p[n].events = s->mode == SK_SRV_SILENT || s->mode == SK_SRV_PARTIAL
					  ? POLLRDHUP
					  : POLLIN;
			map[n - 1] = i;
			n++;
		}
		if (poll(p, n, 50) <= 0)
			continue;
		if (p[0].revents && s->mode == SK_SRV_UDP_ECHO) {
			static _Thread_local uint8_t dg[65536];
			struct sockaddr_storage from;
			socklen_t flen = sizeof(from);
			ssize_t r =
			    recvfrom(s->fd, dg, sizeof(dg), 0, (struct sockaddr *)&from, &flen);

			if (r >= 0)
				sendto(s->fd, dg, (size_t)r, 0, (struct sockaddr *)&from, flen);
			continue;
		}
		if (p[0].revents)
			srv_accept(s, fds);
		for (nfds_t k = 1; k < n; k++) {
			if (!p[k].revents)
				continue;
			if (s->mode == SK_SRV_SILENT || s->mode == SK_SRV_PARTIAL)
				srv_close_conn(s, fds, map[k - 1]);
			else
				srv_conn(s, fds, map[k - 1]);
		}
	}
	for (size_t i = 0; i < SRV_CONNS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return NULL;
}

int sk_srv_start_at(struct sk_srv *s, enum sk_srv_mode mode, int family)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	socklen_t len = family == AF_INET6 ? sizeof(*a6) : sizeof(*a4);
	int type = mode == SK_SRV_UDP_ECHO ? SOCK_DGRAM : SOCK_STREAM;

	memset(s, 0, sizeof(*s));
	memset(&ss, 0, sizeof(ss));
	s->mode = mode;
	if (family == AF_INET6) {
		a6->sin6_family = AF_INET6;
		a6->sin6_addr = in6addr_loopback;
	} else {
		a4->sin_family = AF_INET;
		a4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	}
	s->fd = socket(family == AF_INET6 ? AF_INET6 : AF_INET, type | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return -1;
	if (bind(s->fd, (struct sockaddr *)&ss, len) ||
	    (type == SOCK_STREAM && listen(s->fd, 64)) ||
	    getsockname(s->fd, (struct sockaddr *)&ss, &len) ||
	    pthread_create(&s->thread, NULL, srv_main, s)) {
		close(s->fd);
		return -1;
	}
	s->port = ntohs(family == AF_INET6 ? a6->sin6_port : a4->sin_port);
	return 0;
}

int sk_srv_start(struct sk_srv *s, enum sk_srv_mode mode)
{
	return sk_srv_start_at(s, mode, AF_INET);
}

void sk_srv_stop(struct sk_srv *s)
{
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	close(s->fd);
}

/* Waits up to 3 s for the server's open connections to reach want. */
int sk_srv_wait_conns(struct sk_srv *s, int want)
{
	for (int i = 0; i < 300; i++) {
		struct timespec ts = {.tv_nsec = 10 * 1000 * 1000};

		if (atomic_load(&s->conns) == want)
			return want;
		nanosleep(&ts, NULL);
	}
	return atomic_load(&s->conns);
}

uint64_t sk_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- the TA's commands ---- */

TEEC_Result sk_open(TEEC_Session *s, uint32_t cmd, uint32_t ipver, const char *host, uint32_t port,
		    uint32_t *id, uint32_t *perr)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INPUT,
					 TEEC_VALUE_OUTPUT, TEEC_NONE);
	op.params[0].value.a = ipver;
	op.params[0].value.b = port;
	op.params[1].tmpref.buffer = (void *)host;
	op.params[1].tmpref.size = host ? strlen(host) + 1 : 0;
	res = TEEC_InvokeCommand(s, cmd, &op, &orig);
	if (id)
		*id = op.params[2].value.a;
	if (perr)
		*perr = op.params[2].value.b;
	return res;
}

TEEC_Result sk_tcp_open(TEEC_Session *s, const char *host, uint32_t port, uint32_t *id)
{
	return sk_open(s, TA_SOCKET_CMD_TCP_OPEN, TEE_IP_VERSION_DC, host, port, id, NULL);
}

TEEC_Result sk_close(TEEC_Session *s, uint32_t id)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = id;
	return TEEC_InvokeCommand(s, TA_SOCKET_CMD_CLOSE, &op, &orig);
}

TEEC_Result sk_send(TEEC_Session *s, uint32_t id, const void *buf, size_t len, uint32_t timeout,
		    uint32_t *sent)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INPUT,
					 TEEC_VALUE_OUTPUT, TEEC_NONE);
	op.params[0].value.a = id;
	op.params[0].value.b = timeout;
	op.params[1].tmpref.buffer = (void *)buf;
	op.params[1].tmpref.size = len;
	res = TEEC_InvokeCommand(s, TA_SOCKET_CMD_SEND, &op, &orig);
	if (sent)
		*sent = op.params[2].value.a;
	return res;
}

TEEC_Result sk_recv_op(TEEC_Session *s, TEEC_Operation *op, uint32_t id, void *buf, size_t *len,
		       uint32_t timeout)
{
	uint32_t orig = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op->paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op->params[0].value.a = id;
	op->params[0].value.b = timeout;
	op->params[1].tmpref.buffer = buf;
	op->params[1].tmpref.size = *len;
	res = TEEC_InvokeCommand(s, TA_SOCKET_CMD_RECV, op, &orig);
	*len = op->params[1].tmpref.size;
	return res;
}

TEEC_Result sk_recv(TEEC_Session *s, uint32_t id, void *buf, size_t *len, uint32_t timeout)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;

	return sk_recv_op(s, &op, id, buf, len, timeout);
}

TEEC_Result sk_ioctl(TEEC_Session *s, uint32_t id, uint32_t cmd, void *buf, size_t len)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = id;
	op.params[0].value.b = cmd;
	op.params[1].tmpref.buffer = buf;
	op.params[1].tmpref.size = len;
	return TEEC_InvokeCommand(s, TA_SOCKET_CMD_IOCTL, &op, &orig);
}

uint32_t sk_error(TEEC_Session *s, uint32_t id)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = id;
	if (TEEC_InvokeCommand(s, TA_SOCKET_CMD_ERROR, &op, &orig))
		return 0xffffffff;
	return op.params[1].value.a;
}

TEEC_Result sk_misuse(TEEC_Session *s, uint32_t cmd, uint32_t id, uint32_t arg)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = id;
	op.params[0].value.b = arg;
	res = TEEC_InvokeCommand(s, cmd, &op, &orig);
	if (res == TEEC_ERROR_TARGET_DEAD && orig != TEEC_ORIGIN_TEE)
		return TEEC_ERROR_GENERIC;
	return res;
}
