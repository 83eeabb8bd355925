#include "memfd.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

int memfd_new_sealed(const char *name, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		close(fd);
		return -1;
	}
	return fd;
}

long long memfd_safe_size(int fd, int seals)
{
	struct statfs fs;
	struct stat st;
	int have = fcntl(fd, F_GET_SEALS);

	if (have < 0 || (have & seals) != seals || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0)
		return -1;
	/* A memfd's pages are shmem's (TMPFS_MAGIC); MFD_HUGETLB ones are hugetlbfs's. */
	if (fstatfs(fd, &fs) || fs.f_type != TMPFS_MAGIC)
		return -1;
	return (long long)st.st_size;
}
