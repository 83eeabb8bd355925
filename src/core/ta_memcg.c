/*
 * One memory cgroup for each TA process, where the kernel lets the core make
 * them: cgroup v1's memory hierarchy, or a v2 hierarchy with the memory
 * controller delegated to the core (swteed.service's Delegate=memory).
 *
 * The rlimits the runtime sets bound an instance's private memory and the
 * size of each memory file, not how many memory files it holds. A cgroup
 * charges a memory file's pages to the process that wrote them, so its limit
 * bounds all of it: private memory, memory files, the client memory the TA is
 * first to touch. The layout, in the core's own cgroup:
 *
 *   swtee-PID/        this core's TA processes (v2: with +memory for its children)
 *     ta-TAG/         one spare or instance, TAG its fork tag; removed when it ends
 *   swtee-core.PID/   v2 only: the core itself, out of the way of the rule that a
 *                     cgroup with processes hands no controller to its children
 *
 * The zygote makes ta-TAG for each spare (src/ta_runtime/memcg.c), as a
 * cgroup operation may wait for the kernel for tens of milliseconds (a
 * migration holds the cgroup lock through an RCU grace period) and the core
 * waits for nobody. The spare joins it before it runs anything else, and
 * sets the limit the core sends with the TA (from the TA's signed
 * TA_DATA_SIZE and stack) before the TA's first instruction. Where none of
 * this is possible (not root, a v2 hierarchy without delegation) the rlimits
 * are all there is, and swtee status says so.
 */
#include "core.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "proto.h"

/* The core's state here: one per process, as the cgroup it sits in. */
static struct {
	int dir;	    /* swtee-PID, or -1: no cgroups, rlimits only */
	int parent;	    /* the core's cgroup, which holds dir */
	int version;	    /* 1 or 2 */
	char name[32];	    /* dir's name in parent */
	char core_name[40]; /* v2: the core's own child of parent, or "" */
} mc = {.dir = -1, .parent = -1};

/* Is word one of the comma-separated words of list? */
static bool list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, word, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

/* What a line of /proc/self/cgroup or /proc/self/mountinfo is searched for. */
struct want {
	const char *controller; /* a v1 controller, or NULL for the v2 hierarchy */
	const char *path;	/* mountinfo: the cgroup path to find a mount of */
	char *out;
	size_t n;
};

static bool scan(const char *file, bool (*match)(char *line, const struct want *w),
		 const struct want *w)
{
	FILE *f = fopen(file, "re");
	char line[2048];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = match(line, w);
	fclose(f);
	return found;
}

/* /proc/self/cgroup: "ID:CONTROLLERS:PATH", v2's as "0::PATH". */
static bool cgroup_line(char *line, const struct want *w)
{
	char *c1 = strchr(line, ':');
	char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	char *path = c2 ? c2 + 1 : NULL;

	if (!path)
		return false;
	*c1 = '\0';
	*c2 = '\0';
	path[strcspn(path, "\n")] = '\0';
	if (w->controller ? !list_has(c1 + 1, w->controller) : strcmp(line, "0") != 0 || c1[1])
		return false;
	return snprintf(w->out, w->n, "%s", path) < (int)w->n;
}

/* /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS... - TYPE SRC SUPEROPTS". */
static bool mount_line(char *line, const struct want *w)
{
	char root[PATH_MAX], point[PATH_MAX], type[32], super[512];
	const char *dash = strstr(line, " - ");
	size_t rlen = 0;

	if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2 ||
	    sscanf(dash, " - %31s %*s %511s", type, super) != 2)
		return false;
	if (w->controller ? strcmp(type, "cgroup") != 0 || !list_has(super, w->controller)
			  : strcmp(type, "cgroup2") != 0)
		return false;
	/* A mount of part of the hierarchy: the path must lie under its root. */
	rlen = strcmp(root, "/") != 0 ? strlen(root) : 0;
	if (strchr(point, '\\') || strncmp(w->path, root, rlen) != 0 ||
	    (w->path[rlen] && w->path[rlen] != '/'))
		return false;
	return snprintf(w->out, w->n, "%s%s", point, w->path + rlen) < (int)w->n;
}

