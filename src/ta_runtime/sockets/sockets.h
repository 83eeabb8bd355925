/*
 * The GP Sockets API in the TA runtime. The TA never holds a network socket:
 * every call is a request on the instance's socket channel to the core,
 * which checks it and has the supplicant carry it out.
 */
#ifndef SWTEE_RT_SOCKETS_H
#define SWTEE_RT_SOCKETS_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

/*
 * sock_chan.c: sends req[len] on the socket channel (opened on first use)
 * and waits for its MSG_SOCK_RSP, read into rsp[cap]. While it waits, a
 * cancellation of the running operation is passed on once. Returns the
 * response's result with *r positioned after it, or TEE_ERROR_COMMUNICATION
 * when the channel is not available (it then stays so).
 */
TEE_Result sock_chan_call(const void *req, size_t len, uint8_t *rsp, size_t cap,
			  struct buf_reader *r);

#endif
