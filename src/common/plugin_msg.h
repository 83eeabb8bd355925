/*
 * The messages of a plugin channel (MSG_PLUGIN_* of proto.h), parsed the
 * same way by the core (both ways), the supplicant (requests) and the TA
 * runtime (answers).
 */
#ifndef SWTEE_PLUGIN_MSG_H
#define SWTEE_PLUGIN_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "must_check.h"
#include "uuid.h"

struct plugin_msg_invoke {
	struct swtee_uuid uuid;
	uint32_t cmd;
	uint32_t sub_cmd;
	uint32_t len;
	const uint8_t *data; /* len bytes inside the message parsed */
};

struct plugin_msg_answer {
	uint32_t result;
	uint32_t out_len; /* as the plugin reported it */
	uint32_t len;
	const uint8_t *data; /* len bytes inside the message parsed */
};

/*
 * Parses the MSG_PLUGIN_INVOKE msg[n] into *out: the whole message, with at
 * most PROTO_PLUGIN_DATA_MAX bytes of data. Returns 0, or -1 (malformed).
 */
SWTEE_MUST_CHECK int plugin_msg_parse_invoke(const uint8_t *msg, size_t n,
					     struct plugin_msg_invoke *out);

/*
 * Parses the MSG_PLUGIN_RSP msg[n] answering a request of max_len bytes:
 * the whole message, its data no longer than max_len nor than the out_len
 * it reports. Returns 0, or -1 (malformed).
 */
SWTEE_MUST_CHECK int plugin_msg_parse_answer(const uint8_t *msg, size_t n, uint32_t max_len,
					     struct plugin_msg_answer *out);

#endif
