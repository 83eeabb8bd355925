/*
 * regression 2001-2004: the GP Sockets API through the socket test TA,
 * against servers this file runs on 127.0.0.1 only: an echo server, one
 * that closes early, one that sends part of an answer and stops, one that
 * never answers, one that resets the connection, and a UDP echo server.
 * Nothing here reaches any other address: the one non-loopback address used
 * (192.0.2.1, TEST-NET-1) must be refused by the default policy before any
 * connection is attempted.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "adbg.h"
#include "ta_socket.h"
#include "xtest_helpers.h"

static const TEEC_UUID socket_uuid = TA_SOCKET_UUID;

enum srv_mode { SRV_ECHO, SRV_CLOSE_EARLY, SRV_PARTIAL, SRV_SILENT, SRV_RESET, SRV_UDP_ECHO };

#define SRV_CONNS 80
#define PARTIAL_TEXT "partial"

struct srv {
	enum srv_mode mode;
	int fd;
	uint16_t port;
	atomic_bool stop;
	atomic_int conns; /* connections open on the server side */
	pthread_t thread;
};

static void srv_close_conn(struct srv *s, int *fds, size_t i)
{
	close(fds[i]);
	fds[i] = -1;
	atomic_fetch_sub(&s->conns, 1);
}

static void srv_accept(struct srv *s, int *fds)
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
	if (s->mode == SRV_PARTIAL) {
		if (send(fd, PARTIAL_TEXT, strlen(PARTIAL_TEXT), MSG_NOSIGNAL) < 0)
			srv_close_conn(s, fds, i);
	}
}

/* What a connection's readable event means in each mode (a reset server resets). */
static void srv_conn(struct srv *s, int *fds, size_t i)
{
	static _Thread_local uint8_t buf[65536];
	ssize_t n = recv(fds[i], buf, sizeof(buf), MSG_DONTWAIT);

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		srv_close_conn(s, fds, i);
		return;
	}
	if (n < 0)
		return;
	if (s->mode == SRV_CLOSE_EARLY) {
		srv_close_conn(s, fds, i);
		return;
	}
	if (s->mode == SRV_RESET) {
		struct linger l = {.l_onoff = 1, .l_linger = 0};

		setsockopt(fds[i], SOL_SOCKET, SO_LINGER, &l, sizeof(l));
		srv_close_conn(s, fds, i);
		return;
	}
	if (s->mode == SRV_ECHO) {
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
	struct srv *s = arg;
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
			p[n].events =
			    s->mode == SRV_SILENT || s->mode == SRV_PARTIAL ? POLLRDHUP : POLLIN;
			map[n - 1] = i;
			n++;
		}
		if (poll(p, n, 50) <= 0)
			continue;
		if (p[0].revents && s->mode == SRV_UDP_ECHO) {
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
			if (s->mode == SRV_SILENT || s->mode == SRV_PARTIAL)
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

static int srv_start(struct srv *s, enum srv_mode mode)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof(a);
	int type = mode == SRV_UDP_ECHO ? SOCK_DGRAM : SOCK_STREAM;

	memset(s, 0, sizeof(*s));
	s->mode = mode;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s->fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return -1;
	if (bind(s->fd, (struct sockaddr *)&a, sizeof(a)) ||
	    (type == SOCK_STREAM && listen(s->fd, 64)) ||
	    getsockname(s->fd, (struct sockaddr *)&a, &len) ||
	    pthread_create(&s->thread, NULL, srv_main, s)) {
		close(s->fd);
		return -1;
	}
	s->port = ntohs(a.sin_port);
	return 0;
}

static void srv_stop(struct srv *s)
{
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	close(s->fd);
}

/* Waits up to 3 s for the server's open connections to reach want. */
static int srv_wait_conns(struct srv *s, int want)
{
	for (int i = 0; i < 300; i++) {
		struct timespec ts = {.tv_nsec = 10 * 1000 * 1000};

		if (atomic_load(&s->conns) == want)
			return want;
		nanosleep(&ts, NULL);
	}
	return atomic_load(&s->conns);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- the TA's commands ---- */

static TEEC_Result sk_open(TEEC_Session *s, uint32_t cmd, uint32_t ipver, const char *host,
			   uint32_t port, uint32_t *id, uint32_t *perr)
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

static TEEC_Result tcp_open(TEEC_Session *s, const char *host, uint32_t port, uint32_t *id)
{
	return sk_open(s, TA_SOCKET_CMD_TCP_OPEN, TEE_IP_VERSION_DC, host, port, id, NULL);
}

static TEEC_Result sk_close(TEEC_Session *s, uint32_t id)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = id;
	return TEEC_InvokeCommand(s, TA_SOCKET_CMD_CLOSE, &op, &orig);
}

