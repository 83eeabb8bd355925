/*
 * Socket channels: one core thread per TA instance that uses sockets,
 * between the instance's channel and a channel the supplicant serves. The
 * thread blocks; the epoll loop never does.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <tee_api_defines.h>

#include "core.h"
#include "log.h"
#include "sockets.h"

#define FINI_WAIT_S 5

/* The running relays; each thread unlinks and frees its own when it ends. */
static pthread_mutex_t relays_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t relays_ended = PTHREAD_COND_INITIALIZER;
static struct sock_relay *relays;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Closes the supplicant's channel; under the lock, as sockets_fini may shut it down. */
static void supp_close(struct sock_relay *rl)
{
	pthread_mutex_lock(&relays_lock);
	close(rl->supp);
	rl->supp = -1;
	pthread_mutex_unlock(&relays_lock);
}

static void supp_lost(struct sock_relay *rl, const char *why)
{
	if (rl->supp < 0)
		return;
	log_error("TA %s: the supplicant's socket channel %s; sockets fail until the "
		  "instance ends",
		  rl->name, why);
	supp_close(rl);
}

/* The instance's message while a call runs: only a cancellation belongs here. */
static int ta_during_call(struct sock_relay *rl, bool *cancelled)
{
	uint8_t in[16];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	ssize_t n = msg_recv(rl->ta, in, sizeof(in), &fds);

	msg_fds_close(&fds);
	if (n == -EINTR || n == -EAGAIN)
		return 0;
	buf_reader_init(&r, in, n > 0 ? (size_t)n : 0);
	buf_get_u32(&r, &type);
	if (!buf_done(&r) || type != MSG_SOCK_CANCEL) {
		rl->ta_gone = true;
		return -1;
	}
	if (!*cancelled && rl->supp >= 0) {
		uint8_t out[4];
		struct buf_writer w;

		buf_writer_init(&w, out, sizeof(out));
		buf_put_u32(&w, MSG_SOCK_CANCEL);
		if (msg_send(rl->supp, out, buf_written(&w), NULL, 0))
			supp_lost(rl, "does not take requests");
	}
	*cancelled = true;
	return 0;
}

uint32_t sock_relay_call(struct sock_relay *rl, const void *req, size_t len, uint32_t timeout_ms,
			 struct buf_reader *r)
{
	int64_t deadline = -1;
	bool cancelled = false;
	uint32_t type = 0;
	uint32_t res = 0;

	buf_reader_init(r, rl->rsp, 0);
	if (rl->supp < 0)
		return TEE_ERROR_COMMUNICATION;
	if (timeout_ms != PROTO_SOCK_NO_TIMEOUT)
		deadline = now_ms() + timeout_ms + SOCK_GRACE_MS;
	if (msg_send(rl->supp, req, len, NULL, 0)) {
		supp_lost(rl, "does not take requests");
		return TEE_ERROR_COMMUNICATION;
	}
	for (;;) {
		struct pollfd p[2] = {
		    {.fd = rl->supp, .events = POLLIN},
		    {.fd = rl->ta, .events = POLLIN},
		};
		int wait = -1;
		int rc = 0;
		ssize_t n = 0;
		struct msg_fds fds;

		if (deadline >= 0) {
			int64_t left = deadline - now_ms();

			wait = left > 0 ? (int)(left > 60000 ? 60000 : left) : 0;
		}
		rc = poll(p, 2, wait);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0) {
			supp_lost(rl, "cannot be polled");
			return TEE_ERROR_COMMUNICATION;
		}
		if (!rc) {
			if (deadline >= 0 && now_ms() >= deadline) {
				supp_lost(rl, "did not answer in time");
				return cancelled ? TEE_ERROR_CANCEL : TEE_ERROR_COMMUNICATION;
			}
			continue;
		}
		if (p[1].revents) {
			if (ta_during_call(rl, &cancelled))
				return TEE_ERROR_COMMUNICATION;
			/* A supplicant that ignores a cancellation gets the grace, no more. */
			if (cancelled && (deadline < 0 || deadline > now_ms() + SOCK_GRACE_MS))
				deadline = now_ms() + SOCK_GRACE_MS;
			if (rl->supp < 0)
				return TEE_ERROR_COMMUNICATION;
		}
		if (!p[0].revents)
			continue;
		n = msg_recv(rl->supp, rl->rsp, sizeof(rl->rsp), &fds);
		msg_fds_close(&fds);
		if (n == -EINTR)
			continue;
		if (n <= 0) {
			supp_lost(rl, n == 0 ? "closed" : "sent an oversized message");
			return TEE_ERROR_COMMUNICATION;
		}
		buf_reader_init(r, rl->rsp, (size_t)n);
		buf_get_u32(r, &type);
		buf_get_u32(r, &res);
		if (!buf_ok(r) || type != MSG_SOCK_RSP) {
			supp_lost(rl, "sent a malformed answer");
			buf_reader_init(r, rl->rsp, 0);
			return TEE_ERROR_COMMUNICATION;
		}
		return res;
	}
}

