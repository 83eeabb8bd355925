/*
 * swtee bench: results read back from JSON files, for --compare, --from
 * and --xtest. The files may come from another machine, so each is read
 * as untrusted: its size is capped, json-c parses it (nothing may follow
 * the value), every field is type-checked, a string that does not fit is
 * refused rather than cut (two names cut alike would merge), and fields
 * this file does not know are ignored.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_int.h"
#include "bench_text.h"

/* Capped, with room for thousands of cases and their distributions. */
#define LOAD_FILE_MAX (32L * 1024 * 1024)

#ifdef SWTEE_HAVE_JSONC

#include <json-c/json.h>

/* Reads path whole (at most LOAD_FILE_MAX bytes) into a new NUL-terminated buffer. */
static char *load_file(const char *path, size_t *len)
{
	char *buf = NULL;
	long size = 0;
	FILE *f = fopen(path, "re");

	*len = 0;
	if (!f) {
		fprintf(stderr, "swtee bench: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "swtee bench: %s: cannot tell its size\n", path);
		goto out;
	}
	if (size > LOAD_FILE_MAX) {
		fprintf(stderr, "swtee bench: %s: larger than %ld bytes\n", path, LOAD_FILE_MAX);
		goto out;
	}
	buf = malloc((size_t)size + 1);
	if (!buf) {
		fprintf(stderr, "swtee bench: out of memory\n");
		goto out;
	}
	if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
		fprintf(stderr, "swtee bench: %s: short read\n", path);
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[size] = '\0';
	*len = (size_t)size;
out:
	fclose(f);
	return buf;
}

/* Parses path into a json-c tree the caller puts, or NULL (said). */
static json_object *load_json(const char *path)
{
	json_tokener *tok = NULL;
	json_object *root = NULL;
	size_t len = 0;
	char *text = load_file(path, &len);

	if (!text)
		return NULL;
	tok = json_tokener_new_ex(32);
	if (!tok) {
		fprintf(stderr, "swtee bench: out of memory\n");
		goto out;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		fprintf(stderr, "swtee bench: %s: not JSON: %s\n", path,
			json_tokener_get_error(tok) == json_tokener_continue
			    ? "it ends in the middle of a value"
			    : json_tokener_error_desc(json_tokener_get_error(tok)));
		json_object_put(root);
		root = NULL;
		goto out;
	}
	if (strspn(text + json_tokener_get_parse_end(tok), " \t\r\n") !=
	    len - json_tokener_get_parse_end(tok)) {
		fprintf(stderr, "swtee bench: %s: bytes after the JSON value\n", path);
		json_object_put(root);
		root = NULL;
	}
out:
	json_tokener_free(tok);
	free(text);
	return root;
}

/* Where a field was found wanting, for the message. */
struct load_where {
	const char *path;
	const char *what; /* "result 3" */
};

static int load_bad(const struct load_where *w, const char *key, const char *why)
{
	fprintf(stderr, "swtee bench: %s: %s: \"%s\" %s\n", w->path, w->what, key, why);
	return -1;
}

/*
 * The string field key of o into out (n bytes). Absent: "" when
 * optional, an error when required. Returns 0 or -1 (said).
 */
static int load_string(const struct load_where *w, json_object *o, const char *key, char *out,
		       size_t n, bool required)
{
	json_object *v = NULL;
	const char *s = NULL;

	out[0] = '\0';
	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null))
		return required ? load_bad(w, key, "is missing") : 0;
	if (!json_object_is_type(v, json_type_string))
		return load_bad(w, key, "is not a string");
	s = json_object_get_string(v);
	if (strlen(s) >= n)
		return load_bad(w, key, "is too long");
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

/*
 * The number field key of o: *present tells whether it is there; null
 * reads as NAN. Returns 0 or -1 (said).
 */
static int load_number(const struct load_where *w, json_object *o, const char *key, double *out,
		       bool *present)
{
	json_object *v = NULL;

	*out = NAN;
	if (present)
		*present = false;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (present)
		*present = true;
	if (json_object_is_type(v, json_type_null))
		return 0;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return load_bad(w, key, "is not a number");
	*out = json_object_get_double(v);
	return 0;
}

static int load_bool(const struct load_where *w, json_object *o, const char *key, bool *out,
		     bool *present)
{
	json_object *v = NULL;

	*out = false;
	if (present)
		*present = false;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return load_bad(w, key, "is not true or false");
	*out = json_object_get_boolean(v);
	if (present)
		*present = true;
	return 0;
}

