/*
 * The UUID and command ids of OP-TEE's socket pseudo TA, the channel under
 * OP-TEE's GP TCP and UDP sockets. swtee implements the GP socket API in
 * its TA runtime over its own channel (tee_tcpsocket.h, tee_udpsocket.h)
 * and has no such pseudo TA: a session to this UUID fails with
 * TEE_ERROR_ITEM_NOT_FOUND. The values are OP-TEE's, for code that names
 * them; a TA that wants a socket calls TEE_tcpSocket or TEE_udpSocket.
 */
#ifndef PTA_SOCKET_H
#define PTA_SOCKET_H

#define PTA_SOCKET_UUID                                                                            \
	{                                                                                          \
		0x3b996a7d, 0x2c2b, 0x4a49,                                                        \
		{                                                                                  \
			0xa8, 0x96, 0xe1, 0xfb, 0x57, 0x66, 0xd2, 0xf4                             \
		}                                                                                  \
	}

#define PTA_SOCKET_OPEN 1
#define PTA_SOCKET_CLOSE 2
#define PTA_SOCKET_SEND 3
#define PTA_SOCKET_RECV 4
#define PTA_SOCKET_IOCTL 5

/* The timeouts of SEND and RECV that do not wait and that wait for ever */
#define PTA_SOCKET_TIMEOUT_NONBLOCKING 0
#define PTA_SOCKET_TIMEOUT_BLOCKING 0xffffffff

#endif
