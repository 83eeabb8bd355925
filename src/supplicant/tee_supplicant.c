/*
 * tee-supplicant: the normal-world helper of swteed. It serves what the core
 * may not touch itself: the TA files on the TA path (and, with trusted
 * storage, the REE file system), the TAs' network sockets and the plugins
 * TAs call. It holds no secret and is not trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "buf.h"
#include "log.h"
#include "msg.h"
#include "paths.h"
#include "plugins.h"
#include "proto.h"
#include "ree_fs.h"
#include "sock_serve.h"
#include "uuid.h"

#define MAX_TA_DIRS 16

struct supplicant {
	char *ta_dirs[MAX_TA_DIRS];
	size_t nta_dirs;
	const char *fs_path;
	const char *plugin_path; /* -p; NULL: lib/swtee/plugins of this installation */
	int sock;
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: tee-supplicant [options] [<supplicant-socket>]\n"
	    "  -h, --help\n"
	    "  -d, --daemonize           detach once connected to the core\n"
	    "  -f, --fs-parent-path DIR  trusted storage files (normal-world side)\n"
	    "  -l, --ta-path PATHS       TA load path(s), ':'-separated; may be repeated\n"
	    "                            (default: lib/swtee/ta of this installation)\n"
	    "  -t, --ta-dir NAME         accepted for compatibility; use -l\n"
	    "  -p, --plugin-path DIR     load the plugins DIR/*.plugin\n"
	    "                            (default: lib/swtee/plugins of this installation)\n"
	    "  -r, --rpmb-cid HEX        accepted for compatibility; RPMB is emulated by the core\n"
	    "      --ready-fd N          write a line to descriptor N once connected\n"
	    "  -v, --verbose\n"
	    "The socket defaults to $SWTEE_SUPPLICANT_SOCKET, else supplicant.sock beside\n"
	    "swteed's client socket ($SWTEE_SOCKET or the per-user default).\n");
}

static int add_ta_dirs(struct supplicant *s, const char *list)
{
	char *copy = strdup(list);
	char *save = NULL;

	if (!copy)
		return -1;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (s->nta_dirs >= MAX_TA_DIRS) {
			free(copy);
			return -1;
		}
		s->ta_dirs[s->nta_dirs] = strdup(d);
		if (!s->ta_dirs[s->nta_dirs]) {
			free(copy);
			return -1;
		}
		s->nta_dirs++;
	}
	free(copy);
	return 0;
}

static int connect_core(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = -1;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	/* The core may still be starting: try for a few seconds. */
	for (int i = 0; i < 100; i++) {
		struct timespec ts = {.tv_nsec = 50 * 1000 * 1000};

		fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		close(fd);
		nanosleep(&ts, NULL);
	}
	return -1;
}

static int hello(int sock)
{
	uint8_t out[8];
	uint8_t in[16];
	struct buf_writer w;
	struct msg_fds fds;
	ssize_t n = 0;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_SUPP_HELLO);
	buf_put_u32(&w, PROTO_SUPP_VERSION);
	if (msg_send(sock, out, buf_written(&w), NULL, 0))
		return -1;
	n = msg_recv_timeout(sock, in, sizeof(in), &fds, 10000);
	msg_fds_close(&fds);
	return n == (ssize_t)buf_written(&w) && !memcmp(in, out, (size_t)n) ? 0 : -1;
}

static bool regular_file(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode);
}

static void load_ta(struct supplicant *s, struct buf_reader *r)
{
	struct swtee_uuid uuid = {{0}};
	char name[SWTEE_UUID_STR_LEN];
	uint8_t out[16];
	struct buf_writer w;
	uint32_t req = 0;
	uint32_t res = TEEC_ERROR_ITEM_NOT_FOUND;
	int fd = -1;

	buf_get_u32(r, &req);
	buf_get_bytes(r, uuid.b, sizeof(uuid.b));
	if (!buf_done(r)) {
		log_error("malformed load request from the core");
		return;
	}
	uuid_format(&uuid, name);
	for (size_t i = 0; i < s->nta_dirs && fd < 0; i++) {
		char path[SWTEE_PATH_MAX];
		int n = snprintf(path, sizeof(path), "%s/%s.ta", s->ta_dirs[i], name);

		if (n < 0 || (size_t)n >= sizeof(path))
			continue;
		/* Never block on a FIFO or a device named like a TA: regular files only. */
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && !regular_file(fd)) {
			log_error("TA %s: %s is not a regular file; skipped", name, path);
			close(fd);
			fd = -1;
		}
		if (fd >= 0)
			log_debug("TA %s from %s", name, path);
	}
	if (fd >= 0)
		res = TEEC_SUCCESS;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_SUPP_LOAD_TA_RSP);
	buf_put_u32(&w, req);
	buf_put_u32(&w, res);
	msg_send(s->sock, out, buf_written(&w), fd >= 0 ? &fd : NULL, fd >= 0 ? 1 : 0);
	if (fd >= 0)
		close(fd);
}

