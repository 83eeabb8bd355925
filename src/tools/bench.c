/*
 * swtee bench: the command line, the group registry, the statistics the
 * groups share, and the JSON and table reports.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

/*
 * BENCH_GROUP_DEFINE puts a pointer per group into the "bench_groups"
 * section; the linker brackets it with __start_/__stop_ symbols, weak so
 * that swtee still links without any group.
 */
extern const struct bench_group *const __start_bench_groups[] __attribute__((weak));
extern const struct bench_group *const __stop_bench_groups[] __attribute__((weak));

#define BENCH_ITERATIONS_MAX 100000000UL

struct bench_entry {
	const char *group;
	struct bench_result r;
};

struct bench_ctx {
	TEEC_Context teec;
	size_t iterations; /* 0: each group's default */
	const struct bench_group *group;
	struct bench_entry *entries;
	size_t nentries;
	size_t cap;
};

/* ---- registry ---- */

static size_t bench_registry_size(void)
{
	uintptr_t start = (uintptr_t)__start_bench_groups;
	uintptr_t stop = (uintptr_t)__stop_bench_groups;

	if (!start || stop < start)
		return 0;
	return (stop - start) / sizeof(__start_bench_groups[0]);
}

static int bench_group_cmp(const void *a, const void *b)
{
	const struct bench_group *ga = *(const struct bench_group *const *)a;
	const struct bench_group *gb = *(const struct bench_group *const *)b;

	if (ga->order != gb->order)
		return ga->order < gb->order ? -1 : 1;
	return strcmp(ga->name, gb->name);
}

/*
 * The registered groups in run order, in a new array the caller frees, or
 * NULL when out of memory. *n receives the count.
 */
static const struct bench_group **bench_groups_sorted(size_t *n)
{
	size_t total = bench_registry_size();
	const struct bench_group **v = NULL;
	size_t i = 0;

	*n = 0;
	v = calloc(total ? total : 1, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < total; i++)
		if (__start_bench_groups[i])
			v[(*n)++] = __start_bench_groups[i];
	qsort(v, *n, sizeof(*v), bench_group_cmp);
	return v;
}

/* ---- what groups call ---- */

TEEC_Context *bench_teec(struct bench_ctx *ctx)
{
	return &ctx->teec;
}

size_t bench_iterations(const struct bench_ctx *ctx, size_t def)
{
	return ctx->iterations ? ctx->iterations : def;
}

int bench_report(struct bench_ctx *ctx, const struct bench_result *r)
{
	if (ctx->nentries == ctx->cap) {
		size_t cap = ctx->cap ? 2 * ctx->cap : 16;
		struct bench_entry *v = reallocarray(ctx->entries, cap, sizeof(*v));
		if (!v) {
			fprintf(stderr, "swtee bench: out of memory\n");
			return -1;
		}
		ctx->entries = v;
		ctx->cap = cap;
	}
	ctx->entries[ctx->nentries].group = ctx->group ? ctx->group->name : "";
	ctx->entries[ctx->nentries].r = *r;
	ctx->nentries++;
	return 0;
}

