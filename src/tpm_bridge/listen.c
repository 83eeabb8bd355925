/*
 * The bridge's listening sockets: Unix sockets that only the bridge's user
 * (or the members of --socket-group) may connect to, or, with --tcp only,
 * TCP ports (loopback unless told otherwise), which every local user
 * reaches.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "bridge.h"
#include "log.h"

#define BACKLOG 64

static const char *kind_name(const struct endpoint *e, int i)
{
	if (e->kind == LISTEN_VM)
		return "VM (swtpm control for QEMU's tpm-emulator)";
	if (e->kind == LISTEN_MSSIM)
		return i ? "mssim platform" : "mssim command";
	return i ? "swtpm control" : "swtpm data";
}

static bool is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6)
		return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)sa)->sin6_addr);
	return false;
}

/* A Unix socket at path, replacing a stale one nobody listens on. */
static int listen_unix(const char *path, const struct listen_policy *p)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	mode_t old = 0;
	int fd = -1;
	int r = 0;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		log_error("%s: path too long for a Unix socket", path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (!access(path, F_OK)) {
		struct stat st;

		if (lstat(path, &st) || !S_ISSOCK(st.st_mode) ||
		    !connect(fd, (struct sockaddr *)&sa, sizeof(sa)) || errno != ECONNREFUSED) {
			log_error("%s exists and is not a stale socket", path);
			close(fd);
			return -1;
		}
		close(fd);
		unlink(path);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			return -1;
	}
	/* Nobody else's from the start: bound under umask 077, then opened to the group. */
	old = umask(077);
	r = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (!r && p->group_set)
		r = chown(path, (uid_t)-1, p->gid);
	if (!r)
		r = chmod(path, p->group_set ? 0660 : 0600);
	if (r || listen(fd, BACKLOG)) {
		log_error("%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int listen_tcp(const char *host, unsigned int port)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
	struct addrinfo *ai = NULL;
	char service[8];
	int fd = -1;
	int one = 1;
	int r = 0;

	snprintf(service, sizeof(service), "%u", port);
	r = getaddrinfo(host, service, &hints, &ai);
	if (r) {
		log_error("%s: %s", host, gai_strerror(r));
		return -1;
	}
	if (!is_loopback(ai->ai_addr))
		log_info("warning: %s:%u is not a loopback address; anyone who reaches it "
			 "drives the TPM",
			 host, port);
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, BACKLOG)) {
		log_error("%s:%u: %s", host, port, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/* "PORT" or "HOST:PORT" ("[V6]:PORT"): the host (default loopback) and port. */
static int parse_tcp(const char *addr, char *host, size_t n, unsigned int *port)
{
	const char *colon = strrchr(addr, ':');
	const char *p = colon ? colon + 1 : addr;
	char *end = NULL;
	unsigned long v = strtoul(p, &end, 10);
	size_t hl = colon ? (size_t)(colon - addr) : 0;

	if (!*p || *end || v == 0 || v > 65534)
		return -1;
	*port = (unsigned int)v;
	if (!colon) {
		snprintf(host, n, "127.0.0.1");
		return 0;
	}
	if (hl >= 2 && addr[0] == '[' && addr[hl - 1] == ']') {
		addr++;
		hl -= 2;
	}
	if (!hl || hl >= n)
		return -1;
	memcpy(host, addr, hl);
	host[hl] = '\0';
	return 0;
}

int listen_open(struct endpoint *e, const struct listen_policy *p)
{
	char *paths[2] = {NULL, NULL};
	const char *path = NULL;
	int rc = -1;

	e->fd[0] = e->fd[1] = -1;
	if (!strncmp(e->addr, "unix:", 5))
		path = e->addr + 5;
	else if (strchr(e->addr, '/'))
		path = e->addr;
	if (e->kind == LISTEN_VM) {
		/* One socket, a path (never TCP): QEMU's chardev, which passes the data channel. */
		path = path ? path : e->addr;
		e->fd[0] = listen_unix(path, p);
		e->unix_path[0] = e->fd[0] >= 0 ? strdup(path) : NULL;
		if (!e->unix_path[0])
			goto out;
		log_info("%s on %s", kind_name(e, 0), path);
		rc = 0;
		goto out;
	}
	if (path) {
		paths[0] = strdup(path);
		if (!paths[0] || asprintf(&paths[1], "%s.ctrl", path) < 0) {
			paths[1] = NULL;
			goto out;
		}
		for (int i = 0; i < 2; i++) {
			e->fd[i] = listen_unix(paths[i], p);
			if (e->fd[i] < 0)
				goto out;
			/* Ours to remove at exit, now that it is bound. */
			e->unix_path[i] = paths[i];
			paths[i] = NULL; /* transferred */
			log_info("%s on %s", kind_name(e, i), e->unix_path[i]);
		}
		rc = 0;
		goto out;
	}
	{
		char host[256];
		unsigned int port = 0;

		if (parse_tcp(e->addr, host, sizeof(host), &port)) {
			log_error("%s: not PORT, HOST:PORT or a Unix socket path", e->addr);
			goto out;
		}
		if (!p->tcp) {
			log_error("%s: a TCP port is open to every local user, who could then "
				  "extend and reset PCRs or clear the TPM: pass --tcp to serve on "
				  "one anyway, or give a Unix socket path (unix:PATH)",
				  e->addr);
			goto out;
		}
		for (int i = 0; i < 2; i++) {
			e->fd[i] = listen_tcp(host, port + (unsigned int)i);
			if (e->fd[i] < 0)
				goto out;
			log_info("%s on %s:%u", kind_name(e, i), host, port + (unsigned int)i);
		}
		log_error("warning: %s:%u-%u is TCP, open to every local user: any of them "
			  "can drive the TPM (extend and reset PCRs, evict keys, clear it); the "
			  "default Unix sockets are the bridge's user's only",
			  host, port, port + 1);
	}
	rc = 0;
out:
	free(paths[0]);
	free(paths[1]);
	if (rc)
		listen_close(e);
	return rc;
}

int listen_default_dir(const struct listen_policy *p, char *out, size_t n)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	const char *why = NULL;
	struct stat st;
	int r = 0;

	if (xdg && *xdg)
		r = snprintf(out, n, "%s/swtee-tpm", xdg);
	else
		r = snprintf(out, n, "/tmp/swtee-tpm-%u", (unsigned int)geteuid());
	if (r < 0 || (size_t)r >= n) {
		log_error("the default socket directory's path is too long");
		return -1;
	}
	if ((mkdir(out, 0700) && errno != EEXIST) || lstat(out, &st)) {
		log_error("%s: %s", out, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st.st_mode))
		why = "it is a symbolic link";
	else if (!S_ISDIR(st.st_mode))
		why = "it is not a directory";
	else if (st.st_uid != geteuid())
		why = "another user owns it";
	else if (st.st_mode & 022)
		why = "others may write to it";
	if (why) {
		log_error("refusing the socket directory %s: %s, so another user could stand "
			  "in for the TPM; remove it, or name the sockets with --mssim and "
			  "--swtpm",
			  out, why);
		return -1;
	}
	if ((p->group_set && chown(out, (uid_t)-1, p->gid)) ||
	    chmod(out, p->group_set ? 0710 : 0700)) {
		log_error("%s: %s", out, strerror(errno));
		return -1;
	}
	return 0;
}

void listen_close(struct endpoint *e)
{
	for (int i = 0; i < 2; i++) {
		if (e->fd[i] >= 0)
			close(e->fd[i]);
		e->fd[i] = -1;
		/* Set only once this bridge has bound the socket there. */
		if (e->unix_path[i]) {
			unlink(e->unix_path[i]);
			free(e->unix_path[i]);
			e->unix_path[i] = NULL;
		}
	}
}
