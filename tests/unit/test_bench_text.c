/*
 * swtee bench's formatting into fixed buffers (src/tools/bench/bench_text.h):
 * a text that fits is whole and reported so; one that does not is cut with
 * "..." at a whole UTF-8 character and reported cut.
 */
#include <stdio.h>
#include <string.h>

#include "bench_text.h"

static int failures;

static void expect(const char *what, bool ok)
{
	printf("%s %s\n", ok ? "ok  " : "FAIL", what);
	if (!ok)
		failures++;
}

int main(void)
{
	char b[8];
	bool fit = false;

	fit = bench_fmt(b, sizeof(b), "%s", "1234567");
	expect("seven characters fit in eight bytes", fit && !strcmp(b, "1234567"));
	fit = bench_fmt(b, sizeof(b), "%s", "12345678");
	expect("eight characters are cut and marked", !fit && !strcmp(b, "1234..."));
	fit = bench_fmt(b, sizeof(b), "%s",
			"123\xc3\xa9"
			"5678");
	expect("the mark never splits a UTF-8 character", !fit && !strcmp(b, "123..."));
	fit = bench_fmt(b, 3, "%s", "abcdef");
	expect("a buffer too small for the mark keeps what fits", !fit && !strcmp(b, "ab"));
	bench_text(b, sizeof(b), "%d-%d", 10, 20);
	expect("bench_text formats as snprintf does", !strcmp(b, "10-20"));
	bench_text(b, sizeof(b), "%s", "a long label");
	expect("bench_text cuts clearly", !strcmp(b, "a lo..."));
	return failures ? 1 : 0;
}
