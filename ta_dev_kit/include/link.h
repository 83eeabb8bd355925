/*
 * <link.h> for TAs: glibc's, plus dl_iterate_phdr and struct dl_phdr_info
 * when glibc leaves them out. OP-TEE's link.h always has them; glibc's
 * only with _GNU_SOURCE, which a TA built with -std=gnu11 does not get.
 * The structure is glibc's public ABI (the fields dl_iterate_phdr fills
 * in), written out here in the same order.
 */
#ifndef SWTEE_LINK_H
#define SWTEE_LINK_H

#include_next <link.h>

#ifndef __USE_GNU
#include <stddef.h>

struct dl_phdr_info {
	ElfW(Addr) dlpi_addr;
	const char *dlpi_name;
	const ElfW(Phdr) * dlpi_phdr;
	ElfW(Half) dlpi_phnum;
	unsigned long long int dlpi_adds;
	unsigned long long int dlpi_subs;
	size_t dlpi_tls_modid;
	void *dlpi_tls_data;
};

/* Calls callback for each loaded object until it returns nonzero; returns that. */
int dl_iterate_phdr(int (*callback)(struct dl_phdr_info *info, size_t size, void *arg), void *arg);
#endif

#endif /* SWTEE_LINK_H */
