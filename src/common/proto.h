/*
 * The wire protocol between swtee's processes. Every channel is a Unix
 * SOCK_SEQPACKET socket, so a message arrives whole or not at all; file
 * descriptors (shared memory, TA images, session sockets) travel beside a
 * message as SCM_RIGHTS. All integers are little-endian and every message is
 * parsed with the bounded reader of buf.h: unknown types, short messages and
 * trailing bytes are refused.
 *
 * Channels:
 *   client  <-> swteed       open a session (the core checks the caller's
 *                            identity with SO_PEERCRED and hands back a
 *                            socket connected to the TA instance)
 *   client  <-> TA instance  open-session parameters, invoke, close: one round
 *                            trip per call, shared memory as memfds
 *   swteed  <-> TA instance  load, new session, destroy; session-closed and
 *                            panic reports back
 *   swteed  <-> zygote       fork a spare TA instance process
 *   swteed  <-> supplicant   TA file loading (and the REE FS later)
 */
#ifndef SWTEE_PROTO_H
#define SWTEE_PROTO_H

#include <stdint.h>

#define PROTO_MSG_MAX 4096 /* no message on any channel is longer */
#define PROTO_FDS_MAX 8	   /* no message carries more descriptors */
#define PROTO_NUM_PARAMS 4

/* client -> core */
#define MSG_CORE_OPEN 0x0101	/* uuid[16] login:u32 gid:u32 */
#define MSG_CORE_STATUS 0x0102	/* (none) */
/* core -> client */
#define MSG_CORE_OPEN_RSP 0x0181   /* result:u32 origin:u32 session:u32 [fd: session socket] */
#define MSG_CORE_STATUS_RSP 0x0182 /* instances:u32 sessions:u32 spares:u32 supplicant:u32 */

/* client -> TA instance */
#define MSG_TA_OPEN 0x0201   /* serial:u32 params [fds: ctl page, then new shms] */
#define MSG_TA_INVOKE 0x0202 /* serial:u32 cmd:u32 params [fds: new shms] */
#define MSG_TA_CLOSE 0x0203  /* (none) */
/* TA instance -> client */
#define MSG_TA_RESULT 0x0281 /* result:u32 origin:u32 params_out */

/*
 * params (client -> TA): types:u32 (TEE_PARAM_TYPE_* nibbles), forget:u32 and
 * that many shm ids the TA may unmap, then PROTO_NUM_PARAMS times
 *   a:u32 b:u32 offset:u64 size:u64
 * For values a and b are the value. For memrefs a is the shm id (0 for a
 * NULL buffer), b the index of the descriptor attached to this message for
 * that shm (PROTO_NO_FD when the TA has it already), and offset/size place
 * the buffer inside the shm. params_out (TA -> client): PROTO_NUM_PARAMS
 * times a:u32 b:u32 size:u64.
 */
#define PROTO_NO_FD 0xffffffffu
#define PROTO_FORGET_MAX 64
#define PROTO_PARAM_BYTES 24
#define PROTO_PARAM_OUT_BYTES 16

/* core -> TA instance */
#define MSG_CTL_LOAD 0x0301	   /* uuid[16] flags:u32 instance:u32 log_level:u32 [fd: ELF] */
#define MSG_CTL_NEW_SESSION 0x0302 /* session:u32 login:u32 identity[16] [fd: socket] */
#define MSG_CTL_DESTROY 0x0303	   /* (none) */
/* TA instance -> core */
#define MSG_CTL_SESSION_CLOSED 0x0381 /* session:u32 */
#define MSG_CTL_PANIC 0x0382	      /* code:u32 */

/*
 * Requests an instance makes of the core, each answered by one response on
 * the control socket. While it waits, the instance still handles what else
 * the core sends it (a new session may arrive). Requests are numbered from
 * MSG_CTL_REQ_FIRST, their responses from MSG_CTL_RSP_FIRST.
 */
#define MSG_CTL_REQ_FIRST 0x0390
#define MSG_CTL_REQ_LAST 0x03ff
#define MSG_CTL_RSP_FIRST 0x0310
#define MSG_CTL_RSP_LAST 0x037f
#define MSG_CTL_OPEN_TA 0x0390	   /* uuid[16]: a session to another TA */
#define MSG_CTL_OPEN_TA_RSP 0x0310 /* result:u32 origin:u32 session:u32 [fd: socket] */

/* core -> zygote */
#define MSG_ZYG_FORK 0x0401 /* tag:u32 [fd: the new instance's control socket] */
/* zygote -> core */
#define MSG_ZYG_FORKED 0x0481 /* tag:u32 pid:u32 */
#define MSG_ZYG_EXITED 0x0482 /* pid:u32 status:u32 (wait status) */

/* core -> supplicant */
#define MSG_SUPP_LOAD_TA 0x0501 /* req:u32 uuid[16] */
/* supplicant -> core */
#define MSG_SUPP_HELLO 0x0580	    /* version:u32 */
#define MSG_SUPP_LOAD_TA_RSP 0x0581 /* req:u32 result:u32 [fd: the .ta file, read-only] */

#define PROTO_SUPP_VERSION 1

/*
 * The per-session control page, a 4 KiB memfd the client makes and maps and
 * the TA instance maps too. The client stores the serial of the operation it
 * wants cancelled in cancel_serial and wakes futex waiters on it; the TA
 * runtime compares it with the serial of the operation it runs.
 */
struct proto_ctl_page {
	uint32_t cancel_serial;
	uint32_t reserved[1023];
};

#endif
