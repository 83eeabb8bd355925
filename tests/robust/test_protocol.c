/*
 * robust.protocol: hostile input on every socket a client can reach, sent to
 * the real core and TA runtime of a private TEE (run under `swtee run`).
 *
 * What bad input may get: the core answers that connection with an error or
 * closes it; a TA instance answers that session with an error and keeps
 * serving it, or closes that session. Never a success, never a session,
 * never silence, and never an effect on another client: two bystander
 * clients (another process, with a session to the multi-instance "basic" TA
 * and one to the shared "sims" instance the hostile sessions also reach)
 * must be served after every case.
 *
 * One line per check; the last line is "N passed, M failed".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "buf.h"
#include "msg.h"
#include "paths.h"
#include "proto.h"
#include "ta_basic.h"
#include "ta_sims.h"
#include "uuid.h"
#include "proc_info.h"

/* TEE_PARAM_TYPE_* of the GP Internal Core API: the types on the wire. */
#define WIRE_MEMREF_INPUT 5u
#define WIRE_MEMREF_OUTPUT 6u

#define ANSWER_MS 3000	 /* how long a peer may take to answer bad input */
#define CORE_OPEN_LEN 44 /* type uuid[16] login gid nonce[16] */
#define TA_RESULT_LEN 76 /* type result origin, 4 x (a b size) */
#define SEND_FDS_MAX 32	 /* more than any message may carry */
#define SEALED (F_SEAL_SHRINK | F_SEAL_GROW)
#define FD_SLACK 2     /* core descriptors allowed above the baseline */
#define WATCHDOG_S 280 /* below the CTest timeout */
#ifdef SWTEE_SANITIZE
/* ASan's quarantine (256 MiB) keeps freed memory resident on purpose. */
#define RSS_GROWTH_MAX_KB (260L * 1024)
#else
#define RSS_GROWTH_MAX_KB (4L * 1024)
#endif

static const TEEC_UUID basic_uuid = TA_BASIC_UUID;
static const TEEC_UUID sims_uuid = TA_SIMS_UUID;

static volatile sig_atomic_t npassed;
static volatile sig_atomic_t nfailed;
static char core_path[SWTEE_PATH_MAX];

