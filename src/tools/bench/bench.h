/*
 * swtee bench: benchmark groups that measure the TEE against a baseline
 * measured in the same run.
 *
 * A group is one file that defines its cases and registers itself:
 *
 *	static int bench_crypto_run(struct bench_ctx *ctx)
 *	{
 *		...
 *		return bench_compare(ctx, &pair);
 *	}
 *
 *	static const struct bench_group bench_crypto_group = {
 *		.name = "crypto",
 *		.help = "AES and SHA through a TA against libcrypto in-process",
 *		.order = 40,
 *		.run = bench_crypto_run,
 *	};
 *	BENCH_GROUP_DEFINE(bench_crypto_group);
 *
 * The group lands in a link-time registry (the "bench_groups" section) and
 * every src/tools/bench/bench*.c file is built into swtee, so adding a group
 * needs no edit anywhere else. "swtee bench" without a group runs all
 * groups in ascending order, ties broken by name.
 *
 * A group that cannot run on this machine (a missing tool, a CPU without
 * the feature) says why with bench_skip and returns: it is listed as
 * skipped, with the reason, in the tables and the report, never faked.
 *
 * Reports (swtee bench --report DIR, bench_page.c) draw a case named
 * "<series>/<size>" or "<series>_<size>" (size in bytes, or with a k, K, m
 * or M suffix) as a point of the curve <series> over buffer sizes, once a
 * series has three sizes or more: name the cases of a size sweep so.
 */
#ifndef SWTEE_BENCH_H
#define SWTEE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <tee_client_api.h>

#define BENCH_NAME_MAX 64
#define BENCH_UNIT_MAX 16
#define BENCH_REASON_MAX 160
#define BENCH_QUANTILES 19

/*
 * swtee bench [GROUP...] [--json] [--iterations N] [--quick] [--report DIR]
 *	       [--xtest FILE]... [--guest] | --compare A.json B.json: the subcommand.
 */
int swtee_bench_main(int argc, char **argv);

/* The state of one "swtee bench" run; opaque to groups. */
struct bench_ctx;

struct bench_result;

struct bench_group {
	const char *name; /* what the command line selects: "invoke" */
	const char *help; /* one line for -h */
	int order;	  /* position in a run of all groups, ascending */
	/*
	 * Measures the group's cases and reports each with bench_report or
	 * bench_compare. Returns 0, or -1 after printing why to stderr; the
	 * cases it reported before failing are kept.
	 */
	int (*run)(struct bench_ctx *ctx);
	/*
	 * Optional: prints the group's results (n of them, in the order
	 * reported) as a table of its own. Without --json it replaces the
	 * group's rows in the common table and comes after it. In a run of
	 * every group (no GROUP named) it comes first, and the summary table
	 * that ends the run lists the group's rows as well.
	 */
	void (*table)(FILE *f, const struct bench_result *const *r, size_t n);
	/*
	 * Optional, for the progress line: how many cases run reports, and
	 * about how many seconds it takes at the default iterations on a
	 * 2-core VM. 0: not known.
	 */
	unsigned int cases;
	unsigned int seconds;
};

/*
 * Registers the struct bench_group named var. Only a pointer goes into the
 * section, so the entries stay packed whatever alignment the compiler picks
 * for the definition itself.
 */
#define BENCH_GROUP_DEFINE(var)                                                                    \
	static const struct bench_group *const bench_group_ptr_##var                               \
	    __attribute__((section("bench_groups"), used, aligned(sizeof(void *)))) = &var

/*
 * One measured case, as it is printed. A baseline, percentiles, a target
 * ratio and a target value are each optional (has_*). The report computes
 * the cost ratio: value / baseline_value, or the inverse when
 * higher_is_better (throughputs), so that 1.0 is as cheap as the baseline
 * and lower is better whatever the unit.
 */
