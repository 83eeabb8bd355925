/*
 * TEE_tcpSocket and TEE_udpSocket: the GP iSocket interface over the socket
 * channel. A TEE_iSocketHandle is a runtime record; the TA's handles are
 * checked against the open ones before use, and any misuse GP lists as a
 * panic reason (NULL arguments, a handle that is not open, an unknown ioctl)
 * panics the TA.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "sockets.h"

#define UDP_DATAGRAM_MAX 65507u /* the largest IPv4 UDP payload */

struct rt_socket {
	uint32_t handle; /* the core's number for it */
	uint8_t proto;
	uint32_t proto_error;
	struct rt_socket *next;
};

static struct rt_socket *sockets;
/* Request and response: one call at a time, and the TA has one thread. */
static uint8_t req_buf[PROTO_SOCK_MSG_MAX];
static uint8_t rsp_buf[PROTO_SOCK_MSG_MAX];

static struct rt_socket *sock_lookup(TEE_iSocketHandle ctx, const char *func)
{
	for (struct rt_socket *s = sockets; s; s = s->next)
		if ((void *)s == ctx)
			return s;
	rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* What is left of timeout ms started at start. */
static uint32_t timeout_left(uint32_t timeout, uint64_t start)
{
	uint64_t spent = now_ms() - start;

	if (timeout == TEE_TIMEOUT_INFINITE)
		return PROTO_SOCK_NO_TIMEOUT;
	return spent >= timeout ? 0 : (uint32_t)(timeout - spent);
}

static TEE_Result sock_open(uint8_t proto, TEE_iSocketHandle *ctx, TEE_ipSocket_ipVersion ipver,
			    const char *host, uint16_t port, uint32_t *perr)
{
	struct rt_socket *s = NULL;
	struct buf_writer w;
	struct buf_reader r;
	size_t hlen = 0;
	uint32_t handle = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	*ctx = TEE_HANDLE_NULL;
	*perr = 0;
	if (ipver != TEE_IP_VERSION_DC && ipver != TEE_IP_VERSION_4 && ipver != TEE_IP_VERSION_6)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!host || !port)
		return TEE_ERROR_BAD_PARAMETERS;
	hlen = strnlen(host, PROTO_SOCK_HOST_MAX + 1);
	if (!hlen || hlen > PROTO_SOCK_HOST_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	s = calloc(1, sizeof(*s));
	if (!s)
		return TEE_ERROR_OUT_OF_MEMORY;
	buf_writer_init(&w, req_buf, sizeof(req_buf));
	buf_put_u32(&w, MSG_SOCK_OPEN);
	buf_put_u32(&w, proto);
	buf_put_u32(&w, (uint32_t)ipver);
	buf_put_u32(&w, port);
	buf_put_u32(&w, (uint32_t)hlen);
	buf_put_bytes(&w, host, hlen);
	res = sock_chan_call(req_buf, buf_written(&w), rsp_buf, sizeof(rsp_buf), &r);
	if (res == TEE_ISOCKET_ERROR_HOSTNAME) {
		*perr = res;
		res = TEE_ISOCKET_ERROR_PROTOCOL;
		goto out;
	}
	if (res)
		goto out;
	buf_get_u32(&r, &handle);
	if (!buf_done(&r)) {
		res = TEE_ERROR_COMMUNICATION;
		goto out;
	}
	s->handle = handle;
	s->proto = proto;
	s->next = sockets;
	sockets = s;
	*ctx = s;
	s = NULL; /* transferred */
	res = TEE_SUCCESS;
out:
	free(s);
	return res;
}

static TEE_Result tcp_open(TEE_iSocketHandle *ctx, void *setup, uint32_t *protocolError)
{
	const TEE_tcpSocket_Setup *t = setup;

	if (!ctx || !setup || !protocolError)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, __func__);
	return sock_open(TEE_ISOCKET_PROTOCOLID_TCP, ctx, t->ipVersion, t->server_addr,
			 t->server_port, protocolError);
}

static TEE_Result udp_open(TEE_iSocketHandle *ctx, void *setup, uint32_t *protocolError)
{
	const TEE_udpSocket_Setup *u = setup;

	if (!ctx || !setup || !protocolError)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, __func__);
	return sock_open(TEE_ISOCKET_PROTOCOLID_UDP, ctx, u->ipVersion, u->server_addr,
			 u->server_port, protocolError);
}

static TEE_Result sock_close(TEE_iSocketHandle ctx)
{
	struct rt_socket **pp = &sockets;
	struct rt_socket *s = NULL;
	struct buf_writer w;
	struct buf_reader r;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (ctx == TEE_HANDLE_NULL)
		return TEE_SUCCESS;
	s = sock_lookup(ctx, __func__);
	while (*pp != s)
		pp = &(*pp)->next;
	*pp = s->next;
	buf_writer_init(&w, req_buf, sizeof(req_buf));
	buf_put_u32(&w, MSG_SOCK_CLOSE);
	buf_put_u32(&w, s->handle);
	res = sock_chan_call(req_buf, buf_written(&w), rsp_buf, sizeof(rsp_buf), &r);
	free(s);
	/* The handle is gone whatever the supplicant says. */
	return res == TEE_ERROR_COMMUNICATION ? res : TEE_SUCCESS;
}

