/*
 * GP TEE Sockets API, TCP client connections. server_addr is a host name or
 * a textual IPv4/IPv6 address (NUL-terminated, at most 255 characters).
 */
#ifndef __TEE_TCPSOCKET_H
#define __TEE_TCPSOCKET_H

#include <tee_isocket.h>
#include <__tee_ipsocket.h>
#include <__tee_tcpsocket_defines.h>
#include <__tee_tcpsocket_defines_extensions.h>

typedef struct TEE_tcpSocket_Setup_s {
	TEE_ipSocket_ipVersion ipVersion;
	char *server_addr;
	uint16_t server_port;
} TEE_tcpSocket_Setup;

extern TEE_iSocket *const TEE_tcpSocket;

#endif
