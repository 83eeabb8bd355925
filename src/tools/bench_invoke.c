/*
 * swtee bench groups "invoke" and "session": a no-op invoke against a raw
 * Unix socket round trip between two processes, and a session that creates
 * a TA instance against spawning a process that does nothing.
 */
#include <errno.h>
#include <spawn.h>
#include <stdbool.h>
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
/*
 * The scheduler keeps a pair of processes that talk on the CPUs where it
 * first put them, and on a VM a round trip across CPUs costs ten times one
 * on a CPU (the idle vCPU must be woken). So every invoke block talks to a
 * new TA instance and every ping-pong block to a new child: with many
 * blocks each side gets its best placement at least once (bench_compare).
 */
#define INVOKE_BLOCKS 40
/* A session is a new instance every time already, a spawn a new process. */
#define SESSION_BLOCKS 10
/* Untimed round trips at the start of a block, so the new partner's pages are in. */
#define BLOCK_PRIME 32

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

/* One no-op invoke, with an operation filled as a client fills it. */
static TEEC_Result invoke_nop(TEEC_Session *sess, uint32_t *origin)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	return TEEC_InvokeCommand(sess, TA_BASIC_CMD_NOP, &op, origin);
}

/* n timed no-op invokes on a session, and so a TA instance, of the block's own. */
int bench_invoke_nop_loop(void *arg, size_t n, struct bench_samples *s)
{
	TEEC_Context *teec = arg;
	TEEC_Session sess;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	bool sess_open = false;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;
	int ret = -1;

	res = bench_open_basic(teec, &sess, &origin);
	if (res != TEEC_SUCCESS) {
		bench_teec_error("opening a session to the basic test TA", res, origin);
		goto out;
	}
	sess_open = true;
	for (i = 0; i < BLOCK_PRIME; i++) {
		res = invoke_nop(&sess, &origin);
		if (res != TEEC_SUCCESS)
			goto invoke_error;
	}
	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		res = invoke_nop(&sess, &origin);
		t1 = bench_now_us();
		if (res != TEEC_SUCCESS)
			goto invoke_error;
		if (bench_samples_add(s, t1 - t0))
			goto out;
	}
	ret = 0;
	goto out;
invoke_error:
	bench_teec_error("no-op invoke", res, origin);
out:
	if (sess_open)
		TEEC_CloseSession(&sess);
	return ret;
}

/* The baseline's other end: a child that answers every request with its first bytes. */
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

/* One request and its reply; 0, or -1 after saying why. */
static int pingpong_once(int fd, uint8_t tag)
{
	uint8_t out[PINGPONG_REQUEST] = {0};
	uint8_t in[PINGPONG_REQUEST];
	ssize_t got = 0;

	out[0] = tag;
	if (send(fd, out, sizeof(out), MSG_NOSIGNAL) != (ssize_t)sizeof(out))
		goto sys_error;
	got = recv(fd, in, sizeof(in), 0);
	if (got < 0)
		goto sys_error;
	if (got != PINGPONG_REPLY || in[0] != tag) {
		fprintf(stderr, "swtee bench: socketpair ping-pong: wrong reply\n");
		return -1;
	}
	return 0;
sys_error:
	fprintf(stderr, "swtee bench: socketpair ping-pong: %s\n", strerror(errno));
	return -1;
}

/* n timed round trips to an echo child of the block's own. */
int bench_pingpong_loop(void *arg, size_t n, struct bench_samples *s)
{
	int sv[2] = {-1, -1};
	pid_t child = -1;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;
	int ret = -1;

	(void)arg;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		fprintf(stderr, "swtee bench: socketpair: %s\n", strerror(errno));
		goto out;
	}
	child = fork();
	if (child < 0) {
		fprintf(stderr, "swtee bench: fork: %s\n", strerror(errno));
		goto out;
	}
	if (child == 0) {
		/* Hold nothing of the parent's (the TEE's sockets) but stdio and the echo socket.
		 */
		close(sv[0]);
		if (sv[1] > 3)
			close_range(3, (unsigned int)sv[1] - 1, 0);
		close_range((unsigned int)sv[1] + 1, ~0U, 0);
		pingpong_echo(sv[1]);
	}
	close(sv[1]);
	sv[1] = -1;

	for (i = 0; i < BLOCK_PRIME; i++)
		if (pingpong_once(sv[0], (uint8_t)i))
			goto out;
	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		if (pingpong_once(sv[0], (uint8_t)i))
			goto out;
		t1 = bench_now_us();
		if (bench_samples_add(s, t1 - t0))
			goto out;
	}
	ret = 0;
out:
	/* The child sees the end of the stream and exits. */
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	if (child > 0)
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
	return ret;
}

static int bench_invoke_run(struct bench_ctx *ctx)
{
	size_t n = bench_iterations(ctx, INVOKE_ITERATIONS);

	return bench_compare(ctx, &(struct bench_pair){
				      .name = "invoke",
				      .run = bench_invoke_nop_loop,
				      .arg = bench_teec(ctx),
				      .baseline_name = "socketpair_pingpong",
				      .baseline = bench_pingpong_loop,
				      .baseline_arg = NULL,
				      .iterations = n,
				      .warmup = n / 10,
				      .blocks = INVOKE_BLOCKS,
				      .target = 1.5,
				  });
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
				      .blocks = SESSION_BLOCKS,
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
