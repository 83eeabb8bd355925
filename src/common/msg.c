#include "msg.h"

#include <errno.h>
#include <stdbool.h>
#include <poll.h>
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
