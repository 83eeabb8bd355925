/*
 * The core's side of the GP Sockets API. Each TA instance that uses sockets
 * gets a channel served by a core thread of its own (so that a blocking
 * network call never stalls the epoll loop). The thread checks every request
 * of the instance (sizes, handles, the instance's limits) and the socket
 * policy, relays it to the supplicant over a channel of its own, checks the
 * answer and passes it back. When the instance's end closes, the thread has
 * the supplicant close every socket of that instance.
 */
#ifndef SWTEE_CORE_SOCKETS_H
#define SWTEE_CORE_SOCKETS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "must_check.h"
#include "proto.h"
#include "uuid.h"

#define SOCK_PER_INSTANCE 32	       /* open sockets of one instance */
#define SOCK_BUF_MAX (256u * 1024)     /* a TEE_TCP_SET_*BUF size */
#define SOCK_BUF_BUDGET (1024u * 1024) /* their sum over an instance */
#define SOCK_CONNECT_TIMEOUT_MS 10000  /* a connect, in the supplicant */
#define SOCK_RESOLVE_TIMEOUT_MS 15000  /* a host name lookup */
#define SOCK_GRACE_MS 3000	       /* the supplicant's margin over a call's timeout */

struct sock_peer {
	uint32_t family; /* PROTO_SOCK_INET4/6 */
	uint8_t addr[16];
	uint16_t port;
};

struct sock_entry {
	bool used;
	uint32_t handle; /* the supplicant's number, checked unique */
	uint32_t proto;	 /* TEE_ISOCKET_PROTOCOLID_* */
	struct sock_peer peer;
	uint32_t bufs[2]; /* receive and send buffer sizes set by ioctl */
};

struct sock_relay {
	pthread_t thread;
	int ta;	  /* the instance's channel */
	int supp; /* the supplicant's channel, -1 once it failed */
	uint32_t instance;
	struct swtee_uuid uuid;
	char name[SWTEE_UUID_STR_LEN];
	struct sock_entry socks[SOCK_PER_INSTANCE];
	uint32_t buf_total;
	bool ta_gone; /* the instance's end closed or broke the protocol */
	struct sock_relay *next;
	uint8_t req[PROTO_SOCK_MSG_MAX];
	uint8_t rsp[PROTO_SOCK_MSG_MAX];
	uint8_t fwd[PROTO_SOCK_MSG_MAX];
};

/* policy.c */
/* Replaces the policy with the rules of path (docs/sockets.md). Returns 0, or -1 (logged). */
SWTEE_MUST_CHECK int sock_policy_load(const char *path);
/*
 * As sock_policy_load, from f (name is for log lines). On failure the policy
 * in force stays as it was.
 */
SWTEE_MUST_CHECK int sock_policy_read(FILE *f, const char *name);
/* Back to the default (loopback only); frees the rules read. */
void sock_policy_fini(void);
/* True when the TA uuid may reach peer (its address and port). */
bool sock_policy_allows(const struct swtee_uuid *uuid, const struct sock_peer *peer);
/* The address and port as text, for log lines. */
void sock_peer_format(const struct sock_peer *peer, char *out, size_t n);

/* relay.c */
/*
 * Sends req[len] to the supplicant and waits for its MSG_SOCK_RSP (in
 * rl->rsp, *r after the result) at most timeout_ms + SOCK_GRACE_MS
 * (PROTO_SOCK_NO_TIMEOUT: until it answers or the instance cancels).
 * Meanwhile a MSG_SOCK_CANCEL from the instance is passed on. Returns the
 * result; TEE_ERROR_COMMUNICATION when the supplicant failed (its channel is
 * then closed) or the instance went away (rl->ta_gone).
 */
SWTEE_MUST_CHECK uint32_t sock_relay_call(struct sock_relay *rl, const void *req, size_t len,
					  uint32_t timeout_ms, struct buf_reader *r);

/* ops.c: one request of the instance, parsed from r; the answer into w. */
void sock_ops_handle(struct sock_relay *rl, uint32_t type, struct buf_reader *r,
		     struct buf_writer *w);

#endif