struct bench_result {
	char name[BENCH_NAME_MAX];
	char unit[BENCH_UNIT_MAX]; /* "us", "KiB", "MiB/s" */
	double value;
	bool higher_is_better;
	const char *statistic; /* static; how value was taken from samples, NULL: a reading */
	size_t iterations;     /* samples behind value; 0 for a reading */
	size_t blocks;	       /* blocks the samples were taken in; 0 when not told */
	bool has_percentiles;
	double p50, p90, p99; /* over all samples, in unit */
	bool has_baseline;
	char baseline_name[BENCH_NAME_MAX];
	double baseline_value; /* taken as value was, in unit */
	bool has_baseline_p50;
	double baseline_p50; /* over all of the baseline's samples, in unit */
	bool has_baseline_p90;
	double baseline_p90; /* the same at the 90th percentile */
	bool has_target;
	double target; /* the highest acceptable cost ratio */
	/*
	 * Optional: the highest acceptable p50 over baseline_p50 and p90 over
	 * baseline_p90 (bench_p50_ratio, bench_p90_ratio); the verdict is "ok"
	 * only when every target the result carries is met.
	 */
	bool has_target_p50;
	double target_p50;
	bool has_target_p90;
	double target_p90;
	bool has_target_value;
	double target_value;		    /* the worst acceptable value, in unit */
	bool skipped;			    /* not measured; value is NAN */
	char skip_reason[BENCH_REASON_MAX]; /* why, for the report */
	/*
	 * Optional: how far value may move from run to run, relative to it
	 * (0.03: 3%). bench_measure sets it from the spread of its blocks;
	 * swtee bench --compare widens its noise band to it.
	 */
	bool has_spread;
	double spread;
	/*
	 * Optional: the distribution of all samples of each side at the
	 * percentiles bench_quantile_points lists, in quantiles_unit
	 * (bench_measure: "us" per iteration, which stays right when a group
	 * turns value into another unit); reports draw it as a latency
	 * distribution. A side without samples has NAN.
	 */
	bool has_quantiles;
	char quantiles_unit[BENCH_UNIT_MAX];
	double quantiles[BENCH_QUANTILES];
	double baseline_quantiles[BENCH_QUANTILES];
};

/* The percentiles (0..100) of bench_result.quantiles, ascending. */
extern const double bench_quantile_points[BENCH_QUANTILES];

/*
 * Adds a copy of r to the run's results under the running group's name.
 * Returns 0, or -1 when out of memory (after saying so on stderr).
 */
int bench_report(struct bench_ctx *ctx, const struct bench_result *r);

/* The run's context to the TEE, initialised before any group runs. */
TEEC_Context *bench_teec(struct bench_ctx *ctx);

/*
 * The --iterations count; else def, or a tenth of it (at least 1) under
 * --quick.
 */
size_t bench_iterations(const struct bench_ctx *ctx, size_t def);

/*
 * Whether the run is a --quick one (a report's smoke test): a group may
 * also leave out its longest cases then.
 */
bool bench_quick(const struct bench_ctx *ctx);

/* Whether --guest was given (the tpm group's guest experiment, bench_tpm_guest.c). */
bool bench_guest(const struct bench_ctx *ctx);

/*
 * Reports that the running group cannot run here, and why (a printf
 * format; the text is cut at BENCH_REASON_MAX): the run lists the group
 * as skipped. Returns 0, so that a group can end with
 * "return bench_skip(ctx, ...)"; -1 when out of memory.
 */
