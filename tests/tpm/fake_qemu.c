/*
 * A stand-in for QEMU's tpm-emulator backend, driving swtee-tpm --vm SOCKET
 * byte for byte as QEMU does (backends/tpm/tpm_emulator.c): CMD_SET_DATAFD
 * with one end of a socketpair passed by SCM_RIGHTS, a TPM2_ReadClock on
 * it to learn the TPM's version, CMD_GET_CAPABILITY, the reset sequence
 * (CMD_STOP, CMD_SET_BUFFERSIZE, CMD_INIT), CMD_SET_LOCALITY with QEMU's
 * 4-byte payload, then the guest firmware's TPM2_Startup through the data
 * channel, and so on; every answer is checked, sizes included.
 *
 * Then what another local process can do to the VM's TPM: connect to the
 * VM socket and send CMD_INIT (refused unread: a PCR the guest extended is
 * unchanged), connect many times (the VM's channels stay); and that no
 * resource manager sits between the guest and the TPM (the fourth
 * transient object gets TPM_RC_OBJECT_MEMORY, the first stays loaded).
 *
 * usage: tpm_fake_qemu SOCKET
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define CMD_GET_CAPABILITY 0x01
#define CMD_INIT 0x02
#define CMD_SHUTDOWN 0x03
#define CMD_GET_TPMESTABLISHED 0x04
#define CMD_SET_LOCALITY 0x05
#define CMD_CANCEL_TPM_CMD 0x09
#define CMD_RESET_TPMESTABLISHED 0x0b
#define CMD_GET_STATEBLOB 0x0c
#define CMD_STOP 0x0e
#define CMD_SET_DATAFD 0x10
#define CMD_SET_BUFFERSIZE 0x11
#define PTM_BAD_ORDINAL 10

/* What QEMU needs of a TPM 2.0 emulator (tpm_emulator_check_caps). */
/* INIT SHUTDOWN GET_EST SET_LOC RESET_EST SET_DATAFD STOP SET_BUF */
#define QEMU_TPM2_CAPS 0x348fu
#define CAPS_STATEBLOBS 0x300u

#define RC_INITIALIZE 0x100
#define RC_OBJECT_MEMORY 0x902

static const char *sock_path;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void send_all(int fd, const void *p, size_t n)
{
	if (send(fd, p, n, MSG_NOSIGNAL) != (ssize_t)n)
		die("send: %s", strerror(errno));
}

/* Reads exactly n bytes within 20 s; what QEMU's qemu_chr_fe_read_all does. */
static void recv_all(int fd, void *p, size_t n, const char *what)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		ssize_t r = 0;

		if (poll(&pf, 1, 20000) != 1)
			die("%s: no answer (%zu of %zu bytes)", what, got, n);
		r = recv(fd, (uint8_t *)p + got, n - got, 0);
		if (r <= 0)
			die("%s: connection closed after %zu of %zu bytes", what, got, n);
		got += (size_t)r;
	}
}

/* Nothing more than asked for came: an answer of the wrong size shows here. */
static void no_more(int fd, const char *what)
{
	struct pollfd pf = {.fd = fd, .events = POLLIN};
	uint8_t b = 0;

	if (poll(&pf, 1, 100) == 1 && recv(fd, &b, 1, MSG_DONTWAIT) > 0)
		die("%s: more bytes than the answer's size", what);
}

/* One control command as tpm_emulator_ctrlcmd sends it: code, payload; then the answer. */
static void ctrl(int fd, uint32_t cmd, const void *in, size_t nin, void *out, size_t nout,
		 const char *what)
{
	uint8_t buf[64];

	put32(buf, cmd);
	if (nin)
		memcpy(buf + 4, in, nin);
	send_all(fd, buf, 4 + nin);
	recv_all(fd, out, nout, what);
	no_more(fd, what);
}

/* A control command whose whole answer is a result code, which must be 0. */
static void ctrl_ok(int fd, uint32_t cmd, const void *in, size_t nin, const char *what)
{
	uint8_t res[4];

	ctrl(fd, cmd, in, nin, res, sizeof(res), what);
	if (get32(res))
		die("%s: result 0x%x", what, get32(res));
}

static int connect_vm(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || strlen(sock_path) >= sizeof(sa.sun_path))
		die("socket");
	memcpy(sa.sun_path, sock_path, strlen(sock_path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect %s: %s", sock_path, strerror(errno));
	return fd;
}

/* CMD_SET_DATAFD passing fd (none when -1); the result code. */
static uint32_t send_datafd(int ctl, int fd)
{
	uint8_t code[4];
	uint8_t res[4];
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} cbuf;
	struct iovec iov = {.iov_base = code, .iov_len = sizeof(code)};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *h = NULL;

	put32(code, CMD_SET_DATAFD);
	if (fd >= 0) {
		m.msg_control = cbuf.b;
		m.msg_controllen = sizeof(cbuf.b);
		h = CMSG_FIRSTHDR(&m);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(h), &fd, sizeof(int));
	}
	if (sendmsg(ctl, &m, MSG_NOSIGNAL) != (ssize_t)sizeof(code))
		die("sendmsg: %s", strerror(errno));
	recv_all(ctl, res, sizeof(res), "CMD_SET_DATAFD");
	no_more(ctl, "CMD_SET_DATAFD");
	return get32(res);
}

