/*
 * Fuzzes tee-supplicant's parser of the core's REE FS requests
 * (src/supplicant/ree_fs_batch.c, MSG_FS_BATCH in proto.h). The input is
 * one request. What the parser takes must be what proto.h allows (known
 * codes, names of [0-9a-z.] not starting with a dot, window ranges inside
 * the window, offsets a file can have), and written back in proto.h's
 * layout it must give the input's bytes again: nothing skipped, nothing
 * read twice, and the whole input when the batch is whole.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "ree_fs_batch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ree_fs_batch batch;
static uint8_t again[PROTO_MSG_MAX];

static bool name_ok(const char *s, bool may_be_empty)
{
	size_t len = strnlen(s, PROTO_FS_NAME_MAX + 1);

	if (len > PROTO_FS_NAME_MAX || (!len && !may_be_empty) || s[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') || s[i] == '.'))
			return false;
	return true;
}

static void put_name(struct buf_writer *w, const char *s)
{
	size_t len = strlen(s);

	buf_put_u8(w, (uint8_t)len);
	buf_put_bytes(w, s, len);
}

/* Checks one operation the parser took and writes it back. */
static void op_again(struct buf_writer *w, const struct ree_fs_op *o)
{
	bool named = o->code != FS_OP_SYNCDIR && o->code != FS_OP_MKDIR;

	if (!o->code || o->code > FS_OP_RESERVE ||
	    (named && !name_ok(o->name, o->code == FS_OP_LIST)) || (!named && o->name[0]))
		abort();
	buf_put_u32(w, o->code);
	if (named)
		put_name(w, o->name);
	switch (o->code) {
	case FS_OP_READ:
	case FS_OP_WRITE:
		if (o->win > PROTO_FS_WINDOW || o->len > PROTO_FS_WINDOW - o->win)
			abort();
		buf_put_u64(w, o->off);
		buf_put_u32(w, o->len);
		buf_put_u32(w, o->win);
		break;
	case FS_OP_COPY:
		if (!name_ok(o->to, false))
			abort();
		buf_put_u64(w, o->off);
		buf_put_u32(w, o->len);
		put_name(w, o->to);
		buf_put_u64(w, o->to_off);
		break;
	case FS_OP_TRUNCATE:
		if (o->off > INT64_MAX)
			abort();
		buf_put_u64(w, o->off);
		break;
	case FS_OP_ZERO:
	case FS_OP_WRITEOUT:
	case FS_OP_RESERVE:
		if ((o->code == FS_OP_WRITEOUT && o->off > INT64_MAX) ||
		    (o->code == FS_OP_RESERVE && o->off > (uint64_t)INT64_MAX - o->len))
			abort();
		buf_put_u64(w, o->off);
		buf_put_u32(w, o->len);
		break;
	default: /* SYNC, REMOVE, LIST: the name alone; SYNCDIR, MKDIR: nothing */
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf_writer w;
	size_t n = 0;

	if (size > PROTO_MSG_MAX)
		return 0;
	if (!ree_fs_batch_parse(data, size, &batch)) {
		/* A refused header leaves nothing behind. */
		if (batch.nops || batch.nvalid || batch.dir[0])
			abort();
		return 0;
	}
	if (batch.nops > PROTO_FS_OPS_MAX || batch.nvalid > batch.nops ||
	    !ree_fs_batch_dir_ok(batch.dir) || batch.dir[PROTO_FS_DIR_LEN] ||
	    (batch.end == REE_FS_BATCH_BAD_OP) != (batch.nvalid < batch.nops) ||
	    (batch.end != REE_FS_BATCH_BAD_OP && batch.bad_code_read))
		abort();
	buf_writer_init(&w, again, sizeof(again));
	buf_put_u32(&w, MSG_FS_BATCH);
	buf_put_bytes(&w, batch.dir, PROTO_FS_DIR_LEN);
	buf_put_u32(&w, batch.nops);
	for (uint32_t i = 0; i < batch.nvalid; i++)
		op_again(&w, &batch.ops[i]);
	/* The code of a refused operation was read too. */
	if (batch.bad_code_read)
		buf_put_u32(&w, batch.ops[batch.nvalid].code);
	n = buf_written(&w);
	if (!n || n > size || memcmp(again, data, n))
		abort();
	if ((batch.end == REE_FS_BATCH_WHOLE && n != size) ||
	    (batch.end == REE_FS_BATCH_TRAILING && n == size))
		abort();
	return 0;
}
