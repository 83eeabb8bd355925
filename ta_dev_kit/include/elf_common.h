/*
 * OP-TEE's ELF header set (elf_common.h, elf32.h, elf64.h) for TAs that
 * parse ELF images, such as optee_os's remoteproc TA. A TA here is a
 * host process, so the types and constants are the C library's <elf.h>;
 * this header adds the BSD names OP-TEE's set has and glibc's lacks.
 */
#ifndef ELF_COMMON_H
#define ELF_COMMON_H

#include <elf.h>
#include <stdint.h>

/* A note section entry's header; its name and descriptor follow it. */
typedef struct {
	uint32_t n_namesz;
	uint32_t n_descsz;
	uint32_t n_type;
} Elf_Note;

/* The header of a DT_GNU_HASH table. */
typedef struct {
	uint32_t gh_nbuckets;
	uint32_t gh_symndx;
	uint32_t gh_maskwords;
	uint32_t gh_shift2;
} Elf_GNU_Hash_Header;

/* True when the identification bytes of ehdr start with the ELF magic. */
#define IS_ELF(ehdr)                                                                               \
	((ehdr).e_ident[EI_MAG0] == ELFMAG0 && (ehdr).e_ident[EI_MAG1] == ELFMAG1 &&               \
	 (ehdr).e_ident[EI_MAG2] == ELFMAG2 && (ehdr).e_ident[EI_MAG3] == ELFMAG3)

/* BSD spellings of names glibc has under others. */
#define EM_AMD64 EM_X86_64
#define EM_486 6
#define R_X86_64_JMP_SLOT R_X86_64_JUMP_SLOT

#endif
