/*
 * storage-disk-full: trusted storage on a full disk.
 *
 * In a private mount namespace (ns.h; the test is skipped, exit 77, where
 * the host allows none), two state dirs get a small tmpfs:
 *
 * - the REE storage dir (STATE/ree-full/ree, 3 MiB): the storage TA
 *   creates objects until the disk is full, then appends to them, replaces
 *   them and rewrites them (small and large transactions) while it is.
 *   Every change that fails must fail with TEE_ERROR_STORAGE_NO_SPACE
 *   (origin the TA) and leave its object as it was (absent for a create);
 *   every change that returned reads back. Deleting objects makes room
 *   again: creates and appends work. A restart finds every object as
 *   committed; a second fill, a delete of everything and a last restart
 *   follow.
 * - the core's secure dir (STATE/secure-full/secure, 4.5 MiB with a 1 MiB
 *   file in the way): the RPMB slot of a second TA does not fit. Its first
 *   create fails with TEE_ERROR_STORAGE_NO_SPACE, nothing is left of the
 *   slot, the first TA is not affected; once the file is gone the second
 *   TA's storage works, and both survive a restart.
 * - the REE storage dir of a third state dir (3 MiB), full with a 1 MiB
 *   object among the others: that object is deleted and one of nearly its
 *   size created at once, while the supplicant still unlinks the deleted
 *   file in the background (the preload given with --slow-unlink holds
 *   that unlink for half a second). The create must work: a write that
 *   finds the disk full waits for the removals under way (ree_fs.c).
 *
 * usage: storage-disk-full --swtee PATH --state DIR [--slow-unlink LIB]
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ns.h"
#include "st_client.h"
#include "st_model.h"
#include "st_run.h"
#include "st_util.h"
#include "ta_storage.h"

#define REE_KIB 3072ul
#define SECURE_KIB 4608ul
#define FILLER_BYTES (1u << 20)
#define APPEND_BYTES 12000u
/* Past 256 KiB of images: a large transaction, through the REE journal. */
#define LARGE_REWRITE 280000u
/* Objects of no data, deleted when the RPMB log is full. */
#define EMPTY_OBJECTS 20u
/* How objects that differ from the model are said to differ (st_model_expect). */
#define NOT_AS_COMMITTED "not as committed"

const char *const st_who = "storage-disk-full";
static uint8_t *buf;
/* Changes that returned, and changes refused for lack of space. */
static unsigned int done;
static unsigned int refused;

/* ---- the client: runs inside "swtee run" ---- */

/*
 * A change that did not happen must have failed for lack of space, as GP
 * says and as the client API passes it on: TEEC_ERROR_STORAGE_NO_SPACE
 * from the TA.
 */
static void expect_no_space(TEEC_Result res, const char *what, const char *name)
{
	refused++;
	if (res != TEEC_ERROR_STORAGE_NO_SPACE)
		st_fail("%s of %s: 0x%08x (origin %u), not TEEC_ERROR_STORAGE_NO_SPACE", what, name,
			res, st_origin());
	else if (st_origin() != TEEC_ORIGIN_TRUSTED_APP)
		st_fail("%s of %s: TEEC_ERROR_STORAGE_NO_SPACE with origin %u, not the TA", what,
			name, st_origin());
}

/* What the last steps did, for the log of the test. */
static void tally(const char *what)
{
	printf("%s:   %s: %u done, %u refused for lack of space\n", st_who, what, done, refused);
	done = refused = 0;
}

/*
 * Creates objects prefix-N until the disk is full, then ever smaller ones
 * until a single block no longer fits.
 */
