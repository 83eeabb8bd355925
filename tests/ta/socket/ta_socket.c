/*
 * The GP Sockets API behind commands (see ta_socket.h): xtest drives it
 * against servers it runs itself on the loopback interface.
 */
#include <string.h>
#include <tee_internal_api.h>
#include <tee_tcpsocket.h>
#include <tee_udpsocket.h>

#include "ta_socket.h"

struct slot {
	TEE_iSocket *proto;
	TEE_iSocketHandle h;
};

static struct slot slots[TA_SOCKET_MAX];

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[4], void **ctx)
{
	(void)types;
	(void)params;
	(void)ctx;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

static struct slot *slot_of(uint32_t id)
{
	if (id >= TA_SOCKET_MAX || !slots[id].h)
		return NULL;
	return &slots[id];
}

static TEE_Result cmd_open(TEE_iSocket *proto, uint32_t types, TEE_Param p[4])
{
	/* Both setups have the same layout; a TCP one stands for either. */
	TEE_tcpSocket_Setup setup = {0};
	TEE_Result res = TEE_ERROR_GENERIC;
	uint32_t perr = 0;
	uint32_t id = 0;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_MEMREF_INPUT,
				     TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	while (id < TA_SOCKET_MAX && slots[id].h)
		id++;
	if (id == TA_SOCKET_MAX)
		return TEE_ERROR_OUT_OF_MEMORY;
	setup.ipVersion = (TEE_ipSocket_ipVersion)p[0].value.a;
	setup.server_port = (uint16_t)p[0].value.b;
	setup.server_addr = p[1].memref.buffer;
	if (setup.server_addr && memchr(setup.server_addr, '\0', p[1].memref.size) == NULL)
		return TEE_ERROR_BAD_PARAMETERS;
	res = proto->open(&slots[id].h, &setup, &perr);
	p[2].value.a = id;
	p[2].value.b = perr;
	if (res == TEE_SUCCESS)
		slots[id].proto = proto;
	else if (slots[id].h)
		TEE_Panic(res); /* a failed open must leave no handle */
	return res;
}

static TEE_Result cmd_close(uint32_t types, TEE_Param p[4])
{
	struct slot *s = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	s = slot_of(p[0].value.a);
	if (!s)
		return TEE_ERROR_ITEM_NOT_FOUND;
	res = s->proto->close(s->h);
	s->h = TEE_HANDLE_NULL;
	return res;
}

static TEE_Result cmd_send(uint32_t types, TEE_Param p[4])
{
	struct slot *s = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	uint32_t len = 0;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_MEMREF_INPUT,
				     TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	s = slot_of(p[0].value.a);
	if (!s)
		return TEE_ERROR_ITEM_NOT_FOUND;
	len = p[1].memref.size;
	TEE_UnmaskCancellation();
	res = s->proto->send(s->h, p[1].memref.buffer, &len, p[0].value.b);
	TEE_MaskCancellation();
	p[2].value.a = len;
	return res;
}

static TEE_Result cmd_recv(uint32_t types, TEE_Param p[4])
{
	struct slot *s = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	uint32_t len = 0;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	s = slot_of(p[0].value.a);
	if (!s)
		return TEE_ERROR_ITEM_NOT_FOUND;
	len = p[1].memref.size;
	/* Socket calls honour cancellation as TEE_Wait does: when unmasked. */
	TEE_UnmaskCancellation();
	res = s->proto->recv(s->h, p[1].memref.buffer, &len, p[0].value.b);
	TEE_MaskCancellation();
	p[1].memref.size = len;
	return res;
}

static TEE_Result cmd_error(uint32_t types, TEE_Param p[4])
{
	struct slot *s = NULL;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	s = slot_of(p[0].value.a);
	if (!s)
		return TEE_ERROR_ITEM_NOT_FOUND;
	p[1].value.a = s->proto->error(s->h);
	return TEE_SUCCESS;
}

static TEE_Result cmd_ioctl(uint32_t types, TEE_Param p[4])
{
	struct slot *s = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	uint32_t len = 0;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_MEMREF_INOUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	s = slot_of(p[0].value.a);
	if (!s)
		return TEE_ERROR_ITEM_NOT_FOUND;
	len = p[1].memref.size;
	res = s->proto->ioctl(s->h, p[0].value.b, p[1].memref.buffer, &len);
	p[1].memref.size = len;
	return res;
}

static TEE_Result cmd_misuse(uint32_t cmd, uint32_t types, TEE_Param p[4])
{
	TEE_iSocketHandle h = TEE_HANDLE_NULL;
	struct slot *s = NULL;
	uint32_t perr = 0;
	uint32_t len = 1;
	char byte = 'x';

	if (cmd == TA_SOCKET_CMD_NULL_SETUP)
		return TEE_tcpSocket->open(&h, NULL, &perr);
	if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_VALUE_INPUT)
		return TEE_ERROR_BAD_PARAMETERS;
	s = slot_of(p[0].value.a);
	if (!s)
		return TEE_ERROR_ITEM_NOT_FOUND;
	if (cmd == TA_SOCKET_CMD_BAD_IOCTL)
		return s->proto->ioctl(s->h, p[0].value.b, &byte, &len);
	h = s->h;
	s->proto->close(h);
	s->h = TEE_HANDLE_NULL;
	return s->proto->send(h, &byte, &len, 0);
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types, TEE_Param p[4])
{
	(void)ctx;
	switch (cmd) {
	case TA_SOCKET_CMD_TCP_OPEN:
		return cmd_open(TEE_tcpSocket, types, p);
	case TA_SOCKET_CMD_UDP_OPEN:
		return cmd_open(TEE_udpSocket, types, p);
	case TA_SOCKET_CMD_CLOSE:
		return cmd_close(types, p);
	case TA_SOCKET_CMD_SEND:
		return cmd_send(types, p);
	case TA_SOCKET_CMD_RECV:
		return cmd_recv(types, p);
	case TA_SOCKET_CMD_ERROR:
		return cmd_error(types, p);
	case TA_SOCKET_CMD_IOCTL:
		return cmd_ioctl(types, p);
	case TA_SOCKET_CMD_USE_CLOSED:
	case TA_SOCKET_CMD_NULL_SETUP:
	case TA_SOCKET_CMD_BAD_IOCTL:
		return cmd_misuse(cmd, types, p);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
