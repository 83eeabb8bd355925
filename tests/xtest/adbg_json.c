/*
 * The --json report (a swtee extension), for CI systems that should not
 * parse the text; tests/report/xtest.schema.json is its schema:
 *
 * {"format": "swtee-xtest/1", "level": 0,
 *  "suites": [{"suite": "regression", "cases": [
 *   {"id": "regression_1001", "title": "...", "result": "OK|FAILED|SKIPPED",
 *    "skip_reason": "..." (SKIPPED only), "first_error": "file:line" (FAILED only),
 *    "duration_ms": 1.234, "checks": N, "failed_checks": N,
 *    "subcases": [{"id": "regression_1001.1", "title": "...", "result": "OK|FAILED",
 *                  "checks": N, "failed_checks": N,
 *                  "first_error": "file:line" (FAILED only)}, ...],
 *    "figures": [{"name": "...", "unit": "...", "value": 1.5,
 *                 "subcase": "regression_1001.1" (when reported inside one)}, ...]},
 *   ...]}, ...],
 *  "summary": {"passed": N, "failed": N, "skipped": N}}
 *
 * Subcases are listed flat in the order they began, nested ones included.
 * Strings are escaped, invalid UTF-8 becomes U+FFFD and non-finite figures
 * become null, so the file is always valid JSON. It is written beside its
 * place and renamed into it: a reader never sees half of it.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "adbg_int.h"

/* Length of the valid UTF-8 sequence starting at s (1..4), 0 when invalid. */
static size_t adbg_utf8_len(const unsigned char *s)
{
	uint32_t cp = 0;
	size_t len = 0;
	size_t i = 0;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		len = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		len = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	/* A NUL fails the continuation test, so this never reads past the string. */
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
		return 0;
	if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))
		return 0;
	return len;
}

static void adbg_json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	putc('"', f);
	while (*s) {
		size_t len = adbg_utf8_len(s);

		if (*s == '"' || *s == '\\') {
			fprintf(f, "\\%c", *s);
		} else if (*s == '\n') {
			fputs("\\n", f);
		} else if (*s == '\t') {
			fputs("\\t", f);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
		} else if (!len) {
			fputs("\\ufffd", f);
			len = 1;
		} else {
			fwrite(s, 1, len, f);
		}
		s += len ? len : 1;
	}
	putc('"', f);
}

static void adbg_json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

static void adbg_json_location(FILE *f, const struct adbg_location *loc)
{
	char text[256];

	snprintf(text, sizeof(text), "%s:%d", loc->file, loc->line);
	fputs(", \"first_error\": ", f);
	adbg_json_str(f, text);
}

/* Writes the subcases below s in the order they began; *first tracks commas. */
static void adbg_json_subcases(FILE *f, const struct adbg_subcase *s, bool *first)
{
	const struct adbg_subcase *child = NULL;

	for (child = s->first_child; child; child = child->next) {
		fputs(*first ? "\n        " : ",\n        ", f);
		*first = false;
		fputs("{\"id\": ", f);
		adbg_json_str(f, child->name);
		fputs(", \"title\": ", f);
		adbg_json_str(f, child->title);
		fprintf(f, ", \"result\": \"%s\"", child->failed_checks ? "FAILED" : "OK");
		fprintf(f, ", \"checks\": %zu, \"failed_checks\": %zu", child->checks,
			child->failed_checks);
		if (child->failed_checks)
			adbg_json_location(f, &child->first);
		fputc('}', f);
		adbg_json_subcases(f, child, first);
	}
}

static void adbg_json_case(FILE *f, const struct adbg_case *c)
{
	enum adbg_result r = adbg_case_result(c);
	bool first = true;
	size_t i = 0;

	fputs("{\"id\": ", f);
	adbg_json_str(f, c->root.name);
	fputs(", \"title\": ", f);
	adbg_json_str(f, c->root.title);
	fprintf(f, ", \"result\": \"%s\"", adbg_result_str(r));
	if (r == ADBG_RESULT_SKIPPED) {
		fputs(", \"skip_reason\": ", f);
		adbg_json_str(f, c->skip_reason);
	}
	if (r == ADBG_RESULT_FAILED)
		adbg_json_location(f, &c->root.first);
	fprintf(f, ", \"duration_ms\": %.3f, \"checks\": %zu, \"failed_checks\": %zu",
		c->duration_ms, c->root.checks, c->root.failed_checks);

	fputs(",\n       \"subcases\": [", f);
	adbg_json_subcases(f, &c->root, &first);
	fputs("]", f);

	fputs(",\n       \"figures\": [", f);
	for (i = 0; i < c->n_figures; i++) {
		fputs(i ? ",\n        " : "\n        ", f);
		fputs("{\"name\": ", f);
		adbg_json_str(f, c->figures[i].name);
		fputs(", \"unit\": ", f);
		adbg_json_str(f, c->figures[i].unit);
		fputs(", \"value\": ", f);
		adbg_json_num(f, c->figures[i].value);
		if (c->figures[i].subcase) {
			fputs(", \"subcase\": ", f);
			adbg_json_str(f, c->figures[i].subcase->name);
		}
		fputc('}', f);
	}
	fputs("]}", f);
}

bool adbg_json_write(const char *path, const struct adbg_suite_result *suites, size_t n_suites)
{
	size_t passed = 0;
	size_t failed = 0;
	size_t skipped = 0;
	size_t s = 0;
	size_t i = 0;
	bool ok = false;
	char *tmp = NULL;
	FILE *f = NULL;

	if (asprintf(&tmp, "%s.tmp", path) < 0) {
		fprintf(stderr, "xtest: out of memory\n");
		return false;
	}
	f = fopen(tmp, "we");
	if (!f) {
		fprintf(stderr, "xtest: cannot write %s: %s\n", tmp, strerror(errno));
		free(tmp);
		return false;
	}
	fprintf(f, "{\"format\": \"swtee-xtest/1\", \"level\": %d,\n \"suites\": [", xtest_level());
	for (s = 0; s < n_suites; s++) {
		const struct adbg_suite_result *res = &suites[s];

		fputs(s ? ",\n  " : "\n  ", f);
		fputs("{\"suite\": ", f);
		adbg_json_str(f, res->suite);
		fputs(", \"cases\": [", f);
		for (i = 0; i < res->n_cases; i++) {
			fputs(i ? ",\n      " : "\n      ", f);
			adbg_json_case(f, res->cases[i]);
		}
		fputs("]}", f);
		adbg_suite_result_count(res, &passed, &failed, &skipped);
	}
	fprintf(f, "],\n \"summary\": {\"passed\": %zu, \"failed\": %zu, \"skipped\": %zu}}\n",
		passed, failed, skipped);

	ok = !ferror(f);
	if (fclose(f) != 0)
		ok = false;
	if (ok && rename(tmp, path) != 0) {
		fprintf(stderr, "xtest: cannot write %s: %s\n", path, strerror(errno));
		ok = false;
	} else if (!ok) {
		fprintf(stderr, "xtest: error writing %s\n", tmp);
	}
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok;
}