/* A count field: a whole number from 0 to 2^53. */
static int load_count(const struct load_where *w, json_object *o, const char *key, size_t *out)
{
	double v = 0;
	bool present = false;

	*out = 0;
	if (load_number(w, o, key, &v, &present))
		return -1;
	if (!present || isnan(v))
		return 0;
	if (v < 0 || v > 9007199254740992.0 || v != floor(v))
		return load_bad(w, key, "is not a count");
	*out = (size_t)v;
	return 0;
}

/* A throughput unit ("kB/s", "ops/s") is better higher; a time or a size lower. */
static bool load_unit_higher_is_better(const char *unit)
{
	size_t len = strlen(unit);

	return len > 2 && strcmp(unit + len - 2, "/s") == 0;
}

/* n numbers of array field key of o into out; false when it is not such an array. */
static bool load_array(json_object *o, const char *key, double *out, size_t n)
{
	json_object *v = NULL;
	json_object *x = NULL;
	size_t i = 0;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array) ||
	    json_object_array_length(v) != n)
		return false;
	for (i = 0; i < n; i++) {
		x = json_object_array_get_idx(v, i);
		if (json_object_is_type(x, json_type_null))
			out[i] = NAN;
		else if (json_object_is_type(x, json_type_double) ||
			 json_object_is_type(x, json_type_int))
			out[i] = json_object_get_double(x);
		else
			return false;
	}
	return true;
}

/*
 * The distributions of a result, when they are at the percentiles this
 * swtee uses; others are left out (they cannot be drawn beside ours).
 */
static int load_quantiles(const struct load_where *w, json_object *o, struct bench_result *r)
{
	double p[BENCH_QUANTILES];
	json_object *q = NULL;
	size_t i = 0;

	if (!json_object_object_get_ex(o, "quantiles", &q))
		return 0;
	if (!json_object_is_type(q, json_type_object))
		return load_bad(w, "quantiles", "is not an object");
	if (!load_array(q, "p", p, BENCH_QUANTILES))
		return 0;
	for (i = 0; i < BENCH_QUANTILES; i++)
		if (p[i] != bench_quantile_points[i])
			return 0;
	if (load_string(w, q, "unit", r->quantiles_unit, sizeof(r->quantiles_unit), true))
		return -1;
	if (!load_array(q, "swtee", r->quantiles, BENCH_QUANTILES) ||
	    !load_array(q, "baseline", r->baseline_quantiles, BENCH_QUANTILES))
		return load_bad(w, "quantiles", "has no swtee and baseline arrays to match p");
	r->has_quantiles = true;
	return 0;
}

/* One result object into run. */
static int load_result(const struct load_where *w, json_object *o, struct bench_run *run)
{
	struct bench_result r = {0};
	struct bench_entry *e = NULL;
	char group[BENCH_NAME_MAX];
	char statistic[BENCH_NAME_MAX];
	bool p50 = false, p90 = false, p99 = false;
	bool present = false;
	bool group_skip = false;
	double spread = 0;

	if (!json_object_is_type(o, json_type_object))
		return load_bad(w, "result", "is not an object");
	if (load_string(w, o, "group", group, sizeof(group), true) ||
	    load_string(w, o, "name", r.name, sizeof(r.name), true) ||
	    load_string(w, o, "unit", r.unit, sizeof(r.unit), false) ||
	    load_number(w, o, "value", &r.value, NULL) || load_number(w, o, "p50", &r.p50, &p50) ||
	    load_number(w, o, "p90", &r.p90, &p90) || load_number(w, o, "p99", &r.p99, &p99) ||
	    load_string(w, o, "statistic", statistic, sizeof(statistic), false) ||
	    load_count(w, o, "iterations", &r.iterations) ||
	    load_count(w, o, "blocks", &r.blocks) ||
	    load_string(w, o, "baseline_name", r.baseline_name, sizeof(r.baseline_name), false) ||
	    load_number(w, o, "baseline_value", &r.baseline_value, &r.has_baseline) ||
	    load_number(w, o, "baseline_p50", &r.baseline_p50, &r.has_baseline_p50) ||
	    load_number(w, o, "baseline_p90", &r.baseline_p90, &r.has_baseline_p90) ||
	    load_number(w, o, "target", &r.target, &r.has_target) ||
	    load_number(w, o, "target_p50", &r.target_p50, &r.has_target_p50) ||
	    load_number(w, o, "target_p90", &r.target_p90, &r.has_target_p90) ||
	    load_number(w, o, "target_value", &r.target_value, &r.has_target_value) ||
	    load_bool(w, o, "skipped", &r.skipped, NULL) ||
	    load_string(w, o, "skip_reason", r.skip_reason, sizeof(r.skip_reason), false) ||
	    load_bool(w, o, "group_skipped", &group_skip, NULL) ||
	    load_bool(w, o, "higher_is_better", &r.higher_is_better, &present) ||
	    load_number(w, o, "spread", &spread, &r.has_spread) || load_quantiles(w, o, &r))
		return -1;
	r.has_percentiles = p50 && p90 && p99;
	if (!present)
		r.higher_is_better = load_unit_higher_is_better(r.unit);
	r.spread = spread;
	if (r.has_spread && !(spread >= 0))
		r.has_spread = false;
	/* A target that is not a number is no target. */
	r.has_target = r.has_target && isfinite(r.target);
	r.has_target_value = r.has_target_value && isfinite(r.target_value);
	r.has_target_p50 = r.has_target_p50 && isfinite(r.target_p50);
	r.has_target_p90 = r.has_target_p90 && isfinite(r.target_p90);
	e = bench_run_add(run, group, NULL, &r);
	if (!e)
		return -1;
	e->group_skip = group_skip;
	memcpy(e->statistic, statistic, sizeof(e->statistic));
	return 0;
}

