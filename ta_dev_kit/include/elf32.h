/* 32-bit ELF types: <elf.h>'s, and the BSD ones OP-TEE's elf32.h adds (elf_common.h). */
#ifndef ELF32_H
#define ELF32_H

#include <elf_common.h>

typedef uint64_t Elf32_Lword;
typedef uint32_t Elf32_Hashelt;
typedef uint32_t Elf32_Size;
typedef int32_t Elf32_Ssize;

#endif
