/*
 * swtee bench --report DIR: the report directory.
 *
 *	DIR/index.html		the page: the verdicts first (a card per group,
 *				then every case against its baseline and target),
 *				then the plots, each with one sentence saying what
 *				it shows, then the reference figures and the
 *				machine. Inline CSS and inline SVG: no script, no
 *				network resource.
 *	DIR/results.json	the results (the schema of swtee bench --json),
 *				the machine, the groups, xtest's outcome and
 *				figures, the reference figures and the plots
 *				(tests/report/results.schema.json)
 *	DIR/plots/<id>.svg	each plot on its own
 *
 * Every file is written beside its place and renamed into it, so that a
 * reader never sees half a report.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_int.h"
#include "bench_svg.h"
#include "bench_text.h"
#include "paths.h"

#define PAGE_GAUGE_W 150.0
#define PAGE_GAUGE_H 16.0
#define PAGE_GAUGE_LO 0.25 /* the gauge's cost ratios, log2 */
#define PAGE_GAUGE_HI 64.0

/* ---- files ---- */

/* An open file at path.tmp, renamed to path by page_file_close. */
struct page_file {
	char path[SWTEE_PATH_MAX];
	char tmp[SWTEE_PATH_MAX + 8];
	FILE *f;
};

static int page_file_open(struct page_file *pf, const char *dir, const char *name)
{
	pf->f = NULL;
	if (paths_join(pf->path, sizeof(pf->path), dir, name) ||
	    !bench_fmt(pf->tmp, sizeof(pf->tmp), "%s.tmp", pf->path)) {
		fprintf(stderr, "swtee bench: the path %s/%s is too long\n", dir, name);
		return -1;
	}
	pf->f = fopen(pf->tmp, "we");
	if (!pf->f) {
		fprintf(stderr, "swtee bench: %s: %s\n", pf->tmp, strerror(errno));
		return -1;
	}
	return 0;
}

/* Closes pf and renames it into place when ok and written whole; else removes it. */
static int page_file_close(struct page_file *pf, bool ok)
{
	int ret = -1;

	if (!pf->f)
		return -1;
	if (ferror(pf->f))
		ok = false;
	if (fclose(pf->f))
		ok = false;
	pf->f = NULL;
	if (!ok) {
		fprintf(stderr, "swtee bench: writing %s failed\n", pf->path);
		goto out;
	}
	if (rename(pf->tmp, pf->path)) {
		fprintf(stderr, "swtee bench: %s: %s\n", pf->path, strerror(errno));
		goto out;
	}
	return 0;
out:
	unlink(pf->tmp);
	return ret;
}

/* Removes the SVG files a former report left in plots/, so that only this run's remain. */
static void page_clear_plots(const char *plots)
{
	char path[SWTEE_PATH_MAX];
	struct dirent *de = NULL;
	DIR *d = opendir(plots);
	size_t len = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 4, ".svg") != 0)
			continue;
		if (!paths_join(path, sizeof(path), plots, de->d_name))
			unlink(path);
	}
	closedir(d);
}

static int page_write_plots(const char *dir, const struct bench_plots *plots)
{
	struct page_file pf;
	char sub[SWTEE_PATH_MAX];
	char name[BENCH_NAME_MAX + 8];
	size_t i = 0;

	if (paths_join(sub, sizeof(sub), dir, "plots") || paths_mkdir_p(sub, 0755)) {
		fprintf(stderr, "swtee bench: cannot create %s/plots\n", dir);
		return -1;
	}
	page_clear_plots(sub);
	for (i = 0; i < plots->n; i++) {
		if (!bench_fmt(name, sizeof(name), "%s.svg", plots->v[i].id)) {
			fprintf(stderr, "swtee bench: plot id too long: %s\n", plots->v[i].id);
			return -1;
		}
		if (page_file_open(&pf, sub, name))
			return -1;
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", pf.f);
		fwrite(plots->v[i].svg, 1, plots->v[i].svg_len, pf.f);
		if (page_file_close(&pf, true))
			return -1;
	}
	return 0;
}

/* ---- results.json ---- */

static const char *page_status(enum bench_group_status s)
{
	switch (s) {
	case BENCH_GROUP_SKIPPED:
		return "skipped";
	case BENCH_GROUP_FAILED:
		return "failed";
	case BENCH_GROUP_RAN:
	default:
		return "ran";
	}
}

static void page_json_key(FILE *f, const char *indent, const char *key, bool first)
{
	fprintf(f, "%s\n%s\"%s\": ", first ? "" : ",", indent, key);
}

static void page_json_machine(FILE *f, const struct bench_machine *m)
{
	fputs("{\"cpu_model\": ", f);
	bench_json_string(f, m->cpu_model);
	fprintf(f, ", \"cores\": %u, \"kernel\": ", m->cores);
	bench_json_string(f, m->kernel);
	fputs(", \"openssl\": ", f);
	bench_json_string(f, m->openssl);
	fputs(",\n    \"state_dir\": ", f);
	bench_json_string(f, m->state_dir);
	fputs(", \"filesystem\": ", f);
	bench_json_string(f, m->filesystem);
	fputs(", \"date\": ", f);
	bench_json_string(f, m->date);
	fputs(", \"swtee_version\": ", f);
	bench_json_string(f, m->swtee_version);
	fputc('}', f);
}

static void page_json_groups(FILE *f, const struct bench_run *run)
{
	size_t i = 0;

	fputc('[', f);
	for (i = 0; i < run->ngroups; i++) {
		const struct bench_group_run *g = &run->groups[i];

		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
		bench_json_string(f, g->name);
		fputs(", \"help\": ", f);
		bench_json_string(f, g->help);
		fprintf(f, ", \"status\": \"%s\"", page_status(g->status));
		if (g->status == BENCH_GROUP_SKIPPED) {
			fputs(", \"reason\": ", f);
			bench_json_string(f, g->reason);
		}
		fputs(", \"seconds\": ", f);
		bench_json_number(f, round(g->seconds * 1000) / 1000);
		fputc('}', f);
	}
	fputs(run->ngroups ? "\n  ]" : "]", f);
}

