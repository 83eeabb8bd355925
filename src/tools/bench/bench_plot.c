/*
 * swtee bench: which plots a report draws from a run, and what each says.
 *
 *	latency-<case>		invoke and session: the time of every sample by
 *				percentile, swtee against its baseline
 *	sweep-<group>-<family>	a case swept over buffer sizes (crypto: each
 *				algorithm): throughput of swtee, of its baseline
 *				and of its variants, beside other hardware's
 *	sweep-<group>-<variant>	a variant in a unit of its own (crypto's
 *				per-call overhead) across the families
 *	storage-optee		xtest's storage benchmarks (--xtest) beside
 *				OP-TEE's on an i.MX6
 *	xtest-crypto-optee	xtest's crypto benchmarks beside OP-TEE's
 *	ecdsa			ECDSA P-256 operations per second
 *	tpm			the fTPM against swtpm, beside hardware TPMs
 *
 * Each kind is one row of plot_specs (at the end): its place in the
 * report, its axes, fixed titles and captions, and the note left when the
 * run draws none of that kind. A row's draw function only picks the run's
 * cases and turns them into curves or bars.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include "bench_svg.h"
#include "bench_text.h"

#define PLOT_SWEEP_MIN 3 /* sizes a curve needs */
#define PLOT_SWEEP_MAX 32
#define PLOT_SERIES_MAX 16
#define PLOT_CATEGORIES_MAX 32

/* Okabe-Ito: told apart with any colour vision. */
#define COLOR_SWTEE "#0072b2"
#define COLOR_BASELINE "#e69f00"
static const char *const plot_variant_colors[] = {"#009e73", "#cc79a7", "#d55e00", "#56b4e9"};
/* Other hardware: muted, drawn open and dashed. */
static const char *const plot_other_colors[] = {"#7f7f7f", "#8c6d31", "#17becf",
						"#9467bd", "#bcbd22", "#843c39"};
static const char *const plot_family_colors[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7",
						 "#d55e00", "#56b4e9", "#000000", "#f0e442"};
static const enum bench_svg_marker plot_markers[] = {
    BENCH_SVG_MARK_CIRCLE, BENCH_SVG_MARK_SQUARE, BENCH_SVG_MARK_TRIANGLE, BENCH_SVG_MARK_DIAMOND};

#define PLOT_N(a) (sizeof(a) / sizeof((a)[0]))

/* The groups whose cases get a latency distribution. */
static const char *const plot_latency_groups[] = {"invoke", "session"};

static const struct bench_svg_style plot_swtee_line = {.color = COLOR_SWTEE,
						       .marker = BENCH_SVG_MARK_CIRCLE};
static const struct bench_svg_style plot_baseline_line = {.color = COLOR_BASELINE,
							  .marker = BENCH_SVG_MARK_SQUARE};
static const struct bench_svg_style plot_swtee_bar = {.color = COLOR_SWTEE};
static const struct bench_svg_style plot_baseline_bar = {.color = COLOR_BASELINE};

/* Figures from other hardware, the i-th of a plot: open and dashed. */
static struct bench_svg_style plot_other_style(size_t i, enum bench_svg_marker marker)
{
	return (struct bench_svg_style){
	    .color = plot_other_colors[i % PLOT_N(plot_other_colors)],
	    .dashed = true,
	    .hollow = true,
	    .marker = marker,
	};
}

/* An axis that fits its data (a static initializer, where no function may stand). */
#define PLOT_AXIS(label_, unit_, scale_, format_)                                                  \
	{                                                                                          \
		.label = (label_), .unit = (unit_), .scale = (scale_), .format = (format_),        \
		.min = NAN, .max = NAN                                                             \
	}

/*
 * One kind of plot of a report. draw adds the plots of its kind that run
 * allows to out; when it draws none and knows why better than none says, it
 * writes the reason into why. Returns 0, or -1 when out of memory (said).
 */
struct plot_spec {
	const char *kind;	 /* the first part of the ids: "latency", "sweep" */
	const char *name;	 /* their second part; NULL: the case or family drawn */
	const char *section;	 /* NULL: the group of the cases drawn */
	const char *title;	 /* NULL: made from what is drawn */
	const char *caption;	 /* NULL: made from what is drawn */
	struct bench_svg_axis x; /* line plots only */
	struct bench_svg_axis y; /* the values: up a line plot, along the bars */
	const char *none;	 /* the note when the run draws none; NULL: no note */
	int (*draw)(const struct plot_spec *spec, const struct bench_run *run,
		    struct bench_plots *out, char *why, size_t whylen);
};

/* ---- the plot list ---- */

void bench_plots_fini(struct bench_plots *p)
{
	size_t i = 0;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		free(p->v[i].svg);
	free(p->v);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}

/* [a-z0-9-] from s, into out. */
static void plot_id(char *out, size_t n, const char *s)
{
	size_t i = 0;

	for (; *s && i + 1 < n; s++) {
		unsigned char ch = (unsigned char)*s;

		if (isalnum(ch))
			out[i++] = (char)tolower(ch);
		else if (i && out[i - 1] != '-')
			out[i++] = '-';
	}
	while (i && out[i - 1] == '-')
		i--;
	out[i] = '\0';
}

/* A new plot at the end of out, its id made from the parts; NULL when out of memory. */
static struct bench_plot *plot_new(struct bench_plots *out, const char *section, const char *a,
				   const char *b)
{
	struct bench_plot *p = NULL;
	char raw[2 * BENCH_NAME_MAX + 2];
	size_t i = 0;

	if (out->n == out->cap) {
		size_t cap = out->cap ? 2 * out->cap : 16;

		p = reallocarray(out->v, cap, sizeof(*p));
		if (!p) {
			fprintf(stderr, "swtee bench: out of memory\n");
			return NULL;
		}
		out->v = p;
		out->cap = cap;
	}
	p = &out->v[out->n];
	memset(p, 0, sizeof(*p));
	bench_text(raw, sizeof(raw), "%s-%s", a, b ? b : "");
	plot_id(p->id, sizeof(p->id), raw);
	/* Ids are file names: two plots may not share one. */
	for (i = 0; i < out->n; i++) {
		if (strcmp(out->v[i].id, p->id) != 0)
			continue;
		bench_text(raw, sizeof(raw), "%.40s-%zu", p->id, out->n);
		plot_id(p->id, sizeof(p->id), raw);
		break;
	}
	bench_text(p->section, sizeof(p->section), "%s", section);
	return p;
}

