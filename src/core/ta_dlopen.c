/*
 * TA libraries loaded at run time: a TA's dlopen("<uuid>") of a library it
 * does not link (MSG_CTL_DLOPEN).
 *
 * The core finds the library as it finds a linked one (the supplicant, then
 * the secure dir), verifies it as a library, and checks that every TA
 * library it needs is loaded in the instance already. The instance gets the
 * verified ELF, a sealed memfd.
 *
 * Mapping it is the part the sandbox must allow without letting the TA map
 * any other code. Its seccomp filter allows executable maps (never writable
 * ones) of one descriptor only, PROTO_TA_LIB_FD, and hands to the core, as
 * seccomp notifications on the listener the instance sent once sandboxed
 * (MSG_CTL_LISTENER):
 *   - the dynamic loader's open (O_RDONLY | O_CLOEXEC, any path): the core
 *     answers it with the verified ELF, put at PROTO_TA_LIB_FD in the
 *     instance (SECCOMP_IOCTL_NOTIF_ADDFD), when a library is pending; any
 *     other such open ends the instance;
 *   - a close of PROTO_TA_LIB_FD: answered as done, and not done, so the
 *     descriptor always holds a verified ELF (or the runtime's placeholder).
 * Every other call that could change which file that number names (dup2,
 * dup3, close_range) the filter refuses, and the number is never free for
 * a new descriptor to take. The instance is one thread, blocked in the call
 * while the core answers it, so nothing changes between the core's answer
 * and the kernel's use of it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "core.h"
#include "image_wait.h"
#include "log.h"
#include "proto.h"

static void reply(struct instance *in, uint32_t res, int elf_fd)
{
	uint8_t out[8];
	struct buf_writer w;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_DLOPEN_RSP);
	buf_put_u32(&w, res);
	if (instance_send(in, out, buf_written(&w), elf_fd >= 0 ? &elf_fd : NULL, elf_fd >= 0))
		instance_kill(in, "does not take the answer to its request");
}

static bool loaded(const struct instance *in, const struct swtee_uuid *u)
{
	for (size_t i = 1; i < in->ncode; i++)
		if (uuid_equal(&in->code_uuid[i], u))
			return true;
	return false;
}

/* Does the library on elf_fd need only TA libraries in has loaded? */
static uint32_t needs_loaded(const struct instance *in, const char *lib, int elf_fd)
{
	struct elf_needed need[ELF_DYN_NEEDED_MAX];
	char ta[SWTEE_UUID_STR_LEN];
	int n = elf_needed_list(elf_fd, need, ELF_DYN_NEEDED_MAX);
	struct swtee_uuid u;

	uuid_format(&in->uuid, ta);
	if (n < 0) {
		log_error("TA %s: library %s has a malformed dynamic section", ta, lib);
		return TEEC_ERROR_BAD_FORMAT;
	}
	for (int i = 0; i < n; i++)
		if (uuid_parse(need[i].name, &u) && !loaded(in, &u)) {
			log_error("TA %s: library %s needs %s, which the instance has not loaded: "
				  "a library loaded at run time may need only those",
				  ta, lib, need[i].name);
			return TEEC_ERROR_ITEM_NOT_FOUND;
		}
	return TEEC_SUCCESS;
}

static int reopen_read_only(int fd)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return open(path, O_RDONLY | O_CLOEXEC);
}

static void lib_arrived(struct core *c, struct instance *in, const struct swtee_uuid *uuid,
			uint32_t res, int file_fd)
{
	struct ta_facts facts = {0};
	char lib[SWTEE_UUID_STR_LEN];
	char ta[SWTEE_UUID_STR_LEN];
	int elf_fd = -1;

	if (!in) {
		if (file_fd >= 0)
			close(file_fd);
		return;
	}
	uuid_format(uuid, lib);
	uuid_format(&in->uuid, ta);
	if (!res)
		res = supplicant_image_verify(c, uuid, true, file_fd, &elf_fd, &facts);
	else if (file_fd >= 0)
		close(file_fd);
	if (!res)
		res = needs_loaded(in, lib, elf_fd);
	if (!res && !loaded(in, uuid) &&
	    in->ncode >= sizeof(in->code_uuid) / sizeof(in->code_uuid[0])) {
		log_error("TA %s: more than %d TA libraries in one instance (%s is one too many)",
			  ta, PROTO_LIBS_MAX, lib);
		res = TEEC_ERROR_OUT_OF_MEMORY;
	}
	if (!res && in->listener) {
		if (in->lib_fd >= 0)
			close(in->lib_fd);
		/* A description of its own, read only, at offset 0: the loader reads from there. */
		in->lib_fd = reopen_read_only(elf_fd);
		if (in->lib_fd < 0)
			res = TEEC_ERROR_OUT_OF_MEMORY;
	}
	if (!res && !loaded(in, uuid)) {
		/* What the attestation pseudo-TA's measure of the instance covers from now. */
		in->code_uuid[in->ncode] = *uuid;
		memcpy(in->code_digest[in->ncode], facts.digest, sizeof(facts.digest));
		in->ncode++;
		log_debug("TA %s instance %u: library %s verified for dlopen", ta, in->id, lib);
	}
	reply(in, res, res ? -1 : elf_fd);
	if (elf_fd >= 0)
		close(elf_fd);
}

