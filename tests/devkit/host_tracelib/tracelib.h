/* A small client library written the way optee_client's libckteec is. */
#ifndef TRACELIB_H
#define TRACELIB_H

/* Logs one message at each teec_trace.h level; returns code, via OUTRMSG. */
int tracelib_log(int code);
/* Dumps 19 bytes (16 of 0x00..0x0f, then "ABC") with dump_buffer. */
void tracelib_dump(void);
/* Logs one error message longer than libteec's trace buffer. */
void tracelib_long(void);
/* The name of the supplicant plugin the library describes. */
const char *tracelib_plugin_name(void);

#endif