static TEEC_Result sk_send(TEEC_Session *s, uint32_t id, const void *buf, size_t len,
			   uint32_t timeout, uint32_t *sent)
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

static TEEC_Result sk_recv_op(TEEC_Session *s, TEEC_Operation *op, uint32_t id, void *buf,
			      size_t *len, uint32_t timeout)
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

static TEEC_Result sk_recv(TEEC_Session *s, uint32_t id, void *buf, size_t *len, uint32_t timeout)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;

	return sk_recv_op(s, &op, id, buf, len, timeout);
}

static TEEC_Result sk_ioctl(TEEC_Session *s, uint32_t id, uint32_t cmd, void *buf, size_t len)
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

static uint32_t sk_error(TEEC_Session *s, uint32_t id)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = id;
	if (TEEC_InvokeCommand(s, TA_SOCKET_CMD_ERROR, &op, &orig))
		return 0xffffffff;
	return op.params[1].value.a;
}

static TEEC_Result sk_misuse(TEEC_Session *s, uint32_t cmd, uint32_t id, uint32_t arg)
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

/* Sends all of buf and reads back as many bytes; 0 when they match. */
static int echo_round(ADBG_Case_t *c, TEEC_Session *s, uint32_t id, const uint8_t *buf, size_t len)
{
	uint8_t *back = calloc(1, len);
	uint32_t sent = 0;
	size_t got = 0;
	int rc = -1;

	if (!ADBG_EXPECT_NOT_NULL(c, back))
		return -1;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(s, id, buf, len, 5000, &sent)) ||
	    !ADBG_EXPECT(c, len, sent))
		goto out;
	while (got < len) {
		size_t n = len - got;

		if (!ADBG_EXPECT_TEEC_SUCCESS(c, sk_recv(s, id, back + got, &n, 5000)))
			goto out;
		got += n;
	}
	if (ADBG_EXPECT_BUFFER(c, buf, len, back, got))
		rc = 0;
out:
	free(back);
	return rc;
}

/* ---- 2001 ---- */

static void tcp_basic(ADBG_Case_t *c, TEEC_Session *s, struct srv *echo)
{
	static const char hello[] = "hello, TEE sockets";
	uint8_t *big = malloc(200 * 1024);
	uint32_t id = 0;
	uint32_t v = 0;

	if (!ADBG_EXPECT_NOT_NULL(c, big))
		return;
	for (size_t i = 0; i < 200 * 1024; i++)
		big[i] = (uint8_t)(i * 7 + 3);
	Do_ADBG_BeginSubCase(c, "Open, echo, error(), ioctl, close");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(s, "127.0.0.1", echo->port, &id))) {
		echo_round(c, s, id, (const uint8_t *)hello, sizeof(hello));
		ADBG_EXPECT(c, 0, sk_error(s, id));
		v = 64 * 1024;
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_ioctl(s, id, TEE_TCP_SET_RECVBUF, &v, sizeof(v)));
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_ioctl(s, id, TEE_TCP_SET_SENDBUF, &v, sizeof(v)));
		/* A generic command: GP defines none, so it does nothing. */
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_ioctl(s, id, 0x00000001, &v, sizeof(v)));
		v = 16 * 1024 * 1024;
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_OUT_OF_RESOURCES,
					sk_ioctl(s, id, TEE_TCP_SET_RECVBUF, &v, sizeof(v)));
		ADBG_EXPECT(c, TEE_ISOCKET_ERROR_OUT_OF_RESOURCES, sk_error(s, id));
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					sk_ioctl(s, id, TEE_TCP_SET_RECVBUF, &v, 2));
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "200 KiB through the echo server, by name, over IPv4");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_open(s, TA_SOCKET_CMD_TCP_OPEN, TEE_IP_VERSION_4,
						"localhost", echo->port, &id, NULL))) {
		echo_round(c, s, id, big, 200 * 1024);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);
	free(big);
}

