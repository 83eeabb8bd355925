/*
 * SVG plots for swtee bench's reports: axes, ticks, gridlines, curves,
 * markers, bars and legends, written straight to a FILE. See bench_svg.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_svg.h"
#include "bench_text.h"

#define SVG_W 760.0
#define SVG_FONT "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
#define SVG_CHAR_W 6.6 /* a rough width of one character at 12px, for layout */
#define SVG_TICKS_MAX 64
#define SVG_TEXT_MAX 160

/* The plot area of a line plot, and the legend's rows below it. */
#define XY_LEFT 74.0
#define XY_RIGHT 24.0
#define XY_TOP 16.0
#define XY_HEIGHT 290.0
#define XY_BELOW 50.0
#define LEGEND_ROW 20.0

/* Bars: height of one bar, the space between bars and between categories. */
#define BAR_H 14.0
#define BAR_GAP 3.0
#define BAR_GROUP_GAP 12.0
#define BAR_TOP 26.0
#define BAR_RIGHT 24.0

#define GRID_MAJOR "#d9dde3"
#define GRID_MINOR "#eef0f3"
#define INK "#1f2937"
#define INK_SOFT "#4b5563"

struct svg_ticks {
	double v[SVG_TICKS_MAX];
	bool major[SVG_TICKS_MAX]; /* labelled; minor ones are gridlines only */
	size_t n;
};

/* An axis fitted to its data, and the pixels it spans. */
struct svg_map {
	const struct bench_svg_axis *axis;
	double lo, hi;	 /* in data units */
	double tlo, thi; /* transformed */
	double p0, p1;	 /* pixels of lo and hi */
};

void bench_svg_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

void bench_svg_format(char *out, size_t n, double v, enum bench_svg_format format)
{
	double a = fabs(v);

	if (!isfinite(v)) {
		bench_text(out, n, "-");
		return;
	}
	switch (format) {
	case BENCH_SVG_BYTES:
		if (a >= 1024.0 * 1024 * 1024)
			bench_text(out, n, "%.3g GiB", v / (1024.0 * 1024 * 1024));
		else if (a >= 1024.0 * 1024)
			bench_text(out, n, "%.3g MiB", v / (1024.0 * 1024));
		else if (a >= 1024.0)
			bench_text(out, n, "%.3g KiB", v / 1024.0);
		else
			bench_text(out, n, "%.3g B", v);
		break;
	case BENCH_SVG_PERCENT:
		bench_text(out, n, "%.4g%%", v);
		break;
	case BENCH_SVG_NUMBER:
	default:
		if (a >= 1e9)
			bench_text(out, n, "%.3gG", v / 1e9);
		else if (a >= 1e6)
			bench_text(out, n, "%.3gM", v / 1e6);
		else if (a >= 1e4)
			bench_text(out, n, "%.3gk", v / 1e3);
		else if (a >= 100)
			bench_text(out, n, "%.0f", v);
		else
			bench_text(out, n, "%.3g", v);
		break;
	}
}

/* ---- scales ---- */

static bool svg_usable(enum bench_svg_scale s, double v)
{
	if (!isfinite(v))
		return false;
	switch (s) {
	case BENCH_SVG_LOG10:
	case BENCH_SVG_LOG2:
		return v > 0;
	case BENCH_SVG_TAIL:
		return v >= 0 && v < 100;
	case BENCH_SVG_LINEAR:
	default:
		return true;
	}
}

static double svg_tr(enum bench_svg_scale s, double v)
{
	switch (s) {
	case BENCH_SVG_LOG10:
		return log10(v);
	case BENCH_SVG_LOG2:
		return log2(v);
	case BENCH_SVG_TAIL:
		return -log10(1 - v / 100);
	case BENCH_SVG_LINEAR:
	default:
		return v;
	}
}

static double svg_px(const struct svg_map *m, double v)
{
	return m->p0 + (svg_tr(m->axis->scale, v) - m->tlo) / (m->thi - m->tlo) * (m->p1 - m->p0);
}

