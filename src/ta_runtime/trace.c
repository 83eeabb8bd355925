/* The TA's log lines (trace.h), on the core's log, which names the TA. */
#include <stdarg.h>
#include <stdio.h>

#include <trace.h>

#include "runtime.h"

static int trace_level = TRACE_MAX;

void trace_set_level(int level)
{
	trace_level = level;
}

int trace_get_level(void)
{
	return trace_level;
}

void trace_printf(const char *func, int line, int level, bool level_ok, const char *fmt, ...)
{
	static const char tag[] = "?EIDF";
	char msg[768];
	va_list ap;

	/* MSG (level_ok false) always prints; the others by level. */
	if (level_ok && level > trace_level)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (func)
		fprintf(stderr, "%c/TA: %s:%d %s\n", level >= 0 && level <= 4 ? tag[level] : 'M',
			func, line, msg);
	else
		fprintf(stderr, "%s", msg);
}
