/*
 * Two attacks on a login by executable that libteec would never make, in
 * the core's own protocol (app_identity.sh runs them). Each prints what the
 * core answered the APPLICATION open: "granted" or "refused <result hex>".
 *
 * exec_race before-accept PROGRAM
 *	With the core stopped: connect, send the nonce request and an open
 *	with a guessed nonce at once, fork, and exec PROGRAM in the parent,
 *	so that the core, once it runs, reads PROGRAM as the connecting
 *	process. The child, still this program, reads the answer.
 * exec_race after-send PROGRAM CORE_PID
 *	Connect with the core stopped, fork, exec PROGRAM in the parent (the
 *	core reads PROGRAM as who connected); the child, still this program,
 *	asks for the nonce, stops the core, sends the open and execs PROGRAM
 *	itself, so that the core finds PROGRAM in the sender when it reads the
 *	open. A grandchild resumes the core and reads the answer.
 *
 * PROGRAM is run with the argument "3" by the connecting process and
 * "3.5" by the sender, so that their layouts differ even where address
 * randomisation is off.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "buf.h"
#include "msg.h"
#include "proto.h"
#include "ta_props.h"
#include "uuid.h"

static int send_msg(int fd, struct buf_writer *w)
{
	return msg_send(fd, w->p, buf_written(w), NULL, 0);
}

static int send_nonce_request(int fd)
{
	uint8_t out[8];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_NONCE);
	return send_msg(fd, &w);
}

static int send_open(int fd, const uint8_t nonce[PROTO_NONCE_SIZE])
{
	static const TEEC_UUID uuid = TA_PROPS_UUID;
	struct swtee_uuid u;
	uint8_t out[64];
	struct buf_writer w;

	uuid_from_fields(&u, uuid.timeLow, uuid.timeMid, uuid.timeHiAndVersion,
			 uuid.clockSeqAndNode);
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_OPEN);
	buf_put_bytes(&w, u.b, sizeof(u.b));
	buf_put_u32(&w, TEEC_LOGIN_APPLICATION);
	buf_put_u32(&w, 0);
	buf_put_bytes(&w, nonce, PROTO_NONCE_SIZE);
	return send_msg(fd, &w);
}

/* The next answer of the core: its type, and its first word in *v; 0 when none came. */
static uint32_t answer(int fd, uint32_t *v, uint8_t nonce[PROTO_NONCE_SIZE])
{
	uint8_t in[PROTO_MSG_MAX];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	ssize_t n = msg_recv(fd, in, sizeof(in), &fds);

	if (n <= 0)
		return 0;
	msg_fds_close(&fds);
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	if (type == MSG_CORE_NONCE_RSP)
		buf_get_bytes(&r, nonce, PROTO_NONCE_SIZE);
	else
		buf_get_u32(&r, v);
	return type;
}

/* Reads answers up to the open's and prints it; 0, or 1 when none came. */
static int print_open_answer(int fd)
{
	uint8_t nonce[PROTO_NONCE_SIZE];
	uint32_t type = 0;
	uint32_t res = 0;

	while ((type = answer(fd, &res, nonce)) == MSG_CORE_NONCE_RSP)
		;
	if (type != MSG_CORE_OPEN_RSP) {
		printf("no answer (0x%x)\n", type);
		return 1;
	}
	if (res == TEEC_SUCCESS)
		printf("granted\n");
	else
		printf("refused %08x\n", res);
	return 0;
}

static void become(const char *program, const char *arg)
{
	execl(program, program, arg, (char *)NULL);
	_exit(127);
}

static int before_accept(int fd, const char *program)
{
	static const uint8_t guess[PROTO_NONCE_SIZE];
	pid_t pid = 0;

	if (send_nonce_request(fd) || send_open(fd, guess))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid > 0)
		become(program, "3");
	return print_open_answer(fd);
}

static int after_send(int fd, const char *program, pid_t core)
{
	uint8_t nonce[PROTO_NONCE_SIZE];
	uint32_t unused = 0;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid > 0)
		become(program, "3");
	/* The core reads who connected once the test resumes it, after the exec. */
	usleep(200 * 1000);
	if (send_nonce_request(fd) || answer(fd, &unused, nonce) != MSG_CORE_NONCE_RSP)
		return 1;
	if (kill(core, SIGSTOP) || send_open(fd, nonce))
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid > 0)
		become(program, "3.5");
	usleep(300 * 1000);
	kill(core, SIGCONT);
	return print_open_answer(fd);
}

int main(int argc, char **argv)
{
	const char *path = getenv("SWTEE_SOCKET");
	int fd = -1;

	if (argc < 3 || !path)
		return 2;
	fd = msg_connect(path);
	if (fd < 0) {
		fprintf(stderr, "exec_race: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "before-accept"))
		return before_accept(fd, argv[2]);
	if (!strcmp(argv[1], "after-send") && argc == 4)
		return after_send(fd, argv[2], (pid_t)atoi(argv[3]));
	return 2;
}