/* The tail axis ends at the first of these at or above the data. */
static const double svg_tail_ticks[] = {0, 50, 90, 99, 99.9, 99.99};
#define SVG_NTAIL (sizeof(svg_tail_ticks) / sizeof(svg_tail_ticks[0]))

/*
 * Fits m to lo..hi of the data (the axis's own min and max win), with
 * some room around, and sets the transformed ends. Returns false when
 * there is nothing to show.
 */
static bool svg_fit(struct svg_map *m, const struct bench_svg_axis *axis, double lo, double hi,
		    double room)
{
	size_t i = 0;

	m->axis = axis;
	if (!(lo <= hi))
		return false;
	switch (axis->scale) {
	case BENCH_SVG_LOG10:
	case BENCH_SVG_LOG2:
		if (lo == hi) {
			lo /= 2;
			hi *= 2;
		}
		lo /= room;
		hi *= room;
		break;
	case BENCH_SVG_TAIL:
		lo = 0;
		for (i = 0; i + 1 < SVG_NTAIL && svg_tail_ticks[i] < hi; i++)
			;
		hi = svg_tail_ticks[i] > 90 ? svg_tail_ticks[i] : 99;
		break;
	case BENCH_SVG_LINEAR:
	default:
		if (lo == hi) {
			lo -= fabs(lo) / 2 + 1;
			hi += fabs(hi) / 2 + 1;
		}
		room = (hi - lo) * (room - 1);
		lo = lo >= 0 && lo - room < 0 ? 0 : lo - room;
		hi += room;
		break;
	}
	if (isfinite(axis->min) && svg_usable(axis->scale, axis->min))
		lo = axis->min;
	if (isfinite(axis->max) && svg_usable(axis->scale, axis->max))
		hi = axis->max;
	if (!(lo < hi))
		return false;
	m->lo = lo;
	m->hi = hi;
	m->tlo = svg_tr(axis->scale, lo);
	m->thi = svg_tr(axis->scale, hi);
	return m->thi > m->tlo;
}

static void svg_tick_add(struct svg_ticks *t, const struct svg_map *m, double v, bool major)
{
	if (t->n == SVG_TICKS_MAX || !(v >= m->lo * (1 - 1e-9)) || !(v <= m->hi * (1 + 1e-9)))
		return;
	t->v[t->n] = v;
	t->major[t->n] = major;
	t->n++;
}

/* 1, 2 or 5 times a power of ten, near span / want. */
static double svg_nice_step(double span, double want)
{
	double raw = span / want;
	double mag = pow(10, floor(log10(raw)));
	double r = raw / mag;

	if (r < 1.5)
		return mag;
	if (r < 3.5)
		return 2 * mag;
	if (r < 7.5)
		return 5 * mag;
	return 10 * mag;
}

static void svg_ticks_of(const struct svg_map *m, struct svg_ticks *t)
{
	double decades = m->thi - m->tlo;
	double step = 0;
	long e0 = 0;
	long e1 = 0;
	long e = 0;
	long k = 0;
	long every = 1;
	size_t i = 0;

	t->n = 0;
	switch (m->axis->scale) {
	case BENCH_SVG_LOG10:
		e0 = (long)floor(m->tlo);
		e1 = (long)ceil(m->thi);
		every = decades > 8 ? 2 : 1;
		for (e = e0; e <= e1; e++) {
			double p = pow(10, (double)e);

			svg_tick_add(t, m, p, e % every == 0);
			for (k = 2; k <= 9 && decades < 6; k++)
				svg_tick_add(t, m, (double)k * p,
					     decades < 2.5 && (k == 2 || k == 5));
		}
		break;
	case BENCH_SVG_LOG2:
		e0 = (long)ceil(m->tlo - 1e-9);
		e1 = (long)floor(m->thi + 1e-9);
		while ((e1 - e0) / every > 7)
			every++;
		for (e = e0; e <= e1; e++)
			if (e % every == 0)
				svg_tick_add(t, m, pow(2, (double)e), true);
		break;
	case BENCH_SVG_TAIL:
		/* 0% sits too close to 50% to be labelled. */
		for (i = 0; i < SVG_NTAIL; i++)
			svg_tick_add(t, m, svg_tail_ticks[i], svg_tail_ticks[i] > 0);
		break;
	case BENCH_SVG_LINEAR:
	default:
		step = svg_nice_step(m->hi - m->lo, 6);
		e0 = (long)ceil(m->lo / step - 1e-9);
		e1 = (long)floor(m->hi / step + 1e-9);
		for (e = e0; e <= e1 && e - e0 < SVG_TICKS_MAX; e++)
			svg_tick_add(t, m, (double)e * step, true);
		break;
	}
}

