/*
 * TA instances. Each instance is a process forked by the zygote ahead of
 * need (a spare); opening a session that needs a new instance hands a spare
 * the verified ELF and a socket for the client. The GP rules live here:
 * single-instance TAs share one instance, multi-session decides whether a
 * second session is allowed, keep-alive keeps an idle instance, and an
 * instance whose last session closes is destroyed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>
#include <user_ta_header.h>

#include "buf.h"
#include "core.h"
#include "log.h"
#include "msg.h"
#include "paths.h"
#include "proto.h"

#define ORPHAN_GRACE_S 3
#define SHUTDOWN_GRACE_MS 2000

static void ta_name(const struct instance *in, char out[SWTEE_UUID_STR_LEN])
{
	uuid_format(&in->uuid, out);
}

int instance_zygote_start(struct core *c)
{
	char host[SWTEE_PATH_MAX];
	char fdarg[16];
	int sv[2] = {-1, -1};
	int out = -1;
	pid_t pid = 0;

	if (paths_sibling("../lib/swtee/swtee-ta-host", host, sizeof(host)))
		return -1;
	out = ta_output_open(c, 0, "zygote");
	if (out < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		close(out);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		close(out);
		return -1;
	}
	if (pid == 0) {
		int fd = dup(sv[1]); /* without close-on-exec */
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
		int cg = ta_memcg_dir() >= 0 ? dup(ta_memcg_dir()) : -1;
		char cgarg[3][24];

		/*
		 * No TA reads what is typed on the terminal that started the
		 * TEE, nor writes to it or to the TEE's log but through the core.
		 */
		if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
		    dup2(out, STDERR_FILENO) < 0)
			_exit(127);

		snprintf(fdarg, sizeof(fdarg), "%d", fd);
		snprintf(cgarg[0], sizeof(cgarg[0]), "%d", cg);
		snprintf(cgarg[1], sizeof(cgarg[1]), "%d", ta_memcg_version());
		snprintf(cgarg[2], sizeof(cgarg[2]), "%" PRIu64, ta_memcg_spare_budget());
		/* The zygote makes each TA process's cgroup in the core's (ta_memcg.c). */
		if (cg >= 0)
			execl(host, "swtee-ta-host", "--zygote", fdarg, cgarg[0], cgarg[1],
			      cgarg[2], (char *)NULL);
		else
			execl(host, "swtee-ta-host", "--zygote", fdarg, (char *)NULL);
		log_error("cannot run %s: %s", host, strerror(errno));
		_exit(127);
	}
	close(sv[1]);
	close(out);
	c->zygote_pid = pid;
	c->zygote.kind = EP_ZYGOTE;
	c->zygote.fd = sv[0];
	c->zygote.owner = NULL;
	return core_watch(c, &c->zygote);
}

/* Asks the zygote for one more spare instance process. */
static void spare_request(struct core *c)
{
	uint8_t out[8];
	struct buf_writer w;
	int sv[2] = {-1, -1};
	int give[2] = {-1, -1};
	struct spare *sp = NULL;

	if (c->nspares >= CORE_SPARES || c->zygote.fd < 0)
		return;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return;
	/* The core never waits on an instance: a full queue means it is stuck. */
	if (fcntl(sv[0], F_SETFL, O_NONBLOCK)) {
		close(sv[0]);
		close(sv[1]);
		return;
	}
	sp = &c->spares[c->nspares];
	sp->fd = sv[0];
	sp->fork_tag = ++c->next_tag;
	sp->pid = 0;
	give[0] = sv[1];
	give[1] = ta_output_open(c, sp->fork_tag, "spare");
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_ZYG_FORK);
	buf_put_u32(&w, sp->fork_tag);
	if (give[1] < 0 || msg_send(c->zygote.fd, out, buf_written(&w), give, 2)) {
		log_error("the zygote does not answer");
		close(sv[0]);
	} else {
		c->nspares++;
	}
	if (give[1] >= 0)
		close(give[1]);
	close(sv[1]);
}

void instance_spares_fill(struct core *c)
{
	while (c->nspares < CORE_SPARES) {
		size_t before = c->nspares;

		spare_request(c);
		if (c->nspares == before)
			break;
	}
}

