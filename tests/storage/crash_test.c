/*
 * storage-crash: the crash-consistency test of trusted storage.
 *
 * Each trial starts a TEE with "swtee run --state DIR" around this program
 * in client mode, which first dumps every object of the storage test TA
 * (that is the check of the trial before), then runs a script of random
 * changes (create, write at an offset, truncate, rename, delete), saying
 * on a pipe when each begins and ends. The driver kills the core or the
 * supplicant with SIGKILL at a random moment of a random change, lets the
 * run end, and starts the next trial on the same state.
 *
 * The driver keeps a model of what every object must hold. A change that
 * finished is in it; the one cut off may have happened or not, wholly: the
 * next dump must match the model with that change either absent or
 * complete, for every object it touches (a rename touches two), and every
 * other object exactly. Any other content, an object that cannot be read,
 * or an object too many fails the test.
 *
 * usage: storage-crash --swtee PATH --state DIR [--trials N] [--seed S]
 *                      [--scenario replay-truncate]
 * The trial count defaults to $SWTEE_CRASH_TRIALS, else 200. A scenario
 * runs scripted trials instead, each killing the core at a set change
 * (struct plan), then the clean run that checks the last.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "st_client.h"
#include "st_run.h"
#include "st_util.h"
#include "ta_storage.h"

#define NOBJ 6
#define OPS_PER_TRIAL 8
#define MAX_SIZE (1u << 20)
#define CHUNK (1u << 20)
#define USAGE                                                                                      \
	"usage: storage-crash --swtee PATH --state DIR [--trials N] [--seed S] [--scenario "       \
	"replay-truncate]"

enum op_kind { OP_CREATE, OP_WRITE, OP_TRUNC, OP_RENAME, OP_DELETE };

struct op {
	enum op_kind kind;
	int id;
	int to; /* rename */
	uint32_t seed;
	uint32_t off;
	uint32_t len;
};

struct obj {
	bool exists;
	uint8_t *data;
	uint32_t len;
};

const char *const st_who = "storage-crash";

static void obj_name(int i, char out[16])
{
	snprintf(out, 16, "crash-%d", i);
}

/* ---- the client: runs inside "swtee run" ---- */

static uint8_t *iobuf;

static void fill(uint8_t *p, uint32_t seed, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = ta_storage_pattern(seed, i);
}

static TEEC_Result c_run(const struct op *o)
{
	char name[16];
	char to[16];

	obj_name(o->id, name);
	switch (o->kind) {
	case OP_CREATE:
		fill(iobuf, o->seed, o->len);
		return st_create(name, iobuf, o->len);
	case OP_WRITE:
		fill(iobuf, o->seed, o->len);
		return st_write_at(name, o->off, iobuf, o->len);
	case OP_TRUNC:
		return st_truncate(name, o->len);
	case OP_RENAME:
		obj_name(o->to, to);
		return st_rename(name, to);
	case OP_DELETE:
		return st_delete(name);
	}
	return TEEC_ERROR_BAD_PARAMETERS;
}

/*
 * Every object, as u32 index, u32 result, u32 len, data; then 0xffffffff
 * and how many objects the TA has in all.
 */
static void c_dump(FILE *out)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < NOBJ; i++) {
		char name[16];
		size_t len = 0;
		TEEC_Result res = TEEC_SUCCESS;
		uint32_t len32 = 0;

		obj_name((int)i, name);
		res = st_read_all(name, iobuf, MAX_SIZE + CHUNK, &len);
		if (res == TEEC_ERROR_ITEM_NOT_FOUND)
			continue;
		len32 = (uint32_t)len;
		fwrite(&i, 4, 1, out);
		fwrite(&res, 4, 1, out);
		fwrite(&len32, 4, 1, out);
		fwrite(iobuf, 1, len, out);
	}
	st_count(&n);
	fwrite(&(uint32_t){0xffffffff}, 4, 1, out);
	fwrite(&n, 4, 1, out);
}

