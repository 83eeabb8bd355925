/*
 * One running case: its subcase tree, the outcome of its checks, skip
 * state and reported figures, and the start/end lines of the report.
 *
 * xtest stops on out-of-memory inside the framework: a report with holes
 * in it would be worse than no report.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adbg_int.h"

/* Guards every case's subcase tree, counters, skip state and figures. */
static pthread_mutex_t adbg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct adbg_case *adbg_running; /* under adbg_lock */
static int adbg_level;

static void adbg_oom(void)
{
	fputs("xtest: out of memory\n", stderr);
	exit(EXIT_FAILURE);
}

static char *adbg_vformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static char *adbg_vformat(const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		adbg_oom();
	return s;
}

static char *adbg_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *adbg_format(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	s = adbg_vformat(fmt, ap);
	va_end(ap);
	return s;
}

static char *adbg_strdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		adbg_oom();
	return d;
}

static void adbg_subcase_free_children(struct adbg_subcase *s)
{
	struct adbg_subcase *child = s->first_child;

	while (child) {
		struct adbg_subcase *next = child->next;

		adbg_subcase_free_children(child);
		free(child->name);
		free(child->title);
		free(child);
		child = next;
	}
	s->first_child = NULL;
	s->last_child = NULL;
}

struct adbg_case *adbg_case_new(const struct adbg_case_def *def)
{
	struct adbg_case *c = calloc(1, sizeof(*c));

	if (!c)
		adbg_oom();
	c->def = def;
	c->root.name = adbg_strdup(def->name);
	c->root.title = adbg_strdup(def->title);
	c->current = &c->root;
	return c;
}

void adbg_case_free(struct adbg_case *c)
{
	size_t i = 0;

	if (!c)
		return;
	adbg_subcase_free_children(&c->root);
	free(c->root.name);
	free(c->root.title);
	free(c->skip_reason);
	for (i = 0; i < c->n_figures; i++) {
		free(c->figures[i].name);
		free(c->figures[i].unit);
	}
	free(c->figures);
	free(c);
}

enum adbg_result adbg_case_result(const struct adbg_case *c)
{
	if (c->root.failed_checks)
		return ADBG_RESULT_FAILED;
	if (c->skip_reason)
		return ADBG_RESULT_SKIPPED;
	return ADBG_RESULT_OK;
}

const char *adbg_result_str(enum adbg_result r)
{
	switch (r) {
	case ADBG_RESULT_OK:
		return "OK";
	case ADBG_RESULT_FAILED:
		return "FAILED";
	case ADBG_RESULT_SKIPPED:
		return "SKIPPED";
	}
	return "?";
}

void adbg_set_level(int level)
{
	adbg_level = level;
}

int xtest_level(void)
{
	return adbg_level;
}

const char *adbg_basename(const char *file)
{
	const char *slash = strrchr(file, '/');

	return slash ? slash + 1 : file;
}

bool adbg_case_record(ADBG_Case_t *c, const char *file, int line, bool ok)
{
	struct adbg_location loc = {.file = adbg_basename(file), .line = line};
	struct adbg_subcase *s = NULL;

	if (!c) {
		Do_ADBG_Log("%s:%d: check made without a case; not counted", loc.file, line);
		return ok;
	}
	pthread_mutex_lock(&adbg_lock);
	for (s = c->current; s; s = s->parent) {
		s->checks++;
		if (!ok) {
			s->failed_checks++;
			if (!s->first.file)
				s->first = loc;
		}
	}
	if (!ok && !c->current->own_first.file)
		c->current->own_first = loc;
	pthread_mutex_unlock(&adbg_lock);
	return ok;
}