static void instance_free(struct core *c, struct instance *in);
static void instance_pong(struct instance *in);
static void sessions_owned_by_gone(struct core *c, struct instance *in);

static struct instance *instance_by_tag(struct core *c, uint32_t tag)
{
	for (struct instance *in = c->instances; in; in = in->next)
		if (in->fork_tag == tag)
			return in;
	return NULL;
}

static struct instance *instance_by_pid(struct core *c, pid_t pid)
{
	for (struct instance *in = c->instances; in; in = in->next)
		if (in->pid == pid)
			return in;
	return NULL;
}

static void describe_status(int status, char *out, size_t n)
{
	if (WIFEXITED(status))
		snprintf(out, n, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(out, n, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(out, n, "ended (wait status 0x%x)", (unsigned int)status);
}

/* A spare could not join its cgroup: none from now on. */
static void zygote_no_cgroups(struct core *c)
{
	uint8_t out[4];
	struct buf_writer w;

	ta_memcg_off("a TA process could not join its cgroup");
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_ZYG_NO_CGROUP);
	if (c->zygote.fd >= 0)
		msg_send(c->zygote.fd, out, buf_written(&w), NULL, 0);
}

void instance_zygote_readable(struct core *c)
{
	uint8_t in[64];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t a = 0;
	uint32_t b = 0;
	uint32_t err = 0;
	uint32_t in_cgroup = 0;
	ssize_t n = msg_recv(c->zygote.fd, in, sizeof(in), &fds);

	if (n == -EAGAIN)
		return;
	msg_fds_close(&fds);
	if (n <= 0) {
		log_error("the TA zygote is gone; no new TA instance can start");
		core_unwatch(c, &c->zygote);
		close(c->zygote.fd);
		c->zygote.fd = -1;
		return;
	}
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &a);
	buf_get_u32(&r, &b);
	if (type == MSG_ZYG_FORKED) {
		buf_get_u32(&r, &err);
		buf_get_u32(&r, &in_cgroup);
	}
	if (!buf_done(&r))
		return;
	if (type == MSG_ZYG_FORKED) {
		struct instance *inst = instance_by_tag(c, a);

		if (!b && err != (uint32_t)c->fork_errno)
			log_error("the TA zygote cannot fork: %s%s", strerror((int)err),
				  err == EAGAIN ? " (the process limit of the core's user?)" : "");
		c->fork_errno = b ? 0 : (int)err;
		if (b && !in_cgroup && ta_memcg_version())
			ta_memcg_off("the zygote could not make the cgroup of a TA process");

		for (size_t i = 0; i < c->nspares; i++)
			if (c->spares[i].fork_tag == a)
				c->spares[i].pid = (pid_t)b;
		if (inst)
			inst->pid = (pid_t)b;
	} else if (type == MSG_ZYG_EXITED) {
		struct instance *inst = instance_by_pid(c, (pid_t)a);
		char how[96];

		/* A spare that died is replaced before anyone needs it. */
		for (size_t i = 0; i < c->nspares; i++) {
			if (c->spares[i].pid != (pid_t)a)
				continue;
			/* No TA ran in a spare: this exit status is the runtime's own. */
			if (WIFEXITED((int)b) && WEXITSTATUS((int)b) == PROTO_ZYG_EXIT_NO_CGROUP &&
			    ta_memcg_version())
				zygote_no_cgroups(c);
			close(c->spares[i].fd);
			memmove(&c->spares[i], &c->spares[i + 1],
				(c->nspares - i - 1) * sizeof(c->spares[0]));
			c->nspares--;
			instance_spares_fill(c);
			break;
		}
		describe_status((int)b, how, sizeof(how));
		if (inst) {
			char name[SWTEE_UUID_STR_LEN];
			bool clean = WIFEXITED((int)b) && WEXITSTATUS((int)b) == 0;

			ta_name(inst, name);
			if (clean && (inst->destroying || !inst->nsessions))
				log_debug("TA %s instance %u (pid %d) %s", name, inst->id, (int)a,
					  how);
			else
				log_error("TA %s instance %u (pid %d) %s", name, inst->id, (int)a,
					  how);
			inst->exited = true;
			if (inst->gone)
				instance_free(c, inst);
		} else {
			log_debug("TA process %d %s", (int)a, how);
		}
	}
}

