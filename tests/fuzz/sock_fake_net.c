/* The in-process network of the socket harnesses (sock_fake_net.h). */
#include <dirent.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sock_fake_net.h"

/* The wrappers the linker substitutes for the real calls (-Wl,--wrap=NAME). */
int __wrap_socket(int domain, int type, int protocol);
int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len);
int __wrap_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		       struct addrinfo **res);
void __wrap_freeaddrinfo(struct addrinfo *ai);

#define FAKE_ADDRS_MAX 10

static atomic_uint fake_flags;

void fake_net_set(uint8_t flags)
{
	atomic_store(&fake_flags, flags);
}

long fake_net_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e = NULL;
	long n = 0;

	if (!d)
		abort();
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own descriptor */
}

int __wrap_socket(int domain, int type, int protocol)
{
	static const char stream_data[] = "some bytes from the peer";
	unsigned int flags = atomic_load(&fake_flags);
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	int sv[2] = {-1, -1};

	(void)protocol;
	if ((domain != AF_INET && domain != AF_INET6) ||
	    (base != SOCK_STREAM && base != SOCK_DGRAM)) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (flags & FAKE_NET_SOCKET_FAILS) {
		errno = EMFILE;
		return -1;
	}
	base = base == SOCK_STREAM ? SOCK_STREAM : SOCK_SEQPACKET;
	if (socketpair(AF_UNIX, base | (type & (SOCK_NONBLOCK | SOCK_CLOEXEC)), 0, sv))
		return -1;
	if (!(flags & FAKE_NET_PEER_SILENT)) {
		/* Two sends: one stream of bytes, or two datagrams. */
		send(sv[1], stream_data, 10, MSG_NOSIGNAL);
		send(sv[1], stream_data + 10, sizeof(stream_data) - 10, MSG_NOSIGNAL);
	}
	close(sv[1]);
	return sv[0];
}

int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	unsigned int flags = atomic_load(&fake_flags);

	(void)fd;
	if (!sa || len < sizeof(sa_family_t) ||
	    (sa->sa_family == AF_INET && len != sizeof(struct sockaddr_in)) ||
	    (sa->sa_family == AF_INET6 && len != sizeof(struct sockaddr_in6)) ||
	    (sa->sa_family != AF_INET && sa->sa_family != AF_INET6))
		abort(); /* the code under test built a bad address */
	if (flags & FAKE_NET_CONNECT_REFUSED) {
		errno = ECONNREFUSED;
		return -1;
	}
	if (flags & FAKE_NET_CONNECT_IN_PROGRESS) {
		errno = EINPROGRESS;
		return -1;
	}
	return 0;
}

/* One address of node: its family and bytes made from the letter c. */
static struct addrinfo *fake_addr(int family, uint8_t c)
{
	struct addrinfo *ai = calloc(1, sizeof(*ai) + sizeof(struct sockaddr_storage));
	struct sockaddr_storage *ss = NULL;

	if (!ai)
		abort();
	ss = (struct sockaddr_storage *)(ai + 1);
	ai->ai_family = family;
	ai->ai_addr = (struct sockaddr *)ss;
	ss->ss_family = (sa_family_t)family;
	if (family == AF_INET) {
		struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
		/* 127.0.0.c or 192.0.2.c */
		uint8_t a[4] = {c & 2 ? 127 : 192, 0, c & 2 ? 0 : 2, c};

		memcpy(&in4->sin_addr, a, 4);
		ai->ai_addrlen = sizeof(*in4);
	} else if (family == AF_INET6) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
		uint8_t a[16] = {0};

		if (c & 4) { /* ::ffff:127.0.0.c or ::ffff:192.0.2.c */
			a[10] = 0xff;
			a[11] = 0xff;
			a[12] = c & 2 ? 127 : 192;
			a[14] = c & 2 ? 0 : 2;
			a[15] = c;
		} else if (c & 2) { /* ::1 */
			a[15] = 1;
		} else { /* 2001:db8::c */
			a[0] = 0x20;
			a[1] = 0x01;
			a[2] = 0x0d;
			a[3] = 0xb8;
			a[15] = c;
		}
		memcpy(&in6->sin6_addr, a, 16);
		ai->ai_addrlen = sizeof(*in6);
	} else {
		ai->ai_addrlen = sizeof(sa_family_t);
	}
	return ai;
}

/*
 * As many addresses as the name's length modulo 11 (none: the name does not
 * resolve), of the family hints ask for, else by the letters' low bit; every
 * seventh of another family, which callers must skip.
 */
int __wrap_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		       struct addrinfo **res)
{
	size_t len = node ? strlen(node) : 0;
	size_t count = len % (FAKE_ADDRS_MAX + 1);
	struct addrinfo **tail = res;

	(void)service;
	*res = NULL;
	if (!count)
		return EAI_NONAME;
	for (size_t i = 0; i < count; i++) {
		uint8_t c = (uint8_t)node[i % len];
		int family = c & 1 ? AF_INET6 : AF_INET;

		if (hints && hints->ai_family != AF_UNSPEC)
			family = hints->ai_family;
		if (i % 7 == 6)
			family = AF_UNIX;
		*tail = fake_addr(family, c);
		tail = &(*tail)->ai_next;
	}
	return 0;
}

void __wrap_freeaddrinfo(struct addrinfo *ai)
{
	while (ai) {
		struct addrinfo *next = ai->ai_next;

		free(ai);
		ai = next;
	}
}
