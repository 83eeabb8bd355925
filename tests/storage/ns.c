/* A private mount namespace for the storage tests (ns.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "ns.h"
#include "st_run.h"
#include "st_util.h"

static int write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int rc = -1;

	if (fd < 0)
		return -1;
	if (write(fd, text, len) == (ssize_t)len)
		rc = 0;
	close(fd);
	return rc;
}

/* A user namespace in which the caller is root, with a mount namespace. */
static int enter_user_ns(char *why, size_t n)
{
	char map[64];
	unsigned int uid = (unsigned int)getuid();
	unsigned int gid = (unsigned int)getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS)) {
		snprintf(why, n, "no user namespace: %s", strerror(errno));
		return -1;
	}
	snprintf(map, sizeof(map), "0 %u 1\n", uid);
	if (write_file("/proc/self/uid_map", map)) {
		snprintf(why, n, "cannot map the user: %s", strerror(errno));
		return -1;
	}
	/* Unprivileged users must give up setgroups before mapping a group. */
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "0 %u 1\n", gid);
	if (write_file("/proc/self/gid_map", map)) {
		snprintf(why, n, "cannot map the group: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int ns_enter(char *why, size_t n)
{
	snprintf(why, n, "no reason given");
	/* Root (as CI runs) needs only the mount namespace; a container may refuse it. */
	if (geteuid() != 0 || unshare(CLONE_NEWNS)) {
		if (enter_user_ns(why, n))
			return -1;
	}
	/* Nothing mounted here may reach the parent namespace. */
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		snprintf(why, n, "cannot make the mounts private: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int ns_tmpfs(const char *dir, unsigned long kib)
{
	char opts[64];

	snprintf(opts, sizeof(opts), "size=%luk,mode=0700", kib);
	return mount("swtee-test", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts);
}

/* The flags of the mount under dir that a user namespace may not drop. */
static unsigned long kept_flags(const char *dir)
{
	static const struct {
		unsigned long st;
		unsigned long ms;
	} map[] = {
	    {ST_NOSUID, MS_NOSUID},   {ST_NODEV, MS_NODEV},	      {ST_NOEXEC, MS_NOEXEC},
	    {ST_NOATIME, MS_NOATIME}, {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME},
	};
	struct statvfs st;
	unsigned long flags = 0;

	if (statvfs(dir, &st))
		return 0;
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (st.f_flag & map[i].st)
			flags |= map[i].ms;
	return flags;
}

int ns_readonly(const char *dir, bool ro)
{
	if (!ro)
		return umount2(dir, 0);
	if (mount(dir, dir, NULL, MS_BIND, NULL))
		return -1;
	if (mount(NULL, dir, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | kept_flags(dir), NULL)) {
		int e = errno;

		umount2(dir, 0);
		errno = e;
		return -1;
	}
	return 0;
}

int ns_start(int argc, char **argv, const char **swtee, const char **top)
{
	char why[256];

	*swtee = st_arg(argc, argv, "--swtee");
	*top = st_arg(argc, argv, "--state");
	if (!*swtee || !*top) {
		fprintf(stderr, "usage: %s --swtee PATH --state DIR\n", st_who);
		return 2;
	}
	if (st_run_sh("rm -rf '%s' && mkdir -p '%s'", *top, *top))
		return 1;
	if (ns_enter(why, sizeof(why))) {
		printf("%s: SKIP: no private mount namespace here (%s)\n", st_who, why);
		return NS_SKIP;
	}
	return 0;
}