/*
 * Keeps the plot just set up when draw (writing to a memory stream)
 * succeeds; drops it otherwise. Returns 0, or -1 when out of memory.
 */
static int plot_keep(struct bench_plots *out, struct bench_plot *p,
		     int (*draw)(FILE *f, const void *arg), const void *arg)
{
	FILE *f = open_memstream(&p->svg, &p->svg_len);
	int drawn = 0;

	if (!f) {
		fprintf(stderr, "swtee bench: out of memory\n");
		return -1;
	}
	drawn = draw(f, arg);
	if (fclose(f) || !p->svg) {
		fprintf(stderr, "swtee bench: out of memory\n");
		free(p->svg);
		p->svg = NULL;
		return -1;
	}
	if (drawn) {
		free(p->svg);
		p->svg = NULL;
		return 0;
	}
	out->n++;
	return 0;
}

static int plot_draw_xy(FILE *f, const void *arg)
{
	return bench_svg_xy(f, arg);
}

static int plot_draw_bars(FILE *f, const void *arg)
{
	return bench_svg_bars(f, arg);
}

/* calloc of one n-byte block, saying so when out of memory. */
static void *plot_zalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p)
		fprintf(stderr, "swtee bench: out of memory\n");
	return p;
}

/*
 * A new plot of spec's kind in section (NULL: spec's) named name (NULL:
 * spec's), with spec's title and caption when it has them.
 */
static struct bench_plot *plot_start(struct bench_plots *out, const struct plot_spec *spec,
				     const char *section, const char *name)
{
	struct bench_plot *pl =
	    plot_new(out, section ? section : spec->section, spec->kind, name ? name : spec->name);

	if (pl && spec->title)
		bench_text(pl->title, sizeof(pl->title), "%s", spec->title);
	if (pl && spec->caption)
		bench_text(pl->caption, sizeof(pl->caption), "%s", spec->caption);
	return pl;
}

/* Keeps pl as a line plot of series on spec's axes, y for the values (NULL: spec's). */
static int plot_keep_xy(struct bench_plots *out, struct bench_plot *pl,
			const struct plot_spec *spec, const struct bench_svg_axis *y,
			const struct bench_svg_series *series, size_t nseries)
{
	const struct bench_svg_xy xy = {
	    .id = pl->id,
	    .title = pl->title,
	    .x = spec->x,
	    .y = y ? *y : spec->y,
	    .series = series,
	    .nseries = nseries,
	};

	return plot_keep(out, pl, plot_draw_xy, &xy);
}

/* Adds a note that a plot is not drawn, and why. Returns 0, or -1 when out of memory. */
static int plot_note(struct bench_plots *out, const char *section, const char *text)
{
	struct bench_plot_note *n = NULL;

	if (out->nnotes == out->notes_cap) {
		size_t cap = out->notes_cap ? 2 * out->notes_cap : 8;

		n = reallocarray(out->notes, cap, sizeof(*n));
		if (!n) {
			fprintf(stderr, "swtee bench: out of memory\n");
			return -1;
		}
		out->notes = n;
		out->notes_cap = cap;
	}
	n = &out->notes[out->nnotes++];
	bench_text(n->section, sizeof(n->section), "%s", section);
	bench_text(n->text, sizeof(n->text), "%s", text);
	return 0;
}

/* ---- units ---- */

/* Bytes per second in one unit of the rate u; 0 when u is no rate of bytes. */
static double plot_rate_scale(const char *u)
{
	static const struct {
		const char *unit;
		double scale;
	} rates[] = {
	    {"B/s", 1},	   {"kB/s", 1e3},	 {"KB/s", 1e3}, {"KiB/s", 1024},
	    {"MB/s", 1e6}, {"MiB/s", 1048576.0}, {"GB/s", 1e9}, {"GiB/s", 1073741824.0},
	};
	size_t i = 0;

	for (i = 0; i < PLOT_N(rates); i++)
		if (strcmp(u, rates[i].unit) == 0)
			return rates[i].scale;
	return 0;
}

/* Microseconds in one unit of the time u; 0 when u is no time. */
static double plot_time_scale(const char *u)
{
	if (strcmp(u, "ns") == 0)
		return 1e-3;
	if (strcmp(u, "us") == 0)
		return 1;
	if (strcmp(u, "ms") == 0)
		return 1e3;
	if (strcmp(u, "s") == 0)
		return 1e6;
	return 0;
}

/* v (in unit u, for a buffer of size bytes) as MB/s; NAN when it cannot be. */
static double plot_mb_s(double v, const char *u, double size)
{
	double rate = plot_rate_scale(u);
	double t = plot_time_scale(u);

	if (!isfinite(v) || !(v > 0))
		return NAN;
	if (rate > 0)
		return v * rate / 1e6;
	if (t > 0 && size > 0)
		return size / (v * t); /* bytes per us */
	return NAN;
}

/* ---- names ---- */

/* Parses a size token of len bytes at s: digits, then k/K (KiB) or m/M (MiB). */
static bool plot_size_token(const char *s, size_t len, double *out)
{
	double v = 0;
	size_t i = 0;

	for (i = 0; i < len && isdigit((unsigned char)s[i]); i++)
		v = v * 10 + (s[i] - '0');
	if (!i || i > 10)
		return false;
	if (i + 1 == len && (s[i] == 'k' || s[i] == 'K'))
		v *= 1024;
	else if (i + 1 == len && (s[i] == 'm' || s[i] == 'M'))
		v *= 1024 * 1024;
	else if (i != len)
		return false;
	*out = v;
	return v > 0;
}

bool bench_plot_sweep_name(const char *name, char *family, size_t family_len, double *size,
			   char *variant, size_t variant_len)
{
	const char *best = NULL;
	size_t best_len = 0;
	const char *p = name;
	double v = 0;

	/* Tokens run between '/' and '_'; the last that is a size wins. */
	while (*p) {
		size_t len = strcspn(p, "/_");
		double t = 0;

		if (p != name && plot_size_token(p, len, &t)) {
			best = p;
			best_len = len;
			v = t;
		}
		p += len;
		if (*p)
			p++;
	}
	if (!best)
		return false;
	bench_text(family, family_len, "%.*s", (int)(best - name - 1), name);
	p = best + best_len;
	bench_text(variant, variant_len, "%s", *p ? p + 1 : "");
	*size = v;
	return true;
}

/* ---- latency ---- */

static bool plot_is_latency_group(const char *group)
{
	size_t i = 0;

	for (i = 0; i < PLOT_N(plot_latency_groups); i++)
		if (strcmp(group, plot_latency_groups[i]) == 0)
			return true;
	return false;
}

