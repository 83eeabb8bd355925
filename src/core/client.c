/*
 * Client connections. A client (libteec) connects, the kernel tells the core
 * who it is (SO_PEERCRED), and the only thing it may ask the core for is a
 * session, plus a status read and the connection's nonce (for a login by
 * executable). Garbage ends that client's connection only.
 */
#include <errno.h>
#include <openssl/crypto.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "buf.h"
#include "core.h"
#include "log.h"
#include "msg.h"
#include "proto.h"

static uint32_t clients_of_user(const struct core *c, uid_t uid)
{
	uint32_t n = 0;

	for (const struct client *cl = c->clients; cl; cl = cl->next)
		if (cl->cred.uid == uid)
			n++;
	return n;
}

/* Tells a connection the core will not serve why (libteec returns it), then closes it. */
static void refuse(int fd, uint32_t res)
{
	uint8_t out[8];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_REFUSED);
	buf_put_u32(&w, res);
	msg_send(fd, out, buf_written(&w), NULL, 0);
	close(fd);
}

void client_accept(struct core *c)
{
	struct client *cl = NULL;
	socklen_t len = sizeof(cl->cred);
	int fd = accept4(c->listen_client.fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	if (c->nclients >= CORE_MAX_CLIENTS) {
		log_error("refusing a client: %zu connections already", c->nclients);
		refuse(fd, TEEC_ERROR_BUSY);
		return;
	}
	cl = calloc(1, sizeof(*cl));
	if (!cl) {
		refuse(fd, TEEC_ERROR_OUT_OF_MEMORY);
		return;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cl->cred, &len)) {
		close(fd);
		free(cl);
		return;
	}
	if (clients_of_user(c, cl->cred.uid) >= c->limits.clients_per_user) {
		log_error("user %u holds %u connections, its limit (--max-clients-per-user); "
			  "refusing pid %d",
			  (unsigned int)cl->cred.uid, c->limits.clients_per_user,
			  (int)cl->cred.pid);
		refuse(fd, TEEC_ERROR_BUSY);
		free(cl);
		return;
	}
	identity_capture(&cl->cred, &cl->facts);
	cl->ep.kind = EP_CLIENT;
	cl->ep.fd = fd;
	cl->ep.owner = cl;
	if (core_watch(c, &cl->ep)) {
		close(fd);
		free(cl);
		return;
	}
	cl->next = c->clients;
	c->clients = cl;
	c->nclients++;
	log_debug("client pid %d uid %u connected", (int)cl->cred.pid, (unsigned int)cl->cred.uid);
}

static void client_drop(struct core *c, struct client *cl)
{
	struct client **pp = &c->clients;

	while (*pp && *pp != cl)
		pp = &(*pp)->next;
	if (*pp)
		*pp = cl->next;
	c->nclients--;
	open_requester_gone(c, cl, NULL);
	instance_client_gone(c, cl);
	core_unwatch(c, &cl->ep);
	close(cl->ep.fd);
	log_debug("client pid %d disconnected", (int)cl->cred.pid);
	free(cl);
}

static void reply_open(struct client *cl, uint32_t res, uint32_t origin, uint32_t sid, int sock)
{
	uint8_t out[16];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_OPEN_RSP);
	buf_put_u32(&w, res);
	buf_put_u32(&w, origin);
	buf_put_u32(&w, sid);
	msg_send(cl->ep.fd, out, buf_written(&w), sock >= 0 ? &sock : NULL, sock >= 0 ? 1 : 0);
}

/*
 * The pseudo-TAs that TAs reach inside their own instance (the TA runtime's
 * pta.c); a client application is refused them, as on OP-TEE.
 */
static bool ta_only_pta(const struct swtee_uuid *uuid)
{
	static const struct swtee_uuid system_pta = {{0x3a, 0x2f, 0x89, 0x78, 0x5d, 0xc0, 0x11,
						      0xe8, 0x9c, 0x2d, 0xfa, 0x7a, 0xe0, 0x1b,
						      0xbe, 0xbc}};

	return uuid_equal(uuid, &system_pta);
}

