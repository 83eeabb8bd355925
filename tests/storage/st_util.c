/* What every storage test driver does alike (st_util.h). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st_util.h"

unsigned int st_failures;

static void say(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

static void say(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", st_who);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
}

void st_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	st_failures++;
}

void st_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
	exit(1);
}

void st_pathf(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r = 0;

	va_start(ap, fmt);
	r = vsnprintf(out, n, fmt, ap);
	va_end(ap);
	if (r < 0 || (size_t)r >= n)
		st_die("path too long: %s", out);
}

const char *st_arg(int argc, char **argv, const char *name)
{
	const char *value = NULL;

	for (int i = 1; i + 1 < argc; i += 2)
		if (!strcmp(argv[i], name))
			value = argv[i + 1];
	return value;
}

void st_store_dir(const char *state, char *out, size_t n)
{
	char ree[4096];
	DIR *d = NULL;
	struct dirent *e = NULL;
	int found = 0;

	st_pathf(ree, sizeof(ree), "%s/ree", state);
	d = opendir(ree);
	if (!d)
		st_die("cannot open %s: %s", ree, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		st_pathf(out, n, "%s/%s", ree, e->d_name);
		found++;
	}
	closedir(d);
	if (found != 1)
		st_die("%d stores in %s, expected 1", found, ree);
}