/* CMD_SET_DATAFD without a descriptor, or with a pipe: refused, the connection kept. */
static void bad_datafd(int ctl)
{
	int p[2] = {-1, -1};

	if (!send_datafd(ctl, -1))
		die("CMD_SET_DATAFD without a descriptor accepted");
	if (pipe(p))
		die("pipe");
	if (!send_datafd(ctl, p[0]))
		die("CMD_SET_DATAFD with a pipe accepted");
	close(p[0]);
	close(p[1]);
}

/* tpm_emulator_prepare_data_fd: a socketpair, one end passed with CMD_SET_DATAFD. */
static int set_datafd(int ctl)
{
	int sv[2] = {-1, -1};
	uint32_t res = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		die("socketpair");
	res = send_datafd(ctl, sv[1]);
	close(sv[1]);
	if (res)
		die("CMD_SET_DATAFD: result 0x%x", res);
	return sv[0];
}

/* One TPM command on the data channel (tpm_emulator_unix_tx_bufs); the response code. */
static uint32_t tpm(int data, const uint8_t *cmd, size_t len, uint8_t *rsp, size_t *rsp_len)
{
	uint8_t hdr[10];
	uint32_t size = 0;

	send_all(data, cmd, len);
	recv_all(data, hdr, sizeof(hdr), "TPM response header");
	size = get32(hdr + 2);
	if ((hdr[0] != 0x80 || (hdr[1] != 1 && hdr[1] != 2)) || size < 10 || size > 4096)
		die("bad TPM response header");
	memcpy(rsp, hdr, sizeof(hdr));
	recv_all(data, rsp + 10, size - 10, "TPM response");
	*rsp_len = size;
	return get32(hdr + 6);
}

static uint32_t tpm_simple(int data, const uint8_t *cmd, size_t len)
{
	uint8_t rsp[4096];
	size_t n = 0;

	return tpm(data, cmd, len, rsp, &n);
}

/* A command with a password session for the empty auth (TPM_RS_PW) after handles. */
static size_t with_pw(uint8_t *c, uint32_t cc, const uint32_t *handles, size_t nh,
		      const uint8_t *params, size_t np)
{
	static const uint8_t pw[13] = {0, 0, 0, 9, 0x40, 0, 0, 9, 0, 0, 0, 0, 0};
	size_t n = 10;

	c[0] = 0x80;
	c[1] = 0x02;
	put32(c + 6, cc);
	for (size_t i = 0; i < nh; i++, n += 4)
		put32(c + n, handles[i]);
	memcpy(c + n, pw, sizeof(pw));
	n += sizeof(pw);
	memcpy(c + n, params, np);
	n += np;
	put32(c + 2, (uint32_t)n);
	return n;
}

/* CreatePrimary(TPM_RH_NULL, ECC P-256, the kernel's null-key template). */
static uint32_t create_primary(int data, uint32_t *handle)
{
	static const uint8_t params[] = {
	    0, 4,    0, 0,    0, 0,			    /* inSensitive */
	    0, 26,   0, 0x23, 0, 0x0b, 0, 3,	0x04, 0x72, /* inPublic: ECC, SHA-256, attrs */
	    0, 0,    0, 6,    0, 128,  0, 0x43,		    /* no policy, AES-128-CFB */
	    0, 0x10, 0, 3,    0, 0x10, 0, 0,	0,    0,    /* no scheme, P-256, no KDF, unique */
	    0, 0,    0, 0,    0, 0,			    /* outsideInfo, creationPCR */
	};
	const uint32_t hier = 0x40000007;
	uint8_t c[128];
	uint8_t rsp[4096];
	size_t n = 0;
	uint32_t rc = tpm(data, c, with_pw(c, 0x131, &hier, 1, params, sizeof(params)), rsp, &n);

	*handle = rc == 0 && n >= 14 ? get32(rsp + 10) : 0;
	return rc;
}

static uint32_t read_public(int data, uint32_t handle)
{
	uint8_t c[14] = {0x80, 0x01, 0, 0, 0, 14, 0, 0, 0x01, 0x73};

	put32(c + 10, handle);
	return tpm_simple(data, c, sizeof(c));
}

