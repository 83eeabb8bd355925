/*
 * The sweep of a store's REE directory, when the store is loaded: what
 * changes that never committed left behind. A transaction that writes a
 * new object's data in place (journal.h) creates its files before its
 * record; a crash or a failure before the commit point leaves them named
 * by no entry. A checkpoint cut off after its snapshot leaves a snapshot no
 * header names. Both are removed here.
 *
 * The supplicant's listing is hostile: names are copied out of the window,
 * must come strictly in order, and are only candidates. A file is removed
 * only when its name is one of the forms this engine writes and the
 * directory (authenticated, recovered) does not name it; anything else is
 * left alone. The sweep is best effort: a failure leaves garbage, not harm.
 */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "storage.h"

/* The most names one sweep looks at: every file of a full store, and then some. */
#define SWEEP_NAMES_MAX ((uint64_t)STOR_OBJECTS_MAX * 8 + 64)

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1; /* entry_file writes lower case only */
}

static bool hex_decode(const char *p, size_t n, uint8_t *out)
{
	for (size_t i = 0; i < n; i++) {
		int hi = hexval(p[2 * i]);
		int lo = hexval(p[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* Whether name can go back to the supplicant (proto.h: [0-9a-z.], no leading dot). */
static bool listable(const char *name)
{
	if (name[0] == '.')
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || *p == '.'))
			return false;
	return true;
}

/* True when name is a file of this engine's that nothing refers to. */
static bool is_garbage(struct store *s, const char *name, size_t len, const char *keep_dir)
{
	uint8_t fid[STOR_FID];
	uint8_t seq[8];

	if (len == 1 + 2 * sizeof(seq) && name[0] == 'd')
		return hex_decode(name + 1, sizeof(seq), seq) && strcmp(name, keep_dir) != 0;
	if (len != 2 * STOR_FID && len != 2 * STOR_FID + 2)
		return false;
	if (len == 2 * STOR_FID + 2) {
		char kind = name[2 * STOR_FID + 1];

		if (name[2 * STOR_FID] != '.' ||
		    (kind != '1' && kind != '2' && kind != '3' && kind != 'a'))
			return false;
	}
	return hex_decode(name, STOR_FID, fid) && !dir_find_fid(s, fid);
}

void journal_sweep(struct store *s)
{
	char after[PROTO_FS_NAME_MAX + 1] = "";
	char keep_dir[PROTO_FS_NAME_MAX + 1] = "";
	uint8_t *names = malloc(PROTO_FS_WINDOW);
	uint64_t seen = 0;
	uint32_t removed = 0;
	struct fsb list;
	struct fsb rm;
	bool more = true;

	if (!names)
		return;
	if (s->dir_seq)
		journal_dir_file(s->dir_seq, keep_dir);
	fsb_init(&rm, s->fs, s->dir);
	while (more && seen < SWEEP_NAMES_MAX) {
		uint32_t op = 0;
		uint32_t got = 0;
		size_t at = 0;

		/* The supplicant takes back only names of its form: past another, no paging. */
		if (!listable(after))
			break;
		fsb_init(&list, s->fs, s->dir);
		op = fsb_list(&list, after);
		if (fsb_run(&list))
			break;
		got = list.counts[op];
		memcpy(names, s->fs->win, got);
		more = false;
		while (at < got && seen < SWEEP_NAMES_MAX) {
			const char *name = (const char *)names + at;
			size_t len = strnlen(name, got - at);

			/* Unterminated, empty, too long or out of order: stop there. */
			if (len == got - at || !len || len > PROTO_FS_NAME_MAX ||
			    strcmp(name, after) <= 0)
				break;
			at += len + 1;
			seen++;
			memcpy(after, name, len + 1);
			more = true;
			if (!is_garbage(s, name, len, keep_dir))
				continue;
			if (!fsb_room(&rm, 1, 1 + PROTO_FS_NAME_MAX + 4) && fsb_run(&rm))
				goto out;
			fsb_remove(&rm, name);
			removed++;
		}
	}
	if (rm.nops && fsb_run(&rm))
		log_debug("storage: a sweep stopped short; the next load sweeps again");
out:
	if (removed)
		log_debug("storage: swept %u file(s) no committed state refers to", removed);
	free(names);
}
