/*
 * libteec's private state. The public structs keep OP-TEE's fields; what
 * swtee needs beyond them lives here, found through TEEC_Session.imp.session_id
 * (an index into a process-wide table, so a stale or forged id finds nothing).
 */
#ifndef SWTEE_TEEC_SESSION_H
#define SWTEE_TEEC_SESSION_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_client_api.h>

#include "msg.h"
#include "proto.h"

/* TEEC_SharedMemory.imp.flags */
#define TEEC_SHM_ALLOCATED 0x1 /* buffer is the memfd mapping */
#define TEEC_SHM_SHADOW 0x2    /* registered buffer, copied via shadow_buffer */
#define TEEC_SHM_FD 0x4	       /* registered descriptor, not mapped here */
#define TEEC_SHM_EXPOSED 0x8   /* its memfd was sent to a TA, which may map it */
#define TEEC_SHM_USED 0x10     /* an operation has carried it */

struct teec_bounce {
	int fd;
	uint32_t id;
	uint8_t *map;
	size_t size;
};

struct teec_session {
	pthread_mutex_t call_lock; /* one call on the session at a time */
	int sock;		   /* connected to the TA instance */
	int ctl_fd;
	struct proto_ctl_page *ctl;
	bool dead;
	uint32_t serial; /* of the operation in flight (under cancel_lock) */
	TEEC_Operation *current_op;
	uint32_t *known; /* shm ids the TA has mapped */
	size_t nknown;
	size_t capknown;
	uint32_t forget[PROTO_FORGET_MAX]; /* ids to tell the TA to unmap */
	size_t nforget;
	struct teec_bounce bounce; /* temporary memrefs travel here */
	struct msg_waiter reply;   /* how the session waits for replies */
};

/* Registers s and returns its id (>= 1), or 0 when out of memory. */
uint32_t teec_session_register(struct teec_session *s);
/* Removes id from the table and returns its session (NULL if unknown). */
struct teec_session *teec_session_unregister(uint32_t id);
/* Looks id up; the session stays valid until unregistered by its owner. */
struct teec_session *teec_session_lookup(uint32_t id);
/* Locks the table's cancellation lock (for current_op and serial). */
void teec_cancel_lock(void);
void teec_cancel_unlock(void);
/* Tells every session that knows shm id to unmap it with its next message. */
void teec_sessions_forget_shm(uint32_t id);
/* Marks id as known by s (called under s->call_lock). */
bool teec_session_mark_known(struct teec_session *s, uint32_t id);
bool teec_session_knows(const struct teec_session *s, uint32_t id);
/* Moves up to cap pending forget ids into out; returns how many. */
size_t teec_session_take_forget(struct teec_session *s, uint32_t *out, size_t cap);
/* A fresh shm id, never 0. */
uint32_t teec_new_shm_id(void);

#endif
