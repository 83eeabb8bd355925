/*
 * The requests of a TA instance on its socket channel, each checked whole
 * before anything reaches the supplicant: the message's shape and sizes, the
 * handle (one of this instance's open sockets), the instance's limits, and
 * for every address a connection may go to, the socket policy. The
 * supplicant's answers are checked too before they go back.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include <tee_api_defines.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "log.h"
#include "sockets.h"

/* A refused request: the instance broke the protocol and its channel ends. */
static void protocol_violation(struct sock_relay *rl, const char *what)
{
	log_error("TA %s: %s on the socket channel; closing it", rl->name, what);
	rl->ta_gone = true;
}

/* The results a supplicant may give; anything else is its failure. */
static uint32_t supp_result(uint32_t res)
{
	switch (res) {
	case TEE_SUCCESS:
	case TEE_ISOCKET_ERROR_REMOTE_CLOSED:
	case TEE_ISOCKET_ERROR_TIMEOUT:
	case TEE_ISOCKET_ERROR_OUT_OF_RESOURCES:
	case TEE_ISOCKET_ERROR_LARGE_BUFFER:
	case TEE_ISOCKET_ERROR_HOSTNAME:
	case TEE_ERROR_COMMUNICATION:
	case TEE_ERROR_CANCEL:
	case TEE_ERROR_BAD_PARAMETERS:
	case TEE_ERROR_OUT_OF_MEMORY:
		return res;
	default:
		return TEE_ERROR_COMMUNICATION;
	}
}

static struct sock_entry *entry_of(struct sock_relay *rl, uint32_t handle)
{
	for (size_t i = 0; i < SOCK_PER_INSTANCE; i++)
		if (rl->socks[i].used && rl->socks[i].handle == handle)
			return &rl->socks[i];
	return NULL;
}

/* A host name or address: printable, no spaces, within PROTO_SOCK_HOST_MAX. */
static bool get_host(struct buf_reader *r, char host[PROTO_SOCK_HOST_MAX + 1])
{
	const uint8_t *p = NULL;
	uint32_t len = 0;

	if (!buf_get_u32(r, &len) || !len || len > PROTO_SOCK_HOST_MAX || !buf_get_ptr(r, &p, len))
		return false;
	for (uint32_t i = 0; i < len; i++)
		if (p[i] <= ' ' || p[i] >= 0x7f)
			return false;
	memcpy(host, p, len);
	host[len] = '\0';
	return true;
}

static void put_addr(struct buf_writer *w, const struct sock_peer *a)
{
	buf_put_u32(w, a->family);
	buf_put_bytes(w, a->addr, sizeof(a->addr));
}

/*
 * The addresses host stands for (a literal, or what the supplicant
 * resolves, checked), of the family ipver allows; at most
 * PROTO_SOCK_ADDRS_MAX into out. Returns a result.
 */
static uint32_t resolve(struct sock_relay *rl, uint32_t proto, uint32_t ipver, const char *host,
			struct sock_peer *out, size_t *n)
{
	uint8_t req[16 + PROTO_SOCK_HOST_MAX];
	struct sock_peer a;
	struct buf_writer w;
	struct buf_reader r;
	uint32_t count = 0;
	uint32_t res = TEE_ERROR_GENERIC;

