/* Shared memory as the project passes it around: sealed memfds. */
#ifndef SWTEE_MEMFD_H
#define SWTEE_MEMFD_H

#include <stddef.h>

/*
 * A close-on-exec memfd of size bytes, sealed against shrinking, growing and
 * further sealing: its receiver may map it without fearing a truncation.
 * Returns the descriptor, or -1.
 */
int memfd_new_sealed(const char *name, size_t size);

#endif
