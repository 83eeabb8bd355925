/*
 * regression 2001-2004: the GP Sockets API through the socket test TA,
 * against servers on 127.0.0.1 only (sock_client.c): an echo server, one
 * that closes early, one that sends part of an answer and stops, one that
 * never answers, one that resets the connection, and a UDP echo server.
 * Nothing here reaches any other address: the one non-loopback address used
 * (192.0.2.1, TEST-NET-1) must be refused by the default policy before any
 * connection is attempted.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tee_client_api.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "adbg.h"
#include "ta_socket.h"
#include "sock_client.h"
#include "xtest_helpers.h"

static const TEEC_UUID socket_uuid = TA_SOCKET_UUID;

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

static void tcp_basic(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *echo)
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
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(s, "127.0.0.1", echo->port, &id))) {
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

static void tcp_bad_setup(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *echo)
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
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, sk_tcp_open(s, "127.0.0.1", 0, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, sk_tcp_open(s, "", echo->port, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				sk_tcp_open(s, NULL, echo->port, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				sk_tcp_open(s, longname, echo->port, &id));
	/* An IPv6 address asked for as IPv4 names no host: resolved nowhere. */
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEE_ISOCKET_ERROR_PROTOCOL,
	    sk_open(s, TA_SOCKET_CMD_TCP_OPEN, TEE_IP_VERSION_4, "::1", echo->port, &id, &perr));
	ADBG_EXPECT(c, TEE_ISOCKET_ERROR_HOSTNAME, perr);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "The default policy refuses a non-loopback address");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED, sk_tcp_open(s, "192.0.2.1", 80, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED,
				sk_tcp_open(s, "2001:db8::1", 80, &id));
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_ACCESS_DENIED,
	    sk_open(s, TA_SOCKET_CMD_UDP_OPEN, TEE_IP_VERSION_DC, "192.0.2.1", 53, &id, NULL));
	Do_ADBG_EndSubCase(c, NULL);
}

static void tcp_peers(ADBG_Case_t *c, TEEC_Session *s)
{
	struct sk_srv early;
	struct sk_srv reset;
	struct sk_srv probe;
	uint8_t buf[64];
	size_t len = sizeof(buf);
	uint32_t id = 0;
	uint16_t closed_port = 0;

	/* A port nobody listens on: bind one, note it, close it. */
	if (!ADBG_EXPECT(c, 0, sk_srv_start(&probe, SK_SRV_SILENT)))
		return;
	closed_port = probe.port;
	sk_srv_stop(&probe);

	Do_ADBG_BeginSubCase(c, "Connection refused");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_COMMUNICATION,
				sk_tcp_open(s, "127.0.0.1", closed_port, &id));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A server that closes early");
	if (ADBG_EXPECT(c, 0, sk_srv_start(&early, SK_SRV_CLOSE_EARLY))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(s, "127.0.0.1", early.port, &id))) {
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(s, id, "x", 1, 1000, NULL));
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_REMOTE_CLOSED,
						sk_recv(s, id, buf, &len, 2000));
			/* A failed receive leaves the length as given (as on OP-TEE). */
			ADBG_EXPECT(c, sizeof(buf), len);
			ADBG_EXPECT(c, TEE_ISOCKET_ERROR_REMOTE_CLOSED, sk_error(s, id));
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
		}
		sk_srv_stop(&early);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A peer that resets the connection");
	if (ADBG_EXPECT(c, 0, sk_srv_start(&reset, SK_SRV_RESET))) {
		if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(s, "127.0.0.1", reset.port, &id))) {
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
		sk_srv_stop(&reset);
	}
	Do_ADBG_EndSubCase(c, NULL);
}

static void tcp_misuse(ADBG_Case_t *c, struct sk_srv *echo)
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
			    ADBG_EXPECT_TEEC_SUCCESS(c,
						     sk_tcp_open(&s, "127.0.0.1", echo->port, &id)))
				ADBG_EXPECT_TEEC_RESULT(
				    c, TEEC_ERROR_TARGET_DEAD,
				    sk_misuse(&s, cases[i].cmd, id, cases[i].arg));
			TEEC_CloseSession(&s);
		}
		/* The dead instance's connection is closed for it. */
		ADBG_EXPECT(c, 0, sk_srv_wait_conns(echo, 0));
		Do_ADBG_EndSubCase(c, NULL);
	}
}

