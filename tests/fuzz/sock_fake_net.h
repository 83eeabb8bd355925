/*
 * A network for the socket harnesses that never leaves the process. Linked
 * with -Wl,--wrap=socket,--wrap=connect,--wrap=getaddrinfo,--wrap=freeaddrinfo,
 * it replaces those calls of the code under test (tee-supplicant's socket
 * service): a "TCP" socket is one end of a Unix stream pair, a "UDP" one of a
 * Unix datagram-like pair (SOCK_SEQPACKET), whose other end has sent a little
 * data and closed, so that no send or receive ever blocks; a connect goes
 * nowhere; a host name resolves to addresses made from its letters.
 */
#ifndef SWTEE_SOCK_FAKE_NET_H
#define SWTEE_SOCK_FAKE_NET_H

#include <stdint.h>

#define FAKE_NET_SOCKET_FAILS 0x01	  /* socket() fails with EMFILE */
#define FAKE_NET_CONNECT_REFUSED 0x02	  /* connect() fails with ECONNREFUSED */
#define FAKE_NET_CONNECT_IN_PROGRESS 0x04 /* connect() answers EINPROGRESS */
#define FAKE_NET_PEER_SILENT 0x08	  /* the peer closes without sending */

/* How the next calls behave: FAKE_NET_* bits. */
void fake_net_set(uint8_t flags);

/* The descriptors this process has open (to check that none leaked). */
long fake_net_count_fds(void);

#endif
