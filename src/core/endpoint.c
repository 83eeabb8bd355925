/* Endpoints: every peer of the core is one in its epoll loop. */
#include <sys/epoll.h>
#include <time.h>

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

void deadline_in(struct timespec *d, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, d);
	d->tv_sec += ms / 1000;
	d->tv_nsec += (ms % 1000) * 1000000;
	if (d->tv_nsec >= 1000000000) {
		d->tv_sec++;
		d->tv_nsec -= 1000000000;
	}
}

bool deadline_passed(const struct timespec *d, const struct timespec *now)
{
	return now->tv_sec > d->tv_sec || (now->tv_sec == d->tv_sec && now->tv_nsec >= d->tv_nsec);
}
