/* Shared memory as the project passes it around: sealed memfds. */
#ifndef SWTEE_MEMFD_H
#define SWTEE_MEMFD_H

#include <stddef.h>

#include "must_check.h"

/*
 * A close-on-exec memfd of size bytes, sealed against shrinking, growing and
 * further sealing: its receiver may map it without fearing a truncation.
 * Returns the descriptor, or -1.
 */
SWTEE_MUST_CHECK int memfd_new_sealed(const char *name, size_t size);

/*
 * Is fd memory whose mapping can never fault: ordinary shared memory (a
 * memfd or a tmpfs file, not hugetlb pages, which can run out under a
 * reader) carrying every seal of seals? Returns its size, or -1 (also for an
 * empty one).
 */
SWTEE_MUST_CHECK long long memfd_safe_size(int fd, int seals);

#endif
