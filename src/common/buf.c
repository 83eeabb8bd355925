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

/*
 * The n-byte unsigned integer at the reader, little- or big-endian, into the
 * n-byte *v (0 when short): n is sizeof(*v) of each caller's own type.
 */
static bool get_int(struct buf_reader *r, void *v, size_t n, bool big)
{
	const uint8_t *p = NULL;
	uint64_t x = 0;
	bool ok = buf_get_ptr(r, &p, n);

	for (size_t i = 0; ok && i < n; i++)
		x |= (uint64_t)p[i] << (8 * (big ? n - 1 - i : i));
	switch (n) {
	case 1:
		*(uint8_t *)v = (uint8_t)x;
		break;
	case 2:
		*(uint16_t *)v = (uint16_t)x;
		break;
	case 4:
		*(uint32_t *)v = (uint32_t)x;
		break;
	default:
		*(uint64_t *)v = x;
		break;
	}
	return ok;
}

bool buf_get_u8(struct buf_reader *r, uint8_t *v)
{
	return get_int(r, v, sizeof(*v), false);
}

bool buf_get_u16(struct buf_reader *r, uint16_t *v)
{
	return get_int(r, v, sizeof(*v), false);
}

bool buf_get_u32(struct buf_reader *r, uint32_t *v)
{
	return get_int(r, v, sizeof(*v), false);
}

bool buf_get_u64(struct buf_reader *r, uint64_t *v)
{
	return get_int(r, v, sizeof(*v), false);
}

bool buf_get_be16(struct buf_reader *r, uint16_t *v)
{
	return get_int(r, v, sizeof(*v), true);
}

bool buf_get_be32(struct buf_reader *r, uint32_t *v)
{
	return get_int(r, v, sizeof(*v), true);
}

bool buf_get_be64(struct buf_reader *r, uint64_t *v)
{
	return get_int(r, v, sizeof(*v), true);
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

static bool put_int(struct buf_writer *w, uint64_t v, size_t n, bool big)
{
	uint8_t b[8];

	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * (big ? n - 1 - i : i)));
	return buf_put_bytes(w, b, n);
}

bool buf_put_u8(struct buf_writer *w, uint8_t v)
{
	return put_int(w, v, sizeof(v), false);
}

bool buf_put_u16(struct buf_writer *w, uint16_t v)
{
	return put_int(w, v, sizeof(v), false);
}

bool buf_put_u32(struct buf_writer *w, uint32_t v)
{
	return put_int(w, v, sizeof(v), false);
}

bool buf_put_u64(struct buf_writer *w, uint64_t v)
{
	return put_int(w, v, sizeof(v), false);
}

bool buf_put_be16(struct buf_writer *w, uint16_t v)
{
	return put_int(w, v, sizeof(v), true);
}

bool buf_put_be32(struct buf_writer *w, uint32_t v)
{
	return put_int(w, v, sizeof(v), true);
}

bool buf_put_be64(struct buf_writer *w, uint64_t v)
{
	return put_int(w, v, sizeof(v), true);
}

size_t buf_written(const struct buf_writer *w)
{
	return w->failed ? 0 : w->off;
}