static int client_main(int argc, char **argv)
{
	struct op ops[OPS_PER_TRIAL];
	FILE *script = NULL;
	FILE *dump = NULL;
	int pfd = -1;
	size_t n = 0;

	if (argc != 5)
		return 2;
	pfd = atoi(argv[4]);
	iobuf = malloc(MAX_SIZE + CHUNK);
	if (!iobuf || st_init()) {
		dprintf(pfd, "X\n");
		return 1;
	}
	dump = fopen(argv[3], "we");
	if (!dump)
		return 1;
	c_dump(dump);
	fclose(dump);
	dprintf(pfd, "V\n");
	script = fopen(argv[2], "re");
	if (!script)
		return 1;
	n = fread(ops, sizeof(ops[0]), OPS_PER_TRIAL, script);
	fclose(script);
	for (size_t k = 0; k < n; k++) {
		TEEC_Result res = TEEC_SUCCESS;

		dprintf(pfd, "B %zu\n", k);
		res = c_run(&ops[k]);
		if (res) {
			dprintf(pfd, "E %zu %x\n", k, res);
			break;
		}
		dprintf(pfd, "D %zu\n", k);
	}
	st_fini();
	return 0;
}

/* ---- the driver ---- */

static struct obj model[NOBJ];
static bool verbose;
/* The change of the last trial that may or may not have happened. */
static bool doubt;
static struct op doubt_op;

static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)(random() % n) : 0;
}

static void obj_set(struct obj *o, const uint8_t *p, uint32_t len)
{
	free(o->data);
	o->data = malloc(len ? len : 1);
	if (!o->data)
		st_die("out of memory");
	memcpy(o->data, p, len);
	o->len = len;
	o->exists = true;
}

/* m after op. */
static void apply(struct obj *m, const struct op *o)
{
	uint8_t *buf = NULL;
	uint32_t len = 0;

	switch (o->kind) {
	case OP_CREATE:
		buf = malloc(o->len ? o->len : 1);
		if (!buf)
			st_die("out of memory");
		fill(buf, o->seed, o->len);
		obj_set(&m[o->id], buf, o->len);
		break;
	case OP_WRITE:
		len = m[o->id].len > o->off + o->len ? m[o->id].len : o->off + o->len;
		buf = calloc(1, len ? len : 1);
		if (!buf)
			st_die("out of memory");
		memcpy(buf, m[o->id].data, m[o->id].len);
		fill(buf + o->off, o->seed, o->len);
		obj_set(&m[o->id], buf, len);
		break;
	case OP_TRUNC:
		buf = calloc(1, o->len ? o->len : 1);
		if (!buf)
			st_die("out of memory");
		memcpy(buf, m[o->id].data, m[o->id].len < o->len ? m[o->id].len : o->len);
		obj_set(&m[o->id], buf, o->len);
		break;
	case OP_RENAME:
		obj_set(&m[o->to], m[o->id].data, m[o->id].len);
		free(m[o->id].data);
		m[o->id].data = NULL;
		m[o->id].len = 0;
		m[o->id].exists = false;
		break;
	case OP_DELETE:
		free(m[o->id].data);
		m[o->id].data = NULL;
		m[o->id].len = 0;
		m[o->id].exists = false;
		break;
	}
	free(buf);
}

static void model_copy(struct obj *dst, const struct obj *src)
{
	for (int i = 0; i < NOBJ; i++) {
		dst[i].exists = src[i].exists;
		dst[i].len = src[i].len;
		dst[i].data = NULL;
		if (src[i].exists) {
			dst[i].data = malloc(src[i].len ? src[i].len : 1);
			if (!dst[i].data)
				st_die("out of memory");
			memcpy(dst[i].data, src[i].data, src[i].len);
		}
	}
}

static void model_free(struct obj *m)
{
	for (int i = 0; i < NOBJ; i++) {
		free(m[i].data);
		m[i].data = NULL;
		m[i].exists = false;
	}
}

