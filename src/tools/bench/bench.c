/*
 * swtee bench: the command line, the group registry, the statistics the
 * groups share, the run's results, and the JSON and table reports. The
 * report directory (--report) is bench_page.c's, --compare bench_diff.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_int.h"
#include "bench_text.h"

/*
 * BENCH_GROUP_DEFINE puts a pointer per group into the "bench_groups"
 * section; the linker brackets it with __start_/__stop_ symbols, weak so
 * that swtee still links without any group.
 */
extern const struct bench_group *const __start_bench_groups[] __attribute__((weak));
extern const struct bench_group *const __stop_bench_groups[] __attribute__((weak));

#define BENCH_ITERATIONS_MAX 100000000UL
/* --quick runs a tenth of each group's default iterations. */
#define BENCH_QUICK_DIVISOR 10
#define BENCH_XTEST_FILES_MAX 8

const double bench_quantile_points[BENCH_QUANTILES] = {
    0, 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97.5, 99, 99.5, 99.9, 99.99, 100,
};

struct bench_ctx {
	TEEC_Context teec;
	size_t iterations; /* 0: each group's default */
	bool quick;
	bool guest; /* --guest: the tpm group also boots QEMU guests on the fTPM */
	const struct bench_group *group;
	size_t group_run; /* index of the running group's record in run.groups */
	struct bench_run run;
};

/* ---- registry ---- */

static size_t bench_registry_size(void)
{
	uintptr_t start = (uintptr_t)__start_bench_groups;
	uintptr_t stop = (uintptr_t)__stop_bench_groups;

	if (!start || stop < start)
		return 0;
	return (stop - start) / sizeof(const struct bench_group *);
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
	v = calloc(total ? total : 1, sizeof(const struct bench_group *));
	if (!v)
		return NULL;
	for (i = 0; i < total; i++)
		if (__start_bench_groups[i])
			v[(*n)++] = __start_bench_groups[i];
	qsort(v, *n, sizeof(const struct bench_group *), bench_group_cmp);
	return v;
}

/* ---- what groups call ---- */

TEEC_Context *bench_teec(struct bench_ctx *ctx)
{
	return &ctx->teec;
}

size_t bench_iterations(const struct bench_ctx *ctx, size_t def)
{
	if (ctx->iterations)
		return ctx->iterations;
	if (ctx->quick)
		return def / BENCH_QUICK_DIVISOR ? def / BENCH_QUICK_DIVISOR : 1;
	return def;
}

bool bench_quick(const struct bench_ctx *ctx)
{
	return ctx->quick;
}

bool bench_guest(const struct bench_ctx *ctx)
{
	return ctx->guest;
}

const struct bench_result *bench_result_find(const struct bench_result *const *r, size_t n,
					     const char *name)
{
	size_t i = 0;

	for (i = 0; i < n; i++)
		if (strcmp(r[i]->name, name) == 0)
			return r[i];
	return NULL;
}

int bench_report(struct bench_ctx *ctx, const struct bench_result *r)
{
	if (!bench_run_add(&ctx->run, ctx->group ? ctx->group->name : "", ctx->group, r))
		return -1;
	bench_progress_case_done();
	return 0;
}

int bench_skip(struct bench_ctx *ctx, const char *fmt, ...)
{
	struct bench_result r = {0};
	struct bench_entry *e = NULL;
	struct bench_group_run *gr = NULL;
	va_list ap;

	bench_text(r.name, sizeof(r.name), "%s", ctx->group ? ctx->group->name : "");
	r.value = NAN;
	r.skipped = true;
	va_start(ap, fmt);
	bench_vtext(r.skip_reason, sizeof(r.skip_reason), fmt, ap);
	va_end(ap);
	e = bench_run_add(&ctx->run, r.name, ctx->group, &r);
	if (!e)
		return -1;
	e->group_skip = true;
	if (ctx->group && ctx->group_run < ctx->run.ngroups) {
		gr = &ctx->run.groups[ctx->group_run];
		gr->status = BENCH_GROUP_SKIPPED;
		memcpy(gr->reason, r.skip_reason, sizeof(gr->reason));
	}
	return 0;
}

void bench_progress(struct bench_ctx *ctx, const char *case_name)
{
	(void)ctx;
	bench_progress_block(case_name, 0, 0);
}

/* ---- the run's results ---- */