/*
 * An identity that names the executable is the one of the process that
 * asks, and must be what the connecting process ran when the core accepted
 * it and read its identity. The request carries the nonce the core sent
 * after that read, so it was written after it; the process that sent it
 * runs the same executable now, in the same layout (so it has not exec'd
 * since: a child forked after the connecting process's last exec shares its
 * layout, any exec makes a new one). A program that connects, then forks
 * and execs another, gets neither program's identity, whichever of the two
 * sends the open and whenever either execs.
 */
static bool executable_unchanged(const struct client *cl, pid_t sender)
{
	char now[sizeof(cl->facts.exe)];
	uint64_t layout[CLIENT_LAYOUT_FIELDS];

	if (!cl->facts.exe_ok || !cl->facts.layout_ok || sender <= 0 ||
	    !identity_exe(sender, now, sizeof(now)) || !identity_layout(sender, layout))
		return false;
	if (strcmp(now, cl->facts.exe) != 0) {
		log_info("client pid %d (connected as pid %d): its executable is %s, not %s as "
			 "when it connected; login by executable refused",
			 (int)sender, (int)cl->cred.pid, now, cl->facts.exe);
		return false;
	}
	if (memcmp(layout, cl->facts.layout, sizeof(layout)) != 0) {
		log_info("client pid %d (connected as pid %d) has run a new program since it "
			 "connected (its memory layout changed); login by executable refused",
			 (int)sender, (int)cl->cred.pid);
		return false;
	}
	return true;
}

/* Whether nonce is the one this connection was sent (MSG_CORE_NONCE). */
static bool nonce_matches(const struct client *cl, const uint8_t *nonce)
{
	if (cl->nonce_sent && !CRYPTO_memcmp(nonce, cl->nonce, sizeof(cl->nonce)))
		return true;
	log_info("client pid %d: a login by executable without this connection's nonce (so "
		 "perhaps written before the core read who connected); refused",
		 (int)cl->cred.pid);
	return false;
}

_Static_assert(TEEC_LOGIN_APPLICATION == 4 && TEEC_LOGIN_USER_APPLICATION == 5 &&
		   TEEC_LOGIN_GROUP_APPLICATION == 6,
	       "proto_login_names_executable names GP's login values");

static void handle_open(struct core *c, struct client *cl, struct buf_reader *r, pid_t sender)
{
	struct swtee_uuid uuid = {{0}};
	struct swtee_uuid identity = {{0}};
	uint8_t nonce[CLIENT_NONCE_SIZE] = {0};
	uint32_t login = 0;
	uint32_t gid = 0;
	uint32_t res = 0;

	buf_get_bytes(r, uuid.b, sizeof(uuid.b));
	buf_get_u32(r, &login);
	buf_get_u32(r, &gid);
	buf_get_bytes(r, nonce, sizeof(nonce));
	if (!buf_done(r)) {
		reply_open(cl, TEEC_ERROR_BAD_FORMAT, TEEC_ORIGIN_TEE, 0, -1);
		return;
	}
	res = identity_for_login(&cl->facts, login, gid, &identity);
	if (!res && proto_login_names_executable(login) &&
	    (!nonce_matches(cl, nonce) || !executable_unchanged(cl, sender)))
		res = TEEC_ERROR_ACCESS_DENIED;
	if (res) {
		log_info("client pid %d: login method 0x%x refused", (int)cl->cred.pid, login);
		reply_open(cl, res, TEEC_ORIGIN_TEE, 0, -1);
		return;
	}
	if (ta_only_pta(&uuid)) {
		reply_open(cl, TEEC_ERROR_ACCESS_DENIED, TEEC_ORIGIN_TRUSTED_APP, 0, -1);
		return;
	}
	if (cl->nsessions >= c->limits.sessions_per_client) {
		log_error("client pid %d of user %u holds %u sessions, its limit "
			  "(--max-sessions-per-client); refusing another",
			  (int)cl->cred.pid, (unsigned int)cl->cred.uid, cl->nsessions);
		reply_open(cl, TEEC_ERROR_BUSY, TEEC_ORIGIN_TEE, 0, -1);
		return;
	}
	open_start(c, cl, NULL, &uuid, login, &identity);
}

