/* Endpoints: every peer of the core is one in its epoll loop. */
#include <sys/epoll.h>

#include "core.h"

int core_watch(struct core *c, struct endpoint *ep)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = ep};

	return epoll_ctl(c->epfd, EPOLL_CTL_ADD, ep->fd, &ev);
}

void core_unwatch(struct core *c, struct endpoint *ep)
{
	epoll_ctl(c->epfd, EPOLL_CTL_DEL, ep->fd, NULL);
}
