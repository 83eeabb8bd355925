/*
 * Fuzzes the core's parsing and handling of what a TA instance sends on its
 * storage channel (MSG_STOR_*, src/core/storage/worker.c): request after
 * request, as the instance's worker takes them, against the store of one TA
 * on the fake supplicant of fuzz_storage_env.c. The instance has a bulk
 * window and a heap (both filled with a pattern): writes from either, at
 * any offset the input names, are the instance's to claim.
 *
 * The input is a run of requests, each len:u16 (little-endian) and len
 * bytes; a length of 0 stands for the instance going idle (the worker's
 * confirmation of a write in place). The oracle: a request that parses gets
 * exactly one MSG_STOR_RSP with a result the API allows; one that does not
 * ends the channel, as it would the instance's; and the store the requests
 * leave behind loads again whole, with a consistent directory.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz_storage_env.h"
#include "msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUESTS_MAX 64
#define HEAP_LEN (256u * 1024)

static uint8_t *bulk;
static uint8_t *heap;

static bool result_known(uint32_t res)
{
	switch (res) {
	case TEE_SUCCESS:
	case TEE_ERROR_BAD_PARAMETERS:
	case TEE_ERROR_ITEM_NOT_FOUND:
	case TEE_ERROR_ACCESS_CONFLICT:
	case TEE_ERROR_ACCESS_DENIED:
	case TEE_ERROR_OUT_OF_MEMORY:
	case TEE_ERROR_STORAGE_NO_SPACE:
	case TEE_ERROR_CORRUPT_OBJECT:
	case TEE_ERROR_STORAGE_NOT_AVAILABLE:
	case TEE_ERROR_OVERFLOW:
		return true;
	default:
		return false;
	}
}

/* The one answer to a request that parsed; aborts on none, two, or a malformed one. */
static void check_answer(int sock)
{
	uint8_t in[PROTO_MSG_MAX];
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t res = 0;
	ssize_t n = recv(sock, in, sizeof(in), MSG_DONTWAIT);

	if (n < 8)
		abort();
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &res);
	if (type != MSG_STOR_RSP || !result_known(res))
		abort();
	if (recv(sock, in, sizeof(in), MSG_DONTWAIT) >= 0 || errno != EAGAIN)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf_reader r;
	struct worker *w = NULL;
	int sv[2] = {-1, -1};
	size_t objects = 0;

	fse_init();
	fse_reset();
	if (!bulk) {
		bulk = malloc(PROTO_STOR_WINDOW);
		heap = malloc(HEAP_LEN);
		if (!bulk || !heap)
			abort();
		for (size_t i = 0; i < PROTO_STOR_WINDOW; i++)
			bulk[i] = (uint8_t)(i * 13 + 7);
		for (size_t i = 0; i < HEAP_LEN; i++)
			heap[i] = (uint8_t)(i * 31 + 3);
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		abort();
	w = worker_attach(fse_uuid(), fse_fs(), sv[0], bulk, heap, HEAP_LEN);
	if (!w)
		abort();
	buf_reader_init(&r, data, size);
	for (size_t i = 0; i < REQUESTS_MAX && buf_left(&r) >= 2; i++) {
		const uint8_t *req = NULL;
		uint16_t len = 0;

		buf_get_u16(&r, &len);
		if (len > buf_left(&r))
			len = (uint16_t)buf_left(&r);
		if (len > PROTO_MSG_MAX)
			len = PROTO_MSG_MAX;
		if (!len) {
			worker_idle(w);
			continue;
		}
		buf_get_ptr(&r, &req, len);
		if (!worker_request(w, req, len))
			break; /* the channel ends, as the worker thread ends it */
		check_answer(sv[1]);
	}
	worker_detach(w);
	close(sv[0]);
	close(sv[1]);
	/* Nothing a TA asks for may leave its store unable to load. */
	if (fse_load(false, &objects) != TEE_SUCCESS)
		abort();
	return 0;
}
