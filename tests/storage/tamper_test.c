/*
 * storage-tamper: the tamper test of trusted storage.
 *
 * A TEE ("swtee run --state") fills the storage test TA's storage in two
 * rounds: objects of sizes that take every path of the engine (one block,
 * several, blocks written in place, an overwrite large enough for the REE
 * journal, small changes in the RPMB log), a copy of the state after the
 * first round being kept for the replay cases. Then, for every case, a copy
 * of the final state is damaged (a bit flipped, a file cut short, deleted,
 * swapped with another, or put back as it was after round one; REE files,
 * the RPMB slot, the HUK), and a TEE started on it reads every object twice.
 *
 * An object must read back whole and right, or fail with
 * TEE_ERROR_CORRUPT_OBJECT: never with other data. And the damage must be
 * seen: each case names the objects that must fail (all of them when the
 * journal, the directory or the RPMB slot is hit), and those that may.
 *
 * usage: storage-tamper --swtee PATH --state DIR
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_client.h"
#include "st_run.h"
#include "st_util.h"
#include "ta_storage.h"

#define NOBJ 5
#define MAX_SIZE (2u << 20)
#define CORRUPT 0xF0100001u /* TEE_ERROR_CORRUPT_OBJECT */

/* The objects: name, size after each round (distinct: the test finds files by size). */
static const struct {
	const char *name;
	uint32_t size1;
	uint32_t size2;
} objs[NOBJ] = {
    {"tiny", 10, 11},	     /* one short block: no map file */
    {"small", 5000, 5001},   /* two blocks and a map page */
    {"mid", 100000, 100000}, /* written in place (>= 64 KiB new) */
    {"big", 400000, 400000}, /* overwritten whole: an REE journal record */
    {"log", 20000, 20003},   /* changed last, in the RPMB log */
};

const char *const st_who = "storage-tamper";

/* The content of object i after round r. */
static void content(int i, int r, uint8_t *out, uint32_t *len)
{
	uint32_t n = r == 1 ? objs[i].size1 : objs[i].size2;

	for (uint32_t k = 0; k < n; k++)
		out[k] = ta_storage_pattern((uint32_t)(i * 16 + (r == 2 && k >= n / 2 ? 2 : 1)), k);
	*len = n;
}

/* ---- the client, inside "swtee run" ---- */

/*
 * The state with records pending ends with the creation of EXTRA, whose
 * data is written in place: its blocks are synced alongside its record.
 * A last record whose blocks did not land is dropped at recovery (its call
 * never returned; storage-crash gets there); once the call returned and
 * the core was idle, a record follows it, and damage to those blocks is
 * damage like any other.
 */
#define EXTRA "extra"
#define EXTRA_SIZE 102400

static void extra_content(uint8_t *out)
{
	for (uint32_t i = 0; i < EXTRA_SIZE; i++)
		out[i] = (uint8_t)(i * 13 + 5);
}