/* Makes room in *v (*cap elements of size bytes) for element n. 0, or -1 (said). */
static int bench_grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? 2 * *cap : 16;
	void *p = NULL;

	if (n < *cap)
		return 0;
	p = reallocarray(*v, want, size);
	if (!p) {
		fprintf(stderr, "swtee bench: out of memory\n");
		return -1;
	}
	*v = p;
	*cap = want;
	return 0;
}

void bench_run_fini(struct bench_run *run)
{
	if (!run)
		return;
	free(run->entries);
	free(run->groups);
	free(run->xfigures);
	free(run->xsuites);
	memset(run, 0, sizeof(*run));
}

struct bench_entry *bench_run_add(struct bench_run *run, const char *group,
				  const struct bench_group *g, const struct bench_result *r)
{
	struct bench_entry *e = NULL;

	if (bench_grow((void **)&run->entries, &run->entries_cap, run->nentries,
		       sizeof(*run->entries)))
		return NULL;
	e = &run->entries[run->nentries++];
	memset(e, 0, sizeof(*e));
	bench_text(e->group, sizeof(e->group), "%s", group);
	e->g = g;
	e->r = *r;
	return e;
}

struct bench_group_run *bench_run_add_group(struct bench_run *run, const char *name)
{
	struct bench_group_run *gr = NULL;

	if (bench_grow((void **)&run->groups, &run->groups_cap, run->ngroups, sizeof(*run->groups)))
		return NULL;
	gr = &run->groups[run->ngroups++];
	memset(gr, 0, sizeof(*gr));
	bench_text(gr->name, sizeof(gr->name), "%s", name);
	return gr;
}

