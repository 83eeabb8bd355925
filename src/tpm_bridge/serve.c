/*
 * The bridge's peers: one thread, one poll loop. Each connection has a
 * bounded input buffer (a request never exceeds FRAME_MAX) and an output
 * buffer for one reply; a connection with a reply not yet sent is not read
 * from. Requests run one at a time, each whole (TPM command and reply)
 * before the next, whoever sent it. A peer that sends what frame_parse
 * refuses is dropped; so is one that leaves a request or a reply half done
 * for STALL_MS, and, when CONNS_MAX are open, the one idle the longest.
 *
 * On a Unix socket a request is read with MSG_PEEK and taken off the socket
 * only once its reply is out. Taking bytes off a Unix stream socket wakes
 * whoever sleeps on the sender's end, and a client that has sent a command
 * sleeps there, in its read of the reply: reading the command at once would
 * wake it for nothing while the TA runs the command, a wake-up that costs a
 * context switch when the two share a CPU and an interprocessor interrupt
 * when they do not (docs/tpm.md, "Benchmarks"). TCP wakes no reader so.
 *
 * A VM endpoint (--vm) serves one QEMU: its control connection, the first
 * to connect (a second is refused while it is open), and the data channel
 * it passes with CMD_SET_DATAFD. Neither is ever evicted, and the data
 * channel's commands go to the TPM as they are: the guest's kernel has its
 * own resource manager.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"
#include "log.h"
#include "msg.h"

#define CONNS_MAX 64
#define STALL_MS 10000
#define POLL_MS 1000
/* swtpm's answers (libtpms' TPM 1.2 result codes). */
#define PTM_SUCCESS 0
#define PTM_BAD_PARAMETER 3
#define PTM_FAIL 9
#define PTM_BAD_ORDINAL 10
#define PTM_BAD_LOCALITY 61
/* swtpm's capability bits (tpm_ioctl.h) of what this bridge does. */
#define PTM_CAP_INIT (1u << 0)
#define PTM_CAP_SHUTDOWN (1u << 1)
#define PTM_CAP_GET_TPMESTABLISHED (1u << 2)
#define PTM_CAP_SET_LOCALITY (1u << 3)
#define PTM_CAP_HASHING (1u << 4)
#define PTM_CAP_CANCEL_TPM_CMD (1u << 5)
#define PTM_CAP_RESET_TPMESTABLISHED (1u << 7)
#define PTM_CAP_STOP (1u << 10)
#define PTM_CAP_GET_CONFIG (1u << 11)
#define PTM_CAP_SET_DATAFD (1u << 12)
#define PTM_CAP_SET_BUFFERSIZE (1u << 13)
/* mssim's REMOTE_HANDSHAKE answer: tpmPlatformAvailable | tpmInRawMode. */
#define MSSIM_SERVER_VERSION 1
#define MSSIM_ENDPOINT_INFO 0x05

struct conn {
	int fd;
	enum frame_proto proto;
	struct endpoint *ep;
	uint8_t in[FRAME_MAX];
	size_t in_len;
	uint8_t out[FRAME_TPM_MAX + 16];
	size_t out_len;
	size_t out_off;
	bool peek;		/* a Unix socket: requests are peeked (above) */
	size_t peeked;		/* in's last bytes, peeked, still queued on the socket */
	bool close_after;	/* once out is sent */
	bool vm;		/* a VM's control or data channel */
	struct rm_owner owner;	/* who holds the objects its commands create */
	int rx_fd;		/* a descriptor the VM passed, not yet taken; -1 */
	uint64_t pending_since; /* ms; 0 while nothing is half done */
	uint64_t active;	/* ms of the last request */
};

static struct conn *conns[CONNS_MAX];
static bool tee_gone; /* the TPM command path lost the TEE for good */
static uint8_t rsp_buf[FRAME_TPM_MAX];
static uint8_t taken[FRAME_MAX]; /* where peeked bytes go when taken off a socket */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void conn_free(struct conn *c)
{
	if (!c)
		return;
	if (c->rx_fd >= 0)
		close(c->rx_fd);
	rm_conn_closed(c->owner.conn);
	close(c->fd);
	free(c);
}

