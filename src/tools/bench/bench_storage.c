/*
 * swtee bench group "storage": trusted storage through the storage test TA
 * against plain files on the same file system (the state directory's ree/,
 * where the supplicant keeps the TEE's files), measured in the same run:
 *
 *   write_1k_chunks    1 MiB in 1 KiB writes, each durable when it returns,
 *                      against pwrite + fdatasync of the same pattern
 *   rewrite_1k_chunks  the same object read, then rewritten, chunk by chunk
 *                      (the TA reads each chunk, seeks back, writes it),
 *                      against the same baseline
 *   read_1k_chunks     the cost of one 1 KiB read from inside the TA against
 *                      the no-op invoke round trip of this run
 *   write_1m_chunks    256 MiB in 1 MiB durable writes against pwrite +
 *                      fdatasync, and the peak RSS of the core meanwhile
 *
 * Each TEE sample is one invoke in which the TA does the whole object
 * (TA_STORAGE_CMD_BENCH), as OP-TEE's storage benchmark does; figures are
 * per chunk, or per MiB for write_1m_chunks. Each block of samples opens a
 * session of its own (a new TA instance), like the invoke baseline's. A
 * write sample makes a new object, as the baseline's a new file: the old
 * one is removed first, untimed, on both sides.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tee_api_defines.h>

#include "bench.h"
#include "bench_text.h"
#include "ta_storage.h"

#define SMALL_SIZE (1024u * 1024)
#define SMALL_CHUNK 1024u
#define BIG_SIZE (256u * 1024 * 1024)
#define BIG_CHUNK (1024u * 1024)
#define TARGET_SMALL 2.0
#define TARGET_READ 2.0
#define TARGET_BIG 1.5
/* How long the 256 MiB cases let the disk settle before each sample (storage_arg). */
#define SETTLE_US 300000u

struct storage_arg {
	TEEC_Context *teec; /* TEE side: a session of its own for each block */
	uint32_t op;
	uint32_t size;
	uint32_t chunk;
	char path[4096]; /* the raw side's file */
	uint8_t *buf;
	/*
	 * A pause before each sample, after the old file or object went: the
	 * disk is then done with what that freed (the file system may discard
	 * the blocks, and the supplicant unlinks large files in the background)
	 * and the sample times only its own writes.
	 */
	unsigned int settle_us;
};

static TEEC_Result bench_op(TEEC_Session *sess, uint32_t op, uint32_t size, uint32_t chunk)
{
	TEEC_Operation o;
	uint32_t origin = 0;

	memset(&o, 0, sizeof(o));
	o.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE);
	o.params[0].value.a = op;
	o.params[0].value.b = TEE_STORAGE_PRIVATE;
	o.params[1].value.a = size;
	o.params[1].value.b = chunk;
	return TEEC_InvokeCommand(sess, TA_STORAGE_CMD_BENCH, &o, &origin);
}

/*
 * n samples of the TA doing a->op on a->size bytes; per chunk (or MiB) in
 * us. Each block (call) talks to a TA instance of its own, as the invoke
 * baseline's blocks do: the TA and the core's storage worker then land on
 * new CPUs each block, and the best block is the TEE at its best placement.
 */
static int tee_loop(void *arg, size_t n, struct bench_samples *s)
{
	static const TEEC_UUID uuid = TA_STORAGE_UUID;
	struct storage_arg *a = arg;
	double per = a->size / (double)a->chunk;
	TEEC_Session sess;
	uint32_t origin = 0;
	TEEC_Result res =
	    TEEC_OpenSession(a->teec, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);

	if (res) {
		fprintf(stderr, "swtee bench: storage TA: open session: TEEC error 0x%08x\n", res);
		return -1;
	}
	for (size_t i = 0; i < n && !res; i++) {
		double t0 = 0;

		/* A write makes a new object, as the baseline a new file: the old goes first. */
		if (a->op == TA_STORAGE_BENCH_WRITE) {
			res = bench_op(&sess, TA_STORAGE_BENCH_DELETE, 0, a->chunk);
			if (res == TEEC_ERROR_ITEM_NOT_FOUND)
				res = TEEC_SUCCESS;
		}
		if (a->settle_us)
			usleep(a->settle_us);
		t0 = bench_now_us();
		if (!res)
			res = bench_op(&sess, a->op, a->size, a->chunk);
		if (res)
			fprintf(stderr, "swtee bench: storage TA: TEEC error 0x%08x\n", res);
		else
			bench_samples_add(s, (bench_now_us() - t0) / per);
	}
	TEEC_CloseSession(&sess);
	return res ? -1 : 0;
}

