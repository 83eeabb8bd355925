/*
 * tee-supplicant plugins: one core thread per TA instance that calls them,
 * between the instance's plugin channel and a channel the supplicant serves
 * on a thread of its own. The thread checks every request and answer
 * (sizes, types, the answer's data within the request's buffer) and blocks
 * while a plugin runs, however long: the epoll loop never waits on a plugin,
 * and a slow one holds only the instance that called it. A supplicant that
 * ends during a call (a plugin crashed it, say) fails that call with
 * TEE_ERROR_COMMUNICATION and ends the channel; the instance asks for a new
 * one at its next call.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tee_api_defines.h>

#include "core.h"
#include "log.h"
#include "plugin_msg.h"
#include "proto.h"

struct plugin_relay {
	int ta;	  /* the instance's channel */
	int supp; /* the supplicant's channel */
	uint32_t instance;
	char name[SWTEE_UUID_STR_LEN];
	struct plugin_relay *next;
	uint8_t msg[PROTO_PLUGIN_MSG_MAX];
};

/* The running relays; each thread unlinks and frees its own when it ends. */
static pthread_mutex_t relays_lock = PTHREAD_MUTEX_INITIALIZER;
static struct plugin_relay *relays;

/*
 * Passes the request in rl->msg[len] to the supplicant and its answer into
 * rl->msg; *n is the answer's length. Returns 0; -1 when the supplicant
 * failed (logged); -2 when the instance's end closed or spoke during the call.
 */
static int relay_call(struct plugin_relay *rl, const struct plugin_msg_invoke *req, size_t *n)
{
	char plugin[SWTEE_UUID_STR_LEN];
	struct plugin_msg_answer ans;
	const char *why = "does not take requests";
	ssize_t got = 0;

	uuid_format(&req->uuid, plugin);
	if (msg_send(rl->supp, rl->msg, *n, NULL, 0))
		goto lost;
	for (;;) {
		struct pollfd p[2] = {
		    {.fd = rl->supp, .events = POLLIN},
		    {.fd = rl->ta, .events = POLLIN},
		};
		struct msg_fds fds;
		size_t nfds = 0;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			why = "cannot be polled";
			goto lost;
		}
		/* The instance says nothing while it waits: it ended, or broke the protocol. */
		if (p[1].revents)
			return -2;
		if (!p[0].revents)
			continue;
		got = msg_recv(rl->supp, rl->msg, sizeof(rl->msg), &fds);
		nfds = fds.n;
		msg_fds_close(&fds);
		if (got == -EINTR)
			continue;
		why = got == 0 ? "closed (tee-supplicant ended?)" : "sent an oversized message";
		if (got <= 0)
			goto lost;
		why = "sent a malformed answer";
		if (nfds || plugin_msg_parse_answer(rl->msg, (size_t)got, req->len, &ans))
			goto lost;
		*n = (size_t)got;
		return 0;
	}
lost:
	log_error("TA %s: the supplicant's plugin channel %s during a call to plugin %s "
		  "(cmd %u): the call fails with TEE_ERROR_COMMUNICATION",
		  rl->name, why, plugin, req->cmd);
	return -1;
}

/* The answer of a call the supplicant did not answer, into rl->msg. */
static size_t failed_answer(struct plugin_relay *rl)
{
	struct buf_writer w;

	buf_writer_init(&w, rl->msg, sizeof(rl->msg));
	buf_put_u32(&w, MSG_PLUGIN_RSP);
	buf_put_u32(&w, TEE_ERROR_COMMUNICATION);
	buf_put_u32(&w, 0);
	buf_put_u32(&w, 0);
	return buf_written(&w);
}

