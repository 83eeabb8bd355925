/*
 * The GP Internal Client API: a TA as the client of another TA. The core
 * opens the session (login TEE_LOGIN_TRUSTED_APP, the caller's UUID as
 * identity, cycles refused) and hands back a socket to the callee instance;
 * calls then go straight to it in the client protocol, with every memref
 * copied through a bounce memfd of the session (the caller's buffers may be
 * private memory, which the callee must never see).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "memfd.h"
#include "runtime.h"

#define TA2TA_MAX PROTO_TA2TA_MAX
#define BOUNCE_ID 1
#define WAIT_SLICE_MS 50

struct ta2ta {
	const struct rt_pta *pta; /* a pseudo-TA's session: none of the rest is used */
	int sock;
	int ctl_fd;
	struct proto_ctl_page *ctl;
	uint32_t serial;
	int bounce_fd;
	uint8_t *bounce;
	size_t bounce_size;
	uint32_t bounce_id;
	bool bounce_sent;
	bool dead;
};

static struct ta2ta *sessions[TA2TA_MAX];

static struct ta2ta *from_handle(TEE_TASessionHandle h, const char *func)
{
	uintptr_t i = (uintptr_t)h;

	if (i == 0 || i > TA2TA_MAX || !sessions[i - 1])
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return sessions[i - 1];
}

static void ta2ta_free(struct ta2ta *t)
{
	if (!t)
		return;
	if (t->sock >= 0)
		close(t->sock);
	if (t->ctl)
		munmap(t->ctl, sizeof(*t->ctl));
	if (t->ctl_fd >= 0)
		close(t->ctl_fd);
	if (t->bounce)
		munmap(t->bounce, t->bounce_size);
	if (t->bounce_fd >= 0)
		close(t->bounce_fd);
	free(t);
}

static TEE_Result bounce_reserve(struct ta2ta *t, size_t need)
{
	size_t size = 64 * 1024;
	uint8_t *p = NULL;
	int fd = -1;

	if (need <= t->bounce_size)
		return TEE_SUCCESS;
	while (size < need) {
		if (size > SIZE_MAX / 4)
			return TEE_ERROR_OUT_OF_MEMORY;
		size *= 2;
	}
	fd = memfd_new_sealed("ta2ta-bounce", size);
	if (fd < 0)
		return TEE_ERROR_OUT_OF_MEMORY;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	if (t->bounce) {
		munmap(t->bounce, t->bounce_size);
		close(t->bounce_fd);
	}
	t->bounce = p;
	t->bounce_fd = fd;
	t->bounce_size = size;
	t->bounce_id++;
	t->bounce_sent = false;
	return TEE_SUCCESS;
}

static bool is_memref(uint32_t t)
{
	return t >= TEE_PARAM_TYPE_MEMREF_INPUT && t <= TEE_PARAM_TYPE_MEMREF_INOUT;
}

/* Waits for the callee's answer, asking it to cancel after timeout ms. */
static ssize_t wait_reply(struct ta2ta *t, uint32_t timeout, uint8_t *in, size_t cap)
{
	struct timespec start;
	bool cancelled = false;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = {.fd = t->sock, .events = POLLIN};
		struct timespec now;
		struct msg_fds fds;
		uint64_t elapsed = 0;
		ssize_t n = 0;
		int r = poll(&p, 1, WAIT_SLICE_MS);

		if (r < 0 && errno != EINTR)
			return -1;
		if (r > 0) {
			n = msg_recv(t->sock, in, cap, &fds);
			msg_fds_close(&fds);
			return n;
		}
		if (cancelled)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed = (uint64_t)(now.tv_sec - start.tv_sec) * 1000 +
			  (uint64_t)(now.tv_nsec - start.tv_nsec) / 1000000;
		/* Our own client's cancellation travels on to the callee. */
		if ((timeout != TEE_TIMEOUT_INFINITE && elapsed >= timeout) ||
		    TEE_GetCancellationFlag()) {
			atomic_store((_Atomic uint32_t *)&t->ctl->cancel_serial, t->serial);
			syscall(SYS_futex, &t->ctl->cancel_serial, FUTEX_WAKE, 1 << 30, NULL, NULL,
				0);
			cancelled = true;
		}
	}
}

