/*
 * GP data stream access (5.5): read, write, truncate, seek, on a persistent
 * object's data. The position is the handle's, kept here; the data is the
 * core's. A write larger than the bulk window goes in pieces that end on
 * block boundaries and that the core commits as one transaction: it is
 * whole or not at all like any other.
 *
 * Small reads that follow each other take a read-ahead from the core
 * (STOR_RA_LEN at a time) when the handle does not share writing: one round
 * trip to the core serves the next reads, and writes through the handle
 * update what it holds.
 */
#include <stdlib.h>
#include <string.h>

#include <tee_api_defines_extensions.h>

#include "secure.h"
#include "storage.h"

#define BLOCK 4096u
/* Handles with a read-ahead at once, at most: 1 MiB of the instance's memory. */
#define RA_HANDLES_MAX 16

static unsigned int ra_handles;

void stor_obj_free(struct stor_obj *so)
{
	if (!so)
		return;
	if (so->ra) {
		secure_wipe(so->ra, STOR_RA_LEN);
		free(so->ra);
		ra_handles--;
	}
	free(so);
}

/* Copies what the read-ahead holds of [pos, pos + len) from pos on. */
static size_t ra_copy(const struct stor_obj *so, uint64_t pos, uint8_t *dst, size_t len)
{
	uint64_t n = 0;

	if (!so->ra_len || pos < so->ra_pos || pos >= so->ra_pos + so->ra_len)
		return 0;
	n = so->ra_pos + so->ra_len - pos;
	if (n > len)
		n = len;
	memcpy(dst, so->ra + (pos - so->ra_pos), (size_t)n);
	return (size_t)n;
}

/* Writes through this handle keep the read-ahead what the object holds. */
static void ra_written(struct stor_obj *so, uint64_t pos, const uint8_t *src, size_t len)
{
	uint64_t from = pos > so->ra_pos ? pos : so->ra_pos;
	uint64_t to = so->ra_pos + so->ra_len;

	if (pos + len < to)
		to = pos + len;
	if (so->ra_len && from < to)
		memcpy(so->ra + (from - so->ra_pos), src + (from - pos), (size_t)(to - from));
}

/*
 * How much to ask the core for when the TA wants want bytes at pos: a whole
 * read-ahead for a small read that goes on where the last one (or the
 * read-ahead) ended, when no other handle can change the data behind it.
 */
static uint32_t ra_ask(struct stor_obj *so, uint64_t pos, uint32_t want)
{
	bool sequential = pos == so->ra_next || (so->ra_len && pos == so->ra_pos + so->ra_len);

	if (want >= STOR_RA_LEN || !sequential || (so->flags & TEE_DATA_FLAG_SHARE_WRITE))
		return want;
	if (!so->ra && ra_handles < RA_HANDLES_MAX) {
		so->ra = malloc(STOR_RA_LEN);
		ra_handles += so->ra != NULL;
	}
	return so->ra ? STOR_RA_LEN : want;
}

