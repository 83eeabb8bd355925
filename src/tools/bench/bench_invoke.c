/*
 * swtee bench groups "invoke" and "session": a no-op invoke against a raw
 * Unix socket round trip between two processes, every way a client hands a
 * TA a buffer against the no-op invoke, and a session that creates a TA
 * instance against spawning a process that does nothing.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bench_text.h"
#include "msg.h"
#include "ta_basic.h"

#define INVOKE_ITERATIONS 20000
/* Issue 19's targets: the no-op invoke over a socketpair round trip (best and p50). */
#define INVOKE_TARGET 1.2
/* Calls per side of each parameter shape, as issue 19 measured them; fewer at 1 MiB. */
#define SHAPE_ITERATIONS 3000
#define SHAPE_ITERATIONS_LARGE 1000
#define SHAPE_LARGE (1024 * 1024)
#define SHAPE_BLOCKS 20
/* Issue 19's targets for every shape up to 64 KiB, against the no-op invoke. */
#define SHAPE_TARGET_P50 1.5
#define SHAPE_TARGET_P90 2.0
#define SHAPE_TARGET_MAX_SIZE (64 * 1024)
#define SESSION_ITERATIONS 2000
/* Issue 19's target: a session's open and close over posix_spawn of /bin/true. */
#define SESSION_TARGET 0.6
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

/*
 * Waits for fd to be readable, awake for a while first as libteec and the
 * TA runtime do (msg_waiter_spin), when w is not NULL.
 */
static void pingpong_wait(int fd, struct msg_waiter *w)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	uint64_t start = msg_now_ns();

	if (!w)
		return;
	if (!msg_waiter_spin(w, &p, 1))
		while (poll(&p, 1, -1) < 0 && errno == EINTR)
			;
	w->last_ns = msg_now_ns() - start;
}

