/*
 * Runs a fuzz harness over files and directories of inputs (a seed corpus,
 * found crashes) without libFuzzer, so that every build, with any compiler
 * and under the sanitizers, replays them as an ordinary test.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t runs;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long len = 0;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	buf = malloc(len ? (size_t)len : 1);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	runs++;
	return 0;
}

static int run_path(const char *path)
{
	struct stat st;
	DIR *d = NULL;
	struct dirent *e = NULL;
	int rc = 0;

	if (stat(path, &st))
		return -1;
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char p[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		if (run_path(p))
			rc = -1;
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	int failed = 0;

	for (int i = 1; i < argc; i++)
		if (run_path(argv[i])) {
			fprintf(stderr, "cannot read %s\n", argv[i]);
			failed++;
		}
	/* A crash ends the process; reaching here means every input was survived. */
	printf("%zu passed, %d failed\n", runs, failed);
	return failed || !runs ? 1 : 0;
}