/* A random change that is valid on m. */
static void gen(const struct obj *m, struct op *o)
{
	static const uint32_t sizes[] = {0, 1, 100, 4095, 4096, 5000, 40000, 70000, 200000, 300000};
	int live[NOBJ];
	int dead[NOBJ];
	int nl = 0;
	int nd = 0;

	for (int i = 0; i < NOBJ; i++) {
		if (m[i].exists)
			live[nl++] = i;
		else
			dead[nd++] = i;
	}
	memset(o, 0, sizeof(*o));
	o->seed = (uint32_t)random();
	o->kind = nl ? (enum op_kind)rnd(5) : OP_CREATE;
	if (o->kind == OP_RENAME && !nd)
		o->kind = OP_WRITE;
	switch (o->kind) {
	case OP_CREATE:
		o->id = (int)rnd(NOBJ);
		o->len = sizes[rnd(sizeof(sizes) / sizeof(sizes[0]))] + rnd(100);
		break;
	case OP_WRITE:
		o->id = live[rnd((uint32_t)nl)];
		o->off = rnd(m[o->id].len + 9000);
		o->len = 1 + rnd(rnd(4) ? 5000 : 320000);
		if (o->off + o->len > MAX_SIZE)
			o->len = MAX_SIZE - o->off;
		break;
	case OP_TRUNC:
		o->id = live[rnd((uint32_t)nl)];
		o->len = rnd(2) ? rnd(m[o->id].len + 1) : m[o->id].len + rnd(300000);
		if (o->len > MAX_SIZE)
			o->len = MAX_SIZE;
		break;
	case OP_RENAME:
		o->id = live[rnd((uint32_t)nl)];
		o->to = dead[rnd((uint32_t)nd)];
		break;
	case OP_DELETE:
		o->id = live[rnd((uint32_t)nl)];
		break;
	}
}

struct seen {
	bool exists;
	uint32_t res;
	uint8_t *data;
	uint32_t len;
};

static bool matches(const struct obj *m, const struct seen *s, const bool *which)
{
	for (int i = 0; i < NOBJ; i++) {
		if (!which[i])
			continue;
		if (m[i].exists != s[i].exists)
			return false;
		if (m[i].exists && (s[i].res || m[i].len != s[i].len ||
				    memcmp(m[i].data, s[i].data, m[i].len) != 0))
			return false;
	}
	return true;
}

static void describe(const char *what, const struct obj *m, const struct seen *s)
{
	for (int i = 0; i < NOBJ; i++) {
		uint32_t diff = 0;

		if (m[i].exists && s[i].exists && !s[i].res)
			for (diff = 0; diff < m[i].len && diff < s[i].len &&
				       m[i].data[diff] == s[i].data[diff];
			     diff++)
				;
		fprintf(stderr, "  %s crash-%d: expected %s len %u; found %s len %u result 0x%x%s",
			what, i, m[i].exists ? "present" : "absent", m[i].len,
			s[i].exists ? "present" : "absent", s[i].len, s[i].res,
			m[i].exists && s[i].exists ? "" : "\n");
		if (m[i].exists && s[i].exists)
			fprintf(stderr, ", first difference at %u\n", diff);
	}
}

