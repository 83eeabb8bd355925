/*
 * Fuzzes the TA runtime's parser of client parameters (the body of an open
 * or invoke message), with one sealed memfd attached, as a client may.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int shm_fd = -1;
static volatile uint8_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt_session s = {0};
	struct buf_reader r;
	struct msg_fds fds;
	TEE_Param params[TEE_NUM_PARAMS];
	uint32_t types = 0;

	if (shm_fd < 0) {
		shm_fd = memfd_create("fuzz-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (shm_fd < 0 || ftruncate(shm_fd, 8192) ||
		    fcntl(shm_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW))
			abort();
	}
	msg_fds_init(&fds);
	fds.fd[0] = shm_fd;
	fds.n = 1;
	buf_reader_init(&r, data, size);
	if (rt_params_in(&s, &r, &fds, &types, params) == TEE_SUCCESS) {
		/* Every memref handed to the TA must be inside memory it may touch. */
		for (int i = 0; i < TEE_NUM_PARAMS; i++) {
			uint32_t t = TEE_PARAM_TYPE_GET(types, i);
			const uint8_t *p = params[i].memref.buffer;

			if (t < TEE_PARAM_TYPE_MEMREF_INPUT || !p || !params[i].memref.size)
				continue;
			/* Under ASan a read outside the mapping would be reported. */
			sink ^= p[0] ^ p[params[i].memref.size - 1];
		}
	}
	rt_shm_release_all(&s);
	return 0;
}
