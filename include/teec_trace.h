/*
 * Trace macros for normal-world libraries and programs, under the names
 * and levels of OP-TEE's client (teec_trace.h): optee_client's libckteec,
 * libseteec and tee-supplicant are written against them, and link the
 * functions behind them from libteec.
 *
 * Define BINARY_PREFIX (a string naming the component, as in
 * -DBINARY_PREFIX=\"LT\") before including this header, and optionally one
 * of DEBUGLEVEL_0 to DEBUGLEVEL_4 (or DEBUGLEVEL itself). Messages above
 * DEBUGLEVEL are compiled out; the default is TRACE_INFO. As in OP-TEE,
 * DEBUGLEVEL_0 still keeps the errors.
 *
 * A message is printed on standard error as
 *   <ERR|INF|DBG|FLW> [<thread id>] <BINARY_PREFIX>:<function>:<line>: <text>
 * (OP-TEE's libteec prints on standard output; swtee keeps a program's
 * standard output for the program). The *_RAW variants print the text alone.
 */
#ifndef TEEC_TRACE_H
#define TEEC_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BINARY_PREFIX
#error "teec_trace.h: define BINARY_PREFIX (e.g. -DBINARY_PREFIX=\"LT\") first"
#endif

#define TRACE_ERROR 1
#define TRACE_INFO 2
#define TRACE_DEBUG 3
#define TRACE_FLOW 4

#ifndef DEBUGLEVEL
#if defined(DEBUGLEVEL_0) || defined(DEBUGLEVEL_1)
#define DEBUGLEVEL TRACE_ERROR
#elif defined(DEBUGLEVEL_2)
#define DEBUGLEVEL TRACE_INFO
#elif defined(DEBUGLEVEL_3)
#define DEBUGLEVEL TRACE_DEBUG
#elif defined(DEBUGLEVEL_4)
#define DEBUGLEVEL TRACE_FLOW
#else
#define DEBUGLEVEL TRACE_INFO
#endif
#endif

#ifndef __PRINTFLIKE
#define __PRINTFLIKE(fmt_arg, first_arg) __attribute__((__format__(__printf__, fmt_arg, first_arg)))
#endif

/*
 * Prints one message at level (TRACE_ERROR..TRACE_FLOW) for component
 * prefix. With function NULL, the text alone (no level, thread, place).
 * The message is written in one piece, so messages of concurrent threads
 * do not interleave; a message longer than 512 bytes is cut and ends
 * with "...".
 */
void _dprintf(const char *function, int line, int level, const char *prefix, const char *fmt, ...)
    __PRINTFLIKE(5, 6);

/*
 * Prints blen bytes of buffer as a hex and ASCII dump headed by bname, on
 * standard error, when the environment's SWTEE_TEEC_LOG_LEVEL is 3 (debug)
 * or more; otherwise nothing. OP-TEE's libteec dumps only when it was built
 * at debug level: callers dump keys (tee-supplicant's RPMB code), which
 * must not reach a log by default.
 */
void dump_buffer(const char *bname, const uint8_t *buffer, size_t blen);

/* glibc's dprintf(fd, ...) is declared above, before this name is taken. */
#define dprintf(level, ...)                                                                        \
	do {                                                                                       \
		if ((level) <= DEBUGLEVEL)                                                         \
			_dprintf(__func__, __LINE__, (level), BINARY_PREFIX, __VA_ARGS__);         \
	} while (0)

#define dprintf_raw(level, ...)                                                                    \
	do {                                                                                       \
		if ((level) <= DEBUGLEVEL)                                                         \
			_dprintf(NULL, 0, (level), BINARY_PREFIX, __VA_ARGS__);                    \
	} while (0)

#define EMSG(fmt, ...) dprintf(TRACE_ERROR, fmt "\n", ##__VA_ARGS__)
#define IMSG(fmt, ...) dprintf(TRACE_INFO, fmt "\n", ##__VA_ARGS__)
#define DMSG(fmt, ...) dprintf(TRACE_DEBUG, fmt "\n", ##__VA_ARGS__)
#define FMSG(fmt, ...) dprintf(TRACE_FLOW, fmt "\n", ##__VA_ARGS__)

/* Entry and exit of a function, at flow level. */
#define INMSG(fmt, ...) FMSG("> " fmt, ##__VA_ARGS__)
#define OUTMSG(fmt, ...) FMSG("< " fmt, ##__VA_ARGS__)
/* Returns r from the calling function, logging it as an error if non-zero. */
#define OUTRMSG(r)                                                                                 \
	do {                                                                                       \
		if (r)                                                                             \
			EMSG("Function returns with [%d]", (int)(r));                              \
		OUTMSG("r=[%d]", (int)(r));                                                        \
		return r;                                                                          \
	} while (0)

#define EMSG_RAW(fmt, ...) dprintf_raw(TRACE_ERROR, fmt, ##__VA_ARGS__)
#define IMSG_RAW(fmt, ...) dprintf_raw(TRACE_INFO, fmt, ##__VA_ARGS__)
#define DMSG_RAW(fmt, ...) dprintf_raw(TRACE_DEBUG, fmt, ##__VA_ARGS__)
#define FMSG_RAW(fmt, ...) dprintf_raw(TRACE_FLOW, fmt, ##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* TEEC_TRACE_H */