const struct bench_entry *bench_run_find(const struct bench_run *run, const char *group,
					 const char *name)
{
	size_t i = 0;

	for (i = 0; i < run->nentries; i++)
		if (strcmp(run->entries[i].group, group) == 0 &&
		    strcmp(run->entries[i].r.name, name) == 0)
			return &run->entries[i];
	return NULL;
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

/* One side of a comparison: its samples and its two best block medians so far. */
struct bench_side {
	struct bench_samples all;
	double best;
	double second;
};

/*
 * Runs one block of n iterations of fn into side (which has room for
 * them) and keeps the block's median if it is among the two best; scratch
 * has room for n samples.
 */
static int bench_block(bench_loop_fn fn, void *arg, size_t n, struct bench_side *side,
		       struct bench_samples *scratch)
{
	size_t before = side->all.n;
	double median = 0;

	if (!n)
		return 0; /* no block, no median */
	if (fn(arg, n, &side->all))
		return -1;
	if (side->all.n != before + n) {
		fprintf(stderr,
			"swtee bench: a timed loop recorded %zu samples for %zu iterations\n",
			side->all.n - before, n);
		return -1;
	}
	scratch->n = 0;
	if (bench_samples_reserve(scratch, n) || !scratch->v)
		return -1;
	memcpy(scratch->v, side->all.v + before, n * sizeof(*scratch->v));
	scratch->n = n;
	scratch->sorted = false;
	median = bench_percentile(scratch, 50);
	if (!(side->best <= median)) {
		side->second = side->best;
		side->best = median;
	} else if (!(side->second <= median)) {
		side->second = median;
	}
	return 0;
}

int bench_compare(struct bench_ctx *ctx, const struct bench_pair *p)
{
	struct bench_result r = {0};

	if (bench_measure(p, &r))
		return -1;
	return bench_report(ctx, &r);
}

/* How far a side's second-best block lies from its best, relative; NAN with one block. */
static double bench_side_spread(const struct bench_side *s)
{
	if (!(s->best > 0) || !isfinite(s->second))
		return NAN;
	return (s->second - s->best) / s->best;
}

/* Fills r's distributions and spread from the two sides. */
static void bench_measure_spread(struct bench_result *r, struct bench_side *sw,
				 struct bench_side *base)
{
	double a = bench_side_spread(sw);
	double b = bench_side_spread(base);
	size_t i = 0;

	r->has_quantiles = true;
	bench_text(r->quantiles_unit, sizeof(r->quantiles_unit), "us");
	for (i = 0; i < BENCH_QUANTILES; i++) {
		r->quantiles[i] = bench_percentile(&sw->all, bench_quantile_points[i]);
		r->baseline_quantiles[i] = bench_percentile(&base->all, bench_quantile_points[i]);
	}
	if (isfinite(a) || isfinite(b)) {
		r->has_spread = true;
		r->spread = isfinite(a) && (!isfinite(b) || a > b) ? a : b;
	}
}

int bench_measure(const struct bench_pair *p, struct bench_result *r)
{
	struct bench_side sw = {.best = NAN, .second = NAN};
	struct bench_side base = {.best = NAN, .second = NAN};
	struct bench_side warm = {.best = NAN, .second = NAN};
	struct bench_samples scratch = {0};
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
	bench_progress_block(p->name, 0, blocks + 1);
	if (p->warmup) {
		if (bench_block(p->baseline, p->baseline_arg, p->warmup, &warm, &scratch))
			goto out;
		warm.all.n = 0;
		if (bench_block(p->run, p->arg, p->warmup, &warm, &scratch))
			goto out;
	}

	for (b = 0; b < blocks; b++) {
		bench_progress_block(p->name, b + 1, blocks + 1);
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

	memset(r, 0, sizeof(*r));
	bench_text(r->name, sizeof(r->name), "%s", p->name);
	bench_text(r->unit, sizeof(r->unit), "us");
	bench_text(r->baseline_name, sizeof(r->baseline_name), "%s", p->baseline_name);
	r->statistic = "best_block_median";
	r->iterations = p->iterations;
	r->blocks = blocks;
	r->value = sw.best;
	r->has_percentiles = true;
	r->p50 = bench_percentile(&sw.all, 50);
	r->p90 = bench_percentile(&sw.all, 90);
	r->p99 = bench_percentile(&sw.all, 99);
	r->has_baseline = true;
	r->baseline_value = base.best;
	r->has_baseline_p50 = true;
	r->baseline_p50 = bench_percentile(&base.all, 50);
	r->has_baseline_p90 = true;
	r->baseline_p90 = bench_percentile(&base.all, 90);
	r->has_target = p->target > 0;
	r->target = p->target;
	r->has_target_p50 = p->target_p50 > 0;
	r->target_p50 = p->target_p50;
	r->has_target_p90 = p->target_p90 > 0;
	r->target_p90 = p->target_p90;
	bench_measure_spread(r, &sw, &base);
	ret = 0;
out:
	bench_samples_fini(&sw.all);
	bench_samples_fini(&base.all);
	bench_samples_fini(&warm.all);
	bench_samples_fini(&scratch);
	return ret;
}

/* ---- verdicts ---- */

double bench_cost_ratio(const struct bench_result *r)
{
	if (!r->has_baseline || !(r->value > 0) || !(r->baseline_value > 0))
		return NAN;
	if (r->higher_is_better)
		return r->baseline_value / r->value;
	return r->value / r->baseline_value;
}

double bench_p50_ratio(const struct bench_result *r)
{
	if (!r->has_percentiles || !r->has_baseline_p50 || !(r->p50 > 0) || !(r->baseline_p50 > 0))
		return NAN;
	if (r->higher_is_better)
		return r->baseline_p50 / r->p50;
	return r->p50 / r->baseline_p50;
}

double bench_p90_ratio(const struct bench_result *r)
{
	if (!r->has_percentiles || !r->has_baseline_p90 || !(r->p90 > 0) || !(r->baseline_p90 > 0))
		return NAN;
	if (r->higher_is_better)
		return r->baseline_p90 / r->p90;
	return r->p90 / r->baseline_p90;
}

const char *bench_verdict(const struct bench_result *r)
{
	double ratio = bench_cost_ratio(r);
	bool over = false;

	if (r->skipped ||
	    (!r->has_target && !r->has_target_value && !r->has_target_p50 && !r->has_target_p90))
		return NULL;
	if (r->has_target && !(ratio <= r->target))
		over = true;
	if (r->has_target_p50 && !(bench_p50_ratio(r) <= r->target_p50))
		over = true;
	if (r->has_target_p90 && !(bench_p90_ratio(r) <= r->target_p90))
		over = true;
	if (r->has_target_value) {
		if (r->higher_is_better ? !(r->value >= r->target_value)
					: !(r->value <= r->target_value))
			over = true;
	}
	return over ? "over" : "ok";
}

/* ---- JSON ---- */

void bench_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* Whole numbers print whole; others with six significant digits. */
void bench_json_number(FILE *f, double v)
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
	bench_json_string(f, v);
}

static void json_field_number(FILE *f, const char *key, double v)
{
	fprintf(f, ", \"%s\": ", key);
	bench_json_number(f, v);
}

static void json_array(FILE *f, const double *v, size_t n)
{
	size_t i = 0;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		bench_json_number(f, v[i]);
	}
	fputc(']', f);
}

