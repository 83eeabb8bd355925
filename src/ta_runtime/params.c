/*
 * Parameters from a client message. The client is not trusted: every shared
 * memory it hands over must be a memfd sealed against shrinking and growing
 * (so the TA cannot fault on it), and every memref must lie inside its shm.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "memfd.h"
#include "runtime.h"

static struct rt_shm *shm_find(struct rt_session *s, uint32_t id)
{
	for (size_t i = 0; i < s->nshm; i++)
		if (s->shm[i].id == id)
			return &s->shm[i];
	return NULL;
}

static void shm_forget(struct rt_session *s, uint32_t id)
{
	struct rt_shm *m = shm_find(s, id);

	if (!m)
		return;
	munmap(m->map, m->size);
	*m = s->shm[--s->nshm];
}

void rt_shm_release_all(struct rt_session *s)
{
	for (size_t i = 0; i < s->nshm; i++)
		munmap(s->shm[i].map, s->shm[i].size);
	s->nshm = 0;
	free(s->shm);
	s->shm = NULL;
}

static TEE_Result shm_map(struct rt_session *s, uint32_t id, int fd)
{
	long long size = memfd_safe_size(fd, F_SEAL_SHRINK | F_SEAL_GROW);
	void *p = NULL;

	if (size < 0)
		return TEE_ERROR_BAD_PARAMETERS;
	if (s->nshm >= RT_SHM_MAX)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (!s->shm) {
		s->shm = calloc(RT_SHM_MAX, sizeof(*s->shm));
		if (!s->shm)
			return TEE_ERROR_OUT_OF_MEMORY;
	}
	p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return TEE_ERROR_OUT_OF_MEMORY;
	s->shm[s->nshm].id = id;
	s->shm[s->nshm].map = p;
	s->shm[s->nshm].size = (size_t)size;
	s->nshm++;
	return TEE_SUCCESS;
}

static bool type_valid(uint32_t t)
{
	return t <= TEE_PARAM_TYPE_VALUE_INOUT ||
	       (t >= TEE_PARAM_TYPE_MEMREF_INPUT && t <= TEE_PARAM_TYPE_MEMREF_INOUT);
}

TEE_Result rt_params_in(struct rt_session *s, struct buf_reader *r, const struct msg_fds *fds,
			uint32_t *types, TEE_Param params[TEE_NUM_PARAMS])
{
	uint32_t nforget = 0;
	bool fd_used[PROTO_FDS_MAX] = {false};

	memset(params, 0, sizeof(TEE_Param) * TEE_NUM_PARAMS);
	buf_get_u32(r, types);
	buf_get_u32(r, &nforget);
	if (!buf_ok(r) || nforget > PROTO_FORGET_MAX)
		return TEE_ERROR_BAD_FORMAT;
	for (uint32_t i = 0; i < nforget; i++) {
		uint32_t id = 0;

		if (buf_get_u32(r, &id))
			shm_forget(s, id);
	}
	if (*types >> 16)
		return TEE_ERROR_BAD_PARAMETERS;
	for (int i = 0; i < TEE_NUM_PARAMS; i++) {
		uint32_t t = TEE_PARAM_TYPE_GET(*types, i);
		uint32_t a = 0;
		uint32_t b = 0;
		uint64_t off = 0;
		uint64_t size = 0;
		uint64_t end = 0;
		struct rt_shm *m = NULL;
		TEE_Result res = TEE_SUCCESS;

		buf_get_u32(r, &a);
		buf_get_u32(r, &b);
		buf_get_u64(r, &off);
		buf_get_u64(r, &size);
		if (!buf_ok(r))
			return TEE_ERROR_BAD_FORMAT;
		if (!type_valid(t))
			return TEE_ERROR_BAD_PARAMETERS;
		if (t == TEE_PARAM_TYPE_NONE)
			continue;
		if (t <= TEE_PARAM_TYPE_VALUE_INOUT) {
			params[i].value.a = a;
			params[i].value.b = b;
			continue;
		}
		if (size > SIZE_MAX)
			return TEE_ERROR_BAD_PARAMETERS;
		params[i].memref.size = (size_t)size;
		if (a == 0) {
			/* A NULL buffer: only its size travels. */
			if (b != PROTO_NO_FD || off)
				return TEE_ERROR_BAD_PARAMETERS;
			continue;
		}
		m = shm_find(s, a);
		if (b != PROTO_NO_FD) {
			if (b >= fds->n)
				return TEE_ERROR_BAD_PARAMETERS;
			if (!m && !fd_used[b]) {
				res = shm_map(s, a, fds->fd[b]);
				if (res)
					return res;
				m = shm_find(s, a);
			}
			fd_used[b] = true;
		}
		if (!m)
			return TEE_ERROR_BAD_PARAMETERS;
		if (__builtin_add_overflow(off, size, &end) || end > m->size)
			return TEE_ERROR_BAD_PARAMETERS;
		params[i].memref.buffer = m->map + off;
	}
	if (!buf_done(r))
		return TEE_ERROR_BAD_FORMAT;
	s->op_types = *types;
	memcpy(s->op_params, params, sizeof(s->op_params));
	return TEE_SUCCESS;
}

void rt_params_out(struct buf_writer *w, uint32_t types, const TEE_Param params[TEE_NUM_PARAMS])
{
	for (int i = 0; i < TEE_NUM_PARAMS; i++) {
		uint32_t t = TEE_PARAM_TYPE_GET(types, i);

		if (t == TEE_PARAM_TYPE_VALUE_OUTPUT || t == TEE_PARAM_TYPE_VALUE_INOUT) {
			buf_put_u32(w, params[i].value.a);
			buf_put_u32(w, params[i].value.b);
			buf_put_u64(w, 0);
		} else if (t >= TEE_PARAM_TYPE_MEMREF_INPUT && t <= TEE_PARAM_TYPE_MEMREF_INOUT) {
			buf_put_u32(w, 0);
			buf_put_u32(w, 0);
			buf_put_u64(w, params[i].memref.size);
		} else {
			buf_put_u32(w, 0);
			buf_put_u32(w, 0);
			buf_put_u64(w, 0);
		}
	}
}