/* ---- pieces ---- */

static void svg_open(FILE *f, const char *id, const char *title, double h)
{
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
		"width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-labelledby=\"%s-title\" "
		"font-family=\"%s\" font-size=\"12\">\n<title id=\"%s-title\">",
		SVG_W, h, SVG_W, h, id, SVG_FONT, id);
	bench_svg_text(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
		SVG_W, h);
}

static void svg_marker(FILE *f, const struct bench_svg_style *st, double x, double y,
		       const char *title)
{
	const char *fill = st->hollow ? "#ffffff" : st->color;

	switch (st->marker) {
	case BENCH_SVG_MARK_CIRCLE:
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.6\"", x, y);
		break;
	case BENCH_SVG_MARK_SQUARE:
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"7\" height=\"7\"", x - 3.5,
			y - 3.5);
		break;
	case BENCH_SVG_MARK_TRIANGLE:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"", x, y - 4.5, x + 4.2,
			y + 3.2, x - 4.2, y + 3.2);
		break;
	case BENCH_SVG_MARK_DIAMOND:
		fprintf(f, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\"", x, y - 4.6,
			x + 4.6, y, x, y + 4.6, x - 4.6, y);
		break;
	case BENCH_SVG_MARK_NONE:
	default:
		/* An invisible target, so that the point still has a hover title. */
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill-opacity=\"0\"", x, y);
		if (title) {
			fputs("><title>", f);
			bench_svg_text(f, title);
			fputs("</title></circle>\n", f);
		} else {
			fputs("/>\n", f);
		}
		return;
	}
	fprintf(f, " fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"", fill, st->color);
	if (title) {
		fputs("><title>", f);
		bench_svg_text(f, title);
		fprintf(f, "</title></%s>\n",
			st->marker == BENCH_SVG_MARK_CIRCLE   ? "circle"
			: st->marker == BENCH_SVG_MARK_SQUARE ? "rect"
							      : "path");
	} else {
		fputs("/>\n", f);
	}
}

static void svg_line_attrs(FILE *f, const struct bench_svg_style *st)
{
	fprintf(f, " fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\"%s",
		st->color, st->hollow ? "1.4" : "2.2",
		st->dashed ? " stroke-dasharray=\"6 4\"" : "");
}

/* Two columns when every label fits in half of width, else one. */
static size_t svg_legend_cols(const struct bench_svg_series *s, size_t n, double width)
{
	size_t longest = 0;
	size_t i = 0;

	for (i = 0; i < n; i++)
		if (s[i].label && strlen(s[i].label) > longest)
			longest = strlen(s[i].label);
	return (double)longest * SVG_CHAR_W + 44 <= width / 2 ? 2 : 1;
}

static size_t svg_legend_rows(const struct bench_svg_series *s, size_t n, double width)
{
	size_t cols = svg_legend_cols(s, n, width);
	size_t shown = 0;
	size_t i = 0;

	for (i = 0; i < n; i++)
		if (s[i].label && *s[i].label)
			shown++;
	return (shown + cols - 1) / cols;
}