/* One SEND of at most PROTO_SOCK_DATA_MAX bytes; *sent what went out. */
static TEE_Result send_part(struct rt_socket *s, const uint8_t *buf, uint32_t len, uint32_t timeout,
			    uint32_t *sent)
{
	struct buf_writer w;
	struct buf_reader r;
	TEE_Result res = TEE_ERROR_GENERIC;

	*sent = 0;
	buf_writer_init(&w, req_buf, sizeof(req_buf));
	buf_put_u32(&w, MSG_SOCK_SEND);
	buf_put_u32(&w, s->handle);
	buf_put_u32(&w, timeout);
	buf_put_u32(&w, len);
	buf_put_bytes(&w, buf, len);
	res = sock_chan_call(req_buf, buf_written(&w), rsp_buf, sizeof(rsp_buf), &r);
	/* These come with the count of what went out before the call stopped. */
	if (res && res != TEE_ISOCKET_ERROR_TIMEOUT && res != TEE_ERROR_CANCEL &&
	    res != TEE_ISOCKET_ERROR_REMOTE_CLOSED)
		return res;
	buf_get_u32(&r, sent);
	if (!buf_done(&r) || *sent > len) {
		*sent = 0;
		return TEE_ERROR_COMMUNICATION;
	}
	return res;
}

static TEE_Result sock_send(TEE_iSocketHandle ctx, const void *buf, uint32_t *length,
			    uint32_t timeout)
{
	struct rt_socket *s = NULL;
	const uint8_t *p = buf;
	uint64_t start = now_ms();
	uint32_t total = 0;
	TEE_Result res = TEE_SUCCESS;

	if (ctx == TEE_HANDLE_NULL || !length || (!buf && *length))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, __func__);
	s = sock_lookup(ctx, __func__);
	if (s->proto == TEE_ISOCKET_PROTOCOLID_UDP && *length > UDP_DATAGRAM_MAX) {
		res = TEE_ISOCKET_ERROR_LARGE_BUFFER;
		*length = 0;
		goto out;
	}
	/* A TCP stream goes in parts; a datagram (at most 64 KiB) is one. */
	do {
		uint32_t part = *length - total;
		uint32_t sent = 0;

		if (part > PROTO_SOCK_DATA_MAX)
			part = PROTO_SOCK_DATA_MAX;
		res = send_part(s, p + total, part, timeout_left(timeout, start), &sent);
		total += sent;
		if (res)
			break;
	} while (total < *length);
	*length = total;
out:
	s->proto_error = res;
	return res;
}

static TEE_Result sock_recv(TEE_iSocketHandle ctx, void *buf, uint32_t *length, uint32_t timeout)
{
	struct rt_socket *s = NULL;
	struct buf_writer w;
	struct buf_reader r;
	const uint8_t *data = NULL;
	uint32_t want = 0;
	uint32_t got = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (ctx == TEE_HANDLE_NULL || !length || (!buf && *length))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, __func__);
	s = sock_lookup(ctx, __func__);
	want = *length > PROTO_SOCK_DATA_MAX ? PROTO_SOCK_DATA_MAX : *length;
	buf_writer_init(&w, req_buf, sizeof(req_buf));
	buf_put_u32(&w, MSG_SOCK_RECV);
	buf_put_u32(&w, s->handle);
	buf_put_u32(&w, timeout == TEE_TIMEOUT_INFINITE ? PROTO_SOCK_NO_TIMEOUT : timeout);
	buf_put_u32(&w, want);
	/* On a failure *length stays as the TA gave it, as on OP-TEE. */
	res = sock_chan_call(req_buf, buf_written(&w), rsp_buf, sizeof(rsp_buf), &r);
	if (res)
		goto out;
	buf_get_u32(&r, &got);
	if (!want) {
		/* What waits, none of it taken: a count without data. */
		if (got > PROTO_SOCK_DATA_MAX || !buf_done(&r)) {
			res = TEE_ERROR_COMMUNICATION;
			goto out;
		}
		*length = got;
		goto out;
	}
	if (got > want || !buf_get_ptr(&r, &data, got) || !buf_done(&r)) {
		res = TEE_ERROR_COMMUNICATION;
		goto out;
	}
	memcpy(buf, data, got);
	*length = got;
out:
	s->proto_error = res;
	return res;
}

