/*
 * swtee bench --compare A B: what got faster or slower from run A to run B.
 *
 * The rule, as docs/benchmarks.md states it: cases are matched by group
 * and name. A case's change is (B - A) / A of its value. Its noise band is
 * the larger of 5% and the spread each run measured for the case (how far
 * its second-best block lay from its best: the value could have moved that
 * much within the run). A change inside the band is "same"; outside it is
 * "faster" or "slower" ("smaller" or "larger" for a size), by the unit's
 * direction (a time or a size is better lower, a rate per second higher).
 * Cases skipped, missing, in other units or without a value in either run
 * are listed apart. The exit status is 0 whatever got slower.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_int.h"
#include "bench_text.h"

#define DIFF_BAND_MIN 0.05
#define DIFF_COLS 8
#define DIFF_CELL_MAX 96

enum diff_verdict {
	DIFF_FASTER,
	DIFF_SLOWER,
	DIFF_SAME,
	DIFF_APART, /* not compared: skipped, missing, other unit, no value */
};

struct diff_counts {
	size_t n[4];
};

static void diff_value(char *out, size_t n, const struct bench_result *r)
{
	if (r->skipped)
		bench_text(out, n, "skipped");
	else if (!isfinite(r->value))
		bench_text(out, n, "-");
	else if (fabs(r->value) >= 100)
		bench_text(out, n, "%.0f %s", r->value, r->unit);
	else
		bench_text(out, n, "%.3g %s", r->value, r->unit);
}

/* Whether unit is a size: then a change is "smaller" or "larger", not faster or slower. */
static bool diff_is_size(const char *unit)
{
	static const char *const sizes[] = {"B", "KiB", "MiB", "GiB", "kB", "MB", "GB"};
	size_t i = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (strcmp(unit, sizes[i]) == 0)
			return true;
	return false;
}

static void diff_ratio(char *out, size_t n, const struct bench_result *a,
		       const struct bench_result *b)
{
	double x = a ? bench_cost_ratio(a) : NAN;
	double y = b ? bench_cost_ratio(b) : NAN;

	char xs[16] = "-";
	char ys[16] = "-";

	if (!isfinite(x) && !isfinite(y)) {
		bench_text(out, n, "-");
		return;
	}
	if (isfinite(x))
		bench_text(xs, sizeof(xs), "%.2f", x);
	if (isfinite(y))
		bench_text(ys, sizeof(ys), "%.2f", y);
	bench_text(out, n, "%s -> %s", xs, ys);
}

/* The band of a case: 5%, or the wider spread either run measured. */
static double diff_band(const struct bench_result *a, const struct bench_result *b)
{
	double band = DIFF_BAND_MIN;

	if (a->has_spread && a->spread > band)
		band = a->spread;
	if (b->has_spread && b->spread > band)
		band = b->spread;
	return band;
}

/* The cells of one case present in a, in b, or in both; returns its verdict. */
static enum diff_verdict diff_row(const struct bench_entry *ea, const struct bench_entry *eb,
				  char cell[DIFF_COLS][DIFF_CELL_MAX])
{
	const struct bench_entry *e = ea ? ea : eb;
	const struct bench_result *a = ea ? &ea->r : NULL;
	const struct bench_result *b = eb ? &eb->r : NULL;
	double change = 0;
	double band = 0;
	bool better = false;

	bench_text(cell[0], DIFF_CELL_MAX, "%s", e->group);
	bench_text(cell[1], DIFF_CELL_MAX, "%s", e->r.name);
	bench_text(cell[2], DIFF_CELL_MAX, "-");
	bench_text(cell[3], DIFF_CELL_MAX, "-");
	if (a)
		diff_value(cell[2], DIFF_CELL_MAX, a);
	if (b)
		diff_value(cell[3], DIFF_CELL_MAX, b);
	bench_text(cell[4], DIFF_CELL_MAX, "-");
	bench_text(cell[5], DIFF_CELL_MAX, "-");
	diff_ratio(cell[6], DIFF_CELL_MAX, a, b);
	if (!a || !b) {
		bench_text(cell[7], DIFF_CELL_MAX, "only in %s", a ? "A" : "B");
		return DIFF_APART;
	}
	if (a->skipped || b->skipped) {
		bench_text(cell[7], DIFF_CELL_MAX, "skipped in %s",
			   a->skipped && b->skipped ? "both" : (a->skipped ? "A" : "B"));
		return DIFF_APART;
	}
	if (strcmp(a->unit, b->unit) != 0) {
		bench_text(cell[7], DIFF_CELL_MAX, "units differ");
		return DIFF_APART;
	}
	if (!(a->value > 0) || !isfinite(a->value) || !isfinite(b->value) || !(b->value >= 0)) {
		bench_text(cell[7], DIFF_CELL_MAX, "no value");
		return DIFF_APART;
	}
	change = (b->value - a->value) / a->value;
	band = diff_band(a, b);
	bench_text(cell[4], DIFF_CELL_MAX, "%+.1f%%", change * 100);
	bench_text(cell[5], DIFF_CELL_MAX, "+-%.1f%%", band * 100);
	if (fabs(change) <= band) {
		bench_text(cell[7], DIFF_CELL_MAX, "same");
		return DIFF_SAME;
	}
	better = (change > 0) == b->higher_is_better;
	if (diff_is_size(b->unit))
		bench_text(cell[7], DIFF_CELL_MAX, "%s", change < 0 ? "smaller" : "larger");
	else
		bench_text(cell[7], DIFF_CELL_MAX, "%s", better ? "faster" : "slower");
	return better ? DIFF_FASTER : DIFF_SLOWER;
}

