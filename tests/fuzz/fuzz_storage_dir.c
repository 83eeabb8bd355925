/*
 * Fuzzes the directory snapshot d<seq> a store is recovered from (dir_load
 * in src/core/storage/journal.c, entry_get in dir.c): the input is a
 * snapshot as jb_snapshot takes it (fuzz_storage_env.h), which a sealed
 * header of "j" names and pins and the RPMB anchor anchors, so that every
 * input reaches the snapshot:
 *
 *   mode:u8 seq:u64, then with mode 1 the file as it is (its head is
 *   parsed once its hash matched, before the tag is checked), else
 *   tset:u8 toff:u64 tree:u64 and the entries in clear, sealed under the
 *   test K_dir (mode 2: the head miscounts them by one)
 *
 * A directory that loads is then used: a few objects are opened and read
 * (their map and data files are absent, or whatever the roots and sizes
 * make of it), then the store goes idle.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_storage_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static TEE_Result run(const uint8_t *data, size_t size, size_t *n)
{
	static const uint8_t hdr[] = {0, 0x10, 1, 0, 0, 0, 0, 0, 0, 0}; /* slot 0, seq 1 */
	struct jb b;

	fse_reset();
	jb_init(&b);
	jb_snapshot(&b, data, size);
	jb_header(&b, hdr, sizeof(hdr));
	jb_finish(&b);
	return fse_load(true, n);
}

/* Two objects in a snapshot must load: otherwise the builders no longer match the engine. */
static void self_check(void)
{
	static uint8_t fek[STOR_KEY];
	uint8_t in[1 + 8 + 1 + 8 + 8 + 2 * ENTRY_BYTES];
	struct stor_entry e = {.fek = fek, .id_len = 2, .size = 5000};
	struct buf_writer w;
	size_t n = 0;

	buf_writer_init(&w, in, sizeof(in));
	buf_put_u8(&w, 0);
	buf_put_u64(&w, 7);
	buf_put_u8(&w, 1);
	buf_put_u64(&w, 1000);
	buf_put_u64(&w, 2000);
	for (int i = 0; i < 2; i++) {
		memset(e.fid, 0x30 + i, STOR_FID);
		memset(e.id, 'x' + i, e.id_len);
		entry_put(&w, &e);
	}
	if (run(in, buf_written(&w), &n) || n != 2)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool checked;
	size_t n = 0;

	fse_init();
	if (!checked) {
		self_check();
		checked = true;
	}
	run(data, size, &n);
	return 0;
}
