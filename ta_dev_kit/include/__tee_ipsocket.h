/* GP TEE Sockets API: the IP version a TCP or UDP setup asks for. */
#ifndef ____TEE_IPSOCKET_H
#define ____TEE_IPSOCKET_H

typedef enum TEE_ipSocket_ipVersion_e {
	TEE_IP_VERSION_DC = 0, /* either */
	TEE_IP_VERSION_4 = 1,
	TEE_IP_VERSION_6 = 2
} TEE_ipSocket_ipVersion;

#endif
