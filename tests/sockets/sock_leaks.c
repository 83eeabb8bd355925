/*
 * Leaks of the socket path, measured: the descriptors and resident memory of
 * the core (swteed) and of tee-supplicant before and after many rounds of the
 * socket regression (xtest 2001-2004, misbehaving servers included) and of
 * rounds in which a TA instance holding open sockets dies: SIGKILLed in the
 * middle of a receive, panicking, or left behind by a client that was
 * SIGKILLed. Every descriptor must come back; memory may grow a little.
 * Runs under swtee run: sock_leaks XTEST ROUNDS
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>
#include <tee_tcpsocket.h>

#include "ta_socket.h"
#include "proc_info.h"

#ifdef SWTEE_SANITIZE
/* ASan keeps freed memory in quarantine: only gross growth means a leak. */
#define RSS_SLACK_KIB (96 * 1024)
#else
#define RSS_SLACK_KIB (4 * 1024)
#endif
#define SETTLE_MS 10000
#define SOCKS_PER_ROUND 4

static const TEEC_UUID socket_uuid = TA_SOCKET_UUID;

struct proc {
	const char *what;
	pid_t pid;
	long fds0;
	long rss0;
};

/* ---- /proc ---- */

/* The parent and name of pid from /proc/PID/stat; -1 when it is gone. */
static int proc_stat(pid_t pid, pid_t *ppid, char *comm, size_t n)
{
	char path[64];
	char buf[512];
	char *open = NULL;
	char *close_paren = NULL;
	size_t len = 0;
	FILE *f = NULL;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	open = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open || !close_paren || close_paren < open || (size_t)(close_paren - open - 1) >= n)
		return -1;
	memcpy(comm, open + 1, (size_t)(close_paren - open - 1));
	comm[close_paren - open - 1] = '\0';
	*ppid = 0;
	if (sscanf(close_paren + 1, " %*c %d", ppid) != 1)
		return -1;
	return 0;
}

/*
 * The children of parent named comm; with loaded, only those running a TA
 * (under the sandbox's seccomp filter, which a spare process has not entered).
 */
static size_t children_named(pid_t parent, const char *comm, bool loaded, pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *e = NULL;
	size_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		char name[64];
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);
		pid_t ppid = 0;

		if (pid <= 0 || proc_stat(pid, &ppid, name, sizeof(name)) || ppid != parent ||
		    strcmp(name, comm) != 0)
			continue;
		if (loaded && proc_status_field(pid, "Seccomp") != 2)
			continue;
		out[n++] = pid;
	}
	closedir(d);
	return n;
}

/* ---- a loopback echo server that counts its connections ---- */

#define SRV_CONNS 64

struct srv {
	int fd;
	uint16_t port;
	atomic_bool stop;
	atomic_int conns;
	pthread_t thread;
};

static void *srv_main(void *arg)
{
	struct srv *s = arg;
	int fds[SRV_CONNS];

	for (size_t i = 0; i < SRV_CONNS; i++)
		fds[i] = -1;
	while (!atomic_load(&s->stop)) {
		struct pollfd p[1 + SRV_CONNS];
		size_t map[SRV_CONNS];
		nfds_t n = 1;

		p[0].fd = s->fd;
		p[0].events = POLLIN;
		for (size_t i = 0; i < SRV_CONNS; i++) {
			if (fds[i] < 0)
				continue;
			p[n].fd = fds[i];
			p[n].events = POLLIN;
			map[n - 1] = i;
			n++;
		}
		if (poll(p, n, 50) <= 0)
			continue;
		if (p[0].revents) {
			int fd = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC);
			size_t i = 0;

			while (fd >= 0 && i < SRV_CONNS && fds[i] >= 0)
				i++;
			if (fd >= 0 && i < SRV_CONNS) {
				fds[i] = fd;
				atomic_fetch_add(&s->conns, 1);
			} else if (fd >= 0) {
				close(fd);
			}
		}
		for (nfds_t k = 1; k < n; k++) {
			uint8_t buf[4096];
			size_t i = map[k - 1];
			ssize_t got = 0;

			if (!p[k].revents)
				continue;
			got = recv(fds[i], buf, sizeof(buf), MSG_DONTWAIT);
			if (got > 0 && send(fds[i], buf, (size_t)got, MSG_NOSIGNAL) == got)
				continue;
			if (got < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			close(fds[i]);
			fds[i] = -1;
			atomic_fetch_sub(&s->conns, 1);
		}
	}
	for (size_t i = 0; i < SRV_CONNS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return NULL;
}

static int srv_start(struct srv *s)
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof(a);

	memset(s, 0, sizeof(*s));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return -1;
	if (bind(s->fd, (struct sockaddr *)&a, sizeof(a)) || listen(s->fd, 64) ||
	    getsockname(s->fd, (struct sockaddr *)&a, &len) ||
	    pthread_create(&s->thread, NULL, srv_main, s)) {
		close(s->fd);
		return -1;
	}
	s->port = ntohs(a.sin_port);
	return 0;
}

