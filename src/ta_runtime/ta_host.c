/*
 * swtee-ta-host: the program TA instances run in. Started once by swteed as
 * the zygote; every instance is a fork of it, so starting one costs a fork,
 * and the pages of the runtime and its libraries are shared by all of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "log.h"
#include "runtime.h"

/*
 * Not dumpable from the first code this program runs: the zygote and every
 * spare forked from it hold the sandbox that is yet to be entered, and a
 * process of the same user that could write their memory (/proc/PID/mem,
 * ptrace) could switch it off for every TA to come. execve() made this
 * process dumpable again; the pre-initialisers run before any library's
 * constructor.
 */
static void undumpable(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	if (prctl(PR_SET_DUMPABLE, 0) != 0)
		_exit(126);
}

typedef void (*preinit_fn)(int, char **, char **);
static const preinit_fn preinit[] __attribute__((section(".preinit_array"), used)) = {undumpable};

static void report_exits(int zfd)
{
	pid_t pid = 0;
	int status = 0;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		uint8_t out[12];
		struct buf_writer w;

		rt_memcg_reaped(pid);
		buf_writer_init(&w, out, sizeof(out));
		buf_put_u32(&w, MSG_ZYG_EXITED);
		buf_put_u32(&w, (uint32_t)pid);
		buf_put_u32(&w, (uint32_t)status);
		msg_send(zfd, out, buf_written(&w), NULL, 0);
	}
}

/*
 * A new instance process, with the control socket ctl_fd and, as its
 * standard output and error, out_fd: the pipe the core logs as its own.
 */
static void fork_instance(int zfd, int sfd, uint32_t tag, int ctl_fd, int out_fd)
{
	uint8_t out[20];
	struct buf_writer w;
	sigset_t none;
	struct rt_memcg_spare sp;
	int in_cgroup = rt_memcg_spare(tag, &sp);
	pid_t pid = 0;
	int err = 0;

	/* Never a spare without a cgroup while the others have one: all without. */
	if (in_cgroup < 0)
		rt_memcg_off();
	pid = fork();
	err = pid < 0 ? errno : 0;
	if (pid == 0) {
		/* Its memory cgroup first: nothing it does later escapes the limit. */
		rt_memcg_join(&sp);
		close(zfd);
		close(sfd);
		if (dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0)
			_exit(127);
		close(out_fd);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGCHLD, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		rt_instance_main(ctl_fd);
	}
	close(ctl_fd);
	close(out_fd);
	rt_memcg_spare_close(&sp);
	if (in_cgroup == 1 && (pid < 0 || rt_memcg_forked(pid, sp.id)))
		rt_memcg_discard(sp.id); /* (a cgroup with a process stays till the core stops) */
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_ZYG_FORKED);
	buf_put_u32(&w, tag);
	buf_put_u32(&w, pid < 0 ? 0 : (uint32_t)pid);
	buf_put_u32(&w, (uint32_t)err);
	buf_put_u32(&w, pid > 0 && in_cgroup == 1);
	msg_send(zfd, out, buf_written(&w), NULL, 0);
}

static int zygote(int zfd)
{
	sigset_t mask;
	int sfd = -1;

	/*
	 * Everything an instance may need from the file system is read here,
	 * once, before any sandbox: libcrypto's configuration and providers,
	 * and the C library's time zone (a TA's gmtime_r or localtime_r would
	 * otherwise open /etc/localtime on first use).
	 */
	OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG | OPENSSL_INIT_ADD_ALL_CIPHERS |
				OPENSSL_INIT_ADD_ALL_DIGESTS,
			    NULL);
	tzset();
	rt_instance_zygote_prepare();
	/*
	 * What the initialisation freed sits in malloc's fast bins; the first
	 * large allocation of every fork would consolidate them, writing to
	 * (so copying) each heap page it shares with the zygote. Done once here.
	 */
	malloc_trim(0);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	prctl(PR_SET_NAME, "swtee-zygote");
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return 1;
	for (;;) {
		struct pollfd p[2] = {{.fd = zfd, .events = POLLIN}, {.fd = sfd, .events = POLLIN}};
		uint8_t in[64];
		struct msg_fds fds;
		struct buf_reader r;
		uint32_t type = 0;
		uint32_t tag = 0;
		ssize_t n = 0;
		int ctl = -1;
		int out = -1;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (p[1].revents) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				;
			report_exits(zfd);
		}
		if (!p[0].revents)
			continue;
		n = msg_recv(zfd, in, sizeof(in), &fds);
		if (n <= 0)
			return 0; /* the core is gone */
		buf_reader_init(&r, in, (size_t)n);
		buf_get_u32(&r, &type);
		buf_get_u32(&r, &tag);
		if (type == MSG_ZYG_NO_CGROUP) {
			rt_memcg_off();
			msg_fds_close(&fds);
			continue;
		}
		if (!buf_done(&r) || type != MSG_ZYG_FORK || fds.n != 2) {
			msg_fds_close(&fds);
			continue;
		}
		ctl = msg_fds_take(&fds, 0);
		out = msg_fds_take(&fds, 1);
		fork_instance(zfd, sfd, tag, ctl, out);
	}
}

/* The core's directory of TA cgroups, their version and a spare's limit, as numbers. */
static int zygote_cgroups(char **args)
{
	char *end[3] = {NULL, NULL, NULL};
	long dir = strtol(args[0], &end[0], 10);
	long version = strtol(args[1], &end[1], 10);
	unsigned long long limit = strtoull(args[2], &end[2], 10);

	if (*end[0] || *end[1] || *end[2] || dir < 0 || dir > 1024 ||
	    fcntl((int)dir, F_SETFD, FD_CLOEXEC))
		return -1;
	return rt_memcg_init((int)dir, (int)version, limit);
}

int main(int argc, char **argv)
{
	char *end = NULL;
	long fd = 0;

	log_init("", LOG_LVL_INFO); /* the core names the lines of this process */
	if (argc > 1 && !strcmp(argv[1], "--instance"))
		return rt_debug_instance_main(argc, argv);
	/* --zygote FD [CGROUP-DIR-FD VERSION SPARE-LIMIT] */
	if ((argc != 3 && argc != 6) || strcmp(argv[1], "--zygote") != 0) {
		fprintf(stderr, "swtee-ta-host is started by swteed, not by hand\n");
		return 2;
	}
	fd = strtol(argv[2], &end, 10);
	if (*end || fd < 0 || fd > 1024)
		return 2;
	if (argc == 6 && zygote_cgroups(argv + 3))
		return 2;
	return zygote((int)fd);
}