static int load_results_array(const char *path, json_object *a, struct bench_run *run)
{
	char what[48];
	struct load_where w = {.path = path, .what = what};
	size_t i = 0;

	for (i = 0; i < json_object_array_length(a); i++) {
		bench_text(what, sizeof(what), "result %zu", i);
		if (load_result(&w, json_object_array_get_idx(a, i), run))
			return -1;
	}
	return 0;
}

static int load_machine(const char *path, json_object *root, struct bench_machine *m)
{
	struct load_where w = {.path = path, .what = "machine"};
	json_object *o = NULL;
	size_t cores = 0;

	if (!json_object_object_get_ex(root, "machine", &o))
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return load_bad(&w, "machine", "is not an object");
	if (load_string(&w, o, "cpu_model", m->cpu_model, sizeof(m->cpu_model), false) ||
	    load_count(&w, o, "cores", &cores) ||
	    load_string(&w, o, "kernel", m->kernel, sizeof(m->kernel), false) ||
	    load_string(&w, o, "openssl", m->openssl, sizeof(m->openssl), false) ||
	    load_string(&w, o, "state_dir", m->state_dir, sizeof(m->state_dir), false) ||
	    load_string(&w, o, "filesystem", m->filesystem, sizeof(m->filesystem), false) ||
	    load_string(&w, o, "date", m->date, sizeof(m->date), false) ||
	    load_string(&w, o, "swtee_version", m->swtee_version, sizeof(m->swtee_version), false))
		return -1;
	m->cores = cores > 65536 ? 0 : (unsigned int)cores;
	return 0;
}

static int load_groups(const char *path, json_object *root, struct bench_run *run)
{
	static const char *const status[] = {"ran", "skipped", "failed"};
	char what[48];
	struct load_where w = {.path = path, .what = what};
	struct bench_group_run *gr = NULL;
	json_object *a = NULL;
	json_object *o = NULL;
	char name[BENCH_NAME_MAX];
	char st[16];
	size_t i = 0;
	size_t k = 0;
	bool present = false;

	if (!json_object_object_get_ex(root, "groups", &a))
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return load_bad(&w, "groups", "is not an array");
	for (i = 0; i < json_object_array_length(a); i++) {
		bench_text(what, sizeof(what), "group %zu", i);
		o = json_object_array_get_idx(a, i);
		if (!json_object_is_type(o, json_type_object))
			return load_bad(&w, "group", "is not an object");
		if (load_string(&w, o, "name", name, sizeof(name), true) ||
		    load_string(&w, o, "status", st, sizeof(st), true))
			return -1;
		for (k = 0; k < 3 && strcmp(st, status[k]) != 0; k++)
			;
		if (k == 3)
			return load_bad(&w, "status", "is not ran, skipped or failed");
		gr = bench_run_add_group(run, name);
		if (!gr)
			return -1;
		gr->status = (enum bench_group_status)k;
		if (load_string(&w, o, "help", gr->help, sizeof(gr->help), false) ||
		    load_string(&w, o, "reason", gr->reason, sizeof(gr->reason), false) ||
		    load_number(&w, o, "seconds", &gr->seconds, &present))
			return -1;
	}
	return 0;
}

