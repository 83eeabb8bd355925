/*
 * Formatting into fixed buffers for swtee bench, with truncation handled:
 * every text the bench formats goes through one of these, never through a
 * bare snprintf whose result nobody reads.
 *
 * A text that does not fit is cut clearly: what fits, ending in "..." (when
 * the buffer holds more than three characters; never inside a UTF-8
 * character), so that a cut label, caption, cell or reason says it was cut.
 * Text that must be whole (a path, a file name) uses bench_fmt and treats
 * false as an error.
 */
#ifndef SWTEE_BENCH_TEXT_H
#define SWTEE_BENCH_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Formats into out[0..n), n >= 1. Returns true when the whole text fit;
 * false when it was cut as above, or could not be formatted (out is "").
 */
bool bench_fmt(char *out, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), warn_unused_result));
bool bench_vfmt(char *out, size_t n, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0), warn_unused_result));

/*
 * bench_fmt for text that is shown and is still right to show when cut
 * (labels, captions, table cells, reasons): the cut is the handling.
 */
void bench_text(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void bench_vtext(char *out, size_t n, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