static void srv_stop(struct srv *s)
{
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	close(s->fd);
}

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Waits up to ms for the server's connections to reach want. */
static bool srv_wait_conns(struct srv *s, int want, int ms)
{
	for (int i = 0; i < ms / 10; i++) {
		if (atomic_load(&s->conns) == want)
			return true;
		sleep_ms(10);
	}
	return false;
}

/* ---- the socket TA ---- */

static TEEC_Result ta_open_socket(TEEC_Session *s, uint32_t cmd, const char *host, uint16_t port)
{
	TEEC_Operation op;
	uint32_t orig = 0;

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INPUT,
					 TEEC_VALUE_OUTPUT, TEEC_NONE);
	op.params[0].value.a = TEE_IP_VERSION_DC;
	op.params[0].value.b = port;
	op.params[1].tmpref.buffer = (void *)host;
	op.params[1].tmpref.size = strlen(host) + 1;
	return TEEC_InvokeCommand(s, cmd, &op, &orig);
}

/* A receive without timeout on socket id 0: it returns when the instance dies. */
static TEEC_Result ta_recv_forever(TEEC_Session *s)
{
	TEEC_Operation op;
	uint8_t buf[64];
	uint32_t orig = 0;

	memset(&op, 0, sizeof(op));
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 0;
	op.params[0].value.b = TEE_TIMEOUT_INFINITE;
	op.params[1].tmpref.buffer = buf;
	op.params[1].tmpref.size = sizeof(buf);
	return TEEC_InvokeCommand(s, TA_SOCKET_CMD_RECV, &op, &orig);
}

/* A session whose instance has SOCKS_PER_ROUND TCP sockets and a UDP one open. */
static int open_with_sockets(TEEC_Context *ctx, TEEC_Session *s, struct srv *echo)
{
	uint32_t orig = 0;

	if (TEEC_OpenSession(ctx, s, &socket_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig))
		return -1;
	for (int i = 0; i < SOCKS_PER_ROUND; i++) {
		if (ta_open_socket(s, TA_SOCKET_CMD_TCP_OPEN, "127.0.0.1", echo->port)) {
			TEEC_CloseSession(s);
			return -1;
		}
	}
	if (ta_open_socket(s, TA_SOCKET_CMD_UDP_OPEN, "127.0.0.1", echo->port)) {
		TEEC_CloseSession(s);
		return -1;
	}
	return 0;
}

struct blocked {
	TEEC_Session *s;
	TEEC_Result res;
};

static void *recv_thread(void *arg)
{
	struct blocked *b = arg;

	b->res = ta_recv_forever(b->s);
	return NULL;
}