static void *relay_main(void *arg)
{
	struct plugin_relay *rl = arg;

	for (;;) {
		struct plugin_msg_invoke req;
		struct msg_fds fds;
		size_t nfds = 0;
		size_t n = 0;
		ssize_t got = msg_recv(rl->ta, rl->msg, sizeof(rl->msg), &fds);
		int rc = 0;

		nfds = fds.n;
		msg_fds_close(&fds);
		if (got == -EINTR)
			continue;
		if (got == 0)
			break;
		if (got < 0 || nfds || plugin_msg_parse_invoke(rl->msg, (size_t)got, &req)) {
			log_error("TA %s: malformed message on the plugin channel", rl->name);
			break;
		}
		n = (size_t)got;
		rc = relay_call(rl, &req, &n);
		if (rc == -2)
			break;
		if (rc)
			n = failed_answer(rl);
		if (msg_send(rl->ta, rl->msg, n, NULL, 0) || rc)
			break;
	}
	log_debug("TA %s: plugin channel closed", rl->name);
	pthread_mutex_lock(&relays_lock);
	for (struct plugin_relay **pp = &relays; *pp; pp = &(*pp)->next) {
		if (*pp == rl) {
			*pp = rl->next;
			break;
		}
	}
	/* Closed once unlinked: the instance that sees its end close may ask again. */
	close(rl->supp);
	close(rl->ta);
	free(rl);
	pthread_mutex_unlock(&relays_lock);
	return NULL;
}

static bool relay_of(uint32_t instance)
{
	bool found = false;

	pthread_mutex_lock(&relays_lock);
	for (const struct plugin_relay *rl = relays; rl && !found; rl = rl->next)
		found = rl->instance == instance;
	pthread_mutex_unlock(&relays_lock);
	return found;
}

/* A relay for in, its thread running; the instance's end in *ta. */
static uint32_t relay_start(struct core *c, uint32_t instance, const struct swtee_uuid *uuid,
			    int *ta)
{
	struct plugin_relay *rl = calloc(1, sizeof(*rl));
	int sv[2] = {-1, -1};
	uint32_t res = TEE_ERROR_OUT_OF_MEMORY;
	pthread_t t;

	*ta = -1;
	if (!rl || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		goto out;
	rl->supp = -1;
	res = TEE_ERROR_COMMUNICATION;
	if (supplicant_open_channel(c, MSG_SUPP_PLUGIN_CHANNEL, -1, &rl->supp))
		goto out;
	rl->ta = sv[0];
	rl->instance = instance;
	uuid_format(uuid, rl->name);
	res = TEE_ERROR_OUT_OF_MEMORY;
	/* Listed before the thread runs: it unlinks itself when it ends. */
	pthread_mutex_lock(&relays_lock);
	if (pthread_create(&t, NULL, relay_main, rl)) {
		pthread_mutex_unlock(&relays_lock);
		goto out;
	}
	pthread_detach(t);
	rl->next = relays;
	relays = rl;
	pthread_mutex_unlock(&relays_lock);
	rl = NULL; /* the thread owns it and sv[0] */
	*ta = sv[1];
	return TEE_SUCCESS;
out:
	if (rl && rl->supp >= 0)
		close(rl->supp);
	free(rl);
	for (int i = 0; i < 2; i++)
		if (sv[i] >= 0)
			close(sv[i]);
	return res;
}

void plugins_ctl_request(struct core *c, uint32_t instance, const struct swtee_uuid *uuid,
			 struct buf_reader *r, struct msg_fds *fds, struct ta_reply *rep)
{
	uint32_t res = TEE_ERROR_COMMUNICATION;
	int ta = -1;

	if (!buf_done(r) || fds->n) {
		rep->violation = "sent a malformed plugin request";
		return;
	}
	if (relay_of(instance)) {
		rep->violation = "asked for a second plugin channel";
		return;
	}
	if (c->supplicant) {
		res = relay_start(c, instance, uuid, &ta);
	} else {
		char name[SWTEE_UUID_STR_LEN];

		uuid_format(uuid, name);
		log_error("TA %s: supplicant plugins need tee-supplicant, and none is connected",
			  name);
	}
	rep->type = MSG_CTL_PLUGIN_RSP;
	rep->res = res;
	if (ta >= 0) {
		rep->fd[0] = ta;
		rep->nfds = 1;
	}
}