static void tcp_bad_setup(ADBG_Case_t *c, TEEC_Session *s, struct srv *echo)
{
	char longname[300];
	uint32_t id = 0;
	uint32_t perr = 0;

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	Do_ADBG_BeginSubCase(c, "Invalid setup structures");
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_BAD_PARAMETERS,
	    sk_open(s, TA_SOCKET_CMD_TCP_OPEN, 7, "127.0.0.1", echo->port, &id, NULL));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, tcp_open(s, "127.0.0.1", 0, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, tcp_open(s, "", echo->port, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, tcp_open(s, NULL, echo->port, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				tcp_open(s, longname, echo->port, &id));
	/* An IPv6 address asked for as IPv4 names no host: resolved nowhere. */
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEE_ISOCKET_ERROR_PROTOCOL,
	    sk_open(s, TA_SOCKET_CMD_TCP_OPEN, TEE_IP_VERSION_4, "::1", echo->port, &id, &perr));
	ADBG_EXPECT(c, TEE_ISOCKET_ERROR_HOSTNAME, perr);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The default policy refuses a non-loopback address");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED, tcp_open(s, "192.0.2.1", 80, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED, tcp_open(s, "2001:db8::1", 80, &id));
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_ACCESS_DENIED,
	    sk_open(s, TA_SOCKET_CMD_UDP_OPEN, TEE_IP_VERSION_DC, "192.0.2.1", 53, &id, NULL));
	Do_ADBG_EndSubCase(c, NULL);
}

static void tcp_peers(ADBG_Case_t *c, TEEC_Session *s)
{
	struct srv early;
	struct srv reset;
	struct srv probe;
	uint8_t buf[64];
	size_t len = sizeof(buf);
	uint32_t id = 0;
	uint16_t closed_port = 0;

	/* A port nobody listens on: bind one, note it, close it. */
	if (!ADBG_EXPECT(c, 0, srv_start(&probe, SRV_SILENT)))
		return;
	closed_port = probe.port;
	srv_stop(&probe);

	Do_ADBG_BeginSubCase(c, "Connection refused");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_COMMUNICATION,
				tcp_open(s, "127.0.0.1", closed_port, &id));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A server that closes early");
	if (ADBG_EXPECT(c, 0, srv_start(&early, SRV_CLOSE_EARLY))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(s, "127.0.0.1", early.port, &id))) {
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(s, id, "x", 1, 1000, NULL));
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_REMOTE_CLOSED,
						sk_recv(s, id, buf, &len, 2000));
			ADBG_EXPECT(c, 0, len);
			ADBG_EXPECT(c, TEE_ISOCKET_ERROR_REMOTE_CLOSED, sk_error(s, id));
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
		}
		srv_stop(&early);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A peer that resets the connection");
	if (ADBG_EXPECT(c, 0, srv_start(&reset, SRV_RESET))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(s, "127.0.0.1", reset.port, &id))) {
			uint32_t sent = 0;
			TEEC_Result res = TEEC_SUCCESS;

			len = sizeof(buf);
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(s, id, "x", 1, 1000, NULL));
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_REMOTE_CLOSED,
						sk_recv(s, id, buf, &len, 2000));
			/* Sending after a reset fails the same way (at once or next time). */
			for (int i = 0; i < 3 && res == TEEC_SUCCESS; i++)
				res = sk_send(s, id, "y", 1, 1000, &sent);
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_REMOTE_CLOSED, res);
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
		}
		srv_stop(&reset);
	}
	Do_ADBG_EndSubCase(c, NULL);
}

static void tcp_misuse(ADBG_Case_t *c, struct srv *echo)
{
	static const struct {
		uint32_t cmd;
		uint32_t arg;
		const char *what;
	} cases[] = {
	    {TA_SOCKET_CMD_USE_CLOSED, 0, "A closed handle panics the TA"},
	    {TA_SOCKET_CMD_NULL_SETUP, 0, "A NULL setup panics the TA"},
	    {TA_SOCKET_CMD_BAD_IOCTL, TEE_UDP_CHANGEPORT, "A UDP ioctl on TCP panics the TA"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TEEC_Session s = {0};
		uint32_t orig = 0;
		uint32_t id = 0;

		Do_ADBG_BeginSubCase(c, "%s", cases[i].what);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &socket_uuid, NULL, &orig))) {
			if (cases[i].cmd == TA_SOCKET_CMD_NULL_SETUP ||
			    ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(&s, "127.0.0.1", echo->port, &id)))
				ADBG_EXPECT_TEEC_RESULT(
				    c, TEEC_ERROR_TARGET_DEAD,
				    sk_misuse(&s, cases[i].cmd, id, cases[i].arg));
			TEEC_CloseSession(&s);
		}
		/* The dead instance's connection is closed for it. */
		ADBG_EXPECT(c, 0, srv_wait_conns(echo, 0));
		Do_ADBG_EndSubCase(c, NULL);
	}
}

