/*
 * Fuzzes the core's reading of tee-supplicant's replies to REE FS batches
 * (recv_reply through fsb_run, fsb_send and reefs_settle,
 * src/core/storage/reefs.c). The replies are queued on a real socket before
 * the batch is sent, and the supplicant's end stops writing after them, so
 * that the core never waits. The input is
 *
 *   nops:u8 (up to 70: past PROTO_FS_OPS_MAX too), then per op kind:u8
 *   len:u16; mode:u8 (fsb_run; fsb_send then reefs_settle; sent ahead for
 *   a store, then fsb_run; more sent ahead than FS_INFLIGHT_MAX); then the
 *   replies, each len:u16 and its bytes
 *
 * A batch that ran must report no count above what its op asked for.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "log.h"
#include "memfd.h"
#include "msg.h"
#include "storage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLIES_MAX 16
#define DIR_NAME "0123456789abcdef0123456789abcdef"

static struct reefs fs;
static struct fs_owner owner;

/* What a store does when a batch of its record fails: here, nothing. */
static void owner_failed(struct fs_owner *o, TEE_Result res)
{
	(void)o;
	(void)res;
}

/* Adds the ops of the input to b; what each may report goes to want. */
/* Any result will do here: what is checked is the state the calls leave. */
static void any_result(TEE_Result res)
{
	(void)res;
}

static void add_ops(struct buf_reader *r, struct fsb *b, uint8_t nops, uint32_t *want)
{
	for (uint8_t i = 0; i < nops; i++) {
		uint8_t kind = 0;
		uint16_t len = 0;
		uint32_t at = b->nops;

		buf_get_u8(r, &kind);
		buf_get_u16(r, &len);
		switch (kind % 6) {
		case 0:
			fsb_read(b, "f", 0, len, FS_READ_AREA);
			break;
		case 1:
			fsb_list(b, "");
			break;
		case 2:
			fsb_write(b, "f", 0, len, FS_WRITE_AREA);
			break;
		case 3:
			fsb_copy(b, "f", 0, len, "g", 0);
			break;
		case 4:
			fsb_truncate(b, "f", len);
			break;
		default:
			fsb_remove(b, "f");
			break;
		}
		if (at < PROTO_FS_OPS_MAX)
			want[at] = b->want[at];
	}
}

/* fsb_run, and what it reported must fit what was asked. */
static void run_checked(struct fsb *b, const uint32_t *want)
{
	uint32_t nops = b->nops;
	TEE_Result res = fsb_run(b);

	if (b->failed > nops && !fs.broken)
		abort();
	for (uint32_t i = 0; !res && i < nops && i < PROTO_FS_OPS_MAX; i++)
		if (b->counts[i] > want[i])
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fsb b;
	uint32_t want[PROTO_FS_OPS_MAX] = {0};
	struct buf_reader r;
	int sv[2] = {-1, -1};
	uint8_t nops = 0;
	uint8_t mode = 0;

	if (!fs.win) {
		int win = memfd_new_sealed("fuzz-reply-window", PROTO_FS_WINDOW);

		log_init("fuzz", 0);
		if (win < 0 || reefs_open(&fs, -1, win))
			abort();
		close(win);
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return 0;
	fs.sock = sv[0];
	fs.broken = false;
	fs.inflight = 0;
	memset(&owner, 0, sizeof(owner));
	owner.failed = owner_failed;
	buf_reader_init(&r, data, size);
	buf_get_u8(&r, &nops);
	nops %= 71;
	fsb_init(&b, &fs, DIR_NAME);
	add_ops(&r, &b, nops, want);
	buf_get_u8(&r, &mode);
	for (int i = 0; i < REPLIES_MAX && buf_left(&r); i++) {
		const uint8_t *p = NULL;
		uint16_t len = 0;

		buf_get_u16(&r, &len);
		if (len > buf_left(&r))
			len = (uint16_t)buf_left(&r);
		buf_get_ptr(&r, &p, len);
		if (msg_send(sv[1], p, len, NULL, 0))
			break;
	}
	shutdown(sv[1], SHUT_WR); /* after the replies, the supplicant is gone */
	switch (mode % 4) {
	case 0:
		run_checked(&b, want);
		break;
	case 1:
		any_result(fsb_send(&b, NULL));
		reefs_settle(&fs);
		break;
	case 2:
		any_result(fsb_send(&b, &owner));
		memset(want, 0, sizeof(want));
		fsb_truncate(&b, "f", 0);
		run_checked(&b, want);
		if (owner.post)
			abort(); /* its commit was settled: the store lets go of the channel */
		break;
	default:
		for (int i = 0; i <= FS_INFLIGHT_MAX; i++) {
			fsb_sync(&b, "f");
			any_result(fsb_send(&b, i % 2 ? &owner : NULL));
		}
		reefs_settle(&fs);
		break;
	}
	if (fs.inflight)
		abort(); /* every batch sent ahead was answered or the channel broke */
	close(sv[0]);
	close(sv[1]);
	return 0;
}