static void diff_print_rows(FILE *f, const struct bench_run *a, const struct bench_run *b,
			    struct diff_counts *counts)
{
	static const char *const head[DIFF_COLS] = {
	    "group", "case", "A", "B", "change", "band", "cost_ratio A -> B", "verdict",
	};
	char cell[DIFF_COLS][DIFF_CELL_MAX];
	const struct bench_entry *other = NULL;
	int widths[DIFF_COLS] = {0};
	enum diff_verdict v = DIFF_SAME;
	size_t i = 0;
	int pass = 0;
	int k = 0;

	for (k = 0; k < DIFF_COLS; k++)
		widths[k] = (int)strlen(head[k]);
	/* Two passes: the column widths, then the rows. */
	for (pass = 0; pass < 2; pass++) {
		if (pass == 1)
			for (k = 0; k < DIFF_COLS; k++)
				fprintf(f, "%-*s%s", k < DIFF_COLS - 1 ? widths[k] : 0, head[k],
					k < DIFF_COLS - 1 ? "  " : "\n");
		for (i = 0; i < a->nentries + b->nentries; i++) {
			if (i < a->nentries) {
				other =
				    bench_run_find(b, a->entries[i].group, a->entries[i].r.name);
				v = diff_row(&a->entries[i], other, cell);
			} else {
				const struct bench_entry *e = &b->entries[i - a->nentries];

				if (bench_run_find(a, e->group, e->r.name))
					continue;
				v = diff_row(NULL, e, cell);
			}
			for (k = 0; k < DIFF_COLS && pass == 0; k++)
				if ((int)strlen(cell[k]) > widths[k])
					widths[k] = (int)strlen(cell[k]);
			if (pass == 0)
				continue;
			counts->n[v]++;
			for (k = 0; k < DIFF_COLS; k++)
				fprintf(f, "%-*s%s", k < DIFF_COLS - 1 ? widths[k] : 0, cell[k],
					k < DIFF_COLS - 1 ? "  " : "\n");
		}
	}
}

static void diff_describe(FILE *f, const char *label, const char *name, const struct bench_run *r)
{
	const struct bench_machine *m = &r->machine;

	fprintf(f, "%s: %s", label, name);
	if (m->date[0])
		fprintf(f, ", %s", m->date);
	if (m->cpu_model[0])
		fprintf(f, ", %s (%u cores)", m->cpu_model, m->cores);
	if (r->quick)
		fputs(", --quick", f);
	fputc('\n', f);
}

int bench_diff_print(FILE *f, const struct bench_run *a, const char *name_a,
		     const struct bench_run *b, const char *name_b)
{
	struct diff_counts counts = {{0}};

	diff_describe(f, "A", name_a, a);
	diff_describe(f, "B", name_b, b);
	if (a->machine.cpu_model[0] && b->machine.cpu_model[0] &&
	    (strcmp(a->machine.cpu_model, b->machine.cpu_model) != 0 ||
	     a->machine.cores != b->machine.cores))
		fputs("A and B ran on different machines: their times compare the machines as\n"
		      "much as swtee; the cost ratios (each against a baseline of its own run)\n"
		      "compare swtee.\n",
		      f);
	if (a->quick != b->quick)
		fputs("One run is --quick: its figures rest on a tenth of the samples.\n", f);
	fputc('\n', f);
	diff_print_rows(f, a, b, &counts);
	fprintf(f, "\n%zu better (faster or smaller), %zu worse, %zu same, %zu not compared\n",
		counts.n[DIFF_FASTER], counts.n[DIFF_SLOWER], counts.n[DIFF_SAME],
		counts.n[DIFF_APART]);
	fputs("change: (B - A) / A of the value. band: the larger of 5% and the spread\n"
	      "either run measured for the case (how far its second-best block lay from its\n"
	      "best); a change inside the band is \"same\". Times and sizes are better lower,\n"
	      "rates (per second) higher.\n",
	      f);
	return 0;
}
