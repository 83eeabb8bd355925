/*
 * The functions behind teec_trace.h, exported by libteec because OP-TEE's
 * client libraries (libckteec, libseteec) and tee-supplicant link them from
 * there. Nothing in swtee's libteec calls them.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

/* The header requires a prefix; these functions take theirs as an argument. */
#define BINARY_PREFIX "LT"
#include <teec_trace.h>

#define TRACE_MSG_MAX 512
#define DUMP_ROW 16
#define DUMP_ENV "SWTEE_TEEC_LOG_LEVEL"

static const char *level_name(int level)
{
	static const char *const names[] = {"", "ERR", "INF", "DBG", "FLW"};

	if (level < 0 || (size_t)level >= sizeof(names) / sizeof(names[0]))
		return "???";
	return names[level];
}

/* A message cut to fit buf ends with "...\n", so the cut shows. */
static void mark_cut(char *buf, size_t size)
{
	static const char mark[] = "...\n";

	memcpy(buf + size - sizeof(mark), mark, sizeof(mark));
}

void _dprintf(const char *function, int line, int level, const char *prefix, const char *fmt, ...)
{
	char msg[TRACE_MSG_MAX];
	size_t len = 0;
	va_list ap;
	int n = 0;

	if (function) {
		n = snprintf(msg, sizeof(msg), "%s [%ld] %s:%s:%d: ", level_name(level),
			     (long)gettid(), prefix ? prefix : "", function, line);
		if (n < 0)
			return;
		if ((size_t)n >= sizeof(msg)) {
			mark_cut(msg, sizeof(msg));
			fputs(msg, stderr);
			return;
		}
		len = (size_t)n;
	}
	va_start(ap, fmt);
	/* The analyzer loses va_start across the early returns above. */
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
	n = vsnprintf(msg + len, sizeof(msg) - len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(msg) - len)
		mark_cut(msg, sizeof(msg));
	/* One stdio call: the stream's lock keeps threads' messages apart. */
	fputs(msg, stderr);
}

/*
 * Whether the environment asks for debug level. secure_getenv: a setuid
 * program's environment is its caller's.
 */
static int dump_wanted(void)
{
	const char *v = secure_getenv(DUMP_ENV);
	char *end = NULL;
	long level = 0;

	if (!v || !*v)
		return 0;
	level = strtol(v, &end, 10);
	return *end == '\0' && level >= TRACE_DEBUG;
}

/* One row of up to DUMP_ROW bytes: hex, a gap after eight, then |ASCII|. */
static void dump_row(const uint8_t *p, size_t n)
{
	char row[DUMP_ROW * 3 + 1 + 2 + DUMP_ROW + 3];
	size_t len = 0;

	for (size_t i = 0; i < DUMP_ROW; i++) {
		if (i < n)
			len += (size_t)snprintf(row + len, sizeof(row) - len, "%02x ", p[i]);
		else
			len += (size_t)snprintf(row + len, sizeof(row) - len, "   ");
		if (i == DUMP_ROW / 2 - 1)
			row[len++] = ' ';
	}
	row[len++] = ' ';
	row[len++] = '|';
	for (size_t i = 0; i < n; i++)
		row[len++] = isprint(p[i]) ? (char)p[i] : '.';
	row[len++] = '|';
	row[len++] = '\n';
	row[len] = '\0';
	fputs(row, stderr);
}

void dump_buffer(const char *bname, const uint8_t *buffer, size_t blen)
{
	if (!dump_wanted())
		return;
	fprintf(stderr, "#### %s\n", bname ? bname : "");
	if (!buffer)
		return;
	for (size_t off = 0; off < blen; off += DUMP_ROW) {
		size_t n = blen - off < DUMP_ROW ? blen - off : DUMP_ROW;

		dump_row(buffer + off, n);
	}
}