TEE_Result TEE_ReadObjectData(TEE_ObjectHandle object, void *buffer, size_t size, size_t *count)
{
	static const char func[] = "TEE_ReadObjectData";
	static const TEE_Result ok[] = {TEE_ERROR_CORRUPT_OBJECT, TEE_ERROR_STORAGE_NOT_AVAILABLE};
	struct tee_obj *o = stor_obj_from_handle(object, func);
	struct stor_obj *so = stor_of(o);
	uint8_t *dst = buffer;
	uint8_t out[24];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	size_t done = 0;
	TEE_Result res = TEE_SUCCESS;

	if (!count || (!buffer && size))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (!(so->flags & TEE_DATA_FLAG_ACCESS_READ))
		rt_panic(TEE_ERROR_ACCESS_CONFLICT, func);
	*count = 0;
	if (so->corrupt)
		return TEE_ERROR_CORRUPT_OBJECT;
	while (done < size) {
		uint32_t want =
		    size - done < PROTO_STOR_WINDOW ? (uint32_t)(size - done) : PROTO_STOR_WINDOW;
		uint32_t ask = 0;
		uint32_t got = 0;
		size_t n = ra_copy(so, o->data_pos, dst + done, want);

		if (n) {
			done += n;
			o->data_pos += n;
			continue;
		}
		ask = ra_ask(so, o->data_pos, want);
		buf_writer_init(&w, out, sizeof(out));
		buf_put_u32(&w, MSG_STOR_READ);
		buf_put_u32(&w, so->handle);
		buf_put_u64(&w, o->data_pos);
		buf_put_u32(&w, ask);
		res = stor_note(o, stor_call(out, buf_written(&w), in, sizeof(in), &r));
		if (res)
			break;
		buf_get_u32(&r, &got);
		if (!buf_done(&r) || got > ask)
			rt_panic(TEE_ERROR_COMMUNICATION, func);
		if (ask > want) {
			memcpy(so->ra, stor_bulk(), got);
			so->ra_pos = o->data_pos;
			so->ra_len = got;
		}
		n = got < want ? got : want;
		memcpy(dst + done, stor_bulk(), n);
		done += n;
		o->data_pos += n;
		if (n < want)
			break;
	}
	so->ra_next = o->data_pos;
	*count = done;
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

TEE_Result TEE_WriteObjectData(TEE_ObjectHandle object, const void *buffer, size_t size)
{
	static const char func[] = "TEE_WriteObjectData";
	static const TEE_Result ok[] = {TEE_ERROR_STORAGE_NO_SPACE, TEE_ERROR_OVERFLOW,
					TEE_ERROR_CORRUPT_OBJECT, TEE_ERROR_STORAGE_NOT_AVAILABLE};
	struct tee_obj *o = stor_obj_from_handle(object, func);
	struct stor_obj *so = stor_of(o);
	const uint8_t *src = buffer;
	uint8_t out[32];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	uint64_t pos = o->data_pos;
	size_t done = 0;
	TEE_Result res = TEE_SUCCESS;

	if (!buffer && size)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (!(so->flags & TEE_DATA_FLAG_ACCESS_WRITE))
		rt_panic(TEE_ERROR_ACCESS_CONFLICT, func);
	if (so->corrupt)
		return TEE_ERROR_CORRUPT_OBJECT;
	if (!size)
		return TEE_SUCCESS;
	if (size > TEE_DATA_MAX_POSITION || pos + size > TEE_DATA_MAX_POSITION)
		return TEE_ERROR_OVERFLOW;
	if (!stor_window()) {
		res = TEE_ERROR_STORAGE_NOT_AVAILABLE;
		goto out;
	}
	while (done < size) {
		size_t n = size - done;
		uint32_t flags = 0;
		uint64_t from = 0;

		if (n > PROTO_STOR_WINDOW) {
			/* Every piece but the last ends on a block boundary. */
			n = PROTO_STOR_WINDOW - (pos + done + PROTO_STOR_WINDOW) % BLOCK;
			flags |= PROTO_STOR_WRITE_MORE;
		}
		/* From the heap the core maps, where it can; through the bulk window otherwise. */
		if (stor_heap_offset(src + done, n, &from))
			flags |= PROTO_STOR_WRITE_HEAP;
		else
			memcpy(stor_bulk(), src + done, n);
		buf_writer_init(&w, out, sizeof(out));
		buf_put_u32(&w, MSG_STOR_WRITE);
		buf_put_u32(&w, so->handle);
		buf_put_u64(&w, pos + done);
		buf_put_u32(&w, (uint32_t)n);
		buf_put_u32(&w, flags);
		if (flags & PROTO_STOR_WRITE_HEAP)
			buf_put_u64(&w, from);
		res = stor_note(o, stor_call(out, buf_written(&w), in, sizeof(in), &r));
		if (res)
			goto out;
		done += n;
	}
	ra_written(so, pos, src, size);
	o->data_pos = (size_t)(pos + size);
	if (o->data_pos > o->data_size)
		o->data_size = o->data_pos;
out:
	/* A piece failed: what the object holds now is the core's to say. */
	if (res)
		so->ra_len = 0;
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

TEE_Result TEE_TruncateObjectData(TEE_ObjectHandle object, size_t size)
{
	static const char func[] = "TEE_TruncateObjectData";
	static const TEE_Result ok[] = {TEE_ERROR_STORAGE_NO_SPACE, TEE_ERROR_CORRUPT_OBJECT,
					TEE_ERROR_STORAGE_NOT_AVAILABLE};
	struct tee_obj *o = stor_obj_from_handle(object, func);
	struct stor_obj *so = stor_of(o);
	uint8_t out[16];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	TEE_Result res = TEE_SUCCESS;

	if (!(so->flags & TEE_DATA_FLAG_ACCESS_WRITE))
		rt_panic(TEE_ERROR_ACCESS_CONFLICT, func);
	if (so->corrupt)
		return TEE_ERROR_CORRUPT_OBJECT;
	if (size > TEE_DATA_MAX_POSITION)
		return TEE_ERROR_STORAGE_NO_SPACE;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_STOR_TRUNCATE);
	buf_put_u32(&w, so->handle);
	buf_put_u64(&w, size);
	res = stor_note(o, stor_call(out, buf_written(&w), in, sizeof(in), &r));
	if (!res)
		o->data_size = size;
	/* Cut or grown, the object's end moved: the read-ahead starts over. */
	so->ra_len = 0;
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

TEE_Result TEE_SeekObjectData(TEE_ObjectHandle object, intmax_t offset, TEE_Whence whence)
{
	static const char func[] = "TEE_SeekObjectData";
	static const TEE_Result ok[] = {TEE_ERROR_OVERFLOW, TEE_ERROR_CORRUPT_OBJECT,
					TEE_ERROR_STORAGE_NOT_AVAILABLE};
	struct tee_obj *o = stor_obj_from_handle(object, func);
	intmax_t base = 0;
	intmax_t pos = 0;
	TEE_Result res = TEE_SUCCESS;

	switch (whence) {
	case TEE_DATA_SEEK_SET:
		base = 0;
		break;
	case TEE_DATA_SEEK_CUR:
		base = (intmax_t)o->data_pos;
		break;
	case TEE_DATA_SEEK_END:
		res = stor_refresh_size(o);
		base = (intmax_t)o->data_size;
		break;
	default:
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	}
	if (!res && stor_of(o)->corrupt)
		res = TEE_ERROR_CORRUPT_OBJECT;
	if (!res && __builtin_add_overflow(base, offset, &pos))
		res = TEE_ERROR_OVERFLOW;
	/* Before the start is the start; past TEE_DATA_MAX_POSITION is refused. */
	if (!res && pos < 0)
		pos = 0;
	if (!res && pos > (intmax_t)TEE_DATA_MAX_POSITION)
		res = TEE_ERROR_OVERFLOW;
	if (!res)
		o->data_pos = (size_t)pos;
	stor_expect(res, ok, sizeof(ok) / sizeof(ok[0]), func);
	return res;
}

TEE_Result __GP11_TEE_ReadObjectData(TEE_ObjectHandle object, void *buffer, uint32_t size,
				     uint32_t *count)
{
	size_t n = 0;
	TEE_Result res = TEE_SUCCESS;

	if (!count)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_ReadObjectData");
	res = TEE_ReadObjectData(object, buffer, size, &n);
	*count = (uint32_t)n;
	return res;
}

TEE_Result __GP11_TEE_WriteObjectData(TEE_ObjectHandle object, const void *buffer, uint32_t size)
{
	return TEE_WriteObjectData(object, buffer, size);
}

TEE_Result __GP11_TEE_TruncateObjectData(TEE_ObjectHandle object, uint32_t size)
{
	return TEE_TruncateObjectData(object, size);
}

TEE_Result __GP11_TEE_SeekObjectData(TEE_ObjectHandle object, int32_t offset, TEE_Whence whence)
{
	return TEE_SeekObjectData(object, offset, whence);
}