/* Checks types and places each memref of params in the bounce: offsets in off, total in *need. */
static TEE_Result bounce_layout(uint32_t types, const TEE_Param params[TEE_NUM_PARAMS],
				size_t off[TEE_NUM_PARAMS], size_t *need)
{
	if (types >> 16)
		return TEE_ERROR_BAD_PARAMETERS;
	for (int i = 0; i < TEE_NUM_PARAMS; i++) {
		uint32_t pt = TEE_PARAM_TYPE_GET(types, i);
		size_t sz = 0;

		if (pt == 4 || pt > TEE_PARAM_TYPE_MEMREF_INOUT)
			return TEE_ERROR_BAD_PARAMETERS;
		if (!is_memref(pt) || !params[i].memref.buffer)
			continue;
		off[i] = *need;
		sz = proto_bounce_span(params[i].memref.size);
		if (!sz || __builtin_add_overflow(*need, sz, need))
			return TEE_ERROR_OUT_OF_MEMORY;
	}
	return TEE_SUCCESS;
}

/* Writes the params to w, copying memref inputs to the bounce at off; the bounce fd to fds. */
static void put_params(struct ta2ta *t, struct buf_writer *w, uint32_t types,
		       const TEE_Param params[TEE_NUM_PARAMS], const size_t off[TEE_NUM_PARAMS],
		       int fds[2], size_t *nfds)
{
	for (int i = 0; i < TEE_NUM_PARAMS; i++) {
		uint32_t pt = TEE_PARAM_TYPE_GET(types, i);
		uint32_t fd_index = PROTO_NO_FD;

		if (!is_memref(pt)) {
			buf_put_u32(w, pt ? params[i].value.a : 0);
			buf_put_u32(w, pt ? params[i].value.b : 0);
			buf_put_u64(w, 0);
			buf_put_u64(w, 0);
			continue;
		}
		if (!params[i].memref.buffer) {
			buf_put_u32(w, 0);
			buf_put_u32(w, PROTO_NO_FD);
			buf_put_u64(w, 0);
			buf_put_u64(w, params[i].memref.size);
			continue;
		}
		if (pt != TEE_PARAM_TYPE_MEMREF_OUTPUT && params[i].memref.size)
			memcpy(t->bounce + off[i], params[i].memref.buffer, params[i].memref.size);
		if (!t->bounce_sent) {
			fd_index = (uint32_t)*nfds;
			fds[(*nfds)++] = t->bounce_fd;
			t->bounce_sent = true;
		}
		buf_put_u32(w, t->bounce_id);
		buf_put_u32(w, fd_index);
		buf_put_u64(w, off[i]);
		buf_put_u64(w, params[i].memref.size);
	}
}

/* Writes the request to w under a new serial; the fds to send with it in fds. */
static void put_request(struct ta2ta *t, struct buf_writer *w, uint32_t type, uint32_t cmd,
			uint32_t types, const TEE_Param params[TEE_NUM_PARAMS],
			const size_t off[TEE_NUM_PARAMS], int fds[2], size_t *nfds)
{
	t->serial++;
	if (!t->serial)
		t->serial++;
	buf_put_u32(w, type);
	buf_put_u32(w, t->serial);
	if (type == MSG_TA_INVOKE)
		buf_put_u32(w, cmd);
	buf_put_u32(w, types);
	buf_put_u32(w, 0); /* nothing to forget: one bounce, replaced whole */
	if (type == MSG_TA_OPEN)
		fds[(*nfds)++] = t->ctl_fd;
	put_params(t, w, types, params, off, fds, nfds);
}

/* Reads the params of the answer r back into params, the memref outputs from the bounce at off. */
static void get_params(struct ta2ta *t, struct buf_reader *r, uint32_t types,
		       TEE_Param params[TEE_NUM_PARAMS], const size_t off[TEE_NUM_PARAMS])
{
	for (int i = 0; i < TEE_NUM_PARAMS; i++) {
		uint32_t pt = TEE_PARAM_TYPE_GET(types, i);
		uint32_t a = 0;
		uint32_t b = 0;
		uint64_t size = 0;

		buf_get_u32(r, &a);
		buf_get_u32(r, &b);
		buf_get_u64(r, &size);
		if (!buf_ok(r))
			break;
		if (pt == TEE_PARAM_TYPE_VALUE_OUTPUT || pt == TEE_PARAM_TYPE_VALUE_INOUT) {
			params[i].value.a = a;
			params[i].value.b = b;
		} else if (pt == TEE_PARAM_TYPE_MEMREF_OUTPUT ||
			   pt == TEE_PARAM_TYPE_MEMREF_INOUT) {
			if (params[i].memref.buffer && size <= params[i].memref.size && size)
				memcpy(params[i].memref.buffer, t->bounce + off[i], (size_t)size);
			params[i].memref.size = size > SIZE_MAX ? SIZE_MAX : (size_t)size;
		}
	}
}