	*n = 0;
	memset(&a, 0, sizeof(a));
	if (inet_pton(AF_INET, host, a.addr) == 1) {
		a.family = PROTO_SOCK_INET4;
	} else if (inet_pton(AF_INET6, host, a.addr) == 1) {
		a.family = PROTO_SOCK_INET6;
	} else {
		buf_writer_init(&w, req, sizeof(req));
		buf_put_u32(&w, MSG_SOCK_RESOLVE);
		buf_put_u32(&w, proto);
		buf_put_u32(&w, ipver);
		buf_put_u32(&w, (uint32_t)strlen(host));
		buf_put_bytes(&w, host, strlen(host));
		res = supp_result(
		    sock_relay_call(rl, req, buf_written(&w), SOCK_RESOLVE_TIMEOUT_MS, &r));
		if (res)
			return res;
		if (!buf_get_u32(&r, &count) || !count || count > PROTO_SOCK_ADDRS_MAX)
			return TEE_ERROR_COMMUNICATION;
		for (uint32_t i = 0; i < count; i++) {
			buf_get_u32(&r, &out[i].family);
			buf_get_bytes(&r, out[i].addr, sizeof(out[i].addr));
			if (out[i].family != PROTO_SOCK_INET4 && out[i].family != PROTO_SOCK_INET6)
				return TEE_ERROR_COMMUNICATION;
			if ((ipver == TEE_IP_VERSION_4 && out[i].family != PROTO_SOCK_INET4) ||
			    (ipver == TEE_IP_VERSION_6 && out[i].family != PROTO_SOCK_INET6))
				return TEE_ERROR_COMMUNICATION;
		}
		if (!buf_done(&r))
			return TEE_ERROR_COMMUNICATION;
		*n = count;
		return TEE_SUCCESS;
	}
	if ((ipver == TEE_IP_VERSION_4 && a.family != PROTO_SOCK_INET4) ||
	    (ipver == TEE_IP_VERSION_6 && a.family != PROTO_SOCK_INET6))
		return TEE_ISOCKET_ERROR_HOSTNAME;
	out[0] = a;
	*n = 1;
	return TEE_SUCCESS;
}

/*
 * An unspecified address (0.0.0.0, ::, ::ffff:0.0.0.0) names this host: on
 * Linux a connection to it goes to the loopback address. It becomes that
 * address (127.0.0.1, ::1, ::ffff:127.0.0.1), which the policy judges and
 * the supplicant connects to; others stay.
 */
static void unspecified_to_loopback(struct sock_peer *a)
{
	static const uint8_t v4_mapped[12] = {[10] = 0xff, [11] = 0xff};
	static const uint8_t zero[16];

	if (a->family == PROTO_SOCK_INET4 && !memcmp(a->addr, zero, 4)) {
		a->addr[0] = 127;
		a->addr[3] = 1;
	} else if (a->family == PROTO_SOCK_INET6 && !memcmp(a->addr, zero, 16)) {
		a->addr[15] = 1;
	} else if (a->family == PROTO_SOCK_INET6 && !memcmp(a->addr, v4_mapped, 12) &&
		   !memcmp(a->addr + 12, zero, 4)) {
		a->addr[12] = 127;
		a->addr[15] = 1;
	}
}

/*
 * Keeps the addresses the policy lets this TA reach on port (an unspecified
 * one as the loopback address it reaches); logs the refusal.
 */
static size_t filter(struct sock_relay *rl, const char *host, struct sock_peer *a, size_t n,
		     uint16_t port)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		char text[64];

		a[i].port = port;
		unspecified_to_loopback(&a[i]);
		if (sock_policy_allows(&rl->uuid, &a[i])) {
			a[kept++] = a[i];
			continue;
		}
		sock_peer_format(&a[i], text, sizeof(text));
		log_error("TA %s: socket to %s (%s) refused by the socket policy", rl->name, text,
			  host);
	}
	return kept;
}