void ta_dlopen_request(struct core *c, struct instance *in, struct buf_reader *r,
		       const struct msg_fds *fds)
{
	struct swtee_uuid uuid;

	buf_get_bytes(r, uuid.b, sizeof(uuid.b));
	if (!buf_done(r) || fds->n) {
		instance_kill(in, "sent a malformed dlopen request");
		return;
	}
	if (image_wait_pending(in->id)) {
		instance_kill(in, "asked for a second image while one is pending");
		return;
	}
	image_wait_start(c, in, &uuid, lib_arrived);
}

/* Is fd a seccomp listener? */
static bool is_listener(int fd)
{
	char path[64];
	char link[64];
	ssize_t n = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return false;
	link[n] = '\0';
	return !strcmp(link, "anon_inode:seccomp notify");
}

/* A listener's endpoint, and the list of those closed during this batch of events. */
struct listener {
	struct endpoint ep;
	struct listener *next_closed;
};

static struct listener *closed;

void ta_dlopen_listener(struct core *c, struct instance *in, int fd)
{
	struct listener *l = NULL;

	if (in->listener || !is_listener(fd)) {
		close(fd);
		instance_kill(in, "sent a descriptor that is not its sandbox's listener");
		return;
	}
	l = calloc(1, sizeof(*l));
	if (l) {
		l->ep.kind = EP_TA_LISTENER;
		l->ep.owner = in;
		l->ep.fd = fd;
	}
	if (!l || core_watch(c, &l->ep)) {
		free(l);
		close(fd);
		instance_kill(in, "its sandbox's listener cannot be watched");
		return;
	}
	in->listener = &l->ep;
}

void ta_dlopen_reap(void)
{
	while (closed) {
		struct listener *l = closed;

		closed = l->next_closed;
		free(l);
	}
}

/* Stops watching in's listener; its endpoint is freed after this batch of events. */
static void listener_drop(struct core *c, struct instance *in)
{
	struct listener *l = (struct listener *)in->listener;

	if (l) {
		core_unwatch(c, &l->ep);
		close(l->ep.fd);
		l->ep.fd = -1;
		l->ep.owner = NULL; /* an event of this batch may still name it */
		l->next_closed = closed;
		closed = l;
		in->listener = NULL;
	}
}

void ta_dlopen_close(struct core *c, struct instance *in)
{
	listener_drop(c, in);
	if (in->lib_fd >= 0) {
		close(in->lib_fd);
		in->lib_fd = -1;
	}
}

/* Answers notification id with the call's result: 0, or -err without making the call. */
static void answer(int fd, uint64_t id, int err)
{
	struct seccomp_notif_resp resp = {.id = id, .error = err ? -err : 0};

	/* ENOENT: the instance was interrupted or ended meanwhile; the call is gone. */
	(void)ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

void ta_dlopen_notified(struct core *c, struct endpoint *ep)
{
	struct seccomp_notif n;
	struct seccomp_notif_addfd add = {0};
	struct instance *in = ep->owner;
	int fd = ep->fd;
	struct pollfd p = {.fd = fd, .events = POLLIN};

	if (!in)
		return; /* closed earlier in this batch */
	/*
	 * The listener hangs up once the instance's process is gone, before the
	 * core hears of its end: stop watching then (the hangup stays, and some
	 * kernels would block the receive on it). A notification there, or one
	 * withdrawn since (ENOENT), does not block the receive.
	 */
	if (poll(&p, 1, 0) != 1 || !(p.revents & POLLIN)) {
		if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
			listener_drop(c, in);
		return;
	}
	memset(&n, 0, sizeof(n));
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &n)) {
		if (errno != ENOENT && errno != EINTR)
			listener_drop(c, in);
		return;
	}
	if (n.data.nr == __NR_close && n.data.args[0] == PROTO_TA_LIB_FD) {
		answer(fd, n.id, 0);
		return;
	}
	if (n.data.nr != __NR_openat || in->lib_fd < 0) {
		/* Killed first: the call's failure never reaches its code. */
		instance_kill(
		    in, n.data.nr == __NR_openat
			    ? "opened a file with no library to load: the sandbox allows none"
			    : "made a system call its sandbox hands to the core for no reason");
		answer(fd, n.id, EACCES);
		return;
	}
	add.id = n.id;
	add.flags = SECCOMP_ADDFD_FLAG_SETFD | SECCOMP_ADDFD_FLAG_SEND;
	add.srcfd = (uint32_t)in->lib_fd;
	add.newfd = PROTO_TA_LIB_FD;
	add.newfd_flags = O_CLOEXEC;
	/* Answers the open with PROTO_TA_LIB_FD, now the library's. */
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_ADDFD, &add) == PROTO_TA_LIB_FD) {
		close(in->lib_fd);
		in->lib_fd = -1;
	} else if (errno != ESRCH && errno != ENOENT && errno != EINPROGRESS) {
		log_error("cannot hand a TA library over: %s", strerror(errno));
		answer(fd, n.id, EIO);
	}
}
