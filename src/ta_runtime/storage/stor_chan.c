/*
 * The storage channel of the instance: asked for once over the control
 * socket (MSG_CTL_STORAGE), then one request and one MSG_STOR_RSP at a time
 * on a socket of its own, with object data in the bulk window both sides
 * map. A channel that fails stays failed: storage is then unavailable to
 * this instance.
 *
 * The request hands the core the heap's sealed memfd as well (arena.c): the
 * core maps it read-only and takes large writes from a TEE_Malloc'd buffer
 * where they are, with no copy through the bulk window (stor_heap_offset).
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "log.h"
#include "storage.h"

static int chan_fd = -1;
static uint8_t *chan_bulk;
static bool chan_failed;
static bool chan_heap; /* the core has the heap */

static bool chan_open(void)
{
	uint8_t out[4];
	uint8_t in[16];
	struct buf_writer w;
	struct buf_reader r;
	struct msg_fds fds;
	struct stat st;
	uint32_t res = 0;
	void *p = MAP_FAILED;
	uint32_t heap_ok = 0;
	int heap = -1;

	if (chan_fd >= 0)
		return true;
	if (chan_failed)
		return false;
	chan_failed = true;
	heap = rt_arena_take_fd();
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_STORAGE);
	res = rt_ctl_request(out, buf_written(&w), heap, MSG_CTL_STORAGE_RSP, in, sizeof(in), &fds,
			     &r);
	if (heap >= 0)
		close(heap);
	buf_get_u32(&r, &heap_ok);
	if (!buf_done(&r) || res || fds.n != 2) {
		msg_fds_close(&fds);
		if (res)
			log_error("trusted storage is not available (0x%08x)", res);
		return false;
	}
	if (fstat(fds.fd[1], &st) || (uint64_t)st.st_size < PROTO_STOR_WINDOW)
		goto fail;
	p = mmap(NULL, PROTO_STOR_WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, fds.fd[1], 0);
	if (p == MAP_FAILED)
		goto fail;
	chan_bulk = p;
	chan_fd = msg_fds_take(&fds, 0);
	msg_fds_close(&fds);
	chan_failed = false;
	chan_heap = heap_ok == 1;
	return true;
fail:
	msg_fds_close(&fds);
	return false;
}

uint8_t *stor_bulk(void)
{
	return chan_bulk;
}

uint8_t *stor_window(void)
{
	return chan_open() ? chan_bulk : NULL;
}

bool stor_heap_offset(const void *p, size_t len, uint64_t *off)
{
	return chan_heap && len >= STOR_HEAP_MIN && rt_arena_offset(p, len, off);
}

void rt_storage_end(void)
{
	if (chan_fd >= 0)
		close(chan_fd);
	chan_fd = -1;
	chan_failed = true;
}

static void chan_lost(void)
{
	log_error("the storage channel to the core is gone");
	close(chan_fd);
	chan_fd = -1;
	chan_failed = true;
}

TEE_Result stor_call(const void *req, size_t len, uint8_t *rsp, size_t cap, struct buf_reader *r)
{
	struct msg_fds fds;
	uint32_t type = 0;
	uint32_t res = 0;
	ssize_t n = 0;

	buf_reader_init(r, rsp, 0);
	if (!chan_open())
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	if (msg_send(chan_fd, req, len, NULL, 0)) {
		chan_lost();
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	do {
		n = msg_recv(chan_fd, rsp, cap, &fds);
	} while (n == -EINTR);
	msg_fds_close(&fds);
	if (n <= 0) {
		chan_lost();
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	buf_reader_init(r, rsp, (size_t)n);
	buf_get_u32(r, &type);
	buf_get_u32(r, &res);
	if (!buf_ok(r) || type != MSG_STOR_RSP) {
		chan_lost();
		buf_reader_init(r, rsp, 0);
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
	return res;
}
