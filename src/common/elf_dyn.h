/*
 * The dynamic section of an ELF64 shared object on a descriptor, read with
 * bounded preads before it is mapped: its DT_NEEDED names (and where each
 * lies in the file) and its DT_SONAME. The images are signed, but these
 * readers do not rely on it: a malformed ELF is -1, never a wild read.
 */
#ifndef SWTEE_ELF_DYN_H
#define SWTEE_ELF_DYN_H

#include <stddef.h>
#include <stdint.h>

#include "must_check.h"

#define ELF_DYN_NAME_MAX 256
/* The most DT_NEEDED entries an object may have; more is refused as malformed. */
#define ELF_DYN_NEEDED_MAX 32

struct elf_needed {
	char name[ELF_DYN_NAME_MAX]; /* NUL-terminated */
	uint64_t offset;	     /* file offset of the name's first byte */
	size_t len;		     /* strlen(name) */
};

/*
 * Fills out[0..max) with the DT_NEEDED entries of the ELF on fd, in order.
 * Returns how many there are, or -1 if the ELF is malformed, a name is
 * longer than ELF_DYN_NAME_MAX - 1 bytes, or there are more than max.
 */
SWTEE_MUST_CHECK int elf_needed_list(int fd, struct elf_needed *out, size_t max);

/*
 * The DT_SONAME of the ELF on fd into out[n]: 1, or 0 when it has none,
 * -1 when the ELF is malformed or the name does not fit.
 */
SWTEE_MUST_CHECK int elf_soname(int fd, char *out, size_t n);

#endif