/*
 * The legend's rows from y down: each series' line and marker, or a
 * swatch of its bar when bars.
 */
static void svg_legend(FILE *f, const struct bench_svg_series *s, size_t n, double x0, double width,
		       double y, bool bars)
{
	size_t cols = svg_legend_cols(s, n, width);
	double col = width / (double)cols;
	size_t shown = 0;
	size_t i = 0;

	for (i = 0; i < n; i++) {
		const struct bench_svg_style *st = &s[i].style;
		size_t row = 0;
		double x = 0;
		double ly = 0;

		if (!s[i].label || !*s[i].label)
			continue;
		row = shown / cols;
		x = x0 + (double)(shown % cols) * col;
		ly = y + (double)row * LEGEND_ROW + LEGEND_ROW / 2;
		if (bars) {
			fprintf(
			    f,
			    "<rect x=\"%.1f\" y=\"%.1f\" width=\"24\" height=\"11\" fill=\"%s\" "
			    "fill-opacity=\"%s\" stroke=\"%s\"%s/>\n",
			    x + 1, ly - 5.5, st->color, st->hollow ? "0.28" : "0.9", st->color,
			    st->dashed ? " stroke-dasharray=\"4 3\"" : "");
		} else {
			fprintf(f, "<path d=\"M%.1f %.1fH%.1f\"", x, ly, x + 26);
			svg_line_attrs(f, st);
			fputs("/>\n", f);
			if (st->marker != BENCH_SVG_MARK_NONE)
				svg_marker(f, st, x + 13, ly, NULL);
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\" fill=\"%s\">",
			x + 34, ly + 0.5, INK);
		bench_svg_text(f, s[i].label);
		fputs("</text>\n", f);
		shown++;
	}
}

/* Vertical gridlines and labels of a horizontal axis from y0 to y1, labels below y1. */
static void svg_xgrid(FILE *f, const struct svg_map *m, double y0, double y1)
{
	struct svg_ticks t;
	char label[SVG_TEXT_MAX];
	size_t i = 0;

	svg_ticks_of(m, &t);
	for (i = 0; i < t.n; i++) {
		double x = svg_px(m, t.v[i]);

		fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"%s\" stroke-width=\"1\"/>\n", x,
			y0, y1, t.major[i] ? GRID_MAJOR : GRID_MINOR);
		if (!t.major[i])
			continue;
		bench_svg_format(label, sizeof(label), t.v[i], m->axis->format);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">", x,
			y1 + 16, INK_SOFT);
		bench_svg_text(f, label);
		fputs("</text>\n", f);
	}
}

/* Horizontal gridlines and labels of a vertical axis from x0 to x1, labels left of x0. */
static void svg_ygrid(FILE *f, const struct svg_map *m, double x0, double x1)
{
	struct svg_ticks t;
	char label[SVG_TEXT_MAX];
	size_t i = 0;

	svg_ticks_of(m, &t);
	for (i = 0; i < t.n; i++) {
		double y = svg_px(m, t.v[i]);

		fprintf(f, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"%s\" stroke-width=\"1\"/>\n", x0,
			y, x1, t.major[i] ? GRID_MAJOR : GRID_MINOR);
		if (!t.major[i])
			continue;
		bench_svg_format(label, sizeof(label), t.v[i], m->axis->format);
		fprintf(
		    f,
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\" "
		    "fill=\"%s\">",
		    x0 - 6, y, INK_SOFT);
		bench_svg_text(f, label);
		fputs("</text>\n", f);
	}
}

/* "label: x, y" for a point's hover title. */
static void svg_point_title(char *out, size_t n, const struct bench_svg_series *s, double x,
			    double y, const struct bench_svg_axis *ax,
			    const struct bench_svg_axis *ay)
{
	char xs[48];
	char ys[48];

	if (ax->format == BENCH_SVG_NUMBER)
		bench_text(xs, sizeof(xs), "%.4g%s%s", x, ax->unit ? " " : "",
			   ax->unit ? ax->unit : "");
	else
		bench_svg_format(xs, sizeof(xs), x, ax->format);
	bench_text(ys, sizeof(ys), "%.4g%s%s", y, ay->unit ? " " : "", ay->unit ? ay->unit : "");
	bench_text(out, n, "%s: %s at %s", s->label ? s->label : "", ys, xs);
}

