/* The constructor trace the TA defines and its libraries write (ta_shlib.h). */
#ifndef SHLIB_TRACE_H
#define SHLIB_TRACE_H

#define SHLIB_TRACE_MAX 8

extern int shlib_trace[SHLIB_TRACE_MAX];
extern int shlib_ntrace;

static inline void shlib_trace_add(int id)
{
	if (shlib_ntrace < SHLIB_TRACE_MAX)
		shlib_trace[shlib_ntrace++] = id;
}

#endif