/* The quantile at percentile p of q, NAN when p is not one of the points. */
static double plot_quantile(const double *q, double p)
{
	size_t i = 0;

	for (i = 0; i < BENCH_QUANTILES; i++)
		if (bench_quantile_points[i] == p)
			return q[i];
	return NAN;
}

static int plot_latency(const struct plot_spec *spec, const struct bench_entry *e,
			struct bench_plots *out)
{
	const struct bench_result *r = &e->r;
	double p[BENCH_QUANTILES];
	double sw[BENCH_QUANTILES];
	double base[BENCH_QUANTILES];
	struct bench_svg_series series[2];
	struct bench_plot *pl = NULL;
	double t = plot_time_scale(r->quantiles_unit);
	double m_sw = plot_quantile(r->quantiles, 50);
	double m_base = plot_quantile(r->baseline_quantiles, 50);
	double t_sw = plot_quantile(r->quantiles, 99);
	double t_base = plot_quantile(r->baseline_quantiles, 99);
	size_t n = 0;
	size_t i = 0;

	if (!t)
		return 0;
	/* The tail axis ends before 100%: the maximum is one sample, not a percentile. */
	for (i = 0; i < BENCH_QUANTILES; i++) {
		if (bench_quantile_points[i] >= 100)
			continue;
		p[n] = bench_quantile_points[i];
		sw[n] = r->quantiles[i] * t;
		base[n] = r->baseline_quantiles[i] * t;
		n++;
	}
	series[0] = (struct bench_svg_series){
	    .label = "swtee", .x = p, .y = sw, .n = n, .style = plot_swtee_line};
	series[1] = (struct bench_svg_series){
	    .label = r->baseline_name[0] ? r->baseline_name : "baseline",
	    .x = p,
	    .y = base,
	    .n = n,
	    .style = plot_baseline_line,
	};
	pl = plot_start(out, spec, e->group, r->name);
	if (!pl)
		return -1;
	bench_text(pl->title, sizeof(pl->title), "%s: latency distribution", r->name);
	bench_text(
	    pl->caption, sizeof(pl->caption),
	    "The time of each of the %zu %s samples by percentile (the right end is the slow "
	    "tail), against %s timed in the same run: at the median swtee takes %.3g us, "
	    "%.2f times the baseline, and at p99 %.3g us, %.2f times.",
	    r->iterations, r->name, series[1].label, m_sw * t, m_sw / m_base, t_sw * t,
	    t_sw / t_base);
	return plot_keep_xy(out, pl, spec, NULL, series, 2);
}

static int plot_latencies(const struct plot_spec *spec, const struct bench_run *run,
			  struct bench_plots *out, char *why, size_t whylen)
{
	size_t i = 0;

	(void)why;
	(void)whylen;
	for (i = 0; i < run->nentries; i++) {
		const struct bench_entry *e = &run->entries[i];

		if (!plot_is_latency_group(e->group) || !e->r.has_quantiles || e->r.skipped)
			continue;
		if (plot_latency(spec, e, out))
			return -1;
	}
	return 0;
}

/* ---- sweeps ---- */

/* One case of a sweep. */
struct plot_point {
	const struct bench_entry *e;
	char family[BENCH_NAME_MAX];
	char variant[BENCH_NAME_MAX];
	double size;
};

struct plot_sweep {
	struct plot_point *v;
	size_t n;
};

/* The sweep cases of group, in report order. Returns 0 or -1 (out of memory). */
static int plot_sweep_of(const struct bench_run *run, const char *group, struct plot_sweep *s)
{
	size_t i = 0;

	s->n = 0;
	s->v = calloc(run->nentries ? run->nentries : 1, sizeof(*s->v));
	if (!s->v) {
		fprintf(stderr, "swtee bench: out of memory\n");
		return -1;
	}
	for (i = 0; i < run->nentries; i++) {
		struct plot_point *pt = &s->v[s->n];

		if (strcmp(run->entries[i].group, group) != 0 || run->entries[i].group_skip)
			continue;
		if (!bench_plot_sweep_name(run->entries[i].r.name, pt->family, sizeof(pt->family),
					   &pt->size, pt->variant, sizeof(pt->variant)))
			continue;
		pt->e = &run->entries[i];
		s->n++;
	}
	return 0;
}

/* The points of family and variant with a value, by size, into v (at most max). */
static size_t plot_sweep_select(const struct plot_sweep *s, const char *family, const char *variant,
				const struct plot_point **v, size_t max)
{
	const struct plot_point *t = NULL;
	size_t n = 0;
	size_t i = 0;
	size_t j = 0;

	for (i = 0; i < s->n && n < max; i++) {
		if ((family && strcmp(s->v[i].family, family) != 0) ||
		    strcmp(s->v[i].variant, variant) != 0)
			continue;
		v[n++] = &s->v[i];
	}
	/* Insertion sort by size: a handful of points. */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && v[j - 1]->size > v[j]->size; j--) {
			t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return n;
}

/* How many points of the selection have a value to draw. */
static size_t plot_drawable(const struct plot_point *const *v, size_t n)
{
	size_t k = 0;
	size_t i = 0;

	for (i = 0; i < n; i++)
		if (!v[i]->e->r.skipped && isfinite(v[i]->e->r.value))
			k++;
	return k;
}

/* Storage for the curves of one plot. */
struct plot_curves {
	struct bench_svg_series s[PLOT_SERIES_MAX];
	double x[PLOT_SERIES_MAX][PLOT_SWEEP_MAX];
	double y[PLOT_SERIES_MAX][PLOT_SWEEP_MAX];
	char label[PLOT_SERIES_MAX][BENCH_TEXT_MAX];
	size_t n;
};

/* A new curve in c, or NULL when c is full. */
static struct bench_svg_series *plot_curve(struct plot_curves *c, const char *label,
					   struct bench_svg_style style)
{
	struct bench_svg_series *s = NULL;

	if (c->n == PLOT_SERIES_MAX)
		return NULL;
	bench_text(c->label[c->n], sizeof(c->label[c->n]), "%s", label);
	s = &c->s[c->n];
	*s = (struct bench_svg_series){
	    .label = c->label[c->n],
	    .x = c->x[c->n],
	    .y = c->y[c->n],
	    .n = 0,
	    .style = style,
	};
	c->n++;
	return s;
}

static void plot_curve_add(struct plot_curves *c, struct bench_svg_series *s, double x, double y)
{
	size_t k = (size_t)(s - c->s);

	if (s->n == PLOT_SWEEP_MAX)
		return;
	c->x[k][s->n] = x;
	c->y[k][s->n] = y;
	s->n++;
}

