#include "buf.h"

#include <string.h>

void buf_reader_init(struct buf_reader *r, const void *p, size_t len)
{
	r->p = p;
	r->len = p ? len : 0;
	r->off = 0;
	r->failed = false;
}

bool buf_ok(const struct buf_reader *r)
{
	return !r->failed;
}

size_t buf_left(const struct buf_reader *r)
{
	return r->failed ? 0 : r->len - r->off;
}

bool buf_done(const struct buf_reader *r)
{
	return !r->failed && r->off == r->len;
}

bool buf_get_ptr(struct buf_reader *r, const uint8_t **p, size_t n)
{
	if (r->failed || n > r->len - r->off) {
		r->failed = true;
		*p = NULL;
		return false;
	}
	*p = r->p + r->off;
	r->off += n;
	return true;
}

bool buf_get_bytes(struct buf_reader *r, void *dst, size_t n)
{
	const uint8_t *p = NULL;

	if (!buf_get_ptr(r, &p, n))
		return false;
	if (n)
		memcpy(dst, p, n);
	return true;
}

bool buf_skip(struct buf_reader *r, size_t n)
{
	const uint8_t *p = NULL;

	return buf_get_ptr(r, &p, n);
}

bool buf_get_sub(struct buf_reader *r, struct buf_reader *sub, size_t n)
{
	const uint8_t *p = NULL;

	if (!buf_get_ptr(r, &p, n)) {
		buf_reader_init(sub, NULL, 0);
		sub->failed = true;
		return false;
	}
	buf_reader_init(sub, p, n);
	return true;
}

static bool get_le(struct buf_reader *r, uint64_t *v, size_t n)
{
	const uint8_t *p = NULL;
	uint64_t x = 0;

	*v = 0;
	if (!buf_get_ptr(r, &p, n))
		return false;
	for (size_t i = 0; i < n; i++)
		x |= (uint64_t)p[i] << (8 * i);
	*v = x;
	return true;
}

bool buf_get_u8(struct buf_reader *r, uint8_t *v)
{
	uint64_t x = 0;
	bool ok = get_le(r, &x, 1);

	*v = (uint8_t)x;
	return ok;
}

bool buf_get_u16(struct buf_reader *r, uint16_t *v)
{
	uint64_t x = 0;
	bool ok = get_le(r, &x, 2);

	*v = (uint16_t)x;
	return ok;
}

bool buf_get_u32(struct buf_reader *r, uint32_t *v)
{
	uint64_t x = 0;
	bool ok = get_le(r, &x, 4);

	*v = (uint32_t)x;
	return ok;
}

bool buf_get_u64(struct buf_reader *r, uint64_t *v)
{
	return get_le(r, v, 8);
}

void buf_writer_init(struct buf_writer *w, void *p, size_t cap)
{
	w->p = p;
	w->cap = p ? cap : 0;
	w->off = 0;
	w->failed = false;
}

bool buf_put_bytes(struct buf_writer *w, const void *src, size_t n)
{
	if (w->failed || n > w->cap - w->off) {
		w->failed = true;
		return false;
	}
	if (n)
		memcpy(w->p + w->off, src, n);
	w->off += n;
	return true;
}

static bool put_le(struct buf_writer *w, uint64_t v, size_t n)
{
	uint8_t b[8];

	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return buf_put_bytes(w, b, n);
}

bool buf_put_u8(struct buf_writer *w, uint8_t v)
{
	return put_le(w, v, 1);
}

bool buf_put_u16(struct buf_writer *w, uint16_t v)
{
	return put_le(w, v, 2);
}

bool buf_put_u32(struct buf_writer *w, uint32_t v)
{
	return put_le(w, v, 4);
}

bool buf_put_u64(struct buf_writer *w, uint64_t v)
{
	return put_le(w, v, 8);
}

size_t buf_written(const struct buf_writer *w)
{
	return w->failed ? 0 : w->off;
}