static void xtest_tee_test_2001(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct srv echo;
	uint32_t orig = 0;

	if (!ADBG_EXPECT(c, 0, srv_start(&echo, SRV_ECHO)))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &socket_uuid, NULL, &orig))) {
		tcp_basic(c, &s, &echo);
		tcp_bad_setup(c, &s, &echo);
		tcp_peers(c, &s);
		TEEC_CloseSession(&s);
	}
	tcp_misuse(c, &echo);
	srv_stop(&echo);
}
ADBG_CASE_DEFINE(regression, 2001, xtest_tee_test_2001, "Trivial TCP iSocket API tests");

/* ---- 2002 ---- */

#define STRESS_THREADS 8
#define STRESS_ROUNDS 25

struct stress_arg {
	ADBG_Case_t *c;
	uint16_t port;
	unsigned int seed;
	atomic_int *failures;
};

static void *stress_thread(void *p)
{
	struct stress_arg *a = p;
	TEEC_Session s = {0};
	uint32_t orig = 0;
	uint32_t id = 0;
	uint32_t id2 = 0;
	uint8_t buf[4096];

	if (xtest_teec_open_session(&s, &socket_uuid, NULL, &orig)) {
		atomic_fetch_add(a->failures, 1);
		return NULL;
	}
	if (tcp_open(&s, "127.0.0.1", a->port, &id) || tcp_open(&s, "127.0.0.1", a->port, &id2)) {
		atomic_fetch_add(a->failures, 1);
		goto out;
	}
	for (int r = 0; r < STRESS_ROUNDS; r++) {
		size_t len = 1 + (size_t)rand_r(&a->seed) % sizeof(buf);
		uint8_t back[sizeof(buf)];
		size_t got = 0;
		uint32_t sent = 0;
		uint32_t use = r % 2 ? id : id2;

		for (size_t i = 0; i < len; i++)
			buf[i] = (uint8_t)rand_r(&a->seed);
		if (sk_send(&s, use, buf, len, 5000, &sent) || sent != len) {
			atomic_fetch_add(a->failures, 1);
			break;
		}
		while (got < len) {
			size_t n = len - got;

			if (sk_recv(&s, use, back + got, &n, 5000))
				break;
			got += n;
		}
		if (got != len || memcmp(buf, back, len)) {
			atomic_fetch_add(a->failures, 1);
			break;
		}
	}
	sk_close(&s, id);
out:
	/* id2 is left open: closing the session must close it. */
	TEEC_CloseSession(&s);
	return NULL;
}

static void xtest_tee_test_2002(ADBG_Case_t *c)
{
	pthread_t t[STRESS_THREADS];
	struct stress_arg args[STRESS_THREADS];
	atomic_int failures = 0;
	struct srv echo;
	size_t started = 0;

	if (!ADBG_EXPECT(c, 0, srv_start(&echo, SRV_ECHO)))
		return;
	Do_ADBG_BeginSubCase(c, "%d sessions, each with two connections, in parallel",
			     STRESS_THREADS);
	for (size_t i = 0; i < STRESS_THREADS; i++) {
		args[i] =
		    (struct stress_arg){c, echo.port, (unsigned int)(i * 7919 + 1), &failures};
		if (!pthread_create(&t[i], NULL, stress_thread, &args[i]))
			started++;
	}
	for (size_t i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	ADBG_EXPECT(c, STRESS_THREADS, started);
	ADBG_EXPECT(c, 0, atomic_load(&failures));
	ADBG_EXPECT(c, 0, srv_wait_conns(&echo, 0));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The per-instance socket limit");
	{
		TEEC_Session s = {0};
		uint32_t orig = 0;
		uint32_t id = 0;
		int opened = 0;
		TEEC_Result res = TEEC_SUCCESS;

		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &socket_uuid, NULL, &orig))) {
			while (opened < TA_SOCKET_MAX && res == TEEC_SUCCESS) {
				res = tcp_open(&s, "127.0.0.1", echo.port, &id);
				if (res == TEEC_SUCCESS)
					opened++;
			}
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_OUT_OF_RESOURCES, res);
			ADBG_EXPECT(c, 32, opened);
			ADBG_EXPECT(c, 32, srv_wait_conns(&echo, 32));
			/* One closed, one may open again. */
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, 0));
			ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(&s, "127.0.0.1", echo.port, &id));
			TEEC_CloseSession(&s);
		}
		ADBG_EXPECT(c, 0, srv_wait_conns(&echo, 0));
	}
	Do_ADBG_EndSubCase(c, NULL);
	srv_stop(&echo);
}
ADBG_CASE_DEFINE(regression, 2002, xtest_tee_test_2002,
		 "Concurrent stressing TCP iSocket API tests");

