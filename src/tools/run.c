/*
 * swtee run: a private TEE for one command. Starts swteed and tee-supplicant
 * in a fresh runtime directory, points the command's libteec at them, runs
 * it, stops everything, and exits with the command's status.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "paths.h"
#include "run.h"

#define MAX_TA_PATHS 16
#define READY_TIMEOUT_MS 15000
/* How long the supplicant may take to end on its own once the core is gone. */
#define SUPP_GRACE_MS 5000
#define READY_SLICE_MS 50

#define MAX_TA_KEYS 4
/* How often a supplicant that ends during the run is started again. */
#define SUPP_RESTARTS_MAX 5
#define SUPP_RESTART_DELAY_MS 100

struct run_opts {
	const char *state;
	const char *ta_paths[MAX_TA_PATHS];
	size_t nta_paths;
	char debug_ta[1024]; /* comma-separated UUIDs, or "*" */
	const char *debug_wrapper;
	bool allow_instrumented; /* TAs built with sanitizers or coverage */
	bool allow_rollback;	 /* swteed --allow-ta-rollback */
	int verbose;
	const char *tpm;	   /* --tpm: "mssim", "swtpm" or "vm:SOCKET"; NULL without */
	const char *socket_policy; /* --socket-policy FILE for swteed; NULL: loopback only */
	const char *plugin_path;   /* --plugin-path DIR for tee-supplicant; NULL: its default */
	const char *ta_keys[MAX_TA_KEYS]; /* --ta-key PEM for swteed, then $SWTEE_TA_KEY */
	size_t nta_keys;
	char **cmd;
};

static volatile sig_atomic_t got_signal;
static pid_t cmd_pid;

static void on_signal(int sig)
{
	got_signal = sig;
	if (cmd_pid > 0)
		kill(cmd_pid, sig);
}

static void run_usage(FILE *f)
{
	fprintf(f, "usage: swtee run [--state DIR] [--ta-path DIR]... [--socket-policy FILE]\n"
		   "                 [--plugin-path DIR] [--ta-key PEM]... [-v]\n"
		   "                 -- CMD [ARGS...]\n"
		   "  Starts a private TEE (swteed and tee-supplicant), runs CMD against it\n"
		   "  (SWTEE_SOCKET is set for CMD), stops the TEE and exits with CMD's status.\n"
		   "  --state DIR     persistent state (default: $SWTEE_STATE_DIR, else\n"
		   "                  $XDG_STATE_HOME/swtee, else ~/.local/state/swtee);\n"
		   "                  DIR/ree holds what the normal world sees, DIR/secure the\n"
		   "                  core's own secrets\n"
		   "  --ta-path DIR   look for TAs here before the installed lib/swtee/ta\n"
		   "  CMD also gets SWTEE_RUN_TA_DIR, a private TA directory searched first\n"
		   "  and removed at the end of the run\n"
		   "  --debug-ta UUID the instances of this TA (repeat, or '*' for all) wait\n"
		   "                  for a debugger to attach, printing their pid, or run\n"
		   "                  under --debug-wrapper; see docs/ta-development.md\n"
		   "  --debug-wrapper CMD\n"
		   "                  run the --debug-ta instances under CMD, e.g.\n"
		   "                  'gdbserver :1234' or 'valgrind --leak-check=full'\n"
		   "  --allow-instrumented\n"
		   "                  run TAs built with CFG_TA_SANITIZE or CFG_TA_COVERAGE\n"
		   "                  (without the sandbox); they are refused otherwise\n"
		   "  --allow-ta-rollback\n"
		   "                  load a TA image older than one of its UUID loaded\n"
		   "                  before (swteed --allow-ta-rollback); refused otherwise\n"
		   "  --tpm[=mssim|swtpm]\n"
		   "                  also start swtee-tpm, the bridge to the firmware TPM,\n"
		   "                  on Unix sockets, and point CMD's tpm2-tools at it\n"
		   "                  (TPM2TOOLS_TCTI; SWTEE_TPM_MSSIM_TCTI and\n"
		   "                  SWTEE_TPM_SWTPM_TCTI name both); see docs/tpm.md\n"
		   "  --tpm=vm:SOCKET\n"
		   "                  start swtee-tpm as one QEMU guest's TPM on Unix\n"
		   "                  socket SOCKET (-chardev socket,path=SOCKET -tpmdev\n"
		   "                  emulator,...); the guest's firmware starts the TPM\n"
		   "  --socket-policy FILE\n"
		   "                  which TAs may reach which hosts and ports over the GP\n"
		   "                  Sockets API (swteed --socket-policy; docs/sockets.md);\n"
		   "                  without it, the loopback addresses only\n"
		   "  --plugin-path DIR\n"
		   "                  tee-supplicant loads its plugins from DIR/*.plugin\n"
		   "                  (tee-supplicant -p; default: the installed\n"
		   "                  lib/swtee/plugins; docs/ta-development.md)\n"
		   "  --ta-key PEM    also trust TAs signed with this RSA key (public or\n"
		   "                  private PEM; swteed --ta-key), up to 4; with none,\n"
		   "                  $SWTEE_TA_KEY if set\n"
		   "  -v              verbose TEE log (repeat for debug)\n");
}