/* "accel_off" as "accel off". */
static void plot_words(char *out, size_t n, const char *s)
{
	size_t i = 0;

	bench_text(out, n, "%s", s);
	for (i = 0; out[i]; i++)
		if (out[i] == '_')
			out[i] = ' ';
}

/* The sizes at both ends of a family's sweep and swtee's cost ratio at each. */
struct plot_family_ends {
	double small, big;
	double small_ratio, big_ratio;
};

/* The curves of swtee and of its baseline bname (NULL: none) from the n points pts; their ends. */
static void plot_family_main(struct plot_curves *c, const struct plot_point *const *pts, size_t n,
			     const char *bname, struct plot_family_ends *ends)
{
	struct bench_svg_series *sw = plot_curve(c, "swtee", plot_swtee_line);
	struct bench_svg_series *base = NULL;
	size_t i = 0;

	if (bname)
		base = plot_curve(c, bname, plot_baseline_line);
	for (i = 0; i < n; i++) {
		const struct bench_result *r = &pts[i]->e->r;

		if (r->skipped)
			continue;
		plot_curve_add(c, sw, pts[i]->size, plot_mb_s(r->value, r->unit, pts[i]->size));
		if (base && r->has_baseline)
			plot_curve_add(c, base, pts[i]->size,
				       plot_mb_s(r->baseline_value, r->unit, pts[i]->size));
		if (isnan(ends->small)) {
			ends->small = pts[i]->size;
			ends->small_ratio = bench_cost_ratio(r);
		}
		ends->big = pts[i]->size;
		ends->big_ratio = bench_cost_ratio(r);
	}
}

/* Whether the i-th point of s is the first of its family and variant. */
static bool plot_variant_first(const struct plot_sweep *s, size_t i)
{
	const struct plot_point *pt = &s->v[i];
	size_t j = 0;

	for (j = 0; j < i && (strcmp(s->v[j].family, pt->family) != 0 ||
			      strcmp(s->v[j].variant, pt->variant) != 0);
	     j++)
		;
	return j == i;
}

/* Variants of the family whose values are rates too (crypto: accel_off), as dashed curves. */
static void plot_family_variants(struct plot_curves *c, const struct plot_sweep *s,
				 const char *family)
{
	char label[BENCH_TEXT_MAX];
	char words[BENCH_NAME_MAX];
	size_t v = 0;
	size_t i = 0;

	for (i = 0; i < s->n; i++) {
		const struct plot_point *pt = &s->v[i];
		const struct plot_point *vp[PLOT_SWEEP_MAX];
		struct bench_svg_series *cur = NULL;
		size_t vn = 0;
		size_t j = 0;

		if (strcmp(pt->family, family) != 0 || !pt->variant[0])
			continue;
		if (!plot_variant_first(s, i))
			continue; /* drawn with its first point */
		vn = plot_sweep_select(s, family, pt->variant, vp, PLOT_SWEEP_MAX);
		if (plot_drawable(vp, vn) < PLOT_SWEEP_MIN ||
		    !isfinite(plot_mb_s(vp[0]->e->r.value, vp[0]->e->r.unit, vp[0]->size)) ||
		    !plot_rate_scale(vp[0]->e->r.unit))
			continue;
		plot_words(words, sizeof(words), pt->variant);
		bench_text(label, sizeof(label), "swtee, %s", words);
		cur = plot_curve(c, label,
				 (struct bench_svg_style){
				     .color = plot_variant_colors[v % PLOT_N(plot_variant_colors)],
				     .dashed = true,
				     .marker = plot_markers[(v + 2) % PLOT_N(plot_markers)]});
		if (!cur)
			break;
		v++;
		for (j = 0; j < vn; j++)
			if (!vp[j]->e->r.skipped)
				plot_curve_add(
				    c, cur, vp[j]->size,
				    plot_mb_s(vp[j]->e->r.value, vp[j]->e->r.unit, vp[j]->size));
	}
}

/* Published figures of the same algorithm on other hardware; how many curves they are. */
static size_t plot_family_others(struct plot_curves *c, const char *family)
{
	char label[BENCH_TEXT_MAX];
	size_t other = 0;
	size_t i = 0;

	for (i = 0; i < bench_seed_armory.n; i++) {
		const struct bench_seed *sd = &bench_seed_armory.rows[i];
		struct bench_svg_series *cur = NULL;
		size_t j = 0;

		if (strcmp(sd->key, family) != 0)
			continue;
		bench_text(label, sizeof(label), "%s (other hardware)", sd->label);
		cur = plot_curve(
		    c, label, plot_other_style(other, plot_markers[other % PLOT_N(plot_markers)]));
		if (!cur)
			break;
		other++;
		for (j = 0; j < sd->n; j++)
			plot_curve_add(c, cur, sd->x[j], sd->y[j] * sd->scale / 1e6);
	}
	return other;
}

/* The title and caption of a family's plot pl: the ratios at its ends, other hardware if any. */
static void plot_family_caption(struct bench_plot *pl, const char *group, const char *family,
				const char *bname, const struct plot_family_ends *ends,
				size_t other)
{
	char small_text[32];
	char big_text[32];

	bench_text(pl->title, sizeof(pl->title), "%s: %s throughput by buffer size", group, family);
	bench_svg_format(small_text, sizeof(small_text), ends->small, BENCH_SVG_BYTES);
	bench_svg_format(big_text, sizeof(big_text), ends->big, BENCH_SVG_BYTES);
	if (isfinite(ends->small_ratio) && isfinite(ends->big_ratio))
		bench_text(pl->caption, sizeof(pl->caption),
			   "%s through swtee against %s in the same run, by buffer size, one call "
			   "per buffer: at %s swtee costs %.2f times %s, at %s %.2f times%s.",
			   family, bname, small_text, ends->small_ratio, bname, big_text,
			   ends->big_ratio,
			   other ? "; the open, dashed curves are published figures from other "
				   "hardware"
				 : "");
	else
		bench_text(pl->caption, sizeof(pl->caption),
			   "%s through swtee by buffer size, one call per buffer%s.", family,
			   other ? "; the open, dashed curves are published figures from other "
				   "hardware"
				 : "");
}