static void page_json_xtest(FILE *f, const struct bench_run *run)
{
	size_t i = 0;

	fputs("{\"suites\": [", f);
	for (i = 0; i < run->nxsuites; i++) {
		const struct bench_xtest_suite *s = &run->xsuites[i];

		fputs(i ? ", {\"suite\": " : "{\"suite\": ", f);
		bench_json_string(f, s->suite);
		fprintf(f, ", \"passed\": %zu, \"failed\": %zu, \"skipped\": %zu}", s->passed,
			s->failed, s->skipped);
	}
	fputs("],\n    \"figures\": [", f);
	for (i = 0; i < run->nxfigures; i++) {
		const struct bench_xtest_figure *x = &run->xfigures[i];

		fputs(i ? ",\n      {\"case\": " : "\n      {\"case\": ", f);
		bench_json_string(f, x->case_id);
		fputs(", \"name\": ", f);
		bench_json_string(f, x->name);
		fputs(", \"unit\": ", f);
		bench_json_string(f, x->unit);
		fputs(", \"value\": ", f);
		bench_json_number(f, x->value);
		fputc('}', f);
	}
	fputs(run->nxfigures ? "\n    ]}" : "]}", f);
}

static void page_json_numbers(FILE *f, const double *v, size_t n)
{
	size_t i = 0;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		bench_json_number(f, v[i]);
	}
	fputc(']', f);
}