static void session_ref_free(struct session_ref *s)
{
	if (s->client)
		s->client->nsessions--;
	free(s);
}

static void session_refs_free(struct session_ref *s)
{
	while (s) {
		struct session_ref *next = s->next;

		session_ref_free(s);
		s = next;
	}
}

static void instance_free(struct core *c, struct instance *in)
{
	struct instance **pp = &c->instances;

	while (*pp && *pp != in)
		pp = &(*pp)->next;
	if (*pp)
		*pp = in->next;
	if (in->ep.fd >= 0) {
		core_unwatch(c, &in->ep);
		close(in->ep.fd);
	}
	ta_dlopen_close(c, in);
	session_refs_free(in->sessions);
	free(in);
}

/*
 * The instance's control socket closed. Its record stays (out of every
 * lookup) until the zygote says how the process ended, so the log can
 * name the TA with the reason.
 */
static void instance_gone(struct core *c, struct instance *in)
{
	char name[SWTEE_UUID_STR_LEN];

	ta_name(in, name);
	core_unwatch(c, &in->ep);
	close(in->ep.fd);
	in->ep.fd = -1;
	ta_dlopen_close(c, in);
	if (!in->destroying)
		log_debug("TA %s instance %u closed with %u session(s) open", name, in->id,
			  in->nsessions);
	in->destroying = true;
	in->gone = true;
	open_requester_gone(c, NULL, in);
	sessions_owned_by_gone(c, in);
	session_refs_free(in->sessions);
	in->sessions = NULL;
	in->nsessions = 0;
	if (c->zygote.fd < 0 || in->exited)
		instance_free(c, in);
}

/* The sessions in opened on other TAs lose their owner, as a client's do. */
static void sessions_owned_by_gone(struct core *c, struct instance *in)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (struct instance *o = c->instances; o; o = o->next) {
		for (struct session_ref *s = o->sessions; s; s = s->next) {
			if (s->owner_inst != in)
				continue;
			s->owner_inst = NULL;
			s->orphaned = now;
		}
	}
}

static void send_destroy(struct instance *in)
{
	uint8_t out[4];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_DESTROY);
	/* An instance that cannot take even this is stuck: end it. */
	if (msg_send(in->ep.fd, out, buf_written(&w), NULL, 0) && in->pid > 0)
		kill(in->pid, SIGKILL);
	in->destroying = true;
}

static void session_closed(struct core *c, struct instance *in, uint32_t sid)
{
	struct session_ref **pp = &in->sessions;

	(void)c;
	while (*pp && (*pp)->id != sid)
		pp = &(*pp)->next;
	if (!*pp)
		return;
	struct session_ref *s = *pp;

	*pp = s->next;
	session_ref_free(s);
	in->nsessions--;
	if (in->nsessions)
		return;
	if ((in->flags & TA_FLAG_SINGLE_INSTANCE) && (in->flags & TA_FLAG_INSTANCE_KEEP_ALIVE))
		return;
	send_destroy(in);
}

int instance_send(struct instance *in, const void *msg, size_t len, const int *fds, size_t nfds)
{
	if (in->ep.fd < 0)
		return -1;
	return msg_send(in->ep.fd, msg, len, fds, nfds);
}

void instance_kill(struct instance *in, const char *why)
{
	char name[SWTEE_UUID_STR_LEN];

	ta_name(in, name);
	log_error("TA %s instance %u: %s; stopping it", name, in->id, why);
	if (in->pid > 0)
		kill(in->pid, SIGKILL);
	in->destroying = true;
}

