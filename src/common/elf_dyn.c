/* The dynamic section of an ELF64 shared object on a descriptor (elf_dyn.h). */
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "elf_dyn.h"

#define MAX_PHDRS 64
#define MAX_DYN 512

/* What the readers need of the ELF: its dynamic entries and string table. */
struct elf_dyn {
	ElfW(Dyn) dyn[MAX_DYN];
	size_t ndyn;
	uint64_t stroff; /* file offset of the string table */
	uint64_t strsz;
};

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

/* 1 with d filled, 0 when the ELF has no dynamic section, -1 when malformed. */
static int dyn_read(int fd, struct elf_dyn *d)
{
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph[MAX_PHDRS];
	const ElfW(Phdr) *dp = NULL;
	uint64_t strtab = 0;

	memset(d, 0, sizeof(*d));
	if (read_at(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_phentsize != sizeof(ElfW(Phdr)) || eh.e_phnum > MAX_PHDRS ||
	    read_at(fd, ph, eh.e_phnum * sizeof(ph[0]), eh.e_phoff))
		return -1;
	for (size_t i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dp = &ph[i];
	if (!dp)
		return 0;
	d->ndyn = dp->p_filesz / sizeof(d->dyn[0]);
	if (d->ndyn > MAX_DYN)
		d->ndyn = MAX_DYN;
	if (read_at(fd, d->dyn, d->ndyn * sizeof(d->dyn[0]), dp->p_offset))
		return -1;
	for (size_t i = 0; i < d->ndyn && d->dyn[i].d_tag != DT_NULL; i++) {
		if (d->dyn[i].d_tag == DT_STRTAB)
			strtab = d->dyn[i].d_un.d_ptr;
		else if (d->dyn[i].d_tag == DT_STRSZ)
			d->strsz = d->dyn[i].d_un.d_val;
	}
	if (!strtab || !d->strsz || va_to_off(ph, eh.e_phnum, strtab, &d->stroff))
		return -1;
	return 1;
}

/* The NUL-terminated string at index at of the string table, into out[n]. */
static int dyn_string(int fd, const struct elf_dyn *d, uint64_t at, char *out, size_t n,
		      uint64_t *offset)
{
	size_t len = n;

	if (at >= d->strsz || !n)
		return -1;
	if (len > d->strsz - at)
		len = (size_t)(d->strsz - at);
	if (read_at(fd, out, len, d->stroff + at) || !memchr(out, '\0', len))
		return -1;
	if (offset)
		*offset = d->stroff + at;
	return 0;
}

int elf_needed_list(int fd, struct elf_needed *out, size_t max)
{
	struct elf_dyn d;
	size_t n = 0;
	int rc = dyn_read(fd, &d);

	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < d.ndyn && d.dyn[i].d_tag != DT_NULL; i++) {
		if (d.dyn[i].d_tag != DT_NEEDED)
			continue;
		if (n == max || dyn_string(fd, &d, d.dyn[i].d_un.d_val, out[n].name,
					   sizeof(out[n].name), &out[n].offset))
			return -1;
		out[n].len = strlen(out[n].name);
		n++;
	}
	return (int)n;
}

int elf_soname(int fd, char *out, size_t n)
{
	struct elf_dyn d;
	int rc = dyn_read(fd, &d);

	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < d.ndyn && d.dyn[i].d_tag != DT_NULL; i++)
		if (d.dyn[i].d_tag == DT_SONAME)
			return dyn_string(fd, &d, d.dyn[i].d_un.d_val, out, n, NULL) ? -1 : 1;
	return 0;
}
