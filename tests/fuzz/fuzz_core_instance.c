/*
 * Fuzzes the core's handling of what a TA instance sends on its control
 * socket (session reports, panics, requests such as TEE_OpenTASession), as
 * in swteed: the bytes arrive on a real socket and go through
 * instance_readable. The instance has no process, so a kill is a no-op.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core.h"
#include "log.h"
#include "msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct core core;

static bool listed(const struct instance *in)
{
	for (const struct instance *p = core.instances; p; p = p->next)
		if (p == in)
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct instance *in = NULL;
	int sv[2] = {-1, -1};

	if (!core.epfd) {
		log_init("fuzz", 0);
		core.epfd = epoll_create1(EPOLL_CLOEXEC);
		core.zygote.fd = -1;
	}
	if (size > 2 * PROTO_MSG_MAX || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return 0;
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	in = calloc(1, sizeof(*in));
	if (!in)
		abort();
	in->ep.kind = EP_INSTANCE;
	in->ep.fd = sv[0];
	in->ep.owner = in;
	in->lib_fd = -1;
	in->id = 1;
	memset(in->uuid.b, 0x5a, sizeof(in->uuid.b));
	core_watch(&core, &in->ep);
	in->next = core.instances;
	core.instances = in;

	if (size && send(sv[1], data, size, MSG_NOSIGNAL) == (ssize_t)size)
		instance_readable(&core, in);
	close(sv[1]);
	if (listed(in))
		instance_readable(&core, in);
	if (listed(in))
		abort(); /* with no zygote, a closed instance must be freed */
	return 0;
}
