/*
 * regression 1050: the TA sandbox. A hostile TA tries to open files, make
 * sockets, ptrace, fork, exec, map executable memory, read and kill other
 * processes, have the kernel signal them, catch the sandbox's SIGSYS, make
 * memory that can vanish under a reader: each attempt ends that instance
 * only (TEEC_ERROR_TARGET_DEAD from the TEE), and other sessions carry on. It also forges storage
 * requests about its heap, which the core refuses.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_basic.h"
#include "ta_hostile.h"
#include "xtest_helpers.h"

static const TEEC_UUID hostile_uuid = TA_HOSTILE_UUID;
static const TEEC_UUID basic_uuid = TA_BASIC_UUID;

/* The core's pid, from the context's socket: a target worth attacking. */
static uint32_t core_pid(void)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(xtest_teec_ctx.imp.fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return 1;
	return (uint32_t)cred.pid;
}

/*
 * The attack in full: the TA asks the kernel to SIGKILL a process of its
 * user whenever its control socket has data, then the core writes to it.
 * The victim is a child of ours; it must outlive the attempt.
 */
static void signal_by_fd(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	int status = 0;
	pid_t victim = 0;

	Do_ADBG_BeginSubCase(c, "A TA may not have the kernel signal another process");
	victim = fork();
	if (victim == 0) {
		pause();
		_exit(0);
	}
	if (ADBG_EXPECT_TRUE(c, victim > 0) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &hostile_uuid, NULL, &orig))) {
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].value.a = (uint32_t)victim;
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_TARGET_DEAD,
		    TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_SIGNAL_BY_FD, &op, &orig));
		/* Had the instance lived, this request would have fired the signal. */
		(void)TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_NOP, NULL, &orig);
		TEEC_CloseSession(&s);
		usleep(50 * 1000);
		ADBG_EXPECT(c, 0, waitpid(victim, &status, WNOHANG));
	}
	if (victim > 0) {
		kill(victim, SIGKILL);
		waitpid(victim, &status, 0);
	}
	Do_ADBG_EndSubCase(c, NULL);
}

/*
 * A TA's ELF constructors run inside the load, before the seccomp
 * allowlist: where the kernel has Landlock, they reach no file but the
 * system's shared libraries.
 */
static void constructor_files(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	Do_ADBG_BeginSubCase(c, "A TA's constructor opens no file before the sandbox");
	if (syscall(SYS_landlock_create_ruleset, NULL, 0, 1 /* the ABI version */) < 1) {
		Do_ADBG_Log("    skipped: this kernel has no Landlock");
	} else if (ADBG_EXPECT_TEEC_SUCCESS(
		       c, xtest_teec_open_session(&s, &hostile_uuid, NULL, &orig))) {
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_CTOR_FILES, &op, &orig))) {
			/* EACCES: Landlock's refusal, where 0 was the open that succeeded. */
			ADBG_EXPECT(c, EACCES, op.params[0].value.a);
			ADBG_EXPECT(c, EACCES, op.params[0].value.b);
		}
		TEEC_CloseSession(&s);
	}
	Do_ADBG_EndSubCase(c, NULL);
}

/*
 * The one descriptor a TA may map code from (PROTO_TA_LIB_FD) holds what
 * the core put there: closing it only seems to work, and no file of the
 * TA's can take its number.
 */
static void lib_fd_swap(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	Do_ADBG_BeginSubCase(c, "A TA cannot put code of its own at the library descriptor");
	if (ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &hostile_uuid, NULL, &orig))) {
		op.paramTypes =
		    TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_LIB_FD_SWAP, &op, &orig))) {
			ADBG_EXPECT(c, 1, op.params[0].value.a);
			ADBG_EXPECT(c, 0, op.params[0].value.b);
		}
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_NOP, NULL, &orig));
		TEEC_CloseSession(&s);
	}
	Do_ADBG_EndSubCase(c, NULL);
}