static int client_round(int r, bool pending)
{
	uint8_t *buf = malloc(MAX_SIZE);
	uint32_t len = 0;
	int rc = 1;

	if (!buf || st_init())
		goto out;
	for (int i = 0; i < NOBJ; i++) {
		content(i, r, buf, &len);
		if (r == 1) {
			if (st_create(objs[i].name, buf, len))
				goto out;
			continue;
		}
		/* Round two changes the second half, and grows some objects by a little. */
		if (st_write_at(objs[i].name, len / 2, buf + len / 2, len - len / 2))
			goto out;
	}
	/* The large one again, whole: more than the RPMB log takes. */
	content(3, r, buf, &len);
	if (st_write_at(objs[3].name, 0, buf, len))
		goto out;
	/* Then small changes, which stay in the RPMB log. */
	content(4, r, buf, &len);
	for (uint32_t off = 0; off < len; off += 4000)
		if (st_write_at(objs[4].name, off, buf + off, len - off < 4000 ? len - off : 4000))
			goto out;
	if (pending) {
		/* Last, a new object written in place: its blocks synced with its record. */
		extra_content(buf);
		if (st_create(EXTRA, buf, EXTRA_SIZE))
			goto out;
		/* Idle: the core confirms the record (a record after it). */
		usleep(300 * 1000);
		/* The driver kills the core now: records stay for the next load to replay. */
		printf("ready\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	st_fini();
	rc = 0;
out:
	free(buf);
	return rc;
}

/* Prints one line per object: its name, the result, and whether the data is right. */
static int client_verify(void)
{
	uint8_t *buf = malloc(MAX_SIZE);
	uint8_t *want = malloc(MAX_SIZE);
	TEEC_Result res = TEEC_SUCCESS;
	int rc = 1;

	if (!buf || !want)
		goto out;
	res = st_init();
	if (res) {
		printf("init %x\n", res);
		goto out;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < NOBJ; i++) {
			uint32_t wlen = 0;
			size_t len = 0;

			content(i, 2, want, &wlen);
			res = st_read_all(objs[i].name, buf, MAX_SIZE, &len);
			printf("%d %s %x %s\n", pass, objs[i].name, res,
			       res					 ? "-"
			       : len == wlen && !memcmp(buf, want, wlen) ? "right"
									 : "WRONG");
		}
	}
	{
		size_t len = 0;

		extra_content(want);
		res = st_read_all(EXTRA, buf, MAX_SIZE, &len);
		printf("0 %s %x %s\n", EXTRA, res,
		       res					      ? "-"
		       : len == EXTRA_SIZE && !memcmp(buf, want, len) ? "right"
								      : "WRONG");
	}
	st_fini();
	rc = 0;
out:
	free(buf);
	free(want);
	return rc;
}

/* ---- the driver ---- */

static const char *swtee;
static const char *self;
static char base[4096];

/* Starts the client in mode on state, its stdout into a pipe: the pipe's read end. */
static int start(const char *state, const char *mode, pid_t *pid)
{
	int pfd[2];

	if (pipe(pfd))
		st_die("pipe: %s", strerror(errno));
	*pid = fork();
	if (*pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execl(swtee, "swtee", "run", "--state", state, "--", self, "--client", mode,
		      (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	return pfd[0];
}

static int run(const char *state, const char *mode, char *out, size_t cap)
{
	pid_t pid = 0;
	int fd = start(state, mode, &pid);
	int status = 0;
	size_t n = 0;

	for (;;) {
		ssize_t k = read(fd, out + n, cap - 1 - n);

		if (k <= 0)
			break;
		n += (size_t)k;
	}
	out[n] = '\0';
	close(fd);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Round two, then the core killed: a state whose last records wait for replay. */
static void run_killed(const char *state)
{
	char line[64];
	pid_t pid = 0;
	pid_t core = 0;
	pid_t client = 0;
	FILE *f = fdopen(start(state, "round2k", &pid), "r");

	if (!f || !fgets(line, sizeof(line), f) || strcmp(line, "ready\n") != 0)
		st_die("round two (killed) failed");
	core = st_run_child(pid, "swteed");
	client = st_run_child(pid, "storage-tamper");
	/* Both must be there: kill(0) would end this test's own process group. */
	if (core <= 0 || client <= 0)
		st_die("round two (killed): the core or the client is not running");
	kill(core, SIGKILL);
	kill(client, SIGKILL);
	while (fgets(line, sizeof(line), f))
		;
	fclose(f);
	waitpid(pid, NULL, 0);
}

/* The TA store's REE dir and RPMB slot in a state dir. */
static void store_paths(const char *state, char *ree, char *rpmb)
{
	st_store_dir(state, ree, 4096);
	st_pathf(rpmb, 4096, "%s/secure/rpmb/%s", state, strrchr(ree, '/') + 1);
}

/*
 * A file of the store: the data file of the object of that size
 * ("data:SIZE"), its map ("map:SIZE"), the journal ("j"), the directory
 * snapshot ("dir"), or the RPMB slot ("rpmb").
 */
static void find(const char *state, const char *what, char *path)
{
	char ree[4096];
	char rpmb[4096];
	char p[4096 + 256];
	DIR *dir = NULL;
	struct dirent *e = NULL;
	struct stat st;
	bool map = !strncmp(what, "map:", 4);
	long size = strchr(what, ':') ? atol(strchr(what, ':') + 1) : -1;

	store_paths(state, ree, rpmb);
	if (!strcmp(what, "rpmb")) {
		st_pathf(path, 4096, "%s", rpmb);
		return;
	}
	if (!strcmp(what, "j")) {
		st_pathf(path, 4096, "%s/j", ree);
		return;
	}
	dir = opendir(ree);
	while (dir && (e = readdir(dir))) {
		size_t len = strlen(e->d_name);

		st_pathf(p, sizeof(p), "%s/%s", ree, e->d_name);
		if (e->d_name[0] == '.' || stat(p, &st))
			continue;
		if (!strcmp(what, "dir") && e->d_name[0] == 'd' && len == 17)
			break;
		if (size >= 0 && !map && len == 32 && st.st_size == size)
			break;
		/* A map page of 32-byte entries per block of 4096. */
		if (size >= 0 && map && len == 34 && e->d_name[33] == '1' &&
		    st.st_size == (size + 4095) / 4096 * 32)
			break;
	}
	if (!dir || !e)
		st_die("no file %s in %s", what, ree);
	closedir(dir);
	st_pathf(path, 4096, "%s", p);
}

static void flip(const char *path, long off)
{
	struct stat st;
	int fd = open(path, O_RDWR);
	uint8_t b = 0;

	if (fd < 0 || fstat(fd, &st) || !st.st_size)
		st_die("cannot damage %s", path);
	if (off < 0 || off >= st.st_size)
		off = st.st_size / 2;
	if (pread(fd, &b, 1, off) != 1)
		st_die("cannot read %s", path);
	b ^= 0x10;
	if (pwrite(fd, &b, 1, off) != 1)
		st_die("cannot write %s", path);
	close(fd);
}

struct tcase {
	const char *name;
	const char *file;   /* as find() names it */
	const char *action; /* flip[@off] truncate delete swap:FILE replay */
	uint32_t must;	    /* objects that must fail (bit i); ~0: all */
	uint32_t may;	    /* and those that may */
	uint32_t error;	    /* how they fail: 0 for TEE_ERROR_CORRUPT_OBJECT */
	bool pending;	    /* on the state with records since the checkpoint */
	uint32_t extra;	    /* what EXTRA must give: EXTRA_ANY, _RIGHT or _ABSENT */
};

enum { EXTRA_ANY, EXTRA_RIGHT, EXTRA_ABSENT, EXTRA_CORRUPT };

#define NOT_FOUND 0xFFFF0008u /* TEE_ERROR_ITEM_NOT_FOUND */

#define ALL 0x1fu
#define O(i) (1u << (i))

static const struct tcase cases[] = {
    {"bit in a one-block object", "data:11", "flip", O(0), 0, 0, false, EXTRA_ANY},
    {"bit in a two-block object", "data:5001", "flip", O(1), 0, 0, false, EXTRA_ANY},
    {"bit in an object written in place", "data:100000", "flip", O(2), 0, 0, false, EXTRA_ANY},
    {"bit in the REE-journalled object", "data:400000", "flip", O(3), 0, 0, false, EXTRA_ANY},
    {"bit in an object changed in the RPMB log", "data:20003", "flip", O(4), 0, 0, false,
     EXTRA_ANY},
    {"bit in a map page", "map:100000", "flip", O(2), 0, 0, false, EXTRA_ANY},
    {"object cut short", "data:400000", "truncate", O(3), 0, 0, false, EXTRA_ANY},
    {"map cut short", "map:400000", "truncate", O(3), 0, 0, false, EXTRA_ANY},
    {"object deleted", "data:5001", "delete", O(1), 0, 0, false, EXTRA_ANY},
    {"map deleted", "map:20003", "delete", O(4), 0, 0, false, EXTRA_ANY},
    {"two objects swapped", "data:5001", "swap:data:100000", O(1) | O(2), 0, 0, false, EXTRA_ANY},
    {"an object put back as it was", "data:100000", "replay", O(2), 0, 0, false, EXTRA_ANY},
    {"bit in the directory snapshot", "dir", "flip", ALL, 0, 0, false, EXTRA_ANY},
    {"directory snapshot deleted", "dir", "delete", ALL, 0, 0, false, EXTRA_ANY},
    {"bit in both journal headers", "j", "flip@40,4136", ALL, 0, 0, false, EXTRA_ANY},
    {"bit in the journal record", "j", "flip@8300", ALL, 0, 0, true, EXTRA_ANY},
    {"journal cut short", "j", "truncate@100", ALL, 0, 0, false, EXTRA_ANY},
    {"journal deleted", "j", "delete", ALL, 0, 0, false, EXTRA_ANY},
    {"all REE files put back as they were", "j", "replay-ree", ALL, 0, 0, false, EXTRA_ANY},
    {"journal put back as it was", "j", "replay", ALL, 0, 0, false, EXTRA_ANY},
    {"bit in both RPMB anchors", "rpmb", "flip@40,552", ALL, 0, 0, false, EXTRA_ANY},
    {"bit in the first RPMB log record", "rpmb", "flip@4200", ALL, 0, 0, true, EXTRA_ANY},
    {"RPMB log cut off", "rpmb", "truncate@4096", ALL, 0, 0, true, EXTRA_ANY},
    {"RPMB slot put back as it was, records pending", "rpmb", "replay", ALL, 0, 0, true, EXTRA_ANY},
    {"RPMB slot deleted", "rpmb", "delete", ALL, 0, 0, false, EXTRA_ANY},
    {"RPMB slot put back as it was", "rpmb", "replay", ALL, 0, 0, false, EXTRA_ANY},
    /* A returned call's blocks written in place: not to be taken back. */
    {"blocks written in place cut short", "data:102400", "truncate", 0, 0, 0, true, EXTRA_CORRUPT},
    /* Files no entry names are swept at load; files of other forms stay. */
    {"stray files added", "j", "stray", 0, 0, 0, false, EXTRA_ANY},
    /* Another HUK names another store: the TA finds none of its objects. */
    {"HUK lost (a new one is made)", "huk", "delete", ALL, 0, NOT_FOUND, false, EXTRA_ANY},
};

/* What the stray case adds to the store's directory, and whether it must stay. */
static const struct {
	const char *name;
	bool stays;
} strays[] = {
    {"00112233445566778899aabbccddeeff", false},   {"00112233445566778899aabbccddeeff.1", false},
    {"00112233445566778899aabbccddeeff.a", false}, {"d00000000000000ff", false},
    {"00112233445566778899AABBCCDDEEFF", true}, /* not a name the core writes */
    {"00112233445566778899aabbccddeeff.x", true},  {"notes.txt", true},
};

/* After the stray case: the sweep removed the core's forms only. */
static bool strays_swept(const char *state)
{
	char path[4096];
	bool ok = true;

	find(state, "j", path);
	*strrchr(path, '/') = '\0';
	for (size_t i = 0; i < sizeof(strays) / sizeof(strays[0]); i++) {
		char f[4096 + 64];
		struct stat st;
		bool there = false;

		st_pathf(f, sizeof(f), "%s/%s", path, strays[i].name);
		there = stat(f, &st) == 0;
		if (there != strays[i].stays) {
			fprintf(stderr, "  %s: %s\n", strays[i].name,
				there ? "not swept" : "swept, but not ours");
			ok = false;
		}
	}
	return ok;
}

static void apply_case(const char *state, const struct tcase *c)
{
	char path[4096];
	char other[4096];
	char old[4096];
	char oldstate[4096];

	st_pathf(oldstate, sizeof(oldstate), "%s/round1", base);
	if (!strcmp(c->file, "huk"))
		st_pathf(path, sizeof(path), "%s/secure/huk", state);
	else
		find(state, c->file, path);
	if (!strncmp(c->action, "flip", 4)) {
		const char *at = strchr(c->action, '@');

		flip(path, at ? atol(at + 1) : -1);
		if (at && strchr(at, ','))
			flip(path, atol(strchr(at, ',') + 1));
	} else if (!strncmp(c->action, "truncate", 8)) {
		struct stat st;
		const char *at = strchr(c->action, '@');

		if (stat(path, &st) || truncate(path, at ? atol(at + 1) : st.st_size / 2))
			st_die("cannot truncate %s", path);
	} else if (!strcmp(c->action, "delete")) {
		if (unlink(path))
			st_die("cannot delete %s", path);
	} else if (!strncmp(c->action, "swap:", 5)) {
		find(state, c->action + 5, other);
		st_run_sh_or_die("mv '%s' '%s.x' && mv '%s' '%s' && mv '%s.x' '%s'", path, path,
				 other, path, path, other);
	} else if (!strcmp(c->action, "replay")) {
		/* The same file of round one: same name unless it is a data file. */
		if (!strncmp(c->file, "data:", 5)) {
			char ree[4096];
			char rpmb[4096];
			const char *name = strrchr(path, '/') + 1;

			store_paths(oldstate, ree, rpmb);
			st_pathf(old, sizeof(old), "%s/%s", ree, name);
		} else if (!strcmp(c->file, "rpmb")) {
			char ree[4096];

			store_paths(oldstate, ree, old);
		} else {
			char ree[4096];
			char rpmb[4096];

			store_paths(oldstate, ree, rpmb);
			st_pathf(old, sizeof(old), "%s/%s", ree, strrchr(path, '/') + 1);
		}
		st_run_sh_or_die("cp -p '%s' '%s'", old, path);
	} else if (!strcmp(c->action, "stray")) {
		char *slash = strrchr(path, '/');

		*slash = '\0';
		for (size_t i = 0; i < sizeof(strays) / sizeof(strays[0]); i++)
			st_run_sh_or_die("echo junk > '%s/%s'", path, strays[i].name);
	} else if (!strcmp(c->action, "replay-ree")) {
		st_run_sh_or_die("rm -rf '%s/ree' && cp -a '%s/ree' '%s/ree'", state, oldstate,
				 state);
	} else {
		st_die("unknown action %s", c->action);
	}
}

/* Runs the verify client on state and checks what it says against the case. */
static bool check(const char *state, const struct tcase *c, bool clean, uint32_t extra)
{
	char out[8192];
	char *save = NULL;
	uint32_t failed[2] = {0, 0};
	bool ok = true;

	run(state, "verify", out, sizeof(out));
	if (!strncmp(out, "init", 4)) {
		fprintf(stderr, "  no session: %s", out);
		return false;
	}
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int pass = 0;
		char name[32];
		unsigned int res = 0;
		char what[16];
		int i = 0;

		if (sscanf(l, "%d %31s %x %15s", &pass, name, &res, what) != 4 || pass > 1)
			continue;
		if (!strcmp(name, EXTRA)) {
			if (!strcmp(what, "WRONG") ||
			    (extra == EXTRA_RIGHT && strcmp(what, "right") != 0) ||
			    (extra == EXTRA_ABSENT && res != NOT_FOUND) ||
			    (extra == EXTRA_CORRUPT && res != CORRUPT)) {
				fprintf(stderr, "  %s: 0x%x %s\n", name, res, what);
				ok = false;
			}
			continue;
		}
		for (i = 0; i < NOBJ && strcmp(objs[i].name, name) != 0; i++)
			;
		if (i == NOBJ)
			continue;
		if (!strcmp(what, "WRONG")) {
			fprintf(stderr, "  %s: WRONG DATA read back\n", name);
			ok = false;
		}
		if (res && res != (c && c->error ? c->error : CORRUPT)) {
			fprintf(stderr, "  %s: error 0x%x, not 0x%x\n", name, res,
				c && c->error ? c->error : CORRUPT);
			ok = false;
		}
		if (res)
			failed[pass] |= 1u << i;
	}
	if (clean) {
		if (failed[0] | failed[1]) {
			fprintf(stderr, "  undamaged storage failed: 0x%x\n",
				failed[0] | failed[1]);
			ok = false;
		}
		return ok;
	}
	for (int pass = 0; pass < 2; pass++) {
		if ((failed[pass] & c->must) != c->must) {
			fprintf(stderr, "  pass %d: damage not seen (failed 0x%x, must 0x%x)\n",
				pass, failed[pass], c->must);
			ok = false;
		}
		if (failed[pass] & ~(c->must | c->may)) {
			fprintf(stderr, "  pass %d: undamaged objects failed (0x%x)\n", pass,
				failed[pass] & ~(c->must | c->may));
			ok = false;
		}
	}
	return ok;
}

int main(int argc, char **argv)
{
	char out[8192];
	char r1[4096 + 16];
	char r2[4096 + 16];
	char rk[4096 + 16];
	char exe[4096];
	const char *state = NULL;
	int bad = 0;

	if (argc == 3 && !strcmp(argv[1], "--client")) {
		if (!strcmp(argv[2], "round1"))
			return client_round(1, false);
		if (!strcmp(argv[2], "round2"))
			return client_round(2, false);
		if (!strcmp(argv[2], "round2k"))
			return client_round(2, true);
		return client_verify();
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--swtee") && i + 1 < argc)
			swtee = argv[++i];
		else if (!strcmp(argv[i], "--state") && i + 1 < argc)
			state = argv[++i];
		else
			st_die("usage: storage-tamper --swtee PATH --state DIR");
	}
	if (!swtee || !state)
		st_die("usage: storage-tamper --swtee PATH --state DIR");
	if (st_run_self(exe, sizeof(exe)))
		st_die("cannot find myself");
	self = exe;
	st_pathf(base, sizeof(base), "%s", state);
	st_run_sh_or_die("rm -rf '%s' && mkdir -p '%s'", base, base);
	st_pathf(r1, sizeof(r1), "%s/round1", base);
	st_pathf(r2, sizeof(r2), "%s/round2", base);
	st_pathf(rk, sizeof(rk), "%s/pending", base);
	if (run(r1, "round1", out, sizeof(out)))
		st_die("round one failed");
	st_run_sh_or_die("cp -a '%s' '%s'", r1, r2);
	st_run_sh_or_die("cp -a '%s' '%s'", r1, rk);
	if (run(r2, "round2", out, sizeof(out)))
		st_die("round two failed");
	run_killed(rk);
	/* The undamaged state reads back right. */
	{
		char clean[4096 + 16];

		st_pathf(clean, sizeof(clean), "%s/clean", base);
		st_run_sh_or_die("cp -a '%s' '%s'", r2, clean);
		if (!check(clean, NULL, true, EXTRA_ABSENT))
			st_die("the undamaged storage does not read back");
		st_run_sh_or_die("rm -rf '%s' && cp -a '%s' '%s'", clean, rk, clean);
		if (!check(clean, NULL, true, EXTRA_RIGHT))
			st_die("the undamaged storage with records pending does not read back");
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char dir[4096 + 32];

		st_pathf(dir, sizeof(dir), "%s/case%zu", base, i);
		st_run_sh_or_die("cp -a '%s' '%s'", cases[i].pending ? rk : r2, dir);
		apply_case(dir, &cases[i]);
		if (check(dir, &cases[i], false, cases[i].extra) &&
		    (strcmp(cases[i].action, "stray") != 0 || strays_swept(dir))) {
			printf("ok   %s\n", cases[i].name);
		} else {
			printf("FAIL %s\n", cases[i].name);
			bad++;
		}
		fflush(stdout);
		st_run_sh_or_die("rm -rf '%s'", dir);
	}
	printf("storage-tamper: %zu cases, %d failed\n", sizeof(cases) / sizeof(cases[0]), bad);
	return bad ? 1 : 0;
}
