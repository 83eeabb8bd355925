/*
 * The DT_NEEDED list of the TA's ELF, read from its memfd before it is
 * mapped: a TA that needs the AddressSanitizer runtime must not be dlopen'ed
 * into a process where that runtime does not come first. Every read is
 * bounded; the image is signed, but this parser does not rely on it.
 */
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"

#define MAX_PHDRS 64
#define MAX_DYN 512

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t r = 0;

	if (off > (uint64_t)INT64_MAX - n)
		return -1;
	r = pread(fd, buf, n, (off_t)off);
	return r == (ssize_t)n ? 0 : -1;
}

/* The file offset of virtual address va, from the PT_LOAD segments. */
static int va_to_off(const ElfW(Phdr) * ph, size_t nph, uint64_t va, uint64_t *off)
{
	for (size_t i = 0; i < nph; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (va >= ph[i].p_vaddr && va - ph[i].p_vaddr < ph[i].p_filesz) {
			*off = ph[i].p_offset + (va - ph[i].p_vaddr);
			return 0;
		}
	}
	return -1;
}

int rt_elf_needed(int fd, const char *prefix, char *out, size_t n)
{
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph[MAX_PHDRS];
	ElfW(Dyn) dyn[MAX_DYN];
	const ElfW(Phdr) *dp = NULL;
	uint64_t strtab = 0;
	uint64_t strsz = 0;
	uint64_t stroff = 0;
	size_t ndyn = 0;

	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum > MAX_PHDRS ||
	    read_at(fd, ph, eh.e_phnum * sizeof(ph[0]), eh.e_phoff))
		return -1;
	for (size_t i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dp = &ph[i];
	if (!dp)
		return 0; /* nothing needed */
	ndyn = dp->p_filesz / sizeof(dyn[0]);
	if (ndyn > MAX_DYN)
		ndyn = MAX_DYN;
	if (read_at(fd, dyn, ndyn * sizeof(dyn[0]), dp->p_offset))
		return -1;
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
		else if (dyn[i].d_tag == DT_STRSZ)
			strsz = dyn[i].d_un.d_val;
	}
	if (!strtab || !strsz || va_to_off(ph, eh.e_phnum, strtab, &stroff))
		return -1;
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
		char name[256] = "";
		uint64_t at = dyn[i].d_un.d_val;
		size_t len = sizeof(name) - 1;

		if (dyn[i].d_tag != DT_NEEDED)
			continue;
		if (at >= strsz)
			return -1;
		if (len > strsz - at)
			len = (size_t)(strsz - at);
		if (read_at(fd, name, len, stroff + at))
			return -1;
		name[len] = '\0';
		if (strncmp(name, prefix, strlen(prefix)) != 0)
			continue;
		if (strlen(name) >= n)
			return -1;
		memcpy(out, name, strlen(name) + 1);
		return 1;
	}
	return 0;
}
