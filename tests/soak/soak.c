/*
 * Load: many client processes, each with several sessions, each making many
 * invokes with memrefs (temporary and allocated shared memory), checked
 * answer by answer. Every fourth client also uses trusted storage between
 * its invokes, through a session to the storage test TA: every
 * STORAGE_EVERY invokes, an object of its own is created with data, grown
 * by a write, read back whole and checked, and deleted (durable changes,
 * each committed before it returns). Reports invokes/s and storage ops/s
 * and the core's file descriptors and resident memory before and after;
 * fails on any error or on growth.
 * usage: soak CLIENTS SESSIONS INVOKES
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "ta_basic.h"
#include "ta_storage.h"
#include "proc_info.h"

/* Every how many invokes a storage client makes one round of storage ops. */
#define STORAGE_EVERY 10
/* Which clients use storage: every STORAGE_CLIENTS-th. */
#define STORAGE_CLIENTS 4
#define STORAGE_MAX 9000u
/* Object flags of the storage TA's commands (GP's TEE_DATA_FLAG_*). */
#define ST_FLAGS (0x1u | 0x2u | 0x4u | 0x400u)
#define ST_PRIVATE 1u

static const TEEC_UUID basic_uuid = TA_BASIC_UUID;
static const TEEC_UUID storage_uuid = TA_STORAGE_UUID;

/* What a client tells the parent at its end. */
struct client_report {
	unsigned long storage_ops;
	double secs;
	int storage; /* it was a storage client */
};

static double since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The storage session of a client, and what it did. */
struct stor {
	TEEC_Session s;
	uint8_t *out;
	uint8_t *in;
	unsigned long ops;
	int errors;
};

static TEEC_Result st_invoke(struct stor *st, uint32_t cmd, TEEC_Operation *op, const char *what,
			     int id)
{
	uint32_t orig = 0;
	TEEC_Result res = TEEC_InvokeCommand(&st->s, cmd, op, &orig);

	if (res) {
		fprintf(stderr, "soak: client %d: storage %s: 0x%08x (origin %u)\n", id, what, res,
			orig);
		st->errors++;
	}
	return res;
}

/*
 * One round: create soak-ID-N with len bytes, append more through the
 * handle, read it all back and compare, close and delete. Four storage
 * ops, three of them durable changes.
 */
static void storage_round(struct stor *st, int id, int n)
{
	char name[32];
	uint32_t len = 1 + (uint32_t)((n * 2654435761u + (unsigned int)id) % (STORAGE_MAX / 2));
	uint32_t more = 1 + (uint32_t)((n * 40503u + 7u) % (STORAGE_MAX / 2));
	uint32_t seed = (uint32_t)id << 20 ^ (uint32_t)n;
	uint32_t h = 0;
	TEEC_Operation op;

	snprintf(name, sizeof(name), "soak-%d-%d", id, n % 4);
	for (uint32_t i = 0; i < len + more; i++)
		st->out[i] = ta_storage_pattern(seed, i);
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT, TEEC_VALUE_INPUT,
					 TEEC_MEMREF_TEMP_INPUT);
	op.params[0].tmpref.buffer = name;
	op.params[0].tmpref.size = strlen(name);
	op.params[1].value.a = ST_FLAGS;
	op.params[2].value.b = ST_PRIVATE;
	op.params[3].tmpref.buffer = st->out;
	op.params[3].tmpref.size = len;
	if (st_invoke(st, TA_STORAGE_CMD_CREATE, &op, "create", id))
		return;
	h = op.params[1].value.b;
	st->ops++;
	/* Append: to the end, then the rest of the pattern. */
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	op.params[1].value.a = 2; /* TEE_DATA_SEEK_END */
	if (!st_invoke(st, TA_STORAGE_CMD_SEEK, &op, "seek", id)) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].tmpref.buffer = st->out + len;
		op.params[0].tmpref.size = more;
		op.params[1].value.a = h;
		if (!st_invoke(st, TA_STORAGE_CMD_WRITE, &op, "write", id))
			st->ops++;
	}
	/* Back to the start, and all of it read back. */
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INOUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	op.params[1].value.a = 0; /* TEE_DATA_SEEK_SET */
	if (!st_invoke(st, TA_STORAGE_CMD_SEEK, &op, "seek", id)) {
		memset(&op, 0, sizeof(op));
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_VALUE_INOUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].tmpref.buffer = st->in;
		op.params[0].tmpref.size = STORAGE_MAX;
		op.params[1].value.a = h;
		if (!st_invoke(st, TA_STORAGE_CMD_READ, &op, "read", id)) {
			st->ops++;
			if (op.params[1].value.b != len + more ||
			    memcmp(st->in, st->out, len + more) != 0) {
				fprintf(stderr,
					"soak: client %d: %s read back %u bytes, not the %u "
					"written\n",
					id, name, op.params[1].value.b, len + more);
				st->errors++;
			}
		}
	}
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = h;
	if (!st_invoke(st, TA_STORAGE_CMD_UNLINK, &op, "delete", id))
		st->ops++;
}

