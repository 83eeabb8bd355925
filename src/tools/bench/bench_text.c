/* swtee bench: formatting into fixed buffers, cut clearly (bench_text.h). */
#include "bench_text.h"

#include <stdio.h>
#include <string.h>

#define BENCH_CUT "..."

bool bench_vfmt(char *out, size_t n, const char *fmt, va_list ap)
{
	size_t at = 0;
	/*
	 * ap is the caller's, started by its va_start; the analyzer does not
	 * follow a va_list passed on through bench_vtext.
	 */
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
	int len = vsnprintf(out, n, fmt, ap);

	if (len < 0) {
		out[0] = '\0';
		return false;
	}
	if ((size_t)len < n)
		return true;
	if (n <= strlen(BENCH_CUT))
		return false;
	/* The mark replaces the last characters that fit, whole UTF-8 characters. */
	at = n - 1 - strlen(BENCH_CUT);
	while (at && ((unsigned char)out[at] & 0xc0) == 0x80)
		at--;
	memcpy(out + at, BENCH_CUT, sizeof(BENCH_CUT));
	return false;
}

bool bench_fmt(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	bool fit = false;

	va_start(ap, fmt);
	fit = bench_vfmt(out, n, fmt, ap);
	va_end(ap);
	return fit;
}

void bench_vtext(char *out, size_t n, const char *fmt, va_list ap)
{
	/* A cut text is marked, one that could not be formatted is "": shown as they are. */
	bool fit = bench_vfmt(out, n, fmt, ap);

	(void)fit;
}

void bench_text(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bench_vtext(out, n, fmt, ap);
	va_end(ap);
}
