/*
 * The GlobalPlatform TEE Client API over swtee's sockets.
 *
 * A context is a connection to swteed. Opening a session asks the core for a
 * socket connected to the TA instance; from then on open parameters, invokes
 * and close go straight to the instance, one round trip each.
 *
 * Temporary memrefs, registered memory and the first use of a small
 * allocated shared memory are copied through the session's bounce memfd,
 * which its TA maps once: an invoke then passes no descriptor and neither
 * side maps or unmaps anything. Allocated shared memory used again, or
 * larger than TEEC_SHM_POOL_ENTRY_MAX, is a sealed memfd the TA maps too
 * (zero copy); registered memory named twice in one operation goes through
 * a shadow memfd, so that both memrefs see the same bytes. Released memory
 * that no TA ever mapped is kept for reuse (teec_shm_pool.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <tee_client_api.h>
#include <tee_client_api_extensions.h>

#include "buf.h"
#include "memfd.h"
#include "msg.h"
#include "paths.h"
#include "proto.h"
#include "teec_session.h"
#include "teec_shm_pool.h"
#include "uuid.h"

#define SHM_MIN_MAP 8
#define BOUNCE_MIN (64 * 1024)
/* Up to this size a shared memory's memfd is a whole number of pages, so that the pool fits. */
#define SHM_PAGE 4096
/* Allocated shared memory up to this size is copied on its first use rather than mapped. */
#define SHM_BOUNCE_MAX TEEC_SHM_POOL_ENTRY_MAX

/* Guards TEEC_SharedMemory.imp.flags and the lazy shadows of registered memory. */
static pthread_mutex_t shm_lock = PTHREAD_MUTEX_INITIALIZER;

