#include "proc_info.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long proc_fd_count(pid_t pid)
{
	char path[64];
	struct dirent *e = NULL;
	long n = 0;
	DIR *d = NULL;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

long proc_status_field(pid_t pid, const char *key)
{
	char path[64];
	char line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f = NULL;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}