static bool check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool check(bool ok, const char *fmt, ...)
{
	va_list ap;

	fputs(ok ? "ok   " : "FAIL ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (ok)
		npassed++;
	else
		nfailed++;
	return ok;
}

/* A check this run cannot make (says why); counted neither way. */
static void skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void skip(const char *fmt, ...)
{
	va_list ap;

	fputs("skip ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static size_t append_str(char *out, size_t n, size_t cap, const char *s)
{
	while (*s && n < cap)
		out[n++] = *s++;
	return n;
}

static size_t append_uint(char *out, size_t n, size_t cap, unsigned int v)
{
	char digits[16];
	size_t k = 0;

	do {
		digits[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && k < sizeof(digits));
	while (k && n < cap)
		out[n++] = digits[--k];
	return n;
}

/* A call that never returns must still end the run with a summary. */
static void watchdog(int sig)
{
	char line[160];
	size_t n = 0;
	ssize_t w = 0;

	(void)sig;
	n = append_str(line, n, sizeof(line), "FAIL watchdog: a call hung; the run was cut\n");
	n = append_uint(line, n, sizeof(line), (unsigned int)npassed);
	n = append_str(line, n, sizeof(line), " passed, ");
	n = append_uint(line, n, sizeof(line), (unsigned int)nfailed + 1);
	n = append_str(line, n, sizeof(line), " failed\n");
	w = write(STDOUT_FILENO, line, n);
	(void)w;
	_exit(1);
}

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* ---- sockets and messages ---- */

/* Sends one message with any number of descriptors. Returns 0 or -errno. */
static int send_fds(int sock, const void *buf, size_t len, const int *fds, size_t nfds, int flags)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * SEND_FDS_MAX)];
		struct cmsghdr align;
	} u;
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	ssize_t n = 0;

	if (nfds > SEND_FDS_MAX)
		return -EINVAL;
	if (nfds) {
		struct cmsghdr *c = NULL;

		memset(&u, 0, sizeof(u));
		m.msg_control = u.buf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	do {
		n = sendmsg(sock, &m, MSG_NOSIGNAL | flags);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EMSGSIZE;
}

static bool peer_gone(int rc)
{
	return rc == -EPIPE || rc == -ECONNRESET || rc == -ENOTCONN;
}

static int core_connect(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	memcpy(sa.sun_path, core_path, strlen(core_path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static size_t core_open_msg(uint8_t *out, size_t cap, const TEEC_UUID *uuid, uint32_t login,
			    uint32_t gid)
{
	struct swtee_uuid u;
	struct buf_writer w;

	uuid_from_fields(&u, uuid->timeLow, uuid->timeMid, uuid->timeHiAndVersion,
			 uuid->clockSeqAndNode);
	buf_writer_init(&w, out, cap);
	buf_put_u32(&w, MSG_CORE_OPEN);
	buf_put_bytes(&w, u.b, sizeof(u.b));
	buf_put_u32(&w, login);
	buf_put_u32(&w, gid);
	buf_put_bytes(&w, (const uint8_t[PROTO_NONCE_SIZE]){0}, PROTO_NONCE_SIZE);
	return buf_written(&w);
}

/* What a peer made of a request. */
enum outcome {
	OUT_CLOSED,    /* it closed (or reset) the connection */
	OUT_ERROR,     /* a well-formed reply with an error and no descriptor */
	OUT_SUCCESS,   /* a success, a descriptor, or a status: the request was taken */
	OUT_SILENT,    /* nothing within the time allowed */
	OUT_MALFORMED, /* an answer of the wrong shape */
	OUT_UNSENT,    /* this side could not send the request */
};

static const char *outcome_name(enum outcome o)
{
	switch (o) {
	case OUT_CLOSED:
		return "closed";
	case OUT_ERROR:
		return "error";
	case OUT_SUCCESS:
		return "SUCCESS";
	case OUT_SILENT:
		return "NO ANSWER";
	case OUT_MALFORMED:
		return "MALFORMED ANSWER";
	case OUT_UNSENT:
		return "not sent";
	}
	return "?";
}

static bool refused(enum outcome o)
{
	return o == OUT_CLOSED || o == OUT_ERROR;
}

/*
 * Reads the core's answer on sock. A session socket that comes with a
 * success goes to *sess (when given, else it is closed).
 */
/* The connection's nonce (MSG_CORE_NONCE) into out; 0, or -1 without a well-formed answer. */
static int core_nonce(int sock, uint8_t out[PROTO_NONCE_SIZE])
{
	uint8_t msg[8];
	uint8_t in[64];
	struct buf_writer w;
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t type = 0;
	ssize_t n = 0;

	buf_writer_init(&w, msg, sizeof(msg));
	buf_put_u32(&w, MSG_CORE_NONCE);
	if (send_fds(sock, msg, buf_written(&w), NULL, 0, 0))
		return -1;
	n = msg_recv_timeout(sock, in, sizeof(in), &fds, ANSWER_MS * 2);
	if (n <= 0)
		return -1;
	msg_fds_close(&fds);
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_bytes(&r, out, PROTO_NONCE_SIZE);
	return type == MSG_CORE_NONCE_RSP && buf_done(&r) ? 0 : -1;
}

static enum outcome core_answer(int sock, int timeout_ms, uint32_t *result, int *sess)
{
	uint8_t in[PROTO_MSG_MAX];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t res = 0;
	uint32_t origin = 0;
	uint32_t sid = 0;
	enum outcome o = OUT_MALFORMED;
	ssize_t n = msg_recv_timeout(sock, in, sizeof(in), &fds, timeout_ms);

	*result = 0;
	if (sess)
		*sess = -1;
	if (n == -ETIMEDOUT)
		return OUT_SILENT;
	if (n == 0 || peer_gone((int)n))
		return OUT_CLOSED;
	if (n < 0)
		return OUT_MALFORMED;
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	if (type == MSG_CORE_STATUS_RSP) {
		o = OUT_SUCCESS;
		goto out;
	}
	buf_get_u32(&r, &res);
	buf_get_u32(&r, &origin);
	buf_get_u32(&r, &sid);
	if (type != MSG_CORE_OPEN_RSP || !buf_done(&r))
		goto out;
	*result = res;
	o = res == TEEC_SUCCESS || fds.n ? OUT_SUCCESS : OUT_ERROR;
	if (sess && o == OUT_SUCCESS && fds.n == 1)
		*sess = msg_fds_take(&fds, 0);
out:
	msg_fds_close(&fds);
	return o;
}

struct core_status {
	uint32_t instances;
	uint32_t sessions;
	uint32_t spares;
	uint32_t supplicant;
	uint32_t ta_memory;
};

/* Reads a MSG_CORE_STATUS_RSP from sock. */
static bool status_read(int sock, struct core_status *st, int timeout_ms)
{
	uint8_t in[64];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	ssize_t n = msg_recv_timeout(sock, in, sizeof(in), &fds, timeout_ms);
	bool has_fds = fds.n != 0;

	msg_fds_close(&fds);
	if (n <= 0 || has_fds)
		return false;
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &st->instances);
	buf_get_u32(&r, &st->sessions);
	buf_get_u32(&r, &st->spares);
	buf_get_u32(&r, &st->supplicant);
	buf_get_u32(&r, &st->ta_memory);
	return buf_done(&r) && type == MSG_CORE_STATUS_RSP;
}

static bool status_send(int sock)
{
	uint8_t out[4];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_STATUS);
	return send_fds(sock, out, buf_written(&w), NULL, 0, 0) == 0;
}

/* MSG_CORE_STATUS on a fresh connection. */
static bool core_status(struct core_status *st)
{
	int fd = core_connect();
	bool ok = fd >= 0 && status_send(fd) && status_read(fd, st, ANSWER_MS);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* Waits until the core holds these counts; returns the ms it took, or -1. */
static long long wait_counts(const struct core_status *want, int timeout_ms,
			     struct core_status *last)
{
	long long start = now_ms();

	for (;;) {
		struct core_status st = {0};
		bool ok = core_status(&st);

		if (last)
			*last = st;
		if (ok && st.instances == want->instances && st.sessions == want->sessions)
			return now_ms() - start;
		if (now_ms() - start > timeout_ms)
			return -1;
		sleep_ms(20);
	}
}

static pid_t core_pid(void)
{
	struct ucred cred = {0};
	socklen_t len = sizeof(cred);
	int fd = core_connect();

	if (fd < 0)
		return -1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		cred.pid = -1;
	close(fd);
	return cred.pid;
}

/* A memfd of size bytes carrying seals (0: none). */
static int memfd_make(size_t size, unsigned int seals)
{
	int fd = memfd_create("robust", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) || (seals && fcntl(fd, F_ADD_SEALS, seals))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void close_all(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (fds[i] >= 0)
			close(fds[i]);
		fds[i] = -1;
	}
}

/* ---- processes ---- */

typedef int (*child_fn)(const void *arg);

static const char *exit_name(int st)
{
	static char buf[32];

	if (st == -1)
		return "hung, killed";
	if (st == 0)
		return "served";
	snprintf(buf, sizeof(buf), "failed, status %d", st);
	return buf;
}

/* Runs fn in a child; its exit status, or -1 when it hung (it is killed). */
static int run_child(child_fn fn, const void *arg, int timeout_ms)
{
	int status = 0;
	long long end = now_ms() + timeout_ms;
	pid_t pid = 0;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -2;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		_exit(fn(arg));
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (r < 0)
			return -2;
		if (now_ms() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return -1;
		}
		sleep_ms(5);
	}
}

/* A fresh libteec context, session and NOP: 0 when all of it worked. */
static int teec_nop_child(const void *arg)
{
	const TEEC_UUID *uuid = arg;
	TEEC_Context ctx;
	TEEC_Session sess;
	uint32_t origin = 0;
	TEEC_Result res = TEEC_InitializeContext(NULL, &ctx);

	if (res)
		return 1;
	res = TEEC_OpenSession(&ctx, &sess, uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);
	if (res) {
		TEEC_FinalizeContext(&ctx);
		return 2;
	}
	res = TEEC_InvokeCommand(&sess, TA_BASIC_CMD_NOP, NULL, &origin);
	TEEC_CloseSession(&sess);
	TEEC_FinalizeContext(&ctx);
	return res ? 3 : 0;
}

static bool core_serves(const char *after)
{
	int st = run_child(teec_nop_child, &basic_uuid, 10000);

	return check(st == 0, "%s: then a fresh libteec session opens and NOPs (%s)", after,
		     exit_name(st));
}

/*
 * The bystanders: another client process with a session to the basic TA (an
 * instance of its own) and one to sims (the instance hostile sessions to
 * sims share). The parent asks it for a call and reads the result.
 */
enum { BY_BASIC_NOP = 1, BY_SIMS_COUNTER, BY_SIMS_TOKEN, BY_QUIT };

struct by_req {
	uint32_t seq;
	uint32_t op;
};

struct by_rsp {
	uint32_t seq;
	uint32_t res;
	uint32_t value;
};

struct bystander {
	pid_t pid;
	int to;
	int from;
	uint32_t seq;
};

static bool write_all(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n;
}

static void bystander_main(int in, int out)
{
	TEEC_Context ctx;
	TEEC_Session basic;
	TEEC_Session sims;
	struct by_req q;
	struct by_rsp a = {0};
	uint32_t origin = 0;

	a.res = TEEC_InitializeContext(NULL, &ctx);
	if (!a.res)
		a.res = TEEC_OpenSession(&ctx, &basic, &basic_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
					 &origin);
	if (!a.res)
		a.res = TEEC_OpenSession(&ctx, &sims, &sims_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
					 &origin);
	if (!write_all(out, &a, sizeof(a)) || a.res)
		_exit(1);
	while (read(in, &q, sizeof(q)) == (ssize_t)sizeof(q)) {
		TEEC_Operation op;

		memset(&op, 0, sizeof(op));
		memset(&a, 0, sizeof(a));
		a.seq = q.seq;
		switch (q.op) {
		case BY_BASIC_NOP:
			a.res = TEEC_InvokeCommand(&basic, TA_BASIC_CMD_NOP, NULL, &origin);
			break;
		case BY_SIMS_COUNTER:
		case BY_SIMS_TOKEN:
			op.paramTypes =
			    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
			a.res = TEEC_InvokeCommand(
			    &sims, q.op == BY_SIMS_TOKEN ? TA_SIMS_CMD_TOKEN : TA_SIMS_CMD_COUNTER,
			    &op, &origin);
			a.value = op.params[0].value.a;
			break;
		default:
			TEEC_CloseSession(&basic);
			TEEC_CloseSession(&sims);
			TEEC_FinalizeContext(&ctx);
			_exit(0);
		}
		if (!write_all(out, &a, sizeof(a)))
			_exit(1);
	}
	_exit(0);
}

/* Reads the answer numbered seq (older, late ones are dropped); false on timeout. */
static bool bystander_read(struct bystander *b, uint32_t seq, struct by_rsp *a, int timeout_ms)
{
	long long end = now_ms() + timeout_ms;

	for (;;) {
		struct pollfd p = {.fd = b->from, .events = POLLIN};
		long long left = end - now_ms();

		if (left < 0 || poll(&p, 1, (int)left) != 1)
			return false;
		if (read(b->from, a, sizeof(*a)) != (ssize_t)sizeof(*a))
			return false;
		if (a->seq == seq)
			return true;
	}
}

static bool bystander_start(struct bystander *b)
{
	int to[2] = {-1, -1};
	int from[2] = {-1, -1};
	struct by_rsp a;

	b->pid = -1;
	b->to = -1;
	b->from = -1;
	b->seq = 0;
	if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) {
		close_all(to, 2);
		return false;
	}
	fflush(stdout);
	b->pid = fork();
	if (b->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(to[1]);
		close(from[0]);
		bystander_main(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	b->to = to[1];
	b->from = from[0];
	return b->pid > 0 && bystander_read(b, 0, &a, 10000) && a.res == TEEC_SUCCESS;
}

/* One call through the bystander; false when it did not answer in time. */
static bool bystander_ask(struct bystander *b, uint32_t op, struct by_rsp *a, int timeout_ms)
{
	struct by_req q = {.seq = ++b->seq, .op = op};

	memset(a, 0, sizeof(*a));
	if (!write_all(b->to, &q, sizeof(q)))
		return false;
	return bystander_read(b, q.seq, a, timeout_ms);
}

static void bystander_stop(struct bystander *b)
{
	struct by_req q = {.seq = ++b->seq, .op = BY_QUIT};
	long long end = now_ms() + 3000;

	if (b->pid <= 0)
		return;
	if (write_all(b->to, &q, sizeof(q))) {
		while (now_ms() < end && waitpid(b->pid, NULL, WNOHANG) == 0)
			sleep_ms(10);
	}
	kill(b->pid, SIGKILL);
	waitpid(b->pid, NULL, 0);
	close(b->to);
	close(b->from);
	b->pid = -1;
}

static struct bystander by;

/* Are the bystander's sessions served? Describes what it saw into out. */
static bool bystanders_ok(char *out, size_t n)
{
	struct by_rsp b;
	struct by_rsp s;
	bool bok = bystander_ask(&by, BY_BASIC_NOP, &b, ANSWER_MS);
	bool sok = bystander_ask(&by, BY_SIMS_COUNTER, &s, ANSWER_MS);

	if (bok && sok && !b.res && !s.res) {
		snprintf(out, n, "served");
		return true;
	}
	snprintf(out, n, "basic %s 0x%08x, sims %s 0x%08x", bok ? "answered" : "NO ANSWER", b.res,
		 sok ? "answered" : "NO ANSWER", s.res);
	return false;
}

/* ---- TA instance processes, found through /proc ---- */

/* The parent of pid, or -1. */
static pid_t parent_of(pid_t pid)
{
	return (pid_t)proc_status_field(pid, "PPid");
}

/*
 * Pids of the TA instances that map the image of uuid and belong to this
 * test's TEE (children of the zygote its core started: other TEEs may run
 * on the machine at the same time); returns how many.
 */
static size_t ta_pids(const TEEC_UUID *uuid, pid_t *out, size_t cap)
{
	pid_t core = core_pid();
	struct swtee_uuid u;
	char name[SWTEE_UUID_STR_LEN];
	char path[64];
	char line[512];
	struct dirent *e = NULL;
	size_t n = 0;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	uuid_from_fields(&u, uuid->timeLow, uuid->timeMid, uuid->timeHiAndVersion,
			 uuid->clockSeqAndNode);
	uuid_format(&u, name);
	while ((e = readdir(d)) != NULL) {
		char *end = NULL;
		long pid = strtol(e->d_name, &end, 10);
		bool found = false;
		FILE *f = NULL;

		if (*end || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(line, sizeof(line), f) || strcmp(line, "swtee-ta\n")) {
			fclose(f);
			continue;
		}
		fclose(f);
		snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f))
			found = strstr(line, "memfd:") && strstr(line, name);
		fclose(f);
		if (found && n < cap && core > 0 && parent_of(parent_of((pid_t)pid)) == core)
			out[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

/* ---- raw TA sessions ---- */

struct raw {
	int core; /* the connection the session was asked for on */
	int sock; /* to the TA instance */
	uint32_t serial;
};

struct wire_param {
	uint32_t a;
	uint32_t b;
	uint64_t off;
	uint64_t size;
};

struct ta_req {
	uint32_t type;
	uint32_t cmd; /* written for every type but MSG_TA_OPEN */
	uint32_t types;
	uint32_t nforget;	 /* the count on the wire */
	uint32_t forget_written; /* how many ids really follow it */
	struct wire_param p[PROTO_NUM_PARAMS];
};

static void raw_close(struct raw *rs)
{
	if (rs->sock >= 0)
		close(rs->sock);
	if (rs->core >= 0)
		close(rs->core);
	rs->sock = -1;
	rs->core = -1;
}

/* Asks the core for a session socket to uuid; no MSG_TA_OPEN yet. */
static bool raw_connect(struct raw *rs, const TEEC_UUID *uuid)
{
	uint8_t out[64];
	uint32_t res = 0;
	size_t len = 0;

	rs->sock = -1;
	rs->serial = 0;
	rs->core = core_connect();
	if (rs->core < 0)
		return false;
	len = core_open_msg(out, sizeof(out), uuid, TEEC_LOGIN_PUBLIC, 0);
	if (send_fds(rs->core, out, len, NULL, 0, 0))
		return false;
	return core_answer(rs->core, ANSWER_MS * 2, &res, &rs->sock) == OUT_SUCCESS &&
	       rs->sock >= 0;
}

static size_t ta_req_write(struct raw *rs, const struct ta_req *q, uint8_t *out, size_t cap)
{
	struct buf_writer w;

	buf_writer_init(&w, out, cap);
	buf_put_u32(&w, q->type);
	buf_put_u32(&w, ++rs->serial);
	if (q->type != MSG_TA_OPEN)
		buf_put_u32(&w, q->cmd);
	buf_put_u32(&w, q->types);
	buf_put_u32(&w, q->nforget);
	for (uint32_t i = 0; i < q->forget_written; i++)
		buf_put_u32(&w, 0x00c00000u + i);
	for (int i = 0; i < PROTO_NUM_PARAMS; i++) {
		buf_put_u32(&w, q->p[i].a);
		buf_put_u32(&w, q->p[i].b);
		buf_put_u64(&w, q->p[i].off);
		buf_put_u64(&w, q->p[i].size);
	}
	return buf_written(&w);
}

/* Reads a MSG_TA_RESULT; sizes[] gets the memref sizes it reports. */
static enum outcome ta_answer(int sock, int timeout_ms, uint32_t *result, uint64_t *sizes)
{
	uint8_t in[PROTO_MSG_MAX];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t res = 0;
	uint32_t origin = 0;
	ssize_t n = msg_recv_timeout(sock, in, sizeof(in), &fds, timeout_ms);
	bool has_fds = fds.n != 0;

	msg_fds_close(&fds);
	*result = 0;
	if (n == -ETIMEDOUT)
		return OUT_SILENT;
	if (n == 0 || peer_gone((int)n))
		return OUT_CLOSED;
	if (n != TA_RESULT_LEN || has_fds)
		return OUT_MALFORMED;
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &res);
	buf_get_u32(&r, &origin);
	for (int i = 0; i < PROTO_NUM_PARAMS; i++) {
		uint64_t size = 0;

		buf_skip(&r, 8);
		buf_get_u64(&r, &size);
		if (sizes)
			sizes[i] = size;
	}
	if (!buf_done(&r) || type != MSG_TA_RESULT)
		return OUT_MALFORMED;
	*result = res;
	return res ? OUT_ERROR : OUT_SUCCESS;
}

/* Sends len bytes of msg with descriptors; sizes[] (if given) gets the memref sizes back. */
static enum outcome ta_call(struct raw *rs, const void *msg, size_t len, const int *fds,
			    size_t nfds, uint32_t *res, uint64_t *sizes)
{
	int rc = send_fds(rs->sock, msg, len, fds, nfds, 0);

	*res = 0;
	if (peer_gone(rc))
		return OUT_CLOSED;
	if (rc)
		return OUT_UNSENT;
	return ta_answer(rs->sock, ANSWER_MS, res, sizes);
}

static enum outcome ta_send_bytes(struct raw *rs, const void *msg, size_t len, const int *fds,
				  size_t nfds, uint32_t *res)
{
	return ta_call(rs, msg, len, fds, nfds, res, NULL);
}

static enum outcome ta_send(struct raw *rs, const struct ta_req *q, const int *fds, size_t nfds,
			    uint32_t *res)
{
	uint8_t out[PROTO_MSG_MAX];
	size_t len = ta_req_write(rs, q, out, sizeof(out));

	return ta_call(rs, out, len, fds, nfds, res, NULL);
}

/* MSG_TA_OPEN with a proper control page and no parameters. */
static enum outcome raw_ta_open(struct raw *rs, uint32_t *res)
{
	struct ta_req q = {.type = MSG_TA_OPEN};
	int ctl = memfd_make(sizeof(struct proto_ctl_page), SEALED);
	enum outcome o = OUT_UNSENT;

	*res = 0;
	if (ctl < 0)
		return OUT_UNSENT;
	o = ta_send(rs, &q, &ctl, 1, res);
	close(ctl);
	return o;
}

static enum outcome raw_nop(struct raw *rs, uint32_t *res)
{
	struct ta_req q = {.type = MSG_TA_INVOKE, .cmd = TA_BASIC_CMD_NOP};

	return ta_send(rs, &q, NULL, 0, res);
}

/* A session to uuid, opened. */
static bool raw_open(struct raw *rs, const TEEC_UUID *uuid)
{
	uint32_t res = 0;

	return raw_connect(rs, uuid) && raw_ta_open(rs, &res) == OUT_SUCCESS;
}

/* ---- core socket ---- */

/* Sends msg on a fresh connection and judges the answer: an error or the close. */
static void core_expect_refused(const char *what, const void *msg, size_t len, const int *fds,
				size_t nfds)
{
	int fd = core_connect();
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;
	int rc = fd < 0 ? -ENOTCONN : send_fds(fd, msg, len, fds, nfds, 0);

	if (!rc)
		o = core_answer(fd, ANSWER_MS, &res, NULL);
	else if (fd >= 0 && peer_gone(rc))
		o = OUT_CLOSED;
	check(refused(o), "core: %s: %s (0x%08x)", what, outcome_name(o), res);
	if (fd >= 0)
		close(fd);
}

static void core_malformed(void)
{
	uint8_t msg[PROTO_MSG_MAX * 2];
	uint8_t one = 0x01;
	struct buf_writer w;
	size_t len = 0;

	core_expect_refused("a 1-byte message", &one, 1, NULL, 0);
	core_expect_refused("a message of 0 bytes", msg, 0, NULL, 0);
	buf_writer_init(&w, msg, sizeof(msg));
	buf_put_u32(&w, 0x0199);
	buf_put_u32(&w, 0);
	core_expect_refused("an unknown message type (0x0199)", msg, buf_written(&w), NULL, 0);
	buf_writer_init(&w, msg, sizeof(msg));
	buf_put_u32(&w, MSG_CORE_OPEN_RSP);
	buf_put_u32(&w, 0);
	buf_put_u32(&w, 0);
	buf_put_u32(&w, 0);
	core_expect_refused("a reply type sent to the core (MSG_CORE_OPEN_RSP)", msg,
			    buf_written(&w), NULL, 0);
	len = core_open_msg(msg, sizeof(msg), &basic_uuid, TEEC_LOGIN_PUBLIC, 0);
	core_expect_refused("MSG_CORE_OPEN truncated by one byte", msg, len - 1, NULL, 0);
	msg[len] = 0;
	core_expect_refused("MSG_CORE_OPEN with one trailing byte", msg, len + 1, NULL, 0);
	memset(msg + len, 0, sizeof(msg) - len);
	core_expect_refused("MSG_CORE_OPEN padded past PROTO_MSG_MAX (4097 bytes)", msg,
			    PROTO_MSG_MAX + 1, NULL, 0);
	core_expect_refused("a message of 8192 bytes", msg, sizeof(msg), NULL, 0);
	buf_writer_init(&w, msg, sizeof(msg));
	buf_put_u32(&w, MSG_CORE_STATUS);
	buf_put_u32(&w, 0);
	core_expect_refused("MSG_CORE_STATUS with trailing bytes", msg, buf_written(&w), NULL, 0);
	core_serves("core, malformed messages");
}

static long core_fds_settled(pid_t pid, long want_max)
{
	long long end = now_ms() + 3000;
	long n = proc_fd_count(pid);

	while (n > want_max && now_ms() < end) {
		sleep_ms(20);
		n = proc_fd_count(pid);
	}
	return n;
}

static void core_descriptors(pid_t pid, const struct core_status *base)
{
	uint8_t msg[64];
	int fds[16];
	struct buf_writer w;
	size_t len = 0;
	long before = -1;
	long after = -1;
	bool all_refused = true;

	for (size_t i = 0; i < 16; i++)
		fds[i] = memfd_make(4096, SEALED);
	buf_writer_init(&w, msg, sizeof(msg));
	buf_put_u32(&w, MSG_CORE_STATUS);
	core_expect_refused("MSG_CORE_STATUS carrying a descriptor (clients send none)", msg,
			    buf_written(&w), fds, 1);
	core_expect_refused("MSG_CORE_STATUS carrying 16 descriptors", msg, buf_written(&w), fds,
			    16);
	len = core_open_msg(msg, sizeof(msg), &basic_uuid, TEEC_LOGIN_PUBLIC, 0);
	core_expect_refused("a valid MSG_CORE_OPEN carrying a descriptor", msg, len, fds, 1);

	/* The descriptors the core received and refused must be closed. */
	wait_counts(base, 3000, NULL);
	before = proc_fd_count(pid);
	for (int i = 0; i < 100; i++) {
		int fd = core_connect();
		uint32_t res = 0;

		if (fd < 0 || send_fds(fd, msg, len, fds, 8, 0) ||
		    !refused(core_answer(fd, ANSWER_MS, &res, NULL)))
			all_refused = false;
		if (fd >= 0)
			close(fd);
	}
	wait_counts(base, 3000, NULL);
	after = core_fds_settled(pid, before);
	if (before < 0 && getuid() != 0)
		skip("core: descriptors sent by clients: /proc/%d/fd unreadable (not root)",
		     (int)pid);
	else
		check(all_refused && after <= before,
		      "core: 100 requests carrying 8 descriptors each: all refused %s, core "
		      "descriptors %ld -> %ld",
		      all_refused ? "yes" : "NO", before, after);
	close_all(fds, 16);
	core_serves("core, descriptors from a client");
}

/* A gid this process is not a member of. */
static uint32_t foreign_gid(void)
{
	gid_t groups[512];
	int n = getgroups(512, groups);

	for (uint32_t g = 54321;; g++) {
		bool mine = g == (uint32_t)getgid() || g == (uint32_t)getegid();

		for (int i = 0; i < n && !mine; i++)
			mine = (uint32_t)groups[i] == g;
		if (!mine)
			return g;
	}
}

/* Sends an OPEN with this login and gid; returns the outcome and closes any session. */
static enum outcome core_open_login(uint32_t login, uint32_t gid, uint32_t *res)
{
	uint8_t msg[64];
	size_t len = core_open_msg(msg, sizeof(msg), &basic_uuid, login, gid);
	int fd = core_connect();
	int sess = -1;
	enum outcome o = OUT_UNSENT;

	*res = 0;
	if (fd < 0)
		return OUT_UNSENT;
	if (!send_fds(fd, msg, len, NULL, 0, 0))
		o = core_answer(fd, ANSWER_MS * 2, res, &sess);
	if (sess >= 0)
		close(sess);
	close(fd);
	return o;
}

/*
 * A login by executable must echo the nonce the core sent on that
 * connection: without one (zeros), with a guessed one or with another
 * connection's, it is refused; with its own it is served.
 */
static void core_nonce_logins(void)
{
	uint8_t mine[PROTO_NONCE_SIZE];
	uint8_t other[PROTO_NONCE_SIZE];
	uint8_t again[PROTO_NONCE_SIZE];
	static const char *const what[] = {"no nonce", "another connection's nonce",
					   "its own nonce"};
	int fd = core_connect();
	int fd2 = core_connect();
	bool got = fd >= 0 && fd2 >= 0 && !core_nonce(fd, mine) && !core_nonce(fd2, other) &&
		   !core_nonce(fd, again);

	check(got && !memcmp(mine, again, sizeof(mine)) && memcmp(mine, other, sizeof(mine)),
	      "core: MSG_CORE_NONCE answers each connection with one nonce of its own");
	for (size_t i = 0; got && i < 3; i++) {
		uint8_t msg[64];
		size_t len =
		    core_open_msg(msg, sizeof(msg), &basic_uuid, TEEC_LOGIN_APPLICATION, 0);
		uint32_t res = 0;
		int sess = -1;
		enum outcome o = OUT_UNSENT;

		if (i)
			memcpy(msg + len - PROTO_NONCE_SIZE, i == 1 ? other : mine,
			       PROTO_NONCE_SIZE);
		if (!send_fds(fd, msg, len, NULL, 0, 0))
			o = core_answer(fd, ANSWER_MS * 2, &res, &sess);
		if (i < 2)
			check(o == OUT_ERROR && res == TEEC_ERROR_ACCESS_DENIED,
			      "core: an APPLICATION login with %s: %s (0x%08x, want 0x%08x)",
			      what[i], outcome_name(o), res, TEEC_ERROR_ACCESS_DENIED);
		else
			check(o == OUT_SUCCESS, "core: an APPLICATION login with %s is served: %s",
			      what[i], outcome_name(o));
		if (sess >= 0)
			close(sess);
	}
	if (fd >= 0)
		close(fd);
	if (fd2 >= 0)
		close(fd2);
}

static void core_logins(const struct core_status *base)
{
	static const uint32_t unknown[] = {3, 7, 0x80000000u, 0xffffffffu};
	uint32_t gid = foreign_gid();
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;

	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		o = core_open_login(unknown[i], 0, &res);
		check(o == OUT_ERROR,
		      "core: MSG_CORE_OPEN with unknown login method 0x%x: %s (0x%08x)", unknown[i],
		      outcome_name(o), res);
	}
	o = core_open_login(TEEC_LOGIN_GROUP, gid, &res);
	check(o == OUT_ERROR && res == TEEC_ERROR_ACCESS_DENIED,
	      "core: GROUP login with gid %u, which this process is not in: %s (0x%08x, want "
	      "0x%08x)",
	      gid, outcome_name(o), res, TEEC_ERROR_ACCESS_DENIED);
	o = core_open_login(TEEC_LOGIN_GROUP_APPLICATION, gid, &res);
	check(o == OUT_ERROR && res == TEEC_ERROR_ACCESS_DENIED,
	      "core: GROUP_APPLICATION login with gid %u, not ours: %s (0x%08x)", gid,
	      outcome_name(o), res);
	/* The control: the same request with our own group is served. */
	o = core_open_login(TEEC_LOGIN_GROUP, (uint32_t)getegid(), &res);
	check(o == OUT_SUCCESS, "core: GROUP login with our own gid %u is served: %s (0x%08x)",
	      (unsigned int)getegid(), outcome_name(o), res);
	core_nonce_logins();
	wait_counts(base, 3000, NULL);
	core_serves("core, login methods");
}

static void core_disconnects(const struct core_status *base)
{
	uint8_t msg[64];
	size_t len = core_open_msg(msg, sizeof(msg), &basic_uuid, TEEC_LOGIN_PUBLIC, 0);
	struct core_status last = {0};
	long long took = 0;
	int sent = 0;

	for (int i = 0; i < 20; i++) {
		int fd = core_connect();

		if (fd >= 0 && !send_fds(fd, msg, len, NULL, 0, 0))
			sent++;
		if (fd >= 0)
			close(fd);
	}
	took = wait_counts(base, 5000, &last);
	check(sent == 20 && took >= 0,
	      "core: 20 clients send MSG_CORE_OPEN and leave before the reply: back to %u "
	      "instances, %u sessions (now %u, %u) in %lld ms",
	      base->instances, base->sessions, last.instances, last.sessions, took);
	core_serves("core, clients that leave mid-request");
}

#define NCONN 300

static void core_connections(pid_t pid, long fd_base, const struct core_status *base)
{
	static int fds[NCONN];
	int connected = 0;
	int answered = 0;
	long after = 0;

	for (int i = 0; i < NCONN; i++) {
		fds[i] = core_connect();
		if (fds[i] >= 0)
			connected++;
	}
	for (int i = 0; i < NCONN; i++) {
		if (fds[i] >= 0 && !status_send(fds[i])) {
			close(fds[i]);
			fds[i] = -1; /* counted as unanswered */
		}
	}
	for (int i = 0; i < NCONN; i++) {
		struct core_status st;

		if (fds[i] >= 0 && status_read(fds[i], &st, ANSWER_MS))
			answered++;
	}
	close_all(fds, NCONN);
	check(connected == NCONN && answered == NCONN,
	      "core: %d connections at once: %d connected, %d answered MSG_CORE_STATUS", NCONN,
	      connected, answered);
	wait_counts(base, 3000, NULL);
	after = core_fds_settled(pid, fd_base + FD_SLACK);
	check(fd_base < 0 || after <= fd_base + FD_SLACK,
	      "core: after the %d connections closed, core descriptors %ld (baseline %ld)", NCONN,
	      after, fd_base);
	core_serves("core, many connections");
}

static uint32_t rng_state = 0x2545f491u;

static uint32_t rng(void)
{
	uint32_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rng_state = x;
	return x;
}

static void rng_fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)rng();
}

/* One hostile message for the core; never a valid request. */
static size_t garbage(uint8_t *out, size_t cap, unsigned int kind)
{
	static const uint32_t foreign[] = {MSG_CORE_OPEN_RSP,	MSG_CORE_STATUS_RSP, MSG_TA_OPEN,
					   MSG_TA_INVOKE,	MSG_TA_RESULT,	     MSG_CTL_LOAD,
					   MSG_CTL_PANIC,	MSG_ZYG_FORKED,	     MSG_SUPP_HELLO,
					   MSG_SUPP_LOAD_TA_RSP};
	struct buf_writer w;
	size_t len = 0;

	buf_writer_init(&w, out, cap);
	switch (kind % 8) {
	case 0: /* random bytes, any type but the three requests */
		len = 1 + rng() % 64;
		rng_fill(out, len);
		if (len >= 4 && out[0] >= 0x01 && out[0] <= 0x03 && out[1] == 0x01 && !out[2] &&
		    !out[3])
			out[3] = 0x80;
		return len;
	case 1: /* an unknown type in the core's family */
		buf_put_u32(&w, 0x0104 + rng() % 0xfc);
		len = rng() % 32;
		break;
	case 2: /* a type of another channel */
		buf_put_u32(&w, foreign[rng() % (sizeof(foreign) / sizeof(foreign[0]))]);
		len = rng() % 40;
		break;
	case 3: /* OPEN of the wrong length */
		buf_put_u32(&w, MSG_CORE_OPEN);
		len = rng() % 60;
		if (len == CORE_OPEN_LEN - 4)
			len++;
		break;
	case 4: /* OPEN with a login method that does not exist */
		return core_open_msg(out, cap, &basic_uuid, 7 + rng() % 0xfff0, rng());
	case 5: /* STATUS with trailing bytes */
		buf_put_u32(&w, MSG_CORE_STATUS);
		len = 1 + rng() % 16;
		break;
	case 6: /* nothing at all */
		return 0;
	default: /* too long */
		len = PROTO_MSG_MAX + 1 + rng() % PROTO_MSG_MAX;
		if (len > cap)
			len = cap;
		rng_fill(out, len);
		return len;
	}
	if (buf_written(&w) + len > cap)
		len = cap - buf_written(&w);
	rng_fill(out + buf_written(&w), len);
	return buf_written(&w) + len;
}

#define NGARBAGE 2000

static void core_garbage(void)
{
	static uint8_t msg[PROTO_MSG_MAX * 2];
	unsigned int n[OUT_UNSENT + 1] = {0};
	int fd = core_connect();

	for (unsigned int i = 0; i < NGARBAGE; i++) {
		size_t len = garbage(msg, sizeof(msg), i);
		uint32_t res = 0;
		enum outcome o = OUT_UNSENT;
		int rc = fd < 0 ? -ENOTCONN : send_fds(fd, msg, len, NULL, 0, 0);

		if (peer_gone(rc)) {
			/* The core closed it after the last answer: start over. */
			if (fd >= 0)
				close(fd);
			fd = core_connect();
			rc = fd < 0 ? -ENOTCONN : send_fds(fd, msg, len, NULL, 0, 0);
		}
		if (!rc)
			o = core_answer(fd, ANSWER_MS, &res, NULL);
		n[o]++;
		if (o != OUT_ERROR) {
			if (fd >= 0)
				close(fd);
			fd = core_connect();
		}
	}
	if (fd >= 0)
		close(fd);
	check(n[OUT_ERROR] + n[OUT_CLOSED] == NGARBAGE,
	      "core: %d garbage messages: %u errors, %u closes; %u successes, %u unanswered, %u "
	      "malformed answers, %u unsent",
	      NGARBAGE, n[OUT_ERROR], n[OUT_CLOSED], n[OUT_SUCCESS], n[OUT_SILENT],
	      n[OUT_MALFORMED], n[OUT_UNSENT]);
	core_serves("core, garbage one message at a time");
}

/* A client that floods requests and never reads the answers must not stall the core. */
static void core_flood(void)
{
	uint8_t msg[64];
	int fd = core_connect();
	unsigned int sent = 0;
	unsigned int errors = 0;
	unsigned int others = 0;
	long long worst = 0;
	bool stalled = false;
	bool status_ok = true;

	while (fd >= 0 && sent < NGARBAGE && !stalled) {
		size_t len = core_open_msg(msg, sizeof(msg), &basic_uuid, 7 + sent, 0);
		int rc = send_fds(fd, msg, len, NULL, 0, MSG_DONTWAIT);

		if (rc == -EAGAIN) {
			struct pollfd p = {.fd = fd, .events = POLLOUT};

			stalled = poll(&p, 1, ANSWER_MS) != 1;
			continue;
		}
		if (rc)
			break;
		sent++;
		if (sent % 500 == 0) {
			struct core_status st;
			long long t0 = now_ms();

			status_ok = status_ok && core_status(&st);
			if (now_ms() - t0 > worst)
				worst = now_ms() - t0;
		}
	}
	for (;;) {
		uint32_t res = 0;
		enum outcome o = fd < 0 ? OUT_CLOSED : core_answer(fd, 300, &res, NULL);

		if (o == OUT_SILENT || o == OUT_CLOSED)
			break;
		if (o == OUT_ERROR)
			errors++;
		else
			others++;
	}
	if (fd >= 0)
		close(fd);
	check(sent == NGARBAGE && status_ok && others == 0,
	      "core: one client sends %d bad MSG_CORE_OPEN without reading: %u sent%s, others "
	      "answered (slowest %lld ms)%s; %u errors queued, %u other answers",
	      NGARBAGE, sent, stalled ? " (core STOPPED READING)" : "", worst,
	      status_ok ? "" : " NOT ALWAYS", errors, others);
	core_serves("core, a flood of requests");
}

/* ---- TA session sockets ---- */

struct ta_target {
	const char *name;
	const TEEC_UUID *uuid;
	bool reverses; /* command 2 reverses memref 0 into memref 1 */
};

struct rule {
	uint32_t want;	   /* the error wanted, or 0 for any */
	bool keep_serving; /* a valid request on the same session must then succeed */
	bool may_succeed;  /* the input is harmless: a success is fine too */
};

/* A valid request after bad input: an OPEN if the session never opened, else a NOP. */
static enum outcome ta_follow_up(struct raw *rs, bool opened)
{
	uint32_t res = 0;

	return opened ? raw_nop(rs, &res) : raw_ta_open(rs, &res);
}

static bool ta_judge(const struct ta_target *t, const char *what, struct raw *rs, bool opened,
		     enum outcome o, uint32_t res, struct rule rule)
{
	enum outcome next = ta_follow_up(rs, opened);
	bool first = (o == OUT_CLOSED && !rule.keep_serving) ||
		     (o == OUT_ERROR && (!rule.want || res == rule.want)) ||
		     (o == OUT_SUCCESS && rule.may_succeed);
	bool then = next == OUT_SUCCESS || (next == OUT_CLOSED && !rule.keep_serving);
	char others[128];
	bool others_ok = bystanders_ok(others, sizeof(others));

	return check(first && then && others_ok,
		     "%s TA: %s: %s (0x%08x)%s; then a valid request: %s; other clients: %s",
		     t->name, what, outcome_name(o), res,
		     rule.want && o != OUT_CLOSED && res != rule.want ? " WRONG CODE" : "",
		     outcome_name(next), others);
}

static const struct rule any_error = {0};
static const struct rule bad_params_serving = {TEEC_ERROR_BAD_PARAMETERS, true, false};
static const struct rule harmless = {0, false, true};

static void ta_case_open_ctl(const struct ta_target *t, const char *what, int ctl, bool with_fd)
{
	struct raw rs = {-1, -1, 0};
	struct ta_req q = {.type = MSG_TA_OPEN};
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;

	if (!raw_connect(&rs, t->uuid) || (with_fd && ctl < 0)) {
		check(false, "%s TA: %s: no session to test with", t->name, what);
		goto out;
	}
	o = ta_send(&rs, &q, &ctl, with_fd ? 1 : 0, &res);
	ta_judge(t, what, &rs, false, o, res, any_error);
out:
	raw_close(&rs);
	if (ctl >= 0)
		close(ctl);
}

static void ta_open_cases(const struct ta_target *t)
{
	int p[2] = {-1, -1};
	struct raw rs = {-1, -1, 0};
	struct ta_req q = {.type = MSG_TA_OPEN};
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;
	int ctl = -1;

	ta_case_open_ctl(t, "MSG_TA_OPEN without the control page", -1, false);
	ta_case_open_ctl(t, "MSG_TA_OPEN with an unsealed memfd as control page",
			 memfd_make(sizeof(struct proto_ctl_page), 0), true);
	ta_case_open_ctl(t, "MSG_TA_OPEN with a sealed 64-byte control page",
			 memfd_make(64, SEALED), true);
	if (!pipe2(p, O_CLOEXEC)) {
		close(p[0]);
		ta_case_open_ctl(t, "MSG_TA_OPEN with a pipe as control page", p[1], true);
	}

	if (raw_connect(&rs, t->uuid)) {
		o = raw_nop(&rs, &res);
		ta_judge(t, "MSG_TA_INVOKE before MSG_TA_OPEN", &rs, false, o, res, any_error);
	} else {
		check(false, "%s TA: INVOKE before OPEN: no session to test with", t->name);
	}
	raw_close(&rs);

	for (int i = 0; i < 2; i++) {
		char what[96];

		q.types = i ? 0x80000000u : 0x00010000u;
		snprintf(what, sizeof(what), "MSG_TA_OPEN with param types 0x%08x", q.types);
		ctl = memfd_make(sizeof(struct proto_ctl_page), SEALED);
		if (raw_connect(&rs, t->uuid) && ctl >= 0) {
			o = ta_send(&rs, &q, &ctl, 1, &res);
			ta_judge(t, what, &rs, false, o, res, any_error);
		} else {
			check(false, "%s TA: %s: no session to test with", t->name, what);
		}
		raw_close(&rs);
		if (ctl >= 0)
			close(ctl);
	}

	if (raw_open(&rs, t->uuid)) {
		o = raw_ta_open(&rs, &res);
		ta_judge(t, "a second MSG_TA_OPEN on an open session", &rs, true, o, res,
			 any_error);
	} else {
		check(false, "%s TA: second OPEN: no session to test with", t->name);
	}
	raw_close(&rs);
}

/* An INVOKE of command cmd with memref 0 input and memref 1 output. */
static struct ta_req reverse_req(uint32_t cmd, struct wire_param in, struct wire_param out)
{
	struct ta_req q = {.type = MSG_TA_INVOKE, .cmd = cmd};

	q.types = WIRE_MEMREF_INPUT | WIRE_MEMREF_OUTPUT << 4; /* params 0 and 1 */
	q.p[0] = in;
	q.p[1] = out;
	return q;
}

static void ta_memref_cases(const struct ta_target *t)
{
	static const char text[] = "swtee robustness";
	struct raw rs = {-1, -1, 0};
	char got[sizeof(text)] = "";
	uint64_t sizes[PROTO_NUM_PARAMS] = {0};
	struct ta_req q;
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;
	int fds[2] = {memfd_make(4096, SEALED), memfd_make(4096, SEALED)};
	uint8_t msg[PROTO_MSG_MAX];
	size_t n = sizeof(text) - 1;
	size_t len = 0;
	bool reversed = true;

	if (!raw_open(&rs, t->uuid) || fds[0] < 0 || fds[1] < 0 ||
	    pwrite(fds[0], text, n, 0) != (ssize_t)n) {
		check(false, "%s TA: memrefs: no session to test with", t->name);
		goto out;
	}

	/* The control: a memref inside its shm works. */
	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){10, 0, 0, n},
			(struct wire_param){11, 1, 0, n});
	len = ta_req_write(&rs, &q, msg, sizeof(msg));
	o = ta_call(&rs, msg, len, fds, 2, &res, sizes);
	if (t->reverses) {
		reversed = pread(fds[1], got, n, 0) == (ssize_t)n && sizes[1] == n;
		for (size_t i = 0; i < n && reversed; i++)
			reversed = got[i] == text[n - 1 - i];
	}
	check(o == OUT_SUCCESS && reversed,
	      "%s TA: control: a memref inside its shm is served: %s (0x%08x)%s", t->name,
	      outcome_name(o), res, reversed ? "" : ", output NOT reversed");

	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){12, 0, 4000, 200},
			(struct wire_param){13, 1, 0, 200});
	o = ta_send(&rs, &q, fds, 2, &res);
	ta_judge(t, "a memref with offset 4000 + size 200 in a 4096-byte shm", &rs, true, o, res,
		 bad_params_serving);

	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){14, 0, UINT64_MAX - 7, 16},
			(struct wire_param){15, 1, 0, 16});
	o = ta_send(&rs, &q, fds, 2, &res);
	ta_judge(t, "a memref whose offset + size overflows 64 bits", &rs, true, o, res,
		 bad_params_serving);

	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){16, 0, 0, 4097},
			(struct wire_param){17, 1, 0, 16});
	o = ta_send(&rs, &q, fds, 2, &res);
	ta_judge(t, "a memref of 4097 bytes in a 4096-byte shm", &rs, true, o, res,
		 bad_params_serving);

	/* Shm 10 is mapped by the control call: past its end without a descriptor. */
	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){10, PROTO_NO_FD, 4096, 1},
			(struct wire_param){11, PROTO_NO_FD, 0, 1});
	o = ta_send(&rs, &q, NULL, 0, &res);
	ta_judge(t, "a memref past the end of an shm the TA already maps", &rs, true, o, res,
		 bad_params_serving);

	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){20, 1, 0, 16},
			(struct wire_param){21, PROTO_NO_FD, 0, 16});
	o = ta_send(&rs, &q, fds, 1, &res);
	ta_judge(t, "a memref whose descriptor index (1) is past the 1 attached", &rs, true, o, res,
		 any_error);

	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){22, 7, 0, 16},
			(struct wire_param){23, 0, 0, 16});
	o = ta_send(&rs, &q, NULL, 0, &res);
	ta_judge(t, "a memref with a descriptor index and no descriptor attached", &rs, true, o,
		 res, any_error);

	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){0x7777, PROTO_NO_FD, 0, 16},
			(struct wire_param){11, PROTO_NO_FD, 0, 16});
	o = ta_send(&rs, &q, NULL, 0, &res);
	ta_judge(t, "an shm id never attached", &rs, true, o, res, any_error);

	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){0, 0, 0, 16},
			(struct wire_param){11, PROTO_NO_FD, 0, 16});
	o = ta_send(&rs, &q, fds, 1, &res);
	ta_judge(t, "a NULL memref (id 0) with a descriptor", &rs, true, o, res, any_error);