/* Adds a suite's outcome, or to it when the suite is there already. */
static int load_add_suite(struct bench_run *run, const char *suite, size_t passed, size_t failed,
			  size_t skipped)
{
	struct bench_xtest_suite *s = NULL;
	size_t i = 0;

	for (i = 0; i < run->nxsuites && strcmp(run->xsuites[i].suite, suite) != 0; i++)
		;
	if (i == run->nxsuites) {
		if (run->nxsuites == run->xsuites_cap) {
			size_t cap = run->xsuites_cap ? 2 * run->xsuites_cap : 4;

			s = reallocarray(run->xsuites, cap, sizeof(*s));
			if (!s) {
				fprintf(stderr, "swtee bench: out of memory\n");
				return -1;
			}
			run->xsuites = s;
			run->xsuites_cap = cap;
		}
		s = &run->xsuites[run->nxsuites++];
		memset(s, 0, sizeof(*s));
		bench_text(s->suite, sizeof(s->suite), "%s", suite);
	}
	s = &run->xsuites[i];
	s->passed += passed;
	s->failed += failed;
	s->skipped += skipped;
	return 0;
}

static int load_add_figure(struct bench_run *run, const struct bench_xtest_figure *f)
{
	if (run->nxfigures == run->xfigures_cap) {
		size_t cap = run->xfigures_cap ? 2 * run->xfigures_cap : 64;
		struct bench_xtest_figure *v = reallocarray(run->xfigures, cap, sizeof(*v));

		if (!v) {
			fprintf(stderr, "swtee bench: out of memory\n");
			return -1;
		}
		run->xfigures = v;
		run->xfigures_cap = cap;
	}
	run->xfigures[run->nxfigures++] = *f;
	return 0;
}

/* The figures array of o (a case, or results.json's xtest), each under case_id when set. */
static int load_figures(const struct load_where *w, json_object *o, const char *case_id,
			struct bench_run *run)
{
	struct bench_xtest_figure f;
	json_object *a = NULL;
	json_object *x = NULL;
	size_t i = 0;

	if (!json_object_object_get_ex(o, "figures", &a))
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return load_bad(w, "figures", "is not an array");
	for (i = 0; i < json_object_array_length(a); i++) {
		x = json_object_array_get_idx(a, i);
		memset(&f, 0, sizeof(f));
		if (!json_object_is_type(x, json_type_object))
			return load_bad(w, "figure", "is not an object");
		if (case_id)
			bench_text(f.case_id, sizeof(f.case_id), "%s", case_id);
		else if (load_string(w, x, "case", f.case_id, sizeof(f.case_id), true))
			return -1;
		if (load_string(w, x, "name", f.name, sizeof(f.name), true) ||
		    load_string(w, x, "unit", f.unit, sizeof(f.unit), false) ||
		    load_number(w, x, "value", &f.value, NULL) || load_add_figure(run, &f))
			return -1;
	}
	return 0;
}

/* results.json's "xtest": {"suites": [...], "figures": [...]}. */
static int load_report_xtest(const char *path, json_object *root, struct bench_run *run)
{
	char what[48] = "xtest";
	struct load_where w = {.path = path, .what = what};
	char suite[BENCH_NAME_MAX];
	json_object *x = NULL;
	json_object *a = NULL;
	json_object *o = NULL;
	size_t p = 0, f = 0, s = 0;
	size_t i = 0;

	if (!json_object_object_get_ex(root, "xtest", &x))
		return 0;
	if (!json_object_is_type(x, json_type_object))
		return load_bad(&w, "xtest", "is not an object");
	if (json_object_object_get_ex(x, "suites", &a)) {
		if (!json_object_is_type(a, json_type_array))
			return load_bad(&w, "suites", "is not an array");
		for (i = 0; i < json_object_array_length(a); i++) {
			o = json_object_array_get_idx(a, i);
			if (!json_object_is_type(o, json_type_object))
				return load_bad(&w, "suite", "is not an object");
			if (load_string(&w, o, "suite", suite, sizeof(suite), true) ||
			    load_count(&w, o, "passed", &p) || load_count(&w, o, "failed", &f) ||
			    load_count(&w, o, "skipped", &s) || load_add_suite(run, suite, p, f, s))
				return -1;
		}
	}
	return load_figures(&w, x, NULL, run);
}

