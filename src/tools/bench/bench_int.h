/*
 * swtee bench internals shared by the files that run groups and write what
 * they measured: the run's results (bench.c), the progress line
 * (bench_progress.c), machine facts (bench_machine.c), JSON files read back
 * (bench_load.c), --compare (bench_diff.c), the reference figures of other
 * hardware (bench_seed.c), SVG plots (bench_svg.c, bench_plot.c) and the
 * report directory (bench_page.c). Groups include bench.h only.
 */
#ifndef SWTEE_BENCH_INT_H
#define SWTEE_BENCH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench.h"

#define BENCH_TEXT_MAX 256
#define BENCH_HELP_MAX 160

/* One measured case and the group that reported it. */
struct bench_entry {
	char group[BENCH_NAME_MAX];
	const struct bench_group *g;	/* NULL when read from a file or outside a group */
	bool group_skip;		/* stands for a whole group that could not run */
	struct bench_result r;		/* r.statistic is static or NULL */
	char statistic[BENCH_NAME_MAX]; /* read from a file: r.statistic's text */
};

enum bench_group_status {
	BENCH_GROUP_RAN,
	BENCH_GROUP_SKIPPED, /* cannot run here: reason says why */
	BENCH_GROUP_FAILED,
};

/* What became of one group of the run. */
struct bench_group_run {
	char name[BENCH_NAME_MAX];
	char help[BENCH_HELP_MAX];
	enum bench_group_status status;
	char reason[BENCH_REASON_MAX]; /* SKIPPED only */
	double seconds;		       /* wall time of its run */
};

/* The machine a run measured, as results.json records it. */
struct bench_machine {
	char cpu_model[BENCH_TEXT_MAX];
	unsigned int cores;		 /* online */
	char kernel[BENCH_TEXT_MAX];	 /* uname -srm */
	char openssl[BENCH_TEXT_MAX];	 /* the libcrypto swtee runs with */
	char state_dir[BENCH_TEXT_MAX];	 /* $SWTEE_STATE_DIR, "" when unset */
	char filesystem[BENCH_NAME_MAX]; /* of the state directory: "ext4" */
	char date[BENCH_NAME_MAX];	 /* of the run, UTC, ISO 8601 */
	char swtee_version[BENCH_NAME_MAX];
};

/* One figure a benchmark case of xtest reported (xtest --json). */
struct bench_xtest_figure {
	char case_id[BENCH_NAME_MAX]; /* "benchmark_1001" */
	char name[BENCH_NAME_MAX];    /* "size_1024.speed" */
	char unit[BENCH_UNIT_MAX];
	double value;
};

/* The outcome of one xtest suite. */
struct bench_xtest_suite {
	char suite[BENCH_NAME_MAX];
	size_t passed, failed, skipped;
};

/*
 * Everything a report shows: measured now, or read back from a results
 * file. Zero-initialise it; release it with bench_run_fini.
 */
struct bench_run {
	struct bench_entry *entries;
	size_t nentries, entries_cap;
	struct bench_group_run *groups;
	size_t ngroups, groups_cap;
	struct bench_xtest_figure *xfigures;
	size_t nxfigures, xfigures_cap;
	struct bench_xtest_suite *xsuites;
	size_t nxsuites, xsuites_cap;
	struct bench_machine machine;
	bool quick;
	size_t iterations; /* --iterations, 0 when not given */
};

/* ---- bench.c ---- */

void bench_run_fini(struct bench_run *run);

/*
 * Appends a copy of r under group (g may be NULL). Returns the new entry,
 * or NULL when out of memory (after saying so on stderr).
 */
struct bench_entry *bench_run_add(struct bench_run *run, const char *group,
				  const struct bench_group *g, const struct bench_result *r);

/* Appends a group record with its name; NULL when out of memory (said on stderr). */
struct bench_group_run *bench_run_add_group(struct bench_run *run, const char *name);

/* The entry of group and case name; NULL when there is none. */
const struct bench_entry *bench_run_find(const struct bench_run *run, const char *group,
					 const char *name);

/* swtee's cost over the baseline's (1.0: as cheap); NAN without a usable baseline. */
double bench_cost_ratio(const struct bench_result *r);

/* The same over the medians of all samples; NAN without them. */
double bench_p50_ratio(const struct bench_result *r);

/* The same over the 90th percentiles of all samples; NAN without them. */
double bench_p90_ratio(const struct bench_result *r);

/* "ok" or "over" against the targets r carries; NULL without one, or when skipped. */
const char *bench_verdict(const struct bench_result *r);

/* s as a JSON string, quoted and escaped. */
void bench_json_string(FILE *f, const char *s);

/* v as a JSON number; null when not finite. */
void bench_json_number(FILE *f, double v);

/*
 * The results of run as a JSON array, one object a line, each line after
 * the first starting with indent.
 */
void bench_json_results(FILE *f, const struct bench_run *run, const char *indent);

/* ---- bench_progress.c ---- */

/*
 * The progress line of a run of groups[0..n): on stderr, redrawn in place
 * when stderr is a terminal, else a line as each group starts. quick
 * scales the groups' time estimates.
 */
