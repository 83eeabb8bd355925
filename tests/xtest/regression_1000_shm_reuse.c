/*
 * regression 1090: shared memory a client allocates or registers for one
 * call. A small allocation used once and registered memory reach the TA
 * through the session's bounce buffer, so the TA maps nothing of theirs;
 * released memory libteec keeps for reuse is bounded and zeroed; and a
 * client that allocates without releasing, or dies with shared memory
 * outstanding, leaves no descriptor or mapping behind in the TA instance
 * or the core.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "proc_info.h"
#include "ta_basic.h"
#include "ta_sims.h"
#include "xtest_helpers.h"

/* libteec's pool bound (src/client/teec_shm_pool.h), which clients cannot see. */
#define POOL_MAX 8
#define SMALL_SIZE 4096
/* Above the size libteec copies on first use: the TA maps it. */
#define LARGE_SIZE (128 * 1024)
#define OUTSTANDING 40
/*
 * What the TA's resident size may grow by, in KiB, once the outstanding
 * mappings (20 of 128 KiB, 2.5 MiB) are gone: its heap's own growth. Under
 * AddressSanitizer the allocator's shadow and quarantine add pages too
 * (up to about 120 KiB seen once the TA waits awake between calls).
 */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_SLACK_KIB 256
#else
#define RSS_SLACK_KIB 64
#endif

static const TEEC_UUID basic_uuid = TA_BASIC_UUID;
static const TEEC_UUID keepalive_uuid = TA_KEEPALIVE_UUID;

/* Descriptors open in pid (0: this process), or -1. */
static long fd_count(pid_t pid)
{
	return proc_fd_count(pid ? pid : getpid());
}

/* Lines of /proc/PID/maps naming what, or -1. */
static long maps_count(pid_t pid, const char *what)
{
	char path[64];
	char line[512];
	long n = 0;
	FILE *f = NULL;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, what))
			n++;
	fclose(f);
	return n;
}

/* The core behind xtest's context, from its socket's peer credentials; -1 when unknown. */
static pid_t core_pid(void)
{
	struct ucred cred = {0};
	socklen_t len = sizeof(cred);

	if (getsockopt(xtest_teec_ctx.imp.fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return -1;
	return cred.pid;
}

/* Room for the instance processes of one TA that a case may see at once. */
#define MAX_INSTANCES 64

/* Whether pid is one of this test's core's instance processes (a child of its zygote). */
static bool is_instance(pid_t pid, pid_t core)
{
	char path[64];
	char comm[32];
	long parent = 0;
	bool ok = false;
	FILE *f = NULL;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(comm, sizeof(comm), f) && !strcmp(comm, "swtee-ta\n");
	fclose(f);
	if (!ok)
		return false;
	parent = proc_status_field(pid, "PPid");
	return parent > 0 && proc_status_field((pid_t)parent, "PPid") == core;
}

/*
 * The instance processes of this test's core that map the image of uuid:
 * at most max of them into pids; their number, or -1 when /proc or the
 * core cannot be read.
 */
static long ta_pids(const TEEC_UUID *u, pid_t *pids, size_t max)
{
	char name[40];
	pid_t core = core_pid();
	struct dirent *e = NULL;
	DIR *d = opendir("/proc");
	long n = -1;

	snprintf(name, sizeof(name), "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", u->timeLow,
		 u->timeMid, u->timeHiAndVersion, u->clockSeqAndNode[0], u->clockSeqAndNode[1],
		 u->clockSeqAndNode[2], u->clockSeqAndNode[3], u->clockSeqAndNode[4],
		 u->clockSeqAndNode[5], u->clockSeqAndNode[6], u->clockSeqAndNode[7]);
	if (!d || core <= 0)
		goto out;
	n = 0;
	while ((e = readdir(d)) != NULL) {
		pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);

		if (pid > 0 && is_instance(pid, core) && maps_count(pid, name) > 0 &&
		    (size_t)n < max)
			pids[n++] = pid;
	}
out:
	if (d)
		closedir(d);
	return n;
}

/*
 * Opens a session to uuid in s and finds the instance process serving it:
 * the one process of uuid that was not there before the open, or the only
 * one when the instance was already running (a keep-alive TA). Process ids
 * wrap around, so "the newest" cannot be told by the largest id. *ta is -1
 * when the process cannot be told apart (and is logged as a skip).
 */
static TEEC_Result open_with_pid(TEEC_Session *s, const TEEC_UUID *u, pid_t *ta)
{
	pid_t before[MAX_INSTANCES];
	pid_t after[MAX_INSTANCES];
	long nbefore = ta_pids(u, before, MAX_INSTANCES);
	long nafter = 0;
	long fresh = 0;
	uint32_t orig = 0;
	TEEC_Result res = xtest_teec_open_session(s, u, NULL, &orig);

	*ta = -1;
	if (res != TEEC_SUCCESS || nbefore < 0)
		return res;
	nafter = ta_pids(u, after, MAX_INSTANCES);
	for (long i = 0; i < nafter; i++) {
		bool seen = false;

		for (long j = 0; j < nbefore && !seen; j++)
			seen = after[i] == before[j];
		if (!seen) {
			*ta = after[i];
			fresh++;
		}
	}
	if (fresh > 1)
		*ta = -1;
	else if (fresh == 0 && nafter == 1)
		*ta = after[0];
	return res;
}

/* Invokes cmd with shm whole as param 0 and a value as param 1 (some TAs ignore both). */
static TEEC_Result invoke_shm(TEEC_Session *s, uint32_t cmd, TEEC_SharedMemory *shm)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_WHOLE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].memref.parent = shm;
	return TEEC_InvokeCommand(s, cmd, &op, &orig);
}