static void fill(struct st_model *m, const char *prefix, uint32_t seed0)
{
	static const uint32_t sizes[] = {70000, 4000, 150000, 20000, 9000, 300000, 40000, 1};
	unsigned int full = 0;
	uint32_t shrink = 0;

	for (uint32_t i = 0; i < 400 && m->n < ST_MODEL_MAX - 8; i++) {
		char name[32];
		uint32_t len = shrink ? shrink : sizes[i % (sizeof(sizes) / sizeof(sizes[0]))];
		TEEC_Result res = TEEC_SUCCESS;

		snprintf(name, sizeof(name), "%s-%03u", prefix, i);
		res = st_model_add(m, name, seed0 + i, len, buf);
		if (!res) {
			done++;
			continue;
		}
		expect_no_space(res, "a create", name);
		if (!st_model_check_one(name, NULL, st_who))
			st_failures++;
		full++;
		if (shrink && shrink <= 4096)
			break;
		shrink = len / 2 > 4096 ? len / 2 : 4096;
	}
	if (!full)
		st_fail("%s: the disk never filled up", prefix);
}

/* Appends to the first objects with data; each either grows or stays as it was. */
static void appends(struct st_model *m, size_t count)
{
	for (size_t i = 0; i < m->n && count; i++) {
		struct st_obj *o = &m->o[i];
		TEEC_Result res = TEEC_SUCCESS;

		if (!o->len || o->len + APPEND_BYTES > ST_MODEL_OBJ_MAX)
			continue;
		count--;
		st_model_fill(o, o->len, buf, APPEND_BYTES);
		res = st_write_at(o->name, o->len, buf, APPEND_BYTES);
		if (!res) {
			o->len += APPEND_BYTES;
			done++;
			continue;
		}
		expect_no_space(res, "an append", o->name);
		if (!st_model_check_one(o->name, o, st_who))
			st_failures++;
	}
}

/* Creates with OVERWRITE over existing objects, larger: replaced whole or not at all. */
static void replaces(struct st_model *m, size_t count, uint32_t seed0)
{
	for (size_t i = 0; i < m->n && i < count; i++) {
		struct st_obj *o = &m->o[m->n - 1 - i];
		uint32_t len = o->len + 50000 > ST_MODEL_OBJ_MAX ? o->len : o->len + 50000;
		TEEC_Result res = st_model_add(m, o->name, seed0 + (uint32_t)i, len, buf);

		if (!res) {
			done++;
			continue;
		}
		expect_no_space(res, "a replace", o->name);
		if (!st_model_check_one(o->name, o, st_who))
			st_failures++;
	}
}

/*
 * Rewrites the head of objects (data that is there already: a small
 * transaction, or a large one through the REE journal for len past 256 KiB).
 */
static void rewrites(struct st_model *m, size_t count, uint32_t len, uint32_t seed0)
{
	for (size_t i = 0; i < m->n && count; i++) {
		struct st_obj *o = &m->o[i];
		struct st_obj next = *o;
		TEEC_Result res = TEEC_SUCCESS;

		if (o->len < len || o->head_len > len)
			continue;
		count--;
		next.head_seed = seed0 + (uint32_t)i;
		next.head_len = len;
		st_model_fill(&next, 0, buf, len);
		res = st_write_at(o->name, 0, buf, len);
		if (!res) {
			*o = next;
			done++;
			continue;
		}
		expect_no_space(res, "a rewrite", o->name);
		if (!st_model_check_one(o->name, o, st_who))
			st_failures++;
	}
}

/*
 * Renames back and forth (records of a directory entry, no data) until
 * they are refused: GP has TEE_ERROR_STORAGE_NOT_AVAILABLE for a rename
 * that finds no room. The names end as they started.
 */
