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

/* What the command line asks for. */
struct tpm_options {
	struct endpoint eps[ENDPOINTS_MAX];
	struct listen_policy policy;
	const char *group;
	size_t neps;
	bool manual;
	bool vm;
	int ready_fd;
	int level;
};

/* Adds the endpoint of option opt (--mssim, --swtpm or --vm) at addr; 2 when full, else 0. */
static int add_endpoint(struct tpm_options *o, int opt, const char *addr)
{
	if (o->neps == ENDPOINTS_MAX) {
		fprintf(stderr, "swtee-tpm: at most %d endpoints\n", ENDPOINTS_MAX);
		return 2;
	}
	o->vm |= opt == 'V';
	o->eps[o->neps].kind = opt == 'V' ? LISTEN_VM : opt == 'm' ? LISTEN_MSSIM : LISTEN_SWTPM;
	o->eps[o->neps].addr = addr;
	o->neps++;
	return 0;
}

/* Reads --ready-fd's argument into o->ready_fd; 2 when it is no descriptor number, else 0. */
static int set_ready_fd(struct tpm_options *o, const char *arg)
{
	char *end = NULL;
	long v = strtol(arg, &end, 10);

	if (*end || v < 0 || v > 65535) {
		fprintf(stderr, "swtee-tpm: bad --ready-fd\n");
		return 2;
	}
	o->ready_fd = (int)v;
	return 0;
}

/* Handles one option opt of getopt_long; -1 to go on, else the exit status. */
static int take_option(struct tpm_options *o, int opt)
{
	switch (opt) {
	case 'm':
	case 's':
	case 'V':
		return add_endpoint(o, opt, optarg) ? 2 : -1;
	case 'M':
		o->manual = true;
		return -1;
	case 't':
		o->policy.tcp = true;
		return -1;
	case 'g':
		o->group = optarg;
		return -1;
	case 'r':
		return set_ready_fd(o, optarg) ? 2 : -1;
	case 'v':
		o->level++;
		return -1;
	case 'q':
		o->level = LOG_LVL_ERROR;
		return -1;
	case 'h':
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}
}

/* Fills o from the command line; -1 to run, else the exit status. */
static int parse_options(int argc, char **argv, struct tpm_options *o)
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
	int opt = 0;
	int rc = -1;

	while ((opt = getopt_long(argc, argv, "vqh", opts, NULL)) != -1)
		if ((rc = take_option(o, opt)) >= 0)
			return rc;
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	/* A VM's TPM is its own: no other client could reset it or take its slots. */
	if (o->vm && (o->neps != 1 || o->policy.tcp || o->group)) {
		fprintf(stderr, "swtee-tpm: --vm serves one VM alone: no other endpoint, "
				"--tcp or --socket-group\n");
		return 2;
	}
	o->manual |= o->vm;
	return -1;
}

/* Blocks the stop signals and returns a signalfd that reports them, or -1. */
static int stop_signals_fd(void)
{
	sigset_t mask;
	int sfd = -1;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		log_error("signalfd: %s", strerror(errno));
	return sfd;
}

/* Opens the listeners and the TPM (powered on for a VM); 0, or -1 with the TPM closed. */
static int open_listeners_and_tpm(struct tpm_options *o)
{
	for (size_t i = 0; i < o->neps; i++)
		if (listen_open(&o->eps[i], &o->policy))
			return -1;
	if (tpm_open(o->manual))
		return -1;
	/* The TA starts the TPM when a session opens; a VM's firmware does that itself. */
	if (o->vm && (tpm_power_off(true) || tpm_power_on())) {
		log_error("the fTPM does not power on for the VM");
		tpm_close();
		return -1;
	}
	return 0;
}

/* Writes "ready" to o->ready_fd, if any, and closes it. */
static void signal_ready(struct tpm_options *o)
{
	if (o->ready_fd < 0)
		return;
	if (write(o->ready_fd, "ready\n", 6) != 6)
		log_error("cannot signal readiness");
	close(o->ready_fd);
	o->ready_fd = -1;
}

/* Serves the fTPM on the endpoints asked for until a stop signal. */
int main(int argc, char **argv)
{
	static char dflt[2][SWTEE_PATH_MAX + 16];
	static struct tpm_options o = {.ready_fd = -1, .level = LOG_LVL_INFO};
	int sfd = -1;
	int rc = parse_options(argc, argv, &o);

	if (rc >= 0)
		return rc;
	rc = 1;
	for (size_t i = 0; i < ENDPOINTS_MAX; i++)
		o.eps[i].fd[0] = o.eps[i].fd[1] = -1;
	log_init("swtee-tpm", o.level);
	if (o.group && set_group(o.group, &o.policy))
		return 2;
	if (!o.neps && default_endpoints(&o.policy, o.eps, dflt))
		return 1;
	o.neps = o.neps ? o.neps : 2;
	sfd = stop_signals_fd();
	if (sfd < 0 || open_listeners_and_tpm(&o))
		goto out;
	signal_ready(&o);
	rc = serve_run(o.eps, o.neps, sfd) ? 1 : 0;
	tpm_close();
out:
	for (size_t i = 0; i < o.neps; i++)
		listen_close(&o.eps[i]);
	if (sfd >= 0)
		close(sfd);
	/* Unwritten: whoever waits on it sees the end of the pipe. */
	if (o.ready_fd >= 0)
		close(o.ready_fd);
	return rc;
}
