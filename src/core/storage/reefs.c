/*
 * The core's side of a REE FS channel. A batch of file operations goes to
 * the supplicant in one message and comes back as one reply; file data
 * travels in the shared window. The supplicant is hostile: replies are
 * parsed whole and bounded, a reply that does not fit what was asked breaks
 * the channel, and what it leaves in the window is copied out before use
 * (by the callers, see object.c and journal.c).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "msg.h"
#include "storage.h"

/* A sync of a large file can take a while; a supplicant that stalls longer is dropped. */
#define FS_TIMEOUT_MS 120000

int reefs_open(struct reefs *fs, int sock, int win_fd)
{
	void *p = mmap(NULL, PROTO_FS_WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, win_fd, 0);

	fs->sock = -1;
	fs->win = NULL;
	fs->broken = true;
	if (p == MAP_FAILED)
		return -1;
	fs->sock = sock;
	fs->win = p;
	fs->broken = false;
	return 0;
}

void reefs_close(struct reefs *fs)
{
	if (fs->win)
		munmap(fs->win, PROTO_FS_WINDOW);
	if (fs->sock >= 0)
		close(fs->sock);
	fs->win = NULL;
	fs->sock = -1;
	fs->broken = true;
}

void fsb_init(struct fsb *b, struct reefs *fs, const char *dir)
{
	b->fs = fs;
	if (dir != b->dir)
		memcpy(b->dir, dir, PROTO_FS_DIR_LEN);
	b->dir[PROTO_FS_DIR_LEN] = '\0';
	b->nops = 0;
	b->failed = 0;
	b->fs_res = FS_RES_OK;
	buf_writer_init(&b->w, b->msg, sizeof(b->msg));
	buf_put_u32(&b->w, MSG_FS_BATCH);
	buf_put_bytes(&b->w, dir, PROTO_FS_DIR_LEN);
	buf_put_u32(&b->w, 0); /* nops, filled in by fsb_run */
}

bool fsb_room(const struct fsb *b, uint32_t nops, size_t bytes)
{
	return b->nops + nops <= PROTO_FS_OPS_MAX && !b->w.failed &&
	       b->w.off + (size_t)nops * bytes <= b->w.cap;
}

static void put_name(struct buf_writer *w, const char *name)
{
	size_t n = strlen(name);

	buf_put_u8(w, (uint8_t)n);
	buf_put_bytes(w, name, n);
}

static uint32_t op(struct fsb *b, uint32_t code, uint32_t want)
{
	if (b->nops >= PROTO_FS_OPS_MAX) {
		b->w.failed = true;
		return b->nops;
	}
	b->want[b->nops] = want;
	buf_put_u32(&b->w, code);
	return b->nops++;
}

uint32_t fsb_read(struct fsb *b, const char *name, uint64_t off, uint32_t len, uint32_t win)
{
	uint32_t i = op(b, FS_OP_READ, len);

	put_name(&b->w, name);
	buf_put_u64(&b->w, off);
	buf_put_u32(&b->w, len);
	buf_put_u32(&b->w, win);
	return i;
}

uint32_t fsb_write(struct fsb *b, const char *name, uint64_t off, uint32_t len, uint32_t win)
{
	uint32_t i = op(b, FS_OP_WRITE, 0);

	put_name(&b->w, name);
	buf_put_u64(&b->w, off);
	buf_put_u32(&b->w, len);
	buf_put_u32(&b->w, win);
	return i;
}

uint32_t fsb_copy(struct fsb *b, const char *from, uint64_t from_off, uint32_t len,
		  const char *to, uint64_t to_off)
{
	uint32_t i = op(b, FS_OP_COPY, len);

	put_name(&b->w, from);
	buf_put_u64(&b->w, from_off);
	buf_put_u32(&b->w, len);
	put_name(&b->w, to);
	buf_put_u64(&b->w, to_off);
	return i;
}

uint32_t fsb_truncate(struct fsb *b, const char *name, uint64_t size)
{
	uint32_t i = op(b, FS_OP_TRUNCATE, 0);

	put_name(&b->w, name);
	buf_put_u64(&b->w, size);
	return i;
}

uint32_t fsb_sync(struct fsb *b, const char *name)
{
	uint32_t i = op(b, FS_OP_SYNC, 0);

	put_name(&b->w, name);
	return i;
}

uint32_t fsb_remove(struct fsb *b, const char *name)
{
	uint32_t i = op(b, FS_OP_REMOVE, 0);

	put_name(&b->w, name);
	return i;
}

uint32_t fsb_syncdir(struct fsb *b)
{
	return op(b, FS_OP_SYNCDIR, 0);
}

uint32_t fsb_mkdir(struct fsb *b)
{
	return op(b, FS_OP_MKDIR, 0);
}

uint32_t fsb_zero(struct fsb *b, const char *name, uint64_t off, uint32_t len)
{
	uint32_t i = op(b, FS_OP_ZERO, 0);

	put_name(&b->w, name);
	buf_put_u64(&b->w, off);
	buf_put_u32(&b->w, len);
	return i;
}

static TEE_Result broken(struct fsb *b, const char *why)
{
	if (!b->fs->broken)
		log_error("REE FS channel: %s; storage of this instance is unavailable", why);
	b->fs->broken = true;
	return TEE_ERROR_STORAGE_NOT_AVAILABLE;
}

TEE_Result fsb_run(struct fsb *b)
{
	uint8_t in[16 + 4 * PROTO_FS_OPS_MAX];
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t nops = b->nops;
	uint32_t type = 0;
	uint32_t res = 0;
	uint32_t ran = 0;
	struct buf_writer hw;
	ssize_t n = 0;
	size_t len = buf_written(&b->w);
	int rc = 0;

	/* nops sits after the type and the directory */
	buf_writer_init(&hw, b->msg + 4 + PROTO_FS_DIR_LEN, 4);
	buf_put_u32(&hw, nops);
	if (!b->fs->broken && len)
		rc = msg_send(b->fs->sock, b->msg, len, NULL, 0);
	fsb_init(b, b->fs, b->dir); /* the next batch, same directory */
	if (b->fs->broken)
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	if (!len)
		return broken(b, "a batch overflowed its message");
	if (rc)
		return broken(b, "the supplicant is gone");
	n = msg_recv_timeout(b->fs->sock, in, sizeof(in), &fds, FS_TIMEOUT_MS);
	msg_fds_close(&fds);
	if (n <= 0)
		return broken(b, n == -ETIMEDOUT ? "the supplicant did not answer in time"
						 : "the supplicant is gone");
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &res);
	buf_get_u32(&r, &ran);
	if (!buf_ok(&r) || type != MSG_FS_BATCH_RSP || ran > nops ||
	    (res == FS_RES_OK) != (ran == nops) || res > FS_RES_INVAL)
		return broken(b, "a malformed reply");
	for (uint32_t i = 0; i < ran; i++) {
		buf_get_u32(&r, &b->counts[i]);
		if (b->counts[i] > b->want[i])
			return broken(b, "a reply larger than asked");
	}
	if (!buf_done(&r))
		return broken(b, "a malformed reply");
	b->failed = ran;
	b->fs_res = res;
	switch (res) {
	case FS_RES_OK:
		return TEE_SUCCESS;
	case FS_RES_NOENT:
		return TEE_ERROR_ITEM_NOT_FOUND;
	case FS_RES_NOSPC:
		return TEE_ERROR_STORAGE_NO_SPACE;
	case FS_RES_INVAL:
		return broken(b, "the supplicant refused a request");
	default:
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
}