/* The curves of one family: swtee, its baseline, its variants in a rate, other hardware. */
static int plot_family(const struct plot_spec *spec, const struct plot_sweep *s, const char *group,
		       const char *family, struct bench_plots *out)
{
	const struct plot_point *pts[PLOT_SWEEP_MAX];
	struct plot_family_ends ends = {NAN, NAN, NAN, NAN};
	struct plot_curves *c = NULL;
	struct bench_plot *pl = NULL;
	const char *bname = NULL;
	size_t other = 0;
	size_t n = 0;
	int ret = -1;

	n = plot_sweep_select(s, family, "", pts, PLOT_SWEEP_MAX);
	if (n < PLOT_SWEEP_MIN || plot_drawable(pts, n) < PLOT_SWEEP_MIN)
		return 0;
	c = plot_zalloc(sizeof(*c));
	if (!c)
		return -1;
	bname = pts[0]->e->r.has_baseline ? pts[0]->e->r.baseline_name : NULL;
	plot_family_main(c, pts, n, bname, &ends);
	plot_family_variants(c, s, family);
	other = plot_family_others(c, family);
	pl = plot_start(out, spec, group, family);
	if (!pl)
		goto out;
	plot_family_caption(pl, group, family, bname, &ends, other);
	ret = plot_keep_xy(out, pl, spec, NULL, c->s, c->n);
out:
	free(c);
	return ret;
}

/*
 * A variant in a unit that is no rate (crypto's overhead, in us) across
 * the families, with the baseline it is held against when it is one case.
 */
static int plot_variant(const struct plot_spec *spec, const struct plot_sweep *s, const char *group,
			const char *variant, struct bench_plots *out)
{
	const struct plot_point *pts[PLOT_SWEEP_MAX];
	struct plot_curves *c = NULL;
	struct bench_svg_series *cur = NULL;
	struct bench_svg_axis y = spec->y;
	struct bench_plot *pl = NULL;
	const struct bench_result *first = NULL;
	char words[BENCH_NAME_MAX];
	char ylabel[BENCH_TEXT_MAX];
	bool one_baseline = true;
	size_t fam = 0;
	size_t i = 0;
	size_t j = 0;
	size_t n = 0;
	int ret = -1;

	c = plot_zalloc(sizeof(*c));
	if (!c)
		return -1;
	for (i = 0; i < s->n; i++) {
		if (strcmp(s->v[i].variant, variant) != 0)
			continue;
		for (j = 0; j < i && (strcmp(s->v[j].variant, variant) != 0 ||
				      strcmp(s->v[j].family, s->v[i].family) != 0);
		     j++)
			;
		if (j < i)
			continue;
		n = plot_sweep_select(s, s->v[i].family, variant, pts, PLOT_SWEEP_MAX);
		if (plot_drawable(pts, n) < PLOT_SWEEP_MIN)
			continue;
		cur = plot_curve(c, s->v[i].family,
				 (struct bench_svg_style){
				     .color = plot_family_colors[fam % PLOT_N(plot_family_colors)],
				     .marker = plot_markers[fam % PLOT_N(plot_markers)]});
		if (!cur)
			break;
		fam++;
		for (j = 0; j < n; j++) {
			const struct bench_result *r = &pts[j]->e->r;

			if (r->skipped)
				continue;
			if (!first)
				first = r;
			if (!r->has_baseline ||
			    strcmp(r->baseline_name, first->baseline_name) != 0 ||
			    r->baseline_value != first->baseline_value)
				one_baseline = false;
			plot_curve_add(c, cur, pts[j]->size, r->value);
		}
	}
	if (!first) {
		ret = 0;
		goto out;
	}
	if (one_baseline && first->has_baseline) {
		cur = plot_curve(c, first->baseline_name,
				 (struct bench_svg_style){.color = "#111827", .dashed = true});
		for (i = 0; cur && i < c->n - 1; i++)
			for (j = 0; j < c->s[i].n; j++)
				plot_curve_add(c, cur, c->s[i].x[j], first->baseline_value);
		/* One flat line: the smallest and largest size are enough. */
		if (cur && cur->n > 2) {
			double lo = INFINITY, hi = -INFINITY;
			size_t k = (size_t)(cur - c->s);

			for (j = 0; j < cur->n; j++) {
				lo = fmin(lo, c->x[k][j]);
				hi = fmax(hi, c->x[k][j]);
			}
			cur->n = 0;
			plot_curve_add(c, cur, lo, first->baseline_value);
			plot_curve_add(c, cur, hi, first->baseline_value);
		}
	}
	plot_words(words, sizeof(words), variant);
	pl = plot_start(out, spec, group, variant);
	if (!pl)
		goto out;
	bench_text(pl->title, sizeof(pl->title), "%s: %s by buffer size", group, words);
	bench_text(ylabel, sizeof(ylabel), "%s (%s, log)", words, first->unit);
	bench_text(pl->caption, sizeof(pl->caption),
		   "The %s of each %s case by buffer size, in %s%s%s%s.", words, group, first->unit,
		   one_baseline && first->has_baseline ? ", against " : "",
		   one_baseline && first->has_baseline ? first->baseline_name : "",
		   one_baseline && first->has_baseline ? " (dashed) timed in the same run" : "");
	/* The values are in the variant's own unit, not in spec's. */
	y.label = ylabel;
	y.unit = first->unit;
	ret = plot_keep_xy(out, pl, spec, &y, c->s, c->n);
out:
	free(c);
	return ret;
}

/* Every sweep of every group: a plot per family, and per variant in a unit of its own. */
static int plot_sweeps(const struct plot_spec *spec, const struct bench_run *run,
		       struct bench_plots *out, char *why, size_t whylen)
{
	struct plot_sweep s = {0};
	size_t g = 0;
	size_t i = 0;
	size_t j = 0;
	int ret = -1;

	(void)why;
	(void)whylen;
	for (g = 0; g < run->nentries; g++) {
		const char *group = run->entries[g].group;

		for (j = 0; j < g && strcmp(run->entries[j].group, group) != 0; j++)
			;
		if (j < g)
			continue; /* done with its first entry */
		if (plot_sweep_of(run, group, &s))
			return -1;
		for (i = 0; i < s.n; i++) {
			const struct plot_point *pt = &s.v[i];

			if (!pt->variant[0]) {
				/* A family, drawn at its first point. */
				for (j = 0; j < i && (strcmp(s.v[j].family, pt->family) != 0 ||
						      s.v[j].variant[0]);
				     j++)
					;
				if (j == i && plot_family(spec, &s, group, pt->family, out))
					goto out;
				continue;
			}
			/* A variant in a unit of time gets a plot of its own, once. */
			if (plot_rate_scale(pt->e->r.unit) || !plot_time_scale(pt->e->r.unit))
				continue;
			for (j = 0; j < i && strcmp(s.v[j].variant, pt->variant) != 0; j++)
				;
			if (j == i && plot_variant(spec, &s, group, pt->variant, out))
				goto out;
		}
		free(s.v);
		s.v = NULL;
	}
	ret = 0;
out:
	free(s.v);
	return ret;
}

