/*
 * swtee bench groups "invoke" and "session": a no-op invoke against a raw
 * Unix socket round trip between two processes, and a session that creates
 * a TA instance against spawning a process that does nothing.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "ta_basic.h"

#define INVOKE_ITERATIONS 20000
#define SESSION_ITERATIONS 2000
/* The sizes of libteec's no-op invoke request and of the TA's reply on the wire. */
#define PINGPONG_REQUEST 116
#define PINGPONG_REPLY 76

extern char **environ;

static const TEEC_UUID bench_basic_uuid = TA_BASIC_UUID;

static void bench_teec_error(const char *what, TEEC_Result res, uint32_t origin)
{
	fprintf(stderr, "swtee bench: %s: TEEC error 0x%08x (origin %u)%s\n", what, res, origin,
		res == TEEC_ERROR_ITEM_NOT_FOUND
		    ? "; the basic test TA is built with swtee's tests, is it in the TA path?"
		    : "");
}

static TEEC_Result bench_open_basic(TEEC_Context *teec, TEEC_Session *sess, uint32_t *origin)
{
	return TEEC_OpenSession(teec, sess, &bench_basic_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
				origin);
}

/* ---- invoke ---- */

static int invoke_loop(void *arg, size_t n, struct bench_samples *s)
{
	TEEC_Session *sess = arg;
	TEEC_Operation op;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;

	for (i = 0; i < n; i++) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		t0 = bench_now_us();
		res = TEEC_InvokeCommand(sess, TA_BASIC_CMD_NOP, &op, &origin);
		t1 = bench_now_us();
		if (res != TEEC_SUCCESS) {
			bench_teec_error("no-op invoke", res, origin);
			return -1;
		}
		if (bench_samples_add(s, t1 - t0))
			return -1;
	}
	return 0;
}

/* The baseline: a request and a reply between this process and a child. */
struct pingpong {
	int fd;
	pid_t child;
};

/* The other end of the baseline: answers every request with its first bytes. */
static void __attribute__((noreturn)) pingpong_echo(int fd)
{
	uint8_t buf[PINGPONG_REQUEST];
	ssize_t n = 0;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(n < 0);
		if (send(fd, buf, PINGPONG_REPLY, MSG_NOSIGNAL) != PINGPONG_REPLY)
			_exit(1);
	}
}

static void pingpong_stop(struct pingpong *pp)
{
	if (pp->fd >= 0)
		close(pp->fd);
	pp->fd = -1;
	/* The child sees the end of the stream and exits. */
	if (pp->child > 0)
		while (waitpid(pp->child, NULL, 0) < 0 && errno == EINTR)
			;
	pp->child = -1;
}

static int pingpong_start(struct pingpong *pp)
{
	int sv[2] = {-1, -1};
	int ret = -1;

	pp->fd = -1;
	pp->child = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		fprintf(stderr, "swtee bench: socketpair: %s\n", strerror(errno));
		goto out;
	}
	pp->child = fork();
	if (pp->child < 0) {
		fprintf(stderr, "swtee bench: fork: %s\n", strerror(errno));
		goto out;
	}
	if (pp->child == 0) {
		/* Hold nothing of the parent's but the echo socket (and stdio). */
		close(sv[0]);
		if (sv[1] > 3)
			close_range(3, (unsigned int)sv[1] - 1, 0);
		close_range((unsigned int)sv[1] + 1, ~0U, 0);
		pingpong_echo(sv[1]);
	}
	pp->fd = sv[0];
	sv[0] = -1; /* transferred */
	ret = 0;
out:
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	if (ret)
		pingpong_stop(pp);
	return ret;
}

