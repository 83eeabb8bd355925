/*
 * swtee-tpm: serves the firmware TPM TA of a running swtee to TPM 2.0
 * clients over the Microsoft simulator protocol (mssim) and the swtpm
 * socket protocol, on Unix sockets (by default) or, when asked, loopback
 * TCP ports (docs/tpm.md).
 */
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "bridge.h"
#include "log.h"
#include "paths.h"

#define ENDPOINTS_MAX 8
#define DEFAULT_MSSIM "127.0.0.1:2321"
#define DEFAULT_SWTPM "127.0.0.1:2323"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: swtee-tpm [--mssim ADDR]... [--swtpm ADDR]... [--socket-group NAME]\n"
		"                 [--tcp] [--manual-startup] [--ready-fd FD] [-v] [-q]\n"
		"       swtee-tpm --vm SOCKET [--ready-fd FD] [-v] [-q]\n"
		"  Serves the firmware TPM of the running swtee ($SWTEE_SOCKET) to TPM 2.0\n"
		"  clients such as tpm2-tools.\n"
		"  --mssim ADDR      the Microsoft simulator protocol: command port and\n"
		"                    platform port (tpm2-tools: -T mssim:...)\n"
		"  --swtpm ADDR      the swtpm socket protocol: data and control channels\n"
		"                    (tpm2-tools: -T swtpm:...)\n"
		"      ADDR is unix:PATH or a path with a '/' (Unix sockets PATH and\n"
		"      PATH.ctrl, mode 0600: for the bridge's user only), or, with --tcp,\n"
		"      PORT or HOST:PORT (TCP; the second socket on PORT+1). Without\n"
		"      either option: Unix sockets DIR/mssim and DIR/swtpm, DIR being\n"
		"      $XDG_RUNTIME_DIR/swtee-tpm, else /tmp/swtee-tpm-UID (made 0700).\n"
		"  --vm SOCKET       be one QEMU guest's TPM, and nothing else: QEMU's\n"
		"                    tpm-emulator backend on Unix socket SOCKET (0600):\n"
		"                    -chardev socket,id=chrtpm,path=SOCKET\n"
		"                    -tpmdev emulator,id=tpm0,chardev=chrtpm. The guest's\n"
		"                    firmware starts the TPM; one VM at a time\n"
		"  --socket-group NAME  the Unix sockets are also for the members of\n"
		"                    group NAME (mode 0660; the default DIR 0710)\n"
		"  --tcp             allow TCP addresses; without --mssim or --swtpm,\n"
		"                    --mssim %s --swtpm %s. A TCP port is open to\n"
		"                    every local user: any of them can drive the TPM\n"
		"  --manual-startup  a power-on from a client (mssim POWER_ON, swtpm INIT)\n"
		"                    leaves TPM2_Startup to the client; by default the TPM\n"
		"                    starts itself, as a firmware TPM does\n"
		"  --ready-fd FD     write \"ready\" to FD once serving, then close it\n"
		"  -v                more log (repeat for debug); -q less\n"
		"  Stopping (SIGTERM, SIGINT) shuts the TPM down in order: TPM2_Shutdown(CLEAR)\n"
		"  unless a client's TPM2_Shutdown was the last command.\n",
		DEFAULT_MSSIM, DEFAULT_SWTPM);
}

static int set_group(const char *name, struct listen_policy *p)
{
	struct group *g = getgrnam(name);

	if (!g) {
		log_error("no such group: %s", name);
		return -1;
	}
	p->group_set = true;
	p->gid = g->gr_gid;
	return 0;
}