static void page_json_references(FILE *f)
{
	static const struct {
		const char *name;
		const struct bench_seed_table *t;
	} tables[] = {
	    {"usb_armory_crypto", &bench_seed_armory},
	    {"optee_imx6_storage", &bench_seed_optee_storage},
	    {"optee_imx6_crypto", &bench_seed_optee_crypto},
	    {"usb_armory_ecdsa", &bench_seed_ecdsa},
	    {"tpm", &bench_seed_tpm},
	};
	size_t i = 0;
	size_t k = 0;

	fputc('[', f);
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		const struct bench_seed_table *t = tables[i].t;

		fprintf(f, "%s\n    {\"table\": \"%s\", \"other_hardware\": true, \"source\": ",
			i ? "," : "", tables[i].name);
		bench_json_string(f, t->source);
		fputs(", \"rows\": [", f);
		for (k = 0; k < t->n; k++) {
			const struct bench_seed *sd = &t->rows[k];

			fputs(k ? ",\n      {\"key\": " : "\n      {\"key\": ", f);
			bench_json_string(f, sd->key);
			fputs(", \"label\": ", f);
			bench_json_string(f, sd->label);
			fputs(", \"unit\": ", f);
			bench_json_string(f, sd->unit);
			fputs(", \"x\": ", f);
			page_json_numbers(f, sd->x, sd->n);
			fputs(", \"y\": ", f);
			page_json_numbers(f, sd->y, sd->n);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("\n  ]", f);
}

static void page_json_plots(FILE *f, const struct bench_plots *plots)
{
	size_t i = 0;

	fputc('[', f);
	for (i = 0; i < plots->n; i++) {
		const struct bench_plot *p = &plots->v[i];

		fputs(i ? ",\n    {\"file\": " : "\n    {\"file\": ", f);
		fprintf(f, "\"plots/%s.svg\", \"section\": ", p->id);
		bench_json_string(f, p->section);
		fputs(", \"title\": ", f);
		bench_json_string(f, p->title);
		fputs(", \"caption\": ", f);
		bench_json_string(f, p->caption);
		fputc('}', f);
	}
	fputs(plots->n ? "\n  ]" : "]", f);
	fputs(",\n  \"plot_notes\": [", f);
	for (i = 0; i < plots->nnotes; i++) {
		fputs(i ? ",\n    {\"section\": " : "\n    {\"section\": ", f);
		bench_json_string(f, plots->notes[i].section);
		fputs(", \"text\": ", f);
		bench_json_string(f, plots->notes[i].text);
		fputc('}', f);
	}
	fputs(plots->nnotes ? "\n  ]" : "]", f);
}

static int page_write_json(const char *dir, const struct bench_run *run,
			   const struct bench_plots *plots)
{
	struct page_file pf;
	FILE *f = NULL;

	if (page_file_open(&pf, dir, "results.json"))
		return -1;
	f = pf.f;
	fputs("{\"schema\": \"swtee-bench-report/1\"", f);
	page_json_key(f, "  ", "machine", false);
	page_json_machine(f, &run->machine);
	page_json_key(f, "  ", "quick", false);
	fputs(run->quick ? "true" : "false", f);
	page_json_key(f, "  ", "iterations", false);
	if (run->iterations)
		fprintf(f, "%zu", run->iterations);
	else
		fputs("null", f);
	page_json_key(f, "  ", "groups", false);
	page_json_groups(f, run);
	page_json_key(f, "  ", "results", false);
	bench_json_results(f, run, "  ");
	page_json_key(f, "  ", "xtest", false);
	page_json_xtest(f, run);
	page_json_key(f, "  ", "references", false);
	page_json_references(f);
	page_json_key(f, "  ", "plots", false);
	page_json_plots(f, plots);
	fputs("\n}\n", f);
	return page_file_close(&pf, true);
}

/* ---- index.html ---- */

static const char page_css[] =
    ":root{--ink:#1f2937;--soft:#4b5563;--line:#e5e7eb;--ok:#15803d;--over:#b91c1c;"
    "--none:#9ca3af;--bg:#f6f7f9}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',"
    "sans-serif;color:var(--ink);background:var(--bg)}\n"
    "main{max-width:1180px;margin:0 auto;padding:22px 28px 56px}\n"
    "h1{font-size:26px;margin:0 0 2px}\n"
    "h2{font-size:19px;margin:34px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}\n"
    "h3{font-size:15px;margin:0 0 6px}\n"
    "p{margin:6px 0}\n"
    ".facts{color:var(--soft)}\n"
    ".banner{background:#fef3c7;border:1px solid #f59e0b;border-radius:6px;padding:8px 12px;"
    "margin:14px 0}\n"
    ".totals{font-size:16px;margin:16px 0 4px}\n"
    ".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:12px;"
    "margin:12px 0 6px;align-items:start}\n"
    ".card{background:#fff;border:1px solid var(--line);border-left:6px solid var(--none);"
    "border-radius:6px;padding:10px 14px}\n"
    ".card.ok{border-left-color:var(--ok)}.card.over,.card.failed{border-left-color:var(--over)}\n"
    ".card .head{display:flex;justify-content:space-between;align-items:baseline}\n"
    ".card .big{font-size:20px;font-weight:650;margin:2px 0}\n"
    ".card .big.ok{color:var(--ok)}.card .big.over,.card .big.failed{color:var(--over)}\n"
    ".card .big.none,.card .big.skipped{color:var(--soft)}\n"
    ".card .small{color:var(--soft);font-size:13px}\n"
    ".how{color:var(--soft);max-width:920px}\n"
    "details{margin:10px 0}\n"
    "summary{cursor:pointer;font-weight:650;font-size:15px;padding:4px 0}\n"
    "summary .small{font-weight:400;color:var(--soft)}\n"
    "table{border-collapse:collapse;width:100%;background:#fff;border:1px solid var(--line)}\n"
    "th,td{padding:4px 9px;border-bottom:1px solid var(--line);text-align:left;"
    "vertical-align:middle}\n"
    "th{background:#f3f4f6;font-weight:600;font-size:13px}\n"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "td.case{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px}\n"
    "td.skip{color:var(--soft);font-style:italic}\n"
    ".badge{display:inline-block;min-width:44px;text-align:center;padding:1px 8px;"
    "border-radius:10px;font-size:12px;font-weight:650}\n"
    ".badge.ok{background:#dcfce7;color:#166534}.badge.over,.badge.failed{background:#fee2e2;"
    "color:#991b1b}\n"
    ".badge.none,.badge.skipped,.badge.ran{background:#f3f4f6;color:#4b5563}\n"
    ".gauge svg{display:block}\n"
    "table.cases{table-layout:fixed}\n"
    "table.matrix td{text-align:center;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "table.matrix td.row{text-align:left}\n"
    "table.matrix td.ok{color:#166534;font-weight:650}\n"
    "table.matrix td.over{color:#991b1b;font-weight:700;box-shadow:inset 0 0 0 2px #dc2626}\n"
    "table.matrix td.skipped{color:var(--soft);font-style:italic}\n"
    ".legend{color:var(--soft);font-size:12.5px;margin:4px 0 10px}\n"
    ".legend span{display:inline-block;width:14px;height:11px;margin:0 3px 0 10px;"
    "vertical-align:-1px;border:1px solid #d1d5db}\n"
    "figure{margin:14px 0;background:#fff;border:1px solid var(--line);border-radius:6px;"
    "padding:14px 16px;display:grid;grid-template-columns:minmax(0,760px) minmax(220px,1fr);"
    "gap:8px 22px;align-items:start}\n"
    "figure svg{width:100%;height:auto;display:block}\n"
    "figcaption{font-size:13.5px;color:var(--ink)}\n"
    "figcaption a{color:var(--soft);font-size:12px}\n"
    "@media (max-width:1000px){figure{grid-template-columns:1fr}}\n"
    ".note{color:var(--soft)}\n"
    "ul{margin:6px 0;padding-left:22px}\n"
    "footer{margin-top:40px;color:var(--soft);font-size:12px}\n";

/* How a result stands: "ok", "over", "skipped" or "none" (no target). */
static const char *page_standing(const struct bench_result *r)
{
	const char *v = bench_verdict(r);

	if (r->skipped)
		return "skipped";
	return v ? v : "none";
}

static void page_text(FILE *f, const char *s)
{
	bench_svg_text(f, s);
}

/* A value and its unit, for a cell. */
static void page_value(FILE *f, double v, const char *unit)
{
	char num[48];

	if (!isfinite(v)) {
		fputs("&ndash;", f);
		return;
	}
	if (fabs(v) >= 100 || v == floor(v))
		bench_text(num, sizeof(num), "%.0f", v);
	else
		bench_text(num, sizeof(num), "%.3g", v);
	page_text(f, num);
	fputc(' ', f);
	page_text(f, unit);
}

static double page_gauge_x(double ratio)
{
	double lo = log2(PAGE_GAUGE_LO);
	double hi = log2(PAGE_GAUGE_HI);
	double t = log2(fmin(fmax(ratio, PAGE_GAUGE_LO), PAGE_GAUGE_HI));

	return 2 + (t - lo) / (hi - lo) * (PAGE_GAUGE_W - 4);
}

/*
 * A cost ratio on a log scale from 1/4 to 64: a bar from 1.0 (the dark
 * line) to the ratio, coloured by the verdict, and the target as a tick.
 */
static void page_gauge(FILE *f, const struct bench_result *r)
{
	double ratio = bench_cost_ratio(r);
	const char *standing = page_standing(r);
	const char *color = "#9ca3af";
	double one = page_gauge_x(1.0);
	double x = 0;

	if (!isfinite(ratio))
		return;
	if (strcmp(standing, "ok") == 0)
		color = "#16a34a";
	else if (strcmp(standing, "over") == 0)
		color = "#dc2626";
	else if (ratio <= 1)
		color = "#0072b2";
	else
		color = "#d97706";
	x = page_gauge_x(ratio);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" aria-hidden=\"true\">"
		"<rect x=\"0\" y=\"5\" width=\"%.0f\" height=\"6\" rx=\"3\" fill=\"#eef0f3\"/>"
		"<rect x=\"%.1f\" y=\"3\" width=\"%.1f\" height=\"10\" rx=\"2\" fill=\"%s\"/>",
		PAGE_GAUGE_W, PAGE_GAUGE_H, PAGE_GAUGE_W, PAGE_GAUGE_H, PAGE_GAUGE_W, fmin(one, x),
		fmax(fabs(x - one), 1.5), color);
	if (ratio > PAGE_GAUGE_HI)
		fprintf(f, "<path d=\"M%.1f 2L%.1f 8L%.1f 14Z\" fill=\"%s\"/>", PAGE_GAUGE_W - 6,
			PAGE_GAUGE_W, PAGE_GAUGE_W - 6, color);
	if (r->has_target && r->target > 0)
		fprintf(f,
			"<path d=\"M%.1f 0V16\" stroke=\"#111827\" stroke-width=\"1.5\" "
			"stroke-dasharray=\"2 1.5\"/>",
			page_gauge_x(r->target));
	fprintf(f, "<path d=\"M%.1f 1V15\" stroke=\"#111827\" stroke-width=\"2\"/></svg>", one);
}

