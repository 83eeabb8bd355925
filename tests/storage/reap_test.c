/*
 * storage-reap: large files go in the background, and all of them go.
 *
 * The supplicant renames a large file the core removes to a trash name and
 * unlinks it on a thread of its own (ree_fs.c); trash that a supplicant
 * left behind goes when the next one starts. On one state dir:
 *
 * - a run makes two objects of 1 MiB and a small one;
 * - trash is planted in the store's directory, as a killed supplicant
 *   would leave it: a large file and a small one;
 * - a run deletes one large object, replaces the other and makes a third:
 *   every object reads back as committed, at once and after a restart;
 * - after the run, no trash is left, the files of the two old objects are
 *   gone, and the store holds exactly the data files of its objects.
 *
 * usage: storage-reap --swtee PATH --state DIR
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "st_client.h"
#include "st_model.h"
#include "st_run.h"
#include "st_util.h"

#define BIG ST_MODEL_OBJ_MAX
#define NOT_AS_COMMITTED "not as committed"
/* The trash names of ree_fs.c, and what the test plants of them. */
#define TRASH_PREFIX ".rm-"
#define PLANTED_BIG ".rm-1-1"
#define PLANTED_SMALL ".rm-99-7"

const char *const st_who = "storage-reap";
static uint8_t *buf;

/* ---- the client: runs inside "swtee run" ---- */

static int c_make(const char *path)
{
	static struct st_model m;

	if (st_model_add(&m, "big-0", 1, BIG, buf) || st_model_add(&m, "big-1", 2, BIG, buf) ||
	    st_model_add(&m, "small", 3, 3000, buf))
		st_fail("cannot create the objects");
	st_model_expect(&m, "after the creates", NOT_AS_COMMITTED);
	return st_model_finish(&m, path);
}

static int c_change(const char *path)
{
	static struct st_model m;

	if (st_model_resume(&m, path))
		return 1;
	st_model_expect(&m, "before the changes", NOT_AS_COMMITTED);
	if (st_delete("big-0"))
		st_fail("cannot delete big-0");
	else
		st_model_remove(&m, "big-0");
	st_model_expect(&m, "right after a delete", NOT_AS_COMMITTED);
	if (st_model_add(&m, "big-1", 4, BIG, buf))
		st_fail("cannot replace big-1");
	if (st_model_add(&m, "big-2", 5, BIG, buf))
		st_fail("cannot create big-2");
	st_model_expect(&m, "after the changes", NOT_AS_COMMITTED);
	return st_model_finish(&m, path);
}

static int client_main(int argc, char **argv)
{
	static const struct st_mode modes[] = {
	    {.name = "make", .run = c_make},
	    {.name = "change", .run = c_change},
	    {.name = NULL},
	};

	return st_model_client(argc, argv, modes, NOT_AS_COMMITTED, &buf);
}

/* ---- the driver ---- */

/* Whether name is an object's data file: 32 hex digits, no suffix. */
static bool data_name(const char *name)
{
	size_t n = strlen(name);

	return n == 32 && strspn(name, "0123456789abcdef") == n;
}

/*
 * The names of the data files in dir of BIG bytes or more into names[max]
 * (may be NULL); their count. Says of every trash file it finds.
 */
static int scan(const char *dir, char names[][64], int max, int *trash)
{
	DIR *d = opendir(dir);
	struct dirent *e = NULL;
	int n = 0;

	*trash = 0;
	if (!d)
		st_die("cannot open %s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		char path[4096 + 256];
		struct stat st;

		if (!strncmp(e->d_name, TRASH_PREFIX, strlen(TRASH_PREFIX))) {
			fprintf(stderr, "%s: %s/%s is still there\n", st_who, dir, e->d_name);
			(*trash)++;
			continue;
		}
		if (!data_name(e->d_name))
			continue;
		st_pathf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st))
			st_die("cannot stat %s: %s", path, strerror(errno));
		if (st.st_size < (off_t)BIG)
			continue;
		if (names && n < max)
			memcpy(names[n], e->d_name, 33); /* data_name: 32 characters */
		n++;
	}
	closedir(d);
	return n;
}

static void plant(const char *dir, const char *name, size_t len)
{
	char path[4096 + 64];
	int fd = -1;

	st_pathf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)len) || pwrite(fd, "x", 1, 0) != 1)
		st_die("cannot make %s: %s", path, strerror(errno));
	close(fd);
}

int main(int argc, char **argv)
{
	const char *swtee = NULL;
	const char *state = NULL;
	char model[4096];
	char log[4096];
	char dir[4096];
	char old[2][64];
	const char *make[] = {"make", model, NULL};
	const char *change[] = {"change", model, NULL};
	const char *verify[] = {"verify", model, NULL};
	int trash = 0;
	int n = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--client"))
		return client_main(argc, argv);
	swtee = st_arg(argc, argv, "--swtee");
	state = st_arg(argc, argv, "--state");
	if (!swtee || !state)
		st_die("usage: storage-reap --swtee PATH --state DIR");
	st_run_sh_or_die("rm -rf '%s' && mkdir -p '%s'", state, state);
	st_pathf(model, sizeof(model), "%s.model", state);
	st_pathf(log, sizeof(log), "%s.log", state);
	unlink(log);

	if (!st_run_step(swtee, state, log, "two objects of 1 MiB and a small one", make))
		return 1;
	st_store_dir(state, dir, sizeof(dir));
	n = scan(dir, old, 2, &trash);
	if (n != 2 || trash)
		st_die("%s: %d data files of 1 MiB and %d trash files, expected 2 and 0", dir, n,
		       trash);
	plant(dir, PLANTED_BIG, 2 * BIG);
	plant(dir, PLANTED_SMALL, 10);

	if (!st_run_step(swtee, state, log, "a delete, a replace and a create of 1 MiB", change))
		return 1;
	n = scan(dir, NULL, 0, &trash);
	if (trash)
		st_fail("%d trash files left after the run", trash);
	if (n != 2)
		st_fail("%d data files of 1 MiB after the run, expected 2", n);
	for (int i = 0; i < 2; i++) {
		char path[4096 + 64];

		st_pathf(path, sizeof(path), "%s/%s", dir, old[i]);
		if (!access(path, F_OK))
			st_fail("the data file of a removed object is still there (%s)", path);
	}
	if (!st_run_step(swtee, state, log, "every object as committed after a restart", verify))
		return 1;
	if (st_failures)
		return 1;
	printf("%s: passed\n", st_who);
	return 0;
}
