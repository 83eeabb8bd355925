/*
 * The memory cgroup of each TA process (the core's src/core/ta_memcg.c finds
 * the hierarchy and makes the directory for them). The zygote does all the
 * cgroup work that follows, as a cgroup operation may wait for the kernel
 * (a migration holds the cgroup lock through an RCU grace period, up to
 * tens of milliseconds): that delays the next spare, never the core.
 *
 * For each spare the zygote makes ta-N with the limit of most TAs, forks,
 * and the child joins it before anything else; the child keeps its limit
 * files open until the core sends it a TA, whose own limit it writes then,
 * before the TA's first instruction, and closes them.
 *
 * When the zygote reaps the process its cgroup is empty. Making and
 * removing a memory cgroup costs the kernel more CPU than the rest of a
 * session open (dozens of control files, per-CPU statistics, an RCU-delayed
 * free), so a few empty cgroups are kept for the next spares: each holds
 * next to no memory (RT_MEMCG_REUSE_MAX; a dead process's charges are gone,
 * only those of memory files that outlive it stay) and gets the spares'
 * limit back. Any other is removed.
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

#define RT_MEMCG_IDLE 4		      /* empty cgroups kept for spares */
#define RT_MEMCG_REUSE_MAX (4u << 20) /* what one may still hold */

static struct {
	int dir;	      /* the core's directory of TA cgroups, or -1 */
	int version;	      /* 1 or 2 */
	uint64_t spare_limit; /* what a spare starts with */
	/* In a spare: its limit files, until it has a TA. */
	int limit_fd;
	int swap_fd;
	/* In the zygote: which cgroup is whose, and the empty ones. */
	struct {
		pid_t pid;
		uint32_t id;
	} * procs;
	size_t nprocs, cap;
	uint32_t idle[RT_MEMCG_IDLE];
	size_t nidle;
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

static int open_in(uint32_t id, const char *file, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "ta-%" PRIu32 "/%s", id, file);
	return openat(cg.dir, path, flags | O_CLOEXEC);
}

int rt_memcg_spare(uint32_t tag, struct rt_memcg_spare *sp)
{
	bool reused = cg.dir >= 0 && cg.nidle > 0;

	sp->procs_fd = sp->limit_fd = sp->swap_fd = -1;
	sp->id = reused ? cg.idle[--cg.nidle] : tag;
	if (cg.dir < 0)
		return 0;
	if (!reused) {
		char name[24];

		snprintf(name, sizeof(name), "ta-%" PRIu32, sp->id);
		if (mkdirat(cg.dir, name, 0755) && errno != EEXIST)
			goto fail;
	}
	sp->limit_fd = open_in(sp->id, limit_file(), O_WRONLY);
	sp->swap_fd = open_in(sp->id, swap_file(), O_WRONLY); /* absent without swap accounting */
	sp->procs_fd = open_in(sp->id, "cgroup.procs", O_WRONLY);
	/* A reused cgroup got the spares' limit back when it became idle. */
	if (sp->procs_fd < 0 || (!reused && limit_set(sp->limit_fd, sp->swap_fd, cg.spare_limit)))
		goto fail;
	return 1;
fail:
	log_error("cannot make the memory cgroup ta-%" PRIu32 " of a TA process: %s", sp->id,
		  strerror(errno));
	rt_memcg_spare_close(sp);
	rt_memcg_discard(sp->id);
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
	cg.nprocs = cg.cap = cg.nidle = 0;
}

int rt_memcg_forked(pid_t pid, uint32_t id)
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
	cg.procs[cg.nprocs].id = id;
	cg.nprocs++;
	return 0;
}

/* What the empty cgroup id still holds, or UINT64_MAX if that is unknown. */
static uint64_t usage(uint32_t id)
{
	char text[32];
	int fd =
	    open_in(id, cg.version == 1 ? "memory.usage_in_bytes" : "memory.current", O_RDONLY);
	ssize_t n = fd >= 0 ? pread(fd, text, sizeof(text) - 1, 0) : -1;
	char *end = NULL;
	uint64_t bytes = UINT64_MAX;

	if (n > 0) {
		text[n] = '\0';
		errno = 0;
		bytes = strtoull(text, &end, 10);
		if (errno || end == text)
			bytes = UINT64_MAX;
	}
	if (fd >= 0)
		close(fd);
	return bytes;
}

/* Keeps the empty cgroup id for a later spare, with the spares' limit. */
static bool keep_idle(uint32_t id)
{
	int limit_fd = -1;
	int swap_fd = -1;
	bool kept = false;

	if (cg.nidle == RT_MEMCG_IDLE || usage(id) > RT_MEMCG_REUSE_MAX)
		return false;
	limit_fd = open_in(id, limit_file(), O_WRONLY);
	swap_fd = open_in(id, swap_file(), O_WRONLY);
	if (limit_fd >= 0 && !limit_set(limit_fd, swap_fd, cg.spare_limit)) {
		cg.idle[cg.nidle++] = id;
		kept = true;
	}
	if (limit_fd >= 0)
		close(limit_fd);
	if (swap_fd >= 0)
		close(swap_fd);
	return kept;
}

void rt_memcg_reaped(pid_t pid)
{
	for (size_t i = 0; i < cg.nprocs; i++) {
		uint32_t id = cg.procs[i].id;

		if (cg.procs[i].pid != pid)
			continue;
		cg.procs[i] = cg.procs[--cg.nprocs];
		if (cg.dir >= 0 && !keep_idle(id))
			rt_memcg_discard(id);
		return;
	}
}

void rt_memcg_discard(uint32_t id)
{
	char name[24];

	snprintf(name, sizeof(name), "ta-%" PRIu32, id);
	if (cg.dir >= 0 && unlinkat(cg.dir, name, AT_REMOVEDIR) && errno != ENOENT)
		log_error("cannot remove the memory cgroup %s: %s", name, strerror(errno));
}

void rt_memcg_off(void)
{
	while (cg.nidle)
		rt_memcg_discard(cg.idle[--cg.nidle]);
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