static void page_target(FILE *f, const struct bench_result *r)
{
	char num[48];

	if (r->has_target) {
		bench_text(num, sizeof(num), "&le; %.2f&times;", r->target);
		fputs(num, f);
	}
	if (r->has_target && r->has_target_value)
		fputs(", ", f);
	if (r->has_target_value) {
		fputs(r->higher_is_better ? "&ge; " : "&le; ", f);
		page_value(f, r->target_value, r->unit);
	}
	if (!r->has_target && !r->has_target_value)
		fputs("&ndash;", f);
}

static void page_row(FILE *f, const struct bench_entry *e)
{
	const struct bench_result *r = &e->r;
	const char *standing = page_standing(r);
	double ratio = bench_cost_ratio(r);

	fputs("<tr><td class=\"case\">", f);
	page_text(f, r->name);
	fputs("</td>", f);
	if (r->skipped) {
		fputs("<td colspan=\"4\" class=\"skip\">skipped: ", f);
		page_text(f, r->skip_reason);
		fputs("</td><td><span class=\"badge skipped\">skipped</span></td></tr>\n", f);
		return;
	}
	fputs("<td class=\"num\">", f);
	page_value(f, r->value, r->unit);
	fputs("</td><td>", f);
	if (r->has_baseline) {
		page_text(f, r->baseline_name);
		fputs(" <span class=\"num\">", f);
		page_value(f, r->baseline_value, r->unit);
		fputs("</span>", f);
	} else {
		fputs("&ndash;", f);
	}
	fputs("</td><td class=\"num\">", f);
	if (isfinite(ratio))
		fprintf(f, "<span style=\"display:inline-flex;gap:8px;align-items:center\">"
			   "<span class=\"gauge\">");
	page_gauge(f, r);
	if (isfinite(ratio))
		fprintf(f, "</span>%.2f&times;</span>", ratio);
	else
		fputs("&ndash;", f);
	fputs("</td><td class=\"num\">", f);
	page_target(f, r);
	fprintf(f, "</td><td><span class=\"badge %s\">%s</span></td></tr>\n", standing,
		strcmp(standing, "none") == 0 ? "&ndash;" : standing);
}

/* The tally of one group's results (or of all when group is NULL). */
#define PAGE_CARD_OVER 3

struct page_tally {
	size_t cases, ok, over, none, skipped;
	const struct bench_entry *overs[PAGE_CARD_OVER]; /* the first cases over target */
	const struct bench_entry *worst;		 /* highest finite cost ratio */
	double worst_ratio;
};

static void page_count(const struct bench_run *run, const char *group, struct page_tally *t)
{
	size_t i = 0;

	memset(t, 0, sizeof(*t));
	t->worst_ratio = NAN;
	for (i = 0; i < run->nentries; i++) {
		const struct bench_entry *e = &run->entries[i];
		const char *s = page_standing(&e->r);
		double ratio = bench_cost_ratio(&e->r);

		if (group && strcmp(e->group, group) != 0)
			continue;
		if (e->group_skip)
			continue;
		t->cases++;
		if (strcmp(s, "ok") == 0)
			t->ok++;
		else if (strcmp(s, "over") == 0 && t->over < PAGE_CARD_OVER)
			t->overs[t->over++] = e;
		else if (strcmp(s, "over") == 0)
			t->over++;
		else if (strcmp(s, "skipped") == 0)
			t->skipped++;
		else
			t->none++;
		if (isfinite(ratio) && !(ratio <= t->worst_ratio)) {
			t->worst_ratio = ratio;
			t->worst = e;
		}
	}
}

/* The names of the groups of run, in order: its group records, else its results'. */
static size_t page_groups(const struct bench_run *run, const char **names, size_t max)
{
	size_t n = 0;
	size_t i = 0;
	size_t j = 0;

	for (i = 0; i < run->ngroups && n < max; i++)
		names[n++] = run->groups[i].name;
	for (i = 0; i < run->nentries && n < max; i++) {
		for (j = 0; j < n && strcmp(names[j], run->entries[i].group) != 0; j++)
			;
		if (j == n)
			names[n++] = run->entries[i].group;
	}
	return n;
}

static const struct bench_group_run *page_group_run(const struct bench_run *run, const char *name)
{
	size_t i = 0;

	for (i = 0; i < run->ngroups; i++)
		if (strcmp(run->groups[i].name, name) == 0)
			return &run->groups[i];
	return NULL;
}

/* Why group could not run, from its record or its group-skip entry; NULL when it ran. */
static const char *page_skip_reason(const struct bench_run *run, const char *group)
{
	const struct bench_group_run *g = page_group_run(run, group);
	size_t i = 0;

	if (g && g->status == BENCH_GROUP_SKIPPED)
		return g->reason;
	for (i = 0; i < run->nentries; i++)
		if (run->entries[i].group_skip && strcmp(run->entries[i].group, group) == 0)
			return run->entries[i].r.skip_reason;
	return NULL;
}