out:
	raw_close(&rs);
	close_all(fds, 2);
}

/*
 * Sealed hugetlb pages: with every free huge page taken, a hole the client
 * punches in them makes the TA's next read fault (SIGBUS), and with it
 * every session of a shared instance. The runtime refuses them before
 * mapping: BAD_PARAMETERS (a map that failed for want of huge pages would
 * say OUT_OF_MEMORY).
 */
static void ta_hugetlb_case(const struct ta_target *t, struct raw *rs, int out)
{
	struct ta_req q;
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;
	int huge = memfd_create("robust-huge", MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB);
	int fds[2] = {huge, out};

	if (huge < 0 || ftruncate(huge, 2 << 20) || fcntl(huge, F_ADD_SEALS, SEALED)) {
		skip("%s TA: hugetlb shm: this kernel makes no sealed hugetlb memfd (%s)", t->name,
		     strerror(errno));
		if (huge >= 0)
			close(huge);
		return;
	}
	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){34, 0, 0, 16},
			(struct wire_param){35, 1, 0, 16});
	o = ta_send(rs, &q, fds, 2, &res);
	ta_judge(t, "a sealed hugetlb memfd as shm is refused before it is mapped", rs, true, o,
		 res, bad_params_serving);
	close(huge);
}

/*
 * Shared memory the client could shrink: a TA that mapped it would fault
 * (SIGBUS) once the client truncates it, so the runtime must refuse it.
 */