static TEEC_Result invoke_nop(TEEC_Session *s)
{
	uint32_t orig = 0;

	return TEEC_InvokeCommand(s, TA_BASIC_CMD_NOP, NULL, &orig);
}

static void shm_once(ADBG_Case_t *c, TEEC_Session *s, pid_t ta)
{
	TEEC_SharedMemory shm = {.size = SMALL_SIZE, .flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT};
	uint8_t local[SMALL_SIZE];
	long maps0 = maps_count(ta, "memfd:teec-shm");
	long fds0 = fd_count(ta);
	long self0 = 0;
	uint8_t *p = NULL;

	Do_ADBG_BeginSubCase(c, "Allocate + invoke: the TA maps nothing of it, sees its bytes");
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_AllocateSharedMemory(&xtest_teec_ctx, &shm)))
		goto end;
	p = shm.buffer;
	p[0] = 41;
	p[SMALL_SIZE - 1] = 7;
	ADBG_EXPECT_TEEC_SUCCESS(c, invoke_shm(s, TA_BASIC_CMD_TOUCH, &shm));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, p[0], ==, 42);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, p[SMALL_SIZE - 1], ==, 7);
	ADBG_EXPECT_COMPARE_SIGNED(c, maps_count(ta, "memfd:teec-shm"), ==, maps0);
	/* Used again, it is mapped, and what the TA writes is there without a copy. */
	ADBG_EXPECT_TEEC_SUCCESS(c, invoke_shm(s, TA_BASIC_CMD_TOUCH, &shm));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, p[0], ==, 43);
	ADBG_EXPECT_COMPARE_SIGNED(c, maps_count(ta, "memfd:teec-shm"), ==, maps0 + 1);
	TEEC_ReleaseSharedMemory(&shm);
	ADBG_EXPECT_TEEC_SUCCESS(c, invoke_nop(s));
	ADBG_EXPECT_COMPARE_SIGNED(c, maps_count(ta, "memfd:teec-shm"), ==, maps0);
	ADBG_EXPECT_COMPARE_SIGNED(c, fd_count(ta), <=, fds0);
end:
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Register + invoke: no memfd on either side");
	memset(local, 3, sizeof(local));
	self0 = fd_count(0);
	memset(&shm, 0, sizeof(shm));
	shm.buffer = local;
	shm.size = sizeof(local);
	shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_RegisterSharedMemory(&xtest_teec_ctx, &shm)))
		goto end2;
	ADBG_EXPECT_COMPARE_SIGNED(c, fd_count(0), ==, self0);
	ADBG_EXPECT_TEEC_SUCCESS(c, invoke_shm(s, TA_BASIC_CMD_TOUCH, &shm));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, local[0], ==, 4);
	ADBG_EXPECT_COMPARE_UNSIGNED(c, local[1], ==, 3);
	ADBG_EXPECT_COMPARE_SIGNED(c, maps_count(ta, "memfd:teec-shadow"), ==, 0);
	TEEC_ReleaseSharedMemory(&shm);
	ADBG_EXPECT_COMPARE_SIGNED(c, fd_count(0), ==, self0);
end2:
	Do_ADBG_EndSubCase(c, NULL);
}

static void shm_pool(ADBG_Case_t *c, TEEC_Session *s)
{
	TEEC_SharedMemory shm;
	long self0 = fd_count(0);
	bool zeroed = true;

	Do_ADBG_BeginSubCase(c, "Released memory is reused zeroed, within a bounded pool");
	for (size_t i = 0; i < 200; i++) {
		uint8_t *p = NULL;

		memset(&shm, 0, sizeof(shm));
		shm.size = (i % 16 + 1) * 4096;
		shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
		if (!ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_AllocateSharedMemory(&xtest_teec_ctx, &shm)))
			break;
		p = shm.buffer;
		for (size_t k = 0; k < shm.size; k += 512)
			zeroed = zeroed && !p[k];
		zeroed = zeroed && !p[shm.size - 1];
		memset(p, 0xa5, shm.size);
		if (i % 3 == 0)
			ADBG_EXPECT_TEEC_SUCCESS(c, invoke_shm(s, TA_BASIC_CMD_TOUCH, &shm));
		TEEC_ReleaseSharedMemory(&shm);
	}
	ADBG_EXPECT_TRUE(c, zeroed);
	ADBG_EXPECT_COMPARE_SIGNED(c, fd_count(0), <=, self0 + POOL_MAX);
	Do_ADBG_EndSubCase(c, NULL);
}