static void op_open(struct sock_relay *rl, struct buf_reader *r, struct buf_writer *w)
{
	char host[PROTO_SOCK_HOST_MAX + 1];
	struct sock_peer addrs[PROTO_SOCK_ADDRS_MAX];
	uint8_t req[32 + PROTO_SOCK_ADDRS_MAX * 20];
	struct buf_writer rw;
	struct buf_reader rr;
	struct sock_entry *e = NULL;
	uint32_t proto = 0;
	uint32_t ipver = 0;
	uint32_t port = 0;
	uint32_t handle = 0;
	uint32_t index = 0;
	size_t n = 0;
	uint32_t res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &proto);
	buf_get_u32(r, &ipver);
	buf_get_u32(r, &port);
	if (!get_host(r, host) || !buf_done(r) ||
	    (proto != TEE_ISOCKET_PROTOCOLID_TCP && proto != TEE_ISOCKET_PROTOCOLID_UDP) ||
	    ipver > TEE_IP_VERSION_6 || !port || port > 65535) {
		protocol_violation(rl, "a malformed open");
		return;
	}
	for (size_t i = 0; i < SOCK_PER_INSTANCE && !e; i++)
		if (!rl->socks[i].used)
			e = &rl->socks[i];
	if (!e) {
		log_error("TA %s: socket refused: it has %d open already", rl->name,
			  SOCK_PER_INSTANCE);
		res = TEE_ISOCKET_ERROR_OUT_OF_RESOURCES;
		goto out;
	}
	res = resolve(rl, proto, ipver, host, addrs, &n);
	if (res)
		goto out;
	n = filter(rl, host, addrs, n, (uint16_t)port);
	if (!n) {
		res = TEE_ERROR_ACCESS_DENIED;
		goto out;
	}
	buf_writer_init(&rw, req, sizeof(req));
	buf_put_u32(&rw, MSG_SOCK_CONNECT);
	buf_put_u32(&rw, proto);
	buf_put_u32(&rw, port);
	buf_put_u32(&rw, SOCK_CONNECT_TIMEOUT_MS);
	buf_put_u32(&rw, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		put_addr(&rw, &addrs[i]);
	res = supp_result(sock_relay_call(rl, req, buf_written(&rw), SOCK_CONNECT_TIMEOUT_MS, &rr));
	if (res)
		goto out;
	buf_get_u32(&rr, &handle);
	buf_get_u32(&rr, &index);
	if (!buf_done(&rr) || index >= n || entry_of(rl, handle)) {
		log_error("TA %s: the supplicant answered a connect wrongly", rl->name);
		res = TEE_ERROR_COMMUNICATION;
		goto out;
	}
	memset(e, 0, sizeof(*e));
	e->used = true;
	e->handle = handle;
	e->proto = proto;
	e->peer = addrs[index];
	res = TEE_SUCCESS;
out:
	buf_put_u32(w, MSG_SOCK_RSP);
	buf_put_u32(w, res);
	if (!res)
		buf_put_u32(w, handle);
}

static void op_send(struct sock_relay *rl, struct buf_reader *r, struct buf_writer *w)
{
	const uint8_t *data = NULL;
	struct buf_writer rw;
	struct buf_reader rr;
	uint32_t handle = 0;
	uint32_t timeout = 0;
	uint32_t len = 0;
	uint32_t sent = 0;
	uint32_t res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &handle);
	buf_get_u32(r, &timeout);
	buf_get_u32(r, &len);
	if (len > PROTO_SOCK_DATA_MAX || !buf_get_ptr(r, &data, len) || !buf_done(r)) {
		protocol_violation(rl, "a malformed send");
		return;
	}
	if (!entry_of(rl, handle)) {
		protocol_violation(rl, "a send on a handle it does not have");
		return;
	}
	buf_writer_init(&rw, rl->rsp, sizeof(rl->rsp));
	/* The data moves once more, into a message of the core's own making. */
	buf_put_u32(&rw, MSG_SOCK_SEND);
	buf_put_u32(&rw, handle);
	buf_put_u32(&rw, timeout);
	buf_put_u32(&rw, len);
	buf_put_bytes(&rw, data, len);
	res = supp_result(sock_relay_call(rl, rl->rsp, buf_written(&rw), timeout, &rr));
	if (!res || res == TEE_ISOCKET_ERROR_TIMEOUT || res == TEE_ERROR_CANCEL ||
	    res == TEE_ISOCKET_ERROR_REMOTE_CLOSED) {
		if (!buf_get_u32(&rr, &sent) || !buf_done(&rr) || sent > len) {
			res = TEE_ERROR_COMMUNICATION;
			sent = 0;
		}
	}
	buf_put_u32(w, MSG_SOCK_RSP);
	buf_put_u32(w, res);
	buf_put_u32(w, sent);
}

