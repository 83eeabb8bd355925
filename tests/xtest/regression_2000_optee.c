/*
 * regression 2021-2023: the GP Sockets API where swtee follows what OP-TEE
 * does (docs/sockets.md), each against servers on the loopback addresses:
 * a receive that times out leaves its length as the TA gave it (2021); a
 * receive of length 0 returns at once with the size of what waits, and
 * takes nothing (2022); the unspecified addresses 0.0.0.0 and :: reach this
 * host, so the default policy lets a TA open them (2023). A call that would
 * block where it must not is cancelled after 2 s, so that a regression
 * fails the case instead of hanging the run.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include <tee_client_api.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "adbg.h"
#include "sock_client.h"
#include "ta_socket.h"
#include "xtest_helpers.h"

#define GUARD_MS 2000 /* how long a call that must not block may take */

static const TEEC_UUID socket_uuid = TA_SOCKET_UUID;

struct guard {
	TEEC_Operation *op;
	atomic_bool done;
};

/* Cancels g->op unless it is done within GUARD_MS. */
static void *guard_main(void *p)
{
	struct guard *g = p;

	for (int i = 0; i < GUARD_MS / 10 && !atomic_load(&g->done); i++) {
		struct timespec ts = {.tv_nsec = 10 * 1000 * 1000};

		nanosleep(&ts, NULL);
	}
	if (!atomic_load(&g->done))
		TEEC_RequestCancellation(g->op);
	return NULL;
}

/* sk_recv, cancelled if it takes GUARD_MS (it then gives TEEC_ERROR_CANCEL). */
static TEEC_Result recv_guarded(TEEC_Session *s, uint32_t id, void *buf, size_t *len,
				uint32_t timeout)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	struct guard g = {.op = &op};
	pthread_t t;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.started = 0;
	atomic_init(&g.done, false);
	if (pthread_create(&t, NULL, guard_main, &g))
		return TEEC_ERROR_GENERIC;
	res = sk_recv_op(s, &op, id, buf, len, timeout);
	atomic_store(&g.done, true);
	pthread_join(t, NULL);
	return res;
}

/* Zero-length receives until one reports something waiting (at most GUARD_MS). */
static TEEC_Result wait_queued(TEEC_Session *s, uint32_t id, size_t *queued)
{
	uint64_t t0 = sk_now_ms();
	TEEC_Result res = TEEC_SUCCESS;

	do {
		struct timespec ts = {.tv_nsec = 5 * 1000 * 1000};

		*queued = 0;
		res = recv_guarded(s, id, NULL, queued, TEE_TIMEOUT_INFINITE);
		if (res || *queued)
			return res;
		nanosleep(&ts, NULL);
	} while (sk_now_ms() - t0 < GUARD_MS);
	return res;
}

/* Runs body in a session on the socket TA with servers of modes[n] (at most 3) in srv[]. */
static void with_servers(ADBG_Case_t *c, const enum sk_srv_mode *modes, size_t n,
			 void (*body)(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *srv))
{
	struct sk_srv srv[3];
	TEEC_Session s = {0};
	uint32_t orig = 0;
	size_t started = 0;

	while (started < n && started < 3 &&
	       ADBG_EXPECT(c, 0, sk_srv_start(&srv[started], modes[started])))
		started++;
	if (started == n &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &socket_uuid, NULL, &orig))) {
		body(c, &s, srv);
		TEEC_CloseSession(&s);
	}
	while (started)
		sk_srv_stop(&srv[--started]);
}

/* ---- 2021 ---- */

/* srv: a silent TCP server, a partial one, a UDP echo server. */
static void timeout_keeps_length(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *srv)
{
	struct sk_srv *silent = &srv[0];
	struct sk_srv *partial = &srv[1];
	struct sk_srv *udp = &srv[2];
	static uint8_t buf[16 * 1024];
	size_t len = 0;
	uint32_t id = 0;

	Do_ADBG_BeginSubCase(c, "TCP: a receive that times out leaves the length as given");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(s, "127.0.0.1", silent->port, &id))) {
		len = 64;
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(s, id, buf, &len, 100));
		ADBG_EXPECT(c, 64, len);
		ADBG_EXPECT(c, TEE_ISOCKET_ERROR_TIMEOUT, sk_error(s, id));
		/* OP-TEE's xtest 2003 asks for 16 KiB and sees 16 KiB back. */
		len = sizeof(buf);
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(s, id, buf, &len, 10));
		ADBG_EXPECT(c, sizeof(buf), len);
		/* A zero timeout tries once, and times out the same way. */
		len = 7;
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT, sk_recv(s, id, buf, &len, 0));
		ADBG_EXPECT(c, 7, len);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TCP: data, then a receive that times out");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(s, "127.0.0.1", partial->port, &id))) {
		len = 64;
		if (ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, buf, &len, 2000)))
			ADBG_EXPECT_BUFFER(c, SK_PARTIAL_TEXT, strlen(SK_PARTIAL_TEXT), buf, len);
		len = 64;
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(s, id, buf, &len, 100));
		ADBG_EXPECT(c, 64, len);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "UDP: a receive that times out leaves the length as given");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_open(s, TA_SOCKET_CMD_UDP_OPEN, TEE_IP_VERSION_DC,
						"127.0.0.1", udp->port, &id, NULL))) {
		len = 256;
		ADBG_EXPECT_TEEC_RESULT(c, TEE_ISOCKET_ERROR_TIMEOUT,
					sk_recv(s, id, buf, &len, 100));
		ADBG_EXPECT(c, 256, len);
		ADBG_EXPECT(c, TEE_ISOCKET_ERROR_TIMEOUT, sk_error(s, id));
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);
}

