/*
 * The core's side of a REE FS channel. A batch of file operations goes to
 * the supplicant in one message and comes back as one reply; file data
 * travels in the shared window. The supplicant is hostile: replies are
 * parsed whole and bounded, a reply that does not fit what was asked breaks
 * the channel, and what it leaves in the window is copied out before use
 * (by the callers, see object.c and txn.c).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "msg.h"
#include "reefs.h"

/* A sync of a large file can take a while; a supplicant that stalls longer is dropped. */
#define FS_TIMEOUT_MS 120000

int reefs_open(struct reefs *fs, int sock, int win_fd)
{
	void *p = mmap(NULL, PROTO_FS_WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, win_fd, 0);

	fs->sock = -1;
	fs->win = NULL;
	fs->broken = true;
	fs->inflight = 0;
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

uint32_t fsb_copy(struct fsb *b, const char *from, uint64_t from_off, uint32_t len, const char *to,
		  uint64_t to_off)
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

uint32_t fsb_writeout(struct fsb *b, const char *name, uint64_t off, uint32_t len)
{
	uint32_t i = op(b, FS_OP_WRITEOUT, 0);

	put_name(&b->w, name);
	buf_put_u64(&b->w, off);
	buf_put_u32(&b->w, len);
	return i;
}

uint32_t fsb_reserve(struct fsb *b, const char *name, uint64_t off, uint32_t len)
{
	uint32_t i = op(b, FS_OP_RESERVE, 0);

	put_name(&b->w, name);
	buf_put_u64(&b->w, off);
	buf_put_u32(&b->w, len);
	return i;
}

uint32_t fsb_list(struct fsb *b, const char *after)
{
	uint32_t i = op(b, FS_OP_LIST, PROTO_FS_WINDOW);

	put_name(&b->w, after);
	return i;
}

uint32_t fsb_zero(struct fsb *b, const char *name, uint64_t off, uint32_t len)
{
	uint32_t i = op(b, FS_OP_ZERO, 0);

	put_name(&b->w, name);
	buf_put_u64(&b->w, off);
	buf_put_u32(&b->w, len);
	return i;
}

static TEE_Result broken(struct reefs *fs, const char *why)
{
	if (!fs->broken)
		log_error("REE FS channel: %s; storage of this instance is unavailable", why);
	fs->broken = true;
	return TEE_ERROR_STORAGE_NOT_AVAILABLE;
}

/*
 * Reads the reply to a batch of nops ops. counts gets what each op that ran
 * did (bounded by want, when given); *ran and *fs_res say how far it went.
 */
static TEE_Result recv_reply(struct reefs *fs, uint32_t nops, const uint32_t *want,
			     uint32_t *counts, uint32_t *ran, uint32_t *fs_res)
{
	uint8_t in[16 + 4 * PROTO_FS_OPS_MAX];
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t type = 0;
	uint32_t res = 0;
	ssize_t n = msg_recv_timeout(fs->sock, in, sizeof(in), &fds, FS_TIMEOUT_MS);

	msg_fds_close(&fds);
	if (n <= 0)
		return broken(fs, n == -ETIMEDOUT ? "the supplicant did not answer in time"
						  : "the supplicant is gone");
	buf_reader_init(&r, in, (size_t)n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &res);
	buf_get_u32(&r, ran);
	if (!buf_ok(&r) || type != MSG_FS_BATCH_RSP || *ran > nops ||
	    (res == FS_RES_OK) != (*ran == nops) || res > FS_RES_INVAL)
		return broken(fs, "a malformed reply");
	for (uint32_t i = 0; i < *ran; i++) {
		uint32_t c = 0;

		buf_get_u32(&r, &c);
		if (want && c > want[i])
			return broken(fs, "a reply larger than asked");
		if (counts)
			counts[i] = c;
	}
	if (!buf_done(&r))
		return broken(fs, "a malformed reply");
	*fs_res = res;
	switch (res) {
	case FS_RES_OK:
		return TEE_SUCCESS;
	case FS_RES_NOENT:
		return TEE_ERROR_ITEM_NOT_FOUND;
	case FS_RES_NOSPC:
		return TEE_ERROR_STORAGE_NO_SPACE;
	case FS_RES_INVAL:
		return broken(fs, "the supplicant refused a request");
	default:
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	}
}

/* Sends the batch and starts the next one (same directory). 0, or the channel broke. */
static TEE_Result send_batch(struct fsb *b)
{
	struct buf_writer hw;
	size_t len = buf_written(&b->w);
	int rc = 0;

	/* nops sits after the type and the directory */
	buf_writer_init(&hw, b->msg + 4 + PROTO_FS_DIR_LEN, 4);
	buf_put_u32(&hw, b->nops);
	if (!b->fs->broken && len)
		rc = msg_send(b->fs->sock, b->msg, len, NULL, 0);
	fsb_init(b, b->fs, b->dir);
	if (b->fs->broken)
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	if (!len)
		return broken(b->fs, "a batch overflowed its message");
	if (rc)
		return broken(b->fs, "the supplicant is gone");
	return TEE_SUCCESS;
}

TEE_Result reefs_settle_keep(struct reefs *fs, uint32_t keep)
{
	TEE_Result first = TEE_SUCCESS;
	uint32_t n = fs->inflight > keep ? fs->inflight - keep : 0;

	for (uint32_t i = 0; i < n; i++) {
		struct fs_owner *o = fs->inflight_owner[i];
		uint32_t ran = 0;
		uint32_t fs_res = 0;
		TEE_Result res =
		    fs->broken ? TEE_ERROR_STORAGE_NOT_AVAILABLE
			       : recv_reply(fs, fs->inflight_nops[i], NULL, NULL, &ran, &fs_res);

		if (o) {
			bool later = false; /* a batch kept applies for this owner too */

			for (uint32_t j = n; j < fs->inflight; j++)
				later |= fs->inflight_owner[j] == o;
			if (o->post == fs && !later)
				o->post = NULL;
			/* Its record is durable: the store in memory no longer matches the files.
			 */
			if (res)
				o->failed(o, TEE_ERROR_STORAGE_NOT_AVAILABLE);
		}
		if (res && !first)
			first = res;
	}
	/* The batches kept wait for a later settle, in order. */
	for (uint32_t i = n; i < fs->inflight; i++) {
		fs->inflight_nops[i - n] = fs->inflight_nops[i];
		fs->inflight_owner[i - n] = fs->inflight_owner[i];
	}
	fs->inflight -= n;
	return first;
}

TEE_Result reefs_settle(struct reefs *fs)
{
	return reefs_settle_keep(fs, 0);
}

TEE_Result fsb_send(struct fsb *b, struct fs_owner *owner)
{
	struct reefs *fs = b->fs;
	uint32_t nops = b->nops;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!nops)
		return TEE_SUCCESS;
	if (fs->inflight == FS_INFLIGHT_MAX) {
		res = reefs_settle(fs);
		if (res) {
			fsb_init(b, fs, b->dir); /* dropped: never sent */
			if (owner)
				owner->failed(owner, res);
			return res;
		}
	}
	res = send_batch(b);
	if (res) {
		if (owner)
			owner->failed(owner, res);
		return res;
	}
	fs->inflight_nops[fs->inflight] = nops;
	fs->inflight_owner[fs->inflight] = owner;
	fs->inflight++;
	if (owner)
		owner->post = fs;
	return TEE_SUCCESS;
}

TEE_Result fsb_run(struct fsb *b)
{
	struct reefs *fs = b->fs;
	uint32_t nops = b->nops;
	uint32_t ran = 0;
	uint32_t fs_res = FS_RES_OK;
	TEE_Result res = reefs_settle(fs);

	if (res) {
		fsb_init(b, fs, b->dir);
		return res;
	}
	res = send_batch(b);
	if (res)
		return res;
	res = recv_reply(fs, nops, b->want, b->counts, &ran, &fs_res);
	/*
	 * A reply that never came (the supplicant gone, or too slow) or made
	 * no sense says nothing of how far the batch went: all of it may have.
	 */
	b->failed = res && fs_res == FS_RES_OK ? nops : ran;
	b->fs_res = fs_res;
	return res;
}
