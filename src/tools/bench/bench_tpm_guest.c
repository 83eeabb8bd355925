/*
 * swtee bench tpm --guest: the kernel TPM HMAC experiment in QEMU guests.
 * The experiment itself is share/swtee/tpm-guest/vm_hmac_bench.sh (from
 * tpm-guest/ here, installed): it builds two small guest kernels from Debian's
 * linux-source-6.12, CONFIG_TCG_TPM2_HMAC on and off, boots each RUNS
 * times on the fTPM (swtee run --tpm=vm:SOCKET) and on swtpm, interleaved,
 * and writes one record a boot and command to WORK/results.tsv:
 *
 *   kernel  backend  run  command  guest_s  tpm_s  commands
 *
 * ("HMAC on", "ftpm", 3, "createprimary -C n", ...). This file runs it and
 * reports, for each kernel and command, three cases of the tpm group with
 * swtpm's boots as the baseline:
 *
 *   guest_<command>_hmac_<on|off>           the guest's time, by its own clock (s)
 *   guest_<command>_hmac_<on|off>_tpm       the TPM's time in it (ms): each command
 *                                           from QEMU's hand-off to the answer back
 *   guest_<command>_hmac_<on|off>_commands  the TPM commands the guest sent
 *
 * with <command> boot, createprimary_null (tpm2_createprimary -C n) or
 * createprimary_ecc256_owner (-C o -G ecc256). The kernels are kept in WORK
 * ($SWTEE_BENCH_GUEST_DIR, else ~/.cache/swtee/tpm-guest) for the next run.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bench_text.h"
#include "bench_tpm_guest.h"
#include "paths.h"

#define GUEST_RUNS 20
#define GUEST_EXIT_CANNOT 77 /* the script's "cannot run here", the reason in WORK/why */
#define GUEST_LINE_MAX 512

extern char **environ;

/* The commands of a boot, as the script names them and as the cases do. */
static const struct {
	const char *record;
	const char *name;
} guest_commands[] = {
    {"boot", "boot"},
    {"createprimary -C n", "createprimary_null"},
    {"createprimary -C o -G ecc256", "createprimary_ecc256_owner"},
};

#define GUEST_NCOMMANDS (sizeof(guest_commands) / sizeof(guest_commands[0]))
#define GUEST_NKERNELS 2
#define GUEST_NBACKENDS 2 /* 0: the fTPM, 1: swtpm */

/* The samples of one kernel, command and backend: guest seconds, TPM seconds, commands. */
struct guest_cell {
	struct bench_samples wall, tpm, count;
};

struct guest_table {
	struct guest_cell cell[GUEST_NKERNELS][GUEST_NCOMMANDS][GUEST_NBACKENDS];
};

static void guest_table_fini(struct guest_table *t)
{
	for (size_t k = 0; k < GUEST_NKERNELS; k++)
		for (size_t c = 0; c < GUEST_NCOMMANDS; c++)
			for (size_t b = 0; b < GUEST_NBACKENDS; b++) {
				bench_samples_fini(&t->cell[k][c][b].wall);
				bench_samples_fini(&t->cell[k][c][b].tpm);
				bench_samples_fini(&t->cell[k][c][b].count);
			}
}

/* The index of name among n names, or -1. */
static int guest_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

/*
 * One record of results.tsv into t. Returns 0, 1 for a record of a kernel,
 * backend or command this file does not know (left out), or -1 for a
 * malformed one or no memory.
 */