static void ta_unsealed_cases(const struct ta_target *t)
{
	struct raw rs = {-1, -1, 0};
	struct ta_req q;
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;
	enum outcome o2 = OUT_UNSENT;
	enum outcome o3 = OUT_UNSENT;
	int loose = memfd_make(4096, 0);
	int out = memfd_make(4096, SEALED);
	int shrink_only = memfd_make(4096, F_SEAL_SHRINK);
	int fds[2] = {loose, out};
	char others[128];

	if (!raw_open(&rs, t->uuid) || loose < 0 || out < 0 || shrink_only < 0 ||
	    pwrite(loose, "0123456789abcdef", 16, 0) != 16) {
		check(false, "%s TA: unsealed shm: no session to test with", t->name);
		goto out;
	}
	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){30, 0, 0, 16},
			(struct wire_param){31, 1, 0, 16});
	o = ta_send(&rs, &q, fds, 2, &res);
	ta_judge(t, "an unsealed memfd as shm is refused", &rs, true, o, res, any_error);

	/*
	 * Not mapped either: its id is unknown, and truncating it harms nobody
	 * (a TA that mapped it would take SIGBUS on the next REVERSE).
	 */
	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){30, PROTO_NO_FD, 0, 16},
			(struct wire_param){31, 0, 0, 16});
	o2 = ta_send(&rs, &q, &out, 1, &res);
	if (ftruncate(loose, 0))
		o3 = OUT_UNSENT;
	else
		o3 = ta_send(&rs, &q, &out, 1, &res);
	o = ta_follow_up(&rs, true);
	check(refused(o2) && refused(o3) && o == OUT_SUCCESS &&
		  bystanders_ok(others, sizeof(others)),
	      "%s TA: the refused memfd was not mapped: its id alone %s, after the client "
	      "truncates it %s; then a NOP: %s; other clients: %s",
	      t->name, outcome_name(o2), outcome_name(o3), outcome_name(o), others);

	fds[0] = shrink_only;
	q = reverse_req(TA_BASIC_CMD_REVERSE, (struct wire_param){32, 0, 0, 16},
			(struct wire_param){33, 1, 0, 16});
	o = ta_send(&rs, &q, fds, 2, &res);
	ta_judge(t, "a memfd sealed against shrinking but not growing is refused", &rs, true, o,
		 res, any_error);
	ta_hugetlb_case(t, &rs, out);
