/*
 * Fuzzes the recovery of a store (journal_load, src/core/storage/journal.c)
 * from the journal "j" the supplicant hands back and from the RPMB log:
 * header slots, record heads, sealed metas and the operations in them
 * (meta_apply, the replay of their file operations, META_DIRECT blocks
 * checked against the object files), the chain and its anchor; then, when
 * the store loads, what a TA does next (reads, the idle confirmation and
 * checkpoint).
 *
 * The input is a list of commands, each cmd:u8 len:u16 and len bytes,
 * that build the files (fuzz_storage_env.h has their payloads):
 *
 *   cmd % 8 = 0  a header slot (sealed fields, a sealed body, raw bytes)
 *             1  a record in "j" (sealed around a fuzzed meta, or raw)
 *             2  a record in the RPMB log (the same)
 *             3  a snapshot d<seq> (sealed entries, or raw)
 *             4  an object file: fid, kind:u8, off:u32 and its bytes
 *             5  the fault schedule of the supplicant
 *             6  the RPMB anchor (where it points, its log head)
 *             7  the REE directory exists, even with no file in it
 *
 * Sealed parts use the fixed test keys, so the parsers that only ever see
 * authenticated plaintext are fuzzed too; raw parts reach the checks made
 * before authentication.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_storage_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CMD_HDR, CMD_REC, CMD_LOG, CMD_SNAP, CMD_FILE, CMD_FAULTS, CMD_ANCHOR, CMD_MKDIR };

static void object_file(const uint8_t *p, size_t n)
{
	char name[PROTO_FS_NAME_MAX + 1];
	const uint8_t *fid = NULL;
	const uint8_t *bytes = NULL;
	struct buf_reader r;
	uint8_t kind = 0;
	uint32_t off = 0;
	size_t len = 0;

	buf_reader_init(&r, p, n);
	buf_get_ptr(&r, &fid, STOR_FID);
	buf_get_u8(&r, &kind);
	buf_get_u32(&r, &off);
	len = buf_left(&r);
	if (!buf_get_ptr(&r, &bytes, len))
		return;
	kind = (uint8_t) "\0"
			 "123a"[kind % 5];
	entry_file(fid, (char)kind, name);
	fse_put(name, off, bytes, len);
}

static void run(const uint8_t *data, size_t size, size_t *n, TEE_Result *res)
{
	struct buf_reader r;
	struct jb b;

	fse_reset();
	jb_init(&b);
	buf_reader_init(&r, data, size);
	while (buf_left(&r)) {
		const uint8_t *p = NULL;
		uint16_t len = 0;
		uint8_t cmd = 0;

		buf_get_u8(&r, &cmd);
		buf_get_u16(&r, &len);
		if (len > buf_left(&r))
			len = (uint16_t)buf_left(&r);
		if (!buf_get_ptr(&r, &p, len))
			break;
		switch (cmd % 8) {
		case CMD_HDR:
			jb_header(&b, p, len);
			break;
		case CMD_REC:
		case CMD_LOG:
			jb_record(&b, cmd % 8 == CMD_LOG, p, len);
			break;
		case CMD_SNAP:
			jb_snapshot(&b, p, len);
			break;
		case CMD_FILE:
			object_file(p, len);
			break;
		case CMD_FAULTS:
			fse_faults(p, len);
			break;
		case CMD_ANCHOR:
			jb_anchor(&b, p, len);
			break;
		default:
			fse_mkdir();
			break;
		}
	}
	jb_finish(&b);
	*res = fse_load(true, n);
}

/* A command into out: its length. */
static size_t put_cmd(uint8_t *out, uint8_t cmd, const void *p, size_t n)
{
	out[0] = cmd;
	out[1] = (uint8_t)n;
	out[2] = (uint8_t)(n >> 8);
	memcpy(out + 3, p, n);
	return 3 + n;
}

static void put_entry(struct buf_writer *w, char id)
{
	static uint8_t fek[STOR_KEY];
	struct stor_entry e = {.fek = fek, .id_len = 1};

	memset(e.fid, id, STOR_FID);
	e.id[0] = (uint8_t)id;
	entry_put(w, &e);
}

/*
 * A store of three objects, one from each place (snapshot, "j", RPMB log),
 * must load: otherwise the builders no longer match the engine's formats.
 */
static void self_check(void)
{
	uint8_t in[2048];
	uint8_t p[512];
	struct buf_writer w;
	size_t off = 0;
	size_t n = 0;
	TEE_Result res = 0;

	buf_writer_init(&w, p, sizeof(p)); /* snapshot 1: no time, object a */
	buf_put_u8(&w, 0);
	buf_put_u64(&w, 1);
	buf_put_u8(&w, 0);
	buf_put_u64(&w, 0);
	buf_put_u64(&w, 0);
	put_entry(&w, 'a');
	off += put_cmd(in + off, CMD_SNAP, p, buf_written(&w));
	buf_writer_init(&w, p, sizeof(p)); /* header slot 0, sealed, seq 1, naming it */
	buf_put_u8(&w, 0);
	buf_put_u8(&w, 0x10);
	buf_put_u64(&w, 1);
	off += put_cmd(in + off, CMD_HDR, p, buf_written(&w));
	for (int i = 0; i < 2; i++) { /* object b in "j", c in the log */
		buf_writer_init(&w, p, sizeof(p));
		buf_put_u8(&w, 0);
		buf_put_u16(&w, 0);
		buf_put_u8(&w, META_PUT);
		put_entry(&w, i ? 'c' : 'b');
		off += put_cmd(in + off, i ? CMD_LOG : CMD_REC, p, buf_written(&w));
	}
	run(in, off, &n, &res);
	if (res || n != 3)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool checked;
	size_t n = 0;
	TEE_Result res = 0;

	fse_init();
	if (!checked) {
		self_check();
		checked = true;
	}
	run(data, size, &n, &res);
	return 0;
}
