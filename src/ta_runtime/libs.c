/*
 * TA libraries. A TA linked with a library built with SHLIBNAME/SHLIBUUID
 * names it in its DT_NEEDED by UUID; the core finds and verifies each one
 * (src/core/ta_libs.c) and hands over their ELFs with the TA's, every
 * library after those it needs. The dynamic loader would look for a file of
 * that name: instead each DT_NEEDED UUID, in a private copy of the object
 * that names it, is rewritten to the /proc path of the library's own
 * descriptor (a shorter string, NUL-padded), so that the loader maps the
 * verified library and nothing else, before the sandbox.
 *
 * Once the TA is loaded, dlopen() takes the TA itself (NULL) and TA
 * libraries by UUID, never a path. A library that is not loaded yet comes
 * from the core (MSG_CTL_DLOPEN), verified; the sandbox maps its code from
 * the one descriptor the core sets (src/core/ta_dlopen.c), and the TA with
 * its libraries become global first, so that the new library's references
 * to them resolve, as they do on OP-TEE, where every module shares one
 * namespace. Any other name gets NULL and a dlerror() message.
 *
 * dl_iterate_phdr() in a TA is OP-TEE's: every loaded object is visited
 * whatever the callback returns, and the call returns what the last visit
 * returned (glibc's stops at the first nonzero return). The kit's <link.h>
 * names swtee_ta_dl_iterate_phdr in its place, so only code built against
 * the kit gets it; glibc's own stays as it is for everything else in the
 * process (the runtime, the unwinder, the sanitizers' runtime).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "elf_dyn.h"
#include "log.h"
#include "msg.h"
#include "proto.h"
#include "runtime.h"

#define COPY_CHUNK (64 * 1024)

static bool locked;	     /* the TA is loaded: dlopen finds, never loads */
static char error_text[256]; /* dlerror()'s next answer, when set */

/* A sealed private copy of the ELF on fd, or -1. */
static int copy_of(int fd, const char *name)
{
	static uint8_t buf[COPY_CHUNK];
	struct stat st;
	off_t off = 0;
	int out = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (out < 0 || fstat(fd, &st))
		goto err;
	while (off < st.st_size) {
		ssize_t n = pread(fd, buf, sizeof(buf), off);

		if (n <= 0 || write(out, buf, (size_t)n) != n)
			goto err;
		off += n;
	}
	return out;
err:
	if (out >= 0)
		close(out);
	return -1;
}

/* The name the loader maps the library on fd by. */
static void lib_path(int fd, char *out, size_t n)
{
	snprintf(out, n, "/proc/%d/fd/%d", (int)getpid(), fd);
}

/*
 * The object on *fd with each DT_NEEDED UUID among uuids[0..n) rewritten to
 * the path of lib_fd[i]; *fd is replaced (and closed) when anything changes.
 */
static const char *relink(int *fd, const char *what, const struct swtee_uuid *uuids,
			  const int *lib_fd, size_t n)
{
	static char err[128];
	struct elf_needed need[ELF_DYN_NEEDED_MAX];
	int count = elf_needed_list(*fd, need, ELF_DYN_NEEDED_MAX);
	int out = -1;

	if (count < 0)
		return "a malformed dynamic section";
	for (int i = 0; i < count; i++) {
		struct swtee_uuid u;
		char path[64];
		size_t k = 0;

		if (!uuid_parse(need[i].name, &u))
			continue;
		while (k < n && !uuid_equal(&uuids[k], &u))
			k++;
		if (k == n) {
			snprintf(err, sizeof(err),
				 "%.16s needs TA library %.36s, which was not loaded", what,
				 need[i].name);
			return err;
		}
		lib_path(lib_fd[k], path, sizeof(path));
		if (strlen(path) > need[i].len)
			return "a library path too long to link";
		if (out < 0 && (out = copy_of(*fd, what)) < 0)
			return "no memory to link the TA's libraries";
		memset(path + strlen(path), 0, sizeof(path) - strlen(path));
		if (pwrite(out, path, need[i].len, (off_t)need[i].offset) != (ssize_t)need[i].len) {
			close(out);
			return "cannot link the TA's libraries";
		}
	}
	if (out < 0)
		return NULL;
	if (fcntl(out, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		close(out);
		return "cannot seal the linked TA";
	}
	close(*fd);
	*fd = out;
	return NULL;
}

const char *rt_libs_prepare(int *elf_fd, const struct swtee_uuid *uuids, int *fds, size_t n)
{
	const char *err = NULL;

	rt.nlibs = 0;
	for (size_t i = 0; i < n; i++) {
		/* A library needs only those handed over before it. */
		err = relink(&fds[i], "swtee-ta-lib", uuids, rt.lib_fd, i);
		if (err)
			return err;
		rt.lib_fd[i] = fds[i];
		fds[i] = -1;
		rt.nlibs++;
	}
	return relink(elf_fd, "swtee-ta", uuids, rt.lib_fd, rt.nlibs);
}

void rt_libs_lock(void)
{
	locked = true;
}

/*
 * The C library's dlopen and dlerror, found once before anything needs
 * them: looking them up later would clear the error dlerror() is to give.
 */
static void *(*libc_dlopen)(const char *, int);
static char *(*libc_dlerror)(void);

static void __attribute__((constructor)) libs_init(void)
{
	libc_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	libc_dlerror = (char *(*)(void))dlsym(RTLD_NEXT, "dlerror");
}

static void *real_dlopen(const char *file, int mode)
{
	return libc_dlopen ? libc_dlopen(file, mode) : NULL;
}

static char *real_dlerror(void)
{
	return libc_dlerror ? libc_dlerror() : NULL;
}

static void set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(error_text, sizeof(error_text), fmt, ap);
	va_end(ap);
}

