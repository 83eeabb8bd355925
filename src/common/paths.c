#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fits(int r, size_t n)
{
	return r >= 0 && (size_t)r < n ? 0 : -1;
}

int paths_default_socket(char *out, size_t n)
{
	const char *env = getenv("SWTEE_SOCKET");
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (env && *env)
		return fits(snprintf(out, n, "%s", env), n);
	if (xdg && *xdg)
		return fits(snprintf(out, n, "%s/swtee/tee.sock", xdg), n);
	return fits(snprintf(out, n, "/tmp/swtee-%u/tee.sock", (unsigned int)getuid()), n);
}

int paths_supplicant_socket(const char *client_socket, char *out, size_t n)
{
	const char *slash = strrchr(client_socket, '/');

	if (!slash)
		return fits(snprintf(out, n, "supplicant.sock"), n);
	return fits(
	    snprintf(out, n, "%.*s/supplicant.sock", (int)(slash - client_socket), client_socket),
	    n);
}

int paths_exe_dir(char *out, size_t n)
{
	char buf[SWTEE_PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash = NULL;

	if (len <= 0)
		return -1;
	buf[len] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return fits(snprintf(out, n, "%s", buf), n);
}

int paths_sibling(const char *rel, char *out, size_t n)
{
	char dir[SWTEE_PATH_MAX];

	if (paths_exe_dir(dir, sizeof(dir)))
		return -1;
	return fits(snprintf(out, n, "%s/%s", dir, rel), n);
}

int paths_mkdir_p(const char *dir, unsigned int mode)
{
	char buf[SWTEE_PATH_MAX];
	size_t len = strlen(dir);

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, dir, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -1;
	return 0;
}

int paths_join(char *out, size_t n, const char *dir, const char *name)
{
	return fits(snprintf(out, n, "%s/%s", dir, name), n);
}

int paths_replace_file(const char *dir, const char *name, const void *p, size_t len)
{
	char path[SWTEE_PATH_MAX];
	char tmp[SWTEE_PATH_MAX];
	int fd = -1;
	int dfd = -1;
	int rc = -1;
	int err = 0;

	if (paths_join(path, sizeof(path), dir, name) ||
	    fits(snprintf(tmp, sizeof(tmp), "%s.new", path), sizeof(tmp))) {
		errno = ENAMETOOLONG;
		return -1;
	}
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || write(fd, p, len) != (ssize_t)len || fsync(fd) || rename(tmp, path))
		goto out;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd))
		goto out;
	rc = 0;
out:
	err = errno;
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (rc && fd >= 0)
		unlink(tmp);
	errno = err;
	return rc;
}