bool instance_readable(struct core *c, struct instance *in)
{
	uint8_t msg[PROTO_MSG_MAX];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t v = 0;
	ssize_t n = msg_recv(in->ep.fd, msg, sizeof(msg), &fds);
	char name[SWTEE_UUID_STR_LEN];

	if (n == -EAGAIN)
		return true;
	ta_name(in, name);
	if (n <= 0) {
		instance_gone(c, in);
		return false;
	}
	buf_reader_init(&r, msg, (size_t)n);
	buf_get_u32(&r, &type);
	if (type >= MSG_CTL_REQ_FIRST && type <= MSG_CTL_REQ_LAST) {
		ta_request_dispatch(c, in, type, &r, &fds);
		msg_fds_close(&fds);
		return true;
	}
	if (type == MSG_CTL_PONG && buf_done(&r) && !fds.n) {
		instance_pong(in);
		return true;
	}
	if (type == MSG_CTL_LISTENER && buf_done(&r) && fds.n == 1) {
		ta_dlopen_listener(c, in, msg_fds_take(&fds, 0));
		return true;
	}
	buf_get_u32(&r, &v);
	if (fds.n) {
		msg_fds_close(&fds);
		instance_kill(in, "sent descriptors to the core");
		return true;
	}
	if (!buf_done(&r)) {
		instance_kill(in, "sent a malformed message");
		return true;
	}
	switch (type) {
	case MSG_CTL_SESSION_CLOSED:
		session_closed(c, in, v);
		break;
	case MSG_CTL_PANIC:
		log_error("TA %s instance %u panicked with code 0x%08x", name, in->id, v);
		in->destroying = true;
		break;
	default:
		instance_kill(in, "sent an unknown message");
		break;
	}
	return true;
}

/* At shutdown: handles what an instance has already sent (a last SESSION_CLOSED). */
static struct instance *instance_drain(struct core *c, struct instance *in)
{
	struct pollfd p = {.fd = in->ep.fd, .events = POLLIN};

	while (in->ep.fd >= 0 && poll(&p, 1, 0) == 1)
		if (!instance_readable(c, in))
			return NULL;
	return in;
}

static struct instance *find_shared(struct core *c, const struct swtee_uuid *uuid)
{
	for (struct instance *in = c->instances; in; in = in->next)
		if (!in->destroying && (in->flags & TA_FLAG_SINGLE_INSTANCE) &&
		    uuid_equal(&in->uuid, uuid))
			return in;
	return NULL;
}

struct instance *instance_start(struct core *c, const struct swtee_uuid *uuid, int elf_fd,
				const struct ta_facts *facts, const struct ta_libs *libs,
				uint32_t *res)
{
	uint32_t flags = facts->flags;
	uint8_t out[32 + 16 * PROTO_LIBS_MAX];
	int fds[1 + PROTO_LIBS_MAX];
	struct buf_writer w;
	struct instance *in = NULL;

	fds[0] = elf_fd;
	for (size_t i = 0; i < libs->n; i++)
		fds[1 + i] = libs->fd[i];
	in = calloc(1, sizeof(*in));
	if (!in) {
		*res = TEEC_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	in->ep.kind = EP_INSTANCE;
	in->ep.owner = in;
	in->lib_fd = -1;
	/* What the attestation pseudo-TA measures of it (pta_attest.c), if asked. */
	in->code_uuid[0] = *uuid;
	memcpy(in->code_digest[0], facts->digest, sizeof(facts->digest));
	for (size_t i = 0; i < libs->n; i++) {
		in->code_uuid[1 + i] = libs->uuid[i];
		memcpy(in->code_digest[1 + i], libs->digest[i], sizeof(libs->digest[i]));
	}
	in->ncode = 1 + libs->n;
	in->id = ++c->next_instance;
	in->uuid = *uuid;
	in->flags = flags;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_LOAD);
	buf_put_bytes(&w, uuid->b, sizeof(uuid->b));
	buf_put_u32(&w, flags);
	buf_put_u32(&w, in->id);
	buf_put_u32(&w, (uint32_t)c->log_level);
	buf_put_u64(&w,
		    ta_memcg_version() ? ta_memcg_budget(facts->data_size, facts->stack_size) : 0);
	buf_put_u32(&w, (uint32_t)libs->n);
	for (size_t i = 0; i < libs->n; i++)
		buf_put_bytes(&w, libs->uuid[i].b, sizeof(libs->uuid[i].b));
	/*
	 * Take the oldest spare: it is the most likely to be ready. A spare that
	 * died meanwhile (the OOM killer, an operator) is dropped for the next.
	 */
	for (int tries = 0;; tries++) {
		if (!c->nspares)
			instance_spares_fill(c);
		if (!c->nspares || tries > CORE_SPARES) {
			if (c->zygote.fd < 0)
				log_error("no TA process can be started: the TA zygote is gone");
			else
				log_error("no TA process can be started: %s",
					  c->fork_errno ? strerror(c->fork_errno)
							: "every spare process ended");
			free(in);
			in = NULL;
			*res = TEEC_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		in->ep.fd = c->spares[0].fd;
		in->fork_tag = c->spares[0].fork_tag;
		in->pid = c->spares[0].pid;
		memmove(&c->spares[0], &c->spares[1], (c->nspares - 1) * sizeof(c->spares[0]));
		c->nspares--;
		if (!msg_send(in->ep.fd, out, buf_written(&w), fds, 1 + libs->n)) {
			ta_output_name(c, in->fork_tag, uuid);
			break;
		}
		log_info("a spare TA process is gone; taking another");
		close(in->ep.fd);
	}
	if (core_watch(c, &in->ep)) {
		close(in->ep.fd);
		free(in);
		in = NULL;
		*res = TEEC_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	in->next = c->instances;
	c->instances = in;
	*res = TEEC_SUCCESS;
out:
	return in;
}

/*
 * Is the instance's process on its way out? A dying process may release its
 * session sockets before its control socket, so a client can see a crash and
 * ask again before the core has read the end of the control socket. The
 * kernel marks the task exiting (PF_EXITING in /proc/PID/stat) before it
 * releases any of them.
 */
static bool instance_exiting(const struct instance *in)
{
	char path[64];
	char line[1024];
	const char *p = NULL;
	unsigned long flags = 0;
	bool exiting = false;
	FILE *f = NULL;

	if (in->pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)in->pid);
	f = fopen(path, "re");
	if (!f)
		return true;
	if (fgets(line, sizeof(line), f) && (p = strrchr(line, ')')) &&
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) == 1)
		exiting = (flags & 0x4) != 0; /* PF_EXITING */
	fclose(f);
	return exiting;
}