void bench_progress_start(const struct bench_group *const *groups, size_t n, bool quick);
/* Group i of the run starts. */
void bench_progress_group(size_t i);
/* The running group reported a case. */
void bench_progress_case_done(void);
/* bench_measure is in block b (0-based) of blocks of its case. */
void bench_progress_block(const char *case_name, size_t b, size_t blocks);
/* The run is over: clears the line. */
void bench_progress_end(void);
/* Seconds since bench_progress_start. */
double bench_progress_elapsed(void);

/* ---- bench_machine.c ---- */

/* Fills m with the facts of this machine and now; unknown facts are "". */
void bench_machine_read(struct bench_machine *m);

/* ---- bench_load.c ---- */

/*
 * Reads a results file into run: a "swtee bench --json" array, or the
 * results.json of a report (then with its groups, machine facts and xtest
 * figures). Returns 0, or -1 after printing why to stderr.
 */
int bench_load_results(const char *path, struct bench_run *run);

/*
 * Reads an "xtest --json" file into run: the outcome of each suite, and
 * the figures of the benchmark suite's cases. Returns 0 or -1 (said).
 */
int bench_load_xtest(const char *path, struct bench_run *run);

/* ---- bench_diff.c ---- */

/*
 * Prints to f what got faster or slower from run a to run b (named
 * name_a, name_b), case by case, with the noise band of each: the rule is
 * in docs/benchmarks.md and in the output. Returns 0.
 */
int bench_diff_print(FILE *f, const struct bench_run *a, const char *name_a,
		     const struct bench_run *b, const char *name_b);

/* ---- bench_seed.c ---- */

/*
 * Published figures from other hardware (shared/reference/seed-figures.md
 * and tpm.md), typed in as published, to be drawn beside swtee's own and
 * marked as other hardware: context, never targets.
 */
#define BENCH_SEED_POINTS 8

struct bench_seed {
	const char *key;   /* what it stands beside: "aes-128-cbc", "write", a case name */
	const char *label; /* for a legend: "USB armory Mk II (ULZ), OpenSSL" */
	const char *unit;  /* as published: "kB/s", "ms", "sig/s" */
	double scale;	   /* one unit in B/s (throughputs), us (times) or 1/s (rates) */
	size_t n;
	double x[BENCH_SEED_POINTS]; /* buffer or data sizes in bytes; 0 for none */
	double y[BENCH_SEED_POINTS]; /* as published, in unit */
};

struct bench_seed_table {
	const char *source; /* where the figures come from, for the report */
	const struct bench_seed *rows;
	size_t n;
};

/* Throughput by buffer size, USB armory Mk II; keys are the crypto group's algorithms. */
extern const struct bench_seed_table bench_seed_armory;
/* OP-TEE xtest benchmark 1001..1003 on an i.MX6; keys "write", "read", "rewrite". */
extern const struct bench_seed_table bench_seed_optee_storage;
/* OP-TEE xtest benchmark 2001..2012 on an i.MX6; keys are xtest case ids, labels the cases. */
extern const struct bench_seed_table bench_seed_optee_crypto;
/* ECDSA P-256 signatures per second, USB armory Mk II; key "ecdsa-p256/sign". */
extern const struct bench_seed_table bench_seed_ecdsa;
/* TPM timings of hardware TPMs and of swtpm elsewhere; keys are the tpm group's cases. */
extern const struct bench_seed_table bench_seed_tpm;

/* ---- bench_plot.c ---- */

#define BENCH_CAPTION_MAX 640

/* One plot of a report. */
struct bench_plot {
	char id[BENCH_NAME_MAX];      /* [a-z0-9-]: the file is plots/<id>.svg */
	char section[BENCH_NAME_MAX]; /* the group or topic it belongs to */
	char title[BENCH_TEXT_MAX];
	char caption[BENCH_CAPTION_MAX]; /* one sentence: what it shows */
	char *svg;			 /* the <svg> element, owned */
	size_t svg_len;
};

/* Why a plot one would look for is not there. */
struct bench_plot_note {
	char section[BENCH_NAME_MAX];
	char text[BENCH_CAPTION_MAX];
};

struct bench_plots {
	struct bench_plot *v;
	size_t n, cap;
	struct bench_plot_note *notes;
	size_t nnotes, notes_cap;
};

/*
 * Draws every plot run's results allow into out (zero-initialised; release
 * with bench_plots_fini), and notes for those they do not. Returns 0, or
 * -1 when out of memory (said).
 */
int bench_plot_all(const struct bench_run *run, struct bench_plots *out);
void bench_plots_fini(struct bench_plots *p);

/*
 * Splits a case name "<family>/<size>[/<variant>]" (or with '_') at its
 * last size token (digits with an optional k, K, m or M suffix) into
 * family, the size in bytes and variant. Returns false when it has none.
 */
bool bench_plot_sweep_name(const char *name, char *family, size_t family_len, double *size,
			   char *variant, size_t variant_len);

/* ---- bench_page.c ---- */

/*
 * Writes the report of run into dir (created when missing): index.html,
 * results.json and the plots (plots/ *.svg). Returns 0, or -1 after
 * printing why to stderr.
 */
int bench_page_write(const char *dir, const struct bench_run *run);

#endif
