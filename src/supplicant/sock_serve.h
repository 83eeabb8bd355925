/* tee-supplicant: the network sockets of the GP Sockets API (sock_serve.c). */
#ifndef SWTEE_SOCK_SERVE_H
#define SWTEE_SOCK_SERVE_H

/*
 * Serves the socket channel sock (MSG_SOCK_* of proto.h) on a thread of its
 * own, which owns sock and closes every network socket it opened when the
 * channel ends. Returns 0, or -1 (sock is closed).
 */
int sock_serve_channel(int sock);

#endif