/*
 * Does from hold, directly or through other TAs, a session on to? A walk
 * that visits each instance once: time in instances times sessions, however
 * many paths there are between them.
 */
static bool instance_reaches(const struct core *c, struct instance *from, const struct instance *to)
{
	static uint32_t walk;
	struct instance *work = from;

	walk++;
	from->visit_mark = walk;
	from->visit_next = NULL;
	while (work) {
		struct instance *x = work;

		work = x->visit_next;
		if (x == to)
			return true;
		for (struct instance *o = c->instances; o; o = o->next) {
			if (o->visit_mark == walk)
				continue;
			for (const struct session_ref *s = o->sessions; s; s = s->next) {
				if (s->owner_inst != x)
					continue;
				o->visit_mark = walk;
				o->visit_next = work;
				work = o;
				break;
			}
		}
	}
	return false;
}

/* The sessions owner holds on other TAs. */
static size_t sessions_owned(const struct core *c, const struct instance *owner)
{
	size_t n = 0;

	for (const struct instance *o = c->instances; o; o = o->next)
		for (const struct session_ref *s = o->sessions; s; s = s->next)
			n += s->owner_inst == owner;
	return n;
}

struct instance *instance_by_id(struct core *c, uint32_t id)
{
	for (struct instance *in = c->instances; in; in = in->next)
		if (in->id == id && in->ep.fd >= 0)
			return in;
	return NULL;
}

bool instance_has_input(const struct instance *in)
{
	struct pollfd p = {.fd = in->ep.fd, .events = POLLIN};

	return in->ep.fd >= 0 && poll(&p, 1, 0) == 1;
}

uint32_t instance_pick(struct core *c, const struct swtee_uuid *uuid, struct instance *owner,
		       struct instance **out, bool *settle)
{
	struct instance *in = find_shared(c, uuid);

