/*
 * TCP ioctl commands beyond the GP specification, as OP-TEE numbers them:
 * the kernel's receive and send buffer sizes of the connection. The buffer
 * is a uint32_t size in bytes (*length == 4); swtee caps it (docs/sockets.md).
 */
#ifndef ____TEE_TCPSOCKET_DEFINES_EXTENSIONS_H
#define ____TEE_TCPSOCKET_DEFINES_EXTENSIONS_H

#define TEE_TCP_SET_RECVBUF 0x65f00000
#define TEE_TCP_SET_SENDBUF 0x65f00001

#endif