/* Opens through one context are serialised on its core socket. */
static pthread_mutex_t ctx_locks[64] = {
    [0 ... 63] = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_mutex_t *ctx_lock(const TEEC_Context *ctx)
{
	return &ctx_locks[(unsigned int)ctx->imp.fd % 64];
}

/* Whether libteec may say why it found no TEE (SWTEE_TEEC_LOG_LEVEL=0: no). */
static bool may_log(void)
{
	const char *v = getenv("SWTEE_TEEC_LOG_LEVEL");

	return !v || strcmp(v, "0") != 0;
}

TEEC_Result TEEC_InitializeContext(const char *name, TEEC_Context *context)
{
	char path[SWTEE_PATH_MAX];
	const char *env = getenv("SWTEE_SOCKET");
	bool fallback = false;
	int err = 0;
	int fd = -1;

	if (!context)
		return TEEC_ERROR_BAD_PARAMETERS;
	memset(context, 0, sizeof(*context));
	context->imp.fd = -1;
	if (name && name[0] == '/') {
		if (strlen(name) >= sizeof(path))
			return TEEC_ERROR_ITEM_NOT_FOUND;
		strcpy(path, name);
	} else if ((name && strcmp(name, "swtee") != 0 && strcmp(name, "optee-tz") != 0) ||
		   paths_default_socket(path, sizeof(path))) {
		/* Another TEE's name, or no default socket path. */
		return TEEC_ERROR_ITEM_NOT_FOUND;
	} else {
		/* The user's own TEE first, then the system's, unless one was named. */
		fallback = !(env && *env);
	}
	fd = msg_connect(path);
	err = errno;
	if (fd < 0 && fallback && (err == ENOENT || err == ECONNREFUSED)) {
		fd = msg_connect(SWTEE_SYSTEM_SOCKET);
		if (fd < 0 && errno != ENOENT && errno != ECONNREFUSED)
			err = errno;
	}
	if (fd < 0) {
		if (may_log())
			fprintf(stderr,
				"libteec: no TEE at %s%s%s (%s); start one with 'swtee run -- "
				"COMMAND', 'swteed & tee-supplicant &' or 'systemctl start swteed "
				"tee-supplicant', or set SWTEE_SOCKET\n",
				path, fallback ? " nor at " : "",
				fallback ? SWTEE_SYSTEM_SOCKET : "", strerror(err));
		return TEEC_ERROR_ITEM_NOT_FOUND;
	}
	context->imp.fd = fd;
	context->imp.reg_mem = true;
	context->imp.memref_null = true;
	teec_shm_pool_hold();
	return TEEC_SUCCESS;
}

void TEEC_FinalizeContext(TEEC_Context *context)
{
	if (!context || context->imp.fd < 0)
		return;
	close(context->imp.fd);
	context->imp.fd = -1;
	teec_shm_pool_unhold();
}

static bool shm_flags_valid(uint32_t flags)
{
	return flags && !(flags & ~(uint32_t)(TEEC_MEM_INPUT | TEEC_MEM_OUTPUT));
}

/* The size of the memfd behind a shared memory of size bytes (size <= SIZE_MAX / 2). */
static size_t shm_map_size(size_t size)
{
	if (size < SHM_MIN_MAP)
		size = SHM_MIN_MAP;
	if (size <= TEEC_SHM_POOL_ENTRY_MAX)
		size = (size + SHM_PAGE - 1) & ~(size_t)(SHM_PAGE - 1);
	return size;
}

/* A new sealed memfd of size bytes and its mapping; false when out of memory. */
static bool shm_memfd_new(const char *name, size_t size, int *fd, uint8_t **map)
{
	void *p = NULL;

	*map = NULL;
	*fd = memfd_new_sealed(name, size);
	if (*fd < 0)
		return false;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
	if (p == MAP_FAILED) {
		close(*fd);
		*fd = -1;
		return false;
	}
	*map = p;
	return true;
}

/* Frees a shared memory's memfd and mapping, into the pool when no TA ever saw the memfd. */
static void shm_memfd_free(int fd, uint8_t *map, size_t size, bool exposed)
{
	if (fd < 0)
		return;
	if (!exposed && teec_shm_pool_put(fd, map, size))
		return;
	munmap(map, size);
	close(fd);
}

TEEC_Result TEEC_AllocateSharedMemory(TEEC_Context *context, TEEC_SharedMemory *sharedMem)
{
	size_t map_size = 0;
	uint8_t *p = NULL;
	int fd = -1;

	if (!context || !sharedMem || context->imp.fd < 0 || !shm_flags_valid(sharedMem->flags))
		return TEEC_ERROR_BAD_PARAMETERS;
	if (sharedMem->size > SIZE_MAX / 2)
		return TEEC_ERROR_OUT_OF_MEMORY;
	map_size = shm_map_size(sharedMem->size);
	if (!teec_shm_pool_take(map_size, &fd, &p) && !shm_memfd_new("teec-shm", map_size, &fd, &p))
		return TEEC_ERROR_OUT_OF_MEMORY;
	sharedMem->buffer = p;
	sharedMem->imp.id = (int)teec_new_shm_id();
	sharedMem->imp.alloced_size = map_size;
	sharedMem->imp.shadow_buffer = NULL;
	sharedMem->imp.registered_fd = fd;
	sharedMem->imp.flags = TEEC_SHM_ALLOCATED;
	return TEEC_SUCCESS;
}

TEEC_Result TEEC_RegisterSharedMemory(TEEC_Context *context, TEEC_SharedMemory *sharedMem)
{
	if (!context || !sharedMem || context->imp.fd < 0 || !shm_flags_valid(sharedMem->flags))
		return TEEC_ERROR_BAD_PARAMETERS;
	/* Registering names memory; OP-TEE refuses NULL even with size 0. */
	if (!sharedMem->buffer)
		return TEEC_ERROR_BAD_PARAMETERS;
	if (sharedMem->size > SIZE_MAX / 2)
		return TEEC_ERROR_OUT_OF_MEMORY;
	/* Its bytes travel through the bounce buffer; a shadow is made only when needed. */
	sharedMem->imp.id = (int)teec_new_shm_id();
	sharedMem->imp.alloced_size = shm_map_size(sharedMem->size);
	sharedMem->imp.shadow_buffer = NULL;
	sharedMem->imp.registered_fd = -1;
	sharedMem->imp.flags = TEEC_SHM_SHADOW;
	return TEEC_SUCCESS;
}

TEEC_Result TEEC_RegisterSharedMemoryFileDescriptor(TEEC_Context *context,
						    TEEC_SharedMemory *sharedMem, int fd)
{
	struct stat st;
	int seals = 0;
	int dfd = -1;

	if (!context || !sharedMem || context->imp.fd < 0 || fd < 0 ||
	    !shm_flags_valid(sharedMem->flags))
		return TEEC_ERROR_BAD_PARAMETERS;
	if (fstat(fd, &st) || st.st_size <= 0)
		return TEEC_ERROR_BAD_PARAMETERS;
	/* The TA maps the descriptor, so its size must be fixed. */
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || (seals & (F_SEAL_SHRINK | F_SEAL_GROW)) != (F_SEAL_SHRINK | F_SEAL_GROW))
		return TEEC_ERROR_BAD_PARAMETERS;
	dfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dfd < 0)
		return TEEC_ERROR_OUT_OF_MEMORY;
	sharedMem->buffer = NULL;
	sharedMem->size = (size_t)st.st_size;
	sharedMem->imp.id = (int)teec_new_shm_id();
	sharedMem->imp.alloced_size = (size_t)st.st_size;
	sharedMem->imp.shadow_buffer = NULL;
	sharedMem->imp.registered_fd = dfd;
	sharedMem->imp.flags = TEEC_SHM_FD;
	return TEEC_SUCCESS;
}

/* Whether shm is a live shared memory of libteec's. */
static bool shm_live(const TEEC_SharedMemory *shm)
{
	return shm && shm->imp.id &&
	       (shm->imp.flags & (TEEC_SHM_ALLOCATED | TEEC_SHM_SHADOW | TEEC_SHM_FD));
}

