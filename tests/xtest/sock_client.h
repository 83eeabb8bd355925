/*
 * What xtest's socket cases (regression_2000.c, regression_2000_optee.c)
 * share: servers on the loopback addresses only, each on a thread of its
 * own, and one function per command of the socket test TA
 * (tests/ta/socket). Each command function returns the TEEC_Result of the
 * invoke, which is the GP Sockets function's result (TEEC_ERROR_TARGET_DEAD
 * once the TA panicked).
 */
#ifndef XTEST_SOCK_CLIENT_H
#define XTEST_SOCK_CLIENT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_client_api.h>

/*
 * What a server does with a connection: echo what it reads, close at the
 * first byte, send SK_PARTIAL_TEXT on accepting and then nothing, never
 * answer, reset at the first byte; or echo every UDP datagram.
 */
enum sk_srv_mode {
	SK_SRV_ECHO,
	SK_SRV_CLOSE_EARLY,
	SK_SRV_PARTIAL,
	SK_SRV_SILENT,
	SK_SRV_RESET,
	SK_SRV_UDP_ECHO
};

#define SK_PARTIAL_TEXT "partial"

struct sk_srv {
	enum sk_srv_mode mode;
	int fd;
	uint16_t port;
	atomic_bool stop;
	atomic_int conns; /* connections open on the server side */
	pthread_t thread;
};

/*
 * Starts a server on 127.0.0.1 (family AF_INET) or ::1 (AF_INET6), on a
 * port the kernel picks (in s->port). Returns 0, or -1 with nothing left.
 */
int sk_srv_start_at(struct sk_srv *s, enum sk_srv_mode mode, int family);
/* sk_srv_start_at on 127.0.0.1. */
int sk_srv_start(struct sk_srv *s, enum sk_srv_mode mode);
/* Stops the server and closes its connections. */
void sk_srv_stop(struct sk_srv *s);
/* Waits up to 3 s for the server's open connections to reach want; returns their count. */
int sk_srv_wait_conns(struct sk_srv *s, int want);
/* CLOCK_MONOTONIC in ms. */
uint64_t sk_now_ms(void);

/* TA_SOCKET_CMD_TCP_OPEN or _UDP_OPEN: the TA's slot in *id, protocolError in *perr. */
TEEC_Result sk_open(TEEC_Session *s, uint32_t cmd, uint32_t ipver, const char *host, uint32_t port,
		    uint32_t *id, uint32_t *perr);
/* A TCP open with TEE_IP_VERSION_DC. */
TEEC_Result sk_tcp_open(TEEC_Session *s, const char *host, uint32_t port, uint32_t *id);
TEEC_Result sk_close(TEEC_Session *s, uint32_t id);
/* *sent (if not NULL): the count the TA's send reported. */
TEEC_Result sk_send(TEEC_Session *s, uint32_t id, const void *buf, size_t len, uint32_t timeout,
		    uint32_t *sent);
/* A receive of *len bytes into buf; *len becomes what the TA's recv left in its length. */
TEEC_Result sk_recv(TEEC_Session *s, uint32_t id, void *buf, size_t *len, uint32_t timeout);
/* sk_recv through op, which another thread may cancel. */
TEEC_Result sk_recv_op(TEEC_Session *s, TEEC_Operation *op, uint32_t id, void *buf, size_t *len,
		       uint32_t timeout);
TEEC_Result sk_ioctl(TEEC_Session *s, uint32_t id, uint32_t cmd, void *buf, size_t len);
/* The socket's error(), or 0xffffffff when the command failed. */
uint32_t sk_error(TEEC_Session *s, uint32_t id);
/*
 * One of the misuse commands (TA_SOCKET_CMD_USE_CLOSED, _NULL_SETUP,
 * _BAD_IOCTL); TEEC_ERROR_TARGET_DEAD only when the TEE said so.
 */
TEEC_Result sk_misuse(TEEC_Session *s, uint32_t cmd, uint32_t id, uint32_t arg);

#endif
