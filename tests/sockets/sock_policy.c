/*
 * The socket policy end to end (docs/sockets.md): private TEEs started with
 * swtee run --socket-policy FILE, the socket test TA and its twin (the same
 * TA under another UUID) opening sockets to servers this program runs on
 * the loopback addresses. Checked: rules by TA UUID, single ports and port
 * ranges, IPv4 against IPv6 (and IPv4-mapped IPv6 addresses judged as
 * IPv4, 0.0.0.0 and :: as the loopback address they reach), prefixes, host
 * names, UDP peers changed by ioctl, a rule that lets one TA through and
 * not the other, that a file denies what it does not allow (even
 * loopback), that each refusal gives the TA TEE_ERROR_ACCESS_DENIED and
 * the core a log line naming the TA and the destination, that allowed
 * connections reach the servers and refused ones never do, and that a
 * malformed file stops the core from starting with a message naming its
 * line. Nothing is sent beyond the loopback interface: the other addresses
 * (192.0.2.1, TEST-NET-1, and 0.0.0.1) are always refused.
 *
 * usage: sock_policy SWTEE STATE_DIR
 *        sock_policy --client CHECK...  (what it runs inside swtee run)
 * CHECK is TA,KIND,IPVER,HOST,PORT,ARG,RESULT: TA socket or twin; KIND tcp,
 * udp, udp-port (opens UDP, then TEE_UDP_CHANGEPORT to ARG) or udp-addr
 * (TEE_UDP_CHANGEADDR to ARG); IPVER dc, 4 or 6; RESULT the expected
 * result in hex.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tee_client_api.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "ta_socket.h"

#define TA1 "6b0e3a52-8d1f-4c7a-b2e9-41d5a0c3f7e8"
#define TA2 "abfa6b3d-855b-4085-a2ab-acc4b7adb70c"
#define OK "0"
#define DENIED "ffff0001" /* TEE_ERROR_ACCESS_DENIED */
#define MAX_CHECKS 32
#define LOG_MAX (256 * 1024)

static int failures;

/* One line: ok or FAIL, what was checked and (detail) how it came out. */
static void result(bool ok, const char *what, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", what, detail ? ": " : "", detail ? detail : "");
	fflush(stdout);
	if (!ok)
		failures++;
}

/* ---- the client, inside swtee run ---- */

static const TEEC_UUID socket_uuid = TA_SOCKET_UUID;
static const TEEC_UUID twin_uuid = TA_SOCKET_TWIN_UUID;

static TEEC_Result invoke(TEEC_Session *s, uint32_t cmd, TEEC_Operation *op)
{
	uint32_t orig = 0;

	return TEEC_InvokeCommand(s, cmd, op, &orig);
}

static TEEC_Result ta_open(TEEC_Session *s, bool udp, uint32_t ipver, const char *host,
			   uint32_t port, uint32_t *id)
{
	TEEC_Operation op;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INPUT,
					 TEEC_VALUE_OUTPUT, TEEC_NONE);
	op.params[0].value.a = ipver;
	op.params[0].value.b = port;
	op.params[1].tmpref.buffer = (void *)host;
	op.params[1].tmpref.size = strlen(host) + 1;
	res = invoke(s, udp ? TA_SOCKET_CMD_UDP_OPEN : TA_SOCKET_CMD_TCP_OPEN, &op);
	*id = op.params[2].value.a;
	return res;
}

static void ta_close(TEEC_Session *s, uint32_t id)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = id;
	invoke(s, TA_SOCKET_CMD_CLOSE, &op);
}

static TEEC_Result ta_ioctl(TEEC_Session *s, uint32_t id, uint32_t cmd, void *buf, size_t len)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = id;
	op.params[0].value.b = cmd;
	op.params[1].tmpref.buffer = buf;
	op.params[1].tmpref.size = len;
	return invoke(s, TA_SOCKET_CMD_IOCTL, &op);
}