static void page_card(FILE *f, const struct bench_run *run, const char *group)
{
	const struct bench_group_run *g = page_group_run(run, group);
	const char *skip = page_skip_reason(run, group);
	struct page_tally t;
	const char *cls = "none";
	char text[BENCH_TEXT_MAX];
	size_t i = 0;

	page_count(run, group, &t);
	if (g && g->status == BENCH_GROUP_FAILED)
		cls = "failed";
	else if (skip || (t.cases && t.skipped == t.cases))
		cls = "skipped";
	else if (t.over)
		cls = "over";
	else if (t.ok)
		cls = "ok";
	fprintf(f, "<div class=\"card %s\"><div class=\"head\"><h3>", cls);
	page_text(f, group);
	fputs("</h3>", f);
	if (g)
		fprintf(f, "<span class=\"small\">%.0f s</span>", g->seconds);
	fputs("</div>\n", f);
	if (strcmp(cls, "failed") == 0) {
		fputs(
		    "<div class=\"big failed\">failed</div><div class=\"small\">the group stopped "
		    "with an error (see the run's output)",
		    f);
		if (t.cases)
			fprintf(f, "; %zu cases reported before", t.cases);
		fputs("</div>", f);
	} else if (strcmp(cls, "skipped") == 0) {
		for (i = 0; !skip && i < run->nentries; i++)
			if (strcmp(run->entries[i].group, group) == 0 && run->entries[i].r.skipped)
				skip = run->entries[i].r.skip_reason;
		fputs("<div class=\"big skipped\">skipped</div><div class=\"small\">", f);
		page_text(f, skip ? skip : "");
		fputs("</div>", f);
	} else {
		if (t.over)
			bench_text(text, sizeof(text), "%zu over target", t.over);
		else if (t.ok == 1)
			bench_text(text, sizeof(text), "within target");
		else if (t.ok)
			bench_text(text, sizeof(text), "all %zu targets met", t.ok);
		else
			bench_text(text, sizeof(text), "no targets");
		fprintf(f, "<div class=\"big %s\">", cls);
		page_text(f, text);
		fputs("</div><div class=\"small\">", f);
		fprintf(f, "%zu case%s: %zu ok, %zu over, %zu without a target", t.cases,
			t.cases == 1 ? "" : "s", t.ok, t.over, t.none);
		if (t.skipped)
			fprintf(f, ", %zu skipped", t.skipped);
		fputs("</div>", f);
		for (i = 0; i < t.over && i < PAGE_CARD_OVER && t.overs[i]; i++) {
			const struct bench_result *r = &t.overs[i]->r;

			fputs("<div class=\"small\" style=\"color:var(--over)\">", f);
			page_text(f, r->name);
			fputs(": ", f);
			if (r->has_target && !(bench_cost_ratio(r) <= r->target))
				fprintf(f, "%.2f&times; (target &le; %.2f&times;)",
					bench_cost_ratio(r), r->target);
			else {
				page_value(f, r->value, r->unit);
				fputs(" (target ", f);
				page_target(f, r);
				fputc(')', f);
			}
			fputs("</div>", f);
		}
		if (t.over > PAGE_CARD_OVER)
			fprintf(
			    f,
			    "<div class=\"small\" style=\"color:var(--over)\">and %zu more</div>",
			    t.over - PAGE_CARD_OVER);
		if (t.worst) {
			fprintf(f, "<div class=\"small\">highest cost ratio <b>%.2f&times;</b>: ",
				t.worst_ratio);
			page_text(f, t.worst->r.name);
			fputs(" against ", f);
			page_text(f, t.worst->r.baseline_name);
			fputs("</div>", f);
		}
	}
	fputs("</div>\n", f);
}

static void page_summary(FILE *f, const struct bench_run *run, const char **groups, size_t n)
{
	struct page_tally t;
	size_t skipped_groups = 0;
	size_t i = 0;

	page_count(run, NULL, &t);
	for (i = 0; i < n; i++)
		if (page_skip_reason(run, groups[i]))
			skipped_groups++;
	fprintf(f,
		"<p class=\"totals\"><b>%zu cases</b> in %zu groups: <b style=\"color:var(--ok)\">"
		"%zu within target</b>, <b style=\"color:var(--over)\">%zu over</b>, %zu without "
		"a target, %zu skipped",
		t.cases, n, t.ok, t.over, t.none, t.skipped);
	if (skipped_groups)
		fprintf(f, "; %zu group%s could not run here", skipped_groups,
			skipped_groups == 1 ? "" : "s");
	fputs(".</p>\n<div class=\"cards\">\n", f);
	for (i = 0; i < n; i++)
		page_card(f, run, groups[i]);
	fputs("</div>\n", f);
	fputs("<p class=\"how\">Every swtee figure stands against a baseline measured in the same "
	      "run on this machine: a socketpair round trip for an invoke, spawning a process for "
	      "a session, libcrypto in-process for crypto, raw writes for storage, swtpm for the "
	      "TPM. The <b>cost ratio</b> is swtee's cost over the baseline's (for a throughput, "
	      "the baseline's rate over swtee's): 1.0 is as cheap, 2.0 twice the cost. The bar "
	      "starts at 1.0 (the dark line) and the dotted tick is the target. Figures from "
	      "other hardware are drawn open and dashed: context, never a verdict.</p>\n",
	      f);
}