static void renames(struct st_model *m, uint32_t count)
{
	for (uint32_t k = 0; k < count && m->n; k++) {
		struct st_obj *o = &m->o[k % m->n];
		char to[sizeof(o->name)];
		TEEC_Result res = TEEC_SUCCESS;

		if (snprintf(to, sizeof(to), "%s.r", o->name) >= (int)sizeof(to))
			continue;
		res = st_rename(o->name, to);
		if (res == TEEC_ERROR_STORAGE_NOT_AVAILABLE &&
		    st_origin() == TEEC_ORIGIN_TRUSTED_APP) {
			refused++;
			break;
		}
		if (res) {
			st_fail("a rename of %s: 0x%08x (origin %u)", o->name, res, st_origin());
			return;
		}
		done++;
		res = st_rename(to, o->name);
		if (res == TEEC_ERROR_STORAGE_NOT_AVAILABLE &&
		    st_origin() == TEEC_ORIGIN_TRUSTED_APP) {
			/* It keeps its new name. */
			memcpy(o->name, to, sizeof(to));
			refused++;
			break;
		}
		if (res) {
			st_fail("%s cannot have its name back: 0x%08x (origin %u)", o->name, res,
				st_origin());
			return;
		}
		done++;
	}
	for (size_t i = 0; i < m->n; i++)
		if (!st_model_check_one(m->o[i].name, &m->o[i], st_who))
			st_failures++;
}

/* Deletes name, which must work whatever the disk; false when it does not. */
static bool free_one(struct st_model *m, const char *name)
{
	TEEC_Result res = st_delete(name);

	if (res) {
		st_fail("cannot delete %s on a full disk: 0x%08x (origin %u)", name, res,
			st_origin());
		return false;
	}
	done++;
	st_model_remove(m, name);
	if (!st_model_check_one(name, NULL, st_who))
		st_failures++;
	return true;
}

/* Deletes objects until at least bytes of data are gone. */
static void free_space(struct st_model *m, uint64_t bytes)
{
	uint64_t freed = 0;

	while (m->n && freed < bytes) {
		char name[32];

		snprintf(name, sizeof(name), "%s", m->o[0].name);
		freed += m->o[0].len;
		if (!free_one(m, name))
			return;
	}
}

static void check(const struct st_model *m, const char *when)
{
	st_model_expect(m, when, NOT_AS_COMMITTED);
}

static int c_fill(const char *path)
{
	static struct st_model m;

	/* Objects with no data have no REE files: deleting them frees nothing there. */
	for (uint32_t i = 0; i < EMPTY_OBJECTS; i++) {
		char name[32];

		snprintf(name, sizeof(name), "empty-%02u", i);
		if (st_model_add(&m, name, i, 0, buf))
			st_fail("cannot create %s", name);
	}
	fill(&m, "full", 1000);
	tally("creates until full");
	check(&m, "after the fill");
	appends(&m, 12);
	tally("appends");
	replaces(&m, 6, 5000);
	tally("larger replacements");
	rewrites(&m, 12, 3000, 6000);
	tally("rewrites of 3000 bytes");
	rewrites(&m, 3, LARGE_REWRITE, 7000);
	tally("rewrites of 280000 bytes");
	/* Enough small records to fill the RPMB log: its checkpoint needs REE space. */
	for (uint32_t k = 0; k < 24; k++)
		rewrites(&m, 20, 4096 + k, 9000 + 100 * k);
	tally("rewrites of 4 KiB, until the RPMB log is full");
	renames(&m, 2000);
	tally("renames, until not even they fit");
	/* The log is full and so is the disk: deleting must still work. */
	for (size_t i = 0; i < m.n;) {
		char name[sizeof(m.o[i].name)];

		memcpy(name, m.o[i].name, sizeof(name));
		if (strncmp(name, "empty-", 6) != 0)
			i++;
		else if (!free_one(&m, name))
			break;
	}
	tally("deletes of empty objects, with the RPMB log full");
	check(&m, "after changes on a full disk");
	free_space(&m, 1500u * 1024);
	tally("deletes of 1.5 MB of objects");
	check(&m, "after deletes");
	for (uint32_t i = 0; i < 4; i++) {
		char name[32];
		TEEC_Result res = TEEC_SUCCESS;

		snprintf(name, sizeof(name), "again-%u", i);
		res = st_model_add(&m, name, 8000 + i, 100000, buf);
		if (res)
			st_fail("after deletes, a create of 100000 bytes gave 0x%08x", res);
		else
			done++;
	}
	appends(&m, 2);
	tally("creates and appends after deletes");
	check(&m, "after creates in the space made");
	return st_model_finish(&m, path);
}

