/*
 * A TA instance under a debugger, a wrapper command or a sanitizer.
 *
 * swteed's environment selects the TAs (`swtee run --debug-ta UUID
 * --debug-wrapper CMD` sets it): SWTEE_DEBUG_TA is a comma-separated list
 * of UUIDs, or "*"; SWTEE_DEBUG_WRAPPER a command to run them under. The
 * instance process of a selected TA
 *   - loads its verified ELF from a private copy on disk, not from the
 *     memfd, so that gdb, valgrind and perf find its symbols by file name;
 *   - with a wrapper, replaces itself with `WRAPPER swtee-ta-host --instance
 *     ...`: a fresh process image, which valgrind needs (a fork of the zygote
 *     has none to give it);
 *   - without one, prints its pid and waits until a debugger attaches;
 *   - runs without the sandbox: a debugger needs ptrace, a wrapper files.
 * A TA linked against the AddressSanitizer runtime needs it loaded before
 * anything else: its instance re-executes itself with LD_PRELOAD set.
 * Instrumented TAs (the kit's CFG_TA_SANITIZE and CFG_TA_COVERAGE) export
 * swtee_ta_instrumented and also run without the sandbox: a sanitizer's
 * symbolizer and gcov open files. Each of these choices is logged.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "elf_dyn.h"
#include "log.h"
#include "paths.h"
#include "runtime.h"

static struct {
	bool selected;		   /* SWTEE_DEBUG_TA names this TA */
	bool execed;		   /* this process is the exec'd --instance one */
	bool wrapped;		   /* ... started under SWTEE_DEBUG_WRAPPER */
	char copy[SWTEE_PATH_MAX]; /* the on-disk copy of the ELF, or "" */
} dbg;

/* Always printed, whatever the log level: the developer asked for these. */
static void notice(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void notice(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s\n", msg);
}

static bool selected(void)
{
	const char *p = getenv("SWTEE_DEBUG_TA");
	size_t len = strlen(rt.uuid_str);

	if (!p)
		return false;
	while (*p) {
		size_t n = strcspn(p, ", ");

		if ((n == 1 && *p == '*') || (n == len && !strncasecmp(p, rt.uuid_str, n)))
			return true;
		p += n;
		p += strspn(p, ", ");
	}
	return false;
}

static const char *wrapper(void)
{
	const char *w = getenv("SWTEE_DEBUG_WRAPPER");

	return w && *w ? w : NULL;
}

static int clear_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl < 0 ? -1 : fcntl(fd, F_SETFD, fl & ~FD_CLOEXEC);
}

/* LD_PRELOAD=lib, ahead of what the environment had. */
static int preload(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char v[1024];
	int r = old && *old ? snprintf(v, sizeof(v), "%s:%s", lib, old)
			    : snprintf(v, sizeof(v), "%s", lib);

	if (r < 0 || (size_t)r >= sizeof(v))
		return -1;
	return setenv("LD_PRELOAD", v, 1);
}

/*
 * 1 and the name in name[n] when the ELF on fd needs the AddressSanitizer
 * runtime, 0 when not, -1 when the ELF is malformed.
 */
static int needs_asan(int fd, char *name, size_t n)
{
	struct elf_needed need[ELF_DYN_NEEDED_MAX];
	int count = elf_needed_list(fd, need, ELF_DYN_NEEDED_MAX);

	for (int i = 0; i < count; i++)
		if (!strncmp(need[i].name, "libasan.so", 10) && need[i].len < n) {
			memcpy(name, need[i].name, need[i].len + 1);
			return 1;
		}
	return count < 0 ? -1 : 0;
}