static void page_table_head(FILE *f)
{
	fputs("<table class=\"cases\"><colgroup><col style=\"width:25%\">"
	      "<col style=\"width:13%\"><col style=\"width:24%\"><col style=\"width:20%\">"
	      "<col style=\"width:10%\"><col style=\"width:8%\"></colgroup>"
	      "<thead><tr><th>case</th><th style=\"text-align:right\">swtee</th>"
	      "<th>baseline</th><th style=\"text-align:right\">cost ratio</th>"
	      "<th style=\"text-align:right\">target</th><th>verdict</th></tr></thead><tbody>\n",
	      f);
}

/* Whether some case of group is not in the matrix (shown[i] marks those that are). */
static bool page_unshown(const struct bench_run *run, const char *group, const bool *shown)
{
	size_t i = 0;

	for (i = 0; i < run->nentries; i++)
		if (strcmp(run->entries[i].group, group) == 0 && !run->entries[i].group_skip &&
		    !shown[i])
			return true;
	return false;
}

#define PAGE_MATRIX_ROWS 64
#define PAGE_MATRIX_SIZES 16

/* The sweeps of a group as a matrix: a row per family and variant, a column per size. */
struct page_matrix {
	char family[PAGE_MATRIX_ROWS][BENCH_NAME_MAX];
	char variant[PAGE_MATRIX_ROWS][BENCH_NAME_MAX];
	size_t nrows;
	double size[PAGE_MATRIX_SIZES];
	size_t nsizes;
	const struct bench_entry *cell[PAGE_MATRIX_ROWS][PAGE_MATRIX_SIZES];
	size_t index[PAGE_MATRIX_ROWS][PAGE_MATRIX_SIZES]; /* in run->entries */
};

/* The background of a cost ratio: blue when cheaper, then yellow to red as it grows. */
static const char *page_heat(double ratio)
{
	if (!isfinite(ratio))
		return "#ffffff";
	if (ratio < 0.95)
		return "#dbeafe";
	if (ratio < 1.1)
		return "#f0fdf4";
	if (ratio < 1.5)
		return "#fef9c3";
	if (ratio < 3)
		return "#fde68a";
	if (ratio < 10)
		return "#fdba74";
	return "#fca5a5";
}

static size_t page_matrix_row(struct page_matrix *m, const char *family, const char *variant)
{
	size_t r = 0;

	for (r = 0; r < m->nrows; r++)
		if (strcmp(m->family[r], family) == 0 && strcmp(m->variant[r], variant) == 0)
			return r;
	if (m->nrows == PAGE_MATRIX_ROWS)
		return PAGE_MATRIX_ROWS;
	bench_text(m->family[r], sizeof(m->family[r]), "%s", family);
	bench_text(m->variant[r], sizeof(m->variant[r]), "%s", variant);
	return m->nrows++;
}

static size_t page_matrix_col(struct page_matrix *m, double size)
{
	size_t c = 0;
	size_t k = 0;

	for (c = 0; c < m->nsizes && m->size[c] < size; c++)
		;
	if (c < m->nsizes && m->size[c] == size)
		return c;
	if (m->nsizes == PAGE_MATRIX_SIZES)
		return PAGE_MATRIX_SIZES;
	/* Columns stay sorted by size: move the bigger ones right. */
	for (k = m->nsizes; k > c; k--) {
		size_t r = 0;

		m->size[k] = m->size[k - 1];
		for (r = 0; r < PAGE_MATRIX_ROWS; r++) {
			m->cell[r][k] = m->cell[r][k - 1];
			m->index[r][k] = m->index[r][k - 1];
		}
	}
	m->size[c] = size;
	for (k = 0; k < PAGE_MATRIX_ROWS; k++)
		m->cell[k][c] = NULL;
	m->nsizes++;
	return c;
}

static void page_matrix_cell(FILE *f, const struct bench_entry *e)
{
	const struct bench_result *r = NULL;
	const char *standing = NULL;
	double ratio = NAN;

	if (!e) {
		fputs("<td>&ndash;</td>", f);
		return;
	}
	r = &e->r;
	standing = page_standing(r);
	ratio = bench_cost_ratio(r);
	fprintf(f, "<td class=\"%s\" style=\"background:%s\" title=\"", standing, page_heat(ratio));
	page_text(f, r->name);
	if (!r->skipped) {
		fputs(": swtee ", f);
		page_value(f, r->value, r->unit);
		if (r->has_baseline) {
			fputs(", ", f);
			page_text(f, r->baseline_name);
			fputc(' ', f);
			page_value(f, r->baseline_value, r->unit);
		}
	} else {
		fputs(": skipped: ", f);
		page_text(f, r->skip_reason);
	}
	fputs("\">", f);
	if (r->skipped)
		fputs("skipped", f);
	else if (isfinite(ratio))
		fprintf(f, "%.2f&times;%s", ratio, strcmp(standing, "ok") == 0 ? " &#10003;" : "");
	else
		page_value(f, r->value, r->unit);
	fputs("</td>", f);
}

/*
 * The cases of group that are points of a size sweep, as a matrix of cost
 * ratios: a glance shows where the TEE costs what. *shown (new, NULL when
 * the group has no sweep) marks the entries the matrix holds. Returns 0,
 * or -1 when out of memory.
 */