out:
	raw_close(&rs);
	if (loose >= 0)
		close(loose);
	if (out >= 0)
		close(out);
	if (shrink_only >= 0)
		close(shrink_only);
}

static void ta_format_cases(const struct ta_target *t)
{
	static const size_t cuts[] = {4, 8, 12, 16, 20, 40};
	struct raw rs = {-1, -1, 0};
	uint8_t out[PROTO_MSG_MAX * 2];
	struct ta_req q = {.type = MSG_TA_INVOKE, .cmd = TA_BASIC_CMD_NOP};
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;
	size_t len = 0;

	if (!raw_open(&rs, t->uuid)) {
		check(false, "%s TA: message format: no session to test with", t->name);
		goto out;
	}
	q.nforget = q.forget_written = PROTO_FORGET_MAX;
	o = ta_send(&rs, &q, NULL, 0, &res);
	check(o == OUT_SUCCESS, "%s TA: control: a forget list of %d (the most) is served: %s",
	      t->name, PROTO_FORGET_MAX, outcome_name(o));
	q.nforget = q.forget_written = PROTO_FORGET_MAX + 1;
	o = ta_send(&rs, &q, NULL, 0, &res);
	ta_judge(t, "a forget list of 65 entries", &rs, true, o, res, any_error);
	q.nforget = 0xffffffffu;
	q.forget_written = 0;
	o = ta_send(&rs, &q, NULL, 0, &res);
	ta_judge(t, "a forget count of 0xffffffff with no ids", &rs, true, o, res, any_error);

	q.nforget = q.forget_written = 0;
	len = ta_req_write(&rs, &q, out, sizeof(out));
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]) + 1; i++) {
		size_t cut = i < sizeof(cuts) / sizeof(cuts[0]) ? cuts[i] : len - 1;
		char what[64];

		snprintf(what, sizeof(what), "MSG_TA_INVOKE truncated to %zu of %zu bytes", cut,
			 len);
		o = ta_send_bytes(&rs, out, cut, NULL, 0, &res);
		ta_judge(t, what, &rs, true, o, res, any_error);
	}
	out[len] = 0;
	o = ta_send_bytes(&rs, out, len + 1, NULL, 0, &res);
	ta_judge(t, "MSG_TA_INVOKE with a trailing byte", &rs, true, o, res, any_error);

	for (int i = 0; i < 3; i++) {
		static const uint32_t types[] = {0x02ff, MSG_TA_RESULT, 0};
		char what[64];

		q.type = types[i];
		snprintf(what, sizeof(what), "an unknown message type 0x%04x", types[i]);
		o = ta_send(&rs, &q, NULL, 0, &res);
		ta_judge(t, what, &rs, true, o, res, any_error);
	}