static void xtest_tee_test_1050(ADBG_Case_t *c)
{
	static const struct {
		uint32_t cmd;
		const char *what;
	} attempts[] = {
	    {TA_HOSTILE_CMD_OPEN_FILE, "open a file"},
	    {TA_HOSTILE_CMD_STAT, "stat a path"},
	    {TA_HOSTILE_CMD_SOCKET, "make an IP socket"},
	    {TA_HOSTILE_CMD_CONNECT_UNIX, "make a Unix socket"},
	    {TA_HOSTILE_CMD_PTRACE, "ptrace the core"},
	    {TA_HOSTILE_CMD_FORK, "fork"},
	    {TA_HOSTILE_CMD_EXECVE, "execve a shell"},
	    {TA_HOSTILE_CMD_MMAP_EXEC, "map executable memory"},
	    {TA_HOSTILE_CMD_MPROTECT_EXEC, "make memory executable"},
	    {TA_HOSTILE_CMD_LIB_FD_WX, "map the library descriptor writable and executable"},
	    {TA_HOSTILE_CMD_OPEN_LIB, "open a file as the loader does, with no library to load"},
	    {TA_HOSTILE_CMD_PROCESS_VM_READ, "read the core's memory"},
	    {TA_HOSTILE_CMD_KILL, "kill the core"},
	    {TA_HOSTILE_CMD_SETOWN_EX, "name a process to signal (F_SETOWN_EX)"},
	    {TA_HOSTILE_CMD_SETSIG, "choose the signal of its I/O (F_SETSIG)"},
	    {TA_HOSTILE_CMD_ASYNC, "ask for signals on I/O (O_ASYNC)"},
	    {TA_HOSTILE_CMD_SIGSYS_HANDLER, "catch the sandbox's SIGSYS"},
	    {TA_HOSTILE_CMD_MEMFD_HUGETLB, "make a hugetlb memfd"},
	    {TA_HOSTILE_CMD_MADV_REMOVE, "free a file's pages (MADV_REMOVE)"},
	};
	TEEC_Session other = {0};
	uint32_t orig = 0;
	uint32_t pid = core_pid();

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&other, &basic_uuid, NULL, &orig)))
		return;
	for (size_t i = 0; i < sizeof(attempts) / sizeof(attempts[0]); i++) {
		TEEC_Session s = {0};
		TEEC_Operation op = TEEC_OPERATION_INITIALIZER;

		Do_ADBG_BeginSubCase(c, "A TA may not %s", attempts[i].what);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &hostile_uuid, NULL, &orig))) {
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_NOP, NULL, &orig));
			op.paramTypes =
			    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
			op.params[0].value.a = pid;
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_TARGET_DEAD,
			    TEEC_InvokeCommand(&s, attempts[i].cmd, &op, &orig));
			ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
			TEEC_CloseSession(&s);
		}
		/* The core and the other instance are untouched. */
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 TEEC_InvokeCommand(&other, TA_BASIC_CMD_NOP, NULL, &orig));
		Do_ADBG_EndSubCase(c, NULL);
	}
	TEEC_CloseSession(&other);

	signal_by_fd(c);
	constructor_files(c);
	lib_fd_swap(c);

	Do_ADBG_BeginSubCase(c, "The heap is bounded by TA_DATA_SIZE");
	{
		TEEC_Session s = {0};
		TEEC_Operation op = TEEC_OPERATION_INITIALIZER;

		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &hostile_uuid, NULL, &orig))) {
			op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT,
							 TEEC_NONE, TEEC_NONE);
			op.params[0].value.a = 512 * 1024;
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_ALLOC, &op, &orig));
			ADBG_EXPECT(c, 1, op.params[1].value.a);
			op.params[0].value.a = 2 * 1024 * 1024;
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_ALLOC, &op, &orig));
			ADBG_EXPECT(c, 0, op.params[1].value.a);
			TEEC_CloseSession(&s);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);

	/*
	 * The core maps a TA's heap to take large storage writes from it: a
	 * write that claims heap data outside the heap is refused, the one
	 * inside it lands, and a heap that could shrink is not taken at all.
	 */
	Do_ADBG_BeginSubCase(c, "Storage writes a TA forges from outside its heap are refused");
	{
		TEEC_Session s = {0};
		TEEC_Operation op = TEEC_OPERATION_INITIALIZER;

		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &hostile_uuid, NULL, &orig))) {
			op.paramTypes =
			    TEEC_PARAM_TYPES(TEEC_NONE, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
			ADBG_EXPECT_TEEC_SUCCESS(
			    c,
			    TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_FORGE_HEAP_WRITES, &op, &orig));
			ADBG_EXPECT(c, 4, op.params[1].value.a);
			TEEC_CloseSession(&s);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A heap that can shrink ends the TA that offers it");
	{
		TEEC_Session s = {0};

		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &hostile_uuid, NULL, &orig))) {
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_TARGET_DEAD,
			    TEEC_InvokeCommand(&s, TA_HOSTILE_CMD_UNSEALED_HEAP, NULL, &orig));
			ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
			TEEC_CloseSession(&s);
		}
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &basic_uuid, NULL, &orig))) {
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, TEEC_InvokeCommand(&s, TA_BASIC_CMD_NOP, NULL, &orig));
			TEEC_CloseSession(&s);
		}
	}
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 1050, xtest_tee_test_1050,
		 "Sandbox: forbidden system calls end only the TA");
