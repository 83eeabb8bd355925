/*
 * GP TEE Sockets API, UDP: datagrams to and from one peer, which ioctl may
 * change (TEE_UDP_CHANGEADDR, TEE_UDP_CHANGEPORT). One send is one
 * datagram; one recv takes one datagram, the part that does not fit in the
 * buffer is lost.
 */
#ifndef __TEE_UDPSOCKET_H
#define __TEE_UDPSOCKET_H

#include <tee_isocket.h>
#include <__tee_ipsocket.h>
#include <__tee_udpsocket_defines.h>

typedef struct TEE_udpSocket_Setup_s {
	TEE_ipSocket_ipVersion ipVersion;
	char *server_addr;
	uint16_t server_port;
} TEE_udpSocket_Setup;

extern TEE_iSocket *const TEE_udpSocket;

#endif