out:
	raw_close(&rs);
}

/* Fresh sessions for the cases the runtime may answer by closing. */
static void ta_size_cases(const struct ta_target *t)
{
	static uint8_t big[PROTO_MSG_MAX + 1];
	struct raw rs = {-1, -1, 0};
	struct ta_req q = {.type = MSG_TA_INVOKE, .cmd = TA_BASIC_CMD_NOP};
	int fds[16];
	uint32_t res = 0;
	enum outcome o = OUT_UNSENT;

	for (int i = 0; i < 16; i++)
		fds[i] = memfd_make(4096, SEALED);
	if (raw_open(&rs, t->uuid)) {
		o = ta_send(&rs, &q, fds, PROTO_FDS_MAX, &res);
		ta_judge(t, "a NOP with 8 descriptors attached", &rs, true, o, res, harmless);
	}
	raw_close(&rs);
	if (raw_open(&rs, t->uuid)) {
		o = ta_send(&rs, &q, fds, 16, &res);
		ta_judge(t, "a NOP with 16 descriptors attached", &rs, true, o, res, any_error);
	}
	raw_close(&rs);
	if (raw_open(&rs, t->uuid)) {
		size_t len = ta_req_write(&rs, &q, big, sizeof(big));

		memset(big + len, 0, sizeof(big) - len);
		o = ta_send_bytes(&rs, big, sizeof(big), NULL, 0, &res);
		ta_judge(t, "a message of PROTO_MSG_MAX + 1 bytes", &rs, true, o, res, any_error);
	}
	raw_close(&rs);
	close_all(fds, 16);
}