/* The child: opens a session, leaves shared memory outstanding and dies. */
static void __attribute__((noreturn)) outstanding_child(int ready)
{
	TEEC_SharedMemory shm[OUTSTANDING];
	TEEC_Context ctx;
	TEEC_Session s;
	uint32_t orig = 0;
	char ok = 1;

	if (TEEC_InitializeContext(xtest_tee_name, &ctx) ||
	    TEEC_OpenSession(&ctx, &s, &keepalive_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig))
		_exit(2);
	for (int i = 0; i < OUTSTANDING; i++) {
		memset(&shm[i], 0, sizeof(shm[i]));
		shm[i].size = i % 2 ? LARGE_SIZE : SMALL_SIZE;
		shm[i].flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
		if (TEEC_AllocateSharedMemory(&ctx, &shm[i]))
			_exit(3);
		/* Twice, so that the small ones are mapped too. */
		invoke_shm(&s, TA_SIMS_CMD_COUNTER, &shm[i]);
		invoke_shm(&s, TA_SIMS_CMD_COUNTER, &shm[i]);
	}
	if (write(ready, &ok, 1) != 1)
		_exit(4);
	pause();
	_exit(0);
}

/* Waits up to 3 s for count(pid) to fall to at most want; returns the last count. */
static long settle(pid_t pid, long (*count)(pid_t, const char *), const char *what, long want)
{
	long n = count(pid, what);

	for (int i = 0; i < 150 && n > want; i++) {
		nanosleep(&(struct timespec){.tv_nsec = 20 * 1000 * 1000}, NULL);
		n = count(pid, what);
	}
	return n;
}

static long fd_count_of(pid_t pid, const char *unused)
{
	(void)unused;
	return fd_count(pid);
}

static void shm_outstanding(ADBG_Case_t *c)
{
	TEEC_Session keep = {0};
	pid_t core = core_pid();
	pid_t ta = -1;
	pid_t child = -1;
	int pipefd[2] = {-1, -1};
	long ta_fds0 = 0, ta_maps0 = 0, core_fds0 = 0, ta_rss0 = 0;
	long ta_maps_mid = 0;
	char ok = 0;

	Do_ADBG_BeginSubCase(c, "A client that dies with shared memory outstanding leaves nothing");
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, open_with_pid(&keep, &keepalive_uuid, &ta)))
		goto end;
	if (ta <= 0 || fd_count(ta) < 0) {
		Do_ADBG_Log("    skipped: the instance's /proc entries cannot be read");
		goto close;
	}
	ta_fds0 = fd_count(ta);
	ta_maps0 = maps_count(ta, "memfd:teec");
	ta_rss0 = proc_status_field(ta, "VmRSS");
	core_fds0 = fd_count(core);
	if (!ADBG_EXPECT(c, 0, pipe(pipefd)))
		goto close;
	child = fork();
	if (child == 0) {
		close(pipefd[0]);
		outstanding_child(pipefd[1]);
	}
	close(pipefd[1]);
	if (!ADBG_EXPECT_TRUE(c, child > 0) || !ADBG_EXPECT(c, 1, read(pipefd[0], &ok, 1)))
		goto reap;
	/* The child's large shared memories are mapped in the instance now. */
	ta_maps_mid = maps_count(ta, "memfd:teec");
	ADBG_EXPECT_COMPARE_SIGNED(c, ta_maps_mid, >=, ta_maps0 + OUTSTANDING / 2);
reap:
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	close(pipefd[0]);
	ADBG_EXPECT_COMPARE_SIGNED(c, settle(ta, maps_count, "memfd:teec", ta_maps0), ==, ta_maps0);
	ADBG_EXPECT_COMPARE_SIGNED(c, settle(ta, fd_count_of, NULL, ta_fds0), <=, ta_fds0);
	if (core > 0 && core_fds0 >= 0)
		ADBG_EXPECT_COMPARE_SIGNED(c, settle(core, fd_count_of, NULL, core_fds0), <=,
					   core_fds0);
	/* The mappings are gone and their pages with them (with slack for the heap). */
	ADBG_EXPECT_COMPARE_SIGNED(c, proc_status_field(ta, "VmRSS"), <=, ta_rss0 + RSS_SLACK_KIB);
	Do_ADBG_Log("    instance %d: descriptors %ld, teec mappings %ld -> %ld -> %ld", (int)ta,
		    ta_fds0, ta_maps0, ta_maps_mid, maps_count(ta, "memfd:teec"));
close:
	TEEC_CloseSession(&keep);
end:
	Do_ADBG_EndSubCase(c, NULL);
}

static void xtest_tee_test_1090(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	pid_t ta = -1;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, open_with_pid(&s, &basic_uuid, &ta)))
		return;
	if (ta > 0 && maps_count(ta, "") >= 0) {
		shm_once(c, &s, ta);
		shm_pool(c, &s);
	} else {
		Do_ADBG_Log("    skipped: the instance's /proc entries cannot be read");
	}
	TEEC_CloseSession(&s);
	shm_outstanding(c);
}
ADBG_CASE_DEFINE(regression, 1090, xtest_tee_test_1090,
		 "Shared memory for one call: no TA mapping, bounded reuse, nothing left behind");