struct find {
	struct swtee_uuid uuid;
	char name[64]; /* the loaded object's name, when found */
};

/* Is this loaded object a TA library (a descriptor of ours) whose soname is f->uuid? */
static int find_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct find *f = arg;
	char soname[SWTEE_UUID_STR_LEN + 1];
	struct swtee_uuid u;
	int pid = 0;
	int fd = -1;
	int end = 0;

	(void)size;
	if (!info->dlpi_name || sscanf(info->dlpi_name, "/proc/%d/fd/%d%n", &pid, &fd, &end) != 2 ||
	    info->dlpi_name[end] || pid != (int)getpid())
		return 0;
	if (elf_soname(fd, soname, sizeof(soname)) != 1 || !uuid_parse(soname, &u) ||
	    !uuid_equal(&u, &f->uuid))
		return 0;
	snprintf(f->name, sizeof(f->name), "%s", info->dlpi_name);
	return 1;
}

/* The libraries loaded at run time: the descriptor each was mapped by, which names it. */
static struct {
	struct swtee_uuid uuid;
	int fd;
} late[PROTO_LIBS_MAX];
static size_t nlate;

static void late_keep(const struct swtee_uuid *u, int fd)
{
	for (size_t i = 0; i < nlate; i++)
		if (uuid_equal(&late[i].uuid, u)) {
			close(late[i].fd); /* its earlier load, closed since */
			late[i].fd = fd;
			return;
		}
	if (nlate < PROTO_LIBS_MAX) {
		late[nlate].uuid = *u;
		late[nlate++].fd = fd;
	}
}

/* The TA and what it links, global: so that a library loaded now finds their symbols. */
static bool ta_global(void)
{
	static bool done;
	struct link_map *ta = NULL;

	if (done)
		return true;
	if (!rt.ta.handle || dlinfo(rt.ta.handle, RTLD_DI_LINKMAP, &ta) || !ta)
		return false;
	done = real_dlopen(ta->l_name, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL) != NULL;
	return done;
}

/* Loads the TA library u (named file) from the core. */
static void *load_late(const struct swtee_uuid *u, const char *file, int mode)
{
	uint8_t out[4 + sizeof(u->b)];
	uint8_t in[16];
	char path[64];
	struct msg_fds fds;
	struct buf_writer w;
	struct buf_reader r;
	uint32_t res = TEE_ERROR_GENERIC;
	void *h = NULL;
	int fd = -1;

	if (!rt_sandbox_libs_at_run_time()) {
		set_error("%s: not a library this TA links, and this sandbox loads none once the "
			  "TA runs (no seccomp listener)",
			  file);
		return NULL;
	}
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_DLOPEN);
	buf_put_bytes(&w, u->b, sizeof(u->b));
	res =
	    rt_ctl_request(out, buf_written(&w), -1, MSG_CTL_DLOPEN_RSP, in, sizeof(in), &fds, &r);
	if (!buf_done(&r) || (!res && fds.n != 1) || (res && fds.n)) {
		log_error("bad answer from the core to a dlopen");
		rt_exit(72);
	}
	if (res) {
		set_error("%s: no such TA library, or it did not verify (0x%08x)", file, res);
		return NULL;
	}
	fd = msg_fds_take(&fds, 0);
	ta_global();
	lib_path(fd, path, sizeof(path));
	h = real_dlopen(path, mode);
	if (!h) {
		set_error("%s: %s", file, real_dlerror());
		log_error("cannot load TA library %s", error_text);
		close(fd);
		return NULL;
	}
	late_keep(u, fd);
	return h;
}

void *dlopen(const char *file, int mode)
{
	struct find f;

	if (!locked)
		return real_dlopen(file, mode);
	memset(&f, 0, sizeof(f));
	if (!file) {
		/*
		 * Every module, as OP-TEE's dlopen(NULL): the global scope, the TA
		 * and its libraries in it, and those loaded with RTLD_GLOBAL since.
		 */
		if (!ta_global())
			return NULL;
		return real_dlopen(NULL, mode);
	}
	if (!uuid_parse(file, &f.uuid)) {
		set_error("%s: a TA loads libraries by UUID only", file);
		return NULL;
	}
	if (!dl_iterate_phdr(find_lib, &f))
		return load_late(&f.uuid, file, mode);
	return real_dlopen(f.name, mode | RTLD_NOLOAD);
}

char *dlerror(void)
{
	static char last[sizeof(error_text)];

	if (error_text[0]) {
		memcpy(last, error_text, sizeof(last));
		error_text[0] = '\0';
		return last;
	}
	return real_dlerror();
}

typedef int (*phdr_cb)(struct dl_phdr_info *, size_t, void *);

struct visit_all {
	phdr_cb cb;
	void *arg;
	int last;
};

static int visit_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct visit_all *v = arg;

	v->last = v->cb(info, size, v->arg);
	return 0;
}

/* The TA's dl_iterate_phdr (the kit's <link.h>). */
int swtee_ta_dl_iterate_phdr(phdr_cb cb, void *arg);
int swtee_ta_dl_iterate_phdr(phdr_cb cb, void *arg)
{
	struct visit_all v = {.cb = cb, .arg = arg, .last = 0};

	if (!cb)
		return 0;
	dl_iterate_phdr(visit_one, &v);
	return v.last;
}