/*
 * A client: its sessions to the basic TA, and for a storage client one to
 * the storage TA. Writes a client_report to report (a pipe); 0 when every
 * answer was right.
 */
static int one_client(int id, int sessions, int invokes, int report)
{
	struct client_report rep = {0};
	struct timespec t0;
	TEEC_Context ctx;
	TEEC_Session *s = calloc((size_t)sessions, sizeof(*s));
	TEEC_SharedMemory shm = {.size = 4096, .flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT};
	uint8_t in[512];
	uint8_t out[512];
	struct stor st = {0};
	bool storage = id % STORAGE_CLIENTS == STORAGE_CLIENTS - 1;
	uint32_t orig = 0;
	int errors = 0;
	int opened = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!s || TEEC_InitializeContext(NULL, &ctx)) {
		free(s);
		return 1;
	}
	if (TEEC_AllocateSharedMemory(&ctx, &shm)) {
		TEEC_FinalizeContext(&ctx);
		free(s);
		return 1;
	}
	for (; opened < sessions; opened++)
		if (TEEC_OpenSession(&ctx, &s[opened], &basic_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
				     &orig))
			break;
	errors += sessions - opened;
	if (storage) {
		st.out = malloc(STORAGE_MAX);
		st.in = malloc(STORAGE_MAX);
		if (!st.out || !st.in ||
		    TEEC_OpenSession(&ctx, &st.s, &storage_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
				     &orig)) {
			fprintf(stderr, "soak: client %d: no session to the storage TA\n", id);
			storage = false;
			errors++;
		}
	}
	for (int i = 0; i < invokes; i++) {
		TEEC_Session *ss = &s[i % (opened ? opened : 1)];
		TEEC_Operation op;
		size_t n = 1 + (size_t)((i * 7 + id) % (int)sizeof(in));

		if (!opened)
			break;
		memset(&op, 0, sizeof(op));
		for (size_t k = 0; k < n; k++)
			in[k] = (uint8_t)(k + (size_t)i + (size_t)id);
		if (i % 2) {
			op.paramTypes = TEEC_PARAM_TYPES(
			    TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
			op.params[0].tmpref.buffer = in;
			op.params[0].tmpref.size = n;
			op.params[1].tmpref.buffer = out;
			op.params[1].tmpref.size = sizeof(out);
		} else {
			memcpy(shm.buffer, in, n);
			op.paramTypes =
			    TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INPUT, TEEC_MEMREF_PARTIAL_OUTPUT,
					     TEEC_NONE, TEEC_NONE);
			op.params[0].memref.parent = &shm;
			op.params[0].memref.size = n;
			op.params[1].memref.parent = &shm;
			op.params[1].memref.offset = 2048;
			op.params[1].memref.size = 1024;
		}
		if (storage && i % STORAGE_EVERY == STORAGE_EVERY - 1)
			storage_round(&st, id, i / STORAGE_EVERY);
		if (TEEC_InvokeCommand(ss, TA_BASIC_CMD_REVERSE, &op, &orig)) {
			errors++;
			continue;
		}
		{
			const uint8_t *got = i % 2 ? out : (const uint8_t *)shm.buffer + 2048;

			if (got[0] != in[n - 1] || got[n - 1] != in[0])
				errors++;
		}
	}
	if (storage)
		TEEC_CloseSession(&st.s);
	for (int i = 0; i < opened; i++)
		TEEC_CloseSession(&s[i]);
	TEEC_ReleaseSharedMemory(&shm);
	TEEC_FinalizeContext(&ctx);
	free(s);
	free(st.out);
	free(st.in);
	rep.storage_ops = st.ops;
	rep.secs = since(&t0);
	rep.storage = storage;
	if (write(report, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		errors++;
	return errors + st.errors ? 1 : 0;
}

/*
 * One storage call of a new instance of the storage TA: the core then
 * joins the storage workers of instances that ended (it does so whenever
 * an instance first asks for storage) and keeps this one's until the next.
 * 0, or -1 when it failed.
 */
static int storage_touch(TEEC_Context *ctx)
{
	static const char name[] = "soak-touch";
	TEEC_Session s;
	TEEC_Operation op;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_SUCCESS;

	if (TEEC_OpenSession(ctx, &s, &storage_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig))
		return -1;
	memset(&op, 0, sizeof(op));
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_INOUT, TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)name;
	op.params[0].tmpref.size = sizeof(name) - 1;
	op.params[1].value.a = 0x1; /* TEE_DATA_FLAG_ACCESS_READ */
	op.params[2].value.a = ST_PRIVATE;
	res = TEEC_InvokeCommand(&s, TA_STORAGE_CMD_OPEN, &op, &orig);
	TEEC_CloseSession(&s);
	return res == TEEC_ERROR_ITEM_NOT_FOUND ? 0 : -1;
}

/*
 * The core's pid, after one session to each TA and one storage call, so
 * that what the core keeps for good (its copies of the verified TA images,
 * the storage keys, the last storage worker) is in the baseline.
 */
