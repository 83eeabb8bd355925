/*
 * Uses teec_trace.h as optee_client's libraries do (BINARY_PREFIX and
 * DEBUGLEVEL_<n> from the build) and links _dprintf and dump_buffer from
 * libteec; describes a supplicant plugin with tee_plugin_method.h.
 */
/* The build names the prefix; a reader of the file alone (cppcheck) sees this one. */
#ifndef BINARY_PREFIX
#define BINARY_PREFIX "TRACELIB"
#endif
#include <stdint.h>
#include <string.h>
#include <tee_client_api.h>
#include <tee_plugin_method.h>
#include <teec_trace.h>

#include "tracelib.h"

int tracelib_log(int code)
{
	INMSG("code %d", code);
	EMSG("an error %d", code);
	IMSG("some info %d", code);
	DMSG("a debug line %d", code);
	EMSG_RAW("raw text %d\n", code);
	OUTRMSG(code);
}

void tracelib_dump(void)
{
	uint8_t buf[19];

	for (size_t i = 0; i < 16; i++)
		buf[i] = (uint8_t)i;
	memcpy(buf + 16, "ABC", 3);
	dump_buffer("key", buf, sizeof(buf));
}

void tracelib_long(void)
{
	char text[1000];

	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	EMSG("%s", text);
}

static TEEC_Result plugin_invoke(unsigned int cmd, unsigned int sub_cmd, void *data, size_t in_len,
				 size_t *out_len)
{
	(void)cmd;
	(void)sub_cmd;
	(void)data;
	(void)in_len;
	*out_len = 0;
	return TEEC_SUCCESS;
}

/* The symbol OP-TEE's tee-supplicant looks a plugin up by. */
struct plugin_method plugin_method = {
    .name = "tracelib",
    .uuid = {0x7d3c1f0e, 0x2b4a, 0x4c6d, {0x8e, 0x9f, 0xa0, 0xb1, 0xc2, 0xd3, 0xe4, 0xf6}},
    .init = NULL,
    .invoke = plugin_invoke,
};

const char *tracelib_plugin_name(void)
{
	return plugin_method.name;
}