static int serve(struct supplicant *s)
{
	for (;;) {
		uint8_t in[PROTO_MSG_MAX];
		struct msg_fds fds;
		struct buf_reader r;
		uint32_t type = 0;
		ssize_t n = msg_recv(s->sock, in, sizeof(in), &fds);

		if (n <= 0) {
			msg_fds_close(&fds);
			log_debug("the core closed the connection");
			return 0;
		}
		buf_reader_init(&r, in, (size_t)n);
		buf_get_u32(&r, &type);
		if (type == MSG_SUPP_FS_CHANNEL && buf_done(&r) && fds.n == 2 && s->fs_path) {
			int sock = msg_fds_take(&fds, 0);

			ree_fs_serve_channel(s->fs_path, sock, msg_fds_take(&fds, 1));
			continue;
		}
		if (type == MSG_SUPP_SOCK_CHANNEL && buf_done(&r) && fds.n == 1) {
			sock_serve_channel(msg_fds_take(&fds, 0));
			continue;
		}
		if (type == MSG_SUPP_PLUGIN_CHANNEL && buf_done(&r) && fds.n == 1) {
			plugins_serve_channel(msg_fds_take(&fds, 0));
			continue;
		}
		msg_fds_close(&fds);
		switch (type) {
		case MSG_SUPP_LOAD_TA:
			load_ta(s, &r);
			break;
		case MSG_SUPP_FS_CHANNEL:
			log_error("no trusted storage here: start tee-supplicant with -f DIR");
			break;
		default:
			log_error("unknown request 0x%x from the core", type);
			break;
		}
	}
}

/* The plugins of -p DIR, else of the installation's lib/swtee/plugins. */
static int load_plugins(const struct supplicant *s)
{
	char def[SWTEE_PATH_MAX];

	if (s->plugin_path) {
		plugins_load(s->plugin_path, true);
		return 0;
	}
	if (paths_sibling("../lib/swtee/plugins", def, sizeof(def)))
		return -1;
	plugins_load(def, false);
	return 0;
}

/* main's every exit: releases what main collected into s, returns rc. */
static int supplicant_exit(struct supplicant *s, int rc)
{
	for (size_t i = 0; i < s->nta_dirs; i++)
		free(s->ta_dirs[i]);
	s->nta_dirs = 0;
	if (s->sock >= 0)
		close(s->sock);
	s->sock = -1;
	return rc;
}

/* What the command line asks for besides what goes into struct supplicant. */
struct supp_options {
	bool daemonize;
	int ready_fd;
	int level;
};

/* Handles one option opt of getopt_long; -1 to go on, else the exit status. */
static int take_option(struct supplicant *s, struct supp_options *o, int opt)
{
	switch (opt) {
	case 'h':
		usage(stdout);
		return 0;
	case 'd':
		o->daemonize = true;
		return -1;
	case 'f':
		s->fs_path = optarg;
		return -1;
	case 'l':
		if (add_ta_dirs(s, optarg)) {
			log_error("too many TA directories (at most %d)", MAX_TA_DIRS);
			return 2;
		}
		return -1;
	case 't':
		log_error("-t is not supported by swtee; give the TA directory with -l");
		return 2;
	case 'p':
		s->plugin_path = optarg;
		return -1;
	case 'r':
		return -1;
	case 'R':
		o->ready_fd = atoi(optarg);
		return -1;
	case 'v':
		o->level++;
		log_init("tee-supplicant", o->level);
		return -1;
	default:
		usage(stderr);
		return 2;
	}
}

