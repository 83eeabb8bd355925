/*
 * adbg internals shared by the framework files (adbg_*.c) and xtest_main.c.
 * Case files include adbg.h only.
 */
#ifndef XTEST_ADBG_INT_H
#define XTEST_ADBG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "adbg.h"

/* Where a subcase (or a case) first failed; file is a basename in static storage. */
struct adbg_location {
	const char *file;
	int line;
};

struct adbg_subcase {
	char *name;  /* "regression_1001.2.1"; the case's own name for the root */
	char *title; /* formatted title */
	struct adbg_subcase *parent;
	struct adbg_subcase *first_child;
	struct adbg_subcase *last_child;
	struct adbg_subcase *next; /* next sibling */
	unsigned int n_children;
	/* Checks run in this subcase and everything nested in it. */
	size_t checks;
	size_t failed_checks;
	/* First failure here or nested (first.file NULL: none). */
	struct adbg_location first;
	/* First failure made directly here, outside any nested subcase. */
	struct adbg_location own_first;
};

struct adbg_figure {
	char *name;
	char *unit;
	double value;
	/* The innermost subcase open when it was reported; NULL: the case itself. */
	const struct adbg_subcase *subcase;
};

enum adbg_result {
	ADBG_RESULT_OK,
	ADBG_RESULT_FAILED,
	ADBG_RESULT_SKIPPED,
};

struct adbg_case {
	const struct adbg_case_def *def;
	struct adbg_subcase root;     /* the case itself */
	struct adbg_subcase *current; /* innermost open subcase, &root when none */
	char *skip_reason;	      /* set by Do_ADBG_Skip */
	struct adbg_figure *figures;
	size_t n_figures;
	size_t figures_cap;
	double duration_ms;
};

/* The cases of one suite that ran (selected by the filters), in run order. */
struct adbg_suite_result {
	const char *suite;
	struct adbg_case **cases;
	size_t n_cases;
	size_t n_filtered; /* registered in the suite but not selected */
};

/* What xtest_main collected from the command line. */
struct adbg_options {
	const char *const *include; /* test-id substrings; none: every case */
	size_t n_include;
	const char *const *exclude; /* -x substrings */
	size_t n_exclude;
};

/* adbg_case.c */
struct adbg_case *adbg_case_new(const struct adbg_case_def *def);
void adbg_case_free(struct adbg_case *c);
/* Prints the case start, runs it, closes abandoned subcases, prints the end line. */
void adbg_case_run(struct adbg_case *c);
enum adbg_result adbg_case_result(const struct adbg_case *c);
const char *adbg_result_str(enum adbg_result r);
/* Records one check's outcome on c; returns ok. */
bool adbg_case_record(ADBG_Case_t *c, const char *file, int line, bool ok);
/* The part of a __FILE__ path after the last '/'. */
const char *adbg_basename(const char *file);
void adbg_set_level(int level);

/* adbg_run.c */
/* Checks the registry (fields set, names unique); prints problems, returns false on any. */
bool adbg_registry_check(void);
/*
 * Runs the selected cases of suite and prints its banner and result block.
 * res receives the cases (owned; free with adbg_suite_result_free).
 * Returns false only when memory ran out.
 */
bool adbg_run_suite(const char *suite, const struct adbg_options *opt,
		    struct adbg_suite_result *res);
void adbg_suite_result_free(struct adbg_suite_result *res);
/* Adds the case results of res to the totals. */
void adbg_suite_result_count(const struct adbg_suite_result *res, size_t *passed, size_t *failed,
			     size_t *skipped);

/* adbg_json.c */
/* Writes the --json report; returns false (after printing why) on error. */
bool adbg_json_write(const char *path, const struct adbg_suite_result *suites, size_t n_suites);

#endif