/* The instance SIGKILLed while a receive without timeout blocks in it. */
static int round_kill(TEEC_Context *ctx, pid_t core, struct srv *echo)
{
	TEEC_Session s;
	struct blocked b = {&s, TEEC_SUCCESS};
	pthread_t t;
	pid_t zygote = 0;
	pid_t ta[4];
	size_t n = 0;
	int rc = -1;

	if (open_with_sockets(ctx, &s, echo))
		return -1;
	if (pthread_create(&t, NULL, recv_thread, &b)) {
		TEEC_CloseSession(&s);
		return -1;
	}
	sleep_ms(100); /* the receive reaches the supplicant */
	if (children_named(core, "swtee-zygote", false, &zygote, 1) == 1)
		n = children_named(zygote, "swtee-ta", true, ta, 4);
	if (n == 1)
		kill(ta[0], SIGKILL);
	else
		fprintf(stderr, "sock_leaks: %zu loaded TA instances, expected 1\n", n);
	pthread_join(t, NULL);
	if (n == 1 && b.res == TEEC_ERROR_TARGET_DEAD)
		rc = 0;
	else if (n == 1)
		fprintf(stderr, "sock_leaks: a killed instance's receive gave 0x%08x\n", b.res);
	TEEC_CloseSession(&s);
	return rc;
}

/* The instance panics (an open with a NULL setup) while its sockets are open. */
static int round_panic(TEEC_Context *ctx, struct srv *echo)
{
	TEEC_Operation op;
	TEEC_Session s;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	if (open_with_sockets(ctx, &s, echo))
		return -1;
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(&s, TA_SOCKET_CMD_NULL_SETUP, &op, &orig);
	TEEC_CloseSession(&s);
	if (res != TEEC_ERROR_TARGET_DEAD) {
		fprintf(stderr, "sock_leaks: the panic gave 0x%08x\n", res);
		return -1;
	}
	return 0;
}

/*
 * A client SIGKILLed while its instance has sockets open: idle (the instance
 * sees the session's end at once), or blocked in a receive without timeout
 * (the core stops the instance once its orphan grace has passed).
 */
static int round_client_killed(struct srv *echo, bool blocked)
{
	int st = 0;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		TEEC_Context ctx;
		TEEC_Session s;

		if (TEEC_InitializeContext(NULL, &ctx) || open_with_sockets(&ctx, &s, echo))
			_exit(1);
		if (blocked)
			ta_recv_forever(&s);
		else
			pause();
		_exit(2);
	}
	if (!srv_wait_conns(echo, SOCKS_PER_ROUND, 5000))
		fprintf(stderr, "sock_leaks: the client's connections did not all arrive\n");
	sleep_ms(100);
	kill(pid, SIGKILL);
	if (waitpid(pid, &st, 0) != pid || !WIFSIGNALED(st)) {
		fprintf(stderr, "sock_leaks: the client ended before it was killed\n");
		return -1;
	}
	return 0;
}

/* xtest's socket cases, 2001-2004, in a child process. */
static int run_xtest(const char *xtest)
{
	int st = 0;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execl(xtest, "xtest", "-t", "regression", "_2", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "sock_leaks: xtest -t regression _2 failed (status 0x%x)\n", st);
		return -1;
	}
	return 0;
}

/* The instance's ends, each with sockets open; the slow one (blocked client) when slow. */
static int one_round(const char *xtest, TEEC_Context *ctx, pid_t core, struct srv *echo, bool slow)
{
	int failed = 0;

	failed += run_xtest(xtest) != 0;
	for (int part = 0; part < 4; part++) {
		/* Orphans are stopped after a grace of seconds: wait long enough for it. */
		int wait_ms = part == 3 ? 15000 : 5000;

		if (part == 0)
			failed += round_kill(ctx, core, echo) != 0;
		else if (part == 1)
			failed += round_panic(ctx, echo) != 0;
		else if (part == 2)
			failed += round_client_killed(echo, false) != 0;
		else if (slow)
			failed += round_client_killed(echo, true) != 0;
		/* The dead instance's connections are closed for it. */
		if (!srv_wait_conns(echo, 0, wait_ms)) {
			fprintf(stderr, "sock_leaks: %d connections outlived their instance\n",
				atomic_load(&echo->conns));
			failed++;
		}
	}
	return failed;
}

/*
 * Instances end, and their sockets close, asynchronously: waits until every
 * process is back at its baseline of descriptors (fds0 >= 0) or, for the
 * baseline itself, until the counts hold still for a second.
 */