static void xtest_tee_test_2001(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct sk_srv echo;
	uint32_t orig = 0;

	if (!ADBG_EXPECT(c, 0, sk_srv_start(&echo, SK_SRV_ECHO)))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &socket_uuid, NULL, &orig))) {
		tcp_basic(c, &s, &echo);
		tcp_bad_setup(c, &s, &echo);
		tcp_peers(c, &s);
		TEEC_CloseSession(&s);
	}
	tcp_misuse(c, &echo);
	sk_srv_stop(&echo);
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
	if (sk_tcp_open(&s, "127.0.0.1", a->port, &id) ||
	    sk_tcp_open(&s, "127.0.0.1", a->port, &id2)) {
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
	struct sk_srv echo;
	size_t started = 0;

	if (!ADBG_EXPECT(c, 0, sk_srv_start(&echo, SK_SRV_ECHO)))
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
	ADBG_EXPECT(c, 0, sk_srv_wait_conns(&echo, 0));
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
				res = sk_tcp_open(&s, "127.0.0.1", echo.port, &id);
				if (res == TEEC_SUCCESS)
					opened++;
			}
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_OUT_OF_RESOURCES, res);
			ADBG_EXPECT(c, 32, opened);
			ADBG_EXPECT(c, 32, sk_srv_wait_conns(&echo, 32));
			/* One closed, one may open again. */
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, 0));
			ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(&s, "127.0.0.1", echo.port, &id));
			TEEC_CloseSession(&s);
		}
		ADBG_EXPECT(c, 0, sk_srv_wait_conns(&echo, 0));
	}
	Do_ADBG_EndSubCase(c, NULL);
	sk_srv_stop(&echo);
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
	struct sk_srv silent;
	struct sk_srv partial;
	struct sk_srv sink;
	uint8_t buf[64];
	size_t len = sizeof(buf);
	uint32_t orig = 0;
	uint32_t id = 0;
	uint64_t t0 = 0;

	if (!ADBG_EXPECT(c, 0, sk_srv_start(&silent, SK_SRV_SILENT)))
		return;
	if (!ADBG_EXPECT(c, 0, sk_srv_start(&partial, SK_SRV_PARTIAL)))
		goto out_silent;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &socket_uuid, NULL, &orig)))
		goto out_partial;

	Do_ADBG_BeginSubCase(c, "A server that never answers: receive times out");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(&s, "127.0.0.1", silent.port, &id))) {
		t0 = sk_now_ms();
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(&s, id, buf, &len, 300));
		ADBG_EXPECT_COMPARE_UNSIGNED(c, sk_now_ms() - t0, >=, 290);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, sk_now_ms() - t0, <, 3000);
		ADBG_EXPECT(c, sizeof(buf), len); /* as given: nothing came */
		ADBG_EXPECT(c, TEE_ISOCKET_ERROR_TIMEOUT, sk_error(&s, id));
		/* A zero timeout polls once. */
		len = sizeof(buf);
		t0 = sk_now_ms();
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(&s, id, buf, &len, 0));
		ADBG_EXPECT_COMPARE_UNSIGNED(c, sk_now_ms() - t0, <, 1000);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Partial data, then a timeout");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(&s, "127.0.0.1", partial.port, &id))) {
		size_t got = 0;
		TEEC_Result res = TEEC_SUCCESS;

		while (res == TEEC_SUCCESS && got < sizeof(buf)) {
			len = sizeof(buf) - got;
			res = sk_recv(&s, id, buf + got, &len, 500);
			if (res == TEEC_SUCCESS)
				got += len;
		}
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT, res);
		ADBG_EXPECT_BUFFER(c, SK_PARTIAL_TEXT, strlen(SK_PARTIAL_TEXT), buf, got);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	/*
	 * Its own server: the data it is sent fills its window, so the FIN of the
	 * close waits behind it and the server never sees the connection end.
	 */
	Do_ADBG_BeginSubCase(c, "A send that fills the peer's window times out");
	if (ADBG_EXPECT(c, 0, sk_srv_start(&sink, SK_SRV_SILENT)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(&s, "127.0.0.1", sink.port, &id))) {
		size_t big = 32 * 1024 * 1024;
		uint8_t *p = calloc(1, big);
		uint32_t sent = 0;
		uint32_t v = 16 * 1024;

		ADBG_EXPECT_TEEC_SUCCESS(c, sk_ioctl(&s, id, TEE_TCP_SET_SENDBUF, &v, sizeof(v)));
		if (ADBG_EXPECT_NOT_NULL(c, p)) {
			t0 = sk_now_ms();
			ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
						sk_send(&s, id, p, big, 500, &sent));
			ADBG_EXPECT_COMPARE_UNSIGNED(c, sk_now_ms() - t0, <, 5000);
			ADBG_EXPECT_COMPARE_UNSIGNED(c, sent, <, big);
			free(p);
		}
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(&s, id));
		sk_srv_stop(&sink);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A receive without timeout is cancelled by the client");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(&s, "127.0.0.1", silent.port, &id))) {
		TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
		struct cancel_arg a = {&op, 300};
		pthread_t t;

		op.started = 0;
		len = sizeof(buf);
		if (ADBG_EXPECT(c, 0, pthread_create(&t, NULL, cancel_later, &a))) {
			t0 = sk_now_ms();
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_CANCEL,
			    sk_recv_op(&s, &op, id, buf, &len, TEE_TIMEOUT_INFINITE));
			ADBG_EXPECT_COMPARE_UNSIGNED(c, sk_now_ms() - t0, <, 5000);
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
	ADBG_EXPECT(c, 0, sk_srv_wait_conns(&silent, 0));
out_partial:
	sk_srv_stop(&partial);
out_silent:
	sk_srv_stop(&silent);
}
ADBG_CASE_DEFINE(regression, 2003, xtest_tee_test_2003, "Timeout TCP iSocket API tests");

/* ---- 2004 ---- */

static void xtest_tee_test_2004(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct sk_srv udp;
	struct sk_srv udp2;
	uint8_t *big = NULL;
	uint8_t buf[256];
	size_t len = 0;
	uint32_t orig = 0;
	uint32_t id = 0;
	uint32_t sent = 0;
	uint16_t port = 0;

	if (!ADBG_EXPECT(c, 0, sk_srv_start(&udp, SK_SRV_UDP_ECHO)))
		return;
	if (!ADBG_EXPECT(c, 0, sk_srv_start(&udp2, SK_SRV_UDP_ECHO)))
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
	sk_srv_stop(&udp2);
out_udp:
	sk_srv_stop(&udp);
}
ADBG_CASE_DEFINE(regression, 2004, xtest_tee_test_2004, "UDP iSocket API tests");
