/* GP TEE Sockets API, UDP: the protocol identifier, its codes and ioctls. */
#ifndef ____TEE_UDPSOCKET_DEFINES_H
#define ____TEE_UDPSOCKET_DEFINES_H

#define TEE_ISOCKET_PROTOCOLID_UDP 0x66

#define TEE_ISOCKET_UDP_WARNING_UNKNOWN_OUT_OF_BAND 0xF1020002

/* buf: the new host, a NUL-terminated string (*length counts the NUL) */
#define TEE_UDP_CHANGEADDR 0x66000001
/* buf: the new port, a uint16_t (*length == 2) */
#define TEE_UDP_CHANGEPORT 0x66000002

#endif