void TEEC_ReleaseSharedMemory(TEEC_SharedMemory *sharedMem)
{
	uint32_t flags = 0;

	if (!shm_live(sharedMem))
		return;
	pthread_mutex_lock(&shm_lock);
	flags = sharedMem->imp.flags;
	pthread_mutex_unlock(&shm_lock);
	/* Only an exposed memfd can be mapped by a TA, so only it has sessions to tell. */
	if (flags & TEEC_SHM_EXPOSED)
		teec_sessions_forget_shm((uint32_t)sharedMem->imp.id);
	if (flags & TEEC_SHM_ALLOCATED)
		shm_memfd_free(sharedMem->imp.registered_fd, sharedMem->buffer,
			       sharedMem->imp.alloced_size, flags & TEEC_SHM_EXPOSED);
	else if (flags & TEEC_SHM_SHADOW)
		shm_memfd_free(sharedMem->imp.registered_fd, sharedMem->imp.shadow_buffer,
			       sharedMem->imp.alloced_size, true);
	else
		close(sharedMem->imp.registered_fd);
	if (flags & TEEC_SHM_ALLOCATED)
		sharedMem->buffer = NULL;
	sharedMem->imp.id = 0;
	sharedMem->imp.registered_fd = -1;
	sharedMem->imp.shadow_buffer = NULL;
	sharedMem->imp.flags = 0;
	sharedMem->imp.alloced_size = 0;
}

/* Where one parameter's memory goes on the wire and how it comes back. */
struct param_plan {
	uint32_t tee_type;
	uint32_t a; /* a value parameter */
	uint32_t b;
	uint32_t shm_id;
	int fd; /* to attach if the TA does not know shm_id, else -1 */
	uint64_t offset;
	uint64_t size;
	uint8_t *copy_local;  /* client memory to copy out to after the call */
	uint8_t *copy_remote; /* the shared bytes it mirrors */
	bool copy_back;
	bool copy_whole;	   /* copy back all size bytes, whatever size the TA returns */
	TEEC_SharedMemory *bounce; /* the shared memory this memref copies through the bounce */
};

struct call {
	struct teec_session *s;
	struct param_plan p[PROTO_NUM_PARAMS];
	uint32_t tee_types;
};

static bool dir_has_input(uint32_t t)
{
	return t == TEEC_MEMREF_TEMP_INPUT || t == TEEC_MEMREF_TEMP_INOUT ||
	       t == TEEC_MEMREF_PARTIAL_INPUT || t == TEEC_MEMREF_PARTIAL_INOUT;
}

static bool dir_has_output(uint32_t t)
{
	return t == TEEC_MEMREF_TEMP_OUTPUT || t == TEEC_MEMREF_TEMP_INOUT ||
	       t == TEEC_MEMREF_PARTIAL_OUTPUT || t == TEEC_MEMREF_PARTIAL_INOUT;
}

static TEEC_Result bounce_reserve(struct teec_session *s, size_t need)
{
	struct teec_bounce nb = {.fd = -1};
	size_t size = BOUNCE_MIN;

	if (need <= s->bounce.size)
		return TEEC_SUCCESS;
	while (size < need) {
		if (size > SIZE_MAX / 4)
			return TEEC_ERROR_OUT_OF_MEMORY;
		size *= 2;
	}
	nb.fd = memfd_new_sealed("teec-bounce", size);
	if (nb.fd < 0)
		return TEEC_ERROR_OUT_OF_MEMORY;
	nb.map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, nb.fd, 0);
	if (nb.map == MAP_FAILED) {
		close(nb.fd);
		return TEEC_ERROR_OUT_OF_MEMORY;
	}
	nb.size = size;
	nb.id = teec_new_shm_id();
	if (s->bounce.fd >= 0) {
		teec_sessions_forget_shm(s->bounce.id);
		munmap(s->bounce.map, s->bounce.size);
		close(s->bounce.fd);
	}
	s->bounce = nb;
	return TEEC_SUCCESS;
}

/* A shadow memfd for registered memory that is mapped rather than copied (under shm_lock). */
static TEEC_Result shadow_make(TEEC_SharedMemory *shm)
{
	uint8_t *map = NULL;
	int fd = -1;

	if (shm->imp.shadow_buffer)
		return TEEC_SUCCESS;
	if (!shm_memfd_new("teec-shadow", shm->imp.alloced_size, &fd, &map))
		return TEEC_ERROR_OUT_OF_MEMORY;
	shm->imp.shadow_buffer = map;
	shm->imp.registered_fd = fd;
	return TEEC_SUCCESS;
}

/* Whether param i of op names the same shared memory as another of its params. */
static bool shm_named_twice(const TEEC_Operation *op, int i)
{
	for (int j = 0; j < PROTO_NUM_PARAMS; j++) {
		uint32_t t = TEEC_PARAM_TYPE_GET(op->paramTypes, j);

		if (j != i && t >= TEEC_MEMREF_WHOLE && t <= TEEC_MEMREF_PARTIAL_INOUT &&
		    op->params[j].memref.parent == op->params[i].memref.parent)
			return true;
	}
	return false;
}

/*
 * Whether shm (flags read under shm_lock) travels through the bounce buffer
 * in this operation: registered memory always (it is a copy anyway), a
 * small allocated one on its first use (a shared memory allocated, used
 * once and released never reaches the TA as a descriptor), unless the
 * operation names it twice, where the memrefs must share their bytes.
 */
static bool shm_bounces(const TEEC_Operation *op, int i, const TEEC_SharedMemory *shm,
			uint32_t flags)
{
	if (shm_named_twice(op, i))
		return false;
	if (flags & TEEC_SHM_SHADOW)
		return true;
	return (flags & TEEC_SHM_ALLOCATED) && !(flags & TEEC_SHM_USED) &&
	       shm->size <= SHM_BOUNCE_MAX;
}