const char *rt_debug_exec(int elf_fd)
{
	static char err[256];
	char host[SWTEE_PATH_MAX];
	char asan[ELF_DYN_NAME_MAX] = "";
	char a[5][48];
	const char *w = NULL;
	bool need_asan = false;
	ssize_t n = 0;

	dbg.selected = selected();
	if (dbg.execed)
		return NULL;
	switch (needs_asan(elf_fd, asan, sizeof(asan))) {
	case 0:
		break;
	case 1:
		need_asan = !dlsym(RTLD_DEFAULT, "__asan_init");
		break;
	default:
		return "the TA is not a well-formed ELF shared object";
	}
	w = dbg.selected ? wrapper() : NULL;
	if (!w && !need_asan)
		return NULL;

	n = readlink("/proc/self/exe", host, sizeof(host) - 1);
	if (n <= 0)
		return "cannot find swtee-ta-host to re-execute";
	host[n] = '\0';
	snprintf(a[0], sizeof(a[0]), "%d", rt.ctl_fd);
	snprintf(a[1], sizeof(a[1]), "%d", elf_fd);
	snprintf(a[2], sizeof(a[2]), "%u", rt.flags);
	snprintf(a[3], sizeof(a[3]), "%u", rt.instance_id);
	snprintf(a[4], sizeof(a[4]), "%d", rt.log_level);
	if (clear_cloexec(rt.ctl_fd) || clear_cloexec(elf_fd))
		return "cannot pass the instance's descriptors on";
	/* The TA names its libraries by these descriptors (libs.c). */
	for (size_t i = 0; i < rt.nlibs; i++)
		if (clear_cloexec(rt.lib_fd[i]))
			return "cannot pass the TA's libraries on";
	if (need_asan) {
		if (preload(asan))
			return "LD_PRELOAD is too long to add the ASan runtime";
		notice("built with AddressSanitizer: starting a fresh instance process with "
		       "LD_PRELOAD=%s",
		       asan);
	}
	if (w) {
		/* The shell splits the wrapper as the user wrote it. */
		char *argv[] = {"/bin/sh",
				"-c",
				"eval \"exec $SWTEE_DEBUG_WRAPPER \\\"\\$@\\\"\"",
				"swtee-ta-host",
				host,
				"--instance",
				a[0],
				a[1],
				rt.uuid_str,
				a[2],
				a[3],
				a[4],
				NULL};

		notice("starting the instance under: %s", w);
		execv(argv[0], argv);
	} else {
		char *argv[] = {
		    "swtee-ta-host", "--instance", a[0], a[1], rt.uuid_str, a[2], a[3], a[4], NULL};

		execv(host, argv);
	}
	snprintf(err, sizeof(err), "cannot re-execute the instance: %s", strerror(errno));
	return err;
}

/* Copies the ELF to a private file; returns 0 and its path in dbg.copy. */
static int copy_elf(int elf_fd)
{
	const char *tmp = getenv("TMPDIR");
	char dir[SWTEE_PATH_MAX];
	char buf[65536];
	struct stat st;
	off_t off = 0;
	ssize_t n = 0;
	int fd = -1;
	int r = snprintf(dir, sizeof(dir), "%s/swtee-debug-%u", tmp && *tmp ? tmp : "/tmp",
			 (unsigned int)getuid());

	if (r < 0 || (size_t)r >= sizeof(dir))
		return -1;
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -1;
	/* Ours alone, or not at all. */
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077))
		return -1;
	r = snprintf(dbg.copy, sizeof(dbg.copy), "%s/%s.%d.elf", dir, rt.uuid_str, (int)getpid());
	if (r < 0 || (size_t)r >= sizeof(dbg.copy))
		goto fail;
	unlink(dbg.copy); /* left by an earlier process with this pid */
	fd = open(dbg.copy, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		goto fail;
	while ((n = pread(elf_fd, buf, sizeof(buf), off)) > 0) {
		if (write(fd, buf, (size_t)n) != n)
			goto fail;
		off += n;
	}
	if (n < 0 || close(fd))
		goto fail;
	return 0;
fail:
	if (fd >= 0) {
		close(fd);
		unlink(dbg.copy);
	}
	dbg.copy[0] = '\0';
	return -1;
}

