/*
 * Address-sized integer types OP-TEE TAs use, and what OP-TEE's
 * types_ext.h brings along: TAs use PRIx32, INT_MAX, bool and ssize_t
 * after including it and nothing else. OP-TEE's also includes its own
 * small <unistd.h>, for ssize_t; glibc's declares crypt(), read() and
 * hundreds more that would clash with a TA's own functions, so ssize_t
 * comes from <sys/types.h> instead.
 */
#ifndef TYPES_EXT_H
#define TYPES_EXT_H

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uintptr_t uaddr_t;
typedef uintptr_t vaddr_t;
typedef uintptr_t paddr_t;
typedef uintptr_t paddr_size_t;

#define PRIxUA PRIxPTR
#define PRIxVA PRIxPTR
#define PRIxPA PRIxPTR
#define PRIxPASZ PRIxPTR
#define PADDR_MAX UINTPTR_MAX
#define PADDR_SIZE_MAX UINTPTR_MAX
#define __SIZEOF_PADDR__ __SIZEOF_POINTER__

/* Hex digits in a full-width vaddr_t or paddr_t, for "%0*" PRIxVA. */
#define PRIxVA_WIDTH ((int)(sizeof(vaddr_t) * 2))
#define PRIxPA_WIDTH ((int)(sizeof(paddr_t) * 2))

#endif /* TYPES_EXT_H */
