/*
 * swtee bench: the facts of the machine a run measured, for results.json
 * and the report's header: CPU model, online cores, kernel, the OpenSSL
 * swtee runs with, and the filesystem that holds the state directory
 * (trusted storage lands there, so its speed is that filesystem's).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>

#include "bench_int.h"
#include "bench_text.h"

#ifndef SWTEE_VERSION
#define SWTEE_VERSION "unknown"
#endif

#define MACHINE_LINE_MAX 4096

/* Copies s into out with leading and trailing blanks taken off. */
static void machine_trim(char *out, size_t n, const char *s)
{
	size_t len = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strcspn(s, "\n");
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	bench_text(out, n, "%.*s", (int)len, s);
}

/* The first "key : value" of /proc/cpuinfo with one of keys, into out. */
static void machine_cpu_model(char *out, size_t n)
{
	static const char *const keys[] = {"model name", "Model", "Hardware", "cpu model"};
	char line[MACHINE_LINE_MAX];
	FILE *f = fopen("/proc/cpuinfo", "re");
	size_t k = 0;

	out[0] = '\0';
	if (!f)
		return;
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]) && !out[0]; k++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			size_t klen = strlen(keys[k]);
			const char *p = line + klen;

			if (strncmp(line, keys[k], klen) != 0)
				continue;
			p += strspn(p, " \t");
			if (*p != ':')
				continue;
			machine_trim(out, n, p + 1);
			break;
		}
	}
	fclose(f);
}

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void machine_unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Whether path lies at or under the mount point mnt. */
static bool machine_under(const char *path, const char *mnt)
{
	size_t len = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return true;
	return strncmp(path, mnt, len) == 0 && (path[len] == '/' || path[len] == '\0');
}

/*
 * The type of the filesystem mounted at the longest mount point above path
 * (the last one mounted when several are stacked), into out.
 */
static void machine_fs_type(const char *path, char *out, size_t n)
{
	char line[MACHINE_LINE_MAX];
	size_t best = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL;
		char *mnt = NULL;
		char *tok = NULL;
		char *dash = strstr(line, " - ");
		int i = 0;

		if (!dash)
			continue;
		*dash = '\0';
		/* id, parent, major:minor, root, then the mount point */
		tok = strtok_r(line, " ", &save);
		for (i = 0; tok && i < 4; i++)
			tok = strtok_r(NULL, " ", &save);
		mnt = tok;
		if (!mnt)
			continue;
		machine_unescape(mnt);
		if (!machine_under(path, mnt) || strlen(mnt) < best)
			continue;
		best = strlen(mnt);
		tok = strtok_r(dash + 3, " \n", &save);
		bench_text(out, n, "%s", tok ? tok : "");
	}
	fclose(f);
}

/* The filesystem of dir, or of its closest existing parent. */
static void machine_filesystem(const char *dir, char *out, size_t n)
{
	char path[PATH_MAX];
	char real[PATH_MAX];
	char *slash = NULL;

	out[0] = '\0';
	if (!dir || !*dir || !bench_fmt(path, sizeof(path), "%s", dir))
		return;
	while (!realpath(path, real)) {
		slash = strrchr(path, '/');
		if (!slash)
			return;
		if (slash == path) {
			bench_text(path, sizeof(path), "/");
			continue;
		}
		*slash = '\0';
	}
	machine_fs_type(real, out, n);
}

void bench_machine_read(struct bench_machine *m)
{
	struct utsname u = {0};
	struct tm tm;
	time_t now = time(NULL);
	const char *state = getenv("SWTEE_STATE_DIR");
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	memset(m, 0, sizeof(*m));
	machine_cpu_model(m->cpu_model, sizeof(m->cpu_model));
	m->cores = cores > 0 ? (unsigned int)cores : 0;
	if (uname(&u) == 0)
		bench_text(m->kernel, sizeof(m->kernel), "%s %s %s", u.sysname, u.release,
			   u.machine);
	if (!m->cpu_model[0])
		bench_text(m->cpu_model, sizeof(m->cpu_model), "%s", u.machine);
	bench_text(m->openssl, sizeof(m->openssl), "%s", OpenSSL_version(OPENSSL_VERSION));
	bench_text(m->state_dir, sizeof(m->state_dir), "%s", state ? state : "");
	machine_filesystem(state, m->filesystem, sizeof(m->filesystem));
	if (gmtime_r(&now, &tm))
		strftime(m->date, sizeof(m->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	bench_text(m->swtee_version, sizeof(m->swtee_version), "%s", SWTEE_VERSION);
}
