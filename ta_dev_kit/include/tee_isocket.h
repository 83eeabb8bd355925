/*
 * GP TEE Sockets API v1.0: the protocol-independent interface. A protocol
 * (TEE_tcpSocket, TEE_udpSocket) is a constant table of these functions.
 *
 * open     connects as the setup structure of the protocol says. *ctx is the
 *          new handle, or TEE_HANDLE_NULL on failure; *protocolError details
 *          TEE_ISOCKET_ERROR_PROTOCOL (TEE_ISOCKET_ERROR_HOSTNAME: the name
 *          does not resolve). TEE_ERROR_ACCESS_DENIED: the core's socket
 *          policy does not let this TA reach that host and port;
 *          TEE_ERROR_COMMUNICATION: refused or unreachable;
 *          TEE_ISOCKET_ERROR_OUT_OF_RESOURCES: the TA's socket limit.
 * close    ends the connection; ctx is invalid afterwards. TEE_HANDLE_NULL
 *          is fine.
 * send     sends *length bytes, waiting at most timeout ms
 *          (TEE_TIMEOUT_INFINITE: no limit); *length becomes the bytes sent.
 * recv     receives at most *length bytes, returning as soon as some arrived
 *          or timeout ms passed; *length becomes the bytes received.
 * error    the protocol error of the last call on ctx.
 * ioctl    commandCode: 0x00xxxxxx generic (none defined: success), else the
 *          protocol's own (tee_tcpsocket.h, tee_udpsocket.h); an unknown one
 *          panics the TA.
 *
 * send and recv also return TEE_ISOCKET_ERROR_TIMEOUT, _REMOTE_CLOSED (the
 * peer closed or reset the connection), _LARGE_BUFFER (a datagram too large)
 * and TEE_ERROR_CANCEL (the client cancelled the operation). A NULL ctx,
 * length or non-empty buf panics the TA, as does a handle that is not open.
 */
#ifndef __TEE_ISOCKET_H
#define __TEE_ISOCKET_H

#include <stdint.h>

#include <tee_api_types.h>
#include <__tee_isocket_defines.h>

typedef void *TEE_iSocketHandle;

typedef const struct TEE_iSocket_s {
	uint32_t TEE_iSocketVersion;
	uint8_t protocolID;
	TEE_Result (*open)(TEE_iSocketHandle *ctx, void *setup, uint32_t *protocolError);
	TEE_Result (*close)(TEE_iSocketHandle ctx);
	TEE_Result (*send)(TEE_iSocketHandle ctx, const void *buf, uint32_t *length,
			   uint32_t timeout);
	TEE_Result (*recv)(TEE_iSocketHandle ctx, void *buf, uint32_t *length, uint32_t timeout);
	uint32_t (*error)(TEE_iSocketHandle ctx);
	TEE_Result (*ioctl)(TEE_iSocketHandle ctx, uint32_t commandCode, void *buf,
			    uint32_t *length);
} TEE_iSocket;

#endif