/* Descriptors attached over and over must not pile up in the TA instance. */
static void ta_fd_leak_case(const struct ta_target *t)
{
	pid_t before[64];
	pid_t after[64];
	struct raw rs = {-1, -1, 0};
	int fds[PROTO_FDS_MAX];
	size_t nb = ta_pids(t->uuid, before, 64);
	size_t na = 0;
	unsigned int served = 0;
	long fd0 = -1;
	long fd1 = -1;
	pid_t pid = -1;

	for (int i = 0; i < PROTO_FDS_MAX; i++)
		fds[i] = memfd_make(4096, SEALED);
	if (!raw_open(&rs, t->uuid)) {
		check(false, "%s TA: descriptor flood: no session to test with", t->name);
		goto out;
	}
	na = ta_pids(t->uuid, after, 64);
	for (size_t i = 0; i < na && pid < 0; i++) {
		bool old = false;

		for (size_t k = 0; k < nb; k++)
			old = old || before[k] == after[i];
		if (!old || na == 1)
			pid = after[i];
	}
	fd0 = pid > 0 ? proc_fd_count(pid) : -1;
	for (uint32_t i = 0; i < 200; i++) {
		struct ta_req q = {.type = MSG_TA_INVOKE, .cmd = TA_BASIC_CMD_NOP};
		uint32_t res = 0;

		if (i % 2) {
			/* and map a new shm every other time */
			q.types = WIRE_MEMREF_INPUT; /* param 0 only */
			q.p[0] = (struct wire_param){100 + i, (uint32_t)(i % PROTO_FDS_MAX), 0, 16};
		}
		if (ta_send(&rs, &q, fds, PROTO_FDS_MAX, &res) != OUT_CLOSED)
			served++;
	}
	fd1 = pid > 0 ? proc_fd_count(pid) : -1;
	check(served == 200 && pid > 0 && fd1 >= 0 && fd1 <= fd0,
	      "%s TA: 200 requests carrying 8 descriptors each: %u answered; instance %d "
	      "descriptors %ld -> %ld",
	      t->name, served, (int)pid, fd0, fd1);
out:
	raw_close(&rs);
	close_all(fds, PROTO_FDS_MAX);
}

/*
 * A client that sends requests and never reads the results. A well-behaved
 * client has one request in flight; this one must not stall the other
 * sessions of the same instance.
 */
static void ta_unread_flood_case(const struct ta_target *t)
{
	struct raw rs = {-1, -1, 0};
	uint8_t out[PROTO_MSG_MAX];
	struct ta_req q = {.type = MSG_TA_INVOKE, .cmd = TA_BASIC_CMD_NOP};
	struct by_rsp a;
	unsigned int sent = 0;
	long long quiet_since = 0;
	bool answered = false;
	bool late = false;

	if (!raw_open(&rs, t->uuid)) {
		check(false, "%s TA: unread flood: no session to test with", t->name);
		goto out;
	}
	quiet_since = now_ms();
	while (sent < 5000 && now_ms() - quiet_since < 300) {
		size_t len = ta_req_write(&rs, &q, out, sizeof(out));
		int rc = send_fds(rs.sock, out, len, NULL, 0, MSG_DONTWAIT);

		if (rc == -EAGAIN) {
			sleep_ms(5);
			continue;
		}
		if (rc)
			break;
		sent++;
		quiet_since = now_ms();
	}
	answered = bystander_ask(&by, BY_SIMS_COUNTER, &a, ANSWER_MS) && !a.res;
	raw_close(&rs);
	if (!answered) {
		struct by_rsp late_a;

		/* Does it recover once the flooding client is gone? */
		late = bystander_read(&by, by.seq, &late_a, ANSWER_MS * 3) && !late_a.res;
	}
	check(answered,
	      "%s TA: a client sends %u requests without reading the results: another client "
	      "of the same instance is %s",
	      t->name, sent,
	      answered ? "served"
		       : (late ? "STALLED until the flooding client left" : "STALLED for good"));
out:
	raw_close(&rs);
}

static void ta_cases(const struct ta_target *t, bool shared)
{
	struct by_rsp tok0 = {0};
	struct by_rsp tok1 = {0};
	bool tok = shared && bystander_ask(&by, BY_SIMS_TOKEN, &tok0, ANSWER_MS);

	ta_open_cases(t);
	ta_memref_cases(t);
	ta_unsealed_cases(t);
	ta_format_cases(t);
	ta_size_cases(t);
	ta_fd_leak_case(t);
	if (shared) {
		ta_unread_flood_case(t);
		tok = tok && bystander_ask(&by, BY_SIMS_TOKEN, &tok1, ANSWER_MS);
		check(tok && tok0.value == tok1.value && !tok0.res,
		      "%s TA: the shared instance is the one from the start (token %u -> %u)",
		      t->name, tok0.value, tok1.value);
	}
}