/* The fields after "group" and "name"; the first ones are the interface of issue 10. */
static void bench_json_fields(FILE *f, const struct bench_entry *e)
{
	const struct bench_result *r = &e->r;
	const char *verdict = bench_verdict(r);
	const char *statistic = r->statistic ? r->statistic : e->statistic;

	json_field_string(f, "unit", r->unit);
	json_field_number(f, "value", r->value);
	if (r->has_percentiles) {
		json_field_number(f, "p50", r->p50);
		json_field_number(f, "p90", r->p90);
		json_field_number(f, "p99", r->p99);
	}
	if (statistic && *statistic)
		json_field_string(f, "statistic", statistic);
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
	if (r->has_baseline_p90) {
		json_field_number(f, "baseline_p90", r->baseline_p90);
		json_field_number(f, "cost_ratio_p90", bench_p90_ratio(r));
	}
	if (r->has_target)
		json_field_number(f, "target", r->target);
	if (r->has_target_p50)
		json_field_number(f, "target_p50", r->target_p50);
	if (r->has_target_p90)
		json_field_number(f, "target_p90", r->target_p90);
	if (r->has_target_value)
		json_field_number(f, "target_value", r->target_value);
	if (verdict)
		json_field_string(f, "verdict", verdict);
	if (r->skipped) {
		fputs(", \"skipped\": true", f);
		json_field_string(f, "skip_reason", r->skip_reason);
	}
	if (e->group_skip)
		fputs(", \"group_skipped\": true", f);
	fprintf(f, ", \"higher_is_better\": %s", r->higher_is_better ? "true" : "false");
	if (r->has_spread)
		json_field_number(f, "spread", r->spread);
	if (r->has_quantiles) {
		fputs(", \"quantiles\": {\"unit\": ", f);
		bench_json_string(f, r->quantiles_unit);
		fputs(", \"p\": ", f);
		json_array(f, bench_quantile_points, BENCH_QUANTILES);
		fputs(", \"swtee\": ", f);
		json_array(f, r->quantiles, BENCH_QUANTILES);
		fputs(", \"baseline\": ", f);
		json_array(f, r->baseline_quantiles, BENCH_QUANTILES);
		fputc('}', f);
	}
}

void bench_json_results(FILE *f, const struct bench_run *run, const char *indent)
{
	size_t i = 0;

	fputs("[", f);
	for (i = 0; i < run->nentries; i++) {
		const struct bench_entry *e = &run->entries[i];

		fprintf(f, "%s\n%s  {\"group\": ", i ? "," : "", indent);
		bench_json_string(f, e->group);
		json_field_string(f, "name", e->r.name);
		bench_json_fields(f, e);
		fputs("}", f);
	}
	if (run->nentries)
		fprintf(f, "\n%s", indent);
	fputs("]", f);
}

/* ---- tables ---- */

#define BENCH_COLS 9	   /* group, the columns of issue 10, p50_ratio, p90_ratio */
#define BENCH_CELL_MAX 192 /* holds the longest cell table_row makes */

