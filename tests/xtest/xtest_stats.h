/*
 * Timing statistics shared by the benchmark cases and the perf applets.
 *
 * Samples are times in microseconds, one per measured call. The running
 * mean and M2 follow Welford, and the standard deviation is the population
 * one, sqrt(M2 / n), as OP-TEE's perf tools compute it, so figures compare.
 */
#ifndef XTEST_STATS_H
#define XTEST_STATS_H

#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct xtest_stats {
	size_t n;
	double min;
	double max;
	double mean;
	double m2;
};

void xtest_stats_init(struct xtest_stats *s);
/* Adds one sample of us microseconds. */
void xtest_stats_add(struct xtest_stats *s, double us);
/* Population standard deviation; 0 without samples. */
double xtest_stats_stddev(const struct xtest_stats *s);
/* Throughput of one buffer of size bytes handled in us microseconds; 0 when us <= 0. */
double xtest_stats_mib_per_s(double us, size_t size);

/*
 * Prints, for buffers of size bytes:
 *	min=%gus max=%gus mean=%gus stddev=%gus (cv %g%%) (%gMiB/s)
 * with cv = 100 * stddev / mean and MiB/s from the mean. With verbosity
 * >= 1 a second line follows:
 *	2-sigma interval: %g..%gus (%g..%gMiB/s)
 * i.e. mean -/+ 2 stddev (the low end may be under min, as OP-TEE prints
 * it), with the MiB/s of the slow end first.
 */
void xtest_stats_print(FILE *out, const struct xtest_stats *s, size_t size, int verbosity);

/*
 * Attaches the statistics to the running case as --json figures:
 * <name>.min/.max/.mean/.stddev in "us", <name>.samples in "count" and,
 * when size > 0, <name>.throughput in "MiB/s".
 */
void xtest_stats_report(const char *name, const struct xtest_stats *s, size_t size);

/* Reads CLOCK_MONOTONIC (the clock the helpers below assume). */
void xtest_monotonic_now(struct timespec *ts);
/* end - start in microseconds. */
double xtest_timespec_diff_us(const struct timespec *start, const struct timespec *end);

/* Keeps a CPU busy for seconds (the -w option), so frequency scaling settles first. */
void xtest_warmup(unsigned int seconds);

#endif