static void xtest_tee_test_2021(ADBG_Case_t *c)
{
	static const enum sk_srv_mode modes[] = {SK_SRV_SILENT, SK_SRV_PARTIAL, SK_SRV_UDP_ECHO};

	with_servers(c, modes, 3, timeout_keeps_length);
}
ADBG_CASE_DEFINE(regression, 2021, xtest_tee_test_2021,
		 "A socket receive that times out keeps its length (as OP-TEE)");

/* ---- 2022 ---- */

static void udp_zero_length(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *udp)
{
	uint8_t buf[2048];
	uint8_t big[1000];
	size_t len = 0;
	uint32_t id = 0;
	uint64_t t0 = 0;

	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 13 + 1);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, sk_open(s, TA_SOCKET_CMD_UDP_OPEN, TEE_IP_VERSION_DC,
						 "127.0.0.1", udp->port, &id, NULL)))
		return;

	Do_ADBG_BeginSubCase(c, "UDP: nothing waiting: at once, 0, whatever the timeout");
	len = 0;
	t0 = sk_now_ms();
	ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, buf, &len, TEE_TIMEOUT_INFINITE));
	ADBG_EXPECT(c, 0, len);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, sk_now_ms() - t0, <, 1000);
	len = 0;
	ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, NULL, &len, 5000));
	ADBG_EXPECT(c, 0, len);
	ADBG_EXPECT(c, 0, sk_error(s, id));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "UDP: the next datagram's size, and it stays");
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(s, id, "ping", 4, 1000, NULL));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, wait_queued(s, id, &len)))
		ADBG_EXPECT(c, 4, len);
	len = 0;
	ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, NULL, &len, TEE_TIMEOUT_INFINITE));
	ADBG_EXPECT(c, 4, len);
	len = sizeof(buf);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, buf, &len, 2000)))
		ADBG_EXPECT_BUFFER(c, "ping", 4, buf, len);
	len = 0;
	ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, NULL, &len, TEE_TIMEOUT_INFINITE));
	ADBG_EXPECT(c, 0, len);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "UDP: a 1000-byte datagram, then a 1-byte receive");
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(s, id, big, sizeof(big), 1000, NULL));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, wait_queued(s, id, &len)))
		ADBG_EXPECT(c, sizeof(big), len);
	len = 1;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, buf, &len, 2000)))
		ADBG_EXPECT_BUFFER(c, big, 1, buf, len);
	/* The rest of a datagram cut to the buffer is gone with it. */
	len = 0;
	ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, NULL, &len, TEE_TIMEOUT_INFINITE));
	ADBG_EXPECT(c, 0, len);
	Do_ADBG_EndSubCase(c, NULL);

	ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
}

static void tcp_zero_length(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *echo,
			    struct sk_srv *silent)
{
	static const char text[] = "hello world";
	uint8_t buf[64];
	size_t len = 0;
	uint32_t id = 0;

	Do_ADBG_BeginSubCase(c, "TCP: nothing waiting: at once, 0, whatever the timeout");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(s, "127.0.0.1", silent->port, &id))) {
		len = 0;
		ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, buf, &len, TEE_TIMEOUT_INFINITE));
		ADBG_EXPECT(c, 0, len);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TCP: the bytes waiting, none taken; then 1 byte, then the rest");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_tcp_open(s, "127.0.0.1", echo->port, &id))) {
		size_t n = strlen(text);
		uint64_t t0 = sk_now_ms();

		ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(s, id, text, n, 1000, NULL));
		/* The echo may come in parts: wait for all of it. */
		while (!wait_queued(s, id, &len) && len < n && sk_now_ms() - t0 < GUARD_MS) {
			struct timespec ts = {.tv_nsec = 5 * 1000 * 1000};

			nanosleep(&ts, NULL);
		}
		ADBG_EXPECT(c, n, len);
		len = 1;
		if (ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, buf, &len, 2000)))
			ADBG_EXPECT_BUFFER(c, text, 1, buf, len);
		len = 0;
		ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, NULL, &len, 0));
		ADBG_EXPECT(c, n - 1, len);
		len = sizeof(buf);
		if (ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, buf, &len, 2000)))
			ADBG_EXPECT_BUFFER(c, text + 1, n - 1, buf, len);
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);
}

/* srv: a UDP echo server, a TCP echo server, a silent one. */
static void zero_length(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *srv)
{
	udp_zero_length(c, s, &srv[0]);
	tcp_zero_length(c, s, &srv[1], &srv[2]);
}

