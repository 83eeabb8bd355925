/*
 * Load: many client processes, each with several sessions, each making many
 * invokes with memrefs (temporary and allocated shared memory), checked
 * answer by answer. Reports throughput and the core's file descriptors and
 * resident memory before and after; fails on any error or on growth.
 * usage: soak CLIENTS SESSIONS INVOKES
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "ta_basic.h"

static const TEEC_UUID basic_uuid = TA_BASIC_UUID;

static long count_fds(pid_t pid)
{
	char path[64];
	long n = 0;
	DIR *d = NULL;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n - 2;
}

static long rss_kib(pid_t pid)
{
	char path[64];
	char line[256];
	long kib = -1;
	FILE *f = NULL;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

static int one_client(int id, int sessions, int invokes)
{
	TEEC_Context ctx;
	TEEC_Session *s = calloc((size_t)sessions, sizeof(*s));
	TEEC_SharedMemory shm = {.size = 4096, .flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT};
	uint8_t in[512];
	uint8_t out[512];
	uint32_t orig = 0;
	int errors = 0;
	int opened = 0;

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
	for (int i = 0; i < opened; i++)
		TEEC_CloseSession(&s[i]);
	TEEC_ReleaseSharedMemory(&shm);
	TEEC_FinalizeContext(&ctx);
	free(s);
	return errors ? 1 : 0;
}

/*
 * The core's pid, after one session to the TA so that what the core keeps
 * for good (its copy of the verified TA image) is in the baseline.
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
	TEEC_FinalizeContext(&ctx);
	usleep(200000); /* the instance ends, the spares are back */
	return cred.pid;
}

int main(int argc, char **argv)
{
	int clients = argc > 1 ? atoi(argv[1]) : 8;
	int sessions = argc > 2 ? atoi(argv[2]) : 4;
	int invokes = argc > 3 ? atoi(argv[3]) : 500;
	pid_t core = core_pid();
	long fds0 = count_fds(core);
	long rss0 = rss_kib(core);
	struct timespec t0;
	struct timespec t1;
	int failed = 0;
	double secs = 0;

	if (core <= 0) {
		fprintf(stderr, "soak: no TEE is reachable; run it under swtee run\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int c = 0; c < clients; c++) {
		pid_t p = fork();

		if (p == 0)
			_exit(one_client(c, sessions, invokes));
	}
	for (int c = 0; c < clients; c++) {
		int st = 0;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			failed++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	/* Instances end asynchronously: give the core a moment to reap them. */
	for (int i = 0; i < 50 && count_fds(core) > fds0 + 2; i++)
		usleep(100000);
	printf("soak: %d clients x %d sessions x %d invokes in %.2f s: %.0f invokes/s\n", clients,
	       sessions, invokes, secs, (double)clients * invokes / secs);
	printf("soak: core fds %ld -> %ld, RSS %ld -> %ld KiB\n", fds0, count_fds(core), rss0,
	       rss_kib(core));
	if (fds0 >= 0 && count_fds(core) > fds0 + 2) {
		printf("soak: the core's descriptors grew\n");
		failed++;
	}
	if (rss0 > 0 && rss_kib(core) > rss0 + 8192) {
		printf("soak: the core's memory grew by more than 8 MiB\n");
		failed++;
	}
	printf("%d passed, %d failed\n", clients - (failed > clients ? clients : failed), failed);
	return failed ? 1 : 0;
}