/*
 * The last resort, /tmp/swtee-state-UID, lies where every user may create
 * it first: whoever owned it could read the REE side and put an older copy
 * of the whole state back. It is made 0700 when missing, and used only when
 * it is a directory (not a link) of this user with no access for others.
 */
static int tmp_state_ok(const char *dir)
{
	struct stat st;
	const char *why = NULL;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		fprintf(stderr, "swtee run: cannot create the state dir %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	if (lstat(dir, &st)) {
		fprintf(stderr, "swtee run: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode))
		why = "it is a symbolic link";
	else if (!S_ISDIR(st.st_mode))
		why = "it is not a directory";
	else if (st.st_uid != getuid())
		why = "another user owns it";
	else if (st.st_mode & 077)
		why = "others have access to it (its mode is not 0700)";
	if (!why)
		return 0;
	fprintf(stderr,
		"swtee run: refusing the state dir %s: %s, so another user could read or "
		"replace the TEE's state. Pass --state DIR (or set SWTEE_STATE_DIR or HOME), "
		"or, if it is yours, chmod 0700 it; if it is not, remove it as root\n",
		dir, why);
	return -1;
}

static int default_state(char *out, size_t n)
{
	const char *env = getenv("SWTEE_STATE_DIR");
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	int r = 0;

	if (env && *env)
		r = snprintf(out, n, "%s", env);
	else if (xdg && *xdg)
		r = snprintf(out, n, "%s/swtee", xdg);
	else if (home && *home)
		r = snprintf(out, n, "%s/.local/state/swtee", home);
	else {
		r = snprintf(out, n, "/tmp/swtee-state-%u", (unsigned int)getuid());
		if (r >= 0 && (size_t)r < n && tmp_state_ok(out))
			return -1;
	}
	return r < 0 || (size_t)r >= n ? -1 : 0;
}

/* Forks and execs argv with the ready pipe's write end kept open. */
static pid_t start(char *const argv[], int keep_fd, int deathsig)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (deathsig)
		prctl(PR_SET_PDEATHSIG, deathsig);
	if (keep_fd >= 0)
		fcntl(keep_fd, F_SETFD, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	execv(argv[0], argv);
	fprintf(stderr, "swtee run: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/*
 * Waits until the child writes its ready line, exits, or time runs out. The
 * pipe stays open here (the next child gets it too), so an exit shows only
 * by waitpid: the wait is sliced.
 */
static int wait_ready(pid_t pid, int rfd, const char *what)
{
	struct pollfd p = {.fd = rfd, .events = POLLIN};
	char buf[16];
	int r = 0;
	int waited = 0;

	for (;;) {
		r = poll(&p, 1, READY_SLICE_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (r != 0)
			break;
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			fprintf(stderr, "swtee run: %s failed to start\n", what);
			return -1;
		}
		waited += READY_SLICE_MS;
		if (waited >= READY_TIMEOUT_MS)
			break;
	}
	if (r > 0 && read(rfd, buf, sizeof(buf)) > 0)
		return 0;
	if (r == 0)
		fprintf(stderr, "swtee run: %s did not start within %d s\n", what,
			READY_TIMEOUT_MS / 1000);
	else
		fprintf(stderr, "swtee run: %s failed to start\n", what);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

/* 0 for a clean exit; otherwise says how what ended, then then (a crash fails the run). */
static int report_end(const char *what, int status, const char *then)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		fprintf(stderr, "swtee run: %s exited with status %d%s\n", what,
			WEXITSTATUS(status), then);
	else if (WIFSIGNALED(status))
		fprintf(stderr, "swtee run: %s was killed by signal %d%s\n", what, WTERMSIG(status),
			then);
	return -1;
}

/*
 * Stops a TEE process: after grace_ms for it to end on its own, SIGTERM.
 * Returns 0 when it ended cleanly; otherwise says how it ended (a crash or
 * a sanitizer report in the TEE fails the run).
 */
static int stop(pid_t pid, const char *what, int grace_ms)
{
	int status = 0;
	pid_t r = 0;
	bool asked = false;

	if (pid <= 0)
		return 0;
	/* Already gone? Then it ended on its own, during the run or the grace. */
	r = waitpid(pid, &status, WNOHANG);
	for (int i = 0; i < grace_ms / 20 && r == 0; i++) {
		struct timespec ts = {.tv_nsec = 20 * 1000 * 1000};

		nanosleep(&ts, NULL);
		r = waitpid(pid, &status, WNOHANG);
	}
	if (r == 0) {
		asked = true;
		kill(pid, SIGTERM);
		for (int i = 0; i < 250 && r == 0; i++) {
			struct timespec ts = {.tv_nsec = 20 * 1000 * 1000};

			nanosleep(&ts, NULL);
			r = waitpid(pid, &status, WNOHANG);
		}
		if (r == 0) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "swtee run: %s did not stop on SIGTERM\n", what);
			return -1;
		}
	}
	if (asked && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM)
		return 0;
	return report_end(what, status, "");
}

static const struct option run_opts_table[] = {
    {"state", required_argument, NULL, 's'},
    {"ta-path", required_argument, NULL, 'l'},
    {"debug-ta", required_argument, NULL, 'D'},
    {"debug-wrapper", required_argument, NULL, 'W'},
    {"allow-instrumented", no_argument, NULL, 'I'},
    {"allow-ta-rollback", no_argument, NULL, 'R'},
    {"tpm", optional_argument, NULL, 'T'},
    {"socket-policy", required_argument, NULL, 'P'},
    {"plugin-path", required_argument, NULL, 'G'},
    {"ta-key", required_argument, NULL, 'K'},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* --debug-ta UUID: appended to the comma-separated list. */
static int add_debug_ta(struct run_opts *o, const char *uuid)
{
	if (strlen(o->debug_ta) + strlen(uuid) + 2 > sizeof(o->debug_ta)) {
		fprintf(stderr, "swtee run: too many --debug-ta\n");
		return -1;
	}
	if (o->debug_ta[0])
		strcat(o->debug_ta, ",");
	strcat(o->debug_ta, uuid);
	return 0;
}

/* --tpm[=PROTO]: the optional argument comes only in the option's own word, word. */
static int set_tpm(struct run_opts *o, const char *word)
{
	const char *eq = strchr(word, '=');

	o->tpm = eq ? eq + 1 : "mssim";
	if (strcmp(o->tpm, "mssim") != 0 && strcmp(o->tpm, "swtpm") != 0 &&
	    (strncmp(o->tpm, "vm:", 3) != 0 || !o->tpm[3])) {
		fprintf(stderr, "swtee run: --tpm takes mssim, swtpm or vm:SOCKET\n");
		return -1;
	}
	return 0;
}

/* One option into o (word: the argument it came in); --help exits. 0, or -1. */
static int take_option(struct run_opts *o, int opt, const char *word)
{
	switch (opt) {
	case 's':
		o->state = optarg;
		return 0;
	case 'l':
		if (o->nta_paths >= MAX_TA_PATHS) {
			fprintf(stderr, "swtee run: too many --ta-path\n");
			return -1;
		}
		o->ta_paths[o->nta_paths++] = optarg;
		return 0;
	case 'D':
		return add_debug_ta(o, optarg);
	case 'W':
		o->debug_wrapper = optarg;
		return 0;
	case 'I':
		o->allow_instrumented = true;
		return 0;
	case 'R':
		o->allow_rollback = true;
		return 0;
	case 'T':
		return set_tpm(o, word);
	case 'P':
		o->socket_policy = optarg;
		return 0;
	case 'G':
		o->plugin_path = optarg;
		return 0;
	case 'K':
		if (o->nta_keys >= MAX_TA_KEYS) {
			fprintf(stderr, "swtee run: at most %d --ta-key\n", MAX_TA_KEYS);
			return -1;
		}
		o->ta_keys[o->nta_keys++] = optarg;
		return 0;
	case 'v':
		o->verbose++;
		return 0;
	case 'h':
		run_usage(stdout);
		exit(0);
	default:
		run_usage(stderr);
		return -1;
	}
}

static int parse(int argc, char **argv, struct run_opts *o)
{
	const char *env_key = NULL;
	int opt = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+s:l:vh", run_opts_table, NULL)) != -1) {
		if (take_option(o, opt, argv[optind - 1]))
			return -1;
	}
	if (optind >= argc) {
		run_usage(stderr);
		return -1;
	}
	if (o->debug_wrapper && !o->debug_ta[0]) {
		fprintf(stderr, "swtee run: --debug-wrapper needs --debug-ta\n");
		return -1;
	}
	env_key = getenv("SWTEE_TA_KEY");
	if (!o->nta_keys && env_key && *env_key)
		o->ta_keys[o->nta_keys++] = env_key;
	o->cmd = argv + optind;
	return 0;
}

/* name=dir suffix[:old value]. */
static int prepend_env(const char *name, const char *dir, const char *suffix)
{
	const char *old = getenv(name);
	char *v = NULL;
	int r = old && *old ? asprintf(&v, "%s%s:%s", dir, suffix, old)
			    : asprintf(&v, "%s%s", dir, suffix);

	if (r < 0)
		return -1;
	r = setenv(name, v, 1);
	free(v);
	return r;
}

static int mkdir_private(const char *base, const char *sub, char *out, size_t n)
{
	int r = snprintf(out, n, "%s/%s", base, sub);

	if (r < 0 || (size_t)r >= n || paths_mkdir_p(out, 0700)) {
		fprintf(stderr, "swtee run: cannot create %s/%s: %s\n", base, sub, strerror(errno));
		return -1;
	}
	chmod(out, 0700);
	return 0;
}

/*
 * A state dir that cannot be written still serves reads (a read-only
 * medium, say): the run goes on, saying that changes will fail.
 */
static void warn_unwritable(const char *dir)
{
	if (access(dir, W_OK | X_OK) != 0)
		fprintf(stderr,
			"swtee run: warning: %s is not writable (%s): trusted storage can be read "
			"but not changed; pass --state DIR with a directory of yours\n",
			dir, strerror(errno));
}

/* The state dir and its ree/ and secure/, made when missing. */
static int state_dirs(const char *state, char *ree, size_t ree_n, char *secure, size_t secure_n)
{
	if (paths_mkdir_p(state, 0700)) {
		fprintf(stderr, "swtee run: cannot create the state dir %s: %s\n", state,
			strerror(errno));
		return -1;
	}
	if (mkdir_private(state, "ree", ree, ree_n) ||
	    mkdir_private(state, "secure", secure, secure_n))
		return -1;
	warn_unwritable(ree);
	warn_unwritable(secure);
	return 0;
}

static void remove_rundir(const char *dir)
{
	char p[SWTEE_PATH_MAX];
	char ta[SWTEE_PATH_MAX];
	DIR *d = NULL;
	struct dirent *e = NULL;

	if (!paths_join(ta, sizeof(ta), dir, "ta") && (d = opendir(ta))) {
		while ((e = readdir(d)))
			if (e->d_name[0] != '.' && !paths_join(p, sizeof(p), ta, e->d_name))
				unlink(p);
		closedir(d);
		rmdir(ta);
	}

	if (!paths_join(p, sizeof(p), dir, "tee.sock"))
		unlink(p);
	/* Left behind only if swtee-tpm did not end cleanly. */
	for (size_t i = 0; i < 4; i++) {
		static const char *const tpm[] = {"tpm.mssim", "tpm.mssim.ctrl", "tpm.swtpm",
						  "tpm.swtpm.ctrl"};

		if (!paths_join(p, sizeof(p), dir, tpm[i]))
			unlink(p);
	}
	if (!paths_join(p, sizeof(p), dir, "supplicant.sock"))
		unlink(p);
	rmdir(dir);
}

/*
 * --tpm: starts swtee-tpm on Unix sockets in the runtime dir (the TEE must
 * be up and SWTEE_SOCKET set) and sets the TCTI variables. 0, or -1 with
 * *pid -1.
 */
static int start_tpm(const struct run_opts *o, const char *rundir, pid_t *pid)
{
	char bin[SWTEE_PATH_MAX];
	char mssim[SWTEE_PATH_MAX + 32];
	char swtpm[SWTEE_PATH_MAX + 32];
	char tcti[2][SWTEE_PATH_MAX + 32];
	char fdarg[16];
	int pfd[2] = {-1, -1};
	int rc = -1;

	*pid = -1;
	if (paths_sibling("swtee-tpm", bin, sizeof(bin)) ||
	    snprintf(mssim, sizeof(mssim), "unix:%s/tpm.mssim", rundir) >= (int)sizeof(mssim) ||
	    snprintf(swtpm, sizeof(swtpm), "unix:%s/tpm.swtpm", rundir) >= (int)sizeof(swtpm) ||
	    pipe2(pfd, O_CLOEXEC))
		return -1;
	snprintf(fdarg, sizeof(fdarg), "%d", pfd[1]);
	if (!strncmp(o->tpm, "vm:", 3)) {
		/* One VM's TPM alone: no TCTI for CMD's tools. */
		char *argv_vm[] = {bin,		 "--vm", (char *)o->tpm + 3,
				   "--ready-fd", fdarg,	 o->verbose ? "-v" : "-q",
				   NULL};

		*pid = start(argv_vm, pfd[1], SIGTERM);
		close(pfd[1]);
		if (*pid < 0 || wait_ready(*pid, pfd[0], "swtee-tpm"))
			*pid = -1;
		else
			rc = 0;
		goto out;
	}
	{
		char *argv_tpm[] = {bin,   "--mssim",	 mssim, "--swtpm",
				    swtpm, "--ready-fd", fdarg, o->verbose ? "-v" : "-q",
				    NULL};

		*pid = start(argv_tpm, pfd[1], SIGTERM);
	}
	close(pfd[1]);
	if (*pid < 0 || wait_ready(*pid, pfd[0], "swtee-tpm")) {
		*pid = -1;
		goto out;
	}
	if (snprintf(tcti[0], sizeof(tcti[0]), "mssim:path=%s/tpm.mssim", rundir) >=
		(int)sizeof(tcti[0]) ||
	    snprintf(tcti[1], sizeof(tcti[1]), "swtpm:path=%s/tpm.swtpm", rundir) >=
		(int)sizeof(tcti[1]))
		goto out;
	setenv("SWTEE_TPM_MSSIM_TCTI", tcti[0], 1);
	setenv("SWTEE_TPM_SWTPM_TCTI", tcti[1], 1);
	setenv("TPM2TOOLS_TCTI", tcti[strcmp(o->tpm, "swtpm") == 0 ? 1 : 0], 1);
	rc = 0;
out:
	close(pfd[0]);
	return rc;
}

/*
 * Waits for CMD. A supplicant that ends meanwhile (a crash, or the core
 * dropped it for stalling) is reported and started again, at most
 * SUPP_RESTARTS_MAX times: TAs load again without the user's help. Returns
 * when CMD has ended (not reaped: the caller reaps it), when the core or the
 * TPM bridge ended first, or when the supplicant is given up; *failed
 * records a supplicant that did not end cleanly.
 */
static void supervise(pid_t *supp, char *const argv_supp[], const int pfd[2], bool *failed)
{
	int restarts = 0;

	for (;;) {
		siginfo_t si = {.si_pid = 0};
		int status = 0;

		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (si.si_pid != *supp)
			return; /* CMD, or a TEE process whose end stop() reports */
		waitpid(*supp, &status, 0);
		*supp = -1;
		if (report_end("tee-supplicant", status,
			       restarts < SUPP_RESTARTS_MAX ? "; starting it again" : ""))
			*failed = true;
		else
			fprintf(stderr, "swtee run: tee-supplicant ended; starting it again\n");
		if (restarts++ >= SUPP_RESTARTS_MAX) {
			fprintf(stderr,
				"swtee run: tee-supplicant ended %d times; TAs cannot load\n",
				restarts);
			return;
		}
		usleep(SUPP_RESTART_DELAY_MS * 1000 * restarts);
		*supp = start(argv_supp, pfd[1], SIGTERM);
		if (*supp < 0 || wait_ready(*supp, pfd[0], "tee-supplicant")) {
			*supp = -1;
			*failed = true;
			return;
		}
	}
}

/* One run's paths, processes and ready pipe; pids are -1 until started. */
struct run_env {
	char state[SWTEE_PATH_MAX];
	char ree[SWTEE_PATH_MAX];
	char secure[SWTEE_PATH_MAX];
	char rundir[SWTEE_PATH_MAX];
	char scratch[SWTEE_PATH_MAX];
	char sock[SWTEE_PATH_MAX];
	char supp_sock[SWTEE_PATH_MAX];
	char core_bin[SWTEE_PATH_MAX];
	char supp_bin[SWTEE_PATH_MAX];
	char ta_list[8192];
	char plugin_dir[SWTEE_PATH_MAX];
	char bindir[SWTEE_PATH_MAX];
	char fdarg[16];
	/* Room for the options added by start_supplicant() and the NULL after them. */
	char *argv_supp[16];
	pid_t core;
	pid_t supp;
	pid_t tpm;
	int pfd[2];
	bool supp_failed;
};

/*
 * The state dirs and a fresh runtime dir with its ta/ subdir. 0, or -1
 * with nothing left to remove.
 */
static int make_rundir(const struct run_opts *o, struct run_env *e, const char *tmp)
{
	if (o->state)
		snprintf(e->state, sizeof(e->state), "%s", o->state);
	else if (default_state(e->state, sizeof(e->state)))
		return -1;
	if (state_dirs(e->state, e->ree, sizeof(e->ree), e->secure, sizeof(e->secure)))
		return -1;
	snprintf(e->rundir, sizeof(e->rundir), "%s/swtee-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(e->rundir)) {
		fprintf(stderr, "swtee run: cannot create a runtime dir: %s\n", strerror(errno));
		return -1;
	}
	if (paths_join(e->scratch, sizeof(e->scratch), e->rundir, "ta") ||
	    mkdir(e->scratch, 0700)) {
		fprintf(stderr, "swtee run: cannot create %s/ta\n", e->rundir);
		rmdir(e->rundir);
		return -1;
	}
	return 0;
}

/* The --ta-path dirs, absolute, after the run's own TA dir and before the installed TAs. */
static int add_ta_paths(const struct run_opts *o, struct run_env *e)
{
	char def[SWTEE_PATH_MAX];

	for (size_t i = 0; i < o->nta_paths; i++) {
		char abs[SWTEE_PATH_MAX];

		if (!realpath(o->ta_paths[i], abs)) {
			fprintf(stderr, "swtee run: --ta-path %s: %s\n", o->ta_paths[i],
				strerror(errno));
			return -1;
		}
		strncat(e->ta_list, abs, sizeof(e->ta_list) - strlen(e->ta_list) - 2);
		strcat(e->ta_list, ":");
	}
	if (paths_sibling("../lib/swtee/ta", def, sizeof(def)))
		return -1;
	strncat(e->ta_list, def, sizeof(e->ta_list) - strlen(e->ta_list) - 1);
	return 0;
}

/* The sockets, the programs and the TA list of the run. */
static int find_paths(const struct run_opts *o, struct run_env *e)
{
	/* The run's own TA directory comes first: TAs dropped there load at once. */
	snprintf(e->ta_list, sizeof(e->ta_list), "%s:", e->scratch);
	if (paths_join(e->sock, sizeof(e->sock), e->rundir, "tee.sock") ||
	    paths_join(e->supp_sock, sizeof(e->supp_sock), e->rundir, "supplicant.sock") ||
	    paths_sibling("swteed", e->core_bin, sizeof(e->core_bin)) ||
	    paths_sibling("tee-supplicant", e->supp_bin, sizeof(e->supp_bin)) ||
	    paths_exe_dir(e->bindir, sizeof(e->bindir)))
		return -1;
	if (add_ta_paths(o, e))
		return -1;
	if (o->plugin_path && !realpath(o->plugin_path, e->plugin_dir)) {
		fprintf(stderr, "swtee run: --plugin-path %s: %s\n", o->plugin_path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* The debug options, for the core's TA instances (src/ta_runtime/debug.c). */
static void export_debug(const struct run_opts *o)
{
	if (o->debug_ta[0])
		setenv("SWTEE_DEBUG_TA", o->debug_ta, 1);
	if (o->allow_instrumented)
		setenv("SWTEE_ALLOW_INSTRUMENTED_TAS", "1", 1);
	if (o->debug_wrapper)
		setenv("SWTEE_DEBUG_WRAPPER", o->debug_wrapper, 1);
}

/* The ready pipe, then swteed, until it says ready. */
static int start_core(const struct run_opts *o, struct run_env *e)
{
	/* Room for the options added below and the NULL after them. */
	char *argv_core[16 + 2 * MAX_TA_KEYS] = {
	    e->core_bin,  "-s",
	    e->sock,	  "--supplicant-socket",
	    e->supp_sock, "--secure-dir",
	    e->secure,	  "--ready-fd",
	    e->fdarg,	  o->verbose ? "-v" : "-q",
	};
	size_t n = 10;

	if (pipe2(e->pfd, O_CLOEXEC))
		return -1;
	snprintf(e->fdarg, sizeof(e->fdarg), "%d", e->pfd[1]);
	if (o->socket_policy) {
		argv_core[n++] = "--socket-policy";
		argv_core[n++] = (char *)o->socket_policy;
	}
	for (size_t i = 0; i < o->nta_keys; i++) {
		argv_core[n++] = "--ta-key";
		argv_core[n++] = (char *)o->ta_keys[i];
	}
	if (o->allow_rollback)
		argv_core[n++] = "--allow-ta-rollback";
	if (o->verbose > 1)
		argv_core[n++] = "-v";
	e->core = start(argv_core, e->pfd[1], SIGTERM);
	if (e->core < 0 || wait_ready(e->core, e->pfd[0], "swteed")) {
		e->core = -1;
		return -1;
	}
	return 0;
}

/* tee-supplicant, until it says ready; e->argv_supp starts it again if it ends. */
static int start_supplicant(const struct run_opts *o, struct run_env *e)
{
	char **a = e->argv_supp;
	size_t n = 0;

	a[n++] = e->supp_bin;
	a[n++] = "-f";
	a[n++] = e->ree;
	a[n++] = "-l";
	a[n++] = e->ta_list;
	a[n++] = "--ready-fd";
	a[n++] = e->fdarg;
	if (o->plugin_path) {
		a[n++] = "-p";
		a[n++] = e->plugin_dir;
	}
	if (o->verbose > 1)
		a[n++] = "-v";
	a[n++] = e->supp_sock;
	e->supp = start(a, e->pfd[1], SIGTERM);
	if (e->supp < 0 || wait_ready(e->supp, e->pfd[0], "tee-supplicant")) {
		e->supp = -1;
		return -1;
	}
	/* The ready pipe stays (close-on-exec): a supplicant started again says ready on it. */
	return 0;
}

/*
 * CMD's environment, and the TPM bridge if asked for. CMD finds swtee's own
 * tools and libteec first (a client built against TEEC_EXPORT need not be
 * installed), and its libteec finds this TEE.
 */
static int prepare_cmd(const struct run_opts *o, struct run_env *e)
{
	char *path_env = NULL;

	if (prepend_env("LD_LIBRARY_PATH", e->bindir, "/../lib"))
		return -1;
	setenv("SWTEE_SOCKET", e->sock, 1);
	setenv("SWTEE_STATE_DIR", e->state, 1);
	setenv("SWTEE_RUN_TA_DIR", e->scratch, 1);
	if (o->tpm && start_tpm(o, e->rundir, &e->tpm))
		return -1;
	if (getenv("PATH") && asprintf(&path_env, "%s:%s", e->bindir, getenv("PATH")) > 0)
		setenv("PATH", path_env, 1);
	free(path_env);
	return 0;
}

/* CMD, run and waited for while the supplicant is kept up: its exit code, or 1. */
static int run_cmd(const struct run_opts *o, struct run_env *e)
{
	struct sigaction sa = {.sa_handler = on_signal};
	int status = 0;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	cmd_pid = fork();
	if (cmd_pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(o->cmd[0], o->cmd);
		fprintf(stderr, "swtee run: cannot run %s: %s\n", o->cmd[0], strerror(errno));
		_exit(127);
	}
	if (cmd_pid < 0)
		return 1;
	supervise(&e->supp, e->argv_supp, e->pfd, &e->supp_failed);
	while (waitpid(cmd_pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

/* Everything started stopped, the runtime dir removed: rc, or 1 if a TEE process failed. */
static int stop_all(struct run_env *e, int rc)
{
	if (e->pfd[0] >= 0)
		close(e->pfd[0]);
	if (e->pfd[1] >= 0)
		close(e->pfd[1]);
	/* The TPM bridge first, so that it shuts the TPM down in order. */
	if (stop(e->tpm, "swtee-tpm", 0) && rc == 0)
		rc = 1;
	/*
	 * The core first: the supplicant then ends on its own, once the files
	 * it removes in the background are gone (ree_fs.c).
	 */
	if (stop(e->core, "swteed", 0) && rc == 0)
		rc = 1;
	if ((stop(e->supp, "tee-supplicant", SUPP_GRACE_MS) || e->supp_failed) && rc == 0)
		rc = 1;
	remove_rundir(e->rundir);
	return rc;
}

int swtee_run_main(int argc, char **argv)
{
	struct run_opts o = {0};
	static struct run_env e;
	const char *tmp = getenv("XDG_RUNTIME_DIR");
	int rc = 1;

	e = (struct run_env){.core = -1, .supp = -1, .tpm = -1, .pfd = {-1, -1}};
	if (parse(argc, argv, &o))
		return 2;
	if (make_rundir(&o, &e, tmp))
		return 1;
	if (!find_paths(&o, &e)) {
		export_debug(&o);
		if (!start_core(&o, &e) && !start_supplicant(&o, &e) && !prepare_cmd(&o, &e))
			rc = run_cmd(&o, &e);
	}
	return stop_all(&e, rc);
}