static int pingpong_loop(void *arg, size_t n, struct bench_samples *s)
{
	struct pingpong *pp = arg;
	uint8_t out[PINGPONG_REQUEST] = {0};
	uint8_t in[PINGPONG_REQUEST];
	ssize_t sent = 0;
	ssize_t got = 0;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;

	for (i = 0; i < n; i++) {
		out[0] = (uint8_t)i;
		t0 = bench_now_us();
		sent = send(pp->fd, out, sizeof(out), MSG_NOSIGNAL);
		got = sent == (ssize_t)sizeof(out) ? recv(pp->fd, in, sizeof(in), 0) : -1;
		t1 = bench_now_us();
		if (sent != (ssize_t)sizeof(out) || got < 0) {
			fprintf(stderr, "swtee bench: socketpair ping-pong: %s\n", strerror(errno));
			return -1;
		}
		if (got != PINGPONG_REPLY || in[0] != out[0]) {
			fprintf(stderr, "swtee bench: socketpair ping-pong: wrong reply\n");
			return -1;
		}
		if (bench_samples_add(s, t1 - t0))
			return -1;
	}
	return 0;
}

static int bench_invoke_run(struct bench_ctx *ctx)
{
	struct pingpong pp = {.fd = -1, .child = -1};
	TEEC_Session sess;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	size_t n = bench_iterations(ctx, INVOKE_ITERATIONS);
	bool sess_open = false;
	int ret = -1;

	/* The echo child first, so that it holds no copy of the session's socket. */
	if (pingpong_start(&pp))
		goto out;
	res = bench_open_basic(bench_teec(ctx), &sess, &origin);
	if (res != TEEC_SUCCESS) {
		bench_teec_error("opening a session to the basic test TA", res, origin);
		goto out;
	}
	sess_open = true;

	ret = bench_compare(ctx, &(struct bench_pair){
				     .name = "invoke",
				     .run = invoke_loop,
				     .arg = &sess,
				     .baseline_name = "socketpair_pingpong",
				     .baseline = pingpong_loop,
				     .baseline_arg = &pp,
				     .iterations = n,
				     .warmup = n / 10,
				     .target = 1.5,
				 });
out:
	if (sess_open)
		TEEC_CloseSession(&sess);
	pingpong_stop(&pp);
	return ret;
}

static const struct bench_group bench_invoke_group = {
    .name = "invoke",
    .help = "no-op TEEC_InvokeCommand round trip vs. a socketpair ping-pong",
    .order = 10,
    .run = bench_invoke_run,
};
BENCH_GROUP_DEFINE(bench_invoke_group);

/* ---- session ---- */

static int session_loop(void *arg, size_t n, struct bench_samples *s)
{
	TEEC_Context *teec = arg;
	TEEC_Session sess;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;

	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		res = bench_open_basic(teec, &sess, &origin);
		if (res == TEEC_SUCCESS)
			TEEC_CloseSession(&sess);
		t1 = bench_now_us();
		if (res != TEEC_SUCCESS) {
			bench_teec_error("opening a session to the basic test TA", res, origin);
			return -1;
		}
		if (bench_samples_add(s, t1 - t0))
			return -1;
	}
	return 0;
}

static int spawn_loop(void *arg, size_t n, struct bench_samples *s)
{
	char *argv[] = {"true", NULL};
	pid_t pid = -1;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;
	int status = 0;
	int err = 0;

	(void)arg;
	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		err = posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ);
		if (err) {
			fprintf(stderr, "swtee bench: posix_spawn /bin/true: %s\n", strerror(err));
			return -1;
		}
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				fprintf(stderr, "swtee bench: waitpid: %s\n", strerror(errno));
				return -1;
			}
		}
		t1 = bench_now_us();
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "swtee bench: /bin/true did not exit with 0\n");
			return -1;
		}
		if (bench_samples_add(s, t1 - t0))
			return -1;
	}
	return 0;
}

static int bench_session_run(struct bench_ctx *ctx)
{
	size_t n = bench_iterations(ctx, SESSION_ITERATIONS);

	return bench_compare(ctx, &(struct bench_pair){
				      .name = "session_open_close",
				      .run = session_loop,
				      .arg = bench_teec(ctx),
				      .baseline_name = "posix_spawn_true",
				      .baseline = spawn_loop,
				      .baseline_arg = NULL,
				      .iterations = n,
				      .warmup = n / 10,
				      .target = 1.0,
				  });
}

static const struct bench_group bench_session_group = {
    .name = "session",
    .help = "open + close of a session to a new TA instance vs. posix_spawn /bin/true",
    .order = 20,
    .run = bench_session_run,
};
BENCH_GROUP_DEFINE(bench_session_group);
