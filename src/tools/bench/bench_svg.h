/*
 * A small SVG plotting module for swtee bench's reports: line plots on
 * linear, logarithmic or percentile-tail axes, and horizontal bar charts,
 * each with gridlines, axis labels and a legend, as one self-contained
 * <svg> element (no scripts, no external resources). Points and bars carry
 * a <title>, which browsers show on hover.
 *
 * The caller owns every array and string a plot points to; nothing is
 * kept after a call. Ids inside the SVG start with the plot's id, so that
 * several plots can live inline in one HTML page.
 */
#ifndef SWTEE_BENCH_SVG_H
#define SWTEE_BENCH_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum bench_svg_scale {
	BENCH_SVG_LINEAR,
	BENCH_SVG_LOG10, /* decades, with 2 and 5 between on short ranges */
	BENCH_SVG_LOG2,	 /* powers of two: buffer sizes */
	/*
	 * Percentiles 0..100, stretched towards 100 (the position of p is
	 * -log10(1 - p/100)), so that p99 and p99.9 get room; 100 is left out.
	 */
	BENCH_SVG_TAIL,
};

enum bench_svg_format {
	BENCH_SVG_NUMBER,  /* 1.5k, 20M */
	BENCH_SVG_BYTES,   /* 256 B, 64 KiB, 1 MiB */
	BENCH_SVG_PERCENT, /* 99.9% */
};

struct bench_svg_axis {
	const char *label; /* "throughput (MB/s)" */
	const char *unit;  /* appended to values in hover titles: "MB/s"; may be NULL */
	enum bench_svg_scale scale;
	enum bench_svg_format format;
	double min, max; /* NAN: fit the data (log axes leave out values <= 0) */
};

enum bench_svg_marker {
	BENCH_SVG_MARK_NONE,
	BENCH_SVG_MARK_CIRCLE,
	BENCH_SVG_MARK_SQUARE,
	BENCH_SVG_MARK_TRIANGLE,
	BENCH_SVG_MARK_DIAMOND,
};

struct bench_svg_style {
	const char *color; /* "#0072b2" */
	bool dashed;
	bool hollow; /* open markers and a thinner line: figures from other hardware */
	enum bench_svg_marker marker;
};

/* One curve, or one bar per category (then x is unused and y[i] is category i's). */
struct bench_svg_series {
	const char *label;
	const double *x;
	const double *y; /* NAN: no point (no bar) */
	size_t n;
	struct bench_svg_style style;
};

struct bench_svg_xy {
	const char *id;	   /* [a-z0-9-]: the prefix of the ids inside */
	const char *title; /* the SVG's accessible name */
	struct bench_svg_axis x, y;
	const struct bench_svg_series *series;
	size_t nseries;
};

struct bench_svg_bars {
	const char *id;
	const char *title;
	struct bench_svg_axis value; /* along the bars */
	const char *const *categories;
	size_t ncategories;
	const struct bench_svg_series *series; /* n == ncategories each */
	size_t nseries;
	double guide; /* a vertical line at this value; NAN: none */
	const char *guide_label;
};

/* Writes the plot as one <svg> element. Returns 0, or -1 when p has nothing to draw. */
int bench_svg_xy(FILE *f, const struct bench_svg_xy *p);

/* Writes the chart as one <svg> element. Returns 0, or -1 when b has nothing to draw. */
int bench_svg_bars(FILE *f, const struct bench_svg_bars *b);

/* s with XML's special characters escaped. */
void bench_svg_text(FILE *f, const char *s);

/* v as the axis format writes it ("1.5k", "64 KiB", "99.9%"), into out. */
void bench_svg_format(char *out, size_t n, double v, enum bench_svg_format format);

#endif
