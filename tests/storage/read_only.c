/*
 * storage-read-only: trusted storage on read-only file systems.
 *
 * In a private mount namespace (ns.h; the test is skipped, exit 77, where
 * the host allows none), the objects of the storage test TA, made on a
 * writable state dir, are used with the REE storage dir bound read-only,
 * then with the core's secure dir bound read-only:
 *
 * - the TEE starts, every object reads back and enumerates as it was;
 * - every change (create, replace, write, append, truncate, rename, delete,
 *   and the first create of a TA with no store yet) fails with
 *   TEE_ERROR_STORAGE_NOT_AVAILABLE from the TA, which lives on: no panic,
 *   no TEEC_ERROR_TARGET_DEAD, and nothing changed;
 * - the core says why in its log ("storage of TA ... is read-only: ...").
 *
 * Writable again, changes work and survive a restart. Last, a state dir
 * whose secure dir is read-only before the core ever ran (no HUK yet): the
 * core starts, TAs load, storage is off with a message that says why, and
 * creates fail with TEE_ERROR_STORAGE_NOT_AVAILABLE.
 *
 * usage: storage-read-only --swtee PATH --state DIR
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ns.h"
#include "st_client.h"
#include "st_model.h"
#include "st_run.h"
#include "st_util.h"
#include "ta_storage.h"

/* How objects that differ from the model are said to differ (st_model_expect). */
#define NOT_AS_THEY_WERE "not as they were"

const char *const st_who = "storage-read-only";
static uint8_t *buf;

/* ---- the client: runs inside "swtee run" ---- */

static void expect_refused(TEEC_Result res, const char *what)
{
	if (res == TEEC_ERROR_STORAGE_NOT_AVAILABLE && st_origin() == TEEC_ORIGIN_TRUSTED_APP)
		return;
	st_fail("%s: 0x%08x (origin %u), not TEEC_ERROR_STORAGE_NOT_AVAILABLE from the TA", what,
		res, st_origin());
}

static void check(const struct st_model *m, const char *when)
{
	st_model_expect(m, when, NOT_AS_THEY_WERE);
}

/* The objects the other runs find. */
static int c_make(const char *path)
{
	static struct st_model m;
	static const uint32_t sizes[] = {0, 5000, 70000, 300000, 4096};

	for (uint32_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char name[32];

		snprintf(name, sizeof(name), "ro-%u", i);
		if (st_model_add(&m, name, 100 + i, sizes[i], buf))
			st_fail("cannot create %s", name);
	}
	check(&m, "after the creates");
	return st_model_finish(&m, path);
}

/* Everything reads back; no change gets through, and the TA lives on. */
static int c_readonly(const char *path)
{
	static struct st_model m;
	const TEEC_UUID two = TA_STORAGE2_UUID;
	struct st_obj *big = NULL;
	TEEC_Result res = TEEC_SUCCESS;

	if (st_model_resume(&m, path))
		return 1;
	check(&m, "read-only, before any change");
	big = st_model_find(&m, "ro-3");
	if (!big)
		return 1;
	expect_refused(st_model_create("ro-new", 7, 1000, buf), "a create");
	expect_refused(st_model_create("ro-new-empty", 7, 0, buf), "a create of no data");
	expect_refused(st_model_create("ro-1", 8, 9000, buf), "a replace");
	st_model_fill(big, 0, buf, 100);
	buf[0] ^= 0xff;
	expect_refused(st_write_at("ro-3", 0, buf, 100), "a write over data");
	st_model_fill(big, big->len, buf, 5000);
	expect_refused(st_write_at("ro-3", big->len, buf, 5000), "an append");
	expect_refused(st_truncate("ro-2", 10), "a truncation");
	expect_refused(st_rename("ro-4", "ro-renamed"), "a rename");
	expect_refused(st_delete("ro-1"), "a delete");
	/* The TA is alive, and nothing changed. */
	check(&m, "read-only, after the refused changes");
	st_fini();
	res = st_init_ta(&two);
	if (res) {
		st_fail("cannot open a session to the second storage TA: 0x%08x", res);
		return 1;
	}
	expect_refused(st_model_create("two-0", 9, 100, buf),
		       "the first create of a TA with no store");
	st_fini();
	if (st_init()) {
		st_fail("the storage TA does not open again");
		return 1;
	}
	check(&m, "read-only, at the end");
	return st_failures ? 1 : 0;
}

/* Writable again: changes work. */
static int c_writable(const char *path)
{
	static struct st_model m;
	struct st_obj *o = NULL;

	if (st_model_resume(&m, path))
		return 1;
	check(&m, "writable again");
	o = st_model_find(&m, "ro-2");
	if (o) {
		st_model_fill(o, o->len, buf, 3000);
		if (st_write_at("ro-2", o->len, buf, 3000))
			st_fail("cannot append to ro-2");
		else
			o->len += 3000;
	}
	if (st_delete("ro-1"))
		st_fail("cannot delete ro-1");
	else
		st_model_remove(&m, "ro-1");
	if (st_model_add(&m, "ro-5", 105, 20000, buf))
		st_fail("cannot create ro-5");
	check(&m, "after changes");
	return st_model_finish(&m, path);
}

/* No HUK, and no way to make one: the TA loads, storage is off. */
static int c_nohuk(const char *path)
{
	(void)path;
	expect_refused(st_model_create("nohuk", 1, 100, buf), "a create without storage keys");
	return st_failures ? 1 : 0;
}