/* After a restart: full again, then everything deleted. */
static int c_cycle(const char *path)
{
	static struct st_model m;

	if (st_model_resume(&m, path))
		return 1;
	fill(&m, "cycle", 20000);
	tally("creates until full again");
	rewrites(&m, 4, 2000, 21000);
	tally("rewrites of 2000 bytes");
	check(&m, "full again");
	free_space(&m, UINT64_MAX);
	check(&m, "after deleting everything");
	for (uint32_t i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "last-%u", i);
		if (st_model_add(&m, name, 30000 + i, 200000, buf))
			st_fail("on an empty store, a create of 200000 bytes failed");
	}
	check(&m, "at the end");
	return st_model_finish(&m, path);
}

/* The slots in SWTEE_STATE_DIR/secure/rpmb: names, and whether a ".new" is left. */
static int slots(bool *leftover)
{
	char path[4096];
	const char *state = getenv("SWTEE_STATE_DIR");
	struct dirent *e = NULL;
	DIR *d = NULL;
	int n = 0;

	*leftover = false;
	snprintf(path, sizeof(path), "%s/secure/rpmb", state ? state : ".");
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (strstr(e->d_name, ".new"))
			*leftover = true;
		else
			n++;
	}
	closedir(d);
	return n;
}

static int session(const TEEC_UUID *uuid)
{
	TEEC_Result res = st_init_ta(uuid);

	if (res)
		st_fail("cannot open a session to the storage TA: 0x%08x", res);
	return res ? -1 : 0;
}

/* The secure dir holds one RPMB slot and no more. */
static int c_secure1(const char *path)
{
	static struct st_model m;
	static const uint32_t sizes[] = {10000, 100000, 300000};
	const TEEC_UUID one = TA_STORAGE_UUID;
	const TEEC_UUID two = TA_STORAGE2_UUID;
	bool leftover = false;
	TEEC_Result res = TEEC_SUCCESS;

	for (uint32_t i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "one-%u", i);
		if (st_model_add(&m, name, 40000 + i, sizes[i], buf))
			st_fail("the first TA cannot create %s", name);
	}
	st_fini();
	if (session(&two))
		return 1;
	res = st_model_create("two-0", 41000, 5000, buf);
	expect_no_space(res, "the second TA's first create", "two-0");
	res = st_model_create("two-0", 41000, 0, buf);
	expect_no_space(res, "the second TA's create of nothing", "two-0");
	st_fini();
	if (slots(&leftover) != 1 || leftover)
		st_fail("the secure dir should hold one RPMB slot, no partial one");
	if (session(&one))
		return 1;
	check(&m, "the first TA, with the secure dir full");
	if (st_model_add(&m, "one-3", 40003, 20000, buf))
		st_fail("the first TA cannot create one-3 with the secure dir full");
	return st_model_finish(&m, path);
}

/* Room again in the secure dir: the second TA's storage works. */
static int c_secure2(const char *path, const char *path2)
{
	static struct st_model m;
	static struct st_model m2;
	const TEEC_UUID two = TA_STORAGE2_UUID;
	bool leftover = false;

	if (st_model_resume(&m, path))
		return 1;
	check(&m, "the first TA, after a restart");
	st_fini();
	if (session(&two))
		return 1;
	if (st_model_add(&m2, "two-0", 41000, 5000, buf))
		st_fail("the second TA cannot create two-0 once there is room");
	check(&m2, "the second TA");
	if (slots(&leftover) != 2 || leftover)
		st_fail("the secure dir should hold two RPMB slots now");
	return st_model_finish(&m2, path2);
}

static int c_secure3(const char *path, const char *path2)
{
	static struct st_model m;
	static struct st_model m2;
	const TEEC_UUID two = TA_STORAGE2_UUID;

	if (st_model_load(&m, path) || st_model_load(&m2, path2)) {
		st_fail("cannot read the models");
		return 1;
	}
	check(&m, "the first TA, at the end");
	st_fini();
	if (session(&two))
		return 1;
	check(&m2, "the second TA, at the end");
	return st_failures ? 1 : 0;
}