/* Whole numbers print whole; others with two decimals. */
static void table_number(char *out, size_t n, double v)
{
	if (!isfinite(v))
		bench_text(out, n, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		bench_text(out, n, "%.0f", v);
	else
		bench_text(out, n, "%.2f", v);
}

static void table_ratio(char *out, size_t n, double v)
{
	if (isfinite(v))
		bench_text(out, n, "%.2f", v);
	else
		bench_text(out, n, "-");
}

/* Appends text to the n-byte cell out, after a ", " when out holds some already. */
static void table_append(char *out, size_t n, const char *text)
{
	size_t len = strlen(out);

	if (len + 1 < n)
		bench_text(out + len, n - len, "%s%s", len ? ", " : "", text);
}

/* The targets r carries, "-" when none: "<= 1.50, p50 <= 1.50, p90 <= 2.00". */
static void table_targets(const struct bench_result *r, char *out, size_t n)
{
	char num[32];
	char part[64];

	out[0] = '\0';
	if (r->has_target) {
		bench_text(part, sizeof(part), "<= %.2f", r->target);
		table_append(out, n, part);
	}
	if (r->has_target_value) {
		table_number(num, sizeof(num), r->target_value);
		bench_text(part, sizeof(part), "%s %s %s", r->higher_is_better ? ">=" : "<=", num,
			   r->unit);
		table_append(out, n, part);
	}
	if (r->has_target_p50) {
		bench_text(part, sizeof(part), "p50 <= %.2f", r->target_p50);
		table_append(out, n, part);
	}
	if (r->has_target_p90) {
		bench_text(part, sizeof(part), "p90 <= %.2f", r->target_p90);
		table_append(out, n, part);
	}
	if (!out[0])
		bench_text(out, n, "-");
}

/* The cells of one table row. */
static void table_row(const struct bench_entry *e, char cell[BENCH_COLS][BENCH_CELL_MAX])
{
	const struct bench_result *r = &e->r;
	const char *verdict = bench_verdict(r);
	char num[32];

	bench_text(cell[0], BENCH_CELL_MAX, "%s", e->group);
	bench_text(cell[1], BENCH_CELL_MAX, "%s", e->group_skip ? "(group)" : r->name);
	table_number(num, sizeof(num), r->value);
	if (r->skipped)
		bench_text(cell[2], BENCH_CELL_MAX, "skipped: %s", r->skip_reason);
	else
		bench_text(cell[2], BENCH_CELL_MAX, "%s %s", num, r->unit);
	if (r->has_baseline) {
		table_number(num, sizeof(num), r->baseline_value);
		bench_text(cell[3], BENCH_CELL_MAX, "%s %s %s", r->baseline_name, num, r->unit);
		table_ratio(cell[4], BENCH_CELL_MAX, bench_cost_ratio(r));
	} else {
		bench_text(cell[3], BENCH_CELL_MAX, "-");
		bench_text(cell[4], BENCH_CELL_MAX, "-");
	}
	table_targets(r, cell[5], BENCH_CELL_MAX);
	bench_text(cell[6], BENCH_CELL_MAX, "%s", verdict ? verdict : "-");
	table_ratio(cell[7], BENCH_CELL_MAX, bench_p50_ratio(r));
	table_ratio(cell[8], BENCH_CELL_MAX, bench_p90_ratio(r));
}

/* Whether an entry goes to the common table (its group has no table of its own). */
static bool bench_in_common_table(const struct bench_entry *e)
{
	return !e->g || !e->g->table;
}

/*
 * Hands each group that prints its own table its results, in the order
 * of the groups' first results; a group that could not run gets a line
 * saying why instead. Returns 0, or -1 when out of memory.
 */
static int bench_print_group_tables(FILE *f, const struct bench_run *run)
{
	const struct bench_result **r = NULL;
	const struct bench_entry *skip = NULL;
	size_t i = 0;
	size_t j = 0;
	size_t n = 0;

	r = calloc(run->nentries ? run->nentries : 1, sizeof(const struct bench_result *));
	if (!r) {
		fprintf(stderr, "swtee bench: out of memory\n");
		return -1;
	}
	for (i = 0; i < run->nentries; i++) {
		const struct bench_group *g = run->entries[i].g;

		if (bench_in_common_table(&run->entries[i]))
			continue;
		for (j = 0; j < i && run->entries[j].g != g; j++)
			;
		if (j < i)
			continue; /* printed with its group's first result */
		skip = NULL;
		for (n = 0, j = i; j < run->nentries; j++) {
			if (run->entries[j].g != g)
				continue;
			if (run->entries[j].group_skip)
				skip = &run->entries[j];
			else
				r[n++] = &run->entries[j].r;
		}
		fputc('\n', f);
		if (n)
			g->table(f, r, n);
		else if (skip)
			fprintf(f, "swtee bench %s: skipped: %s\n", g->name, skip->r.skip_reason);
	}
	free(r);
	return 0;
}

/*
 * The rows of the common table (every row when all), with a group column
 * when group_col, and the note under it.
 */
static void bench_print_rows(FILE *f, const struct bench_run *run, bool all, bool group_col)
{
	static const char *const head[BENCH_COLS] = {
	    "group",  "case",	 "swtee",     "baseline",  "cost_ratio",
	    "target", "verdict", "p50_ratio", "p90_ratio",
	};
	char cell[BENCH_COLS][BENCH_CELL_MAX];
	int width[BENCH_COLS] = {0};
	int first = group_col ? 0 : 1;
	bool timed = false;
	size_t i = 0;
	int k = 0;

	for (k = 0; k < BENCH_COLS; k++)
		width[k] = (int)strlen(head[k]);
	for (i = 0; i < run->nentries; i++) {
		if (!all && !bench_in_common_table(&run->entries[i]))
			continue;
		table_row(&run->entries[i], cell);
		for (k = 0; k < BENCH_COLS; k++)
			if ((int)strlen(cell[k]) > width[k])
				width[k] = (int)strlen(cell[k]);
		if (run->entries[i].r.statistic)
			timed = true;
	}
	for (k = first; k < BENCH_COLS; k++)
		fprintf(f, "%-*s%s", k < BENCH_COLS - 1 ? width[k] : 0, head[k],
			k < BENCH_COLS - 1 ? "  " : "\n");
	for (i = 0; i < run->nentries; i++) {
		if (!all && !bench_in_common_table(&run->entries[i]))
			continue;
		table_row(&run->entries[i], cell);
		for (k = first; k < BENCH_COLS; k++)
			fprintf(f, "%-*s%s", k < BENCH_COLS - 1 ? width[k] : 0, cell[k],
				k < BENCH_COLS - 1 ? "  " : "\n");
	}
	if (timed)
		fputs(
		    "\nTimes are the median of each side's best block; every block talks to a\n"
		    "new partner process, so the best is each side at its best CPU placement.\n"
		    "cost_ratio: swtee's cost over the baseline's, measured in the same run\n"
		    "(1.00 = as cheap; lower is better). p50_ratio, p90_ratio: the same over\n"
		    "the medians and 90th percentiles of all samples, placement costs included.\n",
		    f);
}

/*
 * The tables of a run. A run of named groups: the common table, then the
 * groups' own. A run of every group: the groups' own tables, then one
 * summary table of every case. Returns 0, or -1 when out of memory.
 */
static int bench_print_table(FILE *f, const struct bench_run *run, bool summary)
{
	size_t i = 0;

	if (summary) {
		if (bench_print_group_tables(f, run))
			return -1;
		fputs("\nSummary\n\n", f);
		bench_print_rows(f, run, true, true);
		return 0;
	}
	for (i = 0; i < run->nentries && !bench_in_common_table(&run->entries[i]); i++)
		;
	if (i < run->nentries)
		bench_print_rows(f, run, false, false);
	return bench_print_group_tables(f, run);
}

/* ---- command line ---- */

static void bench_usage(FILE *f)
{
	const struct bench_group **groups = NULL;
	size_t n = 0;
	size_t i = 0;

	fprintf(f,
		"usage: swtee bench [GROUP...] [--json] [--iterations N] [--quick]\n"
		"                   [--report DIR] [--xtest FILE]... [--guest]\n"
		"       swtee bench --from RESULTS.json [--report DIR] [--xtest FILE]...\n"
		"       swtee bench --compare A.json B.json\n"
		"  Measures the TEE against native baselines timed in the same run and\n"
		"  prints medians and cost ratios (swtee's cost over the baseline's).\n"
		"  Without a GROUP runs them all, with a progress line on stderr, and ends\n"
		"  with one summary table. Needs a TEE: run it as\n"
		"  'swtee run -- swtee bench ...' or set SWTEE_SOCKET.\n"
		"  --json          print only a JSON array of results on stdout\n"
		"  --iterations N  measured iterations of every timed case (default: per group)\n"
		"  --quick         a tenth of each group's iterations: a smoke test of the report\n"
		"  --report DIR    also write a report: DIR/index.html, DIR/results.json and\n"
		"                  the plots in DIR/plots (docs/benchmarks.md, \"Reports\")\n"
		"  --xtest FILE    add the results of 'xtest --json FILE' to the report\n"
		"  --guest         the tpm group also boots QEMU guests on the fTPM and on\n"
		"                  swtpm, kernel TPM HMAC sessions on and off (docs/tpm.md)\n"
		"  --from FILE     no run: the results of a results.json or --json output\n"
		"  --compare A B   what got faster or slower from run A to run B (results.json\n"
		"                  or --json outputs); changes inside the noise band are 'same'\n"
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
		if (strcmp(groups[i]->name, name) == 0)
			return groups[i];
	return NULL;
}

/* What the command line asked for. */
struct bench_args {
	bool json;
	const char *report;
	const char *from;
	const char *compare;
	const char *xtest[BENCH_XTEST_FILES_MAX];
	size_t nxtest;
	int first_arg; /* argv index of the first GROUP (or of B for --compare) */
};

/* Parses argv into a and ctx. Returns -1 to go on, else the exit status. */
static int bench_parse(int argc, char **argv, struct bench_args *a, struct bench_ctx *ctx)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"iterations", required_argument, NULL, 'n'},
	    {"quick", no_argument, NULL, 'q'},
	    {"report", required_argument, NULL, 'r'},
	    {"xtest", required_argument, NULL, 'x'},
	    {"from", required_argument, NULL, 'f'},
	    {"compare", required_argument, NULL, 'c'},
	    {"guest", no_argument, NULL, 'g'}, /* bench_tpm_guest.c */
	    {"help", no_argument, NULL, 'h'},
	    {0},
	};
	int opt = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			a->json = true;
			break;
		case 'n':
			if (parse_iterations(optarg, &ctx->iterations)) {
				fprintf(stderr,
					"swtee bench: --iterations wants a count from 1 to %lu, "
					"not '%s'\n",
					BENCH_ITERATIONS_MAX, optarg);
				return 2;
			}
			break;
		case 'q':
			ctx->quick = true;
			break;
		case 'r':
			a->report = optarg;
			break;
		case 'x':
			if (a->nxtest == BENCH_XTEST_FILES_MAX) {
				fprintf(stderr, "swtee bench: at most %d --xtest files\n",
					BENCH_XTEST_FILES_MAX);
				return 2;
			}
			a->xtest[a->nxtest++] = optarg;
			break;
		case 'f':
			a->from = optarg;
			break;
		case 'c':
			a->compare = optarg;
			break;
		case 'g':
			ctx->guest = true;
			break;
		case 'h':
			bench_usage(stdout);
			return 0;
		default:
			if (optopt && strchr("nrxfc", optopt))
				fprintf(stderr, "swtee bench: option '%s' needs an argument\n",
					argv[optind - 1]);
			else
				fprintf(stderr, "swtee bench: unknown option '%s'\n",
					argv[optind - 1]);
			fprintf(stderr, "Try 'swtee bench -h'.\n");
			return 2;
		}
	}
	a->first_arg = optind;
	if (a->compare && (argc - optind != 1 || a->from || a->report || a->json)) {
		fprintf(stderr, "swtee bench: --compare takes two files and no other option: "
				"swtee bench --compare A.json B.json\n");
		return 2;
	}
	if (a->from && ctx->guest) {
		fprintf(stderr, "swtee bench: --guest runs the guest experiment; --from runs "
				"nothing\n");
		return 2;
	}
	if (a->from && argc > optind) {
		fprintf(stderr, "swtee bench: --from runs no group; '%s' is one too many\n",
			argv[optind]);
		return 2;
	}
	return -1;
}

