/* The hostile test TA: each command tries something the sandbox forbids. */
#ifndef TA_HOSTILE_H
#define TA_HOSTILE_H

#define TA_HOSTILE_UUID                                                                            \
	{                                                                                          \
		0x5a1f0b7e, 0x3c2d, 0x4e6f,                                                        \
		{                                                                                  \
			0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x06                             \
		}                                                                                  \
	}

#define TA_HOSTILE_CMD_NOP 0
#define TA_HOSTILE_CMD_OPEN_FILE 1	 /* open("/etc/passwd") */
#define TA_HOSTILE_CMD_SOCKET 2		 /* socket(AF_INET) */
#define TA_HOSTILE_CMD_PTRACE 3		 /* ptrace(PTRACE_ATTACH, value[0].a) */
#define TA_HOSTILE_CMD_FORK 4		 /* fork() */
#define TA_HOSTILE_CMD_EXECVE 5		 /* execve("/bin/sh") */
#define TA_HOSTILE_CMD_MMAP_EXEC 6	 /* mmap(PROT_EXEC) */
#define TA_HOSTILE_CMD_MPROTECT_EXEC 7	 /* mprotect(heap, PROT_EXEC) */
#define TA_HOSTILE_CMD_PROCESS_VM_READ 8 /* process_vm_readv(value[0].a) */
#define TA_HOSTILE_CMD_KILL 9		 /* kill(value[0].a, SIGKILL) */
#define TA_HOSTILE_CMD_STAT 10		 /* stat("/etc/passwd") */
#define TA_HOSTILE_CMD_CONNECT_UNIX 11	 /* socket(AF_UNIX) */
#define TA_HOSTILE_CMD_ALLOC 12		 /* TEE_Malloc(value[0].a) -> value[1].a = got it */
/* Storage writes that claim heap data outside the heap -> value[1].a = steps passed (4: all) */
#define TA_HOSTILE_CMD_FORGE_HEAP_WRITES 13
#define TA_HOSTILE_CMD_UNSEALED_HEAP 14 /* a storage channel over a heap that can shrink */
/*
 * The kernel signals process value[0].a with SIGKILL when the TA's control
 * socket becomes readable: F_SETOWN, F_SETSIG, O_ASYNC on it.
 */
#define TA_HOSTILE_CMD_SIGNAL_BY_FD 15
#define TA_HOSTILE_CMD_SETOWN_EX 16	 /* fcntl(F_SETOWN_EX, value[0].a) */
#define TA_HOSTILE_CMD_SETSIG 17	 /* fcntl(F_SETSIG, SIGKILL) */
#define TA_HOSTILE_CMD_ASYNC 18		 /* fcntl(F_SETFL, O_ASYNC) */
#define TA_HOSTILE_CMD_SIGSYS_HANDLER 19 /* its own SIGSYS handler, then open() */
#define TA_HOSTILE_CMD_MEMFD_HUGETLB 20	 /* memfd_create(MFD_HUGETLB) */
#define TA_HOSTILE_CMD_MADV_REMOVE 21	 /* madvise(MADV_REMOVE) */
/* As the basic TA's TA_BASIC_CMD_PTA_SYSTEM: another TA's unique key. */
#define TA_HOSTILE_CMD_PTA_SYSTEM 22
/* A key derivation request to the core for a 64-byte key (at most 32 exist). */
#define TA_HOSTILE_CMD_FORGE_DERIVE 23
/*
 * memref[0] in: a TA's UUID in its canonical 16 bytes; value[1].a in: how
 * many. Asks the core for that many sessions on it straight on the control
 * socket, past the runtime's TEE_OpenTASession, and keeps every one it gets:
 * value[1].a out = how many it got, value[1].b = the first refusal's result.
 * value[1].a = 0 closes every session it holds.
 */
#define TA_HOSTILE_CMD_RAW_OPEN_TA 24
/*
 * Games with the standard streams: value[1].a out = what a read of stdin
 * gave; lines on stdout and stderr, one posing as another TA and one as the
 * core, control characters, and a last line with no newline. value[0].a in:
 * nonzero panics after that line.
 */
#define TA_HOSTILE_CMD_STDIO 25
/*
 * Commits value[0].a MiB of memory and touches every page: value[0].b = 0
 * with malloc, 1 with an anonymous map, 2 in a memfd of its own. value[1].a
 * out = 1 if it had it all (TA_DATA_SIZE is 1 MiB).
 */
#define TA_HOSTILE_CMD_COMMIT 26
/* Writes value[0].a lines "flood N" (N from 1) to stdout as fast as it can. */
#define TA_HOSTILE_CMD_FLOOD 27
/* The stats pseudo-TA's request to the core, which no other TA may send. */
#define TA_HOSTILE_CMD_FORGE_STATS 28
/*
 * What the TA's ELF constructor, which runs before the sandbox, could do
 * with files: value[0].a = the errno of opening /etc/passwd to read,
 * value[0].b = the errno of creating a file in /tmp (0: it could).
 */
#define TA_HOSTILE_CMD_CTOR_FILES 29
/*
 * Holds value[0].a memory files of value[0].b MiB each, every page written,
 * each within the size limit of one file: value[1].a out = the MiB it holds.
 */
#define TA_HOSTILE_CMD_HOARD 30
/*
 * The attestation pseudo-TA's request to the core for the measure of the
 * TA that opened session value[0].a on it, which no other TA may send.
 */
#define TA_HOSTILE_CMD_FORGE_ATTEST 31
/* mmap the TA library descriptor (PROTO_TA_LIB_FD) writable and executable */
#define TA_HOSTILE_CMD_LIB_FD_WX 32
/* open a file as the dynamic loader does (O_RDONLY | O_CLOEXEC), no library pending */
#define TA_HOSTILE_CMD_OPEN_LIB 33
/*
 * Puts code of its own at PROTO_TA_LIB_FD: closes it, dups a memfd it wrote
 * there, maps that number executable. value[0].a out = 1 when the close
 * said done, .b = 1 when the map holds its code.
 */
#define TA_HOSTILE_CMD_LIB_FD_SWAP 34

/*
 * Single-instance, multi-session, keep-alive builds of the hostile TA
 * (TA_HOSTILE_SHARED = 1..4), to hold sessions on each other.
 */
#define TA_HOSTILE_SHARED_UUID(n)                                                                  \
	{                                                                                          \
		0x5a1f0b7e, 0x3c2d, 0x4e6f,                                                        \
		{                                                                                  \
			0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x71, (n)                              \
		}                                                                                  \
	}

#endif
