/*
 * The memory cgroup of each TA process (the core's src/core/ta_memcg.c finds
 * the hierarchy and makes the directory for them). The zygote does all the
 * cgroup work that follows, as a cgroup operation may wait for the kernel
 * (a migration holds the cgroup lock through an RCU grace period, up to
 * tens of milliseconds): that delays the next spare, never the core.
 *
 * For each spare the zygote makes ta-TAG with the limit of most TAs, forks,
 * and the child joins it before anything else; the child keeps its limit
 * files open until the core sends it a TA, whose own limit it writes then,
 * before the TA's first instruction, and closes them. The zygote removes
 * the cgroup when it reaps the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "proto.h"
#include "runtime.h"

static struct {
	int dir;	      /* the core's directory of TA cgroups, or -1 */
	int version;	      /* 1 or 2 */
	uint64_t spare_limit; /* what a spare starts with */
	/* In a spare: its limit files, until it has a TA. */
	int limit_fd;
	int swap_fd;
	/* In the zygote: which cgroup is whose. */
	struct {
		pid_t pid;
		uint32_t tag;
	} * procs;
	size_t nprocs, cap;
} cg = {.dir = -1, .limit_fd = -1, .swap_fd = -1};

int rt_memcg_init(int dir, int version, uint64_t spare_limit)
{
	if (dir < 0 || (version != 1 && version != 2) || !spare_limit)
		return -1;
	cg.dir = dir;
	cg.version = version;
	cg.spare_limit = spare_limit;
	return 0;
}

static const char *limit_file(void)
{
	return cg.version == 1 ? "memory.limit_in_bytes" : "memory.max";
}

/* v1's memsw counts memory and swap together: twice the limit, so as much again in swap. */
static const char *swap_file(void)
{
	return cg.version == 1 ? "memory.memsw.limit_in_bytes" : "memory.swap.max";
}

static int put(int fd, uint64_t value)
{
	char text[24];
	int n = snprintf(text, sizeof(text), "%" PRIu64, value);

	return fd >= 0 && pwrite(fd, text, (size_t)n, 0) == n ? 0 : -1;
}

/*
 * v1 wants memory <= memsw at every step: memsw is written on both sides of
 * the memory limit, before it for a rise and after it for a fall (best
 * effort: swap accounting may be off).
 */
static int limit_set(int limit_fd, int swap_fd, uint64_t bytes)
{
	uint64_t swap = cg.version == 1 ? 2 * bytes : bytes;
	int rc = 0;

	if (cg.version == 1)
		put(swap_fd, swap);
	rc = put(limit_fd, bytes);
	put(swap_fd, swap);
	return rc;
}

static int open_in(const char *name, const char *file, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/%s", name, file);
	return openat(cg.dir, path, flags | O_CLOEXEC);
}

int rt_memcg_spare(uint32_t tag, struct rt_memcg_spare *sp)
{
	char name[24];

	sp->procs_fd = sp->limit_fd = sp->swap_fd = -1;
	if (cg.dir < 0)
		return 0;
	snprintf(name, sizeof(name), "ta-%" PRIu32, tag);
	if (mkdirat(cg.dir, name, 0755) && errno != EEXIST)
		goto fail;
	sp->limit_fd = open_in(name, limit_file(), O_WRONLY);
	sp->swap_fd = open_in(name, swap_file(), O_WRONLY); /* absent without swap accounting */
	sp->procs_fd = open_in(name, "cgroup.procs", O_WRONLY);
	if (sp->procs_fd < 0 || limit_set(sp->limit_fd, sp->swap_fd, cg.spare_limit))
		goto fail;
	return 1;
fail:
	log_error("cannot make the memory cgroup %s of a TA process: %s", name, strerror(errno));
	rt_memcg_spare_close(sp);
	rt_memcg_discard(tag);
	return -1;
}

void rt_memcg_spare_close(struct rt_memcg_spare *sp)
{
	int *fds[] = {&sp->procs_fd, &sp->limit_fd, &sp->swap_fd};

	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

void rt_memcg_join(struct rt_memcg_spare *sp)
{
	if (sp->procs_fd >= 0 && write(sp->procs_fd, "0", 1) != 1)
		_exit(PROTO_ZYG_EXIT_NO_CGROUP);
	if (sp->procs_fd >= 0)
		close(sp->procs_fd);
	sp->procs_fd = -1;
	cg.limit_fd = sp->limit_fd;
	cg.swap_fd = sp->swap_fd;
	sp->limit_fd = sp->swap_fd = -1;
	/* A TA never holds the directory of its cgroup, nor knows the others'. */
	if (cg.dir >= 0)
		close(cg.dir);
	cg.dir = -1;
	free(cg.procs);
	cg.procs = NULL;
	cg.nprocs = cg.cap = 0;
}

int rt_memcg_forked(pid_t pid, uint32_t tag)
{
	if (cg.dir < 0)
		return 0;
	if (cg.nprocs == cg.cap) {
		size_t cap = cg.cap ? 2 * cg.cap : 16;
		void *p = realloc(cg.procs, cap * sizeof(cg.procs[0]));

		if (!p)
			return -1;
		cg.procs = p;
		cg.cap = cap;
	}
	cg.procs[cg.nprocs].pid = pid;
	cg.procs[cg.nprocs].tag = tag;
	cg.nprocs++;
	return 0;
}

void rt_memcg_reaped(pid_t pid)
{
	char name[24];

	for (size_t i = 0; i < cg.nprocs; i++) {
		if (cg.procs[i].pid != pid)
			continue;
		snprintf(name, sizeof(name), "ta-%" PRIu32, cg.procs[i].tag);
		if (cg.dir >= 0 && unlinkat(cg.dir, name, AT_REMOVEDIR) && errno != ENOENT)
			log_error("cannot remove the memory cgroup %s: %s", name, strerror(errno));
		cg.procs[i] = cg.procs[--cg.nprocs];
		return;
	}
}

void rt_memcg_discard(uint32_t tag)
{
	char name[24];

	snprintf(name, sizeof(name), "ta-%" PRIu32, tag);
	if (cg.dir >= 0)
		unlinkat(cg.dir, name, AT_REMOVEDIR);
}

void rt_memcg_off(void)
{
	if (cg.dir >= 0)
		close(cg.dir);
	cg.dir = -1;
}

const char *rt_memcg_limit(uint64_t bytes)
{
	const char *err = NULL;

	if (cg.limit_fd < 0)
		return NULL;
	if (bytes && bytes != cg.spare_limit && limit_set(cg.limit_fd, cg.swap_fd, bytes))
		err = "cannot set the TA's memory limit";
	close(cg.limit_fd);
	cg.limit_fd = -1;
	if (cg.swap_fd >= 0)
		close(cg.swap_fd);
	cg.swap_fd = -1;
	return err;
}
