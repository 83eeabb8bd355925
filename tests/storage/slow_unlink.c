/*
 * A preload for storage-disk-full: unlinkat of the supplicant's trash names
 * (".rm-...", ree_fs.c) waits half a second first, so that a test can act
 * while a large file it deleted still holds its space. Everything else goes
 * to the C library's unlinkat unchanged.
 */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int (*real_unlinkat)(int, const char *, int);

__attribute__((constructor)) static void slow_unlink_init(void)
{
	real_unlinkat = (int (*)(int, const char *, int))dlsym(RTLD_NEXT, "unlinkat");
}

int unlinkat(int dirfd, const char *path, int flags)
{
	if (!real_unlinkat) {
		errno = ENOSYS;
		return -1;
	}
	if (!strncmp(path, ".rm-", 4)) {
		struct timespec ts = {.tv_nsec = 500 * 1000 * 1000};

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	return real_unlinkat(dirfd, path, flags);
}
