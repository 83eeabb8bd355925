/*
 * swtee bench: the progress line of a run, on stderr.
 *
 * On a terminal one line is redrawn in place, at most ten times a second:
 *	swtee bench [2/6] 0:41 elapsed, ~1:20 left | session: session_open_close, block 3/5
 * Elsewhere (a log, CI) a line is printed as each group starts. The time
 * left is the groups' own estimates (bench_group.seconds, else what the
 * group took on a 2-core VM, else a default), scaled by how the groups
 * that finished compared with theirs; within a group that tells its case
 * count, by the share of its cases and blocks done. There is one run per
 * process, so the state is this file's.
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bench_int.h"
#include "bench_text.h"

/* A group that gives no estimate is taken to need this many seconds. */
#define PROGRESS_DEFAULT_SECONDS 20.0
/* Under --quick most of a group's time shrinks by ten; its fixed costs do not. */
#define PROGRESS_QUICK_SCALE 0.15
#define PROGRESS_REDRAW_US 100000.0
#define PROGRESS_PRIOR_SECONDS 30.0
#define PROGRESS_LINE_MAX 512

static struct {
	const struct bench_group *const *groups;
	size_t n;
	bool quick;
	bool tty;
	bool drawn; /* a line is on the terminal */
	double t0;  /* of the run, us */
	size_t cur; /* running group; n: none */
	double group_t0;
	size_t cases_done;
	char case_name[BENCH_NAME_MAX];
	size_t block, blocks;
	double done_actual, done_estimate; /* seconds, over finished groups */
	double last_draw;
} progress;

/*
 * What the groups took at their defaults on a 2-core VM, for those that do
 * not tell (bench_group.seconds wins).
 */
static const struct {
	const char *name;
	double seconds;
} progress_measured[] = {
    {"invoke", 2}, {"session", 10}, {"memory", 1}, {"crypto", 50}, {"storage", 65}, {"tpm", 20},
};

static double progress_estimate(size_t i)
{
	const struct bench_group *g = progress.groups[i];
	double s = PROGRESS_DEFAULT_SECONDS;
	size_t k = 0;

	for (k = 0; k < sizeof(progress_measured) / sizeof(progress_measured[0]); k++)
		if (strcmp(g->name, progress_measured[k].name) == 0)
			s = progress_measured[k].seconds;
	if (g->seconds)
		s = (double)g->seconds;
	return progress.quick ? s * PROGRESS_QUICK_SCALE : s;
}

/*
 * How the groups that finished ran against their estimates, 1 before any
 * did: a prior of PROGRESS_PRIOR_SECONDS at 1 keeps a short group from
 * swinging it.
 */
static double progress_speed(void)
{
	double prior = PROGRESS_PRIOR_SECONDS * (progress.quick ? PROGRESS_QUICK_SCALE : 1);

	return (progress.done_actual + prior) / (progress.done_estimate + prior);
}

/* Seconds the run still needs, by the estimates and what is done. */
static double progress_left(void)
{
	const struct bench_group *g = NULL;
	double speed = progress_speed();
	double elapsed = 0;
	double left = 0;
	double frac = -1;
	size_t i = 0;

	if (progress.cur >= progress.n)
		return 0;
	g = progress.groups[progress.cur];
	elapsed = (bench_now_us() - progress.group_t0) / 1e6;
	if (g->cases) {
		frac = (double)progress.cases_done;
		if (progress.blocks)
			frac += (double)progress.block / (double)progress.blocks;
		frac /= (double)g->cases;
		if (frac > 0.99)
			frac = 0.99;
	}
	if (frac >= 0.05 && elapsed > 1)
		left = elapsed * (1 - frac) / frac;
	else if (progress_estimate(progress.cur) * speed > elapsed)
		left = progress_estimate(progress.cur) * speed - elapsed;
	for (i = progress.cur + 1; i < progress.n; i++)
		left += progress_estimate(i) * speed;
	return left;
}

/* m:ss, or h:mm:ss */
static void progress_time(char *out, size_t n, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		bench_text(out, n, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		bench_text(out, n, "%lu:%02lu", t / 60, t % 60);
}

static int progress_columns(void)
{
	struct winsize ws = {0};

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

static void progress_draw(bool force)
{
	char line[PROGRESS_LINE_MAX];
	char elapsed[32];
	char left[32];
	char where[BENCH_NAME_MAX + 64] = "";
	double now = bench_now_us();
	int cols = 0;

	if (!progress.tty || progress.cur >= progress.n)
		return;
	if (!force && now - progress.last_draw < PROGRESS_REDRAW_US)
		return;
	progress.last_draw = now;
	progress_time(elapsed, sizeof(elapsed), (now - progress.t0) / 1e6);
	progress_time(left, sizeof(left), progress_left());
	if (progress.case_name[0] && progress.blocks && !progress.block)
		bench_text(where, sizeof(where), ": %s, warm-up", progress.case_name);
	else if (progress.case_name[0] && progress.blocks)
		bench_text(where, sizeof(where), ": %s, block %zu/%zu", progress.case_name,
			   progress.block, progress.blocks - 1);
	else if (progress.case_name[0])
		bench_text(where, sizeof(where), ": %s", progress.case_name);
	/* The time first: a narrow terminal cuts the case, not the estimate. */
	bench_text(line, sizeof(line), "swtee bench [%zu/%zu] %s elapsed, ~%s left | %s%s",
		   progress.cur + 1, progress.n, elapsed, left, progress.groups[progress.cur]->name,
		   where);
	/* A line that wraps cannot be redrawn in place. */
	cols = progress_columns() - 1;
	if (cols >= 0 && strlen(line) > (size_t)cols)
		line[cols] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	progress.drawn = true;
}

void bench_progress_start(const struct bench_group *const *groups, size_t n, bool quick)
{
	memset(&progress, 0, sizeof(progress));
	progress.groups = groups;
	progress.n = n;
	progress.cur = n;
	progress.quick = quick;
	progress.tty = isatty(STDERR_FILENO) == 1;
	progress.t0 = bench_now_us();
}

void bench_progress_group(size_t i)
{
	char left[32];
	double now = bench_now_us();

	if (progress.cur < progress.n) {
		progress.done_actual += (now - progress.group_t0) / 1e6;
		progress.done_estimate += progress_estimate(progress.cur);
	}
	progress.cur = i;
	progress.group_t0 = now;
	progress.cases_done = 0;
	progress.case_name[0] = '\0';
	progress.block = 0;
	progress.blocks = 0;
	if (i >= progress.n)
		return;
	if (progress.tty) {
		progress_draw(true);
		return;
	}
	progress_time(left, sizeof(left), progress_left());
	fprintf(stderr, "swtee bench [%zu/%zu] %s: starting, ~%s left\n", i + 1, progress.n,
		progress.groups[i]->name, left);
}

void bench_progress_case_done(void)
{
	progress.cases_done++;
	progress.block = 0;
	progress.blocks = 0;
	progress_draw(false);
}

void bench_progress_block(const char *case_name, size_t b, size_t blocks)
{
	bench_text(progress.case_name, sizeof(progress.case_name), "%s", case_name);
	progress.block = b;
	progress.blocks = blocks;
	progress_draw(false);
}

void bench_progress_end(void)
{
	if (progress.tty && progress.drawn) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	progress.drawn = false;
}

double bench_progress_elapsed(void)
{
	return (bench_now_us() - progress.t0) / 1e6;
}