static void flush(int data, uint32_t handle)
{
	uint8_t c[14] = {0x80, 0x01, 0, 0, 0, 14, 0, 0, 0x01, 0x65};

	put32(c + 10, handle);
	if (tpm_simple(data, c, sizeof(c)))
		die("FlushContext 0x%08x", handle);
}

/* PCR 10's SHA-256 value. */
static void pcr10(int data, uint8_t out[32])
{
	static const uint8_t c[] = {0x80, 1, 0, 0, 0, 20,   0, 0, 0x01, 0x7e,
				    0,	  0, 0, 1, 0, 0x0b, 3, 0, 4,	0};
	uint8_t rsp[4096];
	size_t n = 0;

	if (tpm(data, c, sizeof(c), rsp, &n) || n != 30 + 32 || get32(rsp + 24) != 1)
		die("PCR_Read");
	memcpy(out, rsp + 30, 32);
}

static void pcr10_extend(int data)
{
	uint8_t p[4 + 2 + 32] = {0, 0, 0, 1, 0, 0x0b};
	const uint32_t pcr = 10;
	uint8_t c[128];

	memset(p + 6, 0xa5, 32);
	if (tpm_simple(data, c, with_pw(c, 0x182, &pcr, 1, p, sizeof(p))))
		die("PCR_Extend");
}

/* What QEMU sends before the guest runs: the version probe, capabilities, a reset. */
static void qemu_start(int ctl, int data, bool fresh)
{
	static const uint8_t read_clock[] = {0x80, 1, 0, 0, 0, 10, 0, 0, 0x01, 0x81};
	uint8_t rsp[4096];
	uint8_t caps[8];
	uint8_t bs[16];
	uint8_t arg[4] = {0};
	size_t n = 0;
	uint32_t rc = tpm(data, read_clock, sizeof(read_clock), rsp, &n);

	/* tpm_util_test_tpmdev: a TPM 2.0 answers with tag TPM_ST_NO_SESSIONS. */
	if (rsp[0] != 0x80 || rsp[1] != 0x01)
		die("ReadClock: not a TPM 2.0 answer");
	/* The firmware's Startup is still to come (after SHUTDOWN the TPM is off). */
	if (fresh && rc != RC_INITIALIZE)
		die("ReadClock before Startup: 0x%x, not TPM_RC_INITIALIZE", rc);
	ctrl(ctl, CMD_GET_CAPABILITY, NULL, 0, caps, sizeof(caps), "CMD_GET_CAPABILITY");
	if (get32(caps) || (get32(caps + 4) & QEMU_TPM2_CAPS) != QEMU_TPM2_CAPS)
		die("capabilities 0x%08x%08x lack what QEMU needs", get32(caps), get32(caps + 4));
	if (get32(caps + 4) & CAPS_STATEBLOBS)
		die("state blobs offered");
	/* tpm_emulator_get_buffer_size, then startup_tpm: STOP + SET_BUFFERSIZE, twice; INIT. */
	for (int i = 0; i < 2; i++) {
		ctrl_ok(ctl, CMD_STOP, NULL, 0, "CMD_STOP");
		put32(arg, i ? 4096 : 0);
		ctrl(ctl, CMD_SET_BUFFERSIZE, arg, 4, bs, sizeof(bs), "CMD_SET_BUFFERSIZE");
		if (get32(bs) || get32(bs + 4) != 4096 || get32(bs + 8) > 4096 ||
		    get32(bs + 12) < 4096)
			die("CMD_SET_BUFFERSIZE answer");
	}
	put32(arg, 0);
	ctrl_ok(ctl, CMD_INIT, arg, 4, "CMD_INIT");
}

/* The guest's firmware and kernel: locality, Startup, GetRandom, the established flag. */
static void guest_boot(int ctl, int data)
{
	static const uint8_t startup[] = {0x80, 1, 0, 0, 0, 12, 0, 0, 0x01, 0x44, 0, 0};
	static const uint8_t getrandom[] = {0x80, 1, 0, 0, 0, 12, 0, 0, 0x01, 0x7b, 0, 16};
	uint8_t loc[4] = {0}; /* ptm_loc: UINT8 locality in a 4-byte union */
	uint8_t est[8];
	uint8_t rsp[4096];
	size_t n = 0;
	uint32_t rc = 0;

	ctrl_ok(ctl, CMD_SET_LOCALITY, loc, 4, "CMD_SET_LOCALITY(0)");
	rc = tpm_simple(data, startup, sizeof(startup));
	if (rc)
		die("the firmware's TPM2_Startup(CLEAR): 0x%x (0x100: the bridge had started it)",
		    rc);
	if (tpm(data, getrandom, sizeof(getrandom), rsp, &n) || n != 10 + 2 + 16)
		die("GetRandom");
	ctrl(ctl, CMD_GET_TPMESTABLISHED, NULL, 0, est, sizeof(est), "CMD_GET_TPMESTABLISHED");
	if (get32(est))
		die("CMD_GET_TPMESTABLISHED: result 0x%x", get32(est));
	loc[0] = 3;
	ctrl_ok(ctl, CMD_SET_LOCALITY, loc, 4, "CMD_SET_LOCALITY(3)");
	ctrl_ok(ctl, CMD_RESET_TPMESTABLISHED, loc, 4, "CMD_RESET_TPMESTABLISHED(3)");
	loc[0] = 0;
	ctrl_ok(ctl, CMD_SET_LOCALITY, loc, 4, "CMD_SET_LOCALITY(0)");
	ctrl_ok(ctl, CMD_CANCEL_TPM_CMD, NULL, 0, "CMD_CANCEL_TPM_CMD");
}

