/*
 * The sandbox of a TA instance, entered once the verified TA is mapped and
 * before any entry point runs:
 *   - non-dumpable (no ptrace or /proc/PID/mem from same-uid processes),
 *     no new privileges, no core dumps;
 *   - resource limits: address space from TA_DATA_SIZE plus what the runtime
 *     and shared memory need, open files, processes;
 *   - a seccomp allowlist (libseccomp) that has no system call taking a
 *     path and none that makes a socket, a process or executable memory: no
 *     file system, no network, no code but the verified TA's and its
 *     libraries' (those loaded at run time come through the core:
 *     library_rules), and nothing that signals another process (no fcntl
 *     owner or O_ASYNC). Anything
 *     else raises SIGSYS, whose handler the TA cannot replace: the instance
 *     logs the refused call and ends; its clients see TEEC_ERROR_TARGET_DEAD,
 *     the core and every other instance carry on;
 *   - before the TA is loaded, so for its ELF constructors too: a Landlock
 *     domain with no file but the system's shared libraries (rt_sandbox_files);
 *   - with SWTEE_TA_NAMESPACES=1 in swteed's environment, also private user,
 *     mount, network and IPC namespaces with an empty root, as a second wall.
 *     It is not the default: it costs about 0.8 ms per instance start here,
 *     and the allowlist already leaves nothing those namespaces would hide.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "buf.h"
#include "log.h"
#include "msg.h"
#include "proto.h"
#include "runtime.h"

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	char line[160];
	char *name = NULL;
	int n = 0;

	(void)sig;
	(void)uc;
	name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, si->si_syscall);
	n = snprintf(line, sizeof(line), "sandbox refused system call %s (%d)\n", name ? name : "?",
		     si->si_syscall);
	if (n > 0)
		(void)!write(STDERR_FILENO, line,
			     (size_t)n < sizeof(line) ? (size_t)n : sizeof(line));
	_exit(75);
}

/*
 * /proc/self/status, opened before the load's Landlock domain forbids the
 * path (rt_sandbox_files); -1 before and after.
 */
static int status_fd = -1;

/* A size of this process's, in bytes, from /proc/self/status: key "VmSize:", "VmData:". */
static uint64_t vm_status(const char *key)
{
	char line[256];
	unsigned long kib = 0;
	int fd = status_fd >= 0 ? dup(status_fd) : open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* A dup of status_fd shares its offset: read from the start, a line at a time. */
	rewind(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) &&
		    sscanf(line + strlen(key), " %lu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

static void limit(int resource, rlim_t value)
{
	struct rlimit rl = {.rlim_cur = value, .rlim_max = value};

	setrlimit(resource, &rl);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * An empty root: a user namespace gives the instance the right to make its
 * own mount and network namespaces; its root becomes an empty, read-only
 * tmpfs. Returns 0 when done, -1 when the kernel does not allow it.
 */
static int empty_root(void)
{
	char map[64];
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC))
		return -1;
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned int)uid, (unsigned int)uid);
	if (write_file("/proc/self/setgroups", "deny") || write_file("/proc/self/uid_map", map))
		return -1;
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned int)gid, (unsigned int)gid);
	if (write_file("/proc/self/gid_map", map))
		return -1;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	/* Any directory serves as the mount point: the new root hides it. */
	if (mount("swtee-ta", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  "size=4k,mode=0500"))
		return -1;
	if (chdir("/tmp") || chroot(".") || chdir("/"))
		return -1;
	mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY | MS_BIND, NULL);
	return 0;
}

#define ALLOW(ctx, name) seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(name), 0)

/*
 * fcntl for descriptor flags and seals only. Nothing that names a process
 * (F_SETOWN, F_SETOWN_EX, F_SETSIG, leases) and no O_ASYNC: with those a TA
 * could have the kernel signal any process its user may signal.
 */
static int fcntl_allow(scmp_filter_ctx ctx)
{
	static const int cmds[] = {
	    F_GETFD, F_SETFD, F_GETFL, F_GET_SEALS, F_ADD_SEALS, F_DUPFD_CLOEXEC,
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 1,
				     SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)cmds[i])))
			return -1;
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(fcntl), 2,
				SCMP_A1(SCMP_CMP_EQ, F_SETFL),
				SCMP_A2(SCMP_CMP_MASKED_EQ, O_ASYNC, 0));
}

/*
 * The allowlist is compiled to BPF while the process is still a spare (off
 * the path of a session open: it takes about a quarter of a millisecond) and
 * loaded once the TA is mapped.
 */
static struct sock_filter bpf[4096];
static struct sock_fprog bpf_prog;