static void out_bytes(struct conn *c, const void *p, size_t n)
{
	/* Every reply is built within the buffer's size; drop a peer otherwise. */
	if (n > sizeof(c->out) - c->out_len) {
		c->close_after = true;
		return;
	}
	memcpy(c->out + c->out_len, p, n);
	c->out_len += n;
}

/* Queues a UINT32 of the wire (big-endian). */
static void out_u32(struct conn *c, uint32_t v)
{
	uint8_t b[4];
	struct buf_writer w;

	buf_writer_init(&w, b, sizeof(b));
	buf_put_be32(&w, v);
	out_bytes(c, b, sizeof(b));
}

/* The platform's power cycle of the mssim RESET and RESTART signals and swtpm's INIT. */
static int power_cycle(bool orderly)
{
	if (tpm_power_off(orderly))
		return -1;
	return tpm_power_on();
}

static int tpm_command(struct conn *c, const struct frame *f)
{
	uint8_t loc = f->prefixed ? f->locality : 0;
	size_t n = 0;

	if (c->proto == FRAME_SWTPM_DATA && !f->prefixed)
		loc = c->ep->locality;
	if (c->vm ? tpm_execute(f->data, f->len, loc, rsp_buf, &n)
		  : rm_execute(f->data, f->len, loc, &c->owner, rsp_buf, &n))
		return -1;
	if (f->prefixed)
		out_u32(c, (uint32_t)n);
	out_bytes(c, rsp_buf, n);
	if (f->prefixed)
		out_u32(c, 0);
	return 0;
}

static int mssim_tpm(struct conn *c, const struct frame *f)
{
	switch (f->code) {
	case MSSIM_SEND_COMMAND:
		return tpm_command(c, f);
	case MSSIM_HASH_START:
		tpm_hash_start();
		break;
	case MSSIM_HASH_DATA:
		tpm_hash_data(f->data, f->len);
		break;
	case MSSIM_HASH_END:
		tpm_hash_end();
		break;
	case MSSIM_REMOTE_HANDSHAKE:
		out_u32(c, MSSIM_SERVER_VERSION);
		out_u32(c, MSSIM_ENDPOINT_INFO);
		break;
	case MSSIM_SET_ALTERNATIVE_RESULT:
		break;
	default: /* SESSION_END, STOP: no answer */
		c->close_after = true;
		return 0;
	}
	out_u32(c, 0);
	return 0;
}

static int mssim_platform(struct conn *c, const struct frame *f)
{
	int r = 0;

	switch (f->code) {
	case MSSIM_POWER_ON:
		r = tpm_power_on();
		break;
	case MSSIM_POWER_OFF:
		r = tpm_power_off(false);
		break;
	case MSSIM_RESET:
	case MSSIM_RESTART:
		r = power_cycle(false);
		break;
	case MSSIM_SESSION_END:
	case MSSIM_STOP:
		c->close_after = true;
		return 0;
	default: /* physical presence, cancel, NV, key cache: nothing to do */
		break;
	}
	/* A TPM that cannot power on (its state refused) fails the client's set-up. */
	out_u32(c, r ? 1 : 0);
	return 0;
}

/* A free slot, else that of the peer idle the longest but a VM's, freed; CONNS_MAX for none. */
static size_t free_slot(void)
{
	size_t idle = CONNS_MAX;

	for (size_t i = 0; i < CONNS_MAX; i++)
		if (!conns[i])
			return i;
	for (size_t i = 0; i < CONNS_MAX; i++)
		if (!conns[i]->vm && (idle == CONNS_MAX || conns[i]->active < conns[idle]->active))
			idle = i;
	if (idle == CONNS_MAX)
		return CONNS_MAX;
	log_debug("%d peers: dropping the one idle the longest", CONNS_MAX);
	conn_free(conns[idle]);
	conns[idle] = NULL;
	return idle;
}

/*
 * A connection of fd to serve as proto, in a free slot; NULL (fd closed)
 * when none. Its owner is the peer's process when the kernel names it.
 */
static struct conn *conn_add(int fd, struct endpoint *ep, enum frame_proto proto, uint64_t now)
{
	static uint64_t next_id;
	size_t slot = free_slot();
	struct conn *c = slot < CONNS_MAX ? calloc(1, sizeof(*c)) : NULL;
	struct ucred cred = {.pid = 0};
	socklen_t len = sizeof(cred);

