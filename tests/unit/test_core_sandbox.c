/*
 * The core's seccomp allowlist (src/core/sandbox.c), entered in a child
 * process: what the core does at run time still works (threads, files in
 * its state dir, /proc, socket pairs, memory), and each way out of it is
 * refused with EPERM and a log line naming the call, without ending the
 * process.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core.h"

static int failures;
static pid_t parent;

#define CHECK(cond, what)                                                                          \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stdout, "FAIL: %s (errno %d)\n", what, errno);                     \
			failures++;                                                                \
		} else {                                                                           \
			fprintf(stdout, "ok: %s\n", what);                                         \
		}                                                                                  \
	} while (0)

static void *thread_main(void *arg)
{
	*(int *)arg = 42;
	return NULL;
}

static int refused(long rc, int err)
{
	return rc == -1 && err == EPERM;
}

static int sandboxed_child(void)
{
	char *const argv[] = {"true", NULL};
	char path[] = "/tmp/swtee-core-sandbox-XXXXXX";
	unsigned char page[64] = {0};
	struct iovec local = {page, sizeof(page)};
	struct iovec remote = {page, sizeof(page)};
	pthread_t t;
	int value = 0;
	int sv[2] = {-1, -1};
	long rc = 0;
	int fd = -1;
	void *p = NULL;

	if (core_sandbox_enter()) {
		fprintf(stdout, "FAIL: core_sandbox_enter\n");
		return 1;
	}

	/* What the core does at run time. */
	CHECK(pthread_create(&t, NULL, thread_main, &value) == 0 && pthread_join(t, NULL) == 0 &&
		  value == 42,
	      "a thread starts and runs");
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "/proc/self/status opens");
	close(fd);
	fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1 && fdatasync(fd) == 0 && unlink(path) == 0,
	      "a state file is created, written, synced and removed");
	close(fd);
	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) == 0,
	      "an AF_UNIX socket pair is made");
	close(sv[0]);
	close(sv[1]);
	fd = memfd_create("shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	CHECK(fd >= 0, "a memfd is made");
	close(fd);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED, "read-write memory is mapped");

	/* The ways out. */
	rc = execve("/bin/true", argv, NULL);
	CHECK(refused(rc, errno), "execve is refused");
	rc = socket(AF_INET, SOCK_STREAM, 0);
	CHECK(refused(rc, errno), "an IPv4 socket is refused");
	rc = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(refused(rc, errno), "a new listening or connecting socket is refused");
	rc = socketpair(AF_INET6, SOCK_STREAM, 0, sv);
	CHECK(refused(rc, errno), "an IPv6 socket pair is refused");
	rc = mprotect(p, 4096, PROT_READ | PROT_EXEC);
	CHECK(refused(rc, errno), "making memory executable is refused");
	CHECK(mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
		      MAP_FAILED &&
		  errno == EPERM,
	      "mapping executable memory is refused");
	rc = process_vm_readv(parent, &local, 1, &remote, 1, 0);
	CHECK(refused(rc, errno), "reading another process's memory is refused");
	rc = chdir("/");
	CHECK(refused(rc, errno), "an unlisted call (chdir) is refused");
#ifndef SWTEE_SANITIZE
	/* The sanitizers need these at exit: allowed in their builds only. */
	rc = fork();
	if (rc == 0)
		_exit(0);
	CHECK(refused(rc, errno), "fork is refused");
	rc = ptrace(PTRACE_ATTACH, parent, NULL, NULL);
	CHECK(refused(rc, errno), "ptrace is refused");
	CHECK(core_sandbox_refusals() == 10, "every refusal is counted");
#else
	CHECK(core_sandbox_refusals() == 8, "every refusal is counted");
#endif
	return failures ? 1 : 0;
}

int main(void)
{
	int out[2];
	char log[8192];
	size_t got = 0;
	ssize_t n = 0;
	int status = 0;
	pid_t pid = 0;
	static const char *const expect[] = {"execve", "socket",	   "mprotect",
					     "mmap",   "process_vm_readv", "chdir"};

	unsetenv("SWTEE_CORE_NO_SANDBOX");
	parent = getpid();
	if (pipe(out))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(out[1], STDERR_FILENO);
		close(out[0]);
		close(out[1]);
		int rc = sandboxed_child();

		fflush(stdout);
		_exit(rc);
	}
	close(out[1]);
	while (got < sizeof(log) - 1 && (n = read(out[0], log + got, sizeof(log) - 1 - got)) > 0)
		got += (size_t)n;
	log[got] = '\0';
	waitpid(pid, &status, 0);
	fputs(log, stdout);
	if (!WIFEXITED(status)) {
		printf("FAIL: the sandboxed process was ended by signal %d\n", WTERMSIG(status));
		return 1;
	}
	failures += WEXITSTATUS(status) != 0;
	for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		char want[96];

		snprintf(want, sizeof(want), "core sandbox refused system call %s ", expect[i]);
		CHECK(strstr(log, want) != NULL, want);
	}
	printf("%s\n", failures ? "FAILED" : "all passed");
	return failures ? 1 : 0;
}
