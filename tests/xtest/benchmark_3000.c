/*
 * benchmark 3xxx: the cost of the Client API's round trips, timed with
 * CLOCK_MONOTONIC and printed in OP-TEE's statistics format. A benchmark
 * case checks that the calls succeed, never how fast they are.
 */
#include <stdlib.h>

#include "adbg.h"
#include "ta_basic.h"
#include "xtest_helpers.h"
#include "xtest_stats.h"

#define BENCH_3001_INVOKES 5000
#define BENCH_3001_WARMUP_S 2

static int bench_double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;

	return (x > y) - (x < y);
}

static TEEC_Result invoke_nop(TEEC_Session *sess)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	return TEEC_InvokeCommand(sess, TA_BASIC_CMD_NOP, &op, &orig);
}

static void xtest_tee_benchmark_3001(ADBG_Case_t *c)
{
	const TEEC_UUID uuid = TA_BASIC_UUID;
	TEEC_Session sess = {0};
	struct xtest_stats st;
	struct timespec t0 = {0};
	struct timespec t1 = {0};
	double *us = NULL;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t orig = 0;
	size_t i = 0;

	xtest_stats_init(&st);
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&sess, &uuid, NULL, &orig)))
		return;
	us = calloc(BENCH_3001_INVOKES, sizeof(*us));
	if (!ADBG_EXPECT_NOT_NULL(c, us))
		goto out;

	/*
	 * Warm the path and let the CPU frequency settle; not timed. Only a
	 * failure is checked, so that the loops do not count as subtests.
	 */
	xtest_monotonic_now(&t0);
	do {
		res = invoke_nop(&sess);
		if (res != TEEC_SUCCESS) {
			ADBG_EXPECT_TEEC_SUCCESS(c, res);
			goto out;
		}
		xtest_monotonic_now(&t1);
	} while (xtest_timespec_diff_us(&t0, &t1) < BENCH_3001_WARMUP_S * 1e6);

	Do_ADBG_BeginSubCase(c, "%d no-op invokes", BENCH_3001_INVOKES);
	for (i = 0; i < BENCH_3001_INVOKES; i++) {
		xtest_monotonic_now(&t0);
		res = invoke_nop(&sess);
		xtest_monotonic_now(&t1);
		if (res != TEEC_SUCCESS) {
			ADBG_EXPECT_TEEC_SUCCESS(c, res);
			break;
		}
		us[i] = xtest_timespec_diff_us(&t0, &t1);
		xtest_stats_add(&st, us[i]);
	}
	ADBG_EXPECT_COMPARE_UNSIGNED(c, st.n, ==, BENCH_3001_INVOKES);
	if (st.n) {
		qsort(us, st.n, sizeof(*us), bench_double_cmp);
		xtest_stats_print(stdout, &st, 0, 0);
		xtest_stats_report("invoke", &st, 0);
		xtest_report_figure("invoke.median", "us",
				    st.n % 2 ? us[st.n / 2]
					     : (us[st.n / 2 - 1] + us[st.n / 2]) / 2);
	}
	Do_ADBG_EndSubCase(c, "%d no-op invokes", BENCH_3001_INVOKES);
out:
	free(us);
	TEEC_CloseSession(&sess);
}
ADBG_CASE_DEFINE(benchmark, 3001, xtest_tee_benchmark_3001,
		 "Invoke round trip (no-op TEEC_InvokeCommand)");