	*out = NULL;
	*settle = false;
	if (owner && sessions_owned(c, owner) >= PROTO_TA2TA_MAX) {
		char a[SWTEE_UUID_STR_LEN];

		ta_name(owner, a);
		log_info("TA %s instance %u: already holds %d sessions on other TAs; refused", a,
			 owner->id, PROTO_TA2TA_MAX);
		return TEEC_ERROR_BUSY;
	}
	if (in && instance_has_input(in)) {
		/* It may have closed a session: hear it first. */
		*out = in;
		*settle = true;
		return TEEC_SUCCESS;
	}
	if (in && instance_exiting(in)) {
		/* It is going: its control socket will close any moment now. */
		in->destroying = true;
		in = NULL;
	}
	if (!in)
		return TEEC_SUCCESS;
	/*
	 * A TA calling into an instance that is waiting, directly or through
	 * others, on that TA would wait forever: refuse instead.
	 */
	if (owner && instance_reaches(c, in, owner)) {
		char a[SWTEE_UUID_STR_LEN];
		char b[SWTEE_UUID_STR_LEN];

		ta_name(owner, a);
		ta_name(in, b);
		log_info("TA %s: a session to %s would close a cycle of TA calls", a, b);
		return TEEC_ERROR_BUSY;
	}
	if (!(in->flags & TA_FLAG_MULTI_SESSION) && in->nsessions)
		return TEEC_ERROR_BUSY;
	*out = in;
	return TEEC_SUCCESS;
}

uint32_t instance_attach(struct core *c, struct instance *in, struct client *cl,
			 struct instance *owner, uint32_t login, const struct swtee_uuid *identity,
			 int *sock, uint32_t *session_id)
{
	uint8_t out[64];
	struct buf_writer w;
	struct session_ref *ref = NULL;
	int sv[2] = {-1, -1};
	uint32_t res = TEEC_ERROR_GENERIC;
	int rc = 0;

	*sock = -1;
	*session_id = 0;
	ref = calloc(1, sizeof(*ref));
	if (!ref || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		free(ref);
		res = TEEC_ERROR_OUT_OF_MEMORY;
		goto fail;
	}
	ref->id = ++c->next_session;
	if (!ref->id)
		ref->id = ++c->next_session;
	ref->client = cl;
	ref->owner_inst = owner;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_NEW_SESSION);
	buf_put_u32(&w, ref->id);
	buf_put_u32(&w, login);
	buf_put_bytes(&w, identity->b, sizeof(identity->b));
	rc = msg_send(in->ep.fd, out, buf_written(&w), &sv[1], 1);
	if (rc) {
		free(ref);
		close(sv[0]);
		close(sv[1]);
		res = rc == -EAGAIN ? TEEC_ERROR_BUSY : TEEC_ERROR_TARGET_DEAD;
		goto fail;
	}
	close(sv[1]);
	ref->next = in->sessions;
	in->sessions = ref;
	in->nsessions++;
	if (cl)
		cl->nsessions++;
	*sock = sv[0];
	*session_id = ref->id;
	return TEEC_SUCCESS;
fail:
	if (!in->nsessions && !in->destroying)
		send_destroy(in);
	return res;
}

void instance_client_gone(struct core *c, struct client *cl)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (struct instance *in = c->instances; in; in = in->next) {
		for (struct session_ref *s = in->sessions; s; s = s->next) {
			if (s->client != cl)
				continue;
			s->client = NULL;
			s->orphaned = now;
		}
	}
}

/* The instance answered a ping: it is idle, not stuck. */
static void instance_pong(struct instance *in)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	in->ping_pending = false;
	for (struct session_ref *s = in->sessions; s; s = s->next)
		if (!s->client && !s->owner_inst)
			s->orphaned = now;
}

static long ms_between(const struct timespec *a, const struct timespec *b)
{
	return (long)(b->tv_sec - a->tv_sec) * 1000 + (b->tv_nsec - a->tv_nsec) / 1000000;
}

/*
 * An instance whose every session lost its caller would close them when it
 * sees their sockets close, unless it is stuck in an entry point that nobody
 * waits for any more. Such an instance is pinged; one that does not answer
 * within the grace is killed. (A client may also close its connection to the
 * core and keep its sessions: those instances answer and live on.)
 */