/* --compare A B: reads both and prints the changes. Returns the exit status. */
static int bench_compare_files(const char *a_path, const char *b_path)
{
	struct bench_run a = {0};
	struct bench_run b = {0};
	int ret = 1;

	if (bench_load_results(a_path, &a) || bench_load_results(b_path, &b))
		goto out;
	bench_diff_print(stdout, &a, a_path, &b, b_path);
	ret = fflush(stdout) ? 1 : 0;
out:
	bench_run_fini(&a);
	bench_run_fini(&b);
	return ret;
}

/* Runs the groups of run[0..n) into ctx. Returns how many failed, or -1 when out of memory. */
static int bench_run_groups(struct bench_ctx *ctx, const struct bench_group **run, size_t n)
{
	struct bench_group_run *gr = NULL;
	double t0 = 0;
	int failed = 0;
	size_t i = 0;

	bench_progress_start(run, n, ctx->quick);
	for (i = 0; i < n; i++) {
		gr = bench_run_add_group(&ctx->run, run[i]->name);
		if (!gr) {
			failed = -1;
			break;
		}
		bench_text(gr->help, sizeof(gr->help), "%s", run[i]->help ? run[i]->help : "");
		ctx->group = run[i];
		ctx->group_run = ctx->run.ngroups - 1;
		bench_progress_group(i);
		t0 = bench_now_us();
		if (run[i]->run(ctx)) {
			gr = &ctx->run.groups[ctx->group_run];
			gr->status = BENCH_GROUP_FAILED;
			failed++;
			bench_progress_end();
			fprintf(stderr, "swtee bench: group %s failed\n", run[i]->name);
		}
		ctx->run.groups[ctx->group_run].seconds = (bench_now_us() - t0) / 1e6;
	}
	bench_progress_end();
	ctx->group = NULL;
	return failed;
}