/*
 * Checks memref i of op (a TEEC_MEMREF_WHOLE or PARTIAL type t) and plans
 * it: the direction and range in pp, and either its own memfd or
 * pp->bounce for plan_bounce to place.
 */
static TEEC_Result plan_shm(struct teec_session *s, struct param_plan *pp, uint32_t t,
			    const TEEC_Operation *op, int i)
{
	const TEEC_RegisteredMemoryReference *mr = &op->params[i].memref;
	TEEC_SharedMemory *shm = mr->parent;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t flags = 0;
	uint32_t dir = 0;
	size_t end = 0;

	if (!shm_live(shm))
		return TEEC_ERROR_BAD_PARAMETERS;
	if (t == TEEC_MEMREF_WHOLE) {
		dir = shm->flags & (TEEC_MEM_INPUT | TEEC_MEM_OUTPUT);
		pp->tee_type = dir == TEEC_MEM_INPUT	? TEEC_MEMREF_TEMP_INPUT
			       : dir == TEEC_MEM_OUTPUT ? TEEC_MEMREF_TEMP_OUTPUT
							: TEEC_MEMREF_TEMP_INOUT;
		pp->offset = 0;
		pp->size = shm->size;
	} else {
		if ((dir_has_input(t) && !(shm->flags & TEEC_MEM_INPUT)) ||
		    (dir_has_output(t) && !(shm->flags & TEEC_MEM_OUTPUT)))
			return TEEC_ERROR_BAD_PARAMETERS;
		if (__builtin_add_overflow(mr->offset, mr->size, &end) || end > shm->size)
			return TEEC_ERROR_BAD_PARAMETERS;
		pp->tee_type = t - (TEEC_MEMREF_PARTIAL_INPUT - TEEC_MEMREF_TEMP_INPUT);
		pp->offset = mr->offset;
		pp->size = mr->size;
	}
	pthread_mutex_lock(&shm_lock);
	flags = shm->imp.flags;
	shm->imp.flags |= TEEC_SHM_USED;
	if (shm_bounces(op, i, shm, flags)) {
		pthread_mutex_unlock(&shm_lock);
		pp->bounce = shm;
		pp->copy_whole = (flags & TEEC_SHM_ALLOCATED) != 0;
		return TEEC_SUCCESS;
	}
	if (flags & TEEC_SHM_SHADOW)
		res = shadow_make(shm);
	if (!res) {
		pp->shm_id = (uint32_t)shm->imp.id;
		pp->fd = teec_session_knows(s, pp->shm_id) ? -1 : shm->imp.registered_fd;
		/* From here on a TA may map it: it never goes back to the pool. */
		shm->imp.flags |= TEEC_SHM_EXPOSED;
	}
	pthread_mutex_unlock(&shm_lock);
	if (res)
		return res;
	if (flags & TEEC_SHM_SHADOW) {
		uint8_t *local = (uint8_t *)shm->buffer + pp->offset;
		uint8_t *remote = (uint8_t *)shm->imp.shadow_buffer + pp->offset;

		if (pp->size && pp->tee_type != TEEC_MEMREF_TEMP_OUTPUT)
			memcpy(remote, local, pp->size);
		pp->copy_local = local;
		pp->copy_remote = remote;
		pp->copy_back = pp->tee_type != TEEC_MEMREF_TEMP_INPUT;
	}
	return TEEC_SUCCESS;
}

/*
 * Places pp, a memref planned to travel in the bounce buffer, at offset
 * *at of it and copies its input in. Registered memory behaves as its
 * shadow did; allocated memory (copy_whole) as its own mapping would: every
 * byte of the range goes in, and the whole range comes back after an output.
 */
static void plan_bounce(struct teec_session *s, struct param_plan *pp, size_t *at)
{
	bool allocated = pp->copy_whole;

	pp->shm_id = s->bounce.id;
	pp->fd = teec_session_knows(s, pp->shm_id) ? -1 : s->bounce.fd;
	pp->copy_local = (uint8_t *)pp->bounce->buffer + pp->offset;
	pp->copy_remote = s->bounce.map + *at;
	pp->copy_back = pp->tee_type != TEEC_MEMREF_TEMP_INPUT;
	pp->offset = *at;
	if (pp->size && (allocated || pp->tee_type != TEEC_MEMREF_TEMP_OUTPUT))
		memcpy(pp->copy_remote, pp->copy_local, pp->size);
	*at += proto_bounce_span(pp->size);
}

