/*
 * Welford statistics, their OP-TEE-format printout and timing helpers.
 */
#include <math.h>
#include <stdlib.h>

#include "adbg.h"
#include "xtest_stats.h"

void xtest_stats_init(struct xtest_stats *s)
{
	s->n = 0;
	s->min = 0;
	s->max = 0;
	s->mean = 0;
	s->m2 = 0;
}

void xtest_stats_add(struct xtest_stats *s, double us)
{
	double delta = us - s->mean;

	if (!s->n || us < s->min)
		s->min = us;
	if (!s->n || us > s->max)
		s->max = us;
	s->n++;
	s->mean += delta / (double)s->n;
	s->m2 += delta * (us - s->mean);
}

double xtest_stats_stddev(const struct xtest_stats *s)
{
	if (!s->n)
		return 0;
	return sqrt(s->m2 / (double)s->n);
}

double xtest_stats_mib_per_s(double us, size_t size)
{
	if (us <= 0)
		return 0;
	return (1e6 / us) * ((double)size / (1024.0 * 1024.0));
}

void xtest_stats_print(FILE *out, const struct xtest_stats *s, size_t size, int verbosity)
{
	/* As OP-TEE prints it: one sample has no deviation ("stddev=nanus"). */
	double sd = s->n < 2 ? NAN : xtest_stats_stddev(s);
	double lo = s->mean - 2 * sd;
	double hi = s->mean + 2 * sd;

	if (!s->n) {
		fputs("no samples\n", out);
		return;
	}
	fprintf(out, "min=%gus max=%gus mean=%gus stddev=%gus (cv %g%%) (%gMiB/s)\n", s->min,
		s->max, s->mean, sd, s->mean > 0 ? 100 * sd / s->mean : 0,
		xtest_stats_mib_per_s(s->mean, size));
	if (verbosity < 1)
		return;
	/* OP-TEE's formula as it is: a low end under zero gives a negative rate. */
	fprintf(out, "2-sigma interval: %g..%gus (%g..%gMiB/s)\n", lo, hi,
		(1e6 / hi) * ((double)size / (1024.0 * 1024.0)),
		(1e6 / lo) * ((double)size / (1024.0 * 1024.0)));
}

static void xtest_stats_figure(const char *name, const char *field, const char *unit, double v)
{
	char *full = NULL;

	if (asprintf(&full, "%s.%s", name, field) < 0)
		return;
	xtest_report_figure(full, unit, v);
	free(full);
}

void xtest_stats_report(const char *name, const struct xtest_stats *s, size_t size)
{
	xtest_stats_figure(name, "samples", "count", (double)s->n);
	if (!s->n)
		return;
	xtest_stats_figure(name, "min", "us", s->min);
	xtest_stats_figure(name, "max", "us", s->max);
	xtest_stats_figure(name, "mean", "us", s->mean);
	xtest_stats_figure(name, "stddev", "us", xtest_stats_stddev(s));
	if (size)
		xtest_stats_figure(name, "throughput", "MiB/s",
				   xtest_stats_mib_per_s(s->mean, size));
}

void xtest_monotonic_now(struct timespec *ts)
{
	if (clock_gettime(CLOCK_MONOTONIC, ts) != 0) {
		/* Cannot happen on Linux; a zero time beats an uninitialised one. */
		ts->tv_sec = 0;
		ts->tv_nsec = 0;
	}
}

double xtest_timespec_diff_us(const struct timespec *start, const struct timespec *end)
{
	return (double)(end->tv_sec - start->tv_sec) * 1e6 +
	       (double)(end->tv_nsec - start->tv_nsec) / 1e3;
}

void xtest_warmup(unsigned int seconds)
{
	struct timespec t0 = {0};
	struct timespec t = {0};
	volatile unsigned long spin = 0;
	unsigned int i = 0;

	if (!seconds)
		return;
	xtest_monotonic_now(&t0);
	do {
		for (i = 0; i < 100000; i++)
			spin = spin + 1;
		xtest_monotonic_now(&t);
	} while (xtest_timespec_diff_us(&t0, &t) < (double)seconds * 1e6);
}