/*
 * The groups named in argv[first..argc), in the order named, each once, into run; all of
 * them when none is named and nothing is loaded. Returns 0, or -1 for an unknown group.
 */
static int bench_select_groups(const struct bench_group **groups, size_t ngroups, int argc,
			       char **argv, const struct bench_args *a,
			       const struct bench_group **run, size_t *nrun)
{
	size_t i = 0;
	size_t j = 0;

	for (i = (size_t)a->first_arg; i < (size_t)argc; i++) {
		const struct bench_group *g = bench_group_find(groups, ngroups, argv[i]);

		if (!g) {
			fprintf(stderr, "swtee bench: no group '%s' (swtee bench -h lists them)\n",
				argv[i]);
			return -1;
		}
		for (j = 0; j < *nrun && run[j] != g; j++)
			;
		if (j == *nrun)
			run[(*nrun)++] = g;
	}
	if (!*nrun && !a->from) {
		memcpy(run, groups, ngroups * sizeof(const struct bench_group *));
		*nrun = ngroups;
	}
	return 0;
}

/* The run's results from --from, or this machine's facts; then the --xtest files. 0 or -1. */
static int bench_load_inputs(const struct bench_args *a, struct bench_ctx *ctx)
{
	size_t i = 0;

	if (a->from) {
		if (bench_load_results(a->from, &ctx->run))
			return -1;
	} else {
		bench_machine_read(&ctx->run.machine);
		ctx->run.quick = ctx->quick;
		ctx->run.iterations = ctx->iterations;
	}
	for (i = 0; i < a->nxtest; i++)
		if (bench_load_xtest(a->xtest[i], &ctx->run))
			return -1;
	return 0;
}

