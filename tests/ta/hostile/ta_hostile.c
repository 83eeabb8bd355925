/*
 * A TA that misbehaves on purpose. Every command but NOP and ALLOC makes a
 * system call the sandbox forbids, or a request the core must refuse
 * (forge_storage.c); reaching the end of one is a failure, so it returns
 * TEE_ERROR_SECURITY to say the sandbox or the core let it through.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <tee_internal_api.h>

#include "forge_storage.h"
#include "proto.h"
#include "pta_system_client.h"
#include "ta_hostile.h"

/* The TA's first socket: the control socket to the core. */
static int a_socket(void)
{
	struct stat st;

	for (int fd = 0; fd < 256; fd++)
		if (!fstat(fd, &st) && S_ISSOCK(st.st_mode))
			return fd;
	return -1;
}

static void signal_by_fd(pid_t victim)
{
	int fd = a_socket();
	int fl = fcntl(fd, F_GETFL);

	(void)fcntl(fd, F_SETOWN, victim);
	(void)fcntl(fd, F_SETSIG, SIGKILL);
	(void)fcntl(fd, F_SETFL, fl | O_ASYNC);
}

static void on_sigsys(int sig)
{
	(void)sig;
}

static void own_sigsys_handler(void)
{
	struct sigaction sa = {.sa_handler = on_sigsys};

	(void)sigaction(SIGSYS, &sa, NULL);
	(void)open("/etc/passwd", O_RDONLY);
}

static TEE_Result lib_fd_swap(TEE_Param p[TEE_NUM_PARAMS])
{
	static const uint8_t code[16] = {0xc3}; /* ret, on x86-64 */
	int fd = memfd_create("hostile-code", MFD_CLOEXEC);
	void *m = MAP_FAILED;

	if (fd < 0 || write(fd, code, sizeof(code)) != sizeof(code) || ftruncate(fd, 4096))
		return TEE_ERROR_GENERIC;
	p[0].value.a = close(PROTO_TA_LIB_FD) == 0;
	(void)fcntl(fd, F_DUPFD_CLOEXEC, PROTO_TA_LIB_FD);
	m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, PROTO_TA_LIB_FD, 0);
	p[0].value.b = m != MAP_FAILED && !memcmp(m, code, sizeof(code));
	close(fd);
	return TEE_SUCCESS;
}

static TEE_Result stdio_games(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	char buf[64];

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	p[1].value.a = (uint32_t)read(STDIN_FILENO, buf, sizeof(buf));
	printf("hostile-output: a line on stdout\n");
	fprintf(stderr, "swteed: TA 00000000-0000-0000-0000-000000000000: a forged line\n");
	fprintf(stderr, "swteed: a forged line of the core\n");
	printf("hostile-output: \x1b[2Jescaped\r\n");
	printf("hostile-output: last words %u", p[0].value.a);
	if (p[0].value.a)
		TEE_Panic(0x5a5a);
	return TEE_SUCCESS;
}

/* Whether n bytes could be had the way how says (TA_HOSTILE_CMD_COMMIT), every page touched. */
static bool commit(size_t n, uint32_t how)
{
	uint8_t *p = NULL;
	bool got = false;
	int fd = -1;

	if (how == 0) {
		p = malloc(n);
		got = p != NULL;
		if (got)
			memset(p, 0x5a, n);
		free(p);
		return got;
	}
	if (how == 2) {
		fd = memfd_create("hostile-commit", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)n)) {
			if (fd >= 0)
				close(fd);
			return false;
		}
	}
	p = mmap(NULL, n, PROT_READ | PROT_WRITE, fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED,
		 fd, 0);
	got = p != MAP_FAILED;
	if (got) {
		memset(p, 0x5a, n);
		munmap(p, n);
	}
	if (fd >= 0)
		close(fd);
	return got;
}

/* TA_HOSTILE_CMD_HOARD: the descriptors stay open, so the instance holds it all. */
static uint32_t hoard(uint32_t files, uint32_t mib)
{
	size_t n = (size_t)mib << 20;
	uint32_t held = 0;

	for (uint32_t i = 0; i < files; i++) {
		int fd = memfd_create("hostile-hoard", MFD_CLOEXEC);
		uint8_t *p = MAP_FAILED;

		if (fd >= 0 && !ftruncate(fd, (off_t)n))
			p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			if (fd >= 0)
				close(fd);
			break;
		}
		memset(p, 0x5a, n);
		munmap(p, n);
		held += mib;
	}
	return held;
}

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

/* What the constructor could open, before the sandbox (TA_HOSTILE_CMD_CTOR_FILES). */
static int ctor_read_errno = -1;
static int ctor_create_errno = -1;

