/* GP TEE Sockets API, TCP: the protocol identifier and its own codes. */
#ifndef ____TEE_TCPSOCKET_DEFINES_H
#define ____TEE_TCPSOCKET_DEFINES_H

#define TEE_ISOCKET_PROTOCOLID_TCP 0x65

#define TEE_ISOCKET_TCP_WARNING_UNKNOWN_OUT_OF_BAND 0xF1010002

#endif