/* The calls allowed whatever their arguments. */
static int plain_allow(scmp_filter_ctx ctx)
{
	static const int plain[] = {
	    SCMP_SYS(read),
	    SCMP_SYS(write),
	    SCMP_SYS(readv),
	    SCMP_SYS(writev),
	    SCMP_SYS(pread64),
	    SCMP_SYS(pwrite64),
	    SCMP_SYS(fstat),
	    SCMP_SYS(fstatfs), /* is a memfd from a client hugetlb? (memfd_safe_size) */
	    SCMP_SYS(lseek),
	    SCMP_SYS(munmap),
	    SCMP_SYS(mremap),
	    SCMP_SYS(brk),
	    SCMP_SYS(sendmsg),
	    SCMP_SYS(recvmsg),
	    SCMP_SYS(sendto),
	    SCMP_SYS(recvfrom),
	    SCMP_SYS(poll),
	    SCMP_SYS(ppoll),
	    SCMP_SYS(futex),
	    SCMP_SYS(clock_gettime),
	    SCMP_SYS(clock_getres),
	    SCMP_SYS(clock_nanosleep),
	    SCMP_SYS(nanosleep),
	    SCMP_SYS(gettimeofday),
	    SCMP_SYS(getpid),
	    SCMP_SYS(gettid),
	    SCMP_SYS(getuid),
	    SCMP_SYS(geteuid),
	    SCMP_SYS(getgid),
	    SCMP_SYS(getegid),
	    SCMP_SYS(getrandom),
	    SCMP_SYS(rt_sigreturn),
	    SCMP_SYS(rt_sigprocmask),
	    SCMP_SYS(sigaltstack),
	    SCMP_SYS(exit),
	    SCMP_SYS(exit_group),
	    SCMP_SYS(ftruncate),
	    SCMP_SYS(sched_yield),
	    SCMP_SYS(restart_syscall),
	    SCMP_SYS(getrusage),
	    SCMP_SYS(times),
	    SCMP_SYS(uname),
	    SCMP_SYS(set_robust_list),
	    SCMP_SYS(rseq),
	    SCMP_SYS(dup),
	};

	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, plain[i], 0))
			return -1;
	return 0;
}

/*
 * TA libraries loaded at run time (src/core/ta_dlopen.c): code is mapped
 * from PROTO_TA_LIB_FD only, never writable, and only the core sets what
 * that descriptor holds. The dynamic loader's open of a library and its
 * close of that descriptor go to the core (the listener); no other call
 * can put another file at that number (no dup2, dup3 or close_range), and
 * no new descriptor takes it: it is never free.
 */
static int library_rules(scmp_filter_ctx ctx, bool notify)
{
	if (!notify)
		return ALLOW(ctx, close);
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(close), 1,
				SCMP_A0(SCMP_CMP_NE, PROTO_TA_LIB_FD)) ||
	       seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(close), 1,
				SCMP_A0(SCMP_CMP_EQ, PROTO_TA_LIB_FD)) ||
	       seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(openat), 1,
				SCMP_A2(SCMP_CMP_EQ, O_RDONLY | O_CLOEXEC)) ||
	       seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 2,
				SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC | PROT_WRITE, PROT_EXEC),
				SCMP_A4(SCMP_CMP_EQ, PROTO_TA_LIB_FD));
}

/* The calls allowed with some arguments only. */
static int limited_allow(scmp_filter_ctx ctx)
{
	/* Memory, but never executable memory: no code but the verified TA's. */
	if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
			     SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) ||
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
			     SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) ||
	    /* stat of an open descriptor only, never of a path */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(newfstatat), 1,
			     SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH)) ||
	    fcntl_allow(ctx) ||
	    /* every madvise but the one that frees a shared file's pages */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(madvise), 1,
			     SCMP_A2(SCMP_CMP_NE, MADV_REMOVE)) ||
	    /* memfds of ordinary pages only: hugetlb pages can vanish under a reader */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(memfd_create), 1,
			     SCMP_A1(SCMP_CMP_MASKED_EQ, MFD_HUGETLB, 0)) ||
	    /* any handler but SIGSYS's: a refused call always ends the instance */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(rt_sigaction), 1,
			     SCMP_A0(SCMP_CMP_NE, SIGSYS)) ||
	    /* abort() signals the caller only */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
			     SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid())) ||
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
			     SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME)))
		return -1;
	return 0;
}

/* What a test build's sanitizers need besides; nothing in other builds. */
static int sanitizer_allow(scmp_filter_ctx ctx)
{
#ifdef SWTEE_SANITIZE
	/*
	 * Test builds only: the sanitizers' report of a crash asks whether
	 * stderr is a terminal and reads their own executable's name.
	 */
	if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
			     SCMP_A1(SCMP_CMP_EQ, TCGETS)) ||
	    ALLOW(ctx, readlink) || ALLOW(ctx, readlinkat) || ALLOW(ctx, sched_getaffinity))
		return -1;
