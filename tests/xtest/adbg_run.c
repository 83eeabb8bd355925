/*
 * The case registry and the suite runner: selects the cases of a suite,
 * runs them in order and prints the suite banner and result block.
 *
 * ADBG_CASE_DEFINE puts a pointer per case into the "adbg_cases" section;
 * the linker brackets the section with __start_/__stop_ symbols. They are
 * weak so that a binary without any case still links (and runs nothing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adbg_int.h"

extern const struct adbg_case_def *const __start_adbg_cases[] __attribute__((weak));
extern const struct adbg_case_def *const __stop_adbg_cases[] __attribute__((weak));

#define ADBG_BANNER "######################################################"
#define ADBG_RULE "+-----------------------------------------------------"

static size_t adbg_registry_size(void)
{
	if (!__start_adbg_cases || !__stop_adbg_cases)
		return 0;
	/* The linker places both symbols around one section: one object. */
	// cppcheck-suppress comparePointers
	return (size_t)(__stop_adbg_cases - __start_adbg_cases);
}

/*
 * Ids sort by their leading number, then as strings: "999" < "1001" <
 * "4006_dsa" < "4006_rsa" < "4007". Ids without a leading number go last.
 */
static int adbg_id_cmp(const char *a, const char *b)
{
	char *a_end = NULL;
	char *b_end = NULL;
	unsigned long long na = strtoull(a, &a_end, 10);
	unsigned long long nb = strtoull(b, &b_end, 10);
	bool a_num = a_end != a;
	bool b_num = b_end != b;

	if (a_num != b_num)
		return a_num ? -1 : 1;
	if (a_num && na != nb)
		return na < nb ? -1 : 1;
	return strcmp(a, b);
}

static int adbg_def_cmp(const void *pa, const void *pb)
{
	const struct adbg_case_def *a = *(const struct adbg_case_def *const *)pa;
	const struct adbg_case_def *b = *(const struct adbg_case_def *const *)pb;
	int r = strcmp(a->suite, b->suite);

	return r ? r : adbg_id_cmp(a->id, b->id);
}

/*
 * The registered cases of suite (every suite when suite is NULL), sorted.
 * Returns NULL with *n = 0 when there are none; stops xtest when memory
 * runs out.
 */
static const struct adbg_case_def **adbg_collect(const char *suite, size_t *n)
{
	size_t total = adbg_registry_size();
	const struct adbg_case_def **defs = NULL;
	size_t i = 0;

	*n = 0;
	if (!total)
		return NULL;
	defs = calloc(total, sizeof(*defs));
	if (!defs) {
		fputs("xtest: out of memory\n", stderr);
		exit(EXIT_FAILURE);
	}
	for (i = 0; i < total; i++) {
		const struct adbg_case_def *d = __start_adbg_cases[i];

		if (d && d->suite && (!suite || strcmp(d->suite, suite) == 0))
			defs[(*n)++] = d;
	}
	qsort(defs, *n, sizeof(*defs), adbg_def_cmp);
	return defs;
}

bool adbg_registry_check(void)
{
	size_t total = adbg_registry_size();
	const struct adbg_case_def **defs = NULL;
	size_t n = 0;
	size_t i = 0;
	bool ok = true;

	for (i = 0; i < total; i++) {
		const struct adbg_case_def *d = __start_adbg_cases[i];

		if (!d || !d->suite || !d->id || !d->name || !d->title || !d->run) {
			fprintf(stderr, "xtest: malformed case entry %zu in %s\n", i,
				d && d->file ? d->file : "?");
			ok = false;
		}
	}
	if (!ok)
		return false;

	defs = adbg_collect(NULL, &n);
	for (i = 1; i < n; i++) {
		if (strcmp(defs[i - 1]->name, defs[i]->name) == 0) {
			fprintf(stderr, "xtest: case %s is defined twice (%s and %s)\n",
				defs[i]->name, defs[i - 1]->file, defs[i]->file);
			ok = false;
		}
	}
	free(defs);
	return ok;
}

static bool adbg_selected(const char *name, const struct adbg_options *opt)
{
	size_t i = 0;

	for (i = 0; i < opt->n_exclude; i++)
		if (strstr(name, opt->exclude[i]))
			return false;
	if (!opt->n_include)
		return true;
	for (i = 0; i < opt->n_include; i++)
		if (strstr(name, opt->include[i]))
			return true;
	return false;
}

/* Failed subcases below s, innermost first, as OP-TEE lists them. */
static void adbg_print_failed_subcases(const struct adbg_subcase *s)
{
	const struct adbg_subcase *child = NULL;

	for (child = s->first_child; child; child = child->next) {
		adbg_print_failed_subcases(child);
		if (child->failed_checks)
			Do_ADBG_Log("%s FAILED first error at %s:%d", child->name,
				    child->first.file, child->first.line);
	}
}

