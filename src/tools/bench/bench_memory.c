/*
 * swtee bench group "memory": what the core and one idle TA instance cost
 * in memory, read from /proc while a session is open.
 *
 * The processes are found from the outside, as a user would: the core is
 * the peer of the context's socket (SO_PEERCRED), the zygote is one of the
 * core's children, and a TA instance is a child of the zygote that maps
 * its TA's ELF, a memfd named after the TA's UUID.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "bench.h"
#include "bench_text.h"
#include "ta_basic.h"

#define MEMORY_TARGET_PSS_KIB 1536
#define MEMORY_MAX_PIDS 1024

struct pid_set {
	pid_t pid[MEMORY_MAX_PIDS];
	pid_t parent[MEMORY_MAX_PIDS];
	size_t n;
};

/* Reads the "key: N kB" line of /proc/pid/file into *kib. */
static int proc_kib(pid_t pid, const char *file, const char *key, double *kib)
{
	char path[64];
	char line[256];
	size_t klen = strlen(key);
	unsigned long v = 0;
	FILE *f = NULL;
	int ret = -1;

	*kib = 0;
	bench_text(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "swtee bench: %s: %s\n", path, strerror(errno));
		goto out;
	}
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) != 0 || line[klen] != ':')
			continue;
		if (sscanf(line + klen + 1, "%lu kB", &v) == 1) {
			*kib = (double)v;
			ret = 0;
		}
		break;
	}
	if (ret)
		fprintf(stderr, "swtee bench: %s has no %s line in kB\n", path, key);
out:
	if (f)
		fclose(f);
	return ret;
}

/*
 * Adds the children of every thread of pid to set, each with pid as its
 * parent. A process that is gone has no children; that is no error.
 */
static int proc_children(pid_t pid, struct pid_set *set)
{
	char path[64];
	struct dirent *de = NULL;
	DIR *d = NULL;
	FILE *f = NULL;
	int child = 0;

	bench_text(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		bench_text(path, sizeof(path), "/proc/%d/task/%.16s/children", (int)pid,
			   de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fscanf(f, "%d", &child) == 1 && set->n < MEMORY_MAX_PIDS) {
			set->pid[set->n] = child;
			set->parent[set->n] = pid;
			set->n++;
		}
		fclose(f);
	}
	closedir(d);
	return 0;
}

/* 1 when a line of /proc/pid/maps contains needle, 0 when none does, -1 when unreadable. */
static int proc_maps_has(pid_t pid, const char *needle)
{
	char path[64];
	char line[PATH_MAX + 128];
	FILE *f = NULL;
	int found = 0;

	bench_text(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -1;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, needle) != NULL;
	fclose(f);
	return found;
}

/*
 * The instances of the TA whose memfd is named needle among the
 * grandchildren of core, with their zygote as parent. *denied is set when
 * some process's maps could not be read (non-dumpable processes of another
 * user need CAP_SYS_PTRACE).
 */
static int bench_find_instances(pid_t core, const char *needle, struct pid_set *out, bool *denied)
{
	struct pid_set *zygotes = NULL;
	struct pid_set *procs = NULL;
	size_t i = 0;
	int has = 0;
	int ret = -1;

	out->n = 0;
	zygotes = calloc(1, sizeof(*zygotes));
	procs = calloc(1, sizeof(*procs));
	if (!zygotes || !procs) {
		fprintf(stderr, "swtee bench: out of memory\n");
		goto out;
	}
	if (proc_children(core, zygotes))
		goto read_error;
	for (i = 0; i < zygotes->n; i++)
		if (proc_children(zygotes->pid[i], procs))
			goto read_error;
	for (i = 0; i < procs->n; i++) {
		has = proc_maps_has(procs->pid[i], needle);
		if (has < 0)
			*denied = true;
		if (has > 0) {
			out->pid[out->n] = procs->pid[i];
			out->parent[out->n] = procs->parent[i];
			out->n++;
		}
	}
	ret = 0;
	goto out;
read_error:
	fprintf(stderr, "swtee bench: reading the children of the core (pid %d): %s\n", (int)core,
		strerror(errno));
out:
	free(zygotes);
	free(procs);
	return ret;
}

static bool pid_set_has(const struct pid_set *set, pid_t pid)
{
	size_t i = 0;

	for (i = 0; i < set->n; i++)
		if (set->pid[i] == pid)
			return true;
	return false;
}

