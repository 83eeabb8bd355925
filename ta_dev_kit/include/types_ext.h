/* Address-sized integer types OP-TEE TAs use. */
#ifndef TYPES_EXT_H
#define TYPES_EXT_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uintptr_t vaddr_t;
typedef uintptr_t paddr_t;
typedef uintptr_t paddr_size_t;

#define PRIxVA PRIxPTR
#define PRIxPA PRIxPTR

#endif /* TYPES_EXT_H */