/* Decides where each parameter goes and copies inputs into shared memory. */
static TEEC_Result plan_call(struct call *c, TEEC_Operation *op)
{
	size_t bounce_need = 0;
	TEEC_Result res = TEEC_SUCCESS;

	memset(c->p, 0, sizeof(c->p));
	c->tee_types = 0;
	for (int i = 0; i < PROTO_NUM_PARAMS; i++)
		c->p[i].fd = -1;
	if (!op)
		return TEEC_SUCCESS;
	for (int i = 0; i < PROTO_NUM_PARAMS; i++) {
		uint32_t t = TEEC_PARAM_TYPE_GET(op->paramTypes, i);
		size_t sz = 0;

		if (t == TEEC_MEMREF_TEMP_INPUT || t == TEEC_MEMREF_TEMP_OUTPUT ||
		    t == TEEC_MEMREF_TEMP_INOUT) {
			if (!op->params[i].tmpref.buffer)
				continue;
			sz = op->params[i].tmpref.size;
		} else if (t >= TEEC_MEMREF_WHOLE && t <= TEEC_MEMREF_PARTIAL_INOUT) {
			res = plan_shm(c->s, &c->p[i], t, op, i);
			if (res)
				return res;
			if (!c->p[i].bounce)
				continue;
			sz = (size_t)c->p[i].size;
		} else {
			continue;
		}
		sz = proto_bounce_span(sz);
		if (!sz || __builtin_add_overflow(bounce_need, sz, &bounce_need))
			return TEEC_ERROR_OUT_OF_MEMORY;
	}
	if (bounce_need) {
		res = bounce_reserve(c->s, bounce_need);
		if (res)
			return res;
	}
	bounce_need = 0;
	for (int i = 0; i < PROTO_NUM_PARAMS; i++) {
		uint32_t t = TEEC_PARAM_TYPE_GET(op->paramTypes, i);
		struct param_plan *pp = &c->p[i];
		TEEC_TempMemoryReference *tr = &op->params[i].tmpref;

		switch (t) {
		case TEEC_NONE:
			break;
		case TEEC_VALUE_INPUT:
		case TEEC_VALUE_OUTPUT:
		case TEEC_VALUE_INOUT:
			pp->tee_type = t;
			pp->a = op->params[i].value.a;
			pp->b = op->params[i].value.b;
			break;
		case TEEC_MEMREF_TEMP_INPUT:
		case TEEC_MEMREF_TEMP_OUTPUT:
		case TEEC_MEMREF_TEMP_INOUT:
			pp->tee_type = t;
			pp->size = tr->size;
			if (!tr->buffer)
				break;
			pp->shm_id = c->s->bounce.id;
			pp->fd = teec_session_knows(c->s, pp->shm_id) ? -1 : c->s->bounce.fd;
			pp->offset = bounce_need;
			pp->copy_local = tr->buffer;
			pp->copy_remote = c->s->bounce.map + bounce_need;
			pp->copy_back = t != TEEC_MEMREF_TEMP_INPUT;
			if (t != TEEC_MEMREF_TEMP_OUTPUT && tr->size)
				memcpy(pp->copy_remote, tr->buffer, tr->size);
			bounce_need += proto_bounce_span(tr->size);
			break;
		case TEEC_MEMREF_WHOLE:
		case TEEC_MEMREF_PARTIAL_INPUT:
		case TEEC_MEMREF_PARTIAL_OUTPUT:
		case TEEC_MEMREF_PARTIAL_INOUT:
			if (pp->bounce)
				plan_bounce(c->s, pp, &bounce_need);
			break;
		default:
			return TEEC_ERROR_BAD_PARAMETERS;
		}
		c->tee_types |= pp->tee_type << (4 * i);
	}
	return TEEC_SUCCESS;
}

/* Serialises the parameters; fds[0..*nfds) already holds any leading descriptors. */
static bool write_params(struct call *c, struct buf_writer *w, int *fds, size_t *nfds,
			 uint32_t *attached, size_t *nattached)
{
	uint32_t forget[PROTO_FORGET_MAX];
	size_t nforget = teec_session_take_forget(c->s, forget, PROTO_FORGET_MAX);
	uint32_t fd_of[PROTO_FDS_MAX];

	buf_put_u32(w, c->tee_types);
	buf_put_u32(w, (uint32_t)nforget);
	for (size_t i = 0; i < nforget; i++)
		buf_put_u32(w, forget[i]);
	for (int i = 0; i < PROTO_NUM_PARAMS; i++) {
		struct param_plan *pp = &c->p[i];
		uint32_t fd_index = PROTO_NO_FD;
		size_t k = 0;

		if (pp->tee_type && pp->tee_type < TEEC_MEMREF_TEMP_INPUT) {
			buf_put_u32(w, pp->a);
			buf_put_u32(w, pp->b);
			buf_put_u64(w, 0);
			buf_put_u64(w, 0);
			continue;
		}
		if (pp->fd >= 0) {
			/* Attach each new shm once, however many params use it. */
			while (k < *nattached && attached[k] != pp->shm_id)
				k++;
			if (k == *nattached) {
				if (*nfds >= PROTO_FDS_MAX)
					return false;
				attached[k] = pp->shm_id;
				fd_of[k] = (uint32_t)*nfds;
				fds[(*nfds)++] = pp->fd;
				(*nattached)++;
			}
			fd_index = fd_of[k];
		}
		buf_put_u32(w, pp->shm_id);
		buf_put_u32(w, fd_index);
		buf_put_u64(w, pp->offset);
		buf_put_u64(w, pp->size);
	}
	return buf_written(w) != 0;
}

