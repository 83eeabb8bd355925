/*
 * Fuzzes the core's handling of a client message: the bytes arrive on a real
 * client connection and go through client_readable, as in swteed. No
 * supplicant or zygote is connected, so an open ends in a clear error.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core.h"
#include "log.h"
#include "msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct core core;

static bool listed(const struct client *cl)
{
	for (const struct client *p = core.clients; p; p = p->next)
		if (p == cl)
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct client *cl = NULL;
	socklen_t len = sizeof(struct ucred);
	uint8_t sink[PROTO_MSG_MAX];
	int sv[2] = {-1, -1};

	if (!core.epfd) {
		log_init("fuzz", 0);
		core.epfd = epoll_create1(EPOLL_CLOEXEC);
		core.zygote.fd = -1;
	}
	if (size > 2 * PROTO_MSG_MAX || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return 0;
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	cl = calloc(1, sizeof(*cl));
	if (!cl)
		abort();
	getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &cl->cred, &len);
	identity_capture(&cl->cred, &cl->facts);
	cl->ep.kind = EP_CLIENT;
	cl->ep.fd = sv[0];
	cl->ep.owner = cl;
	core_watch(&core, &cl->ep);
	cl->next = core.clients;
	core.clients = cl;
	core.nclients++;

	if (size && send(sv[1], data, size, MSG_NOSIGNAL) == (ssize_t)size)
		client_readable(&core, cl);
	/* Then the client goes away, as every client does. */
	close(sv[1]);
	while (read(sv[1], sink, sizeof(sink)) > 0)
		;
	if (listed(cl))
		client_readable(&core, cl);
	if (listed(cl))
		abort(); /* a client that closed must be dropped */
	return 0;
}