/* The endpoints without --mssim and --swtpm; the addresses in dflt. */
static int default_endpoints(const struct listen_policy *p, struct endpoint eps[2],
			     char dflt[2][SWTEE_PATH_MAX + 16])
{
	char dir[SWTEE_PATH_MAX];

	if (p->tcp) {
		eps[0] = (struct endpoint){.kind = LISTEN_MSSIM, .addr = DEFAULT_MSSIM};
		eps[1] = (struct endpoint){.kind = LISTEN_SWTPM, .addr = DEFAULT_SWTPM};
	} else {
		if (listen_default_dir(p, dir, sizeof(dir)) ||
		    snprintf(dflt[0], sizeof(dflt[0]), "unix:%s/mssim", dir) >=
			(int)sizeof(dflt[0]) ||
		    snprintf(dflt[1], sizeof(dflt[1]), "unix:%s/swtpm", dir) >=
			(int)sizeof(dflt[1]))
			return -1;
		eps[0] = (struct endpoint){.kind = LISTEN_MSSIM, .addr = dflt[0]};
		eps[1] = (struct endpoint){.kind = LISTEN_SWTPM, .addr = dflt[1]};
	}
	for (int i = 0; i < 2; i++)
		eps[i].fd[0] = eps[i].fd[1] = -1;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"mssim", required_argument, NULL, 'm'},
	    {"swtpm", required_argument, NULL, 's'},
	    {"vm", required_argument, NULL, 'V'},
	    {"manual-startup", no_argument, NULL, 'M'},
	    {"ready-fd", required_argument, NULL, 'r'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"tcp", no_argument, NULL, 't'},
	    {"socket-group", required_argument, NULL, 'g'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static char dflt[2][SWTEE_PATH_MAX + 16];
	struct endpoint eps[ENDPOINTS_MAX];
	struct listen_policy policy = {.tcp = false};
	const char *group = NULL;
	size_t neps = 0;
	bool manual = false;
	bool vm = false;
	int ready_fd = -1;
	int level = LOG_LVL_INFO;
	int sfd = -1;
	int opt = 0;
	int rc = 1;
	sigset_t mask;

	memset(eps, 0, sizeof(eps));
	while ((opt = getopt_long(argc, argv, "vqh", opts, NULL)) != -1) {
		switch (opt) {
		case 'm':
		case 's':
		case 'V':
			if (neps == ENDPOINTS_MAX) {
				fprintf(stderr, "swtee-tpm: at most %d endpoints\n", ENDPOINTS_MAX);
				return 2;
			}
			vm |= opt == 'V';
			eps[neps].kind = opt == 'V'   ? LISTEN_VM
					 : opt == 'm' ? LISTEN_MSSIM
						      : LISTEN_SWTPM;
			eps[neps].addr = optarg;
			neps++;
			break;
		case 'M':
			manual = true;
			break;
		case 't':
			policy.tcp = true;
			break;
		case 'g':
			group = optarg;
			break;
		case 'r': {
			char *end = NULL;
			long v = strtol(optarg, &end, 10);

			if (*end || v < 0 || v > 65535) {
				fprintf(stderr, "swtee-tpm: bad --ready-fd\n");
				return 2;
			}
			ready_fd = (int)v;
			break;
		}
		case 'v':
			level++;
			break;
		case 'q':
			level = LOG_LVL_ERROR;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	/* A VM's TPM is its own: no other client could reset it or take its slots. */
	if (vm && (neps != 1 || policy.tcp || group)) {
		fprintf(stderr, "swtee-tpm: --vm serves one VM alone: no other endpoint, "
				"--tcp or --socket-group\n");
		return 2;
	}
	manual |= vm;
	for (size_t i = 0; i < ENDPOINTS_MAX; i++)
		eps[i].fd[0] = eps[i].fd[1] = -1;
	log_init("swtee-tpm", level);
	if (group && set_group(group, &policy))
		return 2;
	if (!neps && default_endpoints(&policy, eps, dflt))
		return 1;
	neps = neps ? neps : 2;
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0) {
		log_error("signalfd: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < neps; i++)
		if (listen_open(&eps[i], &policy))
			goto out;
	if (tpm_open(manual))
		goto out;
	/* The TA starts the TPM when a session opens; a VM's firmware does that itself. */
	if (vm && (tpm_power_off(true) || tpm_power_on())) {
		log_error("the fTPM does not power on for the VM");
		tpm_close();
		goto out;
	}
	if (ready_fd >= 0) {
		if (write(ready_fd, "ready\n", 6) != 6)
			log_error("cannot signal readiness");
		close(ready_fd);
		ready_fd = -1;
	}
	rc = serve_run(eps, neps, sfd) ? 1 : 0;
	tpm_close();
out:
	for (size_t i = 0; i < neps; i++)
		listen_close(&eps[i]);
	if (sfd >= 0)
		close(sfd);
	/* Unwritten: whoever waits on it sees the end of the pipe. */
	if (ready_fd >= 0)
		close(ready_fd);
	return rc;
}