/* ---- line plots ---- */

int bench_svg_xy(FILE *f, const struct bench_svg_xy *p)
{
	struct svg_map mx = {0};
	struct svg_map my = {0};
	char title[2 * SVG_TEXT_MAX];
	double xlo = INFINITY, xhi = -INFINITY;
	double ylo = INFINITY, yhi = -INFINITY;
	double right = SVG_W - XY_RIGHT;
	double bottom = XY_TOP + XY_HEIGHT;
	double h = 0;
	size_t s = 0;
	size_t i = 0;

	for (s = 0; s < p->nseries; s++) {
		for (i = 0; i < p->series[s].n; i++) {
			double x = p->series[s].x[i];
			double y = p->series[s].y[i];

			if (!svg_usable(p->x.scale, x) || !svg_usable(p->y.scale, y))
				continue;
			xlo = fmin(xlo, x);
			xhi = fmax(xhi, x);
			ylo = fmin(ylo, y);
			yhi = fmax(yhi, y);
		}
	}
	if (!svg_fit(&mx, &p->x, xlo, xhi, p->x.scale == BENCH_SVG_LOG2 ? 1.35 : 1.08) ||
	    !svg_fit(&my, &p->y, ylo, yhi, p->y.scale == BENCH_SVG_LOG10 ? 1.3 : 1.08))
		return -1;
	mx.p0 = XY_LEFT;
	mx.p1 = right;
	my.p0 = bottom;
	my.p1 = XY_TOP;

	h = bottom + XY_BELOW +
	    (double)svg_legend_rows(p->series, p->nseries, right - XY_LEFT) * LEGEND_ROW + 8;
	svg_open(f, p->id, p->title, h);
	svg_xgrid(f, &mx, XY_TOP, bottom);
	svg_ygrid(f, &my, XY_LEFT, right);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#9ca3af\"/>\n",
		XY_LEFT, XY_TOP, right - XY_LEFT, XY_HEIGHT);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">",
		(XY_LEFT + right) / 2, bottom + 36, INK);
	bench_svg_text(f, p->x.label);
	fputs("</text>\n", f);
	fprintf(f,
		"<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\" "
		"fill=\"%s\">",
		(XY_TOP + bottom) / 2, INK);
	bench_svg_text(f, p->y.label);
	fputs("</text>\n", f);
	fprintf(f,
		"<defs><clipPath id=\"%s-clip\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/></clipPath></defs>\n",
		p->id, XY_LEFT - 6, XY_TOP - 6, right - XY_LEFT + 12, XY_HEIGHT + 12);
	fprintf(f, "<g clip-path=\"url(#%s-clip)\">\n", p->id);

	/* Lines first, markers over them; a point that cannot be drawn breaks the line. */
	for (s = 0; s < p->nseries; s++) {
		const struct bench_svg_series *se = &p->series[s];
		bool pen = false;

		fputs("<path d=\"", f);
		for (i = 0; i < se->n; i++) {
			if (!svg_usable(p->x.scale, se->x[i]) ||
			    !svg_usable(p->y.scale, se->y[i])) {
				pen = false;
				continue;
			}
			fprintf(f, "%s%.1f %.1f", pen ? "L" : "M", svg_px(&mx, se->x[i]),
				svg_px(&my, se->y[i]));
			pen = true;
		}
		fputc('"', f);
		svg_line_attrs(f, &se->style);
		fputs("/>\n", f);
	}
	for (s = 0; s < p->nseries; s++) {
		const struct bench_svg_series *se = &p->series[s];

		for (i = 0; i < se->n; i++) {
			if (!svg_usable(p->x.scale, se->x[i]) || !svg_usable(p->y.scale, se->y[i]))
				continue;
			svg_point_title(title, sizeof(title), se, se->x[i], se->y[i], &p->x, &p->y);
			svg_marker(f, &se->style, svg_px(&mx, se->x[i]), svg_px(&my, se->y[i]),
				   title);
		}
	}
	fputs("</g>\n", f);
	svg_legend(f, p->series, p->nseries, XY_LEFT, right - XY_LEFT, bottom + XY_BELOW, false);
	fputs("</svg>\n", f);
	return 0;
}

