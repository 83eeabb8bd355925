/*
 * GP TEE Sockets API: the interface version and the error codes every
 * protocol shares. Values as OP-TEE's libutee defines them.
 */
#ifndef ____TEE_ISOCKET_DEFINES_H
#define ____TEE_ISOCKET_DEFINES_H

#define TEE_ISOCKET_VERSION 0x01000000

#define TEE_ISOCKET_ERROR_PROTOCOL 0xF1007001	      /* details in protocolError */
#define TEE_ISOCKET_ERROR_REMOTE_CLOSED 0xF1007002    /* the peer closed or reset */
#define TEE_ISOCKET_ERROR_TIMEOUT 0xF1007003	      /* the timeout passed first */
#define TEE_ISOCKET_ERROR_OUT_OF_RESOURCES 0xF1007004 /* a limit of the TEE was reached */
#define TEE_ISOCKET_ERROR_LARGE_BUFFER 0xF1007005     /* a datagram larger than allowed */
#define TEE_ISOCKET_WARNING_PROTOCOL 0xF1007006	      /* details in protocolError */
#define TEE_ISOCKET_ERROR_HOSTNAME 0xF1007007	      /* the host name does not resolve */

#endif