/*
 * The directory of this process's cgroup in the v1 hierarchy that has
 * controller, or in the v2 hierarchy when controller is NULL.
 */
static bool own_dir(const char *controller, char *out, size_t n)
{
	char path[PATH_MAX];
	struct want cg = {.controller = controller, .out = path, .n = sizeof(path)};
	struct want mnt = {.controller = controller, .path = path, .out = out, .n = n};

	return scan("/proc/self/cgroup", cgroup_line, &cg) &&
	       scan("/proc/self/mountinfo", mount_line, &mnt);
}

static int write_at(int dir, const char *file, const char *text)
{
	int fd = openat(dir, file, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	int rc = -1;

	if (fd < 0)
		return -1;
	rc = write(fd, text, (size_t)len) == len ? 0 : -1;
	close(fd);
	return rc;
}

static bool file_has(int dir, const char *file, const char *word)
{
	char text[512];
	int fd = openat(dir, file, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return false;
	text[n] = '\0';
	text[strcspn(text, "\n")] = '\0';
	for (char *p = text; *p; p++)
		if (*p == ' ')
			*p = ',';
	return list_has(text, word);
}

static DIR *dir_open(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* Removes dir's empty ta-* children, then dir: 0, or -1 while a process is in one. */
static int remove_tree(int parent, const char *name)
{
	DIR *d = dir_open(parent, name);
	struct dirent *e = NULL;

	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "ta-", 3))
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
	closedir(d);
	return unlinkat(parent, name, AT_REMOVEDIR) && errno != ENOENT ? -1 : 0;
}

/* The cgroups of cores no longer running (their pid is gone). */
static void sweep_stale(int parent)
{
	DIR *d = dir_open(parent, ".");
	struct dirent *e = NULL;

	if (!d)
		return;
	while ((e = readdir(d))) {
		const char *digits = NULL;
		char *end = NULL;
		long pid = 0;

		if (!strncmp(e->d_name, "swtee-core.", 11))
			digits = e->d_name + 11;
		else if (!strncmp(e->d_name, "swtee-", 6))
			digits = e->d_name + 6;
		else
			continue;
		pid = strtol(digits, &end, 10);
		if (pid <= 0 || *end || pid == getpid() || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		remove_tree(parent, e->d_name);
	}
	closedir(d);
}

/*
 * v2: the core moves into a child of its own so that its cgroup may hand the
 * memory controller down. That fails (EBUSY) while any other process shares
 * the cgroup, a login shell's scope say; the core then moves back.
 */
static const char *v2_delegate(int parent)
{
	char procs[64];

	if (!file_has(parent, "cgroup.controllers", "memory"))
		return "the memory controller is not delegated to the core's cgroup";
	if (file_has(parent, "cgroup.subtree_control", "memory"))
		return NULL;
	snprintf(mc.core_name, sizeof(mc.core_name), "swtee-core.%d", (int)getpid());
	if (mkdirat(parent, mc.core_name, 0755) && errno != EEXIST) {
		mc.core_name[0] = '\0';
		return "cannot create a cgroup for the core";
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", mc.core_name);
	if (write_at(parent, procs, "0") == 0 &&
	    write_at(parent, "cgroup.subtree_control", "+memory") == 0)
		return NULL;
	write_at(parent, "cgroup.procs", "0");
	unlinkat(parent, mc.core_name, AT_REMOVEDIR);
	mc.core_name[0] = '\0';
	return "other processes share the core's cgroup, which cannot then delegate memory";
}

/* Finds the core's memory cgroup and makes swtee-PID in it, or says why not. */
static const char *setup(void)
{
	char dir[PATH_MAX];
	const char *why = NULL;

	if (own_dir("memory", dir, sizeof(dir)))
		mc.version = 1;
	else if (own_dir(NULL, dir, sizeof(dir)))
		mc.version = 2;
	else
		return "no memory cgroup hierarchy is mounted";
	mc.parent = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mc.parent < 0)
		return "the core's cgroup is not reachable";
	if (faccessat(mc.parent, "cgroup.procs", W_OK, AT_EACCESS))
		return "the core may not manage its cgroup (not root, nor delegated)";
	sweep_stale(mc.parent);
	if (mc.version == 2 && (why = v2_delegate(mc.parent)))
		return why;
	snprintf(mc.name, sizeof(mc.name), "swtee-%d", (int)getpid());
	if (mkdirat(mc.parent, mc.name, 0755) && errno != EEXIST)
		return "cannot create a cgroup in the core's";
	mc.dir = openat(mc.parent, mc.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mc.dir < 0)
		return "cannot open the cgroup made for TA processes";
	if (mc.version == 2 && write_at(mc.dir, "cgroup.subtree_control", "+memory"))
		return "cannot hand the memory controller to TA processes";
	return NULL;
}

void ta_memcg_init(bool off)
{
	const char *why = off				  ? "--no-ta-cgroups"
			  : getenv("SWTEE_NO_TA_CGROUPS") ? "SWTEE_NO_TA_CGROUPS is set"
							  : setup();

	if (!why) {
		log_info("TA memory: one cgroup v%d per TA process (TA_DATA_SIZE, stack and "
			 "shared-memory window)",
			 mc.version);
		return;
	}
	log_info("TA memory: rlimits only, no cgroup per TA process: %s", why);
	ta_memcg_fini();
	mc.version = 0;
}

int ta_memcg_version(void)
{
	return mc.dir >= 0 ? mc.version : 0;
}

/* Limits go in steps, so that most TAs need no write when they start. */
#define BUDGET_STEP (64ull << 20)

uint64_t ta_memcg_budget(uint32_t data_size, uint32_t stack_size)
{
	/* An image without the size (built before the kit recorded it): the most a TA declares. */
	uint64_t data = data_size ? data_size : UINT32_MAX;
	uint64_t budget = data + stack_size + TA_SHM_WINDOW + TA_RUNTIME_SLACK;

	budget = (budget + BUDGET_STEP - 1) / BUDGET_STEP * BUDGET_STEP;
#ifdef SWTEE_SANITIZE
	/* The sanitizers' shadow and quarantine are charged too. */
	budget = 2 * budget + (1ull << 30);
#endif
	return budget;
}

uint64_t ta_memcg_spare_budget(void)
{
	return ta_memcg_budget(1, 0);
}

int ta_memcg_dir(void)
{
	return mc.dir;
}

/* The cgroups made so far stay until the core stops: their processes live on. */
void ta_memcg_off(const char *why)
{
	if (mc.dir < 0)
		return;
	log_error("TA memory: rlimits only from now on: %s", why);
	close(mc.dir);
	mc.dir = -1;
}

void ta_memcg_fini(void)
{
	if (mc.dir >= 0) {
		close(mc.dir);
		mc.dir = -1;
	}
	if (mc.parent >= 0 && mc.name[0]) {
		/* The TA processes were killed; the kernel takes a moment to end each. */
		for (int i = 0; i < 100 && remove_tree(mc.parent, mc.name); i++)
			nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
		mc.name[0] = '\0';
	}
	if (mc.parent >= 0 && mc.core_name[0]) {
		/* Back where the core was, so that its old cgroup may be removed after it. */
		write_at(mc.parent, "cgroup.subtree_control", "-memory");
		write_at(mc.parent, "cgroup.procs", "0");
		unlinkat(mc.parent, mc.core_name, AT_REMOVEDIR);
		mc.core_name[0] = '\0';
	}
	if (mc.parent >= 0) {
		close(mc.parent);
		mc.parent = -1;
	}
}