static void op_recv(struct sock_relay *rl, struct buf_reader *r, struct buf_writer *w)
{
	uint8_t req[16];
	const uint8_t *data = NULL;
	struct buf_writer rw;
	struct buf_reader rr;
	uint32_t handle = 0;
	uint32_t timeout = 0;
	uint32_t len = 0;
	uint32_t got = 0;
	uint32_t res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &handle);
	buf_get_u32(r, &timeout);
	buf_get_u32(r, &len);
	if (!buf_done(r) || len > PROTO_SOCK_DATA_MAX) {
		protocol_violation(rl, "a malformed receive");
		return;
	}
	if (!entry_of(rl, handle)) {
		protocol_violation(rl, "a receive on a handle it does not have");
		return;
	}
	/* Length 0 asks what waits, at once: the timeout does not apply. */
	if (!len)
		timeout = 0;
	buf_writer_init(&rw, req, sizeof(req));
	buf_put_u32(&rw, MSG_SOCK_RECV);
	buf_put_u32(&rw, handle);
	buf_put_u32(&rw, timeout);
	buf_put_u32(&rw, len);
	res = supp_result(sock_relay_call(rl, req, buf_written(&rw), timeout, &rr));
	if (!res && !len &&
	    (!buf_get_u32(&rr, &got) || got > PROTO_SOCK_DATA_MAX || !buf_done(&rr)))
		res = TEE_ERROR_COMMUNICATION;
	if (!res && len &&
	    (!buf_get_u32(&rr, &got) || got > len || !buf_get_ptr(&rr, &data, got) ||
	     !buf_done(&rr)))
		res = TEE_ERROR_COMMUNICATION;
	buf_put_u32(w, MSG_SOCK_RSP);
	buf_put_u32(w, res);
	if (!res) {
		buf_put_u32(w, got);
		if (len)
			buf_put_bytes(w, data, got);
	}
}

static void op_close(struct sock_relay *rl, struct buf_reader *r, struct buf_writer *w)
{
	uint8_t req[8];
	struct buf_writer rw;
	struct buf_reader rr;
	struct sock_entry *e = NULL;
	uint32_t handle = 0;
	uint32_t res = TEE_ERROR_GENERIC;

	buf_get_u32(r, &handle);
	if (!buf_done(r)) {
		protocol_violation(rl, "a malformed close");
		return;
	}
	e = entry_of(rl, handle);
	if (!e) {
		protocol_violation(rl, "a close of a handle it does not have");
		return;
	}
	rl->buf_total -= e->bufs[0] + e->bufs[1];
	memset(e, 0, sizeof(*e));
	buf_writer_init(&rw, req, sizeof(req));
	buf_put_u32(&rw, MSG_SOCK_CLOSE);
	buf_put_u32(&rw, handle);
	res = supp_result(sock_relay_call(rl, req, buf_written(&rw), SOCK_GRACE_MS, &rr));
	if (!res && !buf_done(&rr))
		res = TEE_ERROR_COMMUNICATION;
	buf_put_u32(w, MSG_SOCK_RSP);
	buf_put_u32(w, res);
}

/* TEE_TCP_SET_RECVBUF, TEE_TCP_SET_SENDBUF: within the instance's budget. */
static uint32_t ioctl_setbuf(struct sock_relay *rl, struct sock_entry *e, uint32_t cmd,
			     struct buf_reader *r)
{
	uint8_t req[16];
	struct buf_writer rw;
	struct buf_reader rr;
	uint32_t which = cmd == TEE_TCP_SET_SENDBUF ? 1 : 0;
	uint32_t size = 0;
	uint32_t total = 0;
	uint32_t res = TEE_ERROR_GENERIC;

	if (!buf_get_u32(r, &size) || !buf_done(r))
		return TEE_ERROR_BAD_PARAMETERS;
	total = rl->buf_total - e->bufs[which];
	if (size > SOCK_BUF_MAX || total + size > SOCK_BUF_BUDGET) {
		log_error("TA %s: socket buffer of %u bytes refused (at most %u, %u in all)",
			  rl->name, size, SOCK_BUF_MAX, SOCK_BUF_BUDGET);
		return TEE_ISOCKET_ERROR_OUT_OF_RESOURCES;
	}
	buf_writer_init(&rw, req, sizeof(req));
	buf_put_u32(&rw, MSG_SOCK_SETBUF);
	buf_put_u32(&rw, e->handle);
	buf_put_u32(&rw, which);
	buf_put_u32(&rw, size);
	res = supp_result(sock_relay_call(rl, req, buf_written(&rw), SOCK_GRACE_MS, &rr));
	if (!res && !buf_done(&rr))
		res = TEE_ERROR_COMMUNICATION;
	if (!res) {
		rl->buf_total = total + size;
		e->bufs[which] = size;
	}
	return res;
}

/* TEE_UDP_CHANGEADDR, TEE_UDP_CHANGEPORT: a new peer, checked like an open. */
static uint32_t ioctl_setpeer(struct sock_relay *rl, struct sock_entry *e, uint32_t cmd,
			      struct buf_reader *r, uint32_t len)
{
	char host[PROTO_SOCK_HOST_MAX + 1];
	struct sock_peer addrs[PROTO_SOCK_ADDRS_MAX];
	uint8_t req[48];
	struct buf_writer rw;
	struct buf_reader rr;
	size_t n = 1;
	uint32_t res = TEE_ERROR_GENERIC;