int rt_debug_load_path(int elf_fd, char *path, size_t n)
{
	int r = 0;

	if (dbg.selected && !copy_elf(elf_fd))
		r = snprintf(path, n, "%s", dbg.copy);
	else
		/* by pid, not self: a debugger opens this name from its own process */
		r = snprintf(path, n, "/proc/%d/fd/%d", (int)getpid(), elf_fd);
	if (dbg.selected && !dbg.copy[0])
		notice("cannot write a copy of the TA for the debugger; loading it from %s", path);
	return r < 0 || (size_t)r >= n ? -1 : 0;
}

static bool traced(void)
{
	char line[128];
	long tracer = 0;
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %ld", &tracer) == 1)
			break;
	fclose(f);
	return tracer != 0;
}

void rt_debug_wait(void)
{
	const struct timespec tick = {.tv_nsec = 50 * 1000 * 1000};
	int pid = (int)getpid();

	if (!dbg.selected || dbg.wrapped)
		return;
	/* Yama (ptrace_scope 1) lets only an ancestor attach unless told. */
	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	notice("instance pid %d loaded %s and waits for a debugger: gdb -p %d", pid,
	       dbg.copy[0] ? dbg.copy : "the TA", pid);
	while (!traced())
		nanosleep(&tick, NULL);
	notice("debugger attached to pid %d; carrying on", pid);
}

bool rt_debug_files_open(void)
{
	/* Debuggers and wrappers read the ELF's copy on disk; gcov writes its counts. */
	return dbg.selected || getenv("SWTEE_ALLOW_INSTRUMENTED_TAS") != NULL;
}

int rt_debug_unsandboxed(void *handle)
{
	const char *instr = handle ? dlsym(handle, "swtee_ta_instrumented") : NULL;

	if (dbg.selected) {
		notice("under debug: running without the sandbox");
		return 1;
	}
	if (!instr)
		return 0;
	/*
	 * The mark is the TA's own word: it may skip the sandbox only when
	 * whoever started swteed allowed instrumented TAs.
	 */
	if (!getenv("SWTEE_ALLOW_INSTRUMENTED_TAS")) {
		notice(
		    "instrumented build (%.64s) refused: it cannot run in the sandbox; allow "
		    "such TAs with swtee run --allow-instrumented (SWTEE_ALLOW_INSTRUMENTED_TAS=1)",
		    instr);
		return -1;
	}
	notice("instrumented build (%.64s): running without the sandbox", instr);
	return 1;
}

void rt_debug_end(int status)
{
	if (dbg.copy[0])
		unlink(dbg.copy);
	/*
	 * A process of its own may run every exit handler (a sanitizer's leak
	 * check among them); a fork of the zygote must not run the zygote's.
	 */
	if (dbg.execed)
		exit(status);
	rt_exit(status);
}

static int parse_u32(const char *s, uint32_t *out)
{
	char *end = NULL;
	unsigned long v = 0;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int rt_debug_instance_main(int argc, char **argv)
{
	uint32_t ctl = 0;
	uint32_t elf = 0;
	uint32_t level = 0;

	/* --instance CTL_FD ELF_FD UUID FLAGS ID LEVEL, from rt_debug_exec */
	if (argc != 8 || parse_u32(argv[2], &ctl) || parse_u32(argv[3], &elf) ||
	    !uuid_parse(argv[4], &rt.uuid) || parse_u32(argv[5], &rt.flags) ||
	    parse_u32(argv[6], &rt.instance_id) || parse_u32(argv[7], &level) || ctl > 1024 ||
	    elf > 1024 || fcntl((int)ctl, F_GETFD) < 0 || fcntl((int)elf, F_GETFD) < 0) {
		fprintf(stderr, "swtee-ta-host: --instance is for swtee-ta-host itself\n");
		return 2;
	}
	fcntl((int)ctl, F_SETFD, FD_CLOEXEC);
	fcntl((int)elf, F_SETFD, FD_CLOEXEC);
	uuid_format(&rt.uuid, rt.uuid_str);
	dbg.execed = true;
	/* Selected with a wrapper set: this is the process the wrapper started. */
	dbg.wrapped = wrapper() && selected();
	rt_instance_main_loaded((int)ctl, (int)elf, (int)level);
}
