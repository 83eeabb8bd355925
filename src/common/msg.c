#include "msg.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

int msg_connect(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = -1;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = errno;

		close(fd);
		fd = -1;
		errno = err;
	}
	return fd;
}

int msg_send(int sock, const void *buf, size_t len, const int *fds, size_t nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * PROTO_FDS_MAX)];
		struct cmsghdr align;
	} u;
	struct iovec iov = {.iov_base = (void *)buf, .iov_len = len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	ssize_t n = 0;

	if (nfds > PROTO_FDS_MAX)
		return -EINVAL;
	if (nfds) {
		struct cmsghdr *c = NULL;

		memset(&u, 0, sizeof(u));
		m.msg_control = u.buf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	do {
		n = sendmsg(sock, &m, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EMSGSIZE;
	return 0;
}

uint64_t msg_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t msg_spin_budget(uint64_t last_ns, uint64_t cap_ns)
{
	uint64_t b = last_ns + last_ns / 2 + 10000;

	if (last_ns > cap_ns)
		return 0;
	return b < cap_ns ? b : cap_ns;
}

enum msg_spin_result msg_poll_spin(struct pollfd *pfd, nfds_t n, uint64_t budget_ns)
{
	uint64_t start = 0;
	uint64_t now = 0;

	if (!budget_ns)
		return MSG_SPIN_EXPIRED;
	start = now = msg_now_ns();
	for (;;) {
		uint64_t was = now;
		int r = poll(pfd, n, 0);

		if (r > 0)
			return MSG_SPIN_READY;
		if (r < 0 && errno != EINTR)
			return MSG_SPIN_EXPIRED;
		if (msg_now_ns() - start >= budget_ns)
			return MSG_SPIN_EXPIRED;
		/* On one CPU this lets the peer run; on an idle one it returns at once. */
		sched_yield();
		now = msg_now_ns();
		/*
		 * Back late: something else had the CPU, a whole time slice of it
		 * perhaps, whether or not the event came meanwhile. The caller's
		 * blocking wait finds the event at once if it did.
		 */
		if (now - was >= MSG_SPIN_CONTENDED_NS)
			return MSG_SPIN_CONTENDED;
	}
}

#define MSG_SPIN_LEVEL_MAX 12

static void backoff_lower(struct msg_backoff *b)
{
	unsigned l = atomic_load_explicit(&b->level, memory_order_relaxed);

	if (l)
		atomic_store_explicit(&b->level, l - 1, memory_order_relaxed);
}

bool msg_waiter_awake(const struct msg_waiter *w)
{
	return w->cap_ns && !atomic_load_explicit(&w->backoff->skip, memory_order_relaxed);
}

bool msg_waiter_spin(struct msg_waiter *w, struct pollfd *pfd, nfds_t n)
{
	struct msg_backoff *b = w->backoff;
	uint64_t budget = msg_spin_budget(w->last_ns, w->cap_ns);
	unsigned skip = atomic_load_explicit(&b->skip, memory_order_relaxed);
	unsigned l = 0;

	if (!budget)
		return false;
	if (skip) {
		atomic_store_explicit(&b->skip, skip - 1, memory_order_relaxed);
		return false;
	}
	switch (msg_poll_spin(pfd, n, budget)) {
	case MSG_SPIN_READY:
		backoff_lower(b);
		return true;
	case MSG_SPIN_CONTENDED:
		l = atomic_load_explicit(&b->level, memory_order_relaxed);
		if (l < MSG_SPIN_LEVEL_MAX)
			l++;
		atomic_store_explicit(&b->level, l, memory_order_relaxed);
		atomic_store_explicit(&b->skip, 1u << l, memory_order_relaxed);
		return false;
	default:
		backoff_lower(b);
		return false;
	}
}

void msg_fds_init(struct msg_fds *fds)
{
	fds->n = 0;
	for (size_t i = 0; i < PROTO_FDS_MAX; i++)
		fds->fd[i] = -1;
}

void msg_fds_close(struct msg_fds *fds)
{
	if (!fds)
		return;
	for (size_t i = 0; i < fds->n; i++) {
		if (fds->fd[i] >= 0)
			close(fds->fd[i]);
		fds->fd[i] = -1;
	}
	fds->n = 0;
}

int msg_fds_take(struct msg_fds *fds, size_t i)
{
	int fd = -1;

	if (!fds || i >= fds->n)
		return -1;
	fd = fds->fd[i];
	fds->fd[i] = -1;
	return fd;
}

/* Takes the descriptors of one SCM_RIGHTS header into fds; false if any did not fit. */
static bool take_rights(const struct cmsghdr *c, struct msg_fds *fds)
{
	size_t cnt = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
	int got[PROTO_FDS_MAX];
	bool fit = cnt <= PROTO_FDS_MAX;

	if (!fit)
		cnt = PROTO_FDS_MAX;
	memcpy(got, CMSG_DATA(c), cnt * sizeof(int));
	for (size_t i = 0; i < cnt; i++) {
		if (fds && fds->n < PROTO_FDS_MAX) {
			fds->fd[fds->n++] = got[i];
		} else {
			close(got[i]);
			fit = false;
		}
	}
	return fit;
}

ssize_t msg_recv_cred(int sock, void *buf, size_t cap, struct msg_fds *fds, pid_t *sender)
{
	union {
		char
		    buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int) * PROTO_FDS_MAX)];
		struct cmsghdr align;
	} u;
	struct iovec iov = {.iov_base = buf, .iov_len = cap};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = u.buf,
			   .msg_controllen = sizeof(u.buf)};
	ssize_t n = 0;
	bool bad = false;

	if (fds)
		msg_fds_init(fds);
	if (sender)
		*sender = 0;
	do {
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			bad |= !take_rights(c, fds);
		} else if (sender && c->cmsg_level == SOL_SOCKET &&
			   c->cmsg_type == SCM_CREDENTIALS &&
			   c->cmsg_len == CMSG_LEN(sizeof(struct ucred))) {
			struct ucred cred;

			memcpy(&cred, CMSG_DATA(c), sizeof(cred));
			*sender = cred.pid;
		} else {
			bad = true;
		}
	}
	if (bad || (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		msg_fds_close(fds);
		return -EMSGSIZE;
	}
	return n;
}

ssize_t msg_recv(int sock, void *buf, size_t cap, struct msg_fds *fds)
{
	return msg_recv_cred(sock, buf, cap, fds, NULL);
}

/* CLOCK_MONOTONIC in milliseconds. */
static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

ssize_t msg_recv_timeout(int sock, void *buf, size_t cap, struct msg_fds *fds, int timeout_ms)
{
	struct pollfd p = {.fd = sock, .events = POLLIN};
	int64_t deadline = timeout_ms < 0 ? 0 : now_ms() + timeout_ms;
	int wait = timeout_ms;
	int r = 0;

	if (fds)
		msg_fds_init(fds);
	for (;;) {
		r = poll(&p, 1, wait);
		if (r >= 0 || errno != EINTR)
			break;
		if (timeout_ms >= 0) {
			int64_t left = deadline - now_ms();

			wait = left > 0 ? (int)left : 0;
		}
	}
	if (r < 0)
		return -errno;
	if (r == 0)
		return -ETIMEDOUT;
	return msg_recv(sock, buf, cap, fds);
}