/*
 * Opens the TEE context (*teec_open: whether it is open) and runs the groups of
 * run[0..n) in it. Returns how many failed, or -1 when there is no TEE or no memory.
 */
static int bench_run_tee(struct bench_ctx *ctx, const struct bench_group **run, size_t n,
			 bool *teec_open)
{
	if (TEEC_InitializeContext(NULL, &ctx->teec) != TEEC_SUCCESS) {
		fprintf(stderr, "swtee bench: no TEE is reachable (set SWTEE_SOCKET or run: "
				"swtee run -- swtee bench ...)\n");
		return -1;
	}
	*teec_open = true;
	return bench_run_groups(ctx, run, n);
}

/* Prints the results (table or JSON) and writes the report if asked; how many of those failed. */
static int bench_write_outputs(const struct bench_args *a, struct bench_ctx *ctx, int argc)
{
	int failed = 0;

	if (a->json) {
		bench_json_results(stdout, &ctx->run, "");
		fputc('\n', stdout);
	} else if (bench_print_table(stdout, &ctx->run, !a->from && a->first_arg == argc)) {
		failed++;
	}
	if (fflush(stdout)) {
		fprintf(stderr, "swtee bench: writing the results: %s\n", strerror(errno));
		failed++;
	}
	if (a->report) {
		if (bench_page_write(a->report, &ctx->run))
			failed++;
		else
			fprintf(a->json ? stderr : stdout, "\nReport: %s/index.html\n", a->report);
	}
	return failed;
}

int swtee_bench_main(int argc, char **argv)
{
	struct bench_args a = {0};
	struct bench_ctx ctx = {0};
	const struct bench_group **groups = NULL;
	const struct bench_group **run = NULL;
	size_t ngroups = 0;
	size_t nrun = 0;
	bool teec_open = false;
	int failed = 0;
	int ret = 2;
	int n = 0;

	groups = bench_groups_sorted(&ngroups);
	run = calloc(ngroups ? ngroups : 1, sizeof(const struct bench_group *));
	if (!groups || !run) {
		fprintf(stderr, "swtee bench: out of memory\n");
		ret = 1;
		goto out;
	}
	ret = bench_parse(argc, argv, &a, &ctx);
	if (ret >= 0)
		goto out;
	ret = 2;
	if (a.compare) {
		ret = bench_compare_files(a.compare, argv[a.first_arg]);
		goto out;
	}
	if (bench_select_groups(groups, ngroups, argc, argv, &a, run, &nrun))
		goto out;
	if (ctx.guest && !bench_group_find(run, nrun, "tpm")) {
		fprintf(stderr, "swtee bench: --guest belongs to the tpm group: swtee bench tpm "
				"--guest\n");
		goto out;
	}
	ret = 1;
	if (bench_load_inputs(&a, &ctx))
		goto out;
	if (!a.from) {
		n = bench_run_tee(&ctx, run, nrun, &teec_open);
		if (n < 0)
			goto out;
		failed += n;
	}
	failed += bench_write_outputs(&a, &ctx, argc);
	ret = failed ? 1 : 0;
out:
	if (teec_open)
		TEEC_FinalizeContext(&ctx.teec);
	bench_run_fini(&ctx.run);
	free(groups);
	free(run);
	return ret;
}