int bench_load_results(const char *path, struct bench_run *run)
{
	json_object *root = load_json(path);
	json_object *a = NULL;
	struct load_where w = {.path = path, .what = "the file"};
	bool quick = false;
	int ret = -1;

	if (!root)
		return -1;
	if (json_object_is_type(root, json_type_array)) {
		ret = load_results_array(path, root, run);
		goto out;
	}
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "results", &a) ||
	    !json_object_is_type(a, json_type_array)) {
		fprintf(stderr,
			"swtee bench: %s: neither a results array (swtee bench --json) nor a "
			"report's results.json\n",
			path);
		goto out;
	}
	if (load_results_array(path, a, run) || load_machine(path, root, &run->machine) ||
	    load_groups(path, root, run) || load_report_xtest(path, root, run) ||
	    load_bool(&w, root, "quick", &quick, NULL) ||
	    load_count(&w, root, "iterations", &run->iterations))
		goto out;
	run->quick = quick;
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

/* One case of an xtest suite: counts its result and keeps its figures. */
static int load_xtest_case(const struct load_where *w, json_object *c, const char *suite,
			   struct bench_run *run)
{
	char id[BENCH_NAME_MAX];
	char result[16];

	if (!json_object_is_type(c, json_type_object))
		return load_bad(w, "case", "is not an object");
	if (load_string(w, c, "id", id, sizeof(id), true) ||
	    load_string(w, c, "result", result, sizeof(result), true))
		return -1;
	if (strcmp(result, "OK") == 0)
		return load_add_suite(run, suite, 1, 0, 0) || load_figures(w, c, id, run) ? -1 : 0;
	if (strcmp(result, "FAILED") == 0)
		return load_add_suite(run, suite, 0, 1, 0);
	if (strcmp(result, "SKIPPED") == 0)
		return load_add_suite(run, suite, 0, 0, 1);
	return load_bad(w, "result", "is not OK, FAILED or SKIPPED");
}

int bench_load_xtest(const char *path, struct bench_run *run)
{
	char what[BENCH_NAME_MAX + 48];
	struct load_where w = {.path = path, .what = what};
	char suite[BENCH_NAME_MAX];
	json_object *root = load_json(path);
	json_object *suites = NULL;
	json_object *cases = NULL;
	json_object *s = NULL;
	size_t i = 0;
	size_t j = 0;
	int ret = -1;

	if (!root)
		return -1;
	bench_text(what, sizeof(what), "the file");
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "suites", &suites) ||
	    !json_object_is_type(suites, json_type_array)) {
		fprintf(stderr, "swtee bench: %s: not an xtest --json report\n", path);
		goto out;
	}
	for (i = 0; i < json_object_array_length(suites); i++) {
		s = json_object_array_get_idx(suites, i);
		bench_text(what, sizeof(what), "suite %zu", i);
		if (!json_object_is_type(s, json_type_object)) {
			load_bad(&w, "suite", "is not an object");
			goto out;
		}
		if (load_string(&w, s, "suite", suite, sizeof(suite), true))
			goto out;
		if (!json_object_object_get_ex(s, "cases", &cases) ||
		    !json_object_is_type(cases, json_type_array)) {
			load_bad(&w, "cases", "is not an array");
			goto out;
		}
		/* A suite that ran no case still counts: it shows as 0/0/0. */
		if (load_add_suite(run, suite, 0, 0, 0))
			goto out;
		for (j = 0; j < json_object_array_length(cases); j++) {
			bench_text(what, sizeof(what), "suite %s, case %zu", suite, j);
			if (load_xtest_case(&w, json_object_array_get_idx(cases, j), suite, run))
				goto out;
		}
	}
	ret = 0;
out:
	json_object_put(root);
	return ret;
}

#else /* !SWTEE_HAVE_JSONC */

int bench_load_results(const char *path, struct bench_run *run)
{
	(void)run;
	fprintf(stderr,
		"swtee bench: cannot read %s: swtee was built without json-c "
		"(Debian: libjson-c-dev)\n",
		path);
	return -1;
}

int bench_load_xtest(const char *path, struct bench_run *run)
{
	return bench_load_results(path, run);
}

#endif