void client_open_answer(struct client *cl, uint32_t res, uint32_t sid, int sock)
{
	reply_open(cl, res, TEEC_ORIGIN_TEE, sid, sock);
}

/*
 * The client's own user's instances and sessions; root and the core's own
 * user, who may see every process anyway, get the whole TEE's.
 */
static void handle_status(struct core *c, struct client *cl)
{
	uint8_t out[32];
	struct buf_writer w;
	size_t sessions = 0;
	bool all = cl->cred.uid == 0 || cl->cred.uid == geteuid();
	size_t instances = instance_count(c, all, cl->cred.uid, &sessions);

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_STATUS_RSP);
	buf_put_u32(&w, (uint32_t)instances);
	buf_put_u32(&w, (uint32_t)sessions);
	buf_put_u32(&w, (uint32_t)c->nspares);
	buf_put_u32(&w, c->supplicant ? 1 : 0);
	buf_put_u32(&w, (uint32_t)ta_memcg_version());
	msg_send(cl->ep.fd, out, buf_written(&w), NULL, 0);
}

/*
 * The connection's nonce: random, made on the first ask, after the core
 * read who connected (at accept). False when the kernel gave no randomness.
 */
static bool handle_nonce(struct client *cl)
{
	uint8_t out[4 + CLIENT_NONCE_SIZE];
	struct buf_writer w;

	if (!cl->nonce_sent) {
		if (getrandom(cl->nonce, sizeof(cl->nonce), 0) != (ssize_t)sizeof(cl->nonce))
			return false;
		cl->nonce_sent = true;
	}
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_NONCE_RSP);
	buf_put_bytes(&w, cl->nonce, sizeof(cl->nonce));
	msg_send(cl->ep.fd, out, buf_written(&w), NULL, 0);
	return true;
}

/*
 * One message of a client. The kernel says which process sent it (the
 * listening socket passes credentials); clients send the core no
 * descriptors, and one that does, or sends more than a message holds, is
 * dropped.
 */
void client_readable(struct core *c, struct client *cl)
{
	uint8_t in[PROTO_MSG_MAX];
	struct buf_reader r;
	uint32_t type = 0;
	pid_t sender = 0;
	ssize_t n = msg_recv_cred(cl->ep.fd, in, sizeof(in), NULL, &sender);

	if (n == -EAGAIN)
		return;
	if (n == -EMSGSIZE) {
		log_info("client pid %d sent descriptors or an oversized message; dropping it",
			 (int)cl->cred.pid);
		client_drop(c, cl);
		return;
	}
	if (n <= 0) {
		client_drop(c, cl);
		return;
	}
	if (open_pending(c, cl, NULL)) {
		/* libteec waits for each answer; a client that does not is broken. */
		log_info("client pid %d sent a request before its open was answered; dropping it",
			 (int)cl->cred.pid);
		client_drop(c, cl);
		return;
	}
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	switch (type) {
	case MSG_CORE_OPEN:
		handle_open(c, cl, &r, sender);
		break;
	case MSG_CORE_STATUS:
		if (buf_done(&r))
			handle_status(c, cl);
		else
			client_drop(c, cl);
		break;
	case MSG_CORE_NONCE:
		if (!buf_done(&r) || !handle_nonce(cl)) {
			log_info("client pid %d: %s", (int)cl->cred.pid,
				 buf_done(&r) ? "no randomness for its nonce; dropping it"
					      : "MSG_CORE_NONCE with a body; dropping it");
			client_drop(c, cl);
		}
		break;
	default:
		log_info("client pid %d sent unknown message 0x%x; dropping it", (int)cl->cred.pid,
			 type);
		client_drop(c, cl);
		break;
	}
}