/* A full disk with a 1 MiB object among the others. */
static int c_reapfill(const char *path)
{
	static struct st_model m;

	if (st_model_add(&m, "big", 50000, ST_MODEL_OBJ_MAX, buf))
		st_fail("cannot create an object of 1 MiB on an empty disk");
	fill(&m, "rf", 51000);
	tally("creates until full");
	check(&m, "after the fill");
	return st_model_finish(&m, path);
}

/* The 1 MiB object deleted, and one of nearly its size created in its space at once. */
static int c_reapswap(const char *path)
{
	static struct st_model m;
	TEEC_Result res = TEEC_SUCCESS;

	if (st_model_resume(&m, path))
		return 1;
	if (!free_one(&m, "big"))
		return 1;
	res = st_model_add(&m, "big2", 52000, ST_MODEL_OBJ_MAX - 65536, buf);
	if (res)
		st_fail("a create into the space of an object just deleted: 0x%08x (origin %u)",
			res, st_origin());
	check(&m, "after a delete and a create in its space");
	return st_model_finish(&m, path);
}

static int client_main(int argc, char **argv)
{
	static const struct st_mode modes[] = {
	    {.name = "fill", .run = c_fill},	     {.name = "cycle", .run = c_cycle},
	    {.name = "secure1", .run = c_secure1},   {.name = "secure2", .run2 = c_secure2},
	    {.name = "secure3", .run2 = c_secure3},  {.name = "reapfill", .run = c_reapfill},
	    {.name = "reapswap", .run = c_reapswap}, {.name = NULL},
	};

	return st_model_client(argc, argv, modes, NOT_AS_COMMITTED, &buf);
}

/* ---- the driver ---- */

static int filler(const char *path, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t written = 0;

	if (fd < 0)
		return -1;
	memset(buf, 0x5a, 65536);
	while (written < len) {
		ssize_t n = write(fd, buf, len - written < 65536 ? len - written : 65536);

		if (n <= 0) {
			close(fd);
			return -1;
		}
		written += (size_t)n;
	}
	return close(fd);
}

/* dir, made if need be, with a tmpfs of kib KiB on it: 0, or -1 with a SKIP line that says why. */
static int tmpfs_on(const char *dir, unsigned long kib)
{
	if (!st_run_sh("mkdir -p '%s'", dir) && !ns_tmpfs(dir, kib))
		return 0;
	printf("%s: SKIP: cannot mount a tmpfs on %s: %s\n", st_who, dir, strerror(errno));
	return -1;
}

/* The paths of one state dir of the test under top: TOP/NAME and beside it. */
struct run_paths {
	char state[4096];
	char ree[4200];
	char log[4200];
	char model[4200];
};

/* p for name, with a tmpfs of REE_KIB on its REE dir. 0, or NS_SKIP. */
static int ree_tmpfs(struct run_paths *p, const char *top, const char *name)
{
	st_pathf(p->state, sizeof(p->state), "%s/%s", top, name);
	st_pathf(p->ree, sizeof(p->ree), "%s/ree", p->state);
	st_pathf(p->log, sizeof(p->log), "%s/%s.log", top, name);
	st_pathf(p->model, sizeof(p->model), "%s/%s.model", top, name);
	return tmpfs_on(p->ree, REE_KIB) ? NS_SKIP : 0;
}

static int run_ree(const char *swtee, const char *top)
{
	static struct run_paths p;
	const char *state = p.state;
	const char *log = p.log;
	const char *model = p.model;

	if (ree_tmpfs(&p, top, "ree-full"))
		return NS_SKIP;
	{
		const char *const fill_args[] = {"fill", model, NULL};
		const char *const verify_args[] = {"verify", model, NULL};
		const char *const cycle_args[] = {"cycle", model, NULL};

		if (!st_run_step(swtee, state, log, "REE dir full: fill, change, delete, refill",
				 fill_args) ||
		    !st_run_step(swtee, state, log, "REE dir full: after a restart", verify_args) ||
		    !st_run_step(swtee, state, log, "REE dir full: full again, then emptied",
				 cycle_args) ||
		    !st_run_step(swtee, state, log, "REE dir full: after the last restart",
				 verify_args))
			return 1;
	}
	return 0;
}