/* The bridge closed fd without another byte. */
static bool closed_unanswered(int fd)
{
	struct pollfd pf = {.fd = fd, .events = POLLIN};
	uint8_t b = 0;

	return poll(&pf, 1, 20000) == 1 && recv(fd, &b, 1, 0) <= 0;
}

/* Another local process tries INIT on the VM socket, and many connect: none is served. */
static void intruders(int data)
{
	uint8_t before[32];
	uint8_t after[32];
	uint8_t init[8] = {0, 0, 0, CMD_INIT, 0, 0, 0, 0};
	int fds[80];
	int other = -1;

	pcr10_extend(data);
	pcr10(data, before);
	other = connect_vm();
	send(other, init, sizeof(init), MSG_NOSIGNAL);
	if (!closed_unanswered(other))
		die("a second peer on the VM socket was answered");
	close(other);
	pcr10(data, after);
	if (memcmp(before, after, sizeof(before)))
		die("a second peer's CMD_INIT reset the VM's TPM (PCR 10 changed)");
	for (size_t i = 0; i < 80; i++)
		fds[i] = connect_vm();
	for (size_t i = 0; i < 80; i++)
		close(fds[i]);
	pcr10(data, after);
	if (memcmp(before, after, sizeof(before)))
		die("PCR 10 changed after 80 other peers");
}

/* No resource manager on the guest's channel: the TPM's own 3 slots, and its 0x902. */
static void no_resource_manager(int data)
{
	uint32_t h[4] = {0};
	uint32_t rc = 0;

	for (int i = 0; i < 3; i++)
		if (create_primary(data, &h[i]))
			die("CreatePrimary %d", i + 1);
	rc = create_primary(data, &h[3]);
	if (rc != RC_OBJECT_MEMORY)
		die("a fourth transient object: 0x%x, not TPM_RC_OBJECT_MEMORY", rc);
	for (int i = 0; i < 3; i++)
		if (read_public(data, h[i]))
			die("object %d (0x%08x) gone", i + 1, h[i]);
	for (int i = 0; i < 3; i++)
		flush(data, h[i]);
}

int main(int argc, char **argv)
{
	uint8_t res[16];
	uint8_t gs[12] = {0};
	int ctl = -1;
	int data = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: tpm_fake_qemu SOCKET\n");
		return 2;
	}
	sock_path = argv[1];
	ctl = connect_vm();
	bad_datafd(ctl);
	data = set_datafd(ctl);
	qemu_start(ctl, data, true);
	guest_boot(ctl, data);
	intruders(data);
	no_resource_manager(data);
	/* A state blob is refused with the whole fixed answer QEMU reads. */
	ctrl(ctl, CMD_GET_STATEBLOB, gs, sizeof(gs), res, sizeof(res), "CMD_GET_STATEBLOB");
	if (get32(res) != PTM_BAD_ORDINAL)
		die("CMD_GET_STATEBLOB: result 0x%x", get32(res));
	/* QEMU's exit: SHUTDOWN; the bridge serves on with the TPM off. */
	ctrl_ok(ctl, CMD_SHUTDOWN, NULL, 0, "CMD_SHUTDOWN");
	/* An unknown code: refused, then the connection closed (its length is unknown). */
	{
		uint8_t bad[4] = {0, 0, 0, 0x77};
		uint8_t r4[4];

		send_all(ctl, bad, sizeof(bad));
		recv_all(ctl, r4, sizeof(r4), "unknown control code");
		if (get32(r4) != PTM_BAD_ORDINAL)
			die("unknown control code: result 0x%x", get32(r4));
		if (!closed_unanswered(ctl))
			die("the connection stayed open after an unknown code");
	}
	close(data);
	close(ctl);
	/* The VM gone, the next one (QEMU started again) gets the TPM. */
	ctl = connect_vm();
	data = set_datafd(ctl);
	qemu_start(ctl, data, false);
	guest_boot(ctl, data);
	ctrl_ok(ctl, CMD_SHUTDOWN, NULL, 0, "CMD_SHUTDOWN");
	close(data);
	close(ctl);
	printf("ok\n");
	return 0;
}