#else
	(void)ctx;
#endif
	return 0;
}

/* Exports ctx's filter as BPF into bpf and bpf_prog. */
static int bpf_export(scmp_filter_ctx ctx)
{
	struct stat st;
	int fd = memfd_create("seccomp-bpf", MFD_CLOEXEC);
	int rc = -1;

	if (fd < 0 || seccomp_export_bpf(ctx, fd) || fstat(fd, &st) || st.st_size <= 0 ||
	    (size_t)st.st_size > sizeof(bpf) || st.st_size % sizeof(bpf[0]) ||
	    pread(fd, bpf, (size_t)st.st_size, 0) != st.st_size)
		goto out;
	bpf_prog.len = (unsigned short)(st.st_size / sizeof(bpf[0]));
	bpf_prog.filter = bpf;
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	return rc;
}

/* Compiles the allowlist into bpf_prog; with notify, with the library rules' notifications. */
static int allowlist_compile(bool notify)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
	int rc = -1;

	if (!ctx)
		return -1;
	/*
	 * A binary tree of system call numbers, not a list: the kernel runs
	 * the filter once per system call number when it is loaded (to cache
	 * the calls it always allows), so its depth, not its length, is what a
	 * session open pays: a tree loads in about two thirds of the time.
	 */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2) || plain_allow(ctx) ||
	    limited_allow(ctx) || library_rules(ctx, notify) || sanitizer_allow(ctx) ||
	    bpf_export(ctx))
		goto out;
	rc = 0;
out:
	seccomp_release(ctx);
	return rc;
}

/*
 * The file system while the TA loads. The TA's ELF constructors run inside
 * dlopen, before the allowlist (which opens nothing) is in place: without
 * more, they would have every file of the core's user, its secrets among
 * them. A Landlock domain that allows no path but the system's shared
 * libraries (to read and map, as the dynamic loader may) keeps them off
 * everything else. The TA and its libraries are memfds reached through
 * /proc/self/fd, which Landlock leaves alone. The ruleset is made once, in
 * the zygote or the spare; a kernel without Landlock gets the allowlist
 * alone, as before.
 */
static int files_ruleset = -1;

/* Adds a path rule for path with rights; a path that is not there is no error. */
static int files_allow(const char *path, uint64_t rights)
{
	struct landlock_path_beneath_attr rule = {.allowed_access = rights};
	int fd = open(path, O_PATH | O_CLOEXEC);
	long r = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	rule.parent_fd = fd;
	r = syscall(SYS_landlock_add_rule, files_ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
	close(fd);
	return r ? -1 : 0;
}

static void files_prepare(void)
{
	static const char *const libdirs[] = {"/usr/lib", "/lib", "/lib64", "/usr/lib64",
					      "/usr/local/lib"};
	const uint64_t lib =
	    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
	/* struct landlock_ruleset_attr as of ABI 6; older kernels take its start. */
	struct {
		uint64_t fs, net, scoped;
	} attr = {0};
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	size_t size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
	bool ok = true;

	if (abi < 1) {
		log_debug("no Landlock in this kernel: a TA's constructors see the files of the "
			  "core's user");
		return;
	}
	/*
	 * Every file right of the kernel's ABI (13 in the first, then one each
	 * in 2, 3 and 5), TCP bind and connect (4), and signals and abstract
	 * Unix sockets out of the domain (6), none allowed.
	 */
	attr.fs = (1ULL << (abi >= 5 ? 16 : abi >= 3 ? 15 : abi == 2 ? 14 : 13)) - 1;
	attr.net = abi >= 4 ? 3 : 0;
	attr.scoped = abi >= 6 ? 3 : 0;
	files_ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (files_ruleset < 0)
		return;
	for (size_t i = 0; i < sizeof(libdirs) / sizeof(libdirs[0]); i++)
		ok = ok && !files_allow(libdirs[i], lib);
	ok = ok && !files_allow("/etc/ld.so.cache", LANDLOCK_ACCESS_FS_READ_FILE);
	if (!ok) {
		log_error("cannot make the Landlock ruleset of a TA's load: %s", strerror(errno));
		close(files_ruleset);
		files_ruleset = -1;
	}
}

const char *rt_sandbox_files(void)
{
	/* SWTEE_TA_NAMESPACES mounts its empty root after the load, which Landlock forbids. */
	if (getenv("SWTEE_TA_NO_SANDBOX") || getenv("SWTEE_TA_NAMESPACES") || files_ruleset < 0)
		return NULL;
	/* The sandbox reads what the load mapped (vm_status) after the domain forbids the path. */
	status_fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_landlock_restrict_self, files_ruleset, 0))
		return "cannot restrict the TA's files (Landlock)";
	close(files_ruleset);
	files_ruleset = -1;
	return NULL;
}

