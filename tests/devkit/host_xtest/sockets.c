/*
 * Built only when conf.mk has CFG_GP_SOCKETS=y, as xtest's regression_2000.c
 * is: the GP Sockets constants xtest's socket cases pass to the socket TA.
 */
#include <__tee_tcpsocket_defines_extensions.h>
#include <stdio.h>
#include <tee_isocket.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "host_xtest.h"

int sockets_check(void)
{
	int fails = 0;

	if (TEE_ISOCKET_VERSION != 0x01000000) {
		printf("FAIL: TEE_ISOCKET_VERSION\n");
		fails++;
	}
	if (TEE_ISOCKET_PROTOCOLID_TCP != 0x65 || TEE_IP_VERSION_4 != 1) {
		printf("FAIL: the TCP protocol id or TEE_IP_VERSION_4\n");
		fails++;
	}
	return fails;
}