static pid_t core_pid(void)
{
	TEEC_Context ctx;
	TEEC_Session s;
	struct ucred cred = {0};
	socklen_t len = sizeof(cred);
	uint32_t orig = 0;

	if (TEEC_InitializeContext(NULL, &ctx))
		return -1;
	getsockopt(ctx.imp.fd, SOL_SOCKET, SO_PEERCRED, &cred, &len);
	if (!TEEC_OpenSession(&ctx, &s, &basic_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig))
		TEEC_CloseSession(&s);
	if (storage_touch(&ctx))
		fprintf(stderr, "soak: the storage TA does not answer\n");
	TEEC_FinalizeContext(&ctx);
	usleep(200000); /* the instances end, the spares are back */
	return cred.pid;
}

/* After the load: one storage call, so that the workers of ended instances are joined. */
static void settle(void)
{
	TEEC_Context ctx;

	usleep(200000); /* the storage instances end, their stores are checkpointed */
	if (TEEC_InitializeContext(NULL, &ctx))
		return;
	storage_touch(&ctx);
	TEEC_FinalizeContext(&ctx);
	usleep(200000);
}

int main(int argc, char **argv)
{
	int clients = argc > 1 ? atoi(argv[1]) : 8;
	int sessions = argc > 2 ? atoi(argv[2]) : 4;
	int invokes = argc > 3 ? atoi(argv[3]) : 500;
	pid_t core = core_pid();
	long fds0 = proc_fd_count(core);
	long rss0 = proc_status_field(core, "VmRSS");
	struct timespec t0;
	unsigned long storage_ops = 0;
	int report[2] = {-1, -1};
	int storage_clients = 0;
	int failed = 0;
	double secs = 0;
	double plain_secs = 0;	 /* the slowest client without storage */
	double storage_secs = 0; /* the slowest storage client */

	if (core <= 0) {
		fprintf(stderr, "soak: no TEE is reachable; run it under swtee run\n");
		return 1;
	}
	if (pipe(report)) {
		fprintf(stderr, "soak: pipe: %s\n", strerror(errno));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int c = 0; c < clients; c++) {
		pid_t p = fork();

		if (p == 0) {
			close(report[0]);
			_exit(one_client(c, sessions, invokes, report[1]));
		}
	}
	close(report[1]);
	for (int c = 0; c < clients; c++) {
		int st = 0;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failed++;
	}
	secs = since(&t0);
	for (int c = 0; c < clients; c++) {
		struct client_report r;

		if (read(report[0], &r, sizeof(r)) != (ssize_t)sizeof(r))
			continue;
		storage_ops += r.storage_ops;
		storage_clients += r.storage;
		if (r.storage && r.secs > storage_secs)
			storage_secs = r.secs;
		if (!r.storage && r.secs > plain_secs)
			plain_secs = r.secs;
	}
	close(report[0]);
	settle();
	/* Instances end asynchronously: give the core a moment to reap them. */
	for (int i = 0; i < 50 && proc_fd_count(core) > fds0 + 2; i++)
		usleep(100000);
	printf("soak: %d clients x %d sessions x %d invokes in %.2f s: %.0f invokes/s\n", clients,
	       sessions, invokes, secs, (double)clients * invokes / secs);
	if (clients > storage_clients && plain_secs > 0)
		printf("soak: the %d clients without storage took %.2f s: %.0f invokes/s\n",
		       clients - storage_clients, plain_secs,
		       (double)(clients - storage_clients) * invokes / plain_secs);
	if (storage_clients && storage_secs > 0)
		printf(
		    "soak: the %d storage clients also made %lu storage ops (create, write, read "
		    "back, delete) in %.2f s: %.0f storage ops/s\n",
		    storage_clients, storage_ops, storage_secs, (double)storage_ops / storage_secs);
	if (storage_ops < (unsigned long)(clients / STORAGE_CLIENTS) *
			      (unsigned long)(invokes / STORAGE_EVERY) * 4) {
		printf("soak: storage ops are missing\n");
		failed++;
	}
	printf("soak: core fds %ld -> %ld, RSS %ld -> %ld KiB\n", fds0, proc_fd_count(core), rss0,
	       proc_status_field(core, "VmRSS"));
	if (fds0 >= 0 && proc_fd_count(core) > fds0 + 2) {
		printf("soak: the core's descriptors grew\n");
		failed++;
	}
#ifdef SWTEE_SANITIZE
	/* AddressSanitizer keeps what is freed in quarantine; LeakSanitizer checks leaks at exit.
	 */
	printf("soak: (sanitizer build: the core's memory is not checked)\n");
#else
	if (rss0 > 0 && proc_status_field(core, "VmRSS") > rss0 + 8192) {
		printf("soak: the core's memory grew by more than 8 MiB\n");
		failed++;
	}
#endif
	printf("%d passed, %d failed\n", clients - (failed > clients ? clients : failed), failed);
	return failed ? 1 : 0;
}