/*
 * The space of a large file the supplicant still unlinks in the background.
 * The step in the middle runs with lib preloaded (LD_PRELOAD): it holds the
 * unlink of trash names for half a second.
 */
static int run_reap(const char *swtee, const char *top, const char *lib)
{
	static struct run_paths p;
	const char *state = p.state;
	const char *log = p.log;
	char asan[4096];
	const char *const fill_args[] = {"reapfill", p.model, NULL};
	const char *const swap_args[] = {"reapswap", p.model, NULL};
	const char *const verify_args[] = {"verify", p.model, NULL};
	bool ok = false;

	if (ree_tmpfs(&p, top, "reap-full"))
		return NS_SKIP;
	if (!st_run_step(swtee, state, log, "removal under way: full, with 1 MiB to delete",
			 fill_args))
		return 1;
	/* A sanitizer runtime wants to come first; the preload is only a shim. */
	st_pathf(asan, sizeof(asan), "%s%sverify_asan_link_order=0",
		 getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "",
		 getenv("ASAN_OPTIONS") ? ":" : "");
	if (setenv("LD_PRELOAD", lib, 1) || setenv("ASAN_OPTIONS", asan, 1))
		st_die("cannot set the environment for the preload");
	ok = st_run_step(swtee, state, log,
			 "removal under way: a delete, and a create in its space", swap_args);
	unsetenv("LD_PRELOAD");
	if (!ok ||
	    !st_run_step(swtee, state, log, "removal under way: after a restart", verify_args))
		return 1;
	return 0;
}

static int run_secure(const char *swtee, const char *top)
{
	char state[4096];
	char secure[4200];
	char fill_path[4300];
	char log[4200];
	char model[4200];
	char model2[4200];

	snprintf(state, sizeof(state), "%s/secure-full", top);
	snprintf(secure, sizeof(secure), "%s/secure", state);
	snprintf(fill_path, sizeof(fill_path), "%s/filler", secure);
	snprintf(log, sizeof(log), "%s/secure-full.log", top);
	snprintf(model, sizeof(model), "%s/secure-full.model", top);
	snprintf(model2, sizeof(model2), "%s/secure-full.model2", top);
	if (tmpfs_on(secure, SECURE_KIB))
		return NS_SKIP;
	if (filler(fill_path, FILLER_BYTES)) {
		fprintf(stderr, "%s: cannot write %s\n", st_who, fill_path);
		return 1;
	}
	{
		const char *const one[] = {"secure1", model, NULL};
		const char *const two[] = {"secure2", model, model2, NULL};
		const char *const three[] = {"secure3", model, model2, NULL};

		if (!st_run_step(swtee, state, log,
				 "secure dir full: a second RPMB slot does not fit", one))
			return 1;
		unlink(fill_path);
		if (!st_run_step(swtee, state, log, "secure dir full: room again", two) ||
		    !st_run_step(swtee, state, log, "secure dir full: after a restart", three))
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *swtee = NULL;
	const char *top = NULL;
	const char *slow_unlink = NULL;
	int rc = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--client"))
		return client_main(argc, argv);
	slow_unlink = st_arg(argc, argv, "--slow-unlink");
	rc = ns_start(argc, argv, &swtee, &top);
	if (rc)
		return rc;
	buf = malloc(ST_MODEL_OBJ_MAX);
	if (!buf)
		return 1;
	rc = run_ree(swtee, top);
	if (!rc)
		rc = run_secure(swtee, top);
	if (!rc && slow_unlink)
		rc = run_reap(swtee, top, slow_unlink);
	free(buf);
	if (!rc)
		printf("%s: passed\n", st_who);
	return rc;
}
