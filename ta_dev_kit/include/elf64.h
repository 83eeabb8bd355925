/* 64-bit ELF types: <elf.h>'s, and the BSD ones OP-TEE's elf64.h adds (elf_common.h). */
#ifndef ELF64_H
#define ELF64_H

#include <elf_common.h>

typedef uint64_t Elf64_Lword;
typedef uint32_t Elf64_Hashelt;
typedef uint64_t Elf64_Size;
typedef int64_t Elf64_Ssize;

/* r_info's type split into a 24-bit datum and an 8-bit id (SPARC's form). */
#define ELF64_R_TYPE_DATA(info) (((Elf64_Xword)(info) << 32) >> 40)
#define ELF64_R_TYPE_ID(info) (((Elf64_Xword)(info) << 56) >> 56)
#define ELF64_R_TYPE_INFO(data, type) (((Elf64_Xword)(data) << 8) + (Elf64_Xword)(type))

#endif
