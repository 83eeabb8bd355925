/* swtee status: asks the core what it holds right now. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "msg.h"
#include "paths.h"
#include "proto.h"
#include "status.h"

/*
 * The core a client would reach (libteec's order): the user's own TEE, then
 * the system's unless SWTEE_SOCKET names one. path gets the one that
 * answered, or the user's own when none did.
 */
static int status_find(char *path, size_t n)
{
	const char *env = getenv("SWTEE_SOCKET");
	int fd = -1;
	int err = 0;

	if (paths_default_socket(path, n)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = msg_connect(path);
	err = errno;
	if (fd < 0 && !(env && *env) && (err == ENOENT || err == ECONNREFUSED)) {
		fd = msg_connect(SWTEE_SYSTEM_SOCKET);
		if (fd >= 0)
			snprintf(path, n, "%s", SWTEE_SYSTEM_SOCKET);
		else if (errno == ENOENT || errno == ECONNREFUSED)
			errno = err; /* nothing at either: say why the user's own failed */
	}
	return fd;
}

int swtee_status_main(int argc, char **argv)
{
	char path[SWTEE_PATH_MAX];
	uint8_t out[4];
	uint8_t in[64];
	struct buf_writer w;
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t type = 0;
	uint32_t v[5] = {0};
	bool has_memory = false;
	ssize_t n = 0;
	int fd = -1;

	if (argc > 1 && !strcmp(argv[1], "--properties") && argc <= 3)
		return swtee_status_props(argc == 3 ? argv[2] : NULL);
	if (argc > 1) {
		fprintf(stderr, "usage: swtee status [--properties [UUID|FILE.ta]]\n");
		return 2;
	}
	fd = status_find(path, sizeof(path));
	if (fd < 0) {
		const char *env = getenv("SWTEE_SOCKET");

		fprintf(stderr,
			"swtee status: no TEE at %s%s%s (%s).\n"
			"Start one with: swtee run -- swtee status\n",
			path, env && *env ? "" : " nor at ", env && *env ? "" : SWTEE_SYSTEM_SOCKET,
			strerror(errno));
		return 1;
	}
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_STATUS);
	if (msg_send(fd, out, buf_written(&w), NULL, 0))
		goto fail;
	n = msg_recv_timeout(fd, in, sizeof(in), &fds, 5000);
	msg_fds_close(&fds);
	if (n <= 0)
		goto fail;
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	for (int i = 0; i < 4; i++)
		buf_get_u32(&r, &v[i]);
	/* ta_memory came later: a core without it says nothing of it. */
	has_memory = buf_left(&r) > 0 && buf_get_u32(&r, &v[4]);
	if (!buf_done(&r) || type != MSG_CORE_STATUS_RSP)
		goto fail;
	printf("socket:          %s\n", path);
	printf("TA instances:    %u\n", v[0]);
	printf("sessions:        %u\n", v[1]);
	printf("spare processes: %u\n", v[2]);
	printf("tee-supplicant:  %s\n", v[3] ? "connected" : "not connected");
	if (has_memory && v[4])
		printf("TA memory:       one cgroup v%u per TA process\n", v[4]);
	else if (has_memory)
		printf("TA memory:       rlimits only (no cgroup the TEE may manage)\n");
	close(fd);
	return 0;
fail:
	fprintf(stderr, "swtee status: the TEE at %s did not answer\n", path);
	close(fd);
	return 1;
}
