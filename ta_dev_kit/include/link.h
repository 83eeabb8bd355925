/*
 * <link.h> for TAs: glibc's, plus dl_iterate_phdr and struct dl_phdr_info
 * when glibc leaves them out, and dl_iterate_phdr as OP-TEE's. OP-TEE's
 * link.h always has them; glibc's only with _GNU_SOURCE, which a TA built
 * with -std=gnu11 does not get.
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

int dl_iterate_phdr(int (*callback)(struct dl_phdr_info *info, size_t size, void *arg), void *arg);
#endif

/*
 * As OP-TEE's: calls callback for each loaded object, whatever it returns,
 * and returns what its last call returned (glibc's stops at the first
 * nonzero return). A TA's calls reach the runtime's swtee_ta_dl_iterate_phdr;
 * glibc's stays as it is for the rest of the process, the runtime (which
 * is built with SWTEE_TA_RUNTIME) among it.
 */
#ifndef SWTEE_TA_RUNTIME
extern __typeof__(dl_iterate_phdr) dl_iterate_phdr __asm__("swtee_ta_dl_iterate_phdr");
#endif

#endif /* SWTEE_LINK_H */
