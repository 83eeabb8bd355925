/*
 * Fuzzes the plugin channel's parsers (src/common/plugin_msg.c), which the
 * core runs on what a TA and tee-supplicant send. The first byte picks the
 * parser (even: a TA's or the core's MSG_PLUGIN_INVOKE, odd: the
 * supplicant's MSG_PLUGIN_RSP), the next four the length of the request
 * being answered; the rest is the message. What parses must be the whole
 * message, its data inside it and within every bound the channel promises.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_msg.h"
#include "proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_data(const uint8_t *msg, size_t n, const uint8_t *p, uint32_t len)
{
	volatile uint8_t sink = 0;

	if (len && (!p || p < msg || p + len > msg + n))
		abort();
	for (uint32_t i = 0; i < len; i++)
		sink ^= p[i];
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t max_len = 0;
	const uint8_t *msg = NULL;
	size_t n = 0;

	if (size < 5)
		return 0;
	memcpy(&max_len, data + 1, sizeof(max_len));
	max_len %= PROTO_PLUGIN_DATA_MAX + 2;
	msg = data + 5;
	n = size - 5;
	if (data[0] % 2 == 0) {
		struct plugin_msg_invoke in;

		if (plugin_msg_parse_invoke(msg, n, &in))
			return 0;
		if (in.len > PROTO_PLUGIN_DATA_MAX || n != 32 + (size_t)in.len)
			abort();
		check_data(msg, n, in.data, in.len);
	} else {
		struct plugin_msg_answer a;

		if (plugin_msg_parse_answer(msg, n, max_len, &a))
			return 0;
		if (a.len > max_len || a.len > a.out_len || n != 16 + (size_t)a.len)
			abort();
		check_data(msg, n, a.data, a.len);
	}
	return 0;
}
