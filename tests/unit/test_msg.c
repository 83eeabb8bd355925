/*
 * Tests of msg_recv and msg_recv_timeout (src/common/msg.c) against
 * signals: a handler installed without SA_RESTART interrupts the wait
 * every 10 ms. msg_recv_timeout must still give up after its timeout
 * (not start it again at each signal, and not return early), and a
 * message that arrives while signals fly is received whole.
 *
 * Then msg_recv_cred on a socket that passes credentials: the sender's pid
 * comes back; descriptors the caller did not ask for are closed and the
 * message refused, and plain msg_recv refuses credentials it was not told
 * to expect.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"

static int failed;
static volatile sig_atomic_t ticks;

static void check(bool ok, const char *what)
{
	if (!ok) {
		failed++;
		fprintf(stderr, "FAIL: %s\n", what);
	}
}

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* SIGALRM every 10 ms (or never, with us 0), interrupting system calls. */
static void interrupt_every(long us)
{
	struct itimerval it = {.it_interval = {0, us}, .it_value = {0, us}};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: poll and recvmsg fail with EINTR */
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
}

/* How many descriptors this process has open. */
static int open_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

static void credentials(void)
{
	int sv[2] = {-1, -1};
	int one = 1;
	int pipefd[2] = {-1, -1};
	char buf[16];
	struct msg_fds fds;
	pid_t sender = -1;
	ssize_t n = 0;
	int before = 0;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) || pipe(pipefd) ||
	    setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one))) {
		check(false, "credentials: set-up");
		return;
	}
	check(msg_send(sv[1], "who", 3, NULL, 0) == 0, "msg_send with credentials passed");
	n = msg_recv_cred(sv[0], buf, sizeof(buf), NULL, &sender);
	check(n == 3 && sender == getpid(), "msg_recv_cred names the sender's pid");

	check(msg_send(sv[1], "fd", 2, &pipefd[0], 1) == 0, "msg_send of a descriptor");
	before = open_fds();
	n = msg_recv_cred(sv[0], buf, sizeof(buf), NULL, &sender);
	check(n == -EMSGSIZE, "msg_recv_cred refuses descriptors it was not given room for");
	check(open_fds() == before, "the refused descriptor was closed, not left behind");

	check(msg_send(sv[1], "plain", 5, NULL, 0) == 0, "msg_send for plain msg_recv");
	n = msg_recv(sv[0], buf, sizeof(buf), &fds);
	check(n == -EMSGSIZE, "msg_recv refuses credentials it was not told to expect");

	close(pipefd[0]);
	close(pipefd[1]);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	int sv[2] = {-1, -1};
	char buf[16];
	struct msg_fds fds;
	int64_t t0 = 0;
	int64_t took = 0;
	ssize_t n = 0;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		perror("socketpair");
		return 2;
	}
	/* A wait that starts over at each signal never ends: CTest's timeout stops it. */
	interrupt_every(10000);

	t0 = now_ms();
	n = msg_recv_timeout(sv[0], buf, sizeof(buf), &fds, 200);
	took = now_ms() - t0;
	check(n == -ETIMEDOUT, "msg_recv_timeout gives up with -ETIMEDOUT under signals");
	check(took >= 195, "msg_recv_timeout does not end early at a signal");
	check(took < 1000, "msg_recv_timeout does not start its timeout again at each signal");
	check(ticks > 5, "the signals did interrupt the wait");

	check(msg_send(sv[1], "hello", 5, NULL, 0) == 0, "msg_send under signals");
	n = msg_recv_timeout(sv[0], buf, sizeof(buf), &fds, 1000);
	check(n == 5 && !memcmp(buf, "hello", 5), "a waiting message arrives whole");
	check(msg_send(sv[1], "again", 5, NULL, 0) == 0, "msg_send again");
	n = msg_recv(sv[0], buf, sizeof(buf), &fds);
	check(n == 5 && !memcmp(buf, "again", 5), "msg_recv under signals");

	interrupt_every(0);
	credentials();
	close(sv[0]);
	close(sv[1]);
	if (failed)
		return 1;
	puts("msg: all checks passed");
	return 0;
}