static int bench_report_kib(struct bench_ctx *ctx, const char *name, double kib, double target)
{
	struct bench_result r = {0};

	bench_text(r.name, sizeof(r.name), "%s", name);
	bench_text(r.unit, sizeof(r.unit), "KiB");
	r.value = kib;
	r.has_target_value = target > 0;
	r.target_value = target;
	return bench_report(ctx, &r);
}

static int bench_memory_run(struct bench_ctx *ctx)
{
	static const TEEC_UUID uuid = TA_BASIC_UUID;
	TEEC_Context *teec = bench_teec(ctx);
	struct pid_set *before = NULL;
	struct pid_set *after = NULL;
	struct ucred cred = {0};
	socklen_t len = sizeof(cred);
	TEEC_Session sess;
	TEEC_Operation op;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	char needle[64];
	pid_t instance = -1;
	pid_t zygote = -1;
	double core_rss = 0;
	double inst_pss = 0;
	double inst_rss = 0;
	double zygote_pss = 0;
	bool sess_open = false;
	bool denied = false;
	size_t i = 0;
	int ret = -1;

	bench_text(needle, sizeof(needle), "memfd:%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		   uuid.timeLow, uuid.timeMid, uuid.timeHiAndVersion, uuid.clockSeqAndNode[0],
		   uuid.clockSeqAndNode[1], uuid.clockSeqAndNode[2], uuid.clockSeqAndNode[3],
		   uuid.clockSeqAndNode[4], uuid.clockSeqAndNode[5], uuid.clockSeqAndNode[6],
		   uuid.clockSeqAndNode[7]);
	before = calloc(1, sizeof(*before));
	after = calloc(1, sizeof(*after));
	if (!before || !after) {
		fprintf(stderr, "swtee bench: out of memory\n");
		goto out;
	}
	if (getsockopt(teec->imp.fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.pid <= 0) {
		fprintf(stderr, "swtee bench: SO_PEERCRED on the TEE socket: %s\n",
			strerror(errno));
		goto out;
	}

	/* The instance is the one that appears with our session. */
	if (bench_find_instances(cred.pid, needle, before, &denied))
		goto out;
	res = TEEC_OpenSession(teec, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr,
			"swtee bench: opening a session to the basic test TA: TEEC error 0x%08x "
			"(origin %u)\n",
			res, origin);
		goto out;
	}
	sess_open = true;
	/* Idle, but having served a call, as an instance usually is. */
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(&sess, TA_BASIC_CMD_NOP, &op, &origin);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "swtee bench: no-op invoke: TEEC error 0x%08x (origin %u)\n", res,
			origin);
		goto out;
	}
	if (bench_find_instances(cred.pid, needle, after, &denied))
		goto out;
	for (i = 0; i < after->n && instance < 0; i++) {
		if (!pid_set_has(before, after->pid[i])) {
			instance = after->pid[i];
			zygote = after->parent[i];
		}
	}
	if (instance < 0) {
		fprintf(stderr,
			"swtee bench: found no new process mapping %s among the core's "
			"(pid %d) grandchildren%s\n",
			needle, (int)cred.pid,
			denied ? "; some maps were unreadable: the TEE's processes are not "
				 "dumpable, reading them needs the TEE's user or CAP_SYS_PTRACE"
			       : "");
		goto out;
	}

	if (proc_kib(cred.pid, "status", "VmRSS", &core_rss) ||
	    proc_kib(instance, "smaps_rollup", "Pss", &inst_pss) ||
	    proc_kib(instance, "status", "VmRSS", &inst_rss) ||
	    proc_kib(zygote, "smaps_rollup", "Pss", &zygote_pss))
		goto out;
	if (bench_report_kib(ctx, "core_rss", core_rss, 0) ||
	    bench_report_kib(ctx, "ta_instance_pss", inst_pss, MEMORY_TARGET_PSS_KIB) ||
	    bench_report_kib(ctx, "ta_instance_rss", inst_rss, 0) ||
	    bench_report_kib(ctx, "zygote_pss", zygote_pss, 0))
		goto out;
	ret = 0;
out:
	if (sess_open)
		TEEC_CloseSession(&sess);
	free(before);
	free(after);
	return ret;
}

static const struct bench_group bench_memory_group = {
    .name = "memory",
    .help = "resident size of the core, PSS of an idle TA instance and of the zygote",
    .order = 30,
    .run = bench_memory_run,
};
BENCH_GROUP_DEFINE(bench_memory_group);