	if (!c) {
		close(fd);
		return NULL;
	}
	c->owner.conn = ++next_id;
	/* Its start time is read only when it creates an object (rm.c). */
	if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) && cred.pid > 0)
		c->owner.pid = cred.pid;
	c->fd = fd;
	c->rx_fd = -1;
	c->ep = ep;
	c->proto = proto;
	c->active = now;
	conns[slot] = c;
	return c;
}

/*
 * CMD_SET_DATAFD: the Unix stream socket the VM passed becomes its data
 * channel, in place of an earlier one. PTM_SUCCESS or PTM_FAIL.
 */
static uint32_t vm_set_datafd(struct conn *c)
{
	int fd = c->rx_fd;
	int domain = 0;
	int type = 0;
	socklen_t l1 = sizeof(domain);
	socklen_t l2 = sizeof(type);
	struct conn *d = NULL;

	c->rx_fd = -1;
	if (fd < 0) {
		log_info("VM: CMD_SET_DATAFD came without a descriptor; refused");
		return PTM_FAIL;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &l1) ||
	    getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &l2) || domain != AF_UNIX ||
	    type != SOCK_STREAM || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)) {
		log_info("VM: CMD_SET_DATAFD passed no Unix stream socket; refused");
		close(fd);
		return PTM_FAIL;
	}
	for (size_t i = 0; i < CONNS_MAX; i++)
		if (conns[i] && conns[i]->ep == c->ep && conns[i]->proto == FRAME_SWTPM_DATA) {
			log_info("VM: a new data channel replaces the earlier one");
			conn_free(conns[i]);
			conns[i] = NULL;
		}
	d = conn_add(fd, c->ep, FRAME_SWTPM_DATA, now_ms());
	if (!d) {
		log_error("VM: no room for the data channel");
		return PTM_FAIL;
	}
	d->vm = true;
	d->peek = true;
	log_info("VM: data channel set");
	return PTM_SUCCESS;
}

/* A control command refused with TPM_BAD_ORDINAL, and why, in the log. */
static uint32_t refused(const struct frame *f, const char *why)
{
	log_info("swtpm control: command 0x%02x refused (TPM_BAD_ORDINAL): %s%s", f->code, why,
		 f->last ? "; its length is not known, so the connection is closed" : "");
	return PTM_BAD_ORDINAL;
}

static void ctrl_caps(struct conn *c)
{
	uint32_t caps = PTM_CAP_INIT | PTM_CAP_SHUTDOWN | PTM_CAP_GET_TPMESTABLISHED |
			PTM_CAP_SET_LOCALITY | PTM_CAP_HASHING | PTM_CAP_RESET_TPMESTABLISHED |
			PTM_CAP_STOP | PTM_CAP_GET_CONFIG | PTM_CAP_SET_BUFFERSIZE;

	/*
	 * A UINT64 bitmap, and no result code. No state blobs: QEMU then
	 * refuses savevm and migration itself (docs/tpm.md).
	 */
	if (c->proto == FRAME_VM_CTRL)
		caps |= PTM_CAP_SET_DATAFD;
	out_u32(c, 0);
	out_u32(c, caps);
}

/* The control commands that concern the TPM's power and its established flag. */
static bool ctrl_power(struct conn *c, const struct frame *f, uint32_t *res)
{
	bool set = false;

	switch (f->code) {
	case SWTPM_INIT:
		/* PTM_INIT_FLAG_DELETE_VOLATILE: no volatile state is kept outside the TPM. */
		*res = power_cycle(true) ? PTM_FAIL : PTM_SUCCESS;
		return true;
	case SWTPM_SHUTDOWN:
	case SWTPM_STOP:
		/* swtpm ends on SHUTDOWN; this bridge serves on, with the TPM off. */
		*res = tpm_power_off(true) ? PTM_FAIL : PTM_SUCCESS;
		return true;
	case SWTPM_GET_TPMESTABLISHED:
		*res = tpm_established_get(&set) ? PTM_FAIL : PTM_SUCCESS;
		out_u32(c, *res);
		out_u32(c, set ? 0x01000000u : 0); /* UINT8 bit, 3 bytes of padding */
		return true;
	case SWTPM_RESET_TPMESTABLISHED:
		if (f->arg > 4)
			*res = PTM_BAD_LOCALITY;
		else
			*res = tpm_established_reset((uint8_t)f->arg) ? PTM_FAIL : PTM_SUCCESS;
		return true;
	default:
		return false;
	}
}

