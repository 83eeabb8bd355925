/*
 * Trace levels of the TA log macros in trace.h. A message is kept when its
 * level is at most the configured one.
 */
#ifndef TRACE_LEVELS_H
#define TRACE_LEVELS_H

#define TRACE_MIN 0   /* nothing but MSG */
#define TRACE_ERROR 1 /* EMSG */
#define TRACE_INFO 2  /* IMSG */
#define TRACE_DEBUG 3 /* DMSG */
#define TRACE_FLOW 4  /* FMSG */
#define TRACE_MAX TRACE_FLOW

#endif /* TRACE_LEVELS_H */
