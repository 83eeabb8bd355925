/*
 * Bounded reader and writer for every message and file that crosses a trust
 * boundary. A reader never reads past its end: every get either succeeds
 * whole or fails, and after the first failure every later get fails too, so
 * a parser may check once at the end (buf_ok) or after each step.
 */
#ifndef SWTEE_BUF_H
#define SWTEE_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf_reader {
	const uint8_t *p;
	size_t len;
	size_t off;
	bool failed;
};

struct buf_writer {
	uint8_t *p;
	size_t cap;
	size_t off;
	bool failed;
};

void buf_reader_init(struct buf_reader *r, const void *p, size_t len);
/* True while no get has failed. */
bool buf_ok(const struct buf_reader *r);
/* Bytes left to read (0 after a failure). */
size_t buf_left(const struct buf_reader *r);
/* True when no get failed and every byte was consumed (no trailing bytes). */
bool buf_done(const struct buf_reader *r);

bool buf_get_u8(struct buf_reader *r, uint8_t *v);
bool buf_get_u16(struct buf_reader *r, uint16_t *v); /* little-endian */
bool buf_get_u32(struct buf_reader *r, uint32_t *v); /* little-endian */
bool buf_get_u64(struct buf_reader *r, uint64_t *v); /* little-endian */
/*
 * Big-endian (network order: TPM 2.0 and its transports). Like every get,
 * a short read fails, leaves the reader failed and *v at 0.
 */
bool buf_get_be16(struct buf_reader *r, uint16_t *v);
bool buf_get_be32(struct buf_reader *r, uint32_t *v);
bool buf_get_be64(struct buf_reader *r, uint64_t *v);
bool buf_get_bytes(struct buf_reader *r, void *dst, size_t n);
/* Points *p at the next n bytes without copying them. */
bool buf_get_ptr(struct buf_reader *r, const uint8_t **p, size_t n);
bool buf_skip(struct buf_reader *r, size_t n);
/* A sub-reader over the next n bytes; the parent moves past them. */
bool buf_get_sub(struct buf_reader *r, struct buf_reader *sub, size_t n);

void buf_writer_init(struct buf_writer *w, void *p, size_t cap);
bool buf_put_u8(struct buf_writer *w, uint8_t v);
bool buf_put_u16(struct buf_writer *w, uint16_t v);
bool buf_put_u32(struct buf_writer *w, uint32_t v);
bool buf_put_u64(struct buf_writer *w, uint64_t v);
bool buf_put_be16(struct buf_writer *w, uint16_t v);
bool buf_put_be32(struct buf_writer *w, uint32_t v);
bool buf_put_be64(struct buf_writer *w, uint64_t v);
bool buf_put_bytes(struct buf_writer *w, const void *src, size_t n);
/* Bytes written so far, or 0 after a failure. */
size_t buf_written(const struct buf_writer *w);

#endif