/* Reads a MSG_TA_RESULT and writes outputs back into op. */
static TEEC_Result read_result(struct call *c, TEEC_Operation *op, const uint8_t *msg, size_t len,
			       uint32_t *origin)
{
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t res = 0;
	uint32_t org = 0;
	uint32_t a[PROTO_NUM_PARAMS];
	uint32_t b[PROTO_NUM_PARAMS];
	uint64_t sz[PROTO_NUM_PARAMS];

	buf_reader_init(&r, msg, len);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &res);
	buf_get_u32(&r, &org);
	for (int i = 0; i < PROTO_NUM_PARAMS; i++) {
		buf_get_u32(&r, &a[i]);
		buf_get_u32(&r, &b[i]);
		buf_get_u64(&r, &sz[i]);
	}
	if (!buf_done(&r) || type != MSG_TA_RESULT) {
		*origin = TEEC_ORIGIN_COMMS;
		return TEEC_ERROR_COMMUNICATION;
	}
	*origin = org;
	if (!op)
		return res;
	for (int i = 0; i < PROTO_NUM_PARAMS; i++) {
		uint32_t t = TEEC_PARAM_TYPE_GET(op->paramTypes, i);
		struct param_plan *pp = &c->p[i];

		switch (t) {
		case TEEC_VALUE_OUTPUT:
		case TEEC_VALUE_INOUT:
			op->params[i].value.a = a[i];
			op->params[i].value.b = b[i];
			break;
		case TEEC_MEMREF_TEMP_OUTPUT:
		case TEEC_MEMREF_TEMP_INOUT:
		case TEEC_MEMREF_WHOLE:
		case TEEC_MEMREF_PARTIAL_OUTPUT:
		case TEEC_MEMREF_PARTIAL_INOUT:
			if (pp->tee_type == TEEC_MEMREF_TEMP_INPUT)
				break;
			if (pp->copy_back && pp->copy_whole && pp->size)
				memcpy(pp->copy_local, pp->copy_remote, (size_t)pp->size);
			else if (pp->copy_back && sz[i] <= pp->size && sz[i])
				memcpy(pp->copy_local, pp->copy_remote, (size_t)sz[i]);
			if (sz[i] > SIZE_MAX)
				sz[i] = SIZE_MAX;
			if (t == TEEC_MEMREF_TEMP_OUTPUT || t == TEEC_MEMREF_TEMP_INOUT)
				op->params[i].tmpref.size = (size_t)sz[i];
			else
				op->params[i].memref.size = (size_t)sz[i];
			break;
		default:
			break;
		}
	}
	return res;
}

/* What the process's reply waits learnt of contended CPUs (msg_waiter_spin). */
static struct msg_backoff reply_backoff;

/* The reply waits' cap: a process reads SWTEE_NO_SPIN once. */
static uint64_t reply_spin_cap(void)
{
	static int off = -1;

	if (off < 0)
		off = getenv("SWTEE_NO_SPIN") != NULL;
	return off ? 0 : MSG_SPIN_REPLY_CAP_NS;
}

/* Sends one request to the TA instance and waits for its result. */
static TEEC_Result session_call(struct teec_session *s, uint32_t type, uint32_t cmd,
				TEEC_Operation *op, int lead_fd, uint32_t *origin)
{
	uint8_t out[PROTO_MSG_MAX];
	uint8_t in[PROTO_MSG_MAX];
	uint32_t attached[PROTO_FDS_MAX];
	size_t nattached = 0;
	int fds[PROTO_FDS_MAX];
	size_t nfds = 0;
	struct buf_writer w;
	struct call c = {.s = s};
	struct msg_fds rfds;
	TEEC_Result res = TEEC_SUCCESS;
	ssize_t n = 0;
	uint32_t serial = 0;
	uint64_t start = 0;

	*origin = TEEC_ORIGIN_API;
	if (s->dead) {
		*origin = TEEC_ORIGIN_TEE;
		return TEEC_ERROR_TARGET_DEAD;
	}
	res = plan_call(&c, op);
	if (res)
		return res;
	if (lead_fd >= 0)
		fds[nfds++] = lead_fd;

	teec_cancel_lock();
	serial = ++s->serial;
	if (serial == 0)
		serial = ++s->serial;
	s->current_op = op;
	teec_cancel_unlock();
	if (op)
		op->started = 1;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, type);
	buf_put_u32(&w, serial);
	if (type == MSG_TA_INVOKE)
		buf_put_u32(&w, cmd);
	if (!write_params(&c, &w, fds, &nfds, attached, &nattached)) {
		res = TEEC_ERROR_BAD_PARAMETERS;
		goto out;
	}
	*origin = TEEC_ORIGIN_COMMS;
	atomic_store((_Atomic uint32_t *)&s->ctl->client_awake, msg_waiter_awake(&s->reply));
	if (msg_send(s->sock, out, buf_written(&w), fds, nfds)) {
		s->dead = true;
		*origin = TEEC_ORIGIN_TEE;
		res = TEEC_ERROR_TARGET_DEAD;
		goto out;
	}
	for (size_t k = 0; k < nattached; k++)
		teec_session_mark_known(s, attached[k]);
	start = msg_now_ns();
	msg_waiter_spin(&s->reply, &(struct pollfd){.fd = s->sock, .events = POLLIN}, 1);
	n = msg_recv(s->sock, in, sizeof(in), &rfds);
	s->reply.last_ns = msg_now_ns() - start;
	msg_fds_close(&rfds);
	if (n <= 0) {
		/* The instance is gone: a panic, a crash or a kill. */
		s->dead = true;
		*origin = TEEC_ORIGIN_TEE;
		res = TEEC_ERROR_TARGET_DEAD;
		goto out;
	}
	res = read_result(&c, op, in, (size_t)n, origin);