/* Checks the dump of this trial against the model; resolves the doubt. */
static void check_dump(const char *path, uint32_t trial)
{
	struct seen s[NOBJ];
	bool all[NOBJ];
	bool others[NOBJ];
	bool touched[NOBJ];
	uint32_t total = 0;
	FILE *f = fopen(path, "re");

	memset(s, 0, sizeof(s));
	if (!f)
		st_die("trial %u: no dump", trial);
	for (;;) {
		uint32_t i = 0;

		if (fread(&i, 4, 1, f) != 1)
			st_die("trial %u: short dump", trial);
		if (i == 0xffffffff) {
			if (fread(&total, 4, 1, f) != 1)
				st_die("trial %u: short dump", trial);
			break;
		}
		if (i >= NOBJ || fread(&s[i].res, 4, 1, f) != 1 || fread(&s[i].len, 4, 1, f) != 1)
			st_die("trial %u: bad dump", trial);
		s[i].exists = true;
		s[i].data = malloc(s[i].len ? s[i].len : 1);
		if (!s[i].data || fread(s[i].data, 1, s[i].len, f) != s[i].len)
			st_die("trial %u: short dump", trial);
	}
	fclose(f);
	for (int i = 0; i < NOBJ; i++) {
		all[i] = true;
		touched[i] =
		    doubt && (i == doubt_op.id || (doubt_op.kind == OP_RENAME && i == doubt_op.to));
		others[i] = !touched[i];
	}
	{
		uint32_t present = 0;

		for (int i = 0; i < NOBJ; i++)
			present += s[i].exists;
		if (total != present) {
			fprintf(stderr,
				"storage-crash: trial %u: %u objects enumerated, %u expected\n",
				trial, total, present);
			exit(1);
		}
	}
	if (!matches(model, s, others)) {
		fprintf(stderr,
			"storage-crash: trial %u: an object the cut-off change did not "
			"touch is not as committed\n",
			trial);
		describe("committed", model, s);
		exit(1);
	}
	if (doubt && !matches(model, s, touched)) {
		struct obj after[NOBJ];

		model_copy(after, model);
		apply(after, &doubt_op);
		if (!matches(after, s, all)) {
			fprintf(stderr,
				"storage-crash: trial %u: change %d (kind %d) cut off "
				"half way\n",
				trial, doubt_op.id, doubt_op.kind);
			describe("before", model, s);
			describe("after", after, s);
			exit(1);
		}
		model_free(model);
		memcpy(model, after, sizeof(model));
	}
	doubt = false;
	for (int i = 0; i < NOBJ; i++)
		free(s[i].data);
}

static void sleep_us(long us)
{
	struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};

	nanosleep(&ts, NULL);
}

/*
 * A scripted trial (--scenario): its changes, and the one at whose start
 * the core is killed, at once (nops: none; the run ends cleanly).
 */
struct plan {
	int nops;
	int kill_at;
	struct op ops[OPS_PER_TRIAL];
};

#define BLK 4096u

/*
 * replay-truncate: an object's first map page written with ten entries,
 * then the object cut to two whole blocks and grown back to ten by a
 * truncation, which writes no page (the entries past the cut read as
 * holes), then the core killed. The next load replays all three records;
 * the page must come out of it as the cut left it.
 */
static const struct plan replay_truncate[] = {
    {.nops = 1, .kill_at = 1, .ops = {{.kind = OP_CREATE, .seed = 1, .len = 10 * BLK}}},
    {.nops = 4,
     .kill_at = 3,
     .ops = {{.kind = OP_WRITE, .seed = 2, .off = 5 * BLK, .len = BLK},
	     {.kind = OP_TRUNC, .len = 2 * BLK},
	     {.kind = OP_TRUNC, .len = 10 * BLK},
	     {.kind = OP_CREATE, .id = 1, .seed = 3, .len = 100}}},
};

/* The trials of the scenario name, and their count in *n. */
static const struct plan *scenario(const char *name, uint32_t *n)
{
	if (strcmp(name, "replay-truncate") != 0)
		st_die("no scenario %s; " USAGE, name);
	*n = sizeof(replay_truncate) / sizeof(replay_truncate[0]);
	return replay_truncate;
}

/* The changes of a trial: the plan's, or random ones valid on the model. */
static void plan_ops(const struct plan *plan, struct op ops[OPS_PER_TRIAL])
{
	struct obj sim[NOBJ];

	if (plan) {
		memcpy(ops, plan->ops, sizeof(plan->ops));
		return;
	}
	model_copy(sim, model);
	for (int k = 0; k < OPS_PER_TRIAL; k++) {
		gen(sim, &ops[k]);
		apply(sim, &ops[k]);
	}
	model_free(sim);
}