static uint32_t ctrl_other(struct conn *c, const struct frame *f)
{
	switch (f->code) {
	case SWTPM_SET_LOCALITY:
		if (f->arg > 4)
			return PTM_BAD_LOCALITY;
		c->ep->locality = (uint8_t)f->arg;
		return PTM_SUCCESS;
	case SWTPM_HASH_START:
		return tpm_hash_start() ? PTM_FAIL : PTM_SUCCESS;
	case SWTPM_HASH_DATA:
		return tpm_hash_data(f->data, f->len) ? PTM_FAIL : PTM_SUCCESS;
	case SWTPM_HASH_END:
		return tpm_hash_end() ? PTM_FAIL : PTM_SUCCESS;
	case SWTPM_CANCEL_TPM_CMD: /* each command runs whole before the next is read */
	case SWTPM_LOCK_STORAGE:   /* no state file to lock: the TEE keeps it */
		return PTM_SUCCESS;
	case SWTPM_SET_DATAFD:
		if (c->proto == FRAME_VM_CTRL)
			return vm_set_datafd(c);
		return refused(f, "a data socket is taken on a VM endpoint only (--vm)");
	case SWTPM_STORE_VOLATILE:
	case SWTPM_SET_STATEBLOB:
	case SWTPM_GET_INFO:
		return refused(f, "the TPM's state does not leave the TEE");
	default:
		return refused(f, "unknown command");
	}
}

static int swtpm_ctrl(struct conn *c, const struct frame *f)
{
	uint32_t res = PTM_SUCCESS;

	switch (f->code) {
	case SWTPM_GET_CAPABILITY:
		ctrl_caps(c);
		return 0;
	case SWTPM_GET_CONFIG:
		out_u32(c, PTM_SUCCESS);
		out_u32(c, 0); /* no state-file or migration keys: the TEE keeps the state */
		return 0;
	case SWTPM_SET_BUFFERSIZE:
		/* Fixed: any size asked for gets the TA's. */
		out_u32(c, PTM_SUCCESS);
		out_u32(c, FRAME_TPM_MAX);
		out_u32(c, FRAME_TPM_MAX);
		out_u32(c, FRAME_TPM_MAX);
		return 0;
	case SWTPM_GET_STATEBLOB:
		/* The whole fixed part of the answer, so that a reader of it does not wait. */
		out_u32(c, refused(f, "the TPM's state does not leave the TEE"));
		out_u32(c, 0); /* state_flags */
		out_u32(c, 0); /* totlength */
		out_u32(c, 0); /* length */
		return 0;
	default:
		if (!ctrl_power(c, f, &res))
			res = ctrl_other(c, f);
		/* GET_TPMESTABLISHED has queued its whole answer. */
		if (f->code != SWTPM_GET_TPMESTABLISHED)
			out_u32(c, res);
		if (f->last)
			c->close_after = true;
		return 0;
	}
}

/* Runs one whole request and queues its reply. -1 when the TEE is gone. */
static int handle(struct conn *c, const struct frame *f)
{
	switch (c->proto) {
	case FRAME_MSSIM_TPM:
		return mssim_tpm(c, f);
	case FRAME_MSSIM_PLATFORM:
		return mssim_platform(c, f);
	case FRAME_SWTPM_DATA:
		return tpm_command(c, f);
	case FRAME_SWTPM_CTRL:
	case FRAME_VM_CTRL:
		return swtpm_ctrl(c, f);
	}
	return 0;
}

/* Sends what it can of the reply; -1 when the peer is gone. */
static int flush(struct conn *c)
{
	while (c->out_off < c->out_len) {
		ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n <= 0)
			return -1;
		c->out_off += (size_t)n;
	}
	c->out_len = c->out_off = 0;
	return 0;
}