/* One CHECK: what it gave, or TEEC_ERROR_GENERIC with *why set when it could not run. */
static TEEC_Result run_check(TEEC_Session *s, char **f, const char **why)
{
	uint32_t ipver = !strcmp(f[2], "4")   ? TEE_IP_VERSION_4
			 : !strcmp(f[2], "6") ? TEE_IP_VERSION_6
					      : TEE_IP_VERSION_DC;
	uint32_t port = (uint32_t)strtoul(f[4], NULL, 10);
	bool udp = strncmp(f[1], "udp", 3) == 0;
	uint32_t id = 0;
	TEEC_Result res = ta_open(s, udp, ipver, f[3], port, &id);

	if (!strcmp(f[1], "tcp") || !strcmp(f[1], "udp")) {
		if (!res)
			ta_close(s, id);
		return res;
	}
	if (res) {
		*why = "the UDP socket did not open";
		return TEEC_ERROR_GENERIC;
	}
	if (!strcmp(f[1], "udp-port")) {
		uint16_t p = (uint16_t)strtoul(f[5], NULL, 10);

		res = ta_ioctl(s, id, TEE_UDP_CHANGEPORT, &p, sizeof(p));
	} else {
		char host[256];

		snprintf(host, sizeof(host), "%s", f[5]);
		res = ta_ioctl(s, id, TEE_UDP_CHANGEADDR, host, strlen(host) + 1);
	}
	ta_close(s, id);
	return res;
}

static int client_main(int argc, char **argv)
{
	TEEC_Context ctx;
	TEEC_Session sessions[2];
	bool open[2] = {false, false};
	uint32_t orig = 0;

	if (TEEC_InitializeContext(NULL, &ctx)) {
		printf("FAIL no TEE is reachable\n");
		return 1;
	}
	for (int i = 0; i < argc; i++) {
		char spec[512];
		char *f[7] = {NULL};
		char *save = NULL;
		char *p = spec;
		const char *why = NULL;
		char got[64];
		size_t n = 0;
		size_t t = 0;
		TEEC_Result res = TEEC_SUCCESS;

		snprintf(spec, sizeof(spec), "%s", argv[i]);
		for (; n < 7; n++) {
			f[n] = strtok_r(p, ",", &save);
			if (!f[n])
				break;
			p = NULL;
		}
		if (n != 7) {
			result(false, argv[i], "not a check");
			continue;
		}
		t = strcmp(f[0], "twin") == 0;
		if (!open[t]) {
			if (TEEC_OpenSession(&ctx, &sessions[t], t ? &twin_uuid : &socket_uuid,
					     TEEC_LOGIN_PUBLIC, NULL, NULL, &orig)) {
				result(false, argv[i], "cannot open a session");
				continue;
			}
			open[t] = true;
		}
		res = run_check(&sessions[t], f, &why);
		snprintf(got, sizeof(got), "got 0x%08x", res);
		result(!why && res == (TEEC_Result)strtoul(f[6], NULL, 16), argv[i],
		       why ? why : got);
	}
	for (size_t t = 0; t < 2; t++)
		if (open[t])
			TEEC_CloseSession(&sessions[t]);
	TEEC_FinalizeContext(&ctx);
	return failures ? 1 : 0;
}

/* ---- the servers ---- */

enum { P1, P2, P3, P4_V6, P5_LOOP2, NSRV };

struct srv {
	int fd;
	uint16_t port;
	atomic_int accepted;
};

static struct srv srvs[NSRV];
static atomic_bool srv_stop;

static int listen_on(int family, const char *addr, struct srv *s)
{
	struct sockaddr_storage ss;
	socklen_t len = 0;

	memset(&ss, 0, sizeof(ss));
	s->fd = -1;
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		inet_pton(AF_INET, addr, &a->sin_addr);
		len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		inet_pton(AF_INET6, addr, &a->sin6_addr);
		len = sizeof(*a);
	}
	s->fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->fd < 0 || bind(s->fd, (struct sockaddr *)&ss, len) || listen(s->fd, 16) ||
	    getsockname(s->fd, (struct sockaddr *)&ss, &len)) {
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
		return -1;
	}
	s->port = ntohs(family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
					  : ((struct sockaddr_in6 *)&ss)->sin6_port);
	return 0;
}

/*
 * listen_on, on a port outside [lo, hi]: the range rule for 127.0.0.1 must
 * not let through a port a check expects refused. Ports drawn inside are
 * held open while drawing again, so the next one differs.
 */
static int listen_outside(int family, const char *addr, struct srv *s, unsigned int lo,
			  unsigned int hi)
{
	int held[64];
	size_t nheld = 0;
	int rc = -1;

	while (nheld < sizeof(held) / sizeof(held[0])) {
		if (listen_on(family, addr, s))
			break;
		if (s->port < lo || s->port > hi) {
			rc = 0;
			break;
		}
		held[nheld++] = s->fd;
		s->fd = -1;
	}
	while (nheld)
		close(held[--nheld]);
	return rc;
}