/* One trial (scripted by plan, or random); returns true when the kill landed inside a change. */
static bool trial(const char *swtee, const char *state, const char *self, uint32_t t, bool last,
		  const struct plan *plan, uint32_t *kills_core, bool *again)
{
	char script[4096];
	char dump[4096];
	char fdarg[16];
	struct op ops[OPS_PER_TRIAL];
	int pfd[2];
	int nops = last ? 0 : plan ? plan->nops : OPS_PER_TRIAL;
	int kill_at =
	    last || getenv("SWTEE_CRASH_NO_KILL") ? OPS_PER_TRIAL : (int)rnd(OPS_PER_TRIAL + 1);
	long delay = rnd(4) ? (long)rnd(3000) : (long)rnd(30000);
	bool core = rnd(10) < 7;
	bool killed = false;
	bool inside = false;
	int begun = -1;
	int done = -1;
	char line[64];
	size_t ll = 0;
	pid_t run = 0;
	FILE *f = NULL;

	snprintf(script, sizeof(script), "%s.script", state);
	snprintf(dump, sizeof(dump), "%s.dump", state);
	plan_ops(plan, ops);
	if (plan && !last) {
		kill_at = plan->kill_at;
		delay = 0;
		core = true;
	}
	f = fopen(script, "we");
	if (!f || fwrite(ops, sizeof(ops[0]), (size_t)nops, f) != (size_t)nops)
		st_die("cannot write %s", script);
	fclose(f);
	unlink(dump);
	if (pipe(pfd))
		st_die("pipe: %s", strerror(errno));
	snprintf(fdarg, sizeof(fdarg), "%d", pfd[1]);
	run = fork();
	if (run == 0) {
		close(pfd[0]);
		execl(swtee, "swtee", "run", "--state", state, "--", self, "--client", script, dump,
		      fdarg, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	/* Read the progress line by line, kill when the moment comes. */
	for (;;) {
		struct pollfd p = {.fd = pfd[0], .events = POLLIN};
		char ch = 0;
		ssize_t n = 0;

		if (poll(&p, 1, 60000) <= 0)
			st_die("trial %u: the client hangs", t);
		n = read(pfd[0], &ch, 1);
		if (n <= 0)
			break;
		if (ch != '\n') {
			if (ll < sizeof(line) - 1)
				line[ll++] = ch;
			continue;
		}
		line[ll] = '\0';
		ll = 0;
		if (line[0] == 'V') {
			check_dump(dump, t);
		} else if (line[0] == 'X') {
			/* Before any change: the TEE did not come up (tried again). */
			*again = true;
		} else if (line[0] == 'B') {
			begun = atoi(line + 2);
			if (begun == kill_at && !killed) {
				pid_t victim = 0;

				sleep_us(delay);
				victim = st_run_child(run, core ? "swteed" : "tee-supplicant");
				if (victim) {
					kill(victim, SIGKILL);
					killed = true;
					*kills_core += core;
					if (verbose)
						printf(
						    "  trial %u: killed %s %ld us into change %d "
						    "(kind %d id %d to %d off %u len %u)\n",
						    t, core ? "the core" : "the supplicant", delay,
						    begun, ops[begun].kind, ops[begun].id,
						    ops[begun].to, ops[begun].off, ops[begun].len);
				}
			}
		} else if (line[0] == 'D') {
			done = atoi(line + 2);
			apply(model, &ops[done]);
			if (verbose)
				printf("  trial %u: done %d: kind %d id %d to %d off %u len %u "
				       "seed %u\n",
				       t, done, ops[done].kind, ops[done].id, ops[done].to,
				       ops[done].off, ops[done].len, ops[done].seed);
		} else if (line[0] == 'E') {
			/* cut off: it stays in doubt, below */
		}
	}
	close(pfd[0]);
	if (killed) {
		/* What is left of the TEE ends with the run. */
		pid_t other = st_run_child(run, core ? "tee-supplicant" : "swteed");

		if (other)
			kill(other, SIGKILL);
	}
	waitpid(run, NULL, 0);
	if (*again)
		return false;
	if (begun > done) {
		doubt = true;
		doubt_op = ops[begun];
		inside = killed;
	} else if (!killed && begun != nops - 1) {
		st_die("trial %u: the client stopped at change %d without a kill", t, begun);
	}
	return inside;
}

/* 32 lower-case hex digits: the data file of an object. */
static bool data_name(const char *n)
{
	size_t i = 0;

	for (; n[i]; i++)
		if (!((n[i] >= '0' && n[i] <= '9') || (n[i] >= 'a' && n[i] <= 'f')))
			return false;
	return i == 32;
}

/*
 * After the last, clean run: no files left over by cut-off changes (the
 * sweep at load removes them), at most one data file per object and one
 * directory snapshot per store.
 */
static void check_leftovers(const char *state)
{
	char path[4096];
	DIR *top = NULL;
	struct dirent *d = NULL;
	uint32_t objects = 0;

	for (uint32_t i = 0; i < NOBJ; i++)
		objects += model[i].exists && model[i].len;
	snprintf(path, sizeof(path), "%s/ree", state);
	top = opendir(path);
	if (!top)
		st_die("cannot open %s", path);
	while ((d = readdir(top))) {
		char sub[4096 + 256];
		uint32_t data = 0;
		uint32_t snaps = 0;
		DIR *in = NULL;
		struct dirent *e = NULL;

		if (d->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name);
		in = opendir(sub);
		if (!in)
			continue;
		while ((e = readdir(in))) {
			data += data_name(e->d_name);
			snaps += e->d_name[0] == 'd' && strlen(e->d_name) == 17;
		}
		closedir(in);
		if (data > objects || snaps > 1)
			st_die("%s: %u data files for %u objects, %u snapshots: leftovers", sub,
			       data, objects, snaps);
	}
	closedir(top);
}

int main(int argc, char **argv)
{
	const char *swtee = NULL;
	const char *state = NULL;
	const char *env = getenv("SWTEE_CRASH_TRIALS");
	uint32_t trials = env && *env ? (uint32_t)strtoul(env, NULL, 10) : 200;

	verbose = getenv("SWTEE_CRASH_VERBOSE") != NULL;
	bool keep = getenv("SWTEE_CRASH_KEEP") != NULL;
	uint32_t seed = (uint32_t)time(NULL);
	uint32_t inside = 0;
	uint32_t kills_core = 0;
	const struct plan *plans = NULL;
	char self[4096];

	if (argc > 1 && !strcmp(argv[1], "--client"))
		return client_main(argc, argv);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--swtee") && i + 1 < argc)
			swtee = argv[++i];
		else if (!strcmp(argv[i], "--state") && i + 1 < argc)
			state = argv[++i];
		else if (!strcmp(argv[i], "--trials") && i + 1 < argc)
			trials = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--scenario") && i + 1 < argc)
			plans = scenario(argv[++i], &trials);
		else
			st_die(USAGE);
	}
	if (!swtee || !state)
		st_die(USAGE);
	if (st_run_self(self, sizeof(self)))
		st_die("cannot find myself");
	srandom(seed);
	printf("storage-crash: %u trials, seed %u, state %s\n", trials, seed, state);
	fflush(stdout);
	for (uint32_t t = 0; t <= trials; t++) {
		bool again = false;
		int tries = 0;

		/* With $SWTEE_CRASH_KEEP, the state each run starts from stays in STATE.before. */
		if (keep && !access(state, F_OK) &&
		    st_run_sh("rm -rf '%s.before' && cp -a '%s' '%s.before'", state, state, state))
			st_die("cannot keep a copy of %s", state);
		/* The last run (t == trials) resolves the doubt of the one before. */
		do {
			again = false;
			inside +=
			    trial(swtee, state, self, t, t == trials,
				  plans && t < trials ? &plans[t] : NULL, &kills_core, &again);
		} while (again && ++tries < 3);
		if (again)
			st_die("trial %u: the client cannot reach the storage TA", t);
	}
	check_leftovers(state);
	printf("storage-crash: %u trials passed; %u kills cut a change short (%u of the core)\n",
	       trials, inside, kills_core);
	return 0;
}