static void *relay_main(void *arg)
{
	struct sock_relay *rl = arg;

	for (;;) {
		struct msg_fds fds;
		struct buf_reader r;
		struct buf_writer w;
		uint32_t type = 0;
		ssize_t n = msg_recv(rl->ta, rl->req, sizeof(rl->req), &fds);

		if (n == -EINTR)
			continue;
		if (n <= 0 || fds.n) {
			if (n < 0 || fds.n)
				log_error("TA %s: malformed message on the socket channel",
					  rl->name);
			msg_fds_close(&fds);
			break;
		}
		buf_reader_init(&r, rl->req, (size_t)n);
		buf_get_u32(&r, &type);
		if (type == MSG_SOCK_CANCEL && buf_done(&r))
			continue; /* late: the call it meant has answered */
		buf_writer_init(&w, rl->fwd, sizeof(rl->fwd));
		sock_ops_handle(rl, type, &r, &w);
		if (rl->ta_gone)
			break;
		if (msg_send(rl->ta, rl->fwd, buf_written(&w), NULL, 0))
			break;
	}
	/* The instance is gone: every socket it had goes too. */
	if (rl->supp >= 0) {
		uint8_t out[4];
		struct buf_writer w;

		buf_writer_init(&w, out, sizeof(out));
		buf_put_u32(&w, MSG_SOCK_CLOSE_ALL);
		msg_send(rl->supp, out, buf_written(&w), NULL, 0);
		supp_close(rl);
	}
	log_debug("TA %s: socket channel closed", rl->name);
	/* Nothing of the instance's outlives it: not its channel, not this memory. */
	pthread_mutex_lock(&relays_lock);
	for (struct sock_relay **pp = &relays; *pp; pp = &(*pp)->next) {
		if (*pp == rl) {
			*pp = rl->next;
			break;
		}
	}
	close(rl->ta);
	free(rl);
	pthread_cond_broadcast(&relays_ended);
	pthread_mutex_unlock(&relays_lock);
	return NULL;
}

void sockets_ctl_request(struct core *c, uint32_t instance, const struct swtee_uuid *uuid,
			 struct buf_reader *r, struct msg_fds *fds, struct ta_reply *rep)
{
	struct sock_relay *rl = NULL;
	int sv[2] = {-1, -1};
	uint32_t res = TEE_ERROR_COMMUNICATION;

	if (!buf_done(r) || fds->n) {
		rep->violation = "sent a malformed socket request";
		return;
	}
	pthread_mutex_lock(&relays_lock);
	for (rl = relays; rl; rl = rl->next) {
		if (rl->instance == instance) {
			pthread_mutex_unlock(&relays_lock);
			rep->violation = "asked for a second socket channel";
			return;
		}
	}
	pthread_mutex_unlock(&relays_lock);
	if (!c->supplicant) {
		log_error("TA sockets need tee-supplicant");
		goto reply;
	}
	res = TEE_ERROR_OUT_OF_MEMORY;
	rl = calloc(1, sizeof(*rl));
	if (!rl || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		goto reply;
	rl->ta = -1;
	rl->supp = -1;
	res = TEE_ERROR_COMMUNICATION;
	if (supplicant_open_channel(c, MSG_SUPP_SOCK_CHANNEL, -1, &rl->supp))
		goto reply;
	rl->ta = sv[0];
	sv[0] = -1; /* transferred */
	rl->instance = instance;
	rl->uuid = *uuid;
	uuid_format(uuid, rl->name);
	/* Listed before the thread runs: it unlinks itself when it ends. */
	pthread_mutex_lock(&relays_lock);
	if (pthread_create(&rl->thread, NULL, relay_main, rl)) {
		pthread_mutex_unlock(&relays_lock);
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto reply;
	}
	pthread_detach(rl->thread);
	rl->next = relays;
	relays = rl;
	pthread_mutex_unlock(&relays_lock);
	rl = NULL; /* the thread owns it */
	res = TEE_SUCCESS;
reply:
	rep->type = MSG_CTL_SOCKET_RSP;
	rep->res = res;
	if (!res) {
		rep->fd[0] = sv[1];
		rep->nfds = 1;
		sv[1] = -1; /* transferred */
	}
	if (rl) {
		if (rl->ta >= 0)
			close(rl->ta);
		if (rl->supp >= 0)
			close(rl->supp);
		free(rl);
	}
	for (int i = 0; i < 2; i++)
		if (sv[i] >= 0)
			close(sv[i]);
}

void sockets_fini(void)
{
	struct timespec limit;

	clock_gettime(CLOCK_REALTIME, &limit);
	limit.tv_sec += FINI_WAIT_S;
	pthread_mutex_lock(&relays_lock);
	for (struct sock_relay *rl = relays; rl; rl = rl->next)
		shutdown(rl->ta, SHUT_RDWR);
	while (relays && !pthread_cond_timedwait(&relays_ended, &relays_lock, &limit))
		;
	/* A relay still waiting on the supplicant: its channel ends too. */
	for (struct sock_relay *rl = relays; rl; rl = rl->next)
		if (rl->supp >= 0)
			shutdown(rl->supp, SHUT_RDWR);
	while (relays)
		pthread_cond_wait(&relays_ended, &relays_lock);
	pthread_mutex_unlock(&relays_lock);
}