void Do_ADBG_BeginSubCase(ADBG_Case_t *c, const char *fmt, ...)
{
	struct adbg_subcase *parent = NULL;
	struct adbg_subcase *s = NULL;
	va_list ap;

	if (!c || !fmt) {
		Do_ADBG_Log("Do_ADBG_BeginSubCase: NULL %s", c ? "title" : "case");
		return;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		adbg_oom();
	va_start(ap, fmt);
	s->title = adbg_vformat(fmt, ap);
	va_end(ap);

	pthread_mutex_lock(&adbg_lock);
	parent = c->current;
	parent->n_children++;
	s->name = adbg_format("%s.%u", parent->name, parent->n_children);
	s->parent = parent;
	if (parent->last_child)
		parent->last_child->next = s;
	else
		parent->first_child = s;
	parent->last_child = s;
	c->current = s;
	pthread_mutex_unlock(&adbg_lock);

	Do_ADBG_Log("o %s %s", s->name, s->title);
}

void Do_ADBG_EndSubCase(ADBG_Case_t *c, const char *fmt, ...)
{
	struct adbg_subcase *s = NULL;
	char *title = NULL;
	bool mismatch = false;
	bool failed = false;
	va_list ap;

	if (!c) {
		Do_ADBG_Log("Do_ADBG_EndSubCase: NULL case");
		return;
	}
	if (fmt) {
		va_start(ap, fmt);
		title = adbg_vformat(fmt, ap);
		va_end(ap);
	}

	pthread_mutex_lock(&adbg_lock);
	s = c->current;
	if (s != &c->root) {
		mismatch = title && strcmp(title, s->title) != 0;
		failed = s->failed_checks > 0;
		c->current = s->parent;
	}
	pthread_mutex_unlock(&adbg_lock);

	if (s == &c->root) {
		Do_ADBG_Log("Do_ADBG_EndSubCase: no subcase is open (title \"%s\")",
			    title ? title : "NULL");
	} else {
		if (mismatch)
			Do_ADBG_Log(
			    "Do_ADBG_EndSubCase: ending \"%s\", but was asked to end \"%s\"",
			    s->title, title);
		Do_ADBG_Log("  %s %s", s->name, failed ? "FAILED" : "OK");
	}
	free(title);
}

void Do_ADBG_Skip(ADBG_Case_t *c, const char *why)
{
	if (!c)
		return;
	pthread_mutex_lock(&adbg_lock);
	if (!c->skip_reason)
		c->skip_reason = adbg_strdup(why ? why : "no reason given");
	pthread_mutex_unlock(&adbg_lock);
}

void xtest_report_figure(const char *name, const char *unit, double value)
{
	struct adbg_case *c = NULL;
	struct adbg_figure *f = NULL;

	pthread_mutex_lock(&adbg_lock);
	c = adbg_running;
	if (!c)
		goto out;
	if (c->n_figures == c->figures_cap) {
		size_t cap = c->figures_cap ? 2 * c->figures_cap : 8;
		struct adbg_figure *grown = reallocarray(c->figures, cap, sizeof(*grown));

		if (!grown)
			adbg_oom();
		c->figures = grown;
		c->figures_cap = cap;
	}
	f = &c->figures[c->n_figures++];
	f->name = adbg_strdup(name ? name : "");
	f->unit = adbg_strdup(unit ? unit : "");
	f->value = value;
	f->subcase = c->current != &c->root ? c->current : NULL;
out:
	pthread_mutex_unlock(&adbg_lock);
}

static double adbg_elapsed_ms(const struct timespec *t0, const struct timespec *t1)
{
	return (double)(t1->tv_sec - t0->tv_sec) * 1e3 + (double)(t1->tv_nsec - t0->tv_nsec) / 1e6;
}

void adbg_case_run(struct adbg_case *c)
{
	struct timespec t0 = {0};
	struct timespec t1 = {0};
	enum adbg_result r = ADBG_RESULT_OK;

	Do_ADBG_Log("%s", "");
	Do_ADBG_Log("* %s %s", c->root.name, c->root.title);

	pthread_mutex_lock(&adbg_lock);
	adbg_running = c;
	pthread_mutex_unlock(&adbg_lock);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	c->def->run(c);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c->duration_ms = adbg_elapsed_ms(&t0, &t1);

	pthread_mutex_lock(&adbg_lock);
	adbg_running = NULL;
	pthread_mutex_unlock(&adbg_lock);

	/* Close what the case left open, innermost first. */
	while (c->current != &c->root)
		Do_ADBG_EndSubCase(c, NULL);

	r = adbg_case_result(c);
	if (r == ADBG_RESULT_SKIPPED)
		Do_ADBG_Log("  %s SKIPPED: \"%s\"", c->root.name, c->skip_reason);
	else
		Do_ADBG_Log("  %s %s", c->root.name, adbg_result_str(r));
}

void Do_ADBG_Log(const char *fmt, ...)
{
	va_list ap;

	flockfile(stdout);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	putc_unlocked('\n', stdout);
	funlockfile(stdout);
}

void Do_ADBG_HexLog(const void *buf, size_t size, size_t cols)
{
	const unsigned char *p = buf;
	char line[16 * 3 * 8 + 1];
	size_t off = 0;

	if (!cols || cols > 16 * 8)
		cols = 16;
	if (!p && size) {
		Do_ADBG_Log("  (NULL buffer of %zu bytes)", size);
		return;
	}
	for (off = 0; off < size; off += cols) {
		size_t n = size - off < cols ? size - off : cols;
		size_t i = 0;

		for (i = 0; i < n; i++)
			snprintf(line + 3 * i, sizeof(line) - 3 * i, "%02x ", p[off + i]);
		line[n ? 3 * n - 1 : 0] = '\0';
		Do_ADBG_Log("  %04zx: %s", off, line);
	}
}
