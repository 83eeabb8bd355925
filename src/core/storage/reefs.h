/*
 * A REE FS channel of the storage engine to the supplicant (reefs.c):
 * batches of file operations on a TA's directory, and the shared window
 * their data goes through.
 */
#ifndef SWTEE_STORAGE_REEFS_H
#define SWTEE_STORAGE_REEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "format.h"
#include "must_check.h"
#include "proto.h"

/* The window: the first half for reads, the second for what is written. */
#define FS_READ_AREA 0u
#define FS_READ_AREA_LEN (PROTO_FS_WINDOW / 2)
#define FS_WRITE_AREA (PROTO_FS_WINDOW / 2)
#define FS_WRITE_AREA_LEN (PROTO_FS_WINDOW / 2)

/* Batches sent ahead without waiting (fsb_send), at most. */
#define FS_INFLIGHT_MAX 8

struct reefs;

/*
 * Whom batches sent ahead apply for (fsb_send): a store's committed record.
 * post is the channel still applying one of them, NULL when none is in
 * flight; failed is called, with the result to break with, for each of
 * them that fails (the store in memory no longer matches its files).
 */
struct fs_owner {
	struct reefs *post;
	void (*failed)(struct fs_owner *o, TEE_Result res);
};

struct reefs {
	int sock;
	uint8_t *win; /* shared with the supplicant: never trust what it holds */
	bool broken;
	/* Batches sent whose replies are still to be read, in order: */
	uint32_t inflight;
	uint32_t inflight_nops[FS_INFLIGHT_MAX];
	struct fs_owner *inflight_owner[FS_INFLIGHT_MAX]; /* see fsb_send */
};

/* A batch of operations, built then run. Names are PROTO_FS_NAME_MAX at most. */
struct fsb {
	struct reefs *fs;
	char dir[PROTO_FS_DIR_LEN + 1];
	uint8_t msg[PROTO_MSG_MAX];
	struct buf_writer w;
	uint32_t nops;
	uint32_t want[PROTO_FS_OPS_MAX]; /* what a READ asked for */
	uint32_t counts[PROTO_FS_OPS_MAX];
	/* after a failed run: the index of the op; nops when no reply said (any may have run) */
	uint32_t failed;
	uint32_t fs_res; /* FS_RES_* of that op */
};

SWTEE_MUST_CHECK int reefs_open(struct reefs *fs, int sock, int win_fd);
void reefs_close(struct reefs *fs);

void fsb_init(struct fsb *b, struct reefs *fs, const char *dir);
/* True when nops more ops of about bytes each still fit the message. */
bool fsb_room(const struct fsb *b, uint32_t nops, size_t bytes);
/* Each returns the op's index. The window ranges are the caller's to manage. */
uint32_t fsb_read(struct fsb *b, const char *name, uint64_t off, uint32_t len, uint32_t win);
uint32_t fsb_write(struct fsb *b, const char *name, uint64_t off, uint32_t len, uint32_t win);
uint32_t fsb_copy(struct fsb *b, const char *from, uint64_t from_off, uint32_t len, const char *to,
		  uint64_t to_off);
uint32_t fsb_truncate(struct fsb *b, const char *name, uint64_t size);
uint32_t fsb_sync(struct fsb *b, const char *name);
uint32_t fsb_remove(struct fsb *b, const char *name);
uint32_t fsb_syncdir(struct fsb *b);
uint32_t fsb_mkdir(struct fsb *b);
uint32_t fsb_zero(struct fsb *b, const char *name, uint64_t off, uint32_t len);
/* A hint: start writing [off, off + len) of the file back to the disk. */
uint32_t fsb_writeout(struct fsb *b, const char *name, uint64_t off, uint32_t len);
/*
 * Space for [off, off + len) of the file, allocated without changing its
 * size or bytes: later writes there cannot fail for a full disk.
 */
uint32_t fsb_reserve(struct fsb *b, const char *name, uint64_t off, uint32_t len);
/* The names after `after` ("" for all), sorted, NUL-terminated, from window offset 0. */
uint32_t fsb_list(struct fsb *b, const char *after);
/*
 * Runs the batch. TEE_SUCCESS, or: TEE_ERROR_ITEM_NOT_FOUND (a file is
 * absent), TEE_ERROR_STORAGE_NO_SPACE, TEE_ERROR_STORAGE_NOT_AVAILABLE (the
 * supplicant failed, lied or is gone: the channel is then broken). b->failed
 * says which op failed. The batch is empty again afterwards.
 */
SWTEE_MUST_CHECK TEE_Result fsb_run(struct fsb *b);
/*
 * Sends the batch without waiting for its reply: the next fsb_run or
 * reefs_settle on the channel reads it. Its ops must leave nothing in the
 * window to read, and the window ranges it writes from must stay as they
 * are until then. With owner, the batch applies a committed record of its
 * store (owner->post points to the channel meanwhile): if it fails, or
 * cannot be sent, owner->failed is told. TEE_SUCCESS; else the failure of
 * a batch sent before, settled to make room, or the channel's: the batch
 * is then dropped (b empty again), never sent.
 */
SWTEE_MUST_CHECK TEE_Result fsb_send(struct fsb *b, struct fs_owner *owner);
/* Reads the replies of all batches sent ahead; the first failure, if any. */
TEE_Result reefs_settle(struct reefs *fs);
/* The same for all but the last keep of them, which stay in flight. */
TEE_Result reefs_settle_keep(struct reefs *fs, uint32_t keep);

#endif