out:
	teec_cancel_lock();
	s->current_op = NULL;
	teec_cancel_unlock();
	return res;
}

static void session_free(struct teec_session *s)
{
	if (!s)
		return;
	if (s->sock >= 0)
		close(s->sock);
	if (s->ctl)
		munmap(s->ctl, sizeof(*s->ctl));
	if (s->ctl_fd >= 0)
		close(s->ctl_fd);
	if (s->bounce.fd >= 0) {
		munmap(s->bounce.map, s->bounce.size);
		close(s->bounce.fd);
	}
	pthread_mutex_destroy(&s->call_lock);
	free(s->known);
	free(s);
}

static struct teec_session *session_new(void)
{
	struct teec_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->sock = -1;
	s->ctl_fd = -1;
	s->bounce.fd = -1;
	s->reply.cap_ns = reply_spin_cap();
	s->reply.backoff = &reply_backoff;
	pthread_mutex_init(&s->call_lock, NULL);
	s->ctl_fd = memfd_new_sealed("teec-ctl", sizeof(*s->ctl));
	if (s->ctl_fd < 0)
		goto err;
	s->ctl = mmap(NULL, sizeof(*s->ctl), PROT_READ | PROT_WRITE, MAP_SHARED, s->ctl_fd, 0);
	if (s->ctl == MAP_FAILED) {
		s->ctl = NULL;
		goto err;
	}
	return s;
err:
	session_free(s);
	return NULL;
}

/* What a closed connection still holds: the core's MSG_CORE_REFUSED, if it sent one. */
static ssize_t recv_refusal(int fd, uint8_t *in, size_t cap, struct msg_fds *fds)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};

	msg_fds_init(fds);
	if (poll(&p, 1, 0) != 1)
		return -1;
	return msg_recv(fd, in, cap, fds);
}

/* An answer of the core: its type, and the rest to read in r. */
struct core_answer {
	uint8_t in[64];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type;
};

/*
 * One request to the core and its answer into a. Returns 0; the core's
 * reason (origin TEE) when it refused the connection instead; or
 * TEEC_ERROR_COMMUNICATION when no answer came.
 */
static TEEC_Result core_call(TEEC_Context *ctx, const struct buf_writer *w, struct core_answer *a,
			     uint32_t *origin)
{
	struct buf_reader refusal;
	uint32_t res = 0;
	ssize_t n = 0;

	pthread_mutex_lock(ctx_lock(ctx));
	/* A core that refused the connection has closed it: its reason may wait unread. */
	if (msg_send(ctx->imp.fd, w->p, buf_written(w), NULL, 0))
		n = recv_refusal(ctx->imp.fd, a->in, sizeof(a->in), &a->fds);
	else
		n = msg_recv(ctx->imp.fd, a->in, sizeof(a->in), &a->fds);
	/* Closed with our request unread: the kernel reports the reset before the reason. */
	if (n == -ECONNRESET)
		n = recv_refusal(ctx->imp.fd, a->in, sizeof(a->in), &a->fds);
	pthread_mutex_unlock(ctx_lock(ctx));
	if (n <= 0)
		return TEEC_ERROR_COMMUNICATION;
	buf_reader_init(&a->r, a->in, (size_t)n);
	buf_get_u32(&a->r, &a->type);
	refusal = a->r;
	if (a->type != MSG_CORE_REFUSED || !buf_get_u32(&refusal, &res) || !buf_done(&refusal) ||
	    a->fds.n || res == TEEC_SUCCESS)
		return TEEC_SUCCESS;
	if (may_log())
		fprintf(stderr, "libteec: the TEE refused this connection (0x%08x): %s\n", res,
			res == TEEC_ERROR_BUSY ? "too many connections (see the TEE's log)"
					       : "out of memory");
	*origin = TEEC_ORIGIN_TEE;
	return res;
}

/* The connection's nonce into nonce (MSG_CORE_NONCE), for a login by executable. */
static TEEC_Result core_nonce(TEEC_Context *ctx, uint8_t nonce[PROTO_NONCE_SIZE], uint32_t *origin)
{
	struct core_answer a;
	uint8_t out[8];
	struct buf_writer w;
	TEEC_Result res = 0;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_NONCE);
	res = core_call(ctx, &w, &a, origin);
	if (res)
		return res;
	buf_get_bytes(&a.r, nonce, PROTO_NONCE_SIZE);
	if (a.type != MSG_CORE_NONCE_RSP || !buf_done(&a.r) || a.fds.n) {
		msg_fds_close(&a.fds);
		return TEEC_ERROR_COMMUNICATION;
	}
	return TEEC_SUCCESS;
}

