/* Sending and receiving one SOCK_SEQPACKET message with descriptors. */
#ifndef SWTEE_MSG_H
#define SWTEE_MSG_H

#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
enum msg_spin_result {
	MSG_SPIN_READY,	    /* an event came: revents are set */
	MSG_SPIN_EXPIRED,   /* the budget ran out (or a poll failed) */
	MSG_SPIN_CONTENDED, /* the CPU ran something else for long: stop looking */
};

/* A look that took this long means another thread had the CPU meanwhile. */
#define MSG_SPIN_CONTENDED_NS 200000u

/*
 * Looks at pfd[n] without sleeping until one of them has an event or
 * budget_ns have passed, giving the CPU to any other runnable thread between
 * looks. On anything but MSG_SPIN_READY the caller blocks as it would have.
 *
 * A peer that answers within the budget then reaches a waiter that is still
 * running: on a virtual machine, waking a sleeping virtual CPU costs several
 * times a short round trip (docs/benchmarks.md, "Waiting awake"). But a
 * thread that yielded to a busy one gets the CPU back only when that one's
 * time slice ends, where a sleeping one would have been woken at once: a
 * look that took longer than MSG_SPIN_CONTENDED_NS without an event ends
 * the spin, even when the event came meanwhile (it was late all the same).
 */
enum msg_spin_result msg_poll_spin(struct pollfd *pfd, nfds_t n, uint64_t budget_ns);
/*
 * The spin budget for the next wait, from how long the last one took:
 * half again the last wait and 10 us, at most cap_ns; none when the last
 * took longer than cap_ns (a long wait pays the wake-up but little of its
 * time). Keeps waits that follow a steady rhythm from sleeping.
 */
uint64_t msg_spin_budget(uint64_t last_ns, uint64_t cap_ns);

/*
 * What contended spins taught: shared by every waiter of a process (the
 * CPUs' load is the machine's, not one connection's), so that a new
 * session starts from it. Its fields are only hints: threads race on them
 * harmlessly.
 */
struct msg_backoff {
	_Atomic unsigned skip;	/* waits left that sleep at once */
	_Atomic unsigned level; /* the next contended spin skips 2^level waits */
};

/* One connection's awake waits, one after the other. */
struct msg_waiter {
	uint64_t cap_ns;	     /* the longest wait worth spending awake; 0: never spin */
	uint64_t last_ns;	     /* how long the last whole wait took: the caller sets it */
	struct msg_backoff *backoff; /* the process's */
};

/*
 * Spins before a wait on pfd[n] (msg_poll_spin, with msg_spin_budget's
 * budget): true when an event came. A contended spin makes the process's
 * next waits sleep at once, twice as many each time up to 4096, so that a
 * waiter on a busy CPU loses a time slice rarely; each spin that was not
 * contended halves that again.
 */
bool msg_waiter_spin(struct msg_waiter *w, struct pollfd *pfd, nfds_t n);
/* Whether w's next wait may spin: a cap, and no backoff in force. */
bool msg_waiter_awake(const struct msg_waiter *w);
/*
 * The caps libteec and the TA runtime use. A client waits awake for a reply
 * due within 400 us: a wake-up would cost more than 5% of a call that long
 * or shorter, and on OP-TEE the caller's CPU is busy for the whole call. A
 * TA instance waits awake for the next request for at most 100 us after a
 * result. SWTEE_NO_SPIN in either's environment sets its cap to 0.
 */
#define MSG_SPIN_REPLY_CAP_NS 400000u
#define MSG_SPIN_REQUEST_CAP_NS 100000u
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t msg_now_ns(void);
void msg_fds_init(struct msg_fds *fds);
void msg_fds_close(struct msg_fds *fds);
/* Takes descriptor i out of fds (the caller owns it), or -1 when absent. */
SWTEE_MUST_CHECK int msg_fds_take(struct msg_fds *fds, size_t i);

#endif