/* ---- orphans ---- */

/* A client holding a session to basic; with hang, blocked in HANG. */
static pid_t holder_start(bool hang)
{
	int p[2] = {-1, -1};
	struct pollfd pf;
	char c = 0;
	pid_t pid = 0;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		TEEC_Context ctx;
		TEEC_Session sess;
		uint32_t origin = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		if (TEEC_InitializeContext(NULL, &ctx) ||
		    TEEC_OpenSession(&ctx, &sess, &basic_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
				     &origin))
			_exit(1);
		if (!write_all(p[1], "r", 1))
			_exit(1);
		if (hang)
			TEEC_InvokeCommand(&sess, TA_BASIC_CMD_HANG, NULL, &origin);
		for (;;)
			pause();
	}
	close(p[1]);
	pf = (struct pollfd){.fd = p[0], .events = POLLIN};
	if (pid > 0 && (poll(&pf, 1, 10000) != 1 || read(p[0], &c, 1) != 1)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

static void orphan_case(bool hang, int limit_ms)
{
	pid_t before[64];
	pid_t after[64];
	struct core_status base = {0};
	struct core_status mid = {0};
	struct core_status last = {0};
	size_t nb = 0;
	size_t na = 0;
	long long took = -1;
	bool base_ok = core_status(&base);
	pid_t pid = -1;

	nb = ta_pids(&basic_uuid, before, 64);
	pid = holder_start(hang);
	if (pid > 0) {
		sleep_ms(200);
		core_status(&mid);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		took = wait_counts(&base, 10000, &last);
	}
	/* and its process really ended */
	for (long long end = now_ms() + 2000; now_ms() < end; sleep_ms(20)) {
		na = ta_pids(&basic_uuid, after, 64);
		if (na <= nb)
			break;
	}
	check(base_ok && pid > 0 && mid.instances == base.instances + 1 && took >= 0 &&
		  took < limit_ms && na <= nb,
	      "orphans: a client SIGKILLed %s: instances %u -> %u -> %u in %lld ms (limit %d "
	      "ms); basic TA processes %zu -> %zu",
	      hang ? "200 ms into HANG" : "while idle with a session", base.instances,
	      mid.instances, last.instances, took, limit_ms, nb, na);
}

/* ---- the busy shared instance (last: the core may not recover) ---- */

static pid_t spinner_start(void)
{
	int p[2] = {-1, -1};
	struct pollfd pf;
	char c = 0;
	pid_t pid = 0;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		TEEC_Context ctx;
		TEEC_Session sess;
		uint32_t origin = 0;

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		if (TEEC_InitializeContext(NULL, &ctx) ||
		    TEEC_OpenSession(&ctx, &sess, &sims_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
				     &origin))
			_exit(1);
		if (!write_all(p[1], "r", 1))
			_exit(1);
		TEEC_InvokeCommand(&sess, TA_SIMS_CMD_SPIN_CANCEL, NULL, &origin);
		for (;;)
			pause();
	}
	close(p[1]);
	pf = (struct pollfd){.fd = p[0], .events = POLLIN};
	if (pid > 0 && (poll(&pf, 1, 10000) != 1 || read(p[0], &c, 1) != 1)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

#define NBUSY 400

static void busy_instance_case(void)
{
	uint8_t msg[64];
	size_t len = core_open_msg(msg, sizeof(msg), &sims_uuid, TEEC_LOGIN_PUBLIC, 0);
	struct core_status st;
	pid_t sims[8];
	pid_t spin = spinner_start();
	int fd = core_connect();
	unsigned int answered = 0;
	unsigned int busy = 0;
	bool status_ok = false;

	sleep_ms(200);
	for (int i = 0; i < NBUSY && fd >= 0 && spin > 0; i++) {
		uint32_t res = 0;
		int sess = -1;
		enum outcome o = OUT_UNSENT;

		if (send_fds(fd, msg, len, NULL, 0, 0))
			break;
		o = core_answer(fd, ANSWER_MS, &res, &sess);
		if (sess >= 0)
			close(sess);
		if (o == OUT_SILENT || o == OUT_CLOSED || o == OUT_MALFORMED)
			break;
		answered++;
		if (o == OUT_ERROR)
			busy++;
	}
	status_ok = core_status(&st);
	check(spin > 0 && answered == NBUSY && status_ok,
	      "core: %d session requests for a shared instance stuck in a command: %u answered "
	      "(%u refused); the core %s",
	      NBUSY, answered, busy, status_ok ? "answers" : "DOES NOT ANSWER any more");
	/* Unstick everything: the stuck instance goes, then its client. */
	for (size_t i = 0, n = ta_pids(&sims_uuid, sims, 8); i < n; i++)
		kill(sims[i], SIGKILL);
	if (spin > 0) {
		kill(spin, SIGKILL);
		waitpid(spin, NULL, 0);
	}
	if (fd >= 0)
		close(fd);
	core_serves("core, a stuck shared instance");
}

int main(void)
{
	static const struct ta_target basic = {"basic", &basic_uuid, true};
	static const struct ta_target sims = {"sims", &sims_uuid, false};
	struct core_status base = {0};
	struct core_status st = {0};
	TEEC_Context ctx;
	long fd_base = -1;
	long fd_end = -1;
	long rss_base = -1;
	long rss_end = -1;
	unsigned int cycles_ok = 0;
	pid_t pid = -1;
	bool base_ok = false;
	bool end_ok = false;

	signal(SIGPIPE, SIG_IGN);
	signal(SIGALRM, watchdog);
	alarm(WATCHDOG_S);
	if (paths_default_socket(core_path, sizeof(core_path)) ||
	    strlen(core_path) >= sizeof(((struct sockaddr_un *)NULL)->sun_path)) {
		check(false, "setup: no usable core socket path");
		goto done;
	}
	pid = core_pid();
	if (!check(pid > 0 && core_status(&st) && st.supplicant,
		   "setup: the core (pid %d) answers MSG_CORE_STATUS, supplicant connected",
		   (int)pid))
		goto done;
	if (!check(bystander_start(&by), "setup: a bystander client holds sessions to basic "
					 "and sims"))
		goto done;
	/* Warm up, so that one-time allocations are not counted as growth. */
	for (int i = 0; i < 5; i++)
		run_child(teec_nop_child, &basic_uuid, 10000);
	base_ok = core_status(&base);
	if (!check(base_ok, "setup: baseline %u instances, %u sessions, %u spares", base.instances,
		   base.sessions, base.spares))
		goto done;
	fd_base = proc_fd_count(pid);
	rss_base = proc_status_field(pid, "VmRSS");

	core_malformed();
	core_descriptors(pid, &base);
	core_logins(&base);
	core_disconnects(&base);
	core_connections(pid, fd_base, &base);
	core_garbage();
	core_flood();

	ta_cases(&basic, false);
	core_serves("TA sockets, basic");
	ta_cases(&sims, true);
	core_serves("TA sockets, sims");
	{
		struct core_status last = {0};
		long long took = wait_counts(&base, 5000, &last);

		check(took >= 0,
		      "TA sockets: every hostile session closed: back to %u instances, %u "
		      "sessions (now %u, %u)",
		      base.instances, base.sessions, last.instances, last.sessions);
	}

	orphan_case(true, 10000);
	orphan_case(false, 2000);
	core_serves("orphans");

	if (!TEEC_InitializeContext(NULL, &ctx)) {
		for (int i = 0; i < 500; i++) {
			TEEC_Session sess;
			uint32_t origin = 0;

			if (TEEC_OpenSession(&ctx, &sess, &basic_uuid, TEEC_LOGIN_PUBLIC, NULL,
					     NULL, &origin))
				continue;
			if (!TEEC_InvokeCommand(&sess, TA_BASIC_CMD_NOP, NULL, &origin))
				cycles_ok++;
			TEEC_CloseSession(&sess);
		}
		TEEC_FinalizeContext(&ctx);
	}
	check(cycles_ok == 500, "leaks: 500 open/invoke/close cycles: %u served", cycles_ok);
	wait_counts(&base, 5000, NULL);
	fd_end = core_fds_settled(pid, fd_base + FD_SLACK);
	rss_end = proc_status_field(pid, "VmRSS");
	if (fd_base < 0 && getuid() != 0)
		skip("leaks: core descriptors: /proc/%d/fd unreadable (not root)", (int)pid);
	else
		check(fd_base >= 0 && fd_end <= fd_base + FD_SLACK,
		      "leaks: core descriptors %ld -> %ld after every group (limit +%d)", fd_base,
		      fd_end, FD_SLACK);
	check(rss_base > 0 && rss_end > 0 && rss_end - rss_base < RSS_GROWTH_MAX_KB,
	      "leaks: core VmRSS %ld kB -> %ld kB, growth %ld kB (limit %ld kB)", rss_base, rss_end,
	      rss_end - rss_base, RSS_GROWTH_MAX_KB);
	end_ok = core_status(&st);
	check(end_ok && st.supplicant && st.spares == base.spares,
	      "leaks: the core keeps its supplicant and %u spare processes (now %u)", base.spares,
	      st.spares);

	busy_instance_case();
done:
	bystander_stop(&by);
	alarm(0);
	printf("%d passed, %d failed\n", (int)npassed, (int)nfailed);
	return nfailed ? 1 : 0;
}
