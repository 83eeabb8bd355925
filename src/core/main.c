/*
 * swteed: the TEE core. Listens for clients and for tee-supplicant, keeps
 * the TA instances, and never trusts any of them.
 */
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core.h"
#include "image_wait.h"
#include "log.h"
#include "paths.h"
#include "ta_image.h"
#include "ta_version.h"

static int listen_on(const char *path, mode_t mode)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char dir[SWTEE_PATH_MAX];
	char *slash = NULL;
	int fd = -1;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		log_error("socket path too long: %s", path);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (paths_mkdir_p(dir, 0700)) {
			log_error("cannot create %s: %s", dir, strerror(errno));
			return -1;
		}
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || chmod(path, mode) || listen(fd, 128)) {
		log_error("cannot listen on %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The supplicant's socket. By default only the core's own user may connect.
 * With a supplicant user (privilege separation: tee-supplicant cannot read
 * the core's secrets), the socket belongs to that user when the core is
 * root, and otherwise to its primary group, of which the core's user must
 * be a member; supplicant_accept() checks the peer's uid as well.
 */
static int listen_supplicant(struct core *c, const char *path, const char *user)
{
	const struct passwd *pw = NULL;
	int rc = 0;

	c->supplicant_uid = getuid();
	if (!user) {
		c->listen_supplicant.fd = listen_on(path, 0600);
		return c->listen_supplicant.fd < 0 ? -1 : 0;
	}
	pw = getpwnam(user);
	if (!pw) {
		log_error("no such user: %s (--supplicant-user)", user);
		return -1;
	}
	c->supplicant_uid = pw->pw_uid;
	c->listen_supplicant.fd = listen_on(path, geteuid() == 0 ? 0600 : 0660);
	if (c->listen_supplicant.fd < 0)
		return -1;
	if (geteuid() == 0)
		rc = chown(path, pw->pw_uid, pw->pw_gid);
	else
		rc = chown(path, (uid_t)-1, pw->pw_gid);
	if (rc) {
		log_error("cannot give %s to user %s: %s (the core's user must be in group %u)",
			  path, user, strerror(errno), (unsigned int)pw->pw_gid);
		return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: swteed [options]\n"
	    "  -s, --socket PATH             client socket (default: $SWTEE_SOCKET, else\n"
	    "                                $XDG_RUNTIME_DIR/swtee/tee.sock)\n"
	    "      --supplicant-socket PATH  socket tee-supplicant connects to\n"
	    "                                (default: supplicant.sock beside the client socket)\n"
	    "      --supplicant-user NAME    tee-supplicant runs as user NAME: only NAME (and\n"
	    "                                the core's own user) may connect to its socket\n"
	    "  -k, --ta-key PEM              also trust TAs signed with this RSA key (for\n"
	    "                                the UUIDs its 'uuid UUID' lines list, or any)\n"
	    "      --ta-key-dir DIR          also trust every DIR/*.pem, as --ta-key (a\n"
	    "                                system TEE: /etc/swtee/ta-keys.d)\n"
	    "      --socket-group NAME       only members of group NAME may connect\n"
	    "      --secure-dir DIR          the core's own secrets: the storage HUK and\n"
	    "                                the emulated RPMB (swtee run passes secure/\n"
	    "                                in its state dir; without it, no storage)\n"
	    "      --socket-policy FILE      which TAs may reach which hosts and ports over\n"
	    "                                GP Sockets (default: loopback only; see\n"
	    "                                docs/sockets.md)\n"
	    "      --allow-ta-rollback       load a TA image older than one of its UUID\n"
	    "                                loaded before (refused by default; the\n"
	    "                                highest version is kept in the secure dir)\n"
	    "      --max-clients-per-user N  connections one user may hold (default 1024;\n"
	    "                                4096 in all)\n"
	    "      --max-sessions-per-client N  sessions one connection may hold (default 1024)\n"
	    "      --max-instances-per-user N  TA processes one user's sessions may keep,\n"
	    "                                TA to TA included (default 512)\n"
	    "      --max-opens-per-user N    session opens of one user in progress, those\n"
	    "                                of clients gone included (default 256)\n"
	    "      --no-ta-cgroups           no memory cgroup per TA process, rlimits only\n"
	    "                                (each costs a session open a cgroup migration;\n"
	    "                                docs/security.md)\n"
	    "      --ready-fd N              write a line to descriptor N once listening\n"
	    "  -v, --verbose                 more log (repeat for debug)\n"
	    "  -q, --quiet                   errors only\n"
	    "  -h, --help\n");
}

/* --max-*: a limit of at least 1. */
static int set_limit(struct core_limits *l, int opt, const char *arg)
{
	char *end = NULL;
	unsigned long v = 0;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || !v || v > UINT32_MAX) {
		fprintf(stderr, "swteed: a --max-* limit is a number from 1 to %u, not '%s'\n",
			UINT32_MAX, arg);
		return -1;
	}
	if (opt == 'C')
		l->clients_per_user = (uint32_t)v;
	else if (opt == 'E')
		l->sessions_per_client = (uint32_t)v;
	else if (opt == 'I')
		l->instances_per_user = (uint32_t)v;
	else
		l->opens_per_user = (uint32_t)v;
	return 0;
}

static void handle_signal(struct core *c)
{
	struct signalfd_siginfo si;

	while (read(c->sig.fd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD) {
			pid_t pid = 0;
			int status = 0;

			while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
				if (pid == c->zygote_pid) {
					log_error("the TA zygote ended (status 0x%x)", status);
					c->zygote_pid = 0;
				}
			}
		} else {
			log_info("signal %u: stopping", si.ssi_signo);
			c->stopping = true;
		}
	}
}

static void dispatch(struct core *c, struct endpoint *ep)
{
	switch (ep->kind) {
	case EP_LISTEN_CLIENT:
		client_accept(c);
		break;
	case EP_LISTEN_SUPPLICANT:
		supplicant_accept(c);
		break;
	case EP_CLIENT:
		client_readable(c, ep->owner);
		break;
	case EP_SUPPLICANT:
		supplicant_readable(c);
		break;
	case EP_ZYGOTE:
		instance_zygote_readable(c);
		break;
	case EP_INSTANCE:
		instance_readable(c, ep->owner);
		break;
	case EP_TA_LISTENER:
		ta_dlopen_notified(c, ep);
		break;
	case EP_TA_OUTPUT:
		ta_output_readable(c, ep->owner);
		break;
	case EP_SIGNAL:
		handle_signal(c);
		break;
	}
}

static const struct option opts[] = {
    {"socket", required_argument, NULL, 's'},
    {"supplicant-socket", required_argument, NULL, 'S'},
    {"supplicant-user", required_argument, NULL, 'U'},
    {"ta-key", required_argument, NULL, 'k'},
    {"ready-fd", required_argument, NULL, 'r'},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"socket-group", required_argument, NULL, 'g'},
    {"secure-dir", required_argument, NULL, 'd'},
    {"socket-policy", required_argument, NULL, 'P'},
    {"allow-ta-rollback", no_argument, NULL, 'R'},
    {"ta-key-dir", required_argument, NULL, 'K'},
    {"max-clients-per-user", required_argument, NULL, 'C'},
    {"max-sessions-per-client", required_argument, NULL, 'E'},
    {"max-instances-per-user", required_argument, NULL, 'I'},
    {"max-opens-per-user", required_argument, NULL, 'O'},
    {"no-ta-cgroups", no_argument, NULL, 'G'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* What the command line asks for, apart from the limits (kept in the core). */
struct core_args {
	char sock_path[SWTEE_PATH_MAX];
	char supp_path[SWTEE_PATH_MAX];
	char *extra_keys[CORE_MAX_KEYS];
	size_t nextra;
	int ready_fd;
	int level;
	const char *group;
	const char *supp_user;
	const char *secure_dir;
	const char *socket_policy;
	const char *key_dir;
	bool allow_rollback;
	bool no_cgroups;
};

/* One option into a or the core's limits: -1 to go on, else main's exit code. */
static int take_option(struct core *c, struct core_args *a, int opt)
{
	switch (opt) {
	case 's':
		snprintf(a->sock_path, sizeof(a->sock_path), "%s", optarg);
		break;
	case 'S':
		snprintf(a->supp_path, sizeof(a->supp_path), "%s", optarg);
		break;
	case 'U':
		a->supp_user = optarg;
		break;
	case 'k':
		if (a->nextra >= CORE_MAX_KEYS - 1) {
			fprintf(stderr, "swteed: too many --ta-key\n");
			return 2;
		}
		a->extra_keys[a->nextra++] = optarg;
		break;
	case 'r':
		a->ready_fd = atoi(optarg);
		break;
	case 'v':
		a->level++;
		break;
	case 'g':
		a->group = optarg;
		break;
	case 'd':
		a->secure_dir = optarg;
		break;
	case 'P':
		a->socket_policy = optarg;
		break;
	case 'R':
		a->allow_rollback = true;
		break;
	case 'K':
		a->key_dir = optarg;
		break;
	case 'G':
		a->no_cgroups = true;
		break;
	case 'C':
	case 'E':
	case 'I':
	case 'O':
		if (set_limit(&c->limits, opt, optarg))
			return 2;
		break;
	case 'q':
		a->level = LOG_LVL_ERROR;
		break;
	case 'h':
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}
	return -1;
}

/* The command line into a and the core's limits: -1 to go on, else main's exit code. */
static int parse_args(struct core *c, struct core_args *a, int argc, char **argv)
{
	int opt = 0;
	int rc = -1;

	c->limits = (struct core_limits){
	    .clients_per_user = CORE_CLIENTS_PER_USER,
	    .sessions_per_client = CORE_SESSIONS_PER_CLIENT,
	    .instances_per_user = CORE_INSTANCES_PER_USER,
	    .opens_per_user = CORE_OPENS_PER_USER,
	};
	while ((opt = getopt_long(argc, argv, "s:k:vqh", opts, NULL)) != -1) {
		rc = take_option(c, a, opt);
		if (rc >= 0)
			return rc;
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	return -1;
}

/* The log, the socket paths, the trusted keys, storage and the socket policy. */
static int configure(struct core *c, struct core_args *a)
{
	log_init("swteed", a->level);
	c->log_level = a->level;
	if (!a->sock_path[0] && paths_default_socket(a->sock_path, sizeof(a->sock_path))) {
		log_error("socket path too long");
		return -1;
	}
	if (!a->supp_path[0] &&
	    paths_supplicant_socket(a->sock_path, a->supp_path, sizeof(a->supp_path))) {
		log_error("supplicant socket path too long");
		return -1;
	}
	if (ta_keys_load(c, a->extra_keys, a->nextra, a->key_dir))
		return -1;
	storage_init(a->secure_dir);
	ta_version_init(a->allow_rollback);
	if (a->socket_policy && sock_policy_load(a->socket_policy))
		return -1;
	return 0;
}

/* Descriptors, core dumps and signals: the signals of mask are blocked, read from a signalfd. */
static void process_setup(sigset_t *mask)
{
	struct rlimit rl;

	/* Each client and instance is a descriptor: allow as many as we may. */
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	prctl(PR_SET_DUMPABLE, 0);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(mask);
	sigaddset(mask, SIGTERM);
	sigaddset(mask, SIGINT);
	sigaddset(mask, SIGHUP);
	sigaddset(mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, mask, NULL);
}

/*
 * The client socket (listen_client.fd stays -1 if it cannot be made, which
 * open_endpoints() reports by failing), with credentials and its group.
 */
static int listen_clients(struct core *c, const struct core_args *a)
{
	gid_t gid = 0;

	c->listen_client.kind = EP_LISTEN_CLIENT;
	if (a->group) {
		struct group *g = getgrnam(a->group);

		if (!g) {
			log_error("no such group: %s", a->group);
			return -1;
		}
		gid = g->gr_gid;
	}
	/* Without a group every local user may be a client; with one, its members. */
	c->listen_client.fd = listen_on(a->sock_path, a->group ? 0660 : 0666);
	/* Accepted connections inherit it: the kernel names the sender of each message. */
	if (c->listen_client.fd >= 0 &&
	    setsockopt(c->listen_client.fd, SOL_SOCKET, SO_PASSCRED, &(int){1}, sizeof(int))) {
		log_error("cannot ask for senders' credentials: %s", strerror(errno));
		return -1;
	}
	if (a->group && c->listen_client.fd >= 0 && chown(a->sock_path, (uid_t)-1, gid)) {
		log_error("cannot give %s to group %s: %s", a->sock_path, a->group,
			  strerror(errno));
		return -1;
	}
	return 0;
}

/* The epoll set, the signalfd and both listening sockets, watched. */
static int open_endpoints(struct core *c, const struct core_args *a, const sigset_t *mask)
{
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	c->sig.kind = EP_SIGNAL;
	c->sig.fd = signalfd(-1, mask, SFD_CLOEXEC | SFD_NONBLOCK);
	c->zygote.fd = -1;
	if (c->epfd < 0 || c->sig.fd < 0 || core_watch(c, &c->sig))
		return -1;
	if (listen_clients(c, a))
		return -1;
	c->listen_supplicant.kind = EP_LISTEN_SUPPLICANT;
	if (listen_supplicant(c, a->supp_path, a->supp_user))
		return -1;
	if (c->listen_client.fd < 0 || core_watch(c, &c->listen_client) ||
	    core_watch(c, &c->listen_supplicant))
		return -1;
	return 0;
}

/* The zygote, then the sandbox, then the readiness line to whoever started us. */
static int start(struct core *c, const struct core_args *a)
{
	ta_memcg_init(a->no_cgroups);
	if (instance_zygote_start(c)) {
		log_error("cannot start the TA zygote");
		return -1;
	}
	if (core_sandbox_enter()) {
		log_error("cannot load the core's seccomp allowlist");
		return -1;
	}
	log_info("listening on %s (supplicant: %s)", a->sock_path, a->supp_path);
	if (a->ready_fd >= 0) {
		if (write(a->ready_fd, "ready\n", 6) != 6)
			log_error("cannot signal readiness");
		close(a->ready_fd);
	}
	return 0;
}

/* The event loop, until a signal asks us to stop. */
static void run(struct core *c)
{
	bool outputs_waiting = false;

	while (!c->stopping) {
		struct epoll_event ev[32];
		struct timespec now;
		/* A TA's output waiting for its next window is read again soon. */
		int n = epoll_wait(c->epfd, ev, 32, outputs_waiting ? 20 : 1000);

		if (n < 0 && errno != EINTR) {
			log_error("epoll: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n; i++)
			dispatch(c, ev[i].data.ptr);
		ta_dlopen_reap();
		instance_spares_fill(c);
		clock_gettime(CLOCK_MONOTONIC, &now);
		open_tick(c, &now);
		image_wait_tick(c, &now);
		supplicant_tick(c, &now);
		outputs_waiting = ta_output_tick(c, &now);
		instance_reap_orphans(c);
	}
}

/* Everything stopped and released: main's exit code, 3 if the sandbox refused a call. */
static int shut_down(struct core *c, const struct core_args *a)
{
	open_fini(c);
	image_wait_fini();
	instance_shutdown_all(c);
	ta_dlopen_reap();
	ta_output_drain(c, 500);
	ta_memcg_fini();
	sockets_fini();
	ta_version_fini();
	storage_fini();
	unlink(a->sock_path);
	unlink(a->supp_path);
	for (size_t i = 0; i < c->nkeys; i++)
		EVP_PKEY_free(c->keys[i]);
	if (core_sandbox_refusals()) {
		log_error("the core sandbox refused %u system calls (see above)",
			  core_sandbox_refusals());
		return 3;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct core core;
	static struct core_args args = {.ready_fd = -1, .level = LOG_LVL_INFO};
	struct core *c = &core;
	sigset_t mask;
	int rc = parse_args(c, &args, argc, argv);

	if (rc >= 0)
		return rc;
	if (configure(c, &args))
		return 1;
	process_setup(&mask);
	if (open_endpoints(c, &args, &mask) || start(c, &args))
		return 1;
	run(c);
	return shut_down(c, &args);
}
