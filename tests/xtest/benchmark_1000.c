/*
 * benchmark 1xxx: trusted storage, as OP-TEE's benchmark_1000 measures it:
 * objects of 256 B to 1 MiB written (1001), read (1002) and rewritten in
 * place (1003, read a chunk, seek back, write it) in 1 KiB chunks, each
 * whole operation in one invoke of the storage TA. The time is taken here
 * with CLOCK_MONOTONIC (microseconds; OP-TEE's TA timer has milliseconds)
 * and includes that one invoke. Every write is durable when it returns.
 * The table is OP-TEE's: Data Size (B) | Time (s) | Speed (kB/s), with
 * kB = 1024 bytes. A benchmark case checks that the calls succeed, never
 * how fast they are.
 */
#include <stdio.h>

#include <tee_api_defines.h>

#include "adbg.h"
#include "ta_storage.h"
#include "xtest_helpers.h"
#include "xtest_stats.h"

#define CHUNK 1024

static const uint32_t sizes[] = {256, 512, 1024, 2048, 4096, 16384, 524288, 1048576};

static TEEC_Result bench_op(TEEC_Session *s, uint32_t op, uint32_t size, double *us)
{
	TEEC_Operation o = TEEC_OPERATION_INITIALIZER;
	struct timespec t0;
	struct timespec t1;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	o.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE);
	o.params[0].value.a = op;
	o.params[0].value.b = TEE_STORAGE_PRIVATE;
	o.params[1].value.a = size;
	o.params[1].value.b = CHUNK;
	xtest_monotonic_now(&t0);
	res = TEEC_InvokeCommand(s, TA_STORAGE_CMD_BENCH, &o, &orig);
	xtest_monotonic_now(&t1);
	if (us)
		*us = xtest_timespec_diff_us(&t0, &t1);
	return res;
}

static void run(ADBG_Case_t *c, uint32_t op, const char *what)
{
	const TEEC_UUID uuid = TA_STORAGE_UUID;
	TEEC_Session s = {0};
	uint32_t orig = 0;
	char name[48];

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &uuid, NULL, &orig)))
		return;
	Do_ADBG_Log("%s, %d B chunks, durable writes", what, CHUNK);
	Do_ADBG_Log(" Data Size (B) | Time (s) | Speed (kB/s)");
	Do_ADBG_Log("---------------+----------+-------------");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		double us = 0;

		/* Reads and rewrites need the object first; that is not timed. */
		if (op != TA_STORAGE_BENCH_WRITE &&
		    !ADBG_EXPECT_TEEC_SUCCESS(c,
					      bench_op(&s, TA_STORAGE_BENCH_WRITE, sizes[i], NULL)))
			break;
		if (!ADBG_EXPECT_TEEC_SUCCESS(c, bench_op(&s, op, sizes[i], &us)))
			break;
		Do_ADBG_Log(" %13u | %8.6f | %12.3f", sizes[i], us / 1e6,
			    us > 0 ? sizes[i] / 1024.0 / (us / 1e6) : 0.0);
		snprintf(name, sizeof(name), "size_%u.time", sizes[i]);
		xtest_report_figure(name, "us", us);
		snprintf(name, sizeof(name), "size_%u.speed", sizes[i]);
		xtest_report_figure(name, "kB/s", us > 0 ? sizes[i] / 1024.0 / (us / 1e6) : 0.0);
		ADBG_EXPECT_TEEC_SUCCESS(c, bench_op(&s, TA_STORAGE_BENCH_DELETE, 0, NULL));
	}
	TEEC_CloseSession(&s);
}

static void xtest_tee_benchmark_1001(ADBG_Case_t *c)
{
	run(c, TA_STORAGE_BENCH_WRITE, "write");
}
ADBG_CASE_DEFINE(benchmark, 1001, xtest_tee_benchmark_1001,
		 "TEE Trusted Storage Performance Test (WRITE)");

static void xtest_tee_benchmark_1002(ADBG_Case_t *c)
{
	run(c, TA_STORAGE_BENCH_READ, "read");
}
ADBG_CASE_DEFINE(benchmark, 1002, xtest_tee_benchmark_1002,
		 "TEE Trusted Storage Performance Test (READ)");

static void xtest_tee_benchmark_1003(ADBG_Case_t *c)
{
	run(c, TA_STORAGE_BENCH_REWRITE, "rewrite");
}
ADBG_CASE_DEFINE(benchmark, 1003, xtest_tee_benchmark_1003,
		 "TEE Trusted Storage Performance Test (REWRITE)");