/* Accepts, counts and closes every connection. */
static void *srv_main(void *arg)
{
	(void)arg;
	while (!atomic_load(&srv_stop)) {
		struct pollfd p[NSRV];

		for (size_t i = 0; i < NSRV; i++)
			p[i] = (struct pollfd){.fd = srvs[i].fd, .events = POLLIN};
		if (poll(p, NSRV, 50) <= 0)
			continue;
		for (size_t i = 0; i < NSRV; i++) {
			int fd = -1;

			if (!p[i].revents)
				continue;
			fd = accept4(srvs[i].fd, NULL, NULL, SOCK_CLOEXEC);
			if (fd >= 0) {
				atomic_fetch_add(&srvs[i].accepted, 1);
				close(fd);
			}
		}
	}
	return NULL;
}

static int cmp_srv(const void *a, const void *b)
{
	return (int)((const struct srv *)a)->port - (int)((const struct srv *)b)->port;
}

/* ---- the TEEs ---- */

struct run {
	int status;
	char log[LOG_MAX]; /* the TEE's stderr */
};

/* swtee run [--socket-policy policy] -- argv; its stderr into r->log. */
static void tee_run(const char *swtee, const char *state, const char *policy, char **args,
		    size_t nargs, struct run *r)
{
	char logpath[4096];
	char *argv[MAX_CHECKS + 12];
	size_t n = 0;
	ssize_t len = 0;
	int fd = -1;
	pid_t pid = 0;

	snprintf(logpath, sizeof(logpath), "%s.log", state);
	argv[n++] = (char *)swtee;
	argv[n++] = "run";
	argv[n++] = "--state";
	argv[n++] = (char *)state;
	if (policy) {
		argv[n++] = "--socket-policy";
		argv[n++] = (char *)policy;
	}
	argv[n++] = "--";
	for (size_t i = 0; i < nargs && n < sizeof(argv) / sizeof(argv[0]) - 1; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	r->status = -1;
	r->log[0] = '\0';
	fd = open(logpath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	pid = fork();
	if (pid == 0) {
		dup2(fd, STDERR_FILENO);
		execv(swtee, argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &r->status, 0);
	len = pread(fd, r->log, sizeof(r->log) - 1, 0);
	r->log[len > 0 ? len : 0] = '\0';
	close(fd);
}

static bool run_passed(const struct run *r)
{
	return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

static void expect_log(const struct run *r, bool present, const char *ta, const char *dest,
		       const char *host)
{
	char line[512];
	char what[600];

	snprintf(line, sizeof(line), "TA %s: socket to %s (%s) refused by the socket policy", ta,
		 dest, host);
	snprintf(what, sizeof(what), "the core's log %s \"%s\"", present ? "has" : "has not", line);
	result((strstr(r->log, line) != NULL) == present, what, NULL);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* A check's text: TA,KIND,IPVER,HOST,PORT,ARG,RESULT. */
static char *check(const char *ta, const char *kind, const char *ipver, const char *host,
		   unsigned int port, const char *arg, const char *res)
{
	char *s = NULL;

	if (asprintf(&s, "%s,%s,%s,%s,%u,%s,%s", ta, kind, ipver, host, port, arg, res) < 0)
		abort();
	return s;
}

static void expect_accepted(int srv, int want, const char *what)
{
	char detail[64];
	int got = atomic_load(&srvs[srv].accepted);

	snprintf(detail, sizeof(detail), "%d (expected %d)", got, want);
	result(got == want, what, detail);
}

/* The rules at work: TA by TA, port by port, family by family. */
static void test_rules(const char *swtee, const char *dir, char *self, bool v6, struct run *r)
{
	char policy[4096];
	char state[4096];
	char text[2048];
	char port_s[2][16];
	char *args[MAX_CHECKS + 2];
	size_t n = 0;
	unsigned int p1 = srvs[P1].port;
	unsigned int p2 = srvs[P2].port;
	unsigned int p3 = srvs[P3].port;
	unsigned int p4 = srvs[P4_V6].port;
	unsigned int p5 = srvs[P5_LOOP2].port;
	char dest[64];

	snprintf(policy, sizeof(policy), "%s/rules.policy", dir);
	snprintf(state, sizeof(state), "%s/rules", dir);
	snprintf(text, sizeof(text),
		 "# written by tests/sockets/sock_policy.c\n"
		 "allow " TA1 " 127.0.0.1 %u-%u   # the socket TA: a port range\n"
		 "\tallow " TA1 " ::1/128 %u\n"
		 "allow * 127.0.0.0/8 %u\n"
		 "allow " TA2 " loopback *\n",
		 p1, p2, p4, p5);
	if (write_file(policy, text)) {
		result(false, policy, strerror(errno));
		return;
	}
	snprintf(port_s[0], sizeof(port_s[0]), "%u", p3);
	snprintf(port_s[1], sizeof(port_s[1]), "127.0.0.2");
	args[n++] = self;
	args[n++] = "--client";
	/* The socket TA: its range, and nothing next to it. */
	args[n++] = check("socket", "tcp", "4", "127.0.0.1", p1, "-", OK);
	args[n++] = check("socket", "tcp", "dc", "127.0.0.1", p2, "-", OK);
	args[n++] = check("socket", "tcp", "dc", "127.0.0.1", p3, "-", DENIED);
	args[n++] = check("socket", "tcp", "4", "localhost", p1, "-", OK);
	args[n++] = check("socket", "tcp", "4", "localhost", p3, "-", DENIED);
	args[n++] = check("socket", "tcp", "4", "127.0.0.1", p4, "-", DENIED);
	args[n++] = check("socket", "tcp", "dc", "127.0.0.2", p5, "-", OK);
	args[n++] = check("socket", "tcp", "dc", "192.0.2.1", p1, "-", DENIED);
	args[n++] = check("socket", "udp", "dc", "127.0.0.1", p3, "-", DENIED);
	args[n++] = check("socket", "udp-port", "4", "127.0.0.1", p1, port_s[0], DENIED);
	args[n++] = check("socket", "udp-addr", "4", "127.0.0.1", p1, port_s[1], DENIED);
	/* The twin: what the socket TA may not, it may. */
	args[n++] = check("twin", "tcp", "dc", "127.0.0.1", p3, "-", OK);
	args[n++] = check("twin", "udp-port", "4", "127.0.0.1", p1, port_s[0], OK);
	args[n++] = check("twin", "tcp", "dc", "192.0.2.1", 80, "-", DENIED);
	/* 0.0.0.0 reaches 127.0.0.1, and is judged as that address. */
	args[n++] = check("socket", "tcp", "dc", "0.0.0.0", p1, "-", OK);
	args[n++] = check("socket", "tcp", "dc", "0.0.0.0", p3, "-", DENIED);
	args[n++] = check("twin", "tcp", "dc", "0.0.0.0", p3, "-", OK);
	if (v6) {
		args[n++] = check("socket", "tcp", "6", "::1", p4, "-", OK);
		args[n++] = check("socket", "tcp", "6", "::1", p1, "-", DENIED);
		/* An IPv4-mapped address is judged as the IPv4 address it reaches. */
		args[n++] = check("socket", "tcp", "6", "::ffff:127.0.0.1", p1, "-", OK);
		args[n++] = check("socket", "tcp", "6", "::ffff:127.0.0.1", p3, "-", DENIED);
		args[n++] = check("twin", "tcp", "6", "::1", p4, "-", OK);
		args[n++] = check("socket", "tcp", "6", "::", p4, "-", OK);
	}
	printf("# rules (%s):\n%s", policy, text);
	fflush(stdout);
	tee_run(swtee, state, policy, args, n, r);
	for (size_t i = 2; i < n; i++)
		free(args[i]);
	usleep(200 * 1000); /* the servers count what reached them */
	result(run_passed(r), "the client's checks under the rules", NULL);

	snprintf(dest, sizeof(dest), "127.0.0.1:%u", p3);
	expect_log(r, true, TA1, dest, "127.0.0.1");
	expect_log(r, true, TA1, dest, "localhost");
	expect_log(r, true, TA1, dest, "0.0.0.0");
	expect_log(r, false, TA2, dest, "0.0.0.0");
	snprintf(text, sizeof(text), "port %u", p3);
	expect_log(r, true, TA1, dest, text);
	expect_log(r, false, TA2, dest, "127.0.0.1");
	snprintf(dest, sizeof(dest), "127.0.0.1:%u", p4);
	expect_log(r, true, TA1, dest, "127.0.0.1");
	snprintf(dest, sizeof(dest), "192.0.2.1:%u", p1);
	expect_log(r, true, TA1, dest, "192.0.2.1");
	snprintf(dest, sizeof(dest), "127.0.0.2:%u", p1);
	expect_log(r, true, TA1, dest, "127.0.0.2");
	expect_log(r, true, TA2, "192.0.2.1:80", "192.0.2.1");
	if (v6) {
		snprintf(dest, sizeof(dest), "[::1]:%u", p1);
		expect_log(r, true, TA1, dest, "::1");
		snprintf(dest, sizeof(dest), "[::ffff:127.0.0.1]:%u", p3);
		expect_log(r, true, TA1, dest, "::ffff:127.0.0.1");
	}
	/* Allowed opens connected; refused ones never left the core. */
	expect_accepted(P1, v6 ? 4 : 3, "connections to 127.0.0.1:P1 (the range's low end)");
	expect_accepted(P2, 1, "connections to 127.0.0.1:P2 (the range's high end)");
	expect_accepted(P3, 2, "connections to 127.0.0.1:P3 (the twin's only)");
	expect_accepted(P4_V6, v6 ? 3 : 0, "connections to [::1]:P4");
	expect_accepted(P5_LOOP2, 1, "connections to 127.0.0.2:P5 (a /8 for every TA)");
}

/* A file allows what it says and nothing else: not even loopback. */
static void test_default_deny(const char *swtee, const char *dir, char *self, struct run *r)
{
	char policy[4096];
	char state[4096];
	char dest[64];
	char *args[5];

	snprintf(policy, sizeof(policy), "%s/empty.policy", dir);
	snprintf(state, sizeof(state), "%s/empty", dir);
	if (write_file(policy, "# no rules: every socket is refused\n\n")) {
		result(false, policy, strerror(errno));
		return;
	}
	args[0] = self;
	args[1] = "--client";
	args[2] = check("socket", "tcp", "dc", "127.0.0.1", srvs[P1].port, "-", DENIED);
	args[3] = check("twin", "udp", "4", "localhost", srvs[P1].port, "-", DENIED);
	args[4] = check("socket", "tcp", "dc", "0.0.0.0", srvs[P1].port, "-", DENIED);
	tee_run(swtee, state, policy, args, 5, r);
	for (size_t i = 2; i < 5; i++)
		free(args[i]);
	result(run_passed(r), "a file without rules refuses loopback (and 0.0.0.0) too", NULL);
	snprintf(dest, sizeof(dest), "127.0.0.1:%u", srvs[P1].port);
	expect_log(r, true, TA1, dest, "127.0.0.1");
	expect_log(r, true, TA2, dest, "localhost");
	expect_log(r, true, TA1, dest, "0.0.0.0");
}

/*
 * Without a file: loopback, every port, every TA; and the unspecified
 * addresses, which reach loopback; nothing else.
 */
static void test_no_file(const char *swtee, const char *dir, char *self, bool v6, struct run *r)
{
	char state[4096];
	char dest[64];
	char *args[10];
	size_t n = 0;

	snprintf(state, sizeof(state), "%s/default", dir);
	args[n++] = self;
	args[n++] = "--client";
	args[n++] = check("socket", "tcp", "dc", "127.0.0.1", srvs[P3].port, "-", OK);
	args[n++] = check("twin", "tcp", "dc", "127.0.0.2", srvs[P5_LOOP2].port, "-", OK);
	args[n++] = check("socket", "tcp", "dc", "192.0.2.1", 443, "-", DENIED);
	args[n++] = check("socket", "tcp", "dc", "0.0.0.0", srvs[P3].port, "-", OK);
	args[n++] = check("twin", "udp-addr", "4", "127.0.0.1", srvs[P1].port, "0.0.0.0", OK);
	args[n++] = check("socket", "tcp", "dc", "0.0.0.1", srvs[P3].port, "-", DENIED);
	if (v6)
		args[n++] = check("socket", "tcp", "dc", "::", srvs[P4_V6].port, "-", OK);
	tee_run(swtee, state, NULL, args, n, r);
	for (size_t i = 2; i < n; i++)
		free(args[i]);
	result(run_passed(r), "without a file, loopback (0.0.0.0 and :: too) only", NULL);
	expect_log(r, true, TA1, "192.0.2.1:443", "192.0.2.1");
	snprintf(dest, sizeof(dest), "0.0.0.1:%u", srvs[P3].port);
	expect_log(r, true, TA1, dest, "0.0.0.1");
}

/* A malformed file: swteed does not start, and says which line. */
static void test_malformed(const char *swtee, const char *dir, struct run *r)
{
	static const struct {
		const char *text;
		const char *error; /* after "FILE:" */
	} cases[] = {
	    {"allow * loopback *\nallow * 192.0.2.0/33 80\n", "2: not a rule"},
	    {"deny * loopback *\n", "1: not a rule"},
	    {"allow * loopback\n", "1: not a rule"},
	    {"allow * loopback * 80\n", "1: not a rule"},
	    {"# a comment\nallow 6b0e3a52-8d1f-4c7a-b2e9 loopback *\n", "2: not a rule"},
	    {"allow * loopback 0\n", "1: not a rule"},
	    {"allow * loopback 70000\n", "1: not a rule"},
	    {"allow * loopback 90-80\n", "1: not a rule"},
	    {"allow * 192.0.2.0/-0 80\n", "1: not a rule"},
	    {"allow * 127.0.0.1 +80\n", "1: not a rule"},
	    {"allow * localhost 80\n", "1: not a rule"},
	    {"allow * ::1/129 80\n", "1: not a rule"},
	    {"\n\nallow * loopback *\nallow * loopback 1-2-3\n", "4: not a rule"},
	    {NULL, "3: line too long"},
	};
	char policy[4096];
	char state[4096];
	char *args[1] = {"true"};

	snprintf(state, sizeof(state), "%s/malformed", dir);
	snprintf(policy, sizeof(policy), "%s/malformed.policy", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024];
		char want[4200];
		bool said = false;

		if (cases[i].text) {
			snprintf(text, sizeof(text), "%s", cases[i].text);
		} else {
			size_t len = 0;

			snprintf(text, sizeof(text), "allow * loopback *\n\nallow * loopback ");
			len = strlen(text);
			memset(text + len, '1', 600);
			text[len + 600] = '\n';
			text[len + 601] = '\0';
		}
		if (write_file(policy, text)) {
			result(false, policy, strerror(errno));
			continue;
		}
		tee_run(swtee, state, policy, args, 1, r);
		snprintf(want, sizeof(want), "%s:%s", policy, cases[i].error);
		said = strstr(r->log, want) != NULL;
		result(!run_passed(r) && said, "a malformed file stops the core",
		       said ? want : "no such line in its log");
	}
	/* A file that is not there stops it too. */
	snprintf(policy, sizeof(policy), "%s/missing.policy", dir);
	unlink(policy);
	tee_run(swtee, state, policy, args, 1, r);
	result(!run_passed(r) && strstr(r->log, "cannot read the socket policy"),
	       "a missing file stops the core", policy);
}

int main(int argc, char **argv)
{
	static struct run r;
	char dir[4000]; /* room for the file names put after it */
	char self[4096];
	pthread_t t;
	ssize_t n = 0;
	bool v6 = false;

	if (argc > 1 && !strcmp(argv[1], "--client"))
		return client_main(argc - 2, argv + 2);
	if (argc != 3) {
		fprintf(stderr, "usage: sock_policy SWTEE STATE_DIR\n");
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	if (snprintf(dir, sizeof(dir), "%s", argv[2]) >= (int)sizeof(dir)) {
		fprintf(stderr, "sock_policy: state dir path too long\n");
		return 2;
	}
	mkdir(dir, 0700);
	/* Three ports on 127.0.0.1, in order: P1-P2 a range, P3 above it. */
	for (size_t i = P1; i <= P3; i++)
		if (listen_on(AF_INET, "127.0.0.1", &srvs[i]))
			return 1;
	qsort(srvs, 3, sizeof(srvs[0]), cmp_srv);
	if (listen_on(AF_INET, "127.0.0.2", &srvs[P5_LOOP2]))
		return 1;
	v6 = listen_outside(AF_INET6, "::1", &srvs[P4_V6], srvs[P1].port, srvs[P2].port) == 0;
	if (!v6) {
		/* No IPv6 here: a port for the rule all the same, on IPv4. */
		printf("# no IPv6 loopback: the IPv6 checks are skipped\n");
		if (listen_outside(AF_INET, "127.0.0.1", &srvs[P4_V6], srvs[P1].port,
				   srvs[P2].port))
			return 1;
	}
	if (pthread_create(&t, NULL, srv_main, NULL))
		return 1;
	test_rules(argv[1], dir, self, v6, &r);
	test_default_deny(argv[1], dir, self, &r);
	test_no_file(argv[1], dir, self, v6, &r);
	test_malformed(argv[1], dir, &r);
	atomic_store(&srv_stop, true);
	pthread_join(t, NULL);
	printf("%d failed\n", failures);
	return failures ? 1 : 0;
}