static int guest_record(struct guest_table *t, char *line)
{
	static const char *const kernels[] = {"HMAC on", "HMAC off"};
	static const char *const backends[] = {"ftpm", "swtpm"};
	char *field[7];
	char *end = NULL;
	double v[3];
	struct guest_cell *cell = NULL;
	size_t n = 0;
	int k = -1;
	int b = -1;
	int c = -1;

	line[strcspn(line, "\n")] = '\0';
	for (char *p = line; n < 7; n++) {
		field[n] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n != 6)
		return -1;
	for (size_t i = 0; i < 3; i++) {
		errno = 0;
		v[i] = strtod(field[4 + i], &end);
		if (errno || end == field[4 + i] || *end || !isfinite(v[i]) || v[i] < 0)
			return -1;
	}
	k = guest_index(kernels, GUEST_NKERNELS, field[0]);
	b = guest_index(backends, GUEST_NBACKENDS, field[1]);
	for (size_t i = 0; i < GUEST_NCOMMANDS && c < 0; i++)
		if (!strcmp(guest_commands[i].record, field[3]))
			c = (int)i;
	if (k < 0 || b < 0 || c < 0)
		return 1;
	cell = &t->cell[k][c][b];
	return bench_samples_add(&cell->wall, v[0]) || bench_samples_add(&cell->tpm, v[1] * 1e3) ||
		       bench_samples_add(&cell->count, v[2])
		   ? -1
		   : 0;
}