_Static_assert(PROTO_TA_LIB_FD < RT_SESSIONS_MAX + 64, "the sandbox allows the library descriptor");

/* Can a TA library be loaded now (the core has the listener, or there is no sandbox)? */
static bool libs_at_run_time = true;

bool rt_sandbox_libs_at_run_time(void)
{
	return libs_at_run_time;
}

/*
 * PROTO_TA_LIB_FD holds a placeholder no one can map, so that no new
 * descriptor takes it. A process that has that descriptor open already (a
 * TA's constructors opened that many files) is refused: it is not moved
 * from under whoever holds it.
 */
static int lib_fd_reserve(void)
{
	int fd = fcntl(PROTO_TA_LIB_FD, F_GETFD) >= 0 ? -1 : eventfd(0, EFD_CLOEXEC);
	int rc = fd >= 0 && dup3(fd, PROTO_TA_LIB_FD, O_CLOEXEC) == PROTO_TA_LIB_FD ? 0 : -1;

	if (fd >= 0)
		close(fd);
	return rc;
}

/* Sends the listener to the core, which alone reads it; 0 or -1. */
static int listener_send(int fd)
{
	uint8_t out[4];
	struct buf_writer w;
	int rc = 0;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_LISTENER);
	rc = msg_send(rt.ctl_fd, out, buf_written(&w), &fd, 1) ? -1 : 0;
	close(fd);
	return rc;
}

/*
 * Loads the allowlist, its seccomp listener going to the core. A kernel
 * without listeners, or a process some other filter's listener watches
 * already (a container's), gets the allowlist without the notifications:
 * no TA library loads at run time there.
 */
static int allowlist_load(void)
{
	long fd = -1;

	if (!bpf_prog.len)
		return -1;
	fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
		     &bpf_prog);
	if (fd >= 0)
		return listener_send((int)fd);
	log_info("no seccomp listener here (%s): TA libraries load only when an instance starts",
		 strerror(errno));
	libs_at_run_time = false;
	if (allowlist_compile(false))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &bpf_prog) ? -1 : 0;
}

/* The address space of a spare; the TA and its libraries fit in the slack. */
static uint64_t spare_vm;

int rt_sandbox_prepare(void)
{
	static int rc = 1; /* 1: not yet tried */

	if (rc != 1)
		return rc;
	spare_vm = vm_status("VmSize:");
	files_prepare();
	rc = allowlist_compile(true);
	return rc;
}

const char *rt_sandbox_enter(uint32_t data_size, uint32_t stack_size)
{
	struct sigaction sa = {.sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO};
	uint64_t as = spare_vm;
	uint64_t data = 0;
	bool ns = false;

	if (getenv("SWTEE_TA_NO_SANDBOX"))
		return NULL;
	prctl(PR_SET_DUMPABLE, 0);
	limit(RLIMIT_CORE, 0);
	limit(RLIMIT_NPROC, 0);
	limit(RLIMIT_NOFILE, RT_SESSIONS_MAX + 64);
	if (getenv("SWTEE_TA_NAMESPACES") && empty_root()) {
		return "SWTEE_TA_NAMESPACES is set but the kernel refuses the namespaces";
	}
	ns = getenv("SWTEE_TA_NAMESPACES") != NULL;
#ifndef SWTEE_SANITIZE
	/* The sanitizers reserve terabytes of address space: no AS limit there. */
	if (as)
		limit(RLIMIT_AS, as + data_size + stack_size + TA_SHM_WINDOW + TA_RUNTIME_SLACK);
	/*
	 * What the TA may commit: private memory (malloc, anonymous maps; the
	 * client's shared memory and the TEE_Malloc heap are shared maps and not
	 * counted) as much as TA_DATA_SIZE past what is mapped now, plus the
	 * runtime's slack; any one memory file as large. Past a file's limit a
	 * write or resize fails with EFBIG rather than ending the instance.
	 */
	data = vm_status("VmData:");
	if (data) {
		limit(RLIMIT_DATA, data + data_size + TA_RUNTIME_SLACK);
		limit(RLIMIT_FSIZE, (rlim_t)data_size + TA_RUNTIME_SLACK);
		signal(SIGXFSZ, SIG_IGN);
	}
#else
	(void)as;
	(void)data;
	(void)data_size;
	(void)stack_size;
#endif
	if (status_fd >= 0) {
		close(status_fd);
		status_fd = -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return "cannot set no_new_privs";
	if (lib_fd_reserve())
		return "cannot reserve the TA library descriptor";
	sigaction(SIGSYS, &sa, NULL);
	if (allowlist_load())
		return "cannot load the seccomp allowlist";
	log_debug("sandboxed (seccomp%s%s)", ns ? ", empty root, no network namespace" : "",
		  libs_at_run_time ? "" : ", no TA library loads at run time");
	return NULL;
}