/* The callee's answer of n bytes in in: its params into params, its result and origin. */
static TEE_Result get_reply(struct ta2ta *t, const uint8_t *in, size_t n, uint32_t types,
			    TEE_Param params[TEE_NUM_PARAMS], const size_t off[TEE_NUM_PARAMS],
			    uint32_t *origin)
{
	struct buf_reader r;
	uint32_t rtype = 0;
	uint32_t res = 0;
	uint32_t org = 0;

	buf_reader_init(&r, in, n);
	buf_get_u32(&r, &rtype);
	buf_get_u32(&r, &res);
	buf_get_u32(&r, &org);
	get_params(t, &r, types, params, off);
	if (!buf_done(&r) || rtype != MSG_TA_RESULT) {
		*origin = TEE_ORIGIN_COMMS;
		return TEE_ERROR_COMMUNICATION;
	}
	*origin = org;
	return res;
}

/* One request to the callee and its answer; params are the caller's. */
static TEE_Result call(struct ta2ta *t, uint32_t type, uint32_t cmd, uint32_t timeout,
		       uint32_t types, TEE_Param params[TEE_NUM_PARAMS], uint32_t *origin)
{
	uint8_t out[PROTO_MSG_MAX];
	uint8_t in[PROTO_MSG_MAX];
	size_t off[TEE_NUM_PARAMS] = {0};
	size_t need = 0;
	int fds[2];
	size_t nfds = 0;
	struct buf_writer w;
	ssize_t n = 0;
	TEE_Result tres = TEE_SUCCESS;

	*origin = TEE_ORIGIN_TEE;
	if (t->dead)
		return TEE_ERROR_TARGET_DEAD;
	tres = bounce_layout(types, params, off, &need);
	if (tres)
		return tres;
	if (need) {
		tres = bounce_reserve(t, need);
		if (tres)
			return tres;
	}
	buf_writer_init(&w, out, sizeof(out));
	put_request(t, &w, type, cmd, types, params, off, fds, &nfds);
	if (!buf_written(&w))
		return TEE_ERROR_BAD_PARAMETERS;
	if (msg_send(t->sock, out, buf_written(&w), fds, nfds)) {
		t->dead = true;
		return TEE_ERROR_TARGET_DEAD;
	}
	n = wait_reply(t, timeout, in, sizeof(in));
	if (n <= 0) {
		t->dead = true;
		return TEE_ERROR_TARGET_DEAD;
	}
	return get_reply(t, in, (size_t)n, types, params, off, origin);
}

TEE_Result TEE_OpenTASession(const TEE_UUID *destination, uint32_t cancellationRequestTimeout,
			     uint32_t paramTypes, TEE_Param params[TEE_NUM_PARAMS],
			     TEE_TASessionHandle *session, uint32_t *returnOrigin)
{
	struct swtee_uuid u = {{0}};
	uint8_t out[32];
	uint8_t in[64];
	struct buf_writer w;
	struct buf_reader r;
	struct msg_fds fds;
	struct ta2ta *t = NULL;
	uint32_t res = TEE_ERROR_OUT_OF_MEMORY;
	uint32_t origin = TEE_ORIGIN_TEE;
	uint32_t sid = 0;
	size_t slot = TA2TA_MAX;

	if (!destination || !session)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_OpenTASession");
	*session = TEE_HANDLE_NULL;
	for (size_t i = 0; i < TA2TA_MAX && slot == TA2TA_MAX; i++)
		if (!sessions[i])
			slot = i;
	if (slot == TA2TA_MAX)
		goto out;
	t = calloc(1, sizeof(*t));
	if (!t)
		goto out;
	t->sock = -1;
	t->bounce_fd = -1;
	t->ctl_fd = -1;
	t->pta = rt_pta_find(destination);
	if (t->pta) {
		/* Opening takes no parameters and always succeeds, as on OP-TEE. */
		res = TEE_SUCCESS;
		sessions[slot] = t;
		*session = (TEE_TASessionHandle)(uintptr_t)(slot + 1);
		t = NULL;
		goto out;
	}
	t->ctl_fd = memfd_new_sealed("ta2ta-ctl", sizeof(*t->ctl));
	if (t->ctl_fd < 0)
		goto out;
	t->ctl = mmap(NULL, sizeof(*t->ctl), PROT_READ | PROT_WRITE, MAP_SHARED, t->ctl_fd, 0);
	if (t->ctl == MAP_FAILED) {
		t->ctl = NULL;
		goto out;
	}

	uuid_from_fields(&u, destination->timeLow, destination->timeMid,
			 destination->timeHiAndVersion, destination->clockSeqAndNode);
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_OPEN_TA);
	buf_put_bytes(&w, u.b, sizeof(u.b));
	res =
	    rt_ctl_request(out, buf_written(&w), -1, MSG_CTL_OPEN_TA_RSP, in, sizeof(in), &fds, &r);
	buf_get_u32(&r, &origin);
	buf_get_u32(&r, &sid);
	if (!buf_done(&r) || fds.n != (res == TEE_SUCCESS ? 1u : 0u)) {
		msg_fds_close(&fds);
		res = TEE_ERROR_COMMUNICATION;
		origin = TEE_ORIGIN_COMMS;
		goto out;
	}
	if (res)
		goto out;
	t->sock = msg_fds_take(&fds, 0);
	res = call(t, MSG_TA_OPEN, 0, cancellationRequestTimeout, paramTypes, params, &origin);
	if (res)
		goto out;
	sessions[slot] = t;
	*session = (TEE_TASessionHandle)(uintptr_t)(slot + 1);
	t = NULL; /* transferred to the session table */