/* ---- xtest beside OP-TEE ---- */

/* The figure name of case, NULL when xtest reported none. */
static const struct bench_xtest_figure *plot_xfigure(const struct bench_run *run,
						     const char *case_id, const char *name)
{
	size_t i = 0;

	for (i = 0; i < run->nxfigures; i++)
		if (strcmp(run->xfigures[i].case_id, case_id) == 0 &&
		    strcmp(run->xfigures[i].name, name) == 0)
			return &run->xfigures[i];
	return NULL;
}

/* xtest 1001..1003 (KiB/s by data size) beside OP-TEE's rows on an i.MX6. */
static int plot_storage(const struct plot_spec *spec, const struct bench_run *run,
			struct bench_plots *out, char *why, size_t whylen)
{
	static const struct {
		const char *case_id;
		const char *key;
		const char *color;
	} ops[] = {
	    {"benchmark_1001", "write", "#0072b2"},
	    {"benchmark_1002", "read", "#009e73"},
	    {"benchmark_1003", "rewrite", "#d55e00"},
	};
	static const double sizes[] = {256, 512, 1024, 2048, 4096, 16384, 524288, 1048576};
	struct plot_curves *c = NULL;
	struct bench_svg_series *cur = NULL;
	struct bench_plot *pl = NULL;
	char name[BENCH_NAME_MAX];
	char label[BENCH_TEXT_MAX];
	double ours = NAN, theirs = NAN;
	size_t drawn = 0;
	size_t i = 0;
	size_t k = 0;
	int ret = -1;

	(void)why;
	(void)whylen;
	c = plot_zalloc(sizeof(*c));
	if (!c)
		return -1;
	for (i = 0; i < PLOT_N(ops); i++) {
		bench_text(label, sizeof(label), "swtee, %s (xtest %s)", ops[i].key,
			   ops[i].case_id + strlen("benchmark_"));
		cur = plot_curve(
		    c, label,
		    (struct bench_svg_style){.color = ops[i].color, .marker = plot_markers[i]});
		for (k = 0; cur && k < PLOT_N(sizes); k++) {
			const struct bench_xtest_figure *f = NULL;

			bench_text(name, sizeof(name), "size_%.0f.speed", sizes[k]);
			f = plot_xfigure(run, ops[i].case_id, name);
			if (!f || strcmp(f->unit, "kB/s") != 0)
				continue;
			plot_curve_add(c, cur, sizes[k], f->value);
			if (i == 0 && sizes[k] == 1048576)
				ours = f->value;
		}
		if (cur && cur->n)
			drawn++;
	}
	if (!drawn) {
		ret = 0;
		goto out;
	}
	for (i = 0; i < bench_seed_optee_storage.n; i++) {
		const struct bench_seed *sd = &bench_seed_optee_storage.rows[i];

		for (k = 0; k < PLOT_N(ops) && strcmp(ops[k].key, sd->key) != 0; k++)
			;
		bench_text(label, sizeof(label), "%s (other hardware)", sd->label);
		cur = plot_curve(
		    c, label,
		    (struct bench_svg_style){.color = k < PLOT_N(ops) ? ops[k].color : "#7f7f7f",
					     .dashed = true,
					     .hollow = true,
					     .marker = plot_markers[k % PLOT_N(plot_markers)]});
		for (k = 0; cur && k < sd->n; k++) {
			/* Both count a kB as 1024 bytes. */
			plot_curve_add(c, cur, sd->x[k], sd->y[k]);
			if (i == 0 && sd->x[k] == 1048576)
				theirs = sd->y[k];
		}
	}
	pl = plot_start(out, spec, NULL, NULL);
	if (!pl)
		goto out;
	bench_text(
	    pl->caption, sizeof(pl->caption),
	    "Write, read and rewrite speed of one object by its size, in 1 KiB chunks, as "
	    "xtest's storage benchmarks measure it, beside OP-TEE's on an i.MX6 board (open, "
	    "dashed: other hardware, context only)%s",
	    isfinite(ours) && isfinite(theirs) ? "" : ".");
	if (isfinite(ours) && isfinite(theirs)) {
		size_t len = strlen(pl->caption);

		bench_text(pl->caption + len, sizeof(pl->caption) - len,
			   "; a 1 MiB write runs at %.0f kB/s here against %.1f kB/s there.", ours,
			   theirs);
	}
	ret = plot_keep_xy(out, pl, spec, NULL, c->s, c->n);
out:
	free(c);
	return ret;
}

/* Storage for a bar chart: categories and their bars. */
struct plot_bars {
	const char *cat[PLOT_CATEGORIES_MAX];
	char cat_text[PLOT_CATEGORIES_MAX][BENCH_TEXT_MAX];
	size_t ncat;
	struct bench_svg_series s[PLOT_SERIES_MAX];
	double y[PLOT_SERIES_MAX][PLOT_CATEGORIES_MAX];
	char label[PLOT_SERIES_MAX][BENCH_TEXT_MAX];
	size_t n;
};

/* The series of b labelled label, new when there is none (NULL when b is full). */
static struct bench_svg_series *plot_bar_series(struct plot_bars *b, const char *label,
						struct bench_svg_style style)
{
	size_t i = 0;
	size_t k = 0;

	for (i = 0; i < b->n; i++)
		if (strcmp(b->label[i], label) == 0)
			return &b->s[i];
	if (b->n == PLOT_SERIES_MAX)
		return NULL;
	bench_text(b->label[b->n], sizeof(b->label[b->n]), "%s", label);
	for (k = 0; k < PLOT_CATEGORIES_MAX; k++)
		b->y[b->n][k] = NAN;
	b->s[b->n] = (struct bench_svg_series){
	    .label = b->label[b->n],
	    .y = b->y[b->n],
	    .n = PLOT_CATEGORIES_MAX,
	    .style = style,
	};
	return &b->s[b->n++];
}

static void plot_bar_set(struct plot_bars *b, struct bench_svg_series *s, size_t cat, double v)
{
	if (s && cat < PLOT_CATEGORIES_MAX)
		b->y[s - b->s][cat] = v;
}