static void xtest_tee_test_2022(ADBG_Case_t *c)
{
	static const enum sk_srv_mode modes[] = {SK_SRV_UDP_ECHO, SK_SRV_ECHO, SK_SRV_SILENT};

	with_servers(c, modes, 3, zero_length);
}
ADBG_CASE_DEFINE(regression, 2022, xtest_tee_test_2022,
		 "A zero-length socket receive returns at once and takes nothing (as OP-TEE)");

/* ---- 2023 ---- */

/* A round trip of what through the connection or datagram socket id. */
static void round_trip(ADBG_Case_t *c, TEEC_Session *s, uint32_t id, const char *what)
{
	uint8_t buf[64];
	size_t len = sizeof(buf);

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, sk_send(s, id, what, strlen(what), 1000, NULL)))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, recv_guarded(s, id, buf, &len, 2000)))
		ADBG_EXPECT_BUFFER(c, what, strlen(what), buf, len);
}

/*
 * A TCP open of host (ipver) on srv's port, a round trip and a close; the
 * server sees the connection come and go.
 */
static void tcp_round_trip(ADBG_Case_t *c, TEEC_Session *s, uint32_t ipver, const char *host,
			   struct sk_srv *srv)
{
	uint32_t id = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c, sk_open(s, TA_SOCKET_CMD_TCP_OPEN, ipver, host, srv->port, &id, NULL)))
		return;
	ADBG_EXPECT(c, 1, sk_srv_wait_conns(srv, 1));
	round_trip(c, s, id, host);
	ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	ADBG_EXPECT(c, 0, sk_srv_wait_conns(srv, 0));
}

static void unspecified_v4(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *echo, struct sk_srv *udp,
			   struct sk_srv *udp2)
{
	uint32_t id = 0;
	uint16_t port = 0;
	char host[16];

	Do_ADBG_BeginSubCase(c, "TCP to 0.0.0.0 reaches the server on 127.0.0.1");
	tcp_round_trip(c, s, TEE_IP_VERSION_DC, "0.0.0.0", echo);
	tcp_round_trip(c, s, TEE_IP_VERSION_4, "0.0.0.0", echo);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "UDP to 0.0.0.0, its port changed, its address changed to 0.0.0.0");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_open(s, TA_SOCKET_CMD_UDP_OPEN, TEE_IP_VERSION_DC,
						"0.0.0.0", udp->port, &id, NULL))) {
		round_trip(c, s, id, "udp to 0.0.0.0");
		port = udp2->port;
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 sk_ioctl(s, id, TEE_UDP_CHANGEPORT, &port, sizeof(port)));
		round_trip(c, s, id, "udp, port changed");
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(c, sk_open(s, TA_SOCKET_CMD_UDP_OPEN, TEE_IP_VERSION_DC,
						"127.0.0.1", udp->port, &id, NULL))) {
		strcpy(host, "0.0.0.0");
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, sk_ioctl(s, id, TEE_UDP_CHANGEADDR, host, strlen(host) + 1));
		round_trip(c, s, id, "udp, address changed");
		ADBG_EXPECT_TEEC_SUCCESS(c, sk_close(s, id));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Other addresses of 0.0.0.0/8 are refused");
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED,
				sk_tcp_open(s, "0.0.0.1", echo->port, &id));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED,
				sk_tcp_open(s, "0.255.255.255", echo->port, &id));
	Do_ADBG_EndSubCase(c, NULL);
}

static void unspecified_v6(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *echo4)
{
	struct sk_srv echo6;

	if (sk_srv_start_at(&echo6, SK_SRV_ECHO, AF_INET6)) {
		Do_ADBG_Log("    no IPv6 loopback here: :: and ::ffff:0.0.0.0 skipped");
		return;
	}
	Do_ADBG_BeginSubCase(c, "TCP to :: reaches the server on ::1");
	tcp_round_trip(c, s, TEE_IP_VERSION_DC, "::", &echo6);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TCP to ::ffff:0.0.0.0 reaches the server on 127.0.0.1");
	tcp_round_trip(c, s, TEE_IP_VERSION_6, "::ffff:0.0.0.0", echo4);
	Do_ADBG_EndSubCase(c, NULL);
	sk_srv_stop(&echo6);
}

/* srv: a TCP echo server, two UDP echo servers. */
static void unspecified(ADBG_Case_t *c, TEEC_Session *s, struct sk_srv *srv)
{
	unspecified_v4(c, s, &srv[0], &srv[1], &srv[2]);
	unspecified_v6(c, s, &srv[0]);
}

static void xtest_tee_test_2023(ADBG_Case_t *c)
{
	static const enum sk_srv_mode modes[] = {SK_SRV_ECHO, SK_SRV_UDP_ECHO, SK_SRV_UDP_ECHO};

	with_servers(c, modes, 3, unspecified);
}
ADBG_CASE_DEFINE(regression, 2023, xtest_tee_test_2023,
		 "The default socket policy lets a TA open 0.0.0.0 and :: (this host)");