static void adbg_print_case_result(const struct adbg_case *c)
{
	const struct adbg_subcase *root = &c->root;

	switch (adbg_case_result(c)) {
	case ADBG_RESULT_SKIPPED:
		Do_ADBG_Log("%s SKIPPED: \"%s\"", root->name, c->skip_reason);
		break;
	case ADBG_RESULT_FAILED:
		adbg_print_failed_subcases(root);
		/* The location is shown when a check outside any subcase failed. */
		if (root->own_first.file)
			Do_ADBG_Log("%s FAILED first error at %s:%d", root->name,
				    root->own_first.file, root->own_first.line);
		else
			Do_ADBG_Log("%s FAILED", root->name);
		break;
	case ADBG_RESULT_OK:
		Do_ADBG_Log("%s OK", root->name);
		break;
	}
}

static const char *adbg_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

static void adbg_print_result_block(const char *suite, const struct adbg_options *opt,
				    const struct adbg_suite_result *res)
{
	size_t checks = 0;
	size_t failed_checks = 0;
	size_t cases = 0;
	size_t failed_cases = 0;
	size_t skipped = res->n_filtered;
	size_t i = 0;

	Do_ADBG_Log(ADBG_RULE);
	/* One header line per filter, as OP-TEE prints them; -x ones after the others. */
	for (i = 0; i < opt->n_include; i++)
		Do_ADBG_Log("Result of testsuite %s filtered by \"%s\":", suite, opt->include[i]);
	for (i = 0; i < opt->n_exclude; i++)
		Do_ADBG_Log("Result of testsuite %s filtered by \"-x %s\":", suite,
			    opt->exclude[i]);
	if (!opt->n_include && !opt->n_exclude)
		Do_ADBG_Log("Result of testsuite %s:", suite);

	for (i = 0; i < res->n_cases; i++) {
		const struct adbg_case *c = res->cases[i];
		enum adbg_result r = adbg_case_result(c);

		adbg_print_case_result(c);
		checks += c->root.checks;
		failed_checks += c->root.failed_checks;
		if (r == ADBG_RESULT_SKIPPED) {
			skipped++;
		} else {
			cases++;
			if (r == ADBG_RESULT_FAILED)
				failed_cases++;
		}
	}

	Do_ADBG_Log(ADBG_RULE);
	Do_ADBG_Log("%zu %s of which %zu failed", checks,
		    adbg_plural(checks, "subtest", "subtests"), failed_checks);
	Do_ADBG_Log("%zu %s of which %zu failed", cases,
		    adbg_plural(cases, "test case", "test cases"), failed_cases);
	/* As in OP-TEE, cases left out by the filters count as skipped. */
	Do_ADBG_Log("%zu %s skipped", skipped,
		    adbg_plural(skipped, "test case was", "test cases were"));
}

bool adbg_run_suite(const char *suite, const struct adbg_options *opt,
		    struct adbg_suite_result *res)
{
	const struct adbg_case_def **defs = NULL;
	size_t n = 0;
	size_t i = 0;

	memset(res, 0, sizeof(*res));
	res->suite = suite;

	Do_ADBG_Log(ADBG_BANNER);
	Do_ADBG_Log("# %s", suite);
	Do_ADBG_Log(ADBG_BANNER);

	defs = adbg_collect(suite, &n);
	if (n) {
		res->cases = calloc(n, sizeof(*res->cases));
		if (!res->cases) {
			free(defs);
			return false;
		}
	}
	for (i = 0; i < n; i++) {
		struct adbg_case *c = NULL;

		if (!adbg_selected(defs[i]->name, opt)) {
			res->n_filtered++;
			continue;
		}
		c = adbg_case_new(defs[i]);
		res->cases[res->n_cases++] = c;
		adbg_case_run(c);
	}
	free(defs);

	adbg_print_result_block(suite, opt, res);
	return true;
}

void adbg_suite_result_free(struct adbg_suite_result *res)
{
	size_t i = 0;

	if (!res)
		return;
	for (i = 0; i < res->n_cases; i++)
		adbg_case_free(res->cases[i]);
	free(res->cases);
	res->cases = NULL;
	res->n_cases = 0;
}

void adbg_suite_result_count(const struct adbg_suite_result *res, size_t *passed, size_t *failed,
			     size_t *skipped)
{
	size_t i = 0;

	for (i = 0; i < res->n_cases; i++) {
		switch (adbg_case_result(res->cases[i])) {
		case ADBG_RESULT_OK:
			(*passed)++;
			break;
		case ADBG_RESULT_FAILED:
			(*failed)++;
			break;
		case ADBG_RESULT_SKIPPED:
			(*skipped)++;
			break;
		}
	}
}
