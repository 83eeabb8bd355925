/* Sending and receiving one SOCK_SEQPACKET message with descriptors. */
#ifndef SWTEE_MSG_H
#define SWTEE_MSG_H

#include <stddef.h>
#include <sys/types.h>

#include "must_check.h"
#include "proto.h"

struct msg_fds {
	int fd[PROTO_FDS_MAX];
	size_t n;
};

/*
 * A SOCK_SEQPACKET connection to the Unix socket at path: the descriptor
 * (close-on-exec), or -1 with errno set (ENAMETOOLONG for a path no socket
 * address holds).
 */
SWTEE_MUST_CHECK int msg_connect(const char *path);
/* Sends len bytes with nfds descriptors. Returns 0, or -errno. Retries EINTR. */
int msg_send(int sock, const void *buf, size_t len, const int *fds, size_t nfds);
/*
 * Receives one message into buf[cap]. Returns its length (0 means the peer
 * closed), or -errno: -EMSGSIZE for a message or descriptor list that did not
 * fit (its descriptors are closed), -EAGAIN on a non-blocking socket with
 * nothing waiting. Retries EINTR: a signal never ends the wait. Received
 * descriptors are close-on-exec; the caller owns them (msg_fds_close).
 */
SWTEE_MUST_CHECK ssize_t msg_recv(int sock, void *buf, size_t cap, struct msg_fds *fds);
/*
 * As msg_recv, on a socket with SO_PASSCRED: *sender gets the pid the kernel
 * vouches for as the message's sender (SCM_CREDENTIALS; 0 when there was
 * none). With sender NULL, credentials are refused as any unexpected
 * control message is (-EMSGSIZE).
 */
SWTEE_MUST_CHECK ssize_t msg_recv_cred(int sock, void *buf, size_t cap, struct msg_fds *fds,
				       pid_t *sender);
/*
 * As msg_recv, but gives up with -ETIMEDOUT when nothing arrived within
 * timeout_ms (< 0: wait); EINTR waits on for what is left of timeout_ms.
 */
SWTEE_MUST_CHECK ssize_t msg_recv_timeout(int sock, void *buf, size_t cap, struct msg_fds *fds,
					  int timeout_ms);
void msg_fds_init(struct msg_fds *fds);
void msg_fds_close(struct msg_fds *fds);
/* Takes descriptor i out of fds (the caller owns it), or -1 when absent. */
SWTEE_MUST_CHECK int msg_fds_take(struct msg_fds *fds, size_t i);

#endif
