/*
 * TA log macros, as OP-TEE TAs use them.
 *
 * TRACE_LEVEL sets the most verbose level compiled into the TA (define it
 * before including this header, or set CFG_TEE_TA_LOG_LEVEL; the default
 * keeps errors only). Messages above it are compiled out, but their format
 * strings and arguments are still type-checked. Those compiled in are also
 * filtered at run time by trace_set_level().
 */
#ifndef TRACE_H
#define TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include <trace_levels.h>

#ifndef TRACE_LEVEL
#ifdef CFG_TEE_TA_LOG_LEVEL
#define TRACE_LEVEL CFG_TEE_TA_LOG_LEVEL
#else
#define TRACE_LEVEL TRACE_ERROR
#endif
#endif

/*
 * Provided by the TA runtime; every macro below ends here.
 *
 * func and line locate the call; func is NULL for the _RAW variants, which
 * print the message alone. level is a TRACE_* value. With level_ok true the
 * message is dropped when level exceeds trace_get_level(); with level_ok
 * false (MSG, MSG_RAW) it is always printed.
 */
void trace_printf(const char *func, int line, int level, bool level_ok, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Run-time threshold for level_ok messages, TRACE_MIN..TRACE_MAX. */
void trace_set_level(int level);
int trace_get_level(void);

/*
 * The condition is a constant: when level > TRACE_LEVEL the compiler drops
 * the call but still checks the format against its arguments.
 */
#define TRACE_PRINT_AT(level, func, line, ...)                                                     \
	do {                                                                                       \
		if ((level) <= TRACE_LEVEL)                                                        \
			trace_printf((func), (line), (level), true, __VA_ARGS__);                  \
	} while (0)

#define EMSG(...) TRACE_PRINT_AT(TRACE_ERROR, __func__, __LINE__, __VA_ARGS__)
#define IMSG(...) TRACE_PRINT_AT(TRACE_INFO, __func__, __LINE__, __VA_ARGS__)
#define DMSG(...) TRACE_PRINT_AT(TRACE_DEBUG, __func__, __LINE__, __VA_ARGS__)
#define FMSG(...) TRACE_PRINT_AT(TRACE_FLOW, __func__, __LINE__, __VA_ARGS__)
#define MSG(...) trace_printf(__func__, __LINE__, TRACE_MIN, false, __VA_ARGS__)

#define EMSG_RAW(...) TRACE_PRINT_AT(TRACE_ERROR, NULL, 0, __VA_ARGS__)
#define IMSG_RAW(...) TRACE_PRINT_AT(TRACE_INFO, NULL, 0, __VA_ARGS__)
#define DMSG_RAW(...) TRACE_PRINT_AT(TRACE_DEBUG, NULL, 0, __VA_ARGS__)
#define FMSG_RAW(...) TRACE_PRINT_AT(TRACE_FLOW, NULL, 0, __VA_ARGS__)
#define MSG_RAW(...) trace_printf(NULL, 0, TRACE_MIN, false, __VA_ARGS__)

/*
 * Provided by the TA runtime: prints buf[0..len) in hex, 16 bytes a line,
 * each line as a message of level from func:line (filtered as those are).
 */
void dhex_dump(const char *func, int line, int level, const void *buf, int len);

/* Hex dumps at each level, compiled out above TRACE_LEVEL as the messages are. */
#define TRACE_HEXDUMP_AT(level, buf, len)                                                          \
	do {                                                                                       \
		if ((level) <= TRACE_LEVEL)                                                        \
			dhex_dump(__func__, __LINE__, (level), (buf), (int)(len));                 \
	} while (0)
#define EHEXDUMP(buf, len) TRACE_HEXDUMP_AT(TRACE_ERROR, buf, len)
#define IHEXDUMP(buf, len) TRACE_HEXDUMP_AT(TRACE_INFO, buf, len)
#define DHEXDUMP(buf, len) TRACE_HEXDUMP_AT(TRACE_DEBUG, buf, len)
#define FHEXDUMP(buf, len) TRACE_HEXDUMP_AT(TRACE_FLOW, buf, len)

/* OP-TEE's flow-tracing forms: FMSG with "> " or "< " before the message. */
#define INMSG(...) FMSG("> " __VA_ARGS__)
#define OUTMSG(...) FMSG("< " __VA_ARGS__)
#define OUTRMSG(r)                                                                                 \
	do {                                                                                       \
		OUTMSG("r=[%x]", (unsigned int)(r));                                               \
		return (r);                                                                        \
	} while (0)
/* OP-TEE's "synchronised" message; for a TA, an EMSG. */
#define SMSG(...) TRACE_PRINT_AT(TRACE_ERROR, __func__, __LINE__, __VA_ARGS__)

#endif /* TRACE_H */