/* Takes the peeked bytes off c's socket; -1 when the peer is gone. */
static int take_peeked(struct conn *c)
{
	while (c->peeked) {
		ssize_t n = recv(c->fd, taken, c->peeked, MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		/* They are queued, and this thread alone reads the socket. */
		if (n <= 0 || (size_t)n > c->peeked)
			return -1;
		c->peeked -= (size_t)n;
	}
	return 0;
}

/*
 * Runs the whole requests in c's input while its replies go out at once.
 * Returns 0 to keep the peer, 1 to drop it, -1 when the TEE is gone.
 */
static int process(struct conn *c, uint64_t now)
{
	while (!c->out_len && !c->close_after) {
		struct frame f;
		size_t used = 0;
		enum frame_status st = frame_parse(c->proto, c->in, c->in_len, &f, &used);

		if (st == FRAME_MORE)
			break;
		if (st == FRAME_BAD) {
			log_debug("peer sent what the protocol does not allow; dropped");
			return 1;
		}
		if (handle(c, &f))
			return -1;
		memmove(c->in, c->in + used, c->in_len - used);
		c->in_len -= used;
		c->active = now;
		c->pending_since = 0;
		if (flush(c))
			return 1;
	}
	if (c->close_after && !c->out_len)
		return 1;
	/* Every reply is out: the client is awake, or about to be. */
	if (!c->out_len && take_peeked(c))
		return 1;
	if ((c->in_len || c->out_len) && !c->pending_since)
		c->pending_since = now;
	return 0;
}

/*
 * recv on a VM's control channel, which is not peeked: a descriptor that
 * comes with the bytes (SCM_RIGHTS) is kept in rx_fd for CMD_SET_DATAFD, in
 * place of one kept before.
 */
static ssize_t recv_fds(struct conn *c, uint8_t *p, size_t n)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(4 * sizeof(int))];
	} ctl;
	struct iovec iov = {.iov_base = p, .iov_len = n};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = ctl.b,
			   .msg_controllen = sizeof(ctl.b)};
	ssize_t r = recvmsg(c->fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

	for (struct cmsghdr *h = r >= 0 ? CMSG_FIRSTHDR(&m) : NULL; h; h = CMSG_NXTHDR(&m, h)) {
		size_t k = 0;

		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		k = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int fd = -1;

			memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof(fd));
			if (c->rx_fd >= 0)
				close(c->rx_fd);
			c->rx_fd = fd;
		}
	}
	return r;
}

static int on_readable(struct conn *c, uint64_t now)
{
	ssize_t n = 0;

	/* Peeked bytes left (a hang-up while a reply waits) go first: a peek starts at the head. */
	if (take_peeked(c))
		return 1;
	if (c->in_len == sizeof(c->in))
		return 1; /* cannot happen: a request is no longer than the buffer */
	if (c->proto == FRAME_VM_CTRL)
		n = recv_fds(c, c->in + c->in_len, sizeof(c->in) - c->in_len);
	else
		n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len,
			 MSG_DONTWAIT | (c->peek ? MSG_PEEK : 0));
	if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n <= 0)
		return 1; /* end of stream, or an error */
	c->in_len += (size_t)n;
	if (c->peek)
		c->peeked = (size_t)n;
	return process(c, now);
}

/* Whether ep, a VM endpoint, has its VM's control connection open. */
static bool vm_bound(const struct endpoint *ep)
{
	for (size_t i = 0; i < CONNS_MAX; i++)
		if (conns[i] && conns[i]->ep == ep && conns[i]->proto == FRAME_VM_CTRL)
			return true;
	return false;
}

/* Logs a refused second peer: one line a second at most, with the count of the others. */
static void vm_refused(const struct endpoint *ep, uint64_t now)
{
	static uint64_t last;
	static unsigned int more;

	if (last && now - last < 1000) {
		more++;
		return;
	}
	log_info("VM: a second peer on %s refused: the TPM is the connected VM's (%u more "
		 "since the last such line)",
		 ep->unix_path[0], more);
	last = now;
	more = 0;
}

