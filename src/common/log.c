#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static char log_prog[64] = "swtee";
static int log_lvl = LOG_LVL_INFO;

void log_init(const char *prog, int level)
{
	snprintf(log_prog, sizeof(log_prog), "%s", prog);
	log_lvl = level;
}

int log_level(void)
{
	return log_lvl;
}

void log_msg(int level, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n = 0;

	if (level > log_lvl)
		return;
	/* Without a name, as in a TA instance: the core names its lines. */
	n = snprintf(line, sizeof(line), "%s%s", log_prog, *log_prog ? ": " : "");
	if (n < 0 || (size_t)n >= sizeof(line))
		return;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* One write per line keeps lines from several processes apart. */
	fprintf(stderr, "%s\n", line);
}