/* Asks the core for a socket to an instance of uuid; returns it in *sock. */
static TEEC_Result core_open(TEEC_Context *ctx, const TEEC_UUID *uuid, uint32_t login, uint32_t gid,
			     int *sock, uint32_t *origin)
{
	struct swtee_uuid u = {{0}};
	uint8_t nonce[PROTO_NONCE_SIZE] = {0};
	struct core_answer a;
	uint8_t out[64];
	struct buf_writer w;
	uint32_t res = 0;
	uint32_t org = 0;
	uint32_t sid = 0;

	*sock = -1;
	*origin = TEEC_ORIGIN_COMMS;
	if (proto_login_names_executable(login)) {
		res = core_nonce(ctx, nonce, origin);
		if (res)
			return res;
	}
	uuid_from_fields(&u, uuid->timeLow, uuid->timeMid, uuid->timeHiAndVersion,
			 uuid->clockSeqAndNode);
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CORE_OPEN);
	buf_put_bytes(&w, u.b, sizeof(u.b));
	buf_put_u32(&w, login);
	buf_put_u32(&w, gid);
	buf_put_bytes(&w, nonce, sizeof(nonce));
	res = core_call(ctx, &w, &a, origin);
	if (res)
		return res;
	buf_get_u32(&a.r, &res);
	buf_get_u32(&a.r, &org);
	buf_get_u32(&a.r, &sid);
	if (!buf_done(&a.r) || a.type != MSG_CORE_OPEN_RSP ||
	    (res == TEEC_SUCCESS && a.fds.n != 1) || (res != TEEC_SUCCESS && a.fds.n)) {
		msg_fds_close(&a.fds);
		return TEEC_ERROR_COMMUNICATION;
	}
	*origin = org;
	if (res == TEEC_SUCCESS)
		*sock = msg_fds_take(&a.fds, 0);
	return res;
}

static bool login_valid(uint32_t m)
{
	return m == TEEC_LOGIN_PUBLIC || m == TEEC_LOGIN_USER || m == TEEC_LOGIN_GROUP ||
	       m == TEEC_LOGIN_APPLICATION || m == TEEC_LOGIN_USER_APPLICATION ||
	       m == TEEC_LOGIN_GROUP_APPLICATION;
}

TEEC_Result TEEC_OpenSession(TEEC_Context *context, TEEC_Session *session,
			     const TEEC_UUID *destination, uint32_t connectionMethod,
			     const void *connectionData, TEEC_Operation *operation,
			     uint32_t *returnOrigin)
{
	struct teec_session *s = NULL;
	uint32_t origin = TEEC_ORIGIN_API;
	uint32_t gid = 0;
	uint32_t id = 0;
	TEEC_Result res = TEEC_ERROR_BAD_PARAMETERS;

	if (!context || !session || !destination || context->imp.fd < 0 ||
	    !login_valid(connectionMethod))
		goto out;
	if (connectionMethod == TEEC_LOGIN_GROUP ||
	    connectionMethod == TEEC_LOGIN_GROUP_APPLICATION) {
		if (!connectionData)
			goto out;
		gid = (uint32_t) * (const gid_t *)connectionData;
	}
	res = TEEC_ERROR_OUT_OF_MEMORY;
	s = session_new();
	if (!s)
		goto out;
	res = core_open(context, destination, connectionMethod, gid, &s->sock, &origin);
	if (res)
		goto out;
	id = teec_session_register(s);
	if (!id) {
		origin = TEEC_ORIGIN_API;
		res = TEEC_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	session->imp.ctx = context;
	session->imp.session_id = id;
	if (operation)
		operation->imp.session = session;
	pthread_mutex_lock(&s->call_lock);
	res = session_call(s, MSG_TA_OPEN, 0, operation, s->ctl_fd, &origin);
	pthread_mutex_unlock(&s->call_lock);
	if (res) {
		teec_session_unregister(id);
		session->imp.session_id = 0;
		goto out;
	}
	s = NULL; /* transferred to the session table */
out:
	session_free(s);
	if (returnOrigin)
		*returnOrigin = origin;
	return res;
}

void TEEC_CloseSession(TEEC_Session *session)
{
	struct teec_session *s = NULL;
	uint32_t origin = 0;

	if (!session)
		return;
	s = teec_session_unregister(session->imp.session_id);
	if (!s)
		return;
	pthread_mutex_lock(&s->call_lock);
	if (!s->dead)
		session_call(s, MSG_TA_CLOSE, 0, NULL, -1, &origin);
	pthread_mutex_unlock(&s->call_lock);
	session->imp.session_id = 0;
	session_free(s);
}

TEEC_Result TEEC_InvokeCommand(TEEC_Session *session, uint32_t commandID, TEEC_Operation *operation,
			       uint32_t *returnOrigin)
{
	struct teec_session *s = NULL;
	uint32_t origin = TEEC_ORIGIN_API;
	TEEC_Result res = TEEC_ERROR_BAD_PARAMETERS;

	if (!session)
		goto out;
	s = teec_session_lookup(session->imp.session_id);
	if (!s)
		goto out;
	if (operation)
		operation->imp.session = session;
	pthread_mutex_lock(&s->call_lock);
	res = session_call(s, MSG_TA_INVOKE, commandID, operation, -1, &origin);
	pthread_mutex_unlock(&s->call_lock);
out:
	if (returnOrigin)
		*returnOrigin = origin;
	return res;
}

void TEEC_RequestCancellation(TEEC_Operation *operation)
{
	struct teec_session *s = NULL;

	if (!operation || !operation->imp.session)
		return;
	s = teec_session_lookup(operation->imp.session->imp.session_id);
	if (!s)
		return;
	teec_cancel_lock();
	if (s->current_op == operation && s->ctl) {
		atomic_store((_Atomic uint32_t *)&s->ctl->cancel_serial, s->serial);
		syscall(SYS_futex, &s->ctl->cancel_serial, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	}
	teec_cancel_unlock();
}
