#include "plugin_msg.h"

#include <string.h>

#include "buf.h"
#include "proto.h"

int plugin_msg_parse_invoke(const uint8_t *msg, size_t n, struct plugin_msg_invoke *out)
{
	struct buf_reader r;
	uint32_t type = 0;

	memset(out, 0, sizeof(*out));
	buf_reader_init(&r, msg, n);
	buf_get_u32(&r, &type);
	buf_get_bytes(&r, out->uuid.b, sizeof(out->uuid.b));
	buf_get_u32(&r, &out->cmd);
	buf_get_u32(&r, &out->sub_cmd);
	buf_get_u32(&r, &out->len);
	if (buf_ok(&r) && out->len <= PROTO_PLUGIN_DATA_MAX)
		buf_get_ptr(&r, &out->data, out->len);
	if (!buf_done(&r) || type != MSG_PLUGIN_INVOKE || out->len > PROTO_PLUGIN_DATA_MAX)
		return -1;
	return 0;
}

int plugin_msg_parse_answer(const uint8_t *msg, size_t n, uint32_t max_len,
			    struct plugin_msg_answer *out)
{
	struct buf_reader r;
	uint32_t type = 0;

	memset(out, 0, sizeof(*out));
	buf_reader_init(&r, msg, n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &out->result);
	buf_get_u32(&r, &out->out_len);
	buf_get_u32(&r, &out->len);
	/* What comes back is the start of the buffer sent, as much as the plugin reported. */
	if (buf_ok(&r) && out->len <= max_len && out->len <= out->out_len)
		buf_get_ptr(&r, &out->data, out->len);
	if (!buf_done(&r) || type != MSG_PLUGIN_RSP || out->len > max_len ||
	    out->len > out->out_len)
		return -1;
	return 0;
}