/* ---- 2003 ---- */

struct cancel_arg {
	TEEC_Operation *op;
	unsigned int delay_ms;
};

static void *cancel_later(void *p)
{
	struct cancel_arg *a = p;
	struct timespec ts = {.tv_sec = a->delay_ms / 1000,
			      .tv_nsec = (long)(a->delay_ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
	TEEC_RequestCancellation(a->op);
	return NULL;
}

static void xtest_tee_test_2003(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct srv silent;
	struct srv partial;
	struct srv sink;
	uint8_t buf[64];
	size_t len = sizeof(buf);
	uint32_t orig = 0;
	uint32_t id = 0;
	uint64_t t0 = 0;

	if (!ADBG_EXPECT(c, 0, srv_start(&silent, SRV_SILENT)))
		return;
	if (!ADBG_EXPECT(c, 0, srv_start(&partial, SRV_PARTIAL)))
		goto out_silent;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &socket_uuid, NULL, &orig)))
		goto out_partial;

	Do_ADBG_BeginSubCase(c, "A server that never answers: receive times out");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(&s, "127.0.0.1", silent.port, &id))) {
		t0 = now_ms();
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(&s, id, buf, &len, 300));
		ADBG_EXPECT_COMPARE_UNSIGNED(c, now_ms() - t0, >=, 290);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, now_ms() - t0, <, 3000);
		ADBG_EXPECT(c, 0, len);
		ADBG_EXPECT(c, TEE_ISOCKET_ERROR_TIMEOUT, sk_error(&s, id));
		/* A zero timeout polls once. */
		len = sizeof(buf);
		t0 = now_ms();
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(&s, id, buf, &len, 0));
		ADBG_EXPECT_COMPARE_UNSIGNED(c, now_ms() - t0, <, 1000);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Partial data, then a timeout");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(&s, "127.0.0.1", partial.port, &id))) {
		size_t got = 0;
		TEEC_Result res = TEEC_SUCCESS;

		while (res == TEEC_SUCCESS && got < sizeof(buf)) {
			len = sizeof(buf) - got;
			res = sk_recv(&s, id, buf + got, &len, 500);
			got += len;
		}
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT, res);
		ADBG_EXPECT_BUFFER(c, PARTIAL_TEXT, strlen(PARTIAL_TEXT), buf, got);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	/*
	 * Its own server: the data it is sent fills its window, so the FIN of the
	 * close waits behind it and the server never sees the connection end.
	 */
	Do_ADBG_BeginSubCase(c, "A send that fills the peer's window times out");
	if (ADBG_EXPECT(c, 0, srv_start(&sink, SRV_SILENT)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(&s, "127.0.0.1", sink.port, &id))) {
		size_t big = 32 * 1024 * 1024;
		uint8_t *p = calloc(1, big);
		uint32_t sent = 0;
		uint32_t v = 16 * 1024;

		ADBG_EXPECT_TEEC_SUCCESS(c, sk_ioctl(&s, id, TEE_TCP_SET_SENDBUF, &v, sizeof(v)));
		if (ADBG_EXPECT_NOT_NULL(c, p)) {
			t0 = now_ms();
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
						sk_send(&s, id, p, big, 500, &sent));
			ADBG_EXPECT_COMPARE_UNSIGNED(c, now_ms() - t0, <, 5000);
			ADBG_EXPECT_COMPARE_UNSIGNED(c, sent, <, big);
			free(p);
		}
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, id));
		srv_stop(&sink);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A receive without timeout is cancelled by the client");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, tcp_open(&s, "127.0.0.1", silent.port, &id))) {
		TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
		struct cancel_arg a = {&op, 300};
		pthread_t t;

		op.started = 0;
		len = sizeof(buf);
		if (ADBG_EXPECT(c, 0, pthread_create(&t, NULL, cancel_later, &a))) {
			t0 = now_ms();
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_CANCEL,
			    sk_recv_op(&s, &op, id, buf, &len, TEE_TIMEOUT_INFINITE));
			ADBG_EXPECT_COMPARE_UNSIGNED(c, now_ms() - t0, <, 5000);
			pthread_join(t, NULL);
		}
		/* The socket is still usable after the cancelled call. */
		len = sizeof(buf);
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(&s, id, buf, &len, 50));
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	TEEC_CloseSession(&s);
	ADBG_EXPECT(c, 0, srv_wait_conns(&silent, 0));