	addrs[0] = e->peer;
	if (cmd == TEE_UDP_CHANGEPORT) {
		uint16_t port = 0;

		if (len != 2 || !buf_get_u16(r, &port) || !buf_done(r) || !port)
			return TEE_ERROR_BAD_PARAMETERS;
		snprintf(host, sizeof(host), "port %u", (unsigned int)port);
		n = filter(rl, host, addrs, n, port);
	} else {
		const uint8_t *p = NULL;
		uint32_t ipver =
		    e->peer.family == PROTO_SOCK_INET4 ? TEE_IP_VERSION_4 : TEE_IP_VERSION_6;

		if (!len || len > PROTO_SOCK_HOST_MAX || !buf_get_ptr(r, &p, len) || !buf_done(r))
			return TEE_ERROR_BAD_PARAMETERS;
		for (uint32_t i = 0; i < len; i++)
			if (p[i] <= ' ' || p[i] >= 0x7f)
				return TEE_ISOCKET_ERROR_HOSTNAME;
		memcpy(host, p, len);
		host[len] = '\0';
		res = resolve(rl, e->proto, ipver, host, addrs, &n);
		if (res)
			return res;
		n = filter(rl, host, addrs, n, e->peer.port);
	}
	if (!n)
		return TEE_ERROR_ACCESS_DENIED;
	buf_writer_init(&rw, req, sizeof(req));
	buf_put_u32(&rw, MSG_SOCK_SETPEER);
	buf_put_u32(&rw, e->handle);
	put_addr(&rw, &addrs[0]);
	buf_put_u32(&rw, addrs[0].port);
	res = supp_result(sock_relay_call(rl, req, buf_written(&rw), SOCK_GRACE_MS, &rr));
	if (!res && !buf_done(&rr))
		res = TEE_ERROR_COMMUNICATION;
	if (!res)
		e->peer = addrs[0];
	return res;
}

static void op_ioctl(struct sock_relay *rl, struct buf_reader *r, struct buf_writer *w)
{
	struct sock_entry *e = NULL;
	struct buf_reader data;
	uint32_t handle = 0;
	uint32_t cmd = 0;
	uint32_t len = 0;
	uint32_t res = TEE_ERROR_NOT_SUPPORTED;

	buf_get_u32(r, &handle);
	buf_get_u32(r, &cmd);
	buf_get_u32(r, &len);
	if (len > PROTO_SOCK_HOST_MAX || !buf_get_sub(r, &data, len) || !buf_done(r)) {
		protocol_violation(rl, "a malformed ioctl");
		return;
	}
	e = entry_of(rl, handle);
	if (!e) {
		protocol_violation(rl, "an ioctl on a handle it does not have");
		return;
	}
	if (e->proto == TEE_ISOCKET_PROTOCOLID_TCP &&
	    (cmd == TEE_TCP_SET_RECVBUF || cmd == TEE_TCP_SET_SENDBUF))
		res = ioctl_setbuf(rl, e, cmd, &data);
	else if (e->proto == TEE_ISOCKET_PROTOCOLID_UDP &&
		 (cmd == TEE_UDP_CHANGEADDR || cmd == TEE_UDP_CHANGEPORT))
		res = ioctl_setpeer(rl, e, cmd, &data, len);
	buf_put_u32(w, MSG_SOCK_RSP);
	buf_put_u32(w, res);
	if (!res)
		buf_put_u32(w, 0);
}

void sock_ops_handle(struct sock_relay *rl, uint32_t type, struct buf_reader *r,
		     struct buf_writer *w)
{
	switch (type) {
	case MSG_SOCK_OPEN:
		op_open(rl, r, w);
		break;
	case MSG_SOCK_SEND:
		op_send(rl, r, w);
		break;
	case MSG_SOCK_RECV:
		op_recv(rl, r, w);
		break;
	case MSG_SOCK_CLOSE:
		op_close(rl, r, w);
		break;
	case MSG_SOCK_IOCTL:
		op_ioctl(rl, r, w);
		break;
	default:
		protocol_violation(rl, "an unknown request");
		break;
	}
}