/* n samples of the same pattern with pwrite and fdatasync on a file of its own. */
static int raw_loop(void *arg, size_t n, struct bench_samples *s)
{
	struct storage_arg *a = arg;
	double per = a->size / (double)a->chunk;

	for (size_t i = 0; i < n; i++) {
		double t0 = 0;
		int fd = -1;
		bool ok = false;

		/* A new file each time, its creation timed, as the TEE side's new object. */
		if (unlink(a->path) && errno != ENOENT) {
			fprintf(stderr, "swtee bench: %s: %s\n", a->path, strerror(errno));
			return -1;
		}
		if (a->settle_us)
			usleep(a->settle_us);
		t0 = bench_now_us();
		fd = open(a->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		ok = fd >= 0;
		for (uint32_t off = 0; ok && off < a->size; off += a->chunk) {
			ok = pwrite(fd, a->buf, a->chunk, off) == (ssize_t)a->chunk &&
			     !fdatasync(fd);
		}
		if (ok)
			bench_samples_add(s, (bench_now_us() - t0) / per);
		if (fd >= 0)
			close(fd);
		if (!ok) {
			fprintf(stderr, "swtee bench: %s: %s\n", a->path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* The core's pid: the peer of the context's socket. */
static pid_t core_pid(TEEC_Context *teec)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(teec->imp.fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return 0;
	return cred.pid;
}

/* VmHWM of pid in KiB (0 when unknown); reset clears it for the next reading. */
static double peak_rss_kib(pid_t pid, bool reset)
{
	char path[64];
	char line[256];
	unsigned long v = 0;
	FILE *f = NULL;

	if (pid <= 0)
		return 0;
	if (reset) {
		bench_text(path, sizeof(path), "/proc/%d/clear_refs", (int)pid);
		f = fopen(path, "we");
		if (f) {
			fputs("5", f);
			fclose(f);
		}
		return 0;
	}
	bench_text(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %lu kB", &v) == 1)
			break;
	fclose(f);
	return (double)v;
}

static int storage_case(struct bench_ctx *ctx, const char *name, struct storage_arg *tee,
			bench_loop_fn base, void *base_arg, const char *base_name,
			size_t iterations, double target)
{
	struct bench_pair p = {
	    .name = name,
	    .run = tee_loop,
	    .arg = tee,
	    .baseline_name = base_name,
	    .baseline = base,
	    .baseline_arg = base_arg,
	    .iterations = iterations,
	    .warmup = 1,
	    .blocks = iterations < 4 ? iterations : 4,
	    .target = target,
	};

	return bench_compare(ctx, &p);
}

static int bench_storage_run(struct bench_ctx *ctx)
{
	static const TEEC_UUID uuid = TA_STORAGE_UUID;
	TEEC_Context *teec = bench_teec(ctx);
	const char *state = getenv("SWTEE_STATE_DIR");
	struct storage_arg *tee = calloc(1, sizeof(*tee));
	struct storage_arg *raw = calloc(1, sizeof(*raw));
	TEEC_Session sess;
	struct bench_result rss;
	bool quick = bench_quick(ctx);
	size_t iters = bench_iterations(ctx, quick ? 2 : 8);
	uint32_t origin = 0;
	pid_t core = core_pid(teec);
	int ret = -1;

	memset(&rss, 0, sizeof(rss));
	if (!tee || !raw)
		goto out;
	if (!state || !*state) {
		ret = bench_skip(ctx, "needs SWTEE_STATE_DIR (run it under swtee run) to put "
				      "the baseline's files beside the TEE's");
		goto out;
	}
	if (TEEC_OpenSession(teec, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin)) {
		ret = bench_skip(ctx, "the storage test TA is not in the TA path");
		goto out;
	}
	tee->teec = teec;
	raw->buf = malloc(BIG_CHUNK);
	if (!raw->buf || !bench_fmt(raw->path, sizeof(raw->path), "%s/ree/bench-raw.tmp", state))
		goto close;
	memset(raw->buf, 0x5a, BIG_CHUNK);

	/* 1 KiB chunks: write, rewrite, read. */
	tee->size = raw->size = SMALL_SIZE;
	tee->chunk = raw->chunk = SMALL_CHUNK;
	tee->op = TA_STORAGE_BENCH_WRITE;
	if (storage_case(ctx, "write_1k_chunks", tee, raw_loop, raw, "pwrite_fdatasync_1k", iters,
			 TARGET_SMALL))
		goto close;
	tee->op = TA_STORAGE_BENCH_REWRITE;
	if (storage_case(ctx, "rewrite_1k_chunks", tee, raw_loop, raw, "pwrite_fdatasync_1k", iters,
			 TARGET_SMALL))
		goto close;
	tee->op = TA_STORAGE_BENCH_READ;
	if (storage_case(ctx, "read_1k_chunks", tee, bench_invoke_nop_loop, teec,
			 "invoke_nop_round_trip", iters * 4, TARGET_READ))
		goto close;

	/* 1 MiB chunks, 256 MiB: bounded memory in the core. */
	tee->size = raw->size = quick ? BIG_SIZE / 8 : BIG_SIZE;
	tee->chunk = raw->chunk = BIG_CHUNK;
	tee->op = TA_STORAGE_BENCH_WRITE;
	tee->settle_us = raw->settle_us = SETTLE_US;
	peak_rss_kib(core, true);
	if (storage_case(ctx, "write_1m_chunks", tee, raw_loop, raw, "pwrite_fdatasync_1m",
			 quick ? 2 : 3, TARGET_BIG))
		goto close;
	bench_text(rss.name, sizeof(rss.name), "write_1m_chunks.core_peak_rss");
	bench_text(rss.unit, sizeof(rss.unit), "KiB");
	rss.value = peak_rss_kib(core, false);
	if (rss.value <= 0)
		rss.value = NAN;
	if (bench_report(ctx, &rss))
		goto close;
	bench_op(&sess, TA_STORAGE_BENCH_DELETE, 0, BIG_CHUNK);
	ret = 0;
close:
	unlink(raw->path);
	TEEC_CloseSession(&sess);
out:
	if (raw)
		free(raw->buf);
	free(raw);
	free(tee);
	return ret;
}

static const struct bench_group bench_storage_group = {
    .name = "storage",
    .help = "trusted storage writes, rewrites and reads against plain durable file I/O",
    .order = 60,
    .run = bench_storage_run,
    .cases = 5,
    .seconds = 60,
};
BENCH_GROUP_DEFINE(bench_storage_group);
