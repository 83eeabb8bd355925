/*
 * The socket test TA: the GP Sockets API as commands, for xtest 2001-2004.
 * A socket is named by a small id the TA gives out (its slot), not by the
 * TEE_iSocketHandle.
 */
#ifndef TA_SOCKET_H
#define TA_SOCKET_H

#define TA_SOCKET_UUID                                                                             \
	{                                                                                          \
		0x6b0e3a52, 0x8d1f, 0x4c7a,                                                        \
		{                                                                                  \
			0xb2, 0xe9, 0x41, 0xd5, 0xa0, 0xc3, 0xf7, 0xe8                             \
		}                                                                                  \
	}

/*
 * The same TA under a second UUID (built with TA_SOCKET_TWIN), so that the
 * socket policy's rules for one TA can be told from another's.
 */
#define TA_SOCKET_TWIN_UUID                                                                        \
	{                                                                                          \
		0xabfa6b3d, 0x855b, 0x4085,                                                        \
		{                                                                                  \
			0xa2, 0xab, 0xac, 0xc4, 0xb7, 0xad, 0xb7, 0x0c                             \
		}                                                                                  \
	}

/* [0] value in a=ipVersion b=port, [1] memref in host (NUL-terminated, or
 * NULL), [2] value out a=socket id b=protocolError */
#define TA_SOCKET_CMD_TCP_OPEN 0
#define TA_SOCKET_CMD_UDP_OPEN 1
/* [0] value in a=id */
#define TA_SOCKET_CMD_CLOSE 2
/* [0] value in a=id b=timeout, [1] memref in data, [2] value out a=bytes sent */
#define TA_SOCKET_CMD_SEND 3
/* [0] value in a=id b=timeout, [1] memref out (its size is what to receive) */
#define TA_SOCKET_CMD_RECV 4
/* [0] value in a=id, [1] value out a=the error() value */
#define TA_SOCKET_CMD_ERROR 5
/* [0] value in a=id b=command, [1] memref inout buffer */
#define TA_SOCKET_CMD_IOCTL 6
/* [0] value in a=id: closes it, then sends on the stale handle (panics) */
#define TA_SOCKET_CMD_USE_CLOSED 7
/* opens with a NULL setup structure (panics) */
#define TA_SOCKET_CMD_NULL_SETUP 8
/* [0] value in a=id b=command: an ioctl the protocol does not have (panics) */
#define TA_SOCKET_CMD_BAD_IOCTL 9

#define TA_SOCKET_MAX 64

#define TA_SOCKET_STACK_SIZE (32 * 1024)
#define TA_SOCKET_DATA_SIZE (1024 * 1024)

#endif