static int page_matrix(FILE *f, const struct bench_run *run, const char *group, bool **shown)
{
	struct page_matrix *m = NULL;
	char family[BENCH_NAME_MAX];
	char variant[BENCH_NAME_MAX];
	char text[32];
	size_t counts[PAGE_MATRIX_ROWS] = {0};
	size_t i = 0;
	size_t r = 0;
	size_t c = 0;
	size_t rows = 0;
	double size = 0;

	*shown = NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		fprintf(stderr, "swtee bench: out of memory\n");
		return -1;
	}
	for (i = 0; i < run->nentries; i++) {
		const struct bench_entry *e = &run->entries[i];

		if (strcmp(e->group, group) != 0 || e->group_skip ||
		    !bench_plot_sweep_name(e->r.name, family, sizeof(family), &size, variant,
					   sizeof(variant)))
			continue;
		r = page_matrix_row(m, family, variant);
		c = page_matrix_col(m, size);
		if (r == PAGE_MATRIX_ROWS || c == PAGE_MATRIX_SIZES || m->cell[r][c])
			continue;
		m->cell[r][c] = e;
		m->index[r][c] = i;
	}
	for (r = 0; r < m->nrows; r++) {
		for (c = 0; c < m->nsizes; c++)
			if (m->cell[r][c])
				counts[r]++;
		if (counts[r] >= 3)
			rows++;
	}
	if (!rows)
		goto out;
	*shown = calloc(run->nentries, sizeof(**shown));
	if (!*shown) {
		fprintf(stderr, "swtee bench: out of memory\n");
		free(m);
		return -1;
	}
	fputs("<table class=\"matrix\"><thead><tr><th>cost ratio by buffer size</th>", f);
	for (c = 0; c < m->nsizes; c++) {
		bench_svg_format(text, sizeof(text), m->size[c], BENCH_SVG_BYTES);
		fprintf(f, "<th style=\"text-align:center\">%s</th>", text);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (r = 0; r < m->nrows; r++) {
		const struct bench_entry *first = NULL;

		if (counts[r] < 3)
			continue;
		for (c = 0; c < m->nsizes && !first; c++)
			first = m->cell[r][c];
		fputs("<tr><td class=\"row case\">", f);
		page_text(f, m->family[r]);
		if (m->variant[r][0]) {
			fputc(' ', f);
			page_text(f, m->variant[r]);
		}
		if (first && first->r.has_baseline) {
			fputs(" <span class=\"small\" style=\"color:var(--soft)\">vs ", f);
			page_text(f, first->r.baseline_name);
			fputs("</span>", f);
		}
		fputs("</td>", f);
		for (c = 0; c < m->nsizes; c++) {
			page_matrix_cell(f, m->cell[r][c]);
			if (m->cell[r][c])
				(*shown)[m->index[r][c]] = true;
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n<p class=\"legend\">Each cell: swtee's cost over the "
	      "baseline's at that size (hover for the figures). "
	      "<span style=\"background:#dbeafe\"></span>cheaper "
	      "<span style=\"background:#f0fdf4\"></span>about as cheap "
	      "<span style=\"background:#fef9c3\"></span>up to 1.5&times; "
	      "<span style=\"background:#fde68a\"></span>up to 3&times; "
	      "<span style=\"background:#fdba74\"></span>up to 10&times; "
	      "<span style=\"background:#fca5a5\"></span>more. &#10003; within its target; "
	      "red frame: over it.</p>\n",
	      f);
out:
	free(m);
	return 0;
}

static int page_verdicts(FILE *f, const struct bench_run *run, const char **groups, size_t n)
{
	const char *skip = NULL;
	struct page_tally t;
	bool *shown = NULL;
	size_t i = 0;
	size_t k = 0;

	fputs("<h2 id=\"verdicts\">Verdicts</h2>\n", f);
	for (i = 0; i < n; i++) {
		const struct bench_group_run *g = page_group_run(run, groups[i]);

		page_count(run, groups[i], &t);
		skip = page_skip_reason(run, groups[i]);
		fputs("<details open><summary>", f);
		page_text(f, groups[i]);
		if (g && g->help[0]) {
			fputs(" <span class=\"small\">&mdash; ", f);
			page_text(f, g->help);
			fputs("</span>", f);
		}
		fputs("</summary>\n", f);
		if (skip && !t.cases) {
			fputs("<p class=\"note\">Skipped: ", f);
			page_text(f, skip);
			fputs("</p></details>\n", f);
			continue;
		}
		if (page_matrix(f, run, groups[i], &shown)) {
			free(shown);
			return -1;
		}
		if (!shown || page_unshown(run, groups[i], shown)) {
			page_table_head(f);
			for (k = 0; k < run->nentries; k++)
				if (strcmp(run->entries[k].group, groups[i]) == 0 &&
				    !run->entries[k].group_skip && !(shown && shown[k]))
					page_row(f, &run->entries[k]);
			fputs("</tbody></table>\n", f);
		}
		if (shown) {
			fprintf(f,
				"<details><summary><span class=\"small\">every case of %s, "
				"one a row (%zu)</span></summary>\n",
				groups[i], t.cases);
			page_table_head(f);
			for (k = 0; k < run->nentries; k++)
				if (strcmp(run->entries[k].group, groups[i]) == 0 &&
				    !run->entries[k].group_skip)
					page_row(f, &run->entries[k]);
			fputs("</tbody></table></details>\n", f);
		}
		free(shown);
		shown = NULL;
		fputs("</details>\n", f);
	}
	return 0;
}

static void page_plots(FILE *f, const struct bench_plots *plots)
{
	size_t i = 0;

	fputs("<h2 id=\"plots\">Plots</h2>\n", f);
	if (!plots->n)
		fputs("<p class=\"note\">No plot: the run has nothing to draw.</p>\n", f);
	for (i = 0; i < plots->n; i++) {
		const struct bench_plot *p = &plots->v[i];

		fprintf(f, "<figure id=\"%s\">\n<div>", p->id);
		fwrite(p->svg, 1, p->svg_len, f);
		fputs("</div>\n<figcaption><h3>", f);
		page_text(f, p->title);
		fputs("</h3><p>", f);
		page_text(f, p->caption);
		fprintf(f,
			"</p><p><a href=\"plots/%s.svg\">plots/%s.svg</a></p></figcaption>\n"
			"</figure>\n",
			p->id, p->id);
	}
	if (!plots->nnotes)
		return;
	fputs("<h3>Not drawn</h3><ul>\n", f);
	for (i = 0; i < plots->nnotes; i++) {
		fputs("<li class=\"note\">", f);
		page_text(f, plots->notes[i].text);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static void page_xtest(FILE *f, const struct bench_run *run)
{
	size_t i = 0;

	if (!run->nxsuites)
		return;
	fputs("<h2 id=\"xtest\">xtest</h2>\n<table><thead><tr><th>suite</th>"
	      "<th style=\"text-align:right\">passed</th><th style=\"text-align:right\">failed</th>"
	      "<th style=\"text-align:right\">skipped</th></tr></thead><tbody>\n",
	      f);
	for (i = 0; i < run->nxsuites; i++) {
		const struct bench_xtest_suite *s = &run->xsuites[i];

		fputs("<tr><td>", f);
		page_text(f, s->suite);
		fprintf(f,
			"</td><td class=\"num\">%zu</td><td class=\"num\">%s%zu%s</td>"
			"<td class=\"num\">%zu</td></tr>\n",
			s->passed, s->failed ? "<b style=\"color:var(--over)\">" : "", s->failed,
			s->failed ? "</b>" : "", s->skipped);
	}
	fputs("</tbody></table>\n", f);
}

static void page_references(FILE *f)
{
	const struct bench_seed_table *tables[] = {
	    &bench_seed_armory, &bench_seed_optee_storage, &bench_seed_optee_crypto,
	    &bench_seed_ecdsa,	&bench_seed_tpm,
	};
	size_t i = 0;

	fputs("<h2 id=\"references\">Reference figures (other hardware)</h2>\n<p class=\"how\">"
	      "Published results, typed in as published: other machines and often other "
	      "methods. They show where swtee stands among TEEs and TPMs people use; they are "
	      "never targets (results.json has every row).</p>\n<ul>\n",
	      f);
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		fputs("<li>", f);
		page_text(f, tables[i]->source);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static void page_fact(FILE *f, const char *name, const char *value)
{
	fputs("<tr><th>", f);
	page_text(f, name);
	fputs("</th><td>", f);
	if (value && *value)
		page_text(f, value);
	else
		fputs("unknown", f);
	fputs("</td></tr>\n", f);
}

static void page_machine(FILE *f, const struct bench_run *run)
{
	const struct bench_machine *m = &run->machine;
	char cores[32];

	bench_text(cores, sizeof(cores), "%u", m->cores);
	fputs("<h2 id=\"machine\">Machine</h2>\n<table style=\"width:auto\"><tbody>\n", f);
	page_fact(f, "CPU", m->cpu_model);
	page_fact(f, "cores online", m->cores ? cores : NULL);
	page_fact(f, "kernel", m->kernel);
	page_fact(f, "OpenSSL", m->openssl);
	page_fact(f, "state directory", m->state_dir);
	page_fact(f, "its filesystem", m->filesystem);
	page_fact(f, "run", m->date);
	page_fact(f, "swtee", m->swtee_version);
	fputs("</tbody></table>\n<p class=\"how\">The data of this page: <a href=\"results.json\">"
	      "results.json</a>; each plot on its own in plots/. Two runs compare with "
	      "<code>swtee bench --compare A/results.json B/results.json</code>.</p>\n",
	      f);
}

static void page_header(FILE *f, const struct bench_run *run)
{
	const struct bench_machine *m = &run->machine;

	fputs(
	    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	    "<link rel=\"icon\" href=\"data:,\">\n<title>swtee benchmark report</title>\n<style>\n",
	    f);
	fputs(page_css, f);
	fputs("</style>\n</head>\n<body>\n<main>\n<h1>swtee benchmark report</h1>\n"
	      "<p class=\"facts\">",
	      f);
	page_text(f, m->date[0] ? m->date : "date unknown");
	fputs(" &middot; ", f);
	page_text(f, m->cpu_model[0] ? m->cpu_model : "CPU unknown");
	if (m->cores)
		fprintf(f, ", %u core%s", m->cores, m->cores == 1 ? "" : "s");
	fputs(" &middot; ", f);
	page_text(f, m->kernel);
	fputs(" &middot; ", f);
	page_text(f, m->openssl);
	if (m->filesystem[0]) {
		fputs(" &middot; state on ", f);
		page_text(f, m->filesystem);
	}
	fputs("</p>\n", f);
	if (run->quick)
		fputs("<p class=\"banner\"><b>Quick run</b> (<code>--quick</code>): a tenth of the "
		      "samples, to check the report, not to judge swtee.</p>\n",
		      f);
}

static int page_write_html(const char *dir, const struct bench_run *run,
			   const struct bench_plots *plots)
{
	struct page_file pf;
	const char **groups = NULL;
	size_t n = 0;
	int ret = -1;

	groups = calloc(run->ngroups + run->nentries + 1, sizeof(*groups));
	if (!groups) {
		fprintf(stderr, "swtee bench: out of memory\n");
		return -1;
	}
	n = page_groups(run, groups, run->ngroups + run->nentries + 1);
	if (page_file_open(&pf, dir, "index.html"))
		goto out;
	page_header(pf.f, run);
	page_summary(pf.f, run, groups, n);
	if (page_verdicts(pf.f, run, groups, n)) {
		page_file_close(&pf, false);
		goto out;
	}
	page_plots(pf.f, plots);
	page_xtest(pf.f, run);
	page_references(pf.f);
	page_machine(pf.f, run);
	fputs("<footer>Written by swtee bench &middot; docs/benchmarks.md, \"Reports\", tells how "
	      "each figure is measured.</footer>\n</main>\n</body>\n</html>\n",
	      pf.f);
	ret = page_file_close(&pf, true);
out:
	free(groups);
	return ret;
}

int bench_page_write(const char *dir, const struct bench_run *run)
{
	struct bench_plots plots = {0};
	int ret = -1;

	if (paths_mkdir_p(dir, 0755)) {
		fprintf(stderr, "swtee bench: cannot create %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (bench_plot_all(run, &plots) || page_write_plots(dir, &plots) ||
	    page_write_json(dir, run, &plots) || page_write_html(dir, run, &plots))
		goto out;
	ret = 0;
out:
	bench_plots_fini(&plots);
	return ret;
}
