/*
 * The core's own seccomp allowlist, entered once swteed listens and has
 * started the TA zygote: from then on it needs no new process, no program,
 * no network socket, no executable memory and no debugging of others.
 *
 * Unlike a TA instance, the core is not ended for a refused call: every TA
 * and client depends on it, and a rare library path should not take the
 * TEE down. A refused call fails with EPERM and is logged with its name,
 * so a missing entry shows in the log rather than as a crash; swteed then
 * ends with status 3 when stopped, which fails every test run under
 * `swtee run`.
 *
 * Threads (storage workers, socket relays) are the only clones allowed.
 * clone3 passes its flags in memory a filter cannot read, so it is
 * answered ENOSYS, which makes the C library fall back to clone.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <ucontext.h>
#include <unistd.h>

#include "core.h"
#include "log.h"

#define NAMES_MAX 512

/* Names resolved up front: the SIGSYS handler may not allocate. */
static const char *syscall_names[NAMES_MAX];
static unsigned refusals;

static void set_result(void *uc, long value)
{
#if defined(__x86_64__)
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RAX] = value;
#elif defined(__aarch64__)
	((ucontext_t *)uc)->uc_mcontext.regs[0] = (unsigned long long)value;
#else
#error "set the system call result register for this architecture"
#endif
}

/* Appends s to line at *n (async-signal-safe; cut at cap). */
static void put_str(char *line, size_t cap, size_t *n, const char *s)
{
	while (*s && *n < cap)
		line[(*n)++] = *s++;
}

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	char line[160];
	char num[16];
	int nr = si->si_syscall;
	const char *name = nr >= 0 && nr < NAMES_MAX ? syscall_names[nr] : NULL;
	unsigned int v = nr < 0 ? 0u - (unsigned int)nr : (unsigned int)nr;
	size_t i = sizeof(num) - 1;
	size_t n = 0;
	int saved = errno;

	(void)sig;
	__atomic_add_fetch(&refusals, 1, __ATOMIC_RELAXED);
	/* No stdio here: the line is put together by hand. */
	num[i] = '\0';
	do {
		num[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v && i > 1);
	if (nr < 0)
		num[--i] = '-';
	put_str(line, sizeof(line), &n, "swteed: core sandbox refused system call ");
	put_str(line, sizeof(line), &n, name ? name : "?");
	put_str(line, sizeof(line), &n, " (");
	put_str(line, sizeof(line), &n, num + i);
	put_str(line, sizeof(line), &n, ")\n");
	(void)!write(STDERR_FILENO, line, n);
	set_result(uc, -EPERM);
	errno = saved;
}

static void resolve_names(void)
{
	for (int nr = 0; nr < NAMES_MAX; nr++)
		if (!syscall_names[nr])
			syscall_names[nr] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
}

static int allow_all(scmp_filter_ctx ctx, const int *nrs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nrs[i], 0))
			return -1;
	return 0;
}

/* Descriptors and messages. */
static int allow_descriptors(scmp_filter_ctx ctx)
{
	static const int nrs[] = {
	    SCMP_SYS(read),	    SCMP_SYS(write),	  SCMP_SYS(readv),
	    SCMP_SYS(writev),	    SCMP_SYS(pread64),	  SCMP_SYS(pwrite64),
	    SCMP_SYS(lseek),	    SCMP_SYS(close),	  SCMP_SYS(dup),
	    SCMP_SYS(fcntl),	    SCMP_SYS(fstat),	  SCMP_SYS(newfstatat),
	    SCMP_SYS(statx),	    SCMP_SYS(fstatfs),	  SCMP_SYS(ftruncate),
	    SCMP_SYS(memfd_create), SCMP_SYS(sendmsg),	  SCMP_SYS(recvmsg),
	    SCMP_SYS(sendto),	    SCMP_SYS(recvfrom),	  SCMP_SYS(accept4),
	    SCMP_SYS(getsockopt),   SCMP_SYS(shutdown),	  SCMP_SYS(epoll_create1),
	    SCMP_SYS(epoll_ctl),    SCMP_SYS(epoll_wait), SCMP_SYS(epoll_pwait),
	    SCMP_SYS(poll),	    SCMP_SYS(ppoll),	  SCMP_SYS(pipe2),
	    SCMP_SYS(eventfd2),
	};

	return allow_all(ctx, nrs, sizeof(nrs) / sizeof(nrs[0]));
}

/* The secure dir (HUK, emulated RPMB) and /proc facts of peers. */
static int allow_files(scmp_filter_ctx ctx)
{
	static const int nrs[] = {
	    SCMP_SYS(openat),	 SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(getdents64),
	    SCMP_SYS(rename),	 SCMP_SYS(renameat), SCMP_SYS(renameat2),  SCMP_SYS(unlink),
	    SCMP_SYS(unlinkat),	 SCMP_SYS(mkdir),    SCMP_SYS(mkdirat),	   SCMP_SYS(fsync),
	    SCMP_SYS(fdatasync),
	};

	return allow_all(ctx, nrs, sizeof(nrs) / sizeof(nrs[0]));
}