void instance_reap_orphans(struct core *c)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	for (struct instance *in = c->instances; in; in = in->next) {
		bool all_orphaned = in->nsessions > 0;
		uint8_t out[4];
		struct buf_writer w;

		if (in->destroying)
			continue;
		for (struct session_ref *s = in->sessions; s && all_orphaned; s = s->next)
			if (s->client || s->owner_inst ||
			    ms_between(&s->orphaned, &now) < ORPHAN_GRACE_S * 1000)
				all_orphaned = false;
		if (!all_orphaned)
			continue;
		if (!in->ping_pending) {
			buf_writer_init(&w, out, sizeof(out));
			buf_put_u32(&w, MSG_CTL_PING);
			in->ping_pending = true;
			in->ping_sent = now;
			if (!instance_send(in, out, buf_written(&w), NULL, 0))
				continue;
		} else if (ms_between(&in->ping_sent, &now) < ORPHAN_GRACE_S * 1000) {
			continue;
		}
		instance_kill(in, "its callers are gone and it does not return");
	}
}

/* The user a session counts against: its client's, or that of the instance that opened it. */
static bool session_of_user(const struct session_ref *s, uid_t uid)
{
	if (s->client)
		return s->client->cred.uid == uid;
	return s->owner_inst && s->owner_inst->uid == uid;
}

size_t instance_count(const struct core *c, bool all, uid_t uid, size_t *sessions)
{
	size_t n = 0;

	*sessions = 0;
	/* Instances on their way out (destroyed, killed, exiting) are not counted. */
	for (const struct instance *in = c->instances; in; in = in->next) {
		if (in->gone || in->destroying)
			continue;
		if (all || in->uid == uid)
			n++;
		for (const struct session_ref *s = in->sessions; s; s = s->next)
			if (all || session_of_user(s, uid))
				(*sessions)++;
	}
	return n;
}

size_t instance_count_user(const struct core *c, uid_t uid)
{
	size_t n = 0;

	/* A process counts until the zygote has seen it end. */
	for (const struct instance *in = c->instances; in; in = in->next)
		if (!in->exited && in->uid == uid)
			n++;
	return n;
}

/*
 * At shutdown, idle instances (keep-alive ones, and those whose last session
 * just closed) are destroyed as usual, so that TA_DestroyEntryPoint and the
 * TA's exit handlers run: a coverage build writes its counts there. Those
 * that have not ended within the grace are killed with the rest.
 */
static void destroy_idle(struct core *c)
{
	struct timespec t0;
	struct pollfd *p = NULL;
	size_t n = 0;

	/* A SESSION_CLOSED may be on its way: handle what was sent first. */
	for (struct instance *in = c->instances, *next = NULL; in; in = next) {
		next = in->next;
		if (in->ep.fd >= 0)
			instance_drain(c, in);
	}
	for (struct instance *in = c->instances; in; in = in->next) {
		if (in->ep.fd < 0)
			continue;
		if (!in->nsessions && !in->destroying)
			send_destroy(in);
		if (in->destroying)
			n++;
	}
	if (!n || !(p = calloc(n, sizeof(*p))))
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct timespec now;
		long left = 0;
		size_t k = 0;

		for (struct instance *in = c->instances; in && k < n; in = in->next) {
			if (in->ep.fd < 0 || !in->destroying)
				continue;
			p[k].fd = in->ep.fd;
			p[k].events = POLLIN;
			k++;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = SHUTDOWN_GRACE_MS - (now.tv_sec - t0.tv_sec) * 1000 -
		       (now.tv_nsec - t0.tv_nsec) / 1000000;
		if (!k || left <= 0 || poll(p, k, (int)left) <= 0)
			break;
		for (struct instance *in = c->instances, *next = NULL; in; in = next) {
			next = in->next;
			if (in->ep.fd >= 0 && in->destroying)
				instance_drain(c, in);
		}
	}
	free(p);
}

void instance_shutdown_all(struct core *c)
{
	destroy_idle(c);
	while (c->instances) {
		if (c->instances->pid > 0)
			kill(c->instances->pid, SIGKILL);
		instance_free(c, c->instances);
	}
	for (size_t i = 0; i < c->nspares; i++) {
		if (c->spares[i].pid > 0)
			kill(c->spares[i].pid, SIGKILL);
		close(c->spares[i].fd);
	}
	c->nspares = 0;
	if (c->zygote.fd >= 0) {
		close(c->zygote.fd);
		c->zygote.fd = -1;
	}
	if (c->zygote_pid > 0) {
		kill(c->zygote_pid, SIGTERM);
		waitpid(c->zygote_pid, NULL, 0);
	}
}