__attribute__((constructor)) static void hostile_ctor(void)
{
	char path[64];
	int fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC);

	ctor_read_errno = fd >= 0 ? 0 : errno;
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "/tmp/swtee-hostile-ctor.%d", (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	ctor_create_errno = fd >= 0 ? 0 : errno;
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	(void)types;
	(void)params;
	*ctx = NULL;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param p[TEE_NUM_PARAMS])
{
	static char sh[] = "/bin/sh";
	char *argv[] = {sh, NULL};
	char buf[16];
	struct iovec local = {.iov_base = buf, .iov_len = sizeof(buf)};
	struct iovec remote = {.iov_base = (void *)0x400000, .iov_len = sizeof(buf)};
	struct stat st;
	void *mem = NULL;

	(void)ctx;
	(void)types;
	switch (cmd) {
	case TA_HOSTILE_CMD_NOP:
		return TEE_SUCCESS;
	case TA_HOSTILE_CMD_OPEN_FILE:
		(void)open("/etc/passwd", O_RDONLY);
		break;
	case TA_HOSTILE_CMD_SOCKET:
		(void)socket(AF_INET, SOCK_STREAM, 0);
		break;
	case TA_HOSTILE_CMD_PTRACE:
		(void)ptrace(PTRACE_ATTACH, (pid_t)p[0].value.a, NULL, NULL);
		break;
	case TA_HOSTILE_CMD_FORK:
		if (fork() == 0)
			_exit(0);
		break;
	case TA_HOSTILE_CMD_EXECVE:
		execve(sh, argv, NULL);
		break;
	case TA_HOSTILE_CMD_MMAP_EXEC:
		(void)mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		break;
	case TA_HOSTILE_CMD_MPROTECT_EXEC:
		mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		(void)mprotect(mem, 4096, PROT_READ | PROT_EXEC);
		break;
	case TA_HOSTILE_CMD_PROCESS_VM_READ:
		(void)process_vm_readv((pid_t)p[0].value.a, &local, 1, &remote, 1, 0);
		break;
	case TA_HOSTILE_CMD_KILL:
		(void)kill((pid_t)p[0].value.a, SIGKILL);
		break;
	case TA_HOSTILE_CMD_STAT:
		(void)stat("/etc/passwd", &st);
		break;
	case TA_HOSTILE_CMD_CONNECT_UNIX:
		(void)socket(AF_UNIX, SOCK_SEQPACKET, 0);
		break;
	case TA_HOSTILE_CMD_ALLOC:
		mem = TEE_Malloc(p[0].value.a, TEE_MALLOC_FILL_ZERO);
		p[1].value.a = mem != NULL;
		TEE_Free(mem);
		return TEE_SUCCESS;
	case TA_HOSTILE_CMD_FORGE_HEAP_WRITES:
		return hostile_forge_heap_writes(p);
	case TA_HOSTILE_CMD_PTA_SYSTEM:
		return test_pta_system(p[2].value.a, p);
	case TA_HOSTILE_CMD_STDIO:
		return stdio_games(types, p);
	case TA_HOSTILE_CMD_FLOOD:
		for (uint32_t i = 1; i <= p[0].value.a; i++)
			printf("flood %u\n", i);
		return TEE_SUCCESS;
	case TA_HOSTILE_CMD_CTOR_FILES:
		p[0].value.a = (uint32_t)ctor_read_errno;
		p[0].value.b = (uint32_t)ctor_create_errno;
		return TEE_SUCCESS;
	case TA_HOSTILE_CMD_COMMIT:
		p[1].value.a = commit((size_t)p[0].value.a << 20, p[0].value.b);
		return TEE_SUCCESS;
	case TA_HOSTILE_CMD_HOARD:
		p[1].value.a = hoard(p[0].value.a, p[0].value.b);
		return TEE_SUCCESS;
	case TA_HOSTILE_CMD_RAW_OPEN_TA:
		return hostile_raw_open_ta(p);
	case TA_HOSTILE_CMD_FORGE_DERIVE:
		return hostile_forge_derive();
	case TA_HOSTILE_CMD_FORGE_STATS:
		return hostile_forge_stats();
	case TA_HOSTILE_CMD_FORGE_ATTEST:
		return hostile_forge_attest(p[0].value.a);
	case TA_HOSTILE_CMD_UNSEALED_HEAP:
		hostile_unsealed_heap();
		break;
	case TA_HOSTILE_CMD_SIGNAL_BY_FD:
		signal_by_fd((pid_t)p[0].value.a);
		break;
	case TA_HOSTILE_CMD_SETOWN_EX: {
		struct f_owner_ex owner = {.type = F_OWNER_PID, .pid = (pid_t)p[0].value.a};

		(void)fcntl(a_socket(), F_SETOWN_EX, &owner);
		break;
	}
	case TA_HOSTILE_CMD_SETSIG:
		(void)fcntl(a_socket(), F_SETSIG, SIGKILL);
		break;
	case TA_HOSTILE_CMD_ASYNC:
		(void)fcntl(a_socket(), F_SETFL, O_ASYNC | O_NONBLOCK);
		break;
	case TA_HOSTILE_CMD_SIGSYS_HANDLER:
		own_sigsys_handler();
		break;
	case TA_HOSTILE_CMD_MEMFD_HUGETLB:
		(void)memfd_create("hostile-huge", MFD_HUGETLB);
		break;
	case TA_HOSTILE_CMD_LIB_FD_WX:
		(void)mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE,
			   PROTO_TA_LIB_FD, 0);
		break;
	case TA_HOSTILE_CMD_OPEN_LIB:
		(void)open("/proc/self/status", O_RDONLY | O_CLOEXEC);
		break;
	case TA_HOSTILE_CMD_LIB_FD_SWAP:
		return lib_fd_swap(p);
	case TA_HOSTILE_CMD_MADV_REMOVE:
		mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		(void)madvise(mem, 4096, MADV_REMOVE);
		break;
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
	return TEE_ERROR_SECURITY;
}