out:
	ta2ta_free(t);
	if (returnOrigin)
		*returnOrigin = origin;
	return res;
}

TEE_Result TEE_InvokeTACommand(TEE_TASessionHandle session, uint32_t cancellationRequestTimeout,
			       uint32_t commandID, uint32_t paramTypes,
			       TEE_Param params[TEE_NUM_PARAMS], uint32_t *returnOrigin)
{
	struct ta2ta *t = from_handle(session, "TEE_InvokeTACommand");
	uint32_t origin = TEE_ORIGIN_TEE;
	TEE_Result res = TEE_SUCCESS;

	if (t->pta) {
		res = t->pta->invoke(commandID, paramTypes, params);
		origin = TEE_ORIGIN_TRUSTED_APP;
	} else {
		res = call(t, MSG_TA_INVOKE, commandID, cancellationRequestTimeout, paramTypes,
			   params, &origin);
	}

	if (returnOrigin)
		*returnOrigin = origin;
	return res;
}

void TEE_CloseTASession(TEE_TASessionHandle session)
{
	uintptr_t i = (uintptr_t)session;
	struct ta2ta *t = NULL;
	uint32_t origin = 0;

	if (session == TEE_HANDLE_NULL)
		return;
	t = from_handle(session, "TEE_CloseTASession");
	if (!t->pta && !t->dead)
		call(t, MSG_TA_CLOSE, 0, TEE_TIMEOUT_INFINITE, 0, NULL, &origin);
	sessions[i - 1] = NULL;
	ta2ta_free(t);
}

/* GP 1.1: memref sizes are uint32_t. */
static TEE_Result gp11_to_params(uint32_t types, const __GP11_TEE_Param *in, TEE_Param *out)
{
	for (int i = 0; i < TEE_NUM_PARAMS; i++) {
		if (is_memref(TEE_PARAM_TYPE_GET(types, i))) {
			out[i].memref.buffer = in[i].memref.buffer;
			out[i].memref.size = in[i].memref.size;
		} else {
			out[i].value.a = in[i].value.a;
			out[i].value.b = in[i].value.b;
		}
	}
	return TEE_SUCCESS;
}

static void params_to_gp11(uint32_t types, const TEE_Param *in, __GP11_TEE_Param *out)
{
	for (int i = 0; i < TEE_NUM_PARAMS; i++) {
		if (is_memref(TEE_PARAM_TYPE_GET(types, i)))
			out[i].memref.size = in[i].memref.size > UINT32_MAX
						 ? UINT32_MAX
						 : (uint32_t)in[i].memref.size;
		else
			memcpy(&out[i].value, &in[i].value, sizeof(out[i].value));
	}
}

TEE_Result __GP11_TEE_OpenTASession(const TEE_UUID *destination,
				    uint32_t cancellationRequestTimeout, uint32_t paramTypes,
				    __GP11_TEE_Param params[TEE_NUM_PARAMS],
				    TEE_TASessionHandle *session, uint32_t *returnOrigin)
{
	TEE_Param p[TEE_NUM_PARAMS] = {0};
	TEE_Result res = TEE_SUCCESS;

	if (params)
		gp11_to_params(paramTypes, params, p);
	res = TEE_OpenTASession(destination, cancellationRequestTimeout, paramTypes, p, session,
				returnOrigin);
	if (params)
		params_to_gp11(paramTypes, p, params);
	return res;
}

TEE_Result __GP11_TEE_InvokeTACommand(TEE_TASessionHandle session,
				      uint32_t cancellationRequestTimeout, uint32_t commandID,
				      uint32_t paramTypes, __GP11_TEE_Param params[TEE_NUM_PARAMS],
				      uint32_t *returnOrigin)
{
	TEE_Param p[TEE_NUM_PARAMS] = {0};
	TEE_Result res = TEE_SUCCESS;

	if (params)
		gp11_to_params(paramTypes, params, p);
	res = TEE_InvokeTACommand(session, cancellationRequestTimeout, commandID, paramTypes, p,
				  returnOrigin);
	if (params)
		params_to_gp11(paramTypes, p, params);
	return res;
}