static void settle(struct proc *p, size_t n)
{
	long last[2] = {-1, -1};
	int still = 0;

	for (int waited = 0; waited < SETTLE_MS && still < 10; waited += 100) {
		bool same = true;

		for (size_t i = 0; i < n && i < 2; i++) {
			long fds = proc_fd_count(p[i].pid);

			if (p[i].fds0 >= 0)
				same = same && fds <= p[i].fds0;
			else
				same = same && fds == last[i];
			last[i] = fds;
		}
		still = same ? still + 1 : 0;
		sleep_ms(100);
	}
}

int main(int argc, char **argv)
{
	struct ucred cred = {0};
	socklen_t len = sizeof(cred);
	struct proc procs[2] = {{.what = "core (swteed)"}, {.what = "tee-supplicant"}};
	TEEC_Context ctx;
	struct srv echo;
	pid_t swtee_run = 0;
	char name[64];
	int rounds = argc > 2 ? atoi(argv[2]) : 20;
	int failed = 0;

	if (argc < 2 || rounds < 1) {
		fprintf(stderr, "usage: sock_leaks XTEST [ROUNDS]\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	if (TEEC_InitializeContext(NULL, &ctx)) {
		fprintf(stderr, "sock_leaks: no TEE is reachable; run it under swtee run\n");
		return 1;
	}
	getsockopt(ctx.imp.fd, SOL_SOCKET, SO_PEERCRED, &cred, &len);
	procs[0].pid = cred.pid;
	/* tee-supplicant is the core's sibling: both are children of swtee run. */
	if (proc_stat(procs[0].pid, &swtee_run, name, sizeof(name)) ||
	    children_named(swtee_run, "tee-supplicant", false, &procs[1].pid, 1) != 1) {
		fprintf(stderr, "sock_leaks: cannot find the core and tee-supplicant\n");
		TEEC_FinalizeContext(&ctx);
		return 1;
	}
	if (srv_start(&echo)) {
		TEEC_FinalizeContext(&ctx);
		return 1;
	}
	/* One round first, so what the processes keep for good is in the baseline. */
	failed += one_round(argv[1], &ctx, procs[0].pid, &echo, true);
	for (size_t i = 0; i < 2; i++)
		procs[i].fds0 = -1;
	settle(procs, 2);
	for (size_t i = 0; i < 2; i++) {
		procs[i].fds0 = proc_fd_count(procs[i].pid);
		procs[i].rss0 = proc_status_field(procs[i].pid, "VmRSS");
		printf("sock_leaks: %s pid %d: %ld fds, RSS %ld KiB\n", procs[i].what,
		       (int)procs[i].pid, procs[i].fds0, procs[i].rss0);
	}
	fflush(stdout);
	for (int r = 0; r < rounds; r++)
		failed += one_round(argv[1], &ctx, procs[0].pid, &echo, r % 5 == 4);
	settle(procs, 2);
	printf("sock_leaks: %d rounds of xtest 2001-2004, an instance killed in a receive, a "
	       "panic, a killed client (%d of them with its instance blocked), each instance "
	       "with %d sockets open\n",
	       rounds, rounds / 5, SOCKS_PER_ROUND + 1);
	for (size_t i = 0; i < 2; i++) {
		long fds = proc_fd_count(procs[i].pid);
		long rss = proc_status_field(procs[i].pid, "VmRSS");

		printf("sock_leaks: %s: fds %ld -> %ld, RSS %ld -> %ld KiB (%+ld KiB, limit +%d)\n",
		       procs[i].what, procs[i].fds0, fds, procs[i].rss0, rss, rss - procs[i].rss0,
		       RSS_SLACK_KIB);
		if (procs[i].fds0 < 0 || fds != procs[i].fds0) {
			printf("sock_leaks: FAIL: the %s's descriptors did not come back\n",
			       procs[i].what);
			failed++;
		}
		if (procs[i].rss0 < 0 || rss > procs[i].rss0 + RSS_SLACK_KIB) {
			printf("sock_leaks: FAIL: the %s's memory grew by more than %d KiB\n",
			       procs[i].what, RSS_SLACK_KIB);
			failed++;
		}
	}
	srv_stop(&echo);
	TEEC_FinalizeContext(&ctx);
	printf("sock_leaks: %s\n", failed ? "FAILED" : "passed");
	return failed ? 1 : 0;
}