double bench_now_us(void)
{
	struct timespec ts = {0};

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* ---- samples ---- */

void bench_samples_init(struct bench_samples *s)
{
	s->v = NULL;
	s->n = 0;
	s->cap = 0;
	s->sorted = false;
}

void bench_samples_fini(struct bench_samples *s)
{
	if (!s)
		return;
	free(s->v);
	bench_samples_init(s);
}

int bench_samples_reserve(struct bench_samples *s, size_t extra)
{
	size_t want = 0;
	double *v = NULL;

	if (__builtin_add_overflow(s->n, extra, &want))
		return -1;
	if (want <= s->cap)
		return 0;
	v = reallocarray(s->v, want, sizeof(*v));
	if (!v)
		return -1;
	s->v = v;
	s->cap = want;
	return 0;
}

int bench_samples_add(struct bench_samples *s, double v)
{
	if (s->n == s->cap && bench_samples_reserve(s, s->cap ? s->cap : 64))
		return -1;
	s->v[s->n++] = v;
	s->sorted = false;
	return 0;
}

static int bench_double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_percentile(struct bench_samples *s, double p)
{
	double rank = 0;
	size_t lo = 0;

	if (!s->n)
		return NAN;
	if (!s->sorted) {
		qsort(s->v, s->n, sizeof(*s->v), bench_double_cmp);
		s->sorted = true;
	}
	if (p <= 0)
		return s->v[0];
	if (p >= 100)
		return s->v[s->n - 1];
	rank = p / 100 * (double)(s->n - 1);
	lo = (size_t)rank;
	if (lo + 1 >= s->n)
		return s->v[s->n - 1];
	return s->v[lo] + (rank - (double)lo) * (s->v[lo + 1] - s->v[lo]);
}

/* ---- interleaved comparison ---- */

/* One side of a comparison: its samples and its best block median so far. */
struct bench_side {
	struct bench_samples all;
	double best;
};

/*
 * Runs one block of n iterations of fn into side (which has room for
 * them) and keeps the block's median if it is the best; scratch has room
 * for n samples.
 */
static int bench_block(bench_loop_fn fn, void *arg, size_t n, struct bench_side *side,
		       struct bench_samples *scratch)
{
	size_t before = side->all.n;
	double median = 0;

	if (fn(arg, n, &side->all))
		return -1;
	if (side->all.n != before + n) {
		fprintf(stderr,
			"swtee bench: a timed loop recorded %zu samples for %zu iterations\n",
			side->all.n - before, n);
		return -1;
	}
	scratch->n = 0;
	if (bench_samples_reserve(scratch, n))
		return -1;
	memcpy(scratch->v, side->all.v + before, n * sizeof(*scratch->v));
	scratch->n = n;
	scratch->sorted = false;
	median = bench_percentile(scratch, 50);
	if (!(side->best <= median))
		side->best = median;
	return 0;
}

int bench_compare(struct bench_ctx *ctx, const struct bench_pair *p)
{
	struct bench_side sw = {.best = NAN};
	struct bench_side base = {.best = NAN};
	struct bench_side warm = {.best = NAN};
	struct bench_samples scratch = {0};
	struct bench_result r = {0};
	size_t blocks = p->blocks ? p->blocks : BENCH_BLOCKS;
	size_t len = 0;
	size_t b = 0;
	int ret = -1;

	if (!p->iterations) {
		fprintf(stderr, "swtee bench: %s: no iterations to measure\n", p->name);
		goto out;
	}
	if (strlen(p->name) >= BENCH_NAME_MAX || strlen(p->baseline_name) >= BENCH_NAME_MAX) {
		fprintf(stderr, "swtee bench: case name '%s' or '%s' is too long\n", p->name,
			p->baseline_name);
		goto out;
	}
	/* A block too short to have a median of its own is no block. */
	if (blocks > p->iterations / BENCH_BLOCK_MIN)
		blocks = p->iterations / BENCH_BLOCK_MIN;
	if (!blocks)
		blocks = 1;
	if (bench_samples_reserve(&sw.all, p->iterations) ||
	    bench_samples_reserve(&base.all, p->iterations) ||
	    bench_samples_reserve(&warm.all, p->warmup) ||
	    bench_samples_reserve(&scratch, p->iterations / blocks + 1)) {
		fprintf(stderr, "swtee bench: out of memory\n");
		goto out;
	}

	/* The warm-up's timings are thrown away. */
	if (p->warmup) {
		if (bench_block(p->baseline, p->baseline_arg, p->warmup, &warm, &scratch))
			goto out;
		warm.all.n = 0;
		if (bench_block(p->run, p->arg, p->warmup, &warm, &scratch))
			goto out;
	}

	for (b = 0; b < blocks; b++) {
		len = p->iterations / blocks + (b < p->iterations % blocks ? 1 : 0);
		if (b % 2 == 0) {
			if (bench_block(p->baseline, p->baseline_arg, len, &base, &scratch) ||
			    bench_block(p->run, p->arg, len, &sw, &scratch))
				goto out;
		} else {
			if (bench_block(p->run, p->arg, len, &sw, &scratch) ||
			    bench_block(p->baseline, p->baseline_arg, len, &base, &scratch))
				goto out;
		}
	}

	snprintf(r.name, sizeof(r.name), "%s", p->name);
	snprintf(r.unit, sizeof(r.unit), "us");
	snprintf(r.baseline_name, sizeof(r.baseline_name), "%s", p->baseline_name);
	r.statistic = "best_block_median";
	r.iterations = p->iterations;
	r.blocks = blocks;
	r.value = sw.best;
	r.has_percentiles = true;
	r.p50 = bench_percentile(&sw.all, 50);
	r.p90 = bench_percentile(&sw.all, 90);
	r.p99 = bench_percentile(&sw.all, 99);
	r.has_baseline = true;
	r.baseline_value = base.best;
	r.has_baseline_p50 = true;
	r.baseline_p50 = bench_percentile(&base.all, 50);
	r.has_target = p->target > 0;
	r.target = p->target;
	ret = bench_report(ctx, &r);
out:
	bench_samples_fini(&sw.all);
	bench_samples_fini(&base.all);
	bench_samples_fini(&warm.all);
	bench_samples_fini(&scratch);
	return ret;
}

/* ---- reports ---- */

/* swtee's cost over the baseline's; NAN when there is no usable baseline. */
static double bench_cost_ratio(const struct bench_result *r)
{
	if (!r->has_baseline || !(r->value > 0) || !(r->baseline_value > 0))
		return NAN;
	if (r->higher_is_better)
		return r->baseline_value / r->value;
	return r->value / r->baseline_value;
}

/* The same over the medians of all samples; NAN without them. */
static double bench_p50_ratio(const struct bench_result *r)
{
	if (!r->has_percentiles || !r->has_baseline_p50 || !(r->p50 > 0) || !(r->baseline_p50 > 0))
		return NAN;
	if (r->higher_is_better)
		return r->baseline_p50 / r->p50;
	return r->p50 / r->baseline_p50;
}

/* "ok" or "over" against the targets the result carries, NULL without one. */
static const char *bench_verdict(const struct bench_result *r)
{
	double ratio = bench_cost_ratio(r);
	bool over = false;

	if (!r->has_target && !r->has_target_value)
		return NULL;
	if (r->has_target && !(ratio <= r->target))
		over = true;
	if (r->has_target_value) {
		if (r->higher_is_better ? !(r->value >= r->target_value)
					: !(r->value <= r->target_value))
			over = true;
	}
	return over ? "over" : "ok";
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* Whole numbers print whole; others with six significant digits. */
static void json_number(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.6g", v);
}

static void json_field_string(FILE *f, const char *key, const char *v)
{
	fprintf(f, ", \"%s\": ", key);
	json_string(f, v);
}

static void json_field_number(FILE *f, const char *key, double v)
{
	fprintf(f, ", \"%s\": ", key);
	json_number(f, v);
}

static void bench_print_json(FILE *f, const struct bench_ctx *ctx)
{
	size_t i = 0;

	fputs("[", f);
	for (i = 0; i < ctx->nentries; i++) {
		const struct bench_result *r = &ctx->entries[i].r;
		const char *verdict = bench_verdict(r);

		fputs(i ? ",\n  {\"group\": " : "\n  {\"group\": ", f);
		json_string(f, ctx->entries[i].group);
		json_field_string(f, "name", r->name);
		json_field_string(f, "unit", r->unit);
		json_field_number(f, "value", r->value);
		if (r->has_percentiles) {
			json_field_number(f, "p50", r->p50);
			json_field_number(f, "p90", r->p90);
			json_field_number(f, "p99", r->p99);
		}
		if (r->statistic)
			json_field_string(f, "statistic", r->statistic);
		if (r->iterations)
			json_field_number(f, "iterations", (double)r->iterations);
		if (r->blocks)
			json_field_number(f, "blocks", (double)r->blocks);
		if (r->has_baseline) {
			json_field_string(f, "baseline_name", r->baseline_name);
			json_field_number(f, "baseline_value", r->baseline_value);
			json_field_number(f, "cost_ratio", bench_cost_ratio(r));
		}
		if (r->has_baseline_p50) {
			json_field_number(f, "baseline_p50", r->baseline_p50);
			json_field_number(f, "cost_ratio_p50", bench_p50_ratio(r));
		}
		if (r->has_target)
			json_field_number(f, "target", r->target);
		if (r->has_target_value)
			json_field_number(f, "target_value", r->target_value);
		if (verdict)
			json_field_string(f, "verdict", verdict);
		fputs("}", f);
	}
	fputs(ctx->nentries ? "\n]\n" : "]\n", f);
}

#define BENCH_COLS 7
#define BENCH_CELL_MAX 192 /* holds the longest cell table_row makes */

/* Whole numbers print whole; others with two decimals. */
static void table_number(char *out, size_t n, double v)
{
	if (!isfinite(v))
		snprintf(out, n, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(out, n, "%.0f", v);
	else
		snprintf(out, n, "%.2f", v);
}

static void table_ratio(char *out, size_t n, double v)
{
	if (isfinite(v))
		snprintf(out, n, "%.2f", v);
	else
		snprintf(out, n, "-");
}

/* The cells of one table row. */
static void table_row(const struct bench_result *r, char cell[BENCH_COLS][BENCH_CELL_MAX])
{
	char num[32];
	const char *verdict = bench_verdict(r);

	snprintf(cell[0], BENCH_CELL_MAX, "%s", r->name);
	table_number(num, sizeof(num), r->value);
	snprintf(cell[1], BENCH_CELL_MAX, "%s %s", num, r->unit);
	if (r->has_baseline) {
		table_number(num, sizeof(num), r->baseline_value);
		snprintf(cell[2], BENCH_CELL_MAX, "%s %s %s", r->baseline_name, num, r->unit);
		table_ratio(cell[3], BENCH_CELL_MAX, bench_cost_ratio(r));
	} else {
		snprintf(cell[2], BENCH_CELL_MAX, "-");
		snprintf(cell[3], BENCH_CELL_MAX, "-");
	}
	if (r->has_target && r->has_target_value) {
		table_number(num, sizeof(num), r->target_value);
		snprintf(cell[4], BENCH_CELL_MAX, "<= %.2f, %s %s %s", r->target,
			 r->higher_is_better ? ">=" : "<=", num, r->unit);
	} else if (r->has_target) {
		snprintf(cell[4], BENCH_CELL_MAX, "<= %.2f", r->target);
	} else if (r->has_target_value) {
		table_number(num, sizeof(num), r->target_value);
		snprintf(cell[4], BENCH_CELL_MAX, "%s %s %s",
			 r->higher_is_better ? ">=" : "<=", num, r->unit);
	} else {
		snprintf(cell[4], BENCH_CELL_MAX, "-");
	}
	snprintf(cell[5], BENCH_CELL_MAX, "%s", verdict ? verdict : "-");
	table_ratio(cell[6], BENCH_CELL_MAX, bench_p50_ratio(r));
}

static void bench_print_table(FILE *f, const struct bench_ctx *ctx)
{
	static const char *const head[BENCH_COLS] = {
	    "case", "swtee", "baseline", "cost_ratio", "target", "verdict", "p50_ratio",
	};
	char cell[BENCH_COLS][BENCH_CELL_MAX];
	int width[BENCH_COLS] = {0};
	size_t i = 0;
	int k = 0;

	for (k = 0; k < BENCH_COLS; k++)
		width[k] = (int)strlen(head[k]);
	for (i = 0; i < ctx->nentries; i++) {
		table_row(&ctx->entries[i].r, cell);
		for (k = 0; k < BENCH_COLS; k++)
			if ((int)strlen(cell[k]) > width[k])
				width[k] = (int)strlen(cell[k]);
	}
	for (k = 0; k < BENCH_COLS; k++)
		fprintf(f, "%-*s%s", k < BENCH_COLS - 1 ? width[k] : 0, head[k],
			k < BENCH_COLS - 1 ? "  " : "\n");
	for (i = 0; i < ctx->nentries; i++) {
		table_row(&ctx->entries[i].r, cell);
		for (k = 0; k < BENCH_COLS; k++)
			fprintf(f, "%-*s%s", k < BENCH_COLS - 1 ? width[k] : 0, cell[k],
				k < BENCH_COLS - 1 ? "  " : "\n");
	}
	for (i = 0; i < ctx->nentries && !ctx->entries[i].r.statistic; i++)
		;
	if (i == ctx->nentries)
		return;
	fprintf(f, "\nTimes are the median of each side's best block; every block talks to a new\n"
		   "partner process, so the best is each side at its best CPU placement.\n"
		   "cost_ratio: swtee's cost over the baseline's, measured in the same run\n"
		   "(1.00 = as cheap; lower is better). p50_ratio: the same over the medians of\n"
		   "all samples, placement costs included.\n");
}

/* ---- command line ---- */

static void bench_usage(FILE *f)
{
	const struct bench_group **groups = NULL;
	size_t n = 0;
	size_t i = 0;

	fprintf(f,
		"usage: swtee bench [GROUP...] [--json] [--iterations N] [-h]\n"
		"  Measures the TEE against native baselines timed in the same run and\n"
		"  prints medians and cost ratios (swtee's cost over the baseline's).\n"
		"  Without a GROUP runs them all. Needs a TEE: run it as\n"
		"  'swtee run -- swtee bench ...' or set SWTEE_SOCKET.\n"
		"  --json          print only a JSON array of results on stdout\n"
		"  --iterations N  measured iterations of every timed case (default: per group)\n"
		"  -h, --help      this help\n"
		"\ngroups:\n");
	groups = bench_groups_sorted(&n);
	for (i = 0; groups && i < n; i++)
		fprintf(f, "  %-10s %s\n", groups[i]->name, groups[i]->help);
	free(groups);
}

static int parse_iterations(const char *s, size_t *out)
{
	char *end = NULL;
	unsigned long v = 0;

	*out = 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v == 0 || v > BENCH_ITERATIONS_MAX)
		return -1;
	*out = (size_t)v;
	return 0;
}

static const struct bench_group *bench_group_find(const struct bench_group **groups, size_t n,
						  const char *name)
{
	size_t i = 0;

	for (i = 0; i < n; i++)
		if (!strcmp(groups[i]->name, name))
			return groups[i];
	return NULL;
}

int swtee_bench_main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"iterations", required_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct bench_ctx ctx = {0};
	const struct bench_group **groups = NULL;
	const struct bench_group **run = NULL;
	size_t ngroups = 0;
	size_t nrun = 0;
	size_t i = 0;
	size_t j = 0;
	bool json = false;
	bool teec_open = false;
	int failed = 0;
	int ret = 2;
	int opt = 0;

	groups = bench_groups_sorted(&ngroups);
	run = calloc(ngroups ? ngroups : 1, sizeof(*run));
	if (!groups || !run) {
		fprintf(stderr, "swtee bench: out of memory\n");
		ret = 1;
		goto out;
	}

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'n':
			if (parse_iterations(optarg, &ctx.iterations)) {
				fprintf(stderr,
					"swtee bench: --iterations wants a count from 1 to %lu, "
					"not '%s'\n",
					BENCH_ITERATIONS_MAX, optarg);
				goto out;
			}
			break;
		case 'h':
			bench_usage(stdout);
			ret = 0;
			goto out;
		default:
			if (optopt == 'n')
				fprintf(stderr, "swtee bench: --iterations needs a count\n");
			else
				fprintf(stderr, "swtee bench: unknown option '%s'\n",
					argv[optind - 1]);
			fprintf(stderr, "Try 'swtee bench -h'.\n");
			goto out;
		}
	}

	/* The groups named, in the order named, each once; else all of them. */
	for (i = (size_t)optind; i < (size_t)argc; i++) {
		const struct bench_group *g = bench_group_find(groups, ngroups, argv[i]);

		if (!g) {
			fprintf(stderr, "swtee bench: no group '%s' (swtee bench -h lists them)\n",
				argv[i]);
			goto out;
		}
		for (j = 0; j < nrun && run[j] != g; j++)
			;
		if (j == nrun)
			run[nrun++] = g;
	}
	if (!nrun) {
		memcpy(run, groups, ngroups * sizeof(*run));
		nrun = ngroups;
	}

	if (TEEC_InitializeContext(NULL, &ctx.teec) != TEEC_SUCCESS) {
		fprintf(stderr, "swtee bench: no TEE is reachable (set SWTEE_SOCKET or run: "
				"swtee run -- swtee bench ...)\n");
		ret = 1;
		goto out;
	}
	teec_open = true;

	for (i = 0; i < nrun; i++) {
		ctx.group = run[i];
		if (run[i]->run(&ctx)) {
			fprintf(stderr, "swtee bench: group %s failed\n", run[i]->name);
			failed++;
		}
	}
	ctx.group = NULL;

	if (json)
		bench_print_json(stdout, &ctx);
	else
		bench_print_table(stdout, &ctx);
	if (fflush(stdout)) {
		fprintf(stderr, "swtee bench: writing the report: %s\n", strerror(errno));
		failed++;
	}
	ret = failed ? 1 : 0;
out:
	if (teec_open)
		TEEC_FinalizeContext(&ctx.teec);
	free(ctx.entries);
	free(groups);
	free(run);
	return ret;
}