/* ---- bar charts ---- */

/* The bars category c has: one per series with a value there. */
static size_t svg_bars_in(const struct bench_svg_bars *b, size_t c)
{
	size_t n = 0;
	size_t s = 0;

	for (s = 0; s < b->nseries; s++)
		if (c < b->series[s].n && svg_usable(b->value.scale, b->series[s].y[c]))
			n++;
	return n;
}

static double svg_bars_group_h(const struct bench_svg_bars *b, size_t c)
{
	size_t n = svg_bars_in(b, c);

	return (double)(n ? n : 1) * (BAR_H + BAR_GAP) + BAR_GROUP_GAP;
}

/* One bar of series se at value v from y, with its value written after it. */
static void svg_bar(FILE *f, const struct svg_map *m, const struct bench_svg_bars *b,
		    const struct bench_svg_series *se, const char *category, double v, double y)
{
	char label[SVG_TEXT_MAX];
	char title[2 * SVG_TEXT_MAX];
	double x1 = fmax(svg_px(m, v), m->p0 + 1);

	bench_svg_format(label, sizeof(label), v, b->value.format);
	if (b->value.unit) {
		size_t len = strlen(label);

		bench_text(label + len, sizeof(label) - len, " %s", b->value.unit);
	}
	bench_text(title, sizeof(title), "%s, %s: %s", category, se->label ? se->label : "", label);
	fprintf(f,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		"fill-opacity=\"%s\" stroke=\"%s\"%s><title>",
		m->p0, y, x1 - m->p0, BAR_H, se->style.color, se->style.hollow ? "0.28" : "0.9",
		se->style.color, se->style.dashed ? " stroke-dasharray=\"4 3\"" : "");
	bench_svg_text(f, title);
	fputs("</title></rect>\n", f);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\" font-size=\"11\" "
		"fill=\"%s\">",
		x1 + 5, y + BAR_H / 2 + 0.5, INK_SOFT);
	bench_svg_text(f, label);
	fputs("</text>\n", f);
}

/* The width of the category labels' column; the bars' bottom edge in *bottom. */
static double svg_bars_left(const struct bench_svg_bars *b, double *bottom)
{
	size_t longest = 0;
	size_t c = 0;

	*bottom = BAR_TOP;
	for (c = 0; c < b->ncategories; c++) {
		if (strlen(b->categories[c]) > longest)
			longest = strlen(b->categories[c]);
		*bottom += svg_bars_group_h(b, c);
	}
	/* Category labels are bold: wider than SVG_CHAR_W. */
	return fmin(fmax((double)longest * SVG_CHAR_W * 1.12 + 20, 110), 330);
}

/* The least and greatest value drawn, the guide's included, into *lo and *hi. */
static void svg_bars_range(const struct bench_svg_bars *b, double *lo, double *hi)
{
	size_t c = 0;
	size_t s = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (s = 0; s < b->nseries; s++) {
		for (c = 0; c < b->ncategories && c < b->series[s].n; c++) {
			double v = b->series[s].y[c];

			if (!svg_usable(b->value.scale, v))
				continue;
			*lo = fmin(*lo, v);
			*hi = fmax(*hi, v);
		}
	}
	if (svg_usable(b->value.scale, b->guide)) {
		*lo = fmin(*lo, b->guide);
		*hi = fmax(*hi, b->guide);
	}
}

