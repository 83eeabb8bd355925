/*
 * swtee bench crypto: the private TEE whose TA instances run without the
 * CPU's AES and SHA instructions.
 *
 * It is "swtee run --state DIR -- /bin/sh -c ..." with OpenSSL's capability
 * mask in its environment: swtee run passes its environment to swteed,
 * swteed to the zygote, and libcrypto reads the mask when the zygote loads
 * it, before any TA instance is forked. The command prints the TEE's
 * socket and waits for the end of its stdin, so the bench decides when the
 * TEE stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_crypto.h"
#include "bench_text.h"
#include "paths.h"

#define TEE_START_TIMEOUT_MS 30000
#define TEE_STOP_TIMEOUT_MS 10000

/*
 * x86: clear AES-NI (CPUID.1:ECX bit 25) and PCLMULQDQ (bit 1) in the first
 * word (ECX is its upper half), SHA (CPUID.7:EBX bit 29), VAES and
 * VPCLMULQDQ (CPUID.7:ECX bits 9 and 10, the upper half) in the second.
 * Arm: keep only NEON, leaving out the AES, PMULL and SHA extensions.
 */
#if defined(__x86_64__) || defined(__i386__)
#define TEE_MASK "OPENSSL_ia32cap=~0x200000200000000:~0x60020000000"
#elif defined(__aarch64__) || defined(__arm__)
#define TEE_MASK "OPENSSL_armcap=0x1"
#endif

/* The command swtee run runs: say where the TEE is, then hold it until stdin ends. */
static const char tee_hold_cmd[] = "printf '%s\\n' \"$SWTEE_SOCKET\" && exec cat >/dev/null";

const char *bench_crypto_tee_mask(const char **why)
{
#ifdef TEE_MASK
	*why = NULL;
	return TEE_MASK;
#else
	*why = "no OpenSSL capability mask is known for this CPU";
	return NULL;
#endif
}

static int tee_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	if (remove(path) && errno != ENOENT)
		fprintf(stderr, "swtee bench: removing %s: %s\n", path, strerror(errno));
	return 0;
}

/* Reads the socket line within the time limit; 0 or -1. */
static int tee_read_socket(int fd, char *out, size_t n)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	size_t len = 0;
	ssize_t got = 0;
	int r = 0;

	while (len + 1 < n) {
		do {
			r = poll(&p, 1, TEE_START_TIMEOUT_MS);
		} while (r < 0 && errno == EINTR);
		if (r <= 0)
			return -1;
		got = read(fd, out + len, n - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		len += (size_t)got;
		out[len] = '\0';
		if (strchr(out, '\n')) {
			*strchr(out, '\n') = '\0';
			return out[0] == '/' ? 0 : -1;
		}
	}
	return -1;
}

static void tee_exec(const char *swtee, const char *state, const char *mask, int in, int out)
{
	char *const argv[] = {
	    (char *)"swtee",   (char *)"run", (char *)"--state",    (char *)state, (char *)"--",
	    (char *)"/bin/sh", (char *)"-c",  (char *)tee_hold_cmd, NULL,
	};

	if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0)
		_exit(127);
	/* Nothing of the bench's (its TEE connections) but stdio. */
	close_range(3, ~0U, 0);
	if (putenv((char *)mask))
		_exit(127);
	execv(swtee, argv);
	_exit(127);
}

int bench_crypto_tee_start(struct bench_crypto_tee *t, char *why, size_t why_len)
{
	char swtee[SWTEE_PATH_MAX];
	char sock[SWTEE_PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	const char *no_mask = NULL;
	const char *mask = bench_crypto_tee_mask(&no_mask);
	int in[2] = {-1, -1};
	int out[2] = {-1, -1};
	int ret = -1;

	memset(t, 0, sizeof(*t));
	t->pid = -1;
	t->ctl = -1;
	if (!mask) {
		bench_text(why, why_len, "%s", no_mask);
		return -1;
	}
	if (paths_sibling("swtee", swtee, sizeof(swtee))) {
		bench_text(why, why_len, "cannot find the swtee executable");
		return -1;
	}
	if (!bench_fmt(t->state, sizeof(t->state), "%s/swtee-bench-crypto.XXXXXX",
		       tmp && *tmp ? tmp : "/tmp") ||
	    !mkdtemp(t->state)) {
		bench_text(why, why_len, "cannot create a state directory: %s", strerror(errno));
		t->state[0] = '\0';
		return -1;
	}
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		bench_text(why, why_len, "pipe: %s", strerror(errno));
		goto out;
	}
	t->pid = fork();
	if (t->pid < 0) {
		bench_text(why, why_len, "fork: %s", strerror(errno));
		goto out;
	}
	if (t->pid == 0)
		tee_exec(swtee, t->state, mask, in[0], out[1]);
	close(in[0]);
	close(out[1]);
	in[0] = out[1] = -1;
	t->ctl = in[1];
	in[1] = -1;
	if (tee_read_socket(out[0], sock, sizeof(sock))) {
		bench_text(why, why_len, "the private TEE (swtee run) did not start");
		goto out;
	}
	if (TEEC_InitializeContext(sock, &t->teec) != TEEC_SUCCESS) {
		bench_text(why, why_len, "cannot connect to the private TEE at %s", sock);
		goto out;
	}
	t->teec_open = true;
	ret = 0;
out:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	if (ret)
		bench_crypto_tee_stop(t);
	return ret;
}

/* Waits up to TEE_STOP_TIMEOUT_MS for pid; true when it ended. */
static bool tee_wait(pid_t pid)
{
	struct timespec ts = {.tv_nsec = 10 * 1000 * 1000};
	int i = 0;

	for (i = 0; i < TEE_STOP_TIMEOUT_MS / 10; i++) {
		pid_t r = waitpid(pid, NULL, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

void bench_crypto_tee_stop(struct bench_crypto_tee *t)
{
	if (t->teec_open)
		TEEC_FinalizeContext(&t->teec);
	t->teec_open = false;
	/* End of stdin: the command ends, and swtee run stops its TEE. */
	if (t->ctl >= 0)
		close(t->ctl);
	t->ctl = -1;
	if (t->pid > 0 && !tee_wait(t->pid)) {
		fprintf(stderr, "swtee bench: the private TEE did not stop; killing it\n");
		kill(t->pid, SIGTERM);
		if (!tee_wait(t->pid)) {
			kill(t->pid, SIGKILL);
			waitpid(t->pid, NULL, 0);
		}
	}
	t->pid = -1;
	if (t->state[0])
		nftw(t->state, tee_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	t->state[0] = '\0';
}