/* Fills s and o from the command line; -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, struct supplicant *s, struct supp_options *o)
{
	static const struct option opts[] = {
	    {"help", no_argument, NULL, 'h'},
	    {"daemonize", no_argument, NULL, 'd'},
	    {"fs-parent-path", required_argument, NULL, 'f'},
	    {"ta-path", required_argument, NULL, 'l'},
	    {"ta-dir", required_argument, NULL, 't'},
	    {"plugin-path", required_argument, NULL, 'p'},
	    {"rpmb-cid", required_argument, NULL, 'r'},
	    {"ready-fd", required_argument, NULL, 'R'},
	    {"verbose", no_argument, NULL, 'v'},
	    {NULL, 0, NULL, 0},
	};
	int opt = 0;
	int rc = -1;

	while ((opt = getopt_long(argc, argv, "hdf:l:t:p:r:v", opts, NULL)) != -1)
		if ((rc = take_option(s, o, opt)) >= 0)
			return rc;
	if (optind + 1 < argc) {
		usage(stderr);
		return 2;
	}
	return -1;
}

/* The default TA directory when -l gave none, the plugins, the storage dir; 0 or -1. */
static int prepare(struct supplicant *s)
{
	if (!s->nta_dirs) {
		char def[SWTEE_PATH_MAX];

		if (paths_sibling("../lib/swtee/ta", def, sizeof(def)) || add_ta_dirs(s, def))
			return -1;
	}
	if (load_plugins(s))
		return -1;
	if (s->fs_path && paths_mkdir_p(s->fs_path, 0700)) {
		log_error("cannot create %s: %s", s->fs_path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The core's supplicant socket: arg (may be NULL), the environment's, else beside swteed's. */
static int socket_path(const char *arg, char path[SWTEE_PATH_MAX])
{
	char client[SWTEE_PATH_MAX];

	if (arg) {
		snprintf(path, SWTEE_PATH_MAX, "%s", arg);
	} else if (getenv("SWTEE_SUPPLICANT_SOCKET")) {
		snprintf(path, SWTEE_PATH_MAX, "%s", getenv("SWTEE_SUPPLICANT_SOCKET"));
	} else if (paths_default_socket(client, sizeof(client)) ||
		   paths_supplicant_socket(client, path, SWTEE_PATH_MAX)) {
		log_error("socket path too long");
		return -1;
	}
	return 0;
}

/* Connects s to the core at path and greets it; 0 or -1. */
static int reach_core(struct supplicant *s, const char *path)
{
	s->sock = connect_core(path);
	if (s->sock < 0) {
		log_error(
		    "cannot reach swteed at %s: %s (is swteed running? try: swtee run -- CMD)",
		    path, strerror(errno));
		return -1;
	}
	if (hello(s->sock)) {
		log_error("swteed at %s refused this supplicant", path);
		return -1;
	}
	return 0;
}

/* Writes "ready" to ready_fd, if any, and closes it. */
static void signal_ready(int ready_fd)
{
	if (ready_fd < 0)
		return;
	if (write(ready_fd, "ready\n", 6) != 6)
		log_error("cannot signal readiness");
	close(ready_fd);
}

/* Connects to the core and serves its requests until it closes the connection. */
int main(int argc, char **argv)
{
	struct supplicant s = {.sock = -1};
	struct supp_options o = {.ready_fd = -1, .level = LOG_LVL_INFO};
	char path[SWTEE_PATH_MAX];
	int rc = 0;

	log_init("tee-supplicant", o.level);
	rc = parse_options(argc, argv, &s, &o);
	if (rc >= 0)
		return supplicant_exit(&s, rc);
	if (prepare(&s) || socket_path(optind < argc ? argv[optind] : NULL, path))
		return supplicant_exit(&s, 1);
	signal(SIGPIPE, SIG_IGN);
	if (reach_core(&s, path))
		return supplicant_exit(&s, 1);
	if (o.daemonize && daemon(0, 0)) {
		log_error("cannot daemonize: %s", strerror(errno));
		return supplicant_exit(&s, 1);
	}
	signal_ready(o.ready_fd);
	if (s.fs_path)
		ree_fs_init(s.fs_path);
	rc = serve(&s);
	ree_fs_finish();
	return supplicant_exit(&s, rc);
}