/* WORK/results.tsv into t. Returns 0, or -1 after saying why. */
static int guest_read(const char *path, struct guest_table *t)
{
	char line[GUEST_LINE_MAX];
	FILE *f = fopen(path, "re");
	size_t lineno = 0;
	int ret = 0;

	if (!f) {
		fprintf(stderr, "swtee bench: tpm --guest: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		lineno++;
		if (guest_record(t, line) < 0) {
			fprintf(stderr, "swtee bench: tpm --guest: %s:%zu: not a record\n", path,
				lineno);
			ret = -1;
		}
	}
	fclose(f);
	return ret;
}

/* One case from the two backends' samples of one kernel and command. */
static int guest_case(struct bench_ctx *ctx, const char *name, const char *unit,
		      struct bench_samples *ftpm, struct bench_samples *swtpm)
{
	struct bench_result r = {0};

	bench_text(r.name, sizeof(r.name), "%s", name);
	bench_text(r.unit, sizeof(r.unit), "%s", unit);
	if (!ftpm->n || !swtpm->n) {
		r.value = NAN;
		r.skipped = true;
		bench_text(r.skip_reason, sizeof(r.skip_reason),
			   "no boot of this kernel finished on %s", ftpm->n ? "swtpm" : "the fTPM");
		return bench_report(ctx, &r);
	}
	r.statistic = "median of boots";
	r.iterations = ftpm->n;
	r.value = bench_percentile(ftpm, 50);
	r.has_percentiles = true;
	r.p50 = r.value;
	r.p90 = bench_percentile(ftpm, 90);
	r.p99 = bench_percentile(ftpm, 99);
	r.has_baseline = true;
	bench_text(r.baseline_name, sizeof(r.baseline_name), "swtpm");
	r.baseline_value = bench_percentile(swtpm, 50);
	r.has_baseline_p50 = true;
	r.baseline_p50 = r.baseline_value;
	r.has_baseline_p90 = true;
	r.baseline_p90 = bench_percentile(swtpm, 90);
	return bench_report(ctx, &r);
}

static int guest_report(struct bench_ctx *ctx, struct guest_table *t)
{
	static const char *const hmac[] = {"on", "off"};
	char name[BENCH_NAME_MAX];

	for (size_t k = 0; k < GUEST_NKERNELS; k++)
		for (size_t c = 0; c < GUEST_NCOMMANDS; c++) {
			struct guest_cell *f = &t->cell[k][c][0];
			struct guest_cell *s = &t->cell[k][c][1];

			if (!f->wall.n && !s->wall.n)
				continue; /* a kernel the run left out */
			bench_text(name, sizeof(name), "guest_%s_hmac_%s", guest_commands[c].name,
				   hmac[k]);
			if (guest_case(ctx, name, "s", &f->wall, &s->wall))
				return -1;
			bench_text(name, sizeof(name), "guest_%s_hmac_%s_tpm",
				   guest_commands[c].name, hmac[k]);
			if (guest_case(ctx, name, "ms", &f->tpm, &s->tpm))
				return -1;
			bench_text(name, sizeof(name), "guest_%s_hmac_%s_commands",
				   guest_commands[c].name, hmac[k]);
			if (guest_case(ctx, name, "commands", &f->count, &s->count))
				return -1;
		}
	return 0;
}

/* home/rel into out, and made (mode 0700) unless it is there. 0, or -1. */
static int guest_mkdir(char *out, size_t n, const char *home, const char *rel)
{
	int len = snprintf(out, n, "%s%s", home, rel);

	if (len < 0 || (size_t)len >= n)
		return -1;
	return mkdir(out, 0700) && errno != EEXIST ? -1 : 0;
}

/* The work directory: $SWTEE_BENCH_GUEST_DIR, else ~/.cache/swtee/tpm-guest, made. */
static int guest_work_dir(char *out, size_t n)
{
	const char *env = getenv("SWTEE_BENCH_GUEST_DIR");
	const char *home = getenv("HOME");

	if (env && *env)
		return guest_mkdir(out, n, env, "");
	if (!home || !*home)
		return -1;
	return guest_mkdir(out, n, home, "/.cache") || guest_mkdir(out, n, home, "/.cache/swtee") ||
	       guest_mkdir(out, n, home, "/.cache/swtee/tpm-guest");
}

/*
 * Runs the script: its output on stderr (stdout stays the report's). Returns
 * its exit status, or -1 when it could not start or was killed.
 */
static int guest_spawn(const char *script, const char *work, const char *swtee, size_t runs)
{
	char runs_text[32];
	char *argv[] = {(char *)"/bin/sh", (char *)script, (char *)work, runs_text, NULL};
	posix_spawn_file_actions_t fa;
	pid_t pid = -1;
	int status = 0;
	int err = 0;

	bench_text(runs_text, sizeof(runs_text), "%zu", runs);
	if (setenv("VM_HMAC_SWTEE", swtee, 1) || setenv("VM_HMAC_WORK", work, 1) ||
	    posix_spawn_file_actions_init(&fa))
		return -1;
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		fprintf(stderr, "swtee bench: tpm --guest: cannot start %s: %s\n", script,
			strerror(err));
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Every guest case skipped, for why. */
static int guest_skip(struct bench_ctx *ctx, const char *why)
{
	struct bench_result r = {0};

	bench_text(r.name, sizeof(r.name), "guest_createprimary_null_hmac_on");
	bench_text(r.unit, sizeof(r.unit), "s");
	r.value = NAN;
	r.skipped = true;
	bench_text(r.skip_reason, sizeof(r.skip_reason), "%s", why);
	return bench_report(ctx, &r);
}

/* The first line of path into why (empty when there is none). */
static void guest_why(const char *path, char *why, size_t n)
{
	FILE *f = fopen(path, "re");

	why[0] = '\0';
	if (!f)
		return;
	if (fgets(why, (int)n, f))
		why[strcspn(why, "\n")] = '\0';
	fclose(f);
}

int bench_tpm_guest(struct bench_ctx *ctx)
{
	struct guest_table t;
	char script[SWTEE_PATH_MAX];
	char swtee[SWTEE_PATH_MAX];
	char work[SWTEE_PATH_MAX];
	char path[SWTEE_PATH_MAX];
	char why[BENCH_REASON_MAX];
	const char *env = getenv("SWTEE_BENCH_GUEST_SCRIPT");
	int status = 0;
	int ret = -1;

	if (env && *env) {
		if (strlen(env) >= sizeof(script))
			return guest_skip(ctx, "SWTEE_BENCH_GUEST_SCRIPT is too long");
		memcpy(script, env, strlen(env) + 1);
	} else if (paths_sibling("../share/swtee/tpm-guest/vm_hmac_bench.sh", script,
				 sizeof(script)))
		return guest_skip(ctx, "cannot name swtee's share/swtee/tpm-guest");
	if (access(script, R_OK))
		return guest_skip(ctx, "the guest experiment (share/swtee/tpm-guest) is not "
				       "installed");
	if (paths_sibling("swtee", swtee, sizeof(swtee)) || guest_work_dir(work, sizeof(work)))
		return guest_skip(ctx, "no work directory: set SWTEE_BENCH_GUEST_DIR to one");
	bench_progress(ctx, "guest boots (the first run builds two kernels)");
	status = guest_spawn(script, work, swtee, bench_iterations(ctx, GUEST_RUNS));
	if (status == GUEST_EXIT_CANNOT && !paths_join(path, sizeof(path), work, "why")) {
		guest_why(path, why, sizeof(why));
		return guest_skip(ctx, why[0] ? why : "the guest experiment cannot run here");
	}
	if (status != 0) {
		fprintf(stderr,
			"swtee bench: tpm --guest: the guest experiment failed (exit %d); its "
			"logs are in %s\n",
			status, work);
		return -1;
	}
	memset(&t, 0, sizeof(t)); /* every bench_samples empty, as bench_samples_init leaves it */
	if (!paths_join(path, sizeof(path), work, "results.tsv") && !guest_read(path, &t))
		ret = guest_report(ctx, &t);
	guest_table_fini(&t);
	return ret;
}

/* The published figure beside a guest case, for the table (seed-figures.md). */
static const char *guest_published(const char *command, bool hmac_on)
{
	if (!strcmp(command, "boot"))
		return hmac_on ? "modprobe tpm_tis_spi 8 min 6 s" : "modprobe tpm_tis_spi 2.8 s";
	if (!strcmp(command, "createprimary_null"))
		return hmac_on ? "5 min 27.7 s first, 0.395 s later" : "0.686 s (-G ecc256)";
	return hmac_on ? "0.418 s" : "0.638 s";
}

void bench_tpm_guest_table(FILE *f, const struct bench_result *const *r, size_t n)
{
	static const char *const hmac[] = {"on", "off"};
	char name[BENCH_NAME_MAX];
	bool header = false;

	for (size_t k = 0; k < GUEST_NKERNELS; k++)
		for (size_t c = 0; c < GUEST_NCOMMANDS; c++) {
			const struct bench_result *g = NULL;
			const struct bench_result *t = NULL;
			const struct bench_result *m = NULL;

			bench_text(name, sizeof(name), "guest_%s_hmac_%s", guest_commands[c].name,
				   hmac[k]);
			g = bench_result_find(r, n, name);
			if (!g)
				continue;
			if (!header) {
				fprintf(f, "\nQEMU guests (TCG: every guest instruction emulated), "
					   "p50 / p90 of the guest's own time over its boots:\n");
				fprintf(f, "%-27s %-4s %15s %15s %6s %15s %8s  %s\n", "step",
					"HMAC", "fTPM s", "swtpm s", "ratio", "TPM ms f/s",
					"commands", "arm64 board, SPI TPM (published)");
				header = true;
			}
			if (g->skipped) {
				fprintf(f, "%-27s %-4s skipped: %s\n", guest_commands[c].name,
					hmac[k], g->skip_reason);
				continue;
			}
			bench_text(name, sizeof(name), "guest_%s_hmac_%s_tpm",
				   guest_commands[c].name, hmac[k]);
			t = bench_result_find(r, n, name);
			bench_text(name, sizeof(name), "guest_%s_hmac_%s_commands",
				   guest_commands[c].name, hmac[k]);
			m = bench_result_find(r, n, name);
			fprintf(f,
				"%-27s %-4s %7.3f/%7.3f %7.3f/%7.3f %6.2f %7.1f/%7.1f %4.0f/%-3.0f "
				" %s\n",
				guest_commands[c].name, hmac[k], g->p50, g->p90, g->baseline_p50,
				g->baseline_p90,
				g->baseline_value > 0 ? g->value / g->baseline_value : NAN,
				t && !t->skipped ? t->value : NAN,
				t && !t->skipped ? t->baseline_value : NAN,
				m && !m->skipped ? m->value : NAN,
				m && !m->skipped ? m->baseline_value : NAN,
				guest_published(guest_commands[c].name, k == 0));
		}
	if (header)
		fprintf(f, "ratio: the fTPM's p50 over swtpm's. TPM ms: the TPM's time within the "
			   "step\n(QEMU's hand-off to the answer back), fTPM/swtpm; commands: "
			   "the TPM commands\nthe step sent, fTPM/swtpm. The board's figures are a "
			   "real kernel on real\nhardware, for scale (docs/tpm.md).\n");
}
