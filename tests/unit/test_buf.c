/*
 * Tests of the bounded reader and writer (src/common/buf.c), both byte
 * orders. Every reader runs over a heap buffer of exactly its length, so a
 * sanitizer build catches a read past the end; every writer has a guard
 * byte after its capacity that must stay untouched.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define GUARD 0xa5

static int passed;
static int failed;

static void check(bool ok, const char *what)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	fprintf(stderr, "FAIL: %s\n", what);
}

/* A heap copy of p[0..n), so that one byte more is out of bounds. */
static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);

	if (!c) {
		fputs("out of memory\n", stderr);
		exit(2);
	}
	memcpy(c, p, n);
	return c;
}

static const uint8_t seq[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
			      0x08, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc};

static void test_be_values(void)
{
	uint8_t *p = exact(seq, sizeof(seq));
	struct buf_reader r;
	uint16_t v16 = 0;
	uint32_t v32 = 0;
	uint64_t v64 = 0;

	buf_reader_init(&r, p, sizeof(seq));
	check(buf_get_be64(&r, &v64) && v64 == 0x0102030405060708ull, "be64 reads network order");
	check(buf_get_be32(&r, &v32) && v32 == 0x89abcdefu, "be32 reads network order");
	check(buf_get_be16(&r, &v16) && v16 == 0xfedc, "be16 reads network order");
	check(buf_done(&r), "the be reads consume exactly their bytes");
	free(p);
}

static void test_le_values(void)
{
	uint8_t *p = exact(seq, sizeof(seq));
	struct buf_reader r;
	uint8_t v8 = 0;
	uint16_t v16 = 0;
	uint32_t v32 = 0;
	uint64_t v64 = 0;

	buf_reader_init(&r, p, sizeof(seq));
	check(buf_get_u64(&r, &v64) && v64 == 0x0807060504030201ull, "u64 reads little-endian");
	check(buf_get_u32(&r, &v32) && v32 == 0xefcdab89u, "u32 reads little-endian");
	check(buf_get_u8(&r, &v8) && v8 == 0xfe, "u8 reads one byte");
	check(buf_get_u8(&r, &v8) && v8 == 0xdc, "u8 reads the next byte");
	check(buf_done(&r), "the le reads consume exactly their bytes");
	buf_reader_init(&r, p, 2);
	check(buf_get_u16(&r, &v16) && v16 == 0x0201, "u16 reads little-endian");
	free(p);
}

static void test_mixed_orders(void)
{
	static const uint8_t hdr[] = {0x80, 0x01, 0x00, 0x00, 0x00, 0x0a, 0x0a, 0x00, 0x00, 0x00};
	uint8_t *p = exact(hdr, sizeof(hdr));
	struct buf_reader r;
	uint16_t tag = 0;
	uint32_t size = 0;
	uint32_t le = 0;

	buf_reader_init(&r, p, sizeof(hdr));
	check(buf_get_be16(&r, &tag) && tag == 0x8001, "a TPM tag");
	check(buf_get_be32(&r, &size) && size == 10, "a TPM size");
	check(buf_get_u32(&r, &le) && le == 10, "the same bytes little-endian after");
	check(buf_done(&r), "mixed orders end where they should");
	free(p);
}

/* A get of n bytes from n-1: fails, yields 0, and the reader stays failed. */
static void test_short_reads(void)
{
	uint8_t *p = exact(seq, 7);
	struct buf_reader r;
	uint8_t v8 = 0x55;
	uint16_t v16 = 0x5555;
	uint32_t v32 = 0x55555555u;
	uint64_t v64 = 0x5555555555555555ull;

	buf_reader_init(&r, p, 7);
	check(!buf_get_be64(&r, &v64) && v64 == 0, "be64 from 7 bytes fails with 0");
	check(!buf_ok(&r) && buf_left(&r) == 0 && !buf_done(&r), "the reader is failed");
	check(!buf_get_u8(&r, &v8) && v8 == 0, "and every later get fails with 0");

	buf_reader_init(&r, p + 4, 3);
	check(!buf_get_be32(&r, &v32) && v32 == 0, "be32 from 3 bytes fails with 0");
	check(!buf_get_be16(&r, &v16) && v16 == 0, "be16 after a failure fails with 0");

	buf_reader_init(&r, p + 6, 1);
	v16 = 0x5555;
	check(!buf_get_be16(&r, &v16) && v16 == 0, "be16 from 1 byte fails with 0");

	buf_reader_init(&r, p, 7);
	v64 = 1;
	check(!buf_get_u64(&r, &v64) && v64 == 0, "u64 from 7 bytes fails with 0");

	buf_reader_init(&r, NULL, 5);
	v32 = 1;
	check(!buf_get_be32(&r, &v32) && v32 == 0, "a reader over nothing has nothing");
	free(p);
}

static void test_be_writes(void)
{
	uint8_t out[15];
	struct buf_writer w;
	bool ok = true;

	memset(out, GUARD, sizeof(out));
	buf_writer_init(&w, out, 14);
	ok &= buf_put_be64(&w, 0x0102030405060708ull);
	ok &= buf_put_be32(&w, 0x89abcdefu);
	ok &= buf_put_be16(&w, 0xfedc);
	check(ok && buf_written(&w) == 14 && !memcmp(out, seq, 14), "be puts write network order");
	check(out[14] == GUARD, "nothing past the capacity");
	check(!buf_put_u8(&w, 0) && buf_written(&w) == 0, "a full writer fails");
}

/* A put that does not fit writes nothing, and the writer stays failed. */
static void test_short_writes(void)
{
	static const size_t caps[] = {0, 1, 3, 7};
	uint8_t out[8];
	struct buf_writer w;

	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		bool ok = true;

		memset(out, GUARD, sizeof(out));
		buf_writer_init(&w, out, caps[i]);
		ok &= !buf_put_be64(&w, UINT64_MAX);
		ok &= !buf_put_be32(&w, 1); /* fits in 7, but the writer has failed */
		ok &= !buf_put_be16(&w, 1);
		for (size_t k = 0; k < sizeof(out); k++)
			ok &= out[k] == GUARD;
		check(ok && buf_written(&w) == 0, "a put that does not fit writes nothing");
	}
}

static void test_round_trip(void)
{
	static const uint64_t vals[] = {0,	     1,		 0x80,
					0xff,	     0x100,	 0x7fffffff,
					0x80000000u, UINT32_MAX, 0x0123456789abcdefull,
					UINT64_MAX};
	uint8_t out[14];

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		struct buf_writer w;
		struct buf_reader r;
		uint16_t v16 = 0;
		uint32_t v32 = 0;
		uint64_t v64 = 0;
		bool ok = true;

		buf_writer_init(&w, out, sizeof(out));
		ok &= buf_put_be16(&w, (uint16_t)vals[i]);
		ok &= buf_put_be32(&w, (uint32_t)vals[i]);
		ok &= buf_put_be64(&w, vals[i]);
		buf_reader_init(&r, out, buf_written(&w));
		ok &= buf_get_be16(&r, &v16) && v16 == (uint16_t)vals[i];
		ok &= buf_get_be32(&r, &v32) && v32 == (uint32_t)vals[i];
		ok &= buf_get_be64(&r, &v64) && v64 == vals[i];
		check(ok && buf_done(&r), "be put then get gives the value back");
	}
}

int main(void)
{
	test_be_values();
	test_le_values();
	test_mixed_orders();
	test_short_reads();
	test_be_writes();
	test_short_writes();
	test_round_trip();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
