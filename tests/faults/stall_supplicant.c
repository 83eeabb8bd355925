/*
 * A supplicant that stalls: it says hello and serves MSG_SUPP_LOAD_TA from
 * a TA directory, except for one UUID it never answers. With "mute" it
 * connects and never says hello; it prints "closed" when the core hangs up.
 * usage: stall_supplicant SOCKET TA_DIR STALL_UUID | SOCKET mute
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "buf.h"
#include "msg.h"
#include "proto.h"
#include "uuid.h"

static int connect_to(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void answer(int fd, uint32_t req, const char *dir, const struct swtee_uuid *u)
{
	char name[SWTEE_UUID_STR_LEN];
	char path[4096];
	uint8_t out[12];
	struct buf_writer w;
	int ta = -1;

	uuid_format(u, name);
	snprintf(path, sizeof(path), "%s/%s.ta", dir, name);
	ta = open(path, O_RDONLY | O_CLOEXEC);
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_SUPP_LOAD_TA_RSP);
	buf_put_u32(&w, req);
	buf_put_u32(&w, ta >= 0 ? TEEC_SUCCESS : TEEC_ERROR_ITEM_NOT_FOUND);
	msg_send(fd, out, buf_written(&w), ta >= 0 ? &ta : NULL, ta >= 0 ? 1 : 0);
	if (ta >= 0)
		close(ta);
}

static int serve(int fd, const char *dir, const struct swtee_uuid *stall)
{
	for (;;) {
		uint8_t in[PROTO_MSG_MAX];
		struct msg_fds fds;
		struct buf_reader r;
		struct swtee_uuid u;
		uint32_t type = 0;
		uint32_t req = 0;
		ssize_t n = msg_recv(fd, in, sizeof(in), &fds);

		msg_fds_close(&fds); /* channels are not served */
		if (n <= 0) {
			printf("closed\n");
			return 0;
		}
		buf_reader_init(&r, in, (size_t)n);
		buf_get_u32(&r, &type);
		buf_get_u32(&r, &req);
		buf_get_bytes(&r, u.b, sizeof(u.b));
		if (type != MSG_SUPP_LOAD_TA || !buf_done(&r))
			continue;
		if (uuid_equal(&u, stall)) {
			printf("stalling\n");
			fflush(stdout);
			continue;
		}
		answer(fd, req, dir, &u);
	}
}

int main(int argc, char **argv)
{
	uint8_t hello[8];
	uint8_t echo[16];
	struct buf_writer w;
	struct msg_fds fds;
	struct swtee_uuid stall;
	int fd = argc > 2 ? connect_to(argv[1]) : -1;

	if (fd < 0)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[2], "mute")) {
		printf("connected\n");
		while (read(fd, echo, sizeof(echo)) > 0)
			;
		printf("closed\n");
		return 0;
	}
	if (argc != 4 || !uuid_parse(argv[3], &stall))
		return 2;
	buf_writer_init(&w, hello, sizeof(hello));
	buf_put_u32(&w, MSG_SUPP_HELLO);
	buf_put_u32(&w, PROTO_SUPP_VERSION);
	if (msg_send(fd, hello, buf_written(&w), NULL, 0) ||
	    msg_recv(fd, echo, sizeof(echo), &fds) != (ssize_t)sizeof(hello))
		return 1;
	msg_fds_close(&fds);
	printf("connected\n");
	return serve(fd, argv[2], &stall);
}