int bench_skip(struct bench_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Optional: names the case the running group measures next, for the
 * progress line on the terminal (bench_compare and bench_measure name
 * theirs). The name is copied.
 */
void bench_progress(struct bench_ctx *ctx, const char *case_name);

/* The reported result named name, among the n at r; NULL when none is. */
const struct bench_result *bench_result_find(const struct bench_result *const *r, size_t n,
					     const char *name);

/* ---- timing ---- */

/* CLOCK_MONOTONIC now, in microseconds. */
double bench_now_us(void);

/*
 * A growable array of samples. Zero-initialise it (or call
 * bench_samples_init); release it with bench_samples_fini, which accepts a
 * never-used one.
 */
struct bench_samples {
	double *v;
	size_t n;
	size_t cap;
	bool sorted;
};

void bench_samples_init(struct bench_samples *s);
void bench_samples_fini(struct bench_samples *s);
/* Makes room for extra more samples, so that adding them allocates nothing. 0 or -1. */
int bench_samples_reserve(struct bench_samples *s, size_t extra);
/* Appends one sample; 0, or -1 when out of memory. */
int bench_samples_add(struct bench_samples *s, double v);
/*
 * The p-th percentile (0..100) by linear interpolation between the two
 * nearest ranks; the 50th is the median. Sorts s. NAN without samples.
 */
double bench_percentile(struct bench_samples *s, double p);

/*
 * One timed loop: runs n iterations of an operation and adds the time of
 * each, in microseconds, to s (which has room for n more samples). Returns
 * 0, or -1 after printing why to stderr.
 */
typedef int (*bench_loop_fn)(void *arg, size_t n, struct bench_samples *s);

/* A swtee operation and the native baseline it is measured against. */
struct bench_pair {
	const char *name; /* the case: "invoke" */
	bench_loop_fn run;
	void *arg;
	const char *baseline_name; /* "socketpair_pingpong" */
	bench_loop_fn baseline;
	void *baseline_arg;
	size_t iterations; /* measured samples on each side */
	size_t warmup;	   /* unmeasured iterations on each side first */
	size_t blocks;	   /* alternating blocks of each side; 0 for BENCH_BLOCKS */
	double target;	   /* highest acceptable cost ratio; 0 for none */
	double target_p50; /* highest acceptable ratio of the all-sample medians; 0 for none */
	double target_p90; /* the same of the 90th percentiles; 0 for none */
};

/*
 * Times p->run against p->baseline: a warm-up of each, then p->blocks
 * alternating blocks of each (the side that goes first alternates too;
 * each block is one call of the loop function), so that noise from the
 * rest of the machine falls on both alike.
 *
 * The value of each side is the median of its best block: the lowest of
 * the block medians. A pair of processes that talk stays on the CPUs the
 * scheduler first gave it, and on a VM a round trip across CPUs costs ten
 * times one on a CPU, so the samples of a side form clusters by placement
 * and their overall median jumps between clusters from run to run. When
 * each block brings its own partner process, the best block is each side
 * at its best placement, which compares. The median and percentiles over
 * all samples, placement costs included, are reported beside it (p50,
 * p90, baseline_p50, baseline_p90), with the distribution of each side (quantiles). The
 * spread is how far the second-best block of either side lies from its
 * best, relative to it: how much the best could move in another run.
 * Returns 0 or -1.
 */
int bench_compare(struct bench_ctx *ctx, const struct bench_pair *p);

/*
 * bench_compare without the report: measures p the same way and fills r
 * (unit "us"), for a group that derives its own figures from the times.
 * Returns 0, or -1 after printing why to stderr.
 */
int bench_measure(const struct bench_pair *p, struct bench_result *r);

/*
 * The loops of the invoke group (bench_invoke.c), for groups that need the
 * no-op invoke round trip as a reference in their own run: n timed no-op
 * invokes of the basic test TA on a new session (arg: the TEEC_Context),
 * and n round trips of libteec's message sizes to a new echo child over a
 * socketpair (arg: NULL; any other value makes both ends wait for each
 * message awake for a while first, as libteec and the TA runtime do).
 */
int bench_invoke_nop_loop(void *arg, size_t n, struct bench_samples *s);
int bench_pingpong_loop(void *arg, size_t n, struct bench_samples *s);

/* Default blocks per side, and the fewest samples a block is cut to. */
#define BENCH_BLOCKS 10
#define BENCH_BLOCK_MIN 50

#endif