static int client_main(int argc, char **argv)
{
	static const struct st_mode modes[] = {
	    {.name = "make", .run = c_make},
	    {.name = "readonly", .run = c_readonly},
	    {.name = "writable", .run = c_writable},
	    {.name = "nohuk", .run = c_nohuk},
	    {.name = NULL},
	};

	return st_model_client(argc, argv, modes, NOT_AS_THEY_WERE, &buf);
}

/* ---- the driver ---- */

/* Whether the file has a line with every one of the NULL-terminated words. */
static bool log_has(const char *path, const char *const words[])
{
	char line[2048];
	bool found = false;
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		found = true;
		for (size_t i = 0; words[i] && found; i++)
			found = strstr(line, words[i]) != NULL;
	}
	fclose(f);
	return found;
}

/* The log of a run must say something; false (and the log) when not. */
static bool expect_log(const char *log, const char *what, const char *const words[])
{
	if (log_has(log, words))
		return true;
	fprintf(stderr, "%s: the log does not say %s\n", st_who, what);
	st_run_tail(log, 40);
	return false;
}

/* Never a crash, a panic or a dead TA in the log. */
static bool calm_log(const char *log)
{
	static const char *const bad[][2] = {
	    {"panic", NULL}, {"TARGET_DEAD", NULL}, {"killed by signal", NULL}, {"ERROR: ", NULL}};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (log_has(log, bad[i])) {
			fprintf(stderr, "%s: the log has \"%s\"\n", st_who, bad[i][0]);
			st_run_tail(log, 40);
			return false;
		}
	}
	return true;
}

static int readonly_dir(const char *dir, bool ro)
{
	if (!ns_readonly(dir, ro))
		return 0;
	fprintf(stderr, "%s: cannot make %s %s: %s\n", st_who, dir, ro ? "read-only" : "writable",
		strerror(errno));
	return -1;
}

static int run(const char *swtee, const char *top)
{
	static const char *const ree_words[] = {"swteed:", "is read-only",
						"supplicant's storage dir", NULL};
	static const char *const secure_words[] = {"swteed:", "is read-only", "RPMB slot", NULL};
	static const char *const nohuk_words[] = {"swteed:", "nohuk/secure",
						  "Read-only file system", NULL};
	static const char *const off_words[] = {"swteed:", "trusted storage is off", NULL};
	char state[4096];
	char ree[4200];
	char secure[4200];
	char nohuk[4200];
	char nohuk_secure[4300];
	/* A log per run, new in the emptied top dir: expect_log reads that run's lines alone. */
	char log[6][4200];
	char model[4200];
	const char *const make[] = {"make", model, NULL};
	const char *const readonly[] = {"readonly", model, NULL};
	const char *const writable[] = {"writable", model, NULL};
	const char *const verify[] = {"verify", model, NULL};
	const char *const nohuk_args[] = {"nohuk", NULL};

	snprintf(state, sizeof(state), "%s/state", top);
	snprintf(ree, sizeof(ree), "%s/ree", state);
	snprintf(secure, sizeof(secure), "%s/secure", state);
	snprintf(nohuk, sizeof(nohuk), "%s/nohuk", top);
	snprintf(nohuk_secure, sizeof(nohuk_secure), "%s/secure", nohuk);
	for (int i = 0; i < 6; i++)
		snprintf(log[i], sizeof(log[i]), "%s/run%d.log", top, i);
	snprintf(model, sizeof(model), "%s/model", top);
	if (!st_run_step(swtee, state, log[0], "objects made", make))
		return 1;
	if (readonly_dir(ree, true))
		return NS_SKIP;
	if (!st_run_step(swtee, state, log[1], "REE dir read-only", readonly) ||
	    !expect_log(log[1], "that the store is read-only", ree_words) || !calm_log(log[1]))
		return 1;
	if (readonly_dir(ree, false) || readonly_dir(secure, true))
		return 1;
	if (!st_run_step(swtee, state, log[2], "secure dir read-only", readonly) ||
	    !expect_log(log[2], "that the store is read-only", secure_words) || !calm_log(log[2]))
		return 1;
	if (readonly_dir(secure, false))
		return 1;
	if (!st_run_step(swtee, state, log[3], "writable again", writable) ||
	    !st_run_step(swtee, state, log[4], "after a restart", verify))
		return 1;
	if (st_run_sh("mkdir -p '%s'", nohuk_secure) || readonly_dir(nohuk_secure, true))
		return 1;
	if (!st_run_step(swtee, nohuk, log[5], "secure dir read-only before the first start",
			 nohuk_args) ||
	    !expect_log(log[5], "why there are no storage keys", nohuk_words) ||
	    !expect_log(log[5], "that storage is off", off_words) || !calm_log(log[5]))
		return 1;
	readonly_dir(nohuk_secure, false);
	return 0;
}

int main(int argc, char **argv)
{
	const char *swtee = NULL;
	const char *top = NULL;
	int rc = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--client"))
		return client_main(argc, argv);
	rc = ns_start(argc, argv, &swtee, &top);
	if (rc)
		return rc;
	rc = run(swtee, top);
	if (rc == NS_SKIP)
		printf("%s: SKIP: read-only bind mounts are not allowed here\n", st_who);
	else if (!rc)
		printf("%s: passed\n", st_who);
	return rc;
}