/* Category c from y0: a rule above it but the first, its label, its bars or "no figure". */
static void svg_bars_group(FILE *f, const struct svg_map *m, const struct bench_svg_bars *b,
			   size_t c, double y0)
{
	double gh = svg_bars_group_h(b, c);
	size_t s = 0;
	size_t k = 0;

	if (c)
		fprintf(f, "<path d=\"M8 %.1fH%.1f\" stroke=\"%s\" stroke-width=\"1\"/>\n",
			y0 - BAR_GROUP_GAP / 2, m->p1, GRID_MINOR);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\" "
		"fill=\"%s\" font-weight=\"600\">",
		m->p0 - 8, y0 + (gh - BAR_GROUP_GAP) / 2, INK);
	bench_svg_text(f, b->categories[c]);
	fputs("</text>\n", f);
	for (s = 0, k = 0; s < b->nseries; s++) {
		const struct bench_svg_series *se = &b->series[s];
		double v = c < se->n ? se->y[c] : NAN;

		if (!svg_usable(b->value.scale, v))
			continue;
		svg_bar(f, m, b, se, b->categories[c], v, y0 + (double)k * (BAR_H + BAR_GAP));
		k++;
	}
	if (!k)
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\" "
			"font-size=\"11\" fill=\"%s\">no figure</text>\n",
			m->p0 + 6, y0 + BAR_H / 2, INK_SOFT);
}

/* The guide, if b has one: a dashed vertical line down to bottom, its label above. */
static void svg_bars_guide(FILE *f, const struct svg_map *m, const struct bench_svg_bars *b,
			   double bottom)
{
	double x = 0;

	if (!svg_usable(b->value.scale, b->guide))
		return;
	x = svg_px(m, b->guide);
	fprintf(f,
		"<path d=\"M%.1f %.1fV%.1f\" stroke=\"%s\" stroke-width=\"1.5\" "
		"stroke-dasharray=\"5 3\"/>\n",
		x, BAR_TOP - 12, bottom, INK);
	if (b->guide_label) {
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" "
			"fill=\"%s\">",
			x, BAR_TOP - 15, INK);
		bench_svg_text(f, b->guide_label);
		fputs("</text>\n", f);
	}
}

int bench_svg_bars(FILE *f, const struct bench_svg_bars *b)
{
	struct svg_map m = {0};
	double lo = INFINITY, hi = -INFINITY;
	double bottom = BAR_TOP;
	double left = svg_bars_left(b, &bottom);
	double right = SVG_W - BAR_RIGHT;
	double y0 = BAR_TOP;
	double h = 0;
	size_t c = 0;

	svg_bars_range(b, &lo, &hi);
	/* Room at the right end for the value written after the longest bar. */
	if (!svg_fit(&m, &b->value, lo, hi, b->value.scale == BENCH_SVG_LINEAR ? 1.25 : 3.0))
		return -1;
	m.p0 = left;
	m.p1 = right;

	h = bottom + 42 +
	    (double)svg_legend_rows(b->series, b->nseries, SVG_W - 24 - 40) * LEGEND_ROW + 8;
	svg_open(f, b->id, b->title, h);
	svg_xgrid(f, &m, BAR_TOP - 8, bottom);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">",
		(left + right) / 2, bottom + 34, INK);
	bench_svg_text(f, b->value.label);
	fputs("</text>\n", f);
	for (c = 0; c < b->ncategories; c++) {
		svg_bars_group(f, &m, b, c, y0);
		y0 += svg_bars_group_h(b, c);
	}
	fprintf(f, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#9ca3af\" stroke-width=\"1\"/>\n", left,
		BAR_TOP - 8, bottom);
	svg_bars_guide(f, &m, b, bottom);
	svg_legend(f, b->series, b->nseries, 40, SVG_W - 24 - 40, bottom + 42, true);
	fputs("</svg>\n", f);
	return 0;
}