/* Takes one waiting peer; -1 when none waits. */
static int accept_one(struct endpoint *ep, int which, uint64_t now)
{
	struct conn *c = NULL;
	enum frame_proto proto = FRAME_VM_CTRL;
	int r = 0;
	int fd = accept4(ep->fd[which], NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return -1;
	if (ep->kind == LISTEN_VM && vm_bound(ep)) {
		/* Closed unread: another process must not reset or drive the VM's TPM. */
		vm_refused(ep, now);
		close(fd);
		return 0;
	}
	if (ep->kind == LISTEN_MSSIM)
		proto = which ? FRAME_MSSIM_PLATFORM : FRAME_MSSIM_TPM;
	else if (ep->kind == LISTEN_SWTPM)
		proto = which ? FRAME_SWTPM_CTRL : FRAME_SWTPM_DATA;
	c = conn_add(fd, ep, proto, now);
	if (!c) {
		log_error("no room for a new peer");
		return 0;
	}
	c->vm = ep->kind == LISTEN_VM;
	c->peek = !c->vm && ep->unix_path[which] != NULL;
	if (c->vm)
		log_info("VM: control connection on %s", ep->unix_path[0]);
	/* A TCTI sends its command right after connecting: take it now, not a poll later. */
	r = on_readable(c, now);
	if (r) {
		for (size_t i = 0; i < CONNS_MAX; i++)
			if (conns[i] == c)
				conns[i] = NULL;
		conn_free(c);
	}
	if (r < 0)
		tee_gone = true;
	return 0;
}

int serve_run(struct endpoint *eps, size_t n, int signal_fd)
{
	size_t nfds = 1 + 2 * n + CONNS_MAX;
	struct pollfd *p = calloc(nfds, sizeof(*p));
	/*
	 * A TCTI's next command (a new connection, for swtpm's) follows the last
	 * response within microseconds: waited for awake, as libteec waits for
	 * the TA, it finds the bridge running (msg_waiter_spin).
	 */
	static struct msg_backoff backoff;
	struct msg_waiter next = {.cap_ns = getenv("SWTEE_NO_SPIN") ? 0 : MSG_SPIN_REQUEST_CAP_NS,
				  .backoff = &backoff};
	int rc = -1;

	if (!p)
		return -1;
	for (;;) {
		size_t k = 0;
		uint64_t now = 0;
		int r = 0;

		p[k++] = (struct pollfd){.fd = signal_fd, .events = POLLIN};
		for (size_t i = 0; i < n; i++)
			for (int j = 0; j < 2; j++)
				p[k++] = (struct pollfd){.fd = eps[i].fd[j], .events = POLLIN};
		for (size_t i = 0; i < CONNS_MAX; i++) {
			struct conn *c = conns[i];

			p[k] = (struct pollfd){.fd = -1};
			if (c)
				p[k] = (struct pollfd){.fd = c->fd,
						       .events = c->out_len ? POLLOUT : POLLIN};
			k++;
		}
		now = msg_now_ns();
		r = msg_waiter_spin(&next, p, k) ? 1 : poll(p, k, POLL_MS);
		next.last_ns = msg_now_ns() - now;
		if (r < 0 && errno != EINTR) {
			log_error("poll: %s", strerror(errno));
			goto out;
		}
		now = now_ms();
		if (p[0].revents) {
			rc = 0;
			goto out;
		}
		/*
		 * One peer per socket and round: a client connects per command
		 * (the swtpm TCTI), and a second accept would only find none.
		 * Others waiting keep the socket readable for the next round.
		 */
		for (size_t i = 0; i < n; i++)
			for (int j = 0; j < 2; j++)
				if (p[1 + 2 * i + (size_t)j].revents & POLLIN)
					accept_one(&eps[i], j, now);
		if (tee_gone)
			goto out;
		for (size_t i = 0; i < CONNS_MAX; i++) {
			struct conn *c = conns[i];
			short ev = p[1 + 2 * n + i].revents;
			int drop = 0;

			if (!c || p[1 + 2 * n + i].fd != c->fd)
				continue; /* a peer accepted in this round */
			if (ev & POLLOUT)
				drop = flush(c) ? 1 : process(c, now);
			else if (ev & (POLLIN | POLLHUP | POLLERR))
				drop = on_readable(c, now);
			/* A VM's channels end when QEMU closes them, or breaks the protocol. */
			if (!drop && !c->vm && c->pending_since &&
			    now - c->pending_since > STALL_MS) {
				log_debug("peer stalled mid-request; dropped");
				drop = 1;
			}
			if (drop < 0)
				goto out;
			if (drop) {
				conn_free(c);
				conns[i] = NULL;
			}
		}
	}
out:
	for (size_t i = 0; i < CONNS_MAX; i++) {
		conn_free(conns[i]);
		conns[i] = NULL;
	}
	free(p);
	return rc;
}