/* A new category (NULL-safe: returns PLOT_CATEGORIES_MAX when b is full). */
static size_t plot_bar_category(struct plot_bars *b, const char *text)
{
	if (b->ncat == PLOT_CATEGORIES_MAX)
		return PLOT_CATEGORIES_MAX;
	bench_text(b->cat_text[b->ncat], sizeof(b->cat_text[b->ncat]), "%s", text);
	b->cat[b->ncat] = b->cat_text[b->ncat];
	return b->ncat++;
}

/* Keeps pl as a bar chart of b, the values along spec's y axis. */
static int plot_bars_keep(struct bench_plots *out, struct bench_plot *pl, struct plot_bars *b,
			  const struct plot_spec *spec)
{
	struct bench_svg_bars bars = {
	    .id = pl->id,
	    .title = pl->title,
	    .value = spec->y,
	    .categories = b->cat,
	    .ncategories = b->ncat,
	    .series = b->s,
	    .nseries = b->n,
	    .guide = NAN,
	};
	size_t i = 0;

	for (i = 0; i < b->n; i++)
		b->s[i].n = b->ncat;
	return plot_keep(out, pl, plot_draw_bars, &bars);
}

/* xtest 2001..2012 (MiB/s) beside OP-TEE's on an i.MX6. */
static int plot_xtest_crypto(const struct plot_spec *spec, const struct bench_run *run,
			     struct bench_plots *out, char *why, size_t whylen)
{
	struct plot_bars *b = NULL;
	struct bench_svg_series *ours = NULL;
	struct bench_svg_series *theirs = NULL;
	struct bench_plot *pl = NULL;
	char text[BENCH_NAME_MAX];
	size_t i = 0;
	size_t cat = 0;
	int ret = -1;

	(void)why;
	(void)whylen;
	b = plot_zalloc(sizeof(*b));
	if (!b)
		return -1;
	ours = plot_bar_series(b, "swtee (xtest)", plot_swtee_bar);
	theirs = plot_bar_series(b, "OP-TEE on i.MX6 (other hardware)",
				 plot_other_style(0, BENCH_SVG_MARK_NONE));
	for (i = 0; i < bench_seed_optee_crypto.n; i++) {
		const struct bench_seed *sd = &bench_seed_optee_crypto.rows[i];
		const struct bench_xtest_figure *f =
		    plot_xfigure(run, sd->key, "crypto.throughput");

		if (!f || strcmp(f->unit, "MiB/s") != 0)
			continue;
		bench_text(text, sizeof(text), "%s %s", sd->key + strlen("benchmark_"), sd->label);
		cat = plot_bar_category(b, text);
		plot_bar_set(b, ours, cat, f->value);
		plot_bar_set(b, theirs, cat, sd->y[0]);
	}
	if (!b->ncat) {
		ret = 0;
		goto out;
	}
	pl = plot_start(out, spec, NULL, NULL);
	if (!pl)
		goto out;
	ret = plot_bars_keep(out, pl, b, spec);
out:
	free(b);
	return ret;
}

/* ECDSA P-256 operations per second: TA, native, and the USB armory's. */
static int plot_ecdsa(const struct plot_spec *spec, const struct bench_run *run,
		      struct bench_plots *out, char *why, size_t whylen)
{
	static const char *const ops[] = {"sign", "verify"};
	struct plot_bars *b = NULL;
	struct bench_svg_series *s = NULL;
	struct bench_plot *pl = NULL;
	char name[BENCH_NAME_MAX];
	char label[BENCH_TEXT_MAX];
	size_t cat = 0;
	size_t i = 0;
	size_t k = 0;
	int ret = -1;

	(void)why;
	(void)whylen;
	b = plot_zalloc(sizeof(*b));
	if (!b)
		return -1;
	for (i = 0; i < PLOT_N(ops); i++) {
		const struct bench_entry *e = NULL;

		bench_text(name, sizeof(name), "ecdsa-p256/%s", ops[i]);
		e = bench_run_find(run, "crypto", name);
		if (!e || e->r.skipped || !isfinite(e->r.value))
			continue;
		bench_text(label, sizeof(label), "ECDSA P-256 %s", ops[i]);
		cat = plot_bar_category(b, label);
		s = plot_bar_series(b, "swtee", plot_swtee_bar);
		plot_bar_set(b, s, cat, e->r.value);
		if (e->r.has_baseline) {
			s = plot_bar_series(b, e->r.baseline_name, plot_baseline_bar);
			plot_bar_set(b, s, cat, e->r.baseline_value);
		}
		for (k = 0; k < bench_seed_ecdsa.n; k++) {
			const struct bench_seed *sd = &bench_seed_ecdsa.rows[k];

			if (strcmp(sd->key, name) != 0)
				continue;
			bench_text(label, sizeof(label), "%s (other hardware)", sd->label);
			s = plot_bar_series(b, label, plot_other_style(b->n, BENCH_SVG_MARK_NONE));
			plot_bar_set(b, s, cat, sd->y[0] * sd->scale);
		}
	}
	if (!b->ncat) {
		ret = 0;
		goto out;
	}
	pl = plot_start(out, spec, NULL, NULL);
	if (!pl)
		goto out;
	ret = plot_bars_keep(out, pl, b, spec);
out:
	free(b);
	return ret;
}

/*
 * Whether plot spec draws the tpm group's case named name in unit: the
 * "guest" plot the guests' times (swtee bench tpm --guest), the other every
 * case through ESYS.
 */
static bool plot_tpm_draws(const struct plot_spec *spec, const char *name, const char *unit)
{
	bool guest = !strncmp(name, "guest_", 6);

	if (spec->name && !strcmp(spec->name, "guest"))
		return guest && !strcmp(unit, "s");
	return !guest;
}

/* The tpm group's cases: the fTPM, swtpm in the same run, and published timings. */
static int plot_tpm(const struct plot_spec *spec, const struct bench_run *run,
		    struct bench_plots *out, char *why, size_t whylen)
{
	struct plot_bars *b = NULL;
	struct bench_svg_series *s = NULL;
	struct bench_plot *pl = NULL;
	char label[BENCH_TEXT_MAX];
	const char *skipped = NULL;
	size_t cat = 0;
	size_t i = 0;
	size_t k = 0;
	double t = 0;
	int ret = -1;