/* The baseline's other end: a child that answers every request with its first bytes. */
static void __attribute__((noreturn)) pingpong_echo(int fd, bool awake)
{
	uint8_t buf[PINGPONG_REQUEST];
	struct msg_backoff b = {0};
	struct msg_waiter w = {.cap_ns = MSG_SPIN_REQUEST_CAP_NS, .backoff = &b};
	ssize_t n = 0;

	for (;;) {
		pingpong_wait(fd, awake ? &w : NULL);
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
static int pingpong_once(int fd, uint8_t tag, struct msg_waiter *w)
{
	uint8_t out[PINGPONG_REQUEST] = {0};
	uint8_t in[PINGPONG_REQUEST];
	ssize_t got = 0;

	out[0] = tag;
	if (send(fd, out, sizeof(out), MSG_NOSIGNAL) != (ssize_t)sizeof(out))
		goto sys_error;
	pingpong_wait(fd, w);
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

/*
 * n timed round trips to an echo child of the block's own; with arg
 * non-NULL (the awake ping-pong), both ends wait as swtee's do.
 */
int bench_pingpong_loop(void *arg, size_t n, struct bench_samples *s)
{
	bool awake = arg != NULL;
	static struct msg_backoff b; /* the process's, as libteec's */
	struct msg_waiter w = {.cap_ns = MSG_SPIN_REPLY_CAP_NS, .backoff = &b};
	int sv[2] = {-1, -1};
	pid_t child = -1;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;
	int ret = -1;

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
		pingpong_echo(sv[1], awake);
	}
	close(sv[1]);
	sv[1] = -1;

	for (i = 0; i < BLOCK_PRIME; i++)
		if (pingpong_once(sv[0], (uint8_t)i, awake ? &w : NULL))
			goto out;
	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		if (pingpong_once(sv[0], (uint8_t)i, awake ? &w : NULL))
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

/* ---- parameter shapes ---- */

/* The ways a client hands the TA one buffer, as issue 19's table lists them. */
enum shape {
	SHAPE_TMPREF,	     /* a temporary memref of client memory */
	SHAPE_SHM_ONCE,	     /* TEEC_AllocateSharedMemory once, passed whole */
	SHAPE_ALLOC_CALL,    /* Allocate + invoke + Release on every call */
	SHAPE_REGISTER_CALL, /* Register + invoke + Release on every call */
	SHAPE_PARTIAL_ONCE,  /* TEEC_RegisterSharedMemory once, a partial memref */
	SHAPE_COUNT,
};

static const char *const shape_names[SHAPE_COUNT] = {
    [SHAPE_TMPREF] = "invoke_tmpref",
    [SHAPE_SHM_ONCE] = "invoke_shm_once",
    [SHAPE_ALLOC_CALL] = "invoke_shm_alloc_call",
    [SHAPE_REGISTER_CALL] = "invoke_shm_register_call",
    [SHAPE_PARTIAL_ONCE] = "invoke_shm_partial_once",
};

static const struct {
	size_t size;
	const char *tag; /* the case name's size token (bench_plot_sweep_name) */
} shape_sizes[] = {
    {32, "32"},
    {4 * 1024, "4k"},
    {64 * 1024, "64k"},
    {SHAPE_LARGE, "1m"},
};

#define SHAPE_NSIZES (sizeof(shape_sizes) / sizeof(shape_sizes[0]))

struct shape_arg {
	TEEC_Context *teec;
	enum shape shape;
	size_t size;
	uint8_t *buf; /* size bytes of client memory: temporary and registered shapes */
};

/* A buffer the client owns, shared for as long as a block runs, or per call. */
static TEEC_Result shape_shm_get(const struct shape_arg *a, TEEC_SharedMemory *shm, bool registered)
{
	memset(shm, 0, sizeof(*shm));
	shm->size = a->size;
	shm->flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	if (!registered)
		return TEEC_AllocateSharedMemory(a->teec, shm);
	shm->buffer = a->buf;
	return TEEC_RegisterSharedMemory(a->teec, shm);
}

/* One call of the shape; once is the block's shared memory when the shape keeps one. */
static TEEC_Result shape_call(const struct shape_arg *a, TEEC_Session *sess,
			      TEEC_SharedMemory *once, uint32_t *origin)
{
	TEEC_SharedMemory shm;
	TEEC_Operation op;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t t0 = TEEC_MEMREF_WHOLE;

	memset(&op, 0, sizeof(op));
	switch (a->shape) {
	case SHAPE_TMPREF:
		t0 = TEEC_MEMREF_TEMP_INOUT;
		op.params[0].tmpref.buffer = a->buf;
		op.params[0].tmpref.size = a->size;
		break;
	case SHAPE_SHM_ONCE:
		op.params[0].memref.parent = once;
		break;
	case SHAPE_PARTIAL_ONCE:
		t0 = TEEC_MEMREF_PARTIAL_INOUT;
		op.params[0].memref.parent = once;
		op.params[0].memref.size = a->size;
		break;
	case SHAPE_ALLOC_CALL:
	case SHAPE_REGISTER_CALL:
		*origin = TEEC_ORIGIN_API;
		res = shape_shm_get(a, &shm, a->shape == SHAPE_REGISTER_CALL);
		if (res)
			return res;
		if (a->shape == SHAPE_ALLOC_CALL)
			((uint8_t *)shm.buffer)[0] = 1; /* what a client fills in */
		op.params[0].memref.parent = &shm;
		break;
	default:
		return TEEC_ERROR_BAD_PARAMETERS;
	}
	op.paramTypes = TEEC_PARAM_TYPES(t0, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(sess, TA_BASIC_CMD_TOUCH, &op, origin);
	if (a->shape == SHAPE_ALLOC_CALL || a->shape == SHAPE_REGISTER_CALL)
		TEEC_ReleaseSharedMemory(&shm);
	return res;
}

/* n timed calls of one shape on a session (and TA instance) of the block's own. */
static int shape_loop(void *arg, size_t n, struct bench_samples *s)
{
	const struct shape_arg *a = arg;
	TEEC_SharedMemory once;
	TEEC_Session sess;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	bool sess_open = false;
	bool once_live = false;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;
	int ret = -1;

	res = bench_open_basic(a->teec, &sess, &origin);
	if (res != TEEC_SUCCESS) {
		bench_teec_error("opening a session to the basic test TA", res, origin);
		goto out;
	}
	sess_open = true;
	if (a->shape == SHAPE_SHM_ONCE || a->shape == SHAPE_PARTIAL_ONCE) {
		origin = TEEC_ORIGIN_API;
		res = shape_shm_get(a, &once, a->shape == SHAPE_PARTIAL_ONCE);
		if (res)
			goto invoke_error;
		once_live = true;
	}
	for (i = 0; i < BLOCK_PRIME; i++) {
		res = shape_call(a, &sess, &once, &origin);
		if (res != TEEC_SUCCESS)
			goto invoke_error;
	}
	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		res = shape_call(a, &sess, &once, &origin);
		t1 = bench_now_us();
		if (res != TEEC_SUCCESS)
			goto invoke_error;
		if (bench_samples_add(s, t1 - t0))
			goto out;
	}
	ret = 0;
	goto out;
invoke_error:
	bench_teec_error(shape_names[a->shape], res, origin);
out:
	if (once_live)
		TEEC_ReleaseSharedMemory(&once);
	if (sess_open)
		TEEC_CloseSession(&sess);
	return ret;
}

/* Every shape at every size, each against the no-op invoke in the same run. */
static int bench_shapes_run(struct bench_ctx *ctx)
{
	struct shape_arg a = {.teec = bench_teec(ctx)};
	char name[BENCH_NAME_MAX];
	size_t k = 0;
	int ret = -1;

	a.buf = aligned_alloc(4096, SHAPE_LARGE);
	if (!a.buf) {
		fprintf(stderr, "swtee bench: out of memory\n");
		return -1;
	}
	memset(a.buf, 0x5a, SHAPE_LARGE);
	for (k = 0; k < SHAPE_NSIZES; k++) {
		size_t size = shape_sizes[k].size;
		size_t n = bench_iterations(ctx, size >= SHAPE_LARGE ? SHAPE_ITERATIONS_LARGE
								     : SHAPE_ITERATIONS);
		bool targeted = size <= SHAPE_TARGET_MAX_SIZE;

		for (a.shape = 0; a.shape < SHAPE_COUNT; a.shape++) {
			a.size = size;
			bench_text(name, sizeof(name), "%s/%s", shape_names[a.shape],
				   shape_sizes[k].tag);
			if (bench_compare(ctx, &(struct bench_pair){
						   .name = name,
						   .run = shape_loop,
						   .arg = &a,
						   .baseline_name = "invoke_nop",
						   .baseline = bench_invoke_nop_loop,
						   .baseline_arg = a.teec,
						   .iterations = n,
						   .warmup = n / 10,
						   .blocks = SHAPE_BLOCKS,
						   .target_p50 = targeted ? SHAPE_TARGET_P50 : 0,
						   .target_p90 = targeted ? SHAPE_TARGET_P90 : 0,
					       }))
				goto out;
		}
	}
	ret = 0;
out:
	free(a.buf);
	return ret;
}

static int bench_invoke_run(struct bench_ctx *ctx)
{
	static bool awake_pingpong = true;
	size_t n = bench_iterations(ctx, INVOKE_ITERATIONS);

	if (bench_compare(ctx, &(struct bench_pair){
				   .name = "invoke",
				   .run = bench_invoke_nop_loop,
				   .arg = bench_teec(ctx),
				   .baseline_name = "socketpair_pingpong",
				   .baseline = bench_pingpong_loop,
				   .baseline_arg = NULL,
				   .iterations = n,
				   .warmup = n / 10,
				   .blocks = INVOKE_BLOCKS,
				   .target = INVOKE_TARGET,
				   .target_p50 = INVOKE_TARGET,
			       }))
		return -1;
	/* The same, against a ping-pong whose ends wait awake as swtee's do: the path alone. */
	if (bench_compare(ctx, &(struct bench_pair){
				   .name = "invoke_awake",
				   .run = bench_invoke_nop_loop,
				   .arg = bench_teec(ctx),
				   .baseline_name = "socketpair_awake",
				   .baseline = bench_pingpong_loop,
				   .baseline_arg = &awake_pingpong,
				   .iterations = n / 4,
				   .warmup = n / 40,
				   .blocks = INVOKE_BLOCKS / 4,
			       }))
		return -1;
	return bench_shapes_run(ctx);
}

/* A time of the table, "-" when there is none. */
static void invoke_cell(char *out, size_t n, double v)
{
	if (isfinite(v))
		bench_text(out, n, "%.1f", v);
	else
		bench_text(out, n, "-");
}

/* Whether x meets the targets it carries: "ok", "over", or NULL without one. */
static const char *invoke_verdict(const struct bench_result *x, double r50, double r90)
{
	double best = x->has_baseline && x->baseline_value > 0 ? x->value / x->baseline_value : NAN;
	bool over = false;

	if (!x->has_target && !x->has_target_p50 && !x->has_target_p90)
		return NULL;
	over = (x->has_target && !(best <= x->target)) ||
	       (x->has_target_p50 && !(r50 <= x->target_p50)) ||
	       (x->has_target_p90 && !(r90 <= x->target_p90));
	return over ? "over" : "ok";
}

/*
 * The group's table: for each case, swtee's p50, p90 and best block, the
 * same of its baseline, the ratios and the verdict.
 */
static void invoke_table(FILE *f, const struct bench_result *const *r, size_t n)
{
	char cell[8][16];
	size_t i = 0;

	fprintf(f, "%-32s %8s %8s %8s  %-19s %8s %8s %8s  %5s %5s  %s\n", "case", "p50", "p90",
		"best", "baseline", "p50", "p90", "best", "x p50", "x p90", "verdict");
	for (i = 0; i < n; i++) {
		const struct bench_result *x = r[i];
		double r50 =
		    x->has_baseline_p50 && x->baseline_p50 > 0 ? x->p50 / x->baseline_p50 : NAN;
		double r90 =
		    x->has_baseline_p90 && x->baseline_p90 > 0 ? x->p90 / x->baseline_p90 : NAN;
		const char *verdict = invoke_verdict(x, r50, r90);

		invoke_cell(cell[0], sizeof(cell[0]), x->has_percentiles ? x->p50 : NAN);
		invoke_cell(cell[1], sizeof(cell[1]), x->has_percentiles ? x->p90 : NAN);
		invoke_cell(cell[2], sizeof(cell[2]), x->value);
		invoke_cell(cell[3], sizeof(cell[3]), x->has_baseline_p50 ? x->baseline_p50 : NAN);
		invoke_cell(cell[4], sizeof(cell[4]), x->has_baseline_p90 ? x->baseline_p90 : NAN);
		invoke_cell(cell[5], sizeof(cell[5]), x->has_baseline ? x->baseline_value : NAN);
		bench_text(cell[6], sizeof(cell[6]), isfinite(r50) ? "%.2f" : "-", r50);
		bench_text(cell[7], sizeof(cell[7]), isfinite(r90) ? "%.2f" : "-", r90);
		fprintf(f, "%-32s %8s %8s %8s  %-19s %8s %8s %8s  %5s %5s  %s\n", x->name, cell[0],
			cell[1], cell[2], x->has_baseline ? x->baseline_name : "-", cell[3],
			cell[4], cell[5], cell[6], cell[7], verdict ? verdict : "-");
	}
	fputs("\nTimes in us. p50, p90: over all samples, every CPU placement included;\n"
	      "best: the median of the best block. x p50, x p90: swtee's p50 and p90 over\n"
	      "the baseline's. invoke: the no-op invoke against a socketpair round trip\n"
	      "(target: best and x p50 <= 1.20); invoke_awake: the same against a round\n"
	      "trip whose ends wait awake a while first, as libteec and TAs do (the path's\n"
	      "own cost; no target). The other cases pass one 'inout' buffer\n"
	      "of the size their name ends with to a TA that increments its first byte,\n"
	      "against the no-op invoke of the same run (target up to 64k: x p50 <= 1.50,\n"
	      "x p90 <= 2.00).\n",
	      f);
}

static const struct bench_group bench_invoke_group = {
    .name = "invoke",
    .help = "no-op TEEC_InvokeCommand round trip vs. a socketpair ping-pong; every parameter "
	    "shape vs. the no-op invoke",
    .order = 10,
    .run = bench_invoke_run,
    .table = invoke_table,
    .cases = 1 + SHAPE_COUNT * SHAPE_NSIZES,
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
				      .target = SESSION_TARGET,
				  });
}

static const struct bench_group bench_session_group = {
    .name = "session",
    .help = "open + close of a session to a new TA instance vs. posix_spawn /bin/true",
    .order = 20,
    .run = bench_session_run,
};
BENCH_GROUP_DEFINE(bench_session_group);
