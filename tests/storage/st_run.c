/* The storage tests' runs of themselves under "swtee run" (st_run.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_run.h"

#define ARGS_MAX 32

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