out_partial:
	srv_stop(&partial);
out_silent:
	srv_stop(&silent);
}
ADBG_CASE_DEFINE(regression, 2003, xtest_tee_test_2003, "Timeout TCP iSocket API tests");

/* ---- 2004 ---- */

static void xtest_tee_test_2004(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct srv udp;
	struct srv udp2;
	uint8_t *big = NULL;
	uint8_t buf[256];
	size_t len = 0;
	uint32_t orig = 0;
	uint32_t id = 0;
	uint32_t sent = 0;
	uint16_t port = 0;

	if (!ADBG_EXPECT(c, 0, srv_start(&udp, SRV_UDP_ECHO)))
		return;
	if (!ADBG_EXPECT(c, 0, srv_start(&udp2, SRV_UDP_ECHO)))
		goto out_udp;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &socket_uuid, NULL, &orig)))
		goto out_udp2;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, sk_open(&s, TA_SOCKET_CMD_UDP_OPEN, TEE_IP_VERSION_DC,
						 "127.0.0.1", udp.port, &id, NULL)))
		goto out_session;

	Do_ADBG_BeginSubCase(c, "A datagram there and back");
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(&s, id, "ping", 4, 1000, &sent));
	ADBG_EXPECT(c, 4, sent);
	len = sizeof(buf);
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_recv(&s, id, buf, &len, 2000));
	ADBG_EXPECT_BUFFER(c, "ping", 4, buf, len);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A datagram larger than the buffer is cut");
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(&s, id, "0123456789", 10, 1000, &sent));
	len = 4;
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_recv(&s, id, buf, &len, 2000));
	ADBG_EXPECT_BUFFER(c, "0123", 4, buf, len);
	len = sizeof(buf);
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT, sk_recv(&s, id, buf, &len, 200));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "An oversized datagram");
	big = calloc(1, 70000);
	if (ADBG_EXPECT_NOT_NULL(c, big)) {
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_LARGE_BUFFER,
					sk_send(&s, id, big, 70000, 1000, &sent));
		ADBG_EXPECT(c, 0, sent);
		ADBG_EXPECT(c, TEE_ISOCKET_ERROR_LARGE_BUFFER, sk_error(&s, id));
		free(big);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Changing the peer's port and address");
	port = udp2.port;
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_ioctl(&s, id, TEE_UDP_CHANGEPORT, &port, sizeof(port)));
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(&s, id, "pong", 4, 1000, &sent));
	len = sizeof(buf);
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_recv(&s, id, buf, &len, 2000));
	ADBG_EXPECT_BUFFER(c, "pong", 4, buf, len);
	strcpy((char *)buf, "127.0.0.1");
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_ioctl(&s, id, TEE_UDP_CHANGEADDR, buf, 10));
	strcpy((char *)buf, "192.0.2.1");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED,
				sk_ioctl(&s, id, TEE_UDP_CHANGEADDR, buf, 10));
	/* Not NUL-terminated within its length */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				sk_ioctl(&s, id, TEE_UDP_CHANGEADDR, buf, 4));
	port = 0;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				sk_ioctl(&s, id, TEE_UDP_CHANGEPORT, &port, sizeof(port)));
	/* Still talking to the second server */
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(&s, id, "again", 5, 1000, &sent));
	len = sizeof(buf);
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_recv(&s, id, buf, &len, 2000));
	ADBG_EXPECT_BUFFER(c, "again", 5, buf, len);
	Do_ADBG_EndSubCase(c, NULL);

	ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, id));
out_session:
	TEEC_CloseSession(&s);
out_udp2:
	srv_stop(&udp2);
out_udp:
	srv_stop(&udp);
}
ADBG_CASE_DEFINE(regression, 2004, xtest_tee_test_2004, "UDP iSocket API tests");