	b = plot_zalloc(sizeof(*b));
	if (!b)
		return -1;
	for (i = 0; i < run->nentries; i++) {
		const struct bench_entry *e = &run->entries[i];

		if (strcmp(e->group, "tpm") != 0 || !plot_tpm_draws(spec, e->r.name, e->r.unit))
			continue;
		/* in the unit of the spec's axis */
		t = plot_time_scale(e->r.unit) / plot_time_scale(spec->y.unit);
		if (e->r.skipped || !t || !isfinite(e->r.value)) {
			if (e->r.skipped && !skipped)
				skipped = e->r.skip_reason;
			continue;
		}
		cat = plot_bar_category(b, e->r.name);
		s = plot_bar_series(b, "fTPM (swtee)", plot_swtee_bar);
		plot_bar_set(b, s, cat, e->r.value * t);
		if (e->r.has_baseline) {
			bench_text(label, sizeof(label), "%s (same run)", e->r.baseline_name);
			s = plot_bar_series(b, label, plot_baseline_bar);
			plot_bar_set(b, s, cat, e->r.baseline_value * t);
		}
		for (k = 0; k < bench_seed_tpm.n; k++) {
			const struct bench_seed *sd = &bench_seed_tpm.rows[k];

			if (strcmp(sd->key, e->r.name) != 0)
				continue;
			bench_text(label, sizeof(label), "%s (other hardware)", sd->label);
			s = plot_bar_series(b, label, plot_other_style(b->n, BENCH_SVG_MARK_NONE));
			plot_bar_set(b, s, cat,
				     sd->y[0] * sd->scale / plot_time_scale(spec->y.unit));
		}
	}
	if (!b->ncat) {
		/* No note when the group did not run at all. */
		if (skipped)
			bench_text(why, whylen, "No TPM %splot: %s was skipped: %s.",
				   spec->name ? "guest " : "",
				   spec->name ? "the guest experiment" : "the tpm group", skipped);
		ret = 0;
		goto out;
	}
	pl = plot_start(out, spec, NULL, NULL);
	if (!pl)
		goto out;
	ret = plot_bars_keep(out, pl, b, spec);
out:
	free(b);
	return ret;
}

/* ---- the plots of a report, in the order it shows them ---- */

#define PLOT_AXIS_LOG(label_, unit_) PLOT_AXIS(label_, unit_, BENCH_SVG_LOG10, BENCH_SVG_NUMBER)
#define PLOT_AXIS_BYTES(label_) PLOT_AXIS(label_, NULL, BENCH_SVG_LOG2, BENCH_SVG_BYTES)

static const struct plot_spec plot_specs[] = {
    {
	.kind = "latency",
	.x = PLOT_AXIS("percentile of the samples", NULL, BENCH_SVG_TAIL, BENCH_SVG_PERCENT),
	.y = PLOT_AXIS_LOG("time per iteration (us)", "us"),
	.none = "No latency distribution: the invoke and session groups did not run, or their "
		"results carry no quantiles.",
	.draw = plot_latencies,
    },
    {
	.kind = "sweep",
	.x = PLOT_AXIS_BYTES("buffer size"),
	/* A variant in a unit of its own (not a rate) is drawn in that unit. */
	.y = PLOT_AXIS_LOG("throughput (MB/s, log)", "MB/s"),
	.draw = plot_sweeps,
    },
    {
	.kind = "ecdsa",
	.name = "p256",
	.section = "crypto",
	.title = "crypto: ECDSA P-256 operations per second",
	.caption = "ECDSA P-256 signatures and verifications per second through the TA and "
		   "natively in the same run, beside the USB armory's published signature rates "
		   "(other hardware).",
	.y = PLOT_AXIS_LOG("operations per second (log)", "op/s"),
	.draw = plot_ecdsa,
    },
    {
	.kind = "xtest-crypto",
	.name = "optee",
	.section = "crypto",
	.title = "xtest 2001..2012 beside OP-TEE",
	.caption = "Hashes and ciphers through a TA as xtest's crypto benchmarks run them (5000 "
		   "invokes of one buffer each), beside OP-TEE's published figures on an i.MX6 "
		   "board: other hardware, for context.",
	.y = PLOT_AXIS_LOG("throughput through one TEEC_InvokeCommand per buffer (MiB/s, log)",
			   "MiB/s"),
	.none = "No xtest crypto plot: it needs the figures of xtest's benchmarks 2001..2012 "
		"(swtee bench --xtest FILE).",
	.draw = plot_xtest_crypto,
    },
    {
	.kind = "storage",
	.name = "optee",
	.section = "storage",
	.title = "trusted storage: xtest 1001..1003 beside OP-TEE",
	.x = PLOT_AXIS_BYTES("object size"),
	.y = PLOT_AXIS_LOG("speed (kB/s of 1024 bytes, log)", "kB/s"),
	.none = "No storage plot: it draws xtest's storage benchmarks (1001..1003) beside "
		"OP-TEE's; pass 'swtee bench --xtest FILE' the file of 'xtest -t benchmark "
		"--json FILE'.",
	.draw = plot_storage,
    },
    {
	.kind = "tpm",
	.section = "tpm",
	.title = "tpm: the fTPM against swtpm and hardware TPMs",
	.caption = "Each TPM operation through ESYS on the fTPM TA and on swtpm in the same run, "
		   "beside published timings of hardware TPMs and of swtpm elsewhere (open, "
		   "dashed: other hardware and other methods, for context).",
	.y = PLOT_AXIS_LOG("time per operation (ms, log)", "ms"),
	.draw = plot_tpm,
    },
    {
	.kind = "tpm",
	.name = "guest",
	.section = "tpm",
	.title = "tpm: a QEMU guest's tpm2-tools on the fTPM and on swtpm",
	.caption = "The guest's own time of each step (median of its boots; swtee bench tpm "
		   "--guest), kernel TPM HMAC sessions on and off, the guest on the fTPM and on "
		   "swtpm in the same run, beside the published times on an arm64 board with an "
		   "SPI TPM (other hardware, and no emulation: context only).",
	.y = PLOT_AXIS_LOG("guest time (s, log)", "s"),
	.draw = plot_tpm,
    },
};

int bench_plot_all(const struct bench_run *run, struct bench_plots *out)
{
	char why[BENCH_CAPTION_MAX];
	size_t i = 0;

	for (i = 0; i < PLOT_N(plot_specs); i++) {
		const struct plot_spec *spec = &plot_specs[i];
		size_t drawn = out->n;

		why[0] = '\0';
		if (spec->draw(spec, run, out, why, sizeof(why)))
			return -1;
		if (out->n > drawn)
			continue;
		if (why[0] && plot_note(out, spec->section ? spec->section : spec->kind, why))
			return -1;
		if (!why[0] && spec->none &&
		    plot_note(out, spec->section ? spec->section : spec->kind, spec->none))
			return -1;
	}
	return 0;
}