static uint32_t sock_error(TEE_iSocketHandle ctx)
{
	if (ctx == TEE_HANDLE_NULL)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, __func__);
	return sock_lookup(ctx, __func__)->proto_error;
}

/* A protocol ioctl the core checks and the supplicant carries out. */
static TEE_Result ioctl_call(struct rt_socket *s, uint32_t cmd, const void *buf, uint32_t len)
{
	struct buf_writer w;
	struct buf_reader r;
	uint32_t out_len = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	buf_writer_init(&w, req_buf, sizeof(req_buf));
	buf_put_u32(&w, MSG_SOCK_IOCTL);
	buf_put_u32(&w, s->handle);
	buf_put_u32(&w, cmd);
	buf_put_u32(&w, len);
	buf_put_bytes(&w, buf, len);
	res = sock_chan_call(req_buf, buf_written(&w), rsp_buf, sizeof(rsp_buf), &r);
	if (res == TEE_ISOCKET_ERROR_HOSTNAME) {
		s->proto_error = res;
		return TEE_ISOCKET_ERROR_PROTOCOL;
	}
	if (!res && (!buf_get_u32(&r, &out_len) || out_len || !buf_done(&r)))
		res = TEE_ERROR_COMMUNICATION;
	s->proto_error = res;
	return res;
}

static TEE_Result sock_ioctl(TEE_iSocketHandle ctx, uint32_t cmd, void *buf, uint32_t *length,
			     uint8_t proto)
{
	struct rt_socket *s = NULL;
	struct buf_writer w;
	uint8_t wire[4]; /* the value, little-endian as on every channel */

	if (ctx == TEE_HANDLE_NULL || !length || (!buf && *length))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, __func__);
	s = sock_lookup(ctx, __func__);
	if (!(cmd >> 24))
		return TEE_SUCCESS; /* generic commands: GP defines none */
	if (proto == TEE_ISOCKET_PROTOCOLID_TCP &&
	    (cmd == TEE_TCP_SET_RECVBUF || cmd == TEE_TCP_SET_SENDBUF)) {
		uint32_t size = 0;

		if (*length != sizeof(size))
			return TEE_ERROR_BAD_PARAMETERS;
		memcpy(&size, buf, sizeof(size));
		buf_writer_init(&w, wire, sizeof(wire));
		buf_put_u32(&w, size);
		return ioctl_call(s, cmd, wire, (uint32_t)buf_written(&w));
	}
	if (proto == TEE_ISOCKET_PROTOCOLID_UDP && cmd == TEE_UDP_CHANGEPORT) {
		uint16_t port = 0;

		if (*length != sizeof(port))
			return TEE_ERROR_BAD_PARAMETERS;
		memcpy(&port, buf, sizeof(port));
		buf_writer_init(&w, wire, sizeof(wire));
		buf_put_u16(&w, port);
		return ioctl_call(s, cmd, wire, (uint32_t)buf_written(&w));
	}
	if (proto == TEE_ISOCKET_PROTOCOLID_UDP && cmd == TEE_UDP_CHANGEADDR) {
		size_t n = *length ? strnlen(buf, *length) : 0;

		/* A NUL-terminated host inside *length bytes. */
		if (!n || n == *length || n > PROTO_SOCK_HOST_MAX)
			return TEE_ERROR_BAD_PARAMETERS;
		return ioctl_call(s, cmd, buf, (uint32_t)n);
	}
	rt_panic(TEE_ERROR_NOT_SUPPORTED, __func__);
}

static TEE_Result tcp_ioctl(TEE_iSocketHandle ctx, uint32_t cmd, void *buf, uint32_t *length)
{
	return sock_ioctl(ctx, cmd, buf, length, TEE_ISOCKET_PROTOCOLID_TCP);
}

static TEE_Result udp_ioctl(TEE_iSocketHandle ctx, uint32_t cmd, void *buf, uint32_t *length)
{
	return sock_ioctl(ctx, cmd, buf, length, TEE_ISOCKET_PROTOCOLID_UDP);
}

static TEE_iSocket tcp_socket = {
    .TEE_iSocketVersion = TEE_ISOCKET_VERSION,
    .protocolID = TEE_ISOCKET_PROTOCOLID_TCP,
    .open = tcp_open,
    .close = sock_close,
    .send = sock_send,
    .recv = sock_recv,
    .error = sock_error,
    .ioctl = tcp_ioctl,
};

static TEE_iSocket udp_socket = {
    .TEE_iSocketVersion = TEE_ISOCKET_VERSION,
    .protocolID = TEE_ISOCKET_PROTOCOLID_UDP,
    .open = udp_open,
    .close = sock_close,
    .send = sock_send,
    .recv = sock_recv,
    .error = sock_error,
    .ioctl = udp_ioctl,
};

TEE_iSocket *const TEE_tcpSocket = &tcp_socket;
TEE_iSocket *const TEE_udpSocket = &udp_socket;