/* Memory (executable memory is in add_limited_rules); threads, time, signals, children. */
static int allow_memory_and_threads(scmp_filter_ctx ctx)
{
	static const int nrs[] = {
	    /* memory */
	    SCMP_SYS(brk),
	    SCMP_SYS(munmap),
	    SCMP_SYS(mremap),
	    SCMP_SYS(madvise),
	    SCMP_SYS(mlock),
	    SCMP_SYS(munlock),
	    /* threads, time, signals, children */
	    SCMP_SYS(futex),
	    SCMP_SYS(set_robust_list),
	    SCMP_SYS(rseq),
	    SCMP_SYS(sched_yield),
	    SCMP_SYS(sched_getaffinity),
	    SCMP_SYS(clock_gettime),
	    SCMP_SYS(clock_getres),
	    SCMP_SYS(clock_nanosleep),
	    SCMP_SYS(nanosleep),
	    SCMP_SYS(gettimeofday),
	    SCMP_SYS(getrandom),
	    SCMP_SYS(getpid),
	    SCMP_SYS(gettid),
	    SCMP_SYS(getuid),
	    SCMP_SYS(geteuid),
	    SCMP_SYS(getgid),
	    SCMP_SYS(getegid),
	    SCMP_SYS(getrusage),
	    SCMP_SYS(uname),
	    SCMP_SYS(rt_sigreturn),
	    SCMP_SYS(rt_sigprocmask),
	    SCMP_SYS(rt_sigaction),
	    SCMP_SYS(sigaltstack),
	    SCMP_SYS(restart_syscall),
	    SCMP_SYS(wait4),
	    SCMP_SYS(waitid),
	    SCMP_SYS(kill),
	    SCMP_SYS(exit),
	    SCMP_SYS(exit_group),
	};

	return allow_all(ctx, nrs, sizeof(nrs) / sizeof(nrs[0]));
}

static int listener_ioctl(scmp_filter_ctx ctx, unsigned long request)
{
	return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(ioctl), 1,
				SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, (scmp_datum_t)request));
}

/* The calls allowed with some arguments only. */
static int add_limited_rules(scmp_filter_ctx ctx)
{
	return
	    /* a thread, never a process */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
			     SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)) ||
	    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) ||
	    /* memory, but never executable memory */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
			     SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) ||
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
			     SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) ||
	    /* channels to instances are socket pairs; nothing reaches a network */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socketpair), 1,
			     SCMP_A0(SCMP_CMP_EQ, AF_UNIX, 0)) ||
	    /* abort() signals its own process only */
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1,
			     SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)getpid(), 0)) ||
	    seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(prctl), 1,
			     SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME, 0)) ||
	    /* the seccomp listeners of TA sandboxes (ta_dlopen.c), no other ioctl */
	    listener_ioctl(ctx, SECCOMP_IOCTL_NOTIF_RECV) ||
	    listener_ioctl(ctx, SECCOMP_IOCTL_NOTIF_SEND) ||
	    listener_ioctl(ctx, SECCOMP_IOCTL_NOTIF_ADDFD);
}

/* The core's allowlist: the plain calls by family, then those with argument checks. */
static int add_rules(scmp_filter_ctx ctx)
{
	if (allow_descriptors(ctx) || allow_files(ctx) || allow_memory_and_threads(ctx))
		return -1;
	return add_limited_rules(ctx);
}

#ifdef SWTEE_SANITIZE
/*
 * Test builds only: at exit LeakSanitizer stops the threads from a helper
 * it clones and attaches with ptrace, and lists /proc with open(2) and
 * getdents(2), not the calls glibc makes; the reports ask whether stderr
 * is a terminal. The helper runs with SIGSYS blocked, so a refusal there
 * would end it and hang the exit.
 */
static int add_sanitizer_rules(scmp_filter_ctx ctx)
{
	static const int extra[] = {
	    SCMP_SYS(clone),  SCMP_SYS(ptrace),	 SCMP_SYS(ioctl), SCMP_SYS(prctl),
	    SCMP_SYS(tgkill), SCMP_SYS(getppid), SCMP_SYS(open),  SCMP_SYS(getdents),
	};

	return allow_all(ctx, extra, sizeof(extra) / sizeof(extra[0]));
}
#endif

unsigned core_sandbox_refusals(void)
{
	return __atomic_load_n(&refusals, __ATOMIC_RELAXED);
}

int core_sandbox_enter(void)
{
	struct sigaction sa = {.sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO | SA_RESTART};
	scmp_filter_ctx ctx = NULL;
	int rc = -1;

	if (getenv("SWTEE_CORE_NO_SANDBOX")) {
		log_info("core sandbox disabled by SWTEE_CORE_NO_SANDBOX");
		return 0;
	}
	resolve_names();
	ctx = seccomp_init(SCMP_ACT_TRAP);
	if (!ctx)
		return -1;
	/* Every thread, also those already started, gets the same filter. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) || add_rules(ctx))
		goto out;
#ifdef SWTEE_SANITIZE
	if (add_sanitizer_rules(ctx))
		goto out;
#endif
	if (sigaction(SIGSYS, &sa, NULL) || seccomp_load(ctx))
		goto out;
	log_debug("core sandbox: seccomp allowlist loaded");
	rc = 0;
out:
	seccomp_release(ctx);
	return rc;
}
