/*
 * Fuzzes the sweep of a store's REE directory (journal_sweep,
 * src/core/storage/sweep.c): the names a supplicant lists are hostile, and
 * only files of the engine's own forms that nothing refers to may go. The
 * input is
 *
 *   dir_seq:u64 n:u8, n file ids (16 bytes each: the objects of the
 *   store's directory), then the answers to LIST (len:u16 and the bytes
 *   put at the start of the window, one per call; see fse_listings)
 *
 * The oracle: no file of an object in the directory, no "j" and not the
 * snapshot d<dir_seq> is ever removed, and everything removed has one of
 * the names the engine writes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_storage_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SWEEP_OBJECTS 32

static const char kinds[] = {0, '1', '2', '3', 'a'};

static bool is_hex(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f')))
			return false;
	return true;
}

/* One of the names the engine gives its files: <fid>, <fid>.<kind>, d<seq>. */
static bool engine_name(const char *name)
{
	size_t len = strlen(name);

	if (len == 17 && name[0] == 'd')
		return is_hex(name + 1, 16);
	if (len == 2 * STOR_FID)
		return is_hex(name, len);
	return len == 2 * STOR_FID + 2 && is_hex(name, 2 * STOR_FID) && name[2 * STOR_FID] == '.' &&
	       memchr(kinds + 1, name[2 * STOR_FID + 1], 4);
}

static void check_removed(struct store *s)
{
	char keep[PROTO_FS_NAME_MAX + 1] = "";
	char name[PROTO_FS_NAME_MAX + 1];

	if (s->dir_seq)
		journal_dir_file(s->dir_seq, keep);
	for (size_t i = 0; i < fse_removed_count(); i++) {
		const char *gone = fse_removed(i);

		if (!engine_name(gone) || !strcmp(gone, keep))
			abort();
		for (size_t k = 0; k < s->n; k++) {
			for (size_t j = 0; j < sizeof(kinds); j++) {
				entry_file(s->sorted[k]->fid, kinds[j], name);
				if (!strcmp(gone, name))
					abort();
			}
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf_reader r;
	struct store *s = NULL;
	const uint8_t *lists = NULL;
	size_t left = 0;
	uint64_t dir_seq = 0;
	uint8_t n = 0;

	fse_init();
	fse_reset();
	buf_reader_init(&r, data, size);
	buf_get_u64(&r, &dir_seq);
	buf_get_u8(&r, &n);
	s = store_get(fse_uuid());
	if (!s)
		abort();
	s->fs = fse_fs();
	s->dir_seq = dir_seq;
	for (uint8_t i = 0; i < n && i < SWEEP_OBJECTS; i++) {
		struct stor_entry *e = NULL;

		if (buf_left(&r) < STOR_FID)
			break;
		e = entry_new();
		if (!e)
			abort();
		buf_get_bytes(&r, e->fid, STOR_FID);
		e->id_len = 1;
		e->id[0] = i;
		if (dir_insert(s, e))
			entry_free(e); /* the same fid twice */
	}
	/* A store on disk always has its journal; the rest is what the listings say. */
	fse_put("j", 0, "", 0);
	left = buf_left(&r);
	buf_get_ptr(&r, &lists, left);
	fse_listings(lists, left);
	journal_sweep(s);
	check_removed(s);
	reefs_settle(fse_fs());
	s->fs = NULL;
	store_put(s);
	return 0;
}
