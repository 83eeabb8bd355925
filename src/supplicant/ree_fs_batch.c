/* The parser of MSG_FS_BATCH requests: see ree_fs_batch.h. */
#include <string.h>

#include "buf.h"
#include "ree_fs_batch.h"

bool ree_fs_batch_dir_ok(const char *d)
{
	for (size_t i = 0; i < PROTO_FS_DIR_LEN; i++)
		if (!((d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'f')))
			return false;
	return true;
}

static bool get_name(struct buf_reader *r, char out[PROTO_FS_NAME_MAX + 1])
{
	uint8_t len = 0;

	if (!buf_get_u8(r, &len) || !len || len > PROTO_FS_NAME_MAX || !buf_get_bytes(r, out, len))
		return false;
	out[len] = '\0';
	if (out[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		char ch = out[i];

		if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || ch == '.'))
			return false;
	}
	return true;
}

/* As get_name, but a length of 0 gives the empty name. */
static bool get_name_or_none(struct buf_reader *r, char out[PROTO_FS_NAME_MAX + 1])
{
	struct buf_reader peek = *r;
	uint8_t len = 0;

	if (!buf_get_u8(&peek, &len))
		return false;
	if (len)
		return get_name(r, out);
	out[0] = '\0';
	return buf_skip(r, 1);
}

static bool win_ok(uint32_t win, uint32_t len)
{
	return win <= PROTO_FS_WINDOW && len <= PROTO_FS_WINDOW - win;
}

/* name off:u64 len:u32, the fields most operations have. */
static bool get_range(struct buf_reader *r, struct ree_fs_op *o)
{
	return get_name(r, o->name) && buf_get_u64(r, &o->off) && buf_get_u32(r, &o->len);
}

/* The fields of an operation of code o->code; false when they are malformed. */
static bool get_fields(struct buf_reader *r, struct ree_fs_op *o)
{
	switch (o->code) {
	case FS_OP_READ:
	case FS_OP_WRITE:
		return get_range(r, o) && buf_get_u32(r, &o->win) && win_ok(o->win, o->len);
	case FS_OP_COPY:
		return get_range(r, o) && get_name(r, o->to) && buf_get_u64(r, &o->to_off);
	case FS_OP_TRUNCATE:
		return get_name(r, o->name) && buf_get_u64(r, &o->off) && o->off <= INT64_MAX;
	case FS_OP_SYNC:
	case FS_OP_REMOVE:
		return get_name(r, o->name);
	case FS_OP_SYNCDIR:
	case FS_OP_MKDIR:
		return true;
	case FS_OP_LIST:
		return get_name_or_none(r, o->name);
	case FS_OP_ZERO:
		return get_range(r, o);
	case FS_OP_RESERVE:
		return get_range(r, o) && o->off <= (uint64_t)INT64_MAX - o->len;
	case FS_OP_WRITEOUT:
		return get_range(r, o) && o->off <= INT64_MAX;
	default:
		return false;
	}
}

bool ree_fs_batch_parse(const uint8_t *in, size_t n, struct ree_fs_batch *b)
{
	struct buf_reader r;
	uint32_t type = 0;

	memset(b, 0, sizeof(*b));
	buf_reader_init(&r, in, n);
	buf_get_u32(&r, &type);
	buf_get_bytes(&r, b->dir, PROTO_FS_DIR_LEN);
	buf_get_u32(&r, &b->nops);
	if (!buf_ok(&r) || type != MSG_FS_BATCH || !ree_fs_batch_dir_ok(b->dir) ||
	    b->nops > PROTO_FS_OPS_MAX) {
		memset(b, 0, sizeof(*b));
		return false;
	}
	for (; b->nvalid < b->nops; b->nvalid++) {
		struct ree_fs_op *o = &b->ops[b->nvalid];

		b->bad_code_read = buf_get_u32(&r, &o->code);
		if (!b->bad_code_read || !get_fields(&r, o)) {
			/* Only the code (0 when it was not there) is kept of what does not parse.
			 */
			uint32_t code = o->code;

			memset(o, 0, sizeof(*o));
			o->code = code;
			b->end = REE_FS_BATCH_BAD_OP;
			return true;
		}
	}
	b->bad_code_read = false;
	b->end = buf_done(&r) ? REE_FS_BATCH_WHOLE : REE_FS_BATCH_TRAILING;
	return true;
}
