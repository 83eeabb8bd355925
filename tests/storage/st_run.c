/* The storage tests' runs of themselves under "swtee run" (st_run.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_run.h"
#include "st_util.h"

#define ARGS_MAX 32
/* The room for a command of st_run_sh: three paths of 4096 bytes and some. */
#define SH_MAX (4 * 4096)

int st_run_self(char *out, size_t n)
{
	ssize_t len = readlink("/proc/self/exe", out, n - 1);

	if (len <= 0)
		return -1;
	out[len] = '\0';
	return 0;
}

int st_run(const char *swtee, const char *state, const char *log, int flags,
	   const char *const args[])
{
	const char *argv[ARGS_MAX + 12];
	char self[4096];
	size_t n = 0;
	int status = 0;
	pid_t pid = 0;

	if (st_run_self(self, sizeof(self)))
		return -1;
	argv[n++] = swtee;
	argv[n++] = "run";
	if (flags & ST_RUN_VERBOSE) {
		argv[n++] = "-v";
		argv[n++] = "-v";
	}
	argv[n++] = "--state";
	argv[n++] = state;
	argv[n++] = "--";
	argv[n++] = self;
	argv[n++] = "--client";
	for (size_t i = 0; args[i]; i++) {
		if (i == ARGS_MAX)
			return -1;
		argv[n++] = args[i];
	}
	argv[n] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (log) {
			int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

			if (fd < 0 || dup2(fd, STDERR_FILENO) < 0 ||
			    ((flags & ST_RUN_STDOUT) && dup2(fd, STDOUT_FILENO) < 0))
				_exit(126);
		}
		execv(swtee, (char *const *)argv);
		fprintf(stderr, "cannot run %s: %s\n", swtee, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

void st_run_tail(const char *log, int lines)
{
	char **ring = calloc((size_t)lines, sizeof(*ring));
	char line[1024];
	long seen = 0;
	FILE *f = fopen(log, "re");

	if (!f || !ring) {
		if (f)
			fclose(f);
		free(ring);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		free(ring[seen % lines]);
		ring[seen % lines] = strdup(line);
		seen++;
	}
	fclose(f);
	fprintf(stderr, "---- the last lines of %s ----\n", log);
	for (long i = seen > lines ? seen - lines : 0; i < seen; i++)
		fputs(ring[i % lines] ? ring[i % lines] : "\n", stderr);
	fprintf(stderr, "----\n");
	for (int i = 0; i < lines; i++)
		free(ring[i]);
	free(ring);
}

bool st_run_step(const char *swtee, const char *state, const char *log, const char *what,
		 const char *const args[])
{
	int rc = st_run(swtee, state, log, 0, args);

	if (rc == 0) {
		printf("%s: %s: passed\n", st_who, what);
		return true;
	}
	fprintf(stderr, "%s: %s: failed (exit %d)\n", st_who, what, rc);
	st_run_tail(log, 60);
	return false;
}

/* st_run_sh; with must, st_run_sh_or_die. */
static int vsh(bool must, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

static int vsh(bool must, const char *fmt, va_list ap)
{
	char cmd[SH_MAX];
	int len = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	int rc = len < 0 || (size_t)len >= sizeof(cmd) ? -1 : system(cmd);

	if (rc && must)
		st_die("failed: %s", cmd);
	return rc;
}

int st_run_sh(const char *fmt, ...)
{
	va_list ap;
	int rc = 0;

	va_start(ap, fmt);
	rc = vsh(false, fmt, ap);
	va_end(ap);
	return rc;
}

void st_run_sh_or_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsh(true, fmt, ap);
	va_end(ap);
}

pid_t st_run_child(pid_t parent, const char *comm)
{
	char path[64];
	char buf[512];
	FILE *f = NULL;
	size_t n = 0;
	char *save = NULL;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)parent, (int)parent);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
		char name[64] = "";
		pid_t pid = (pid_t)atoi(t);

		snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
		if (!strcmp(name, comm))
			return pid;
	}
	return 0;
}
