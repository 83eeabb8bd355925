/*
 * The core's side of tee-supplicant. The supplicant lives in the normal
 * world: it may lie, stall or hand over the wrong file. Every reply is
 * bounded in time and size, and a TA image it hands over is copied into the
 * core's own memory and verified there before anything of it is used.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "buf.h"
#include "core.h"
#include "image_wait.h"
#include "log.h"
#include "msg.h"
#include "proto.h"
#include "ta_image.h"
#include "ta_version.h"

/*
 * The one supplicant connection. Until its hello arrives it is not
 * c->supplicant; a peer that never says hello is dropped at its deadline.
 */
static struct endpoint supp_ep = {.fd = -1};
static bool supp_hello_pending;
static pid_t supp_pid;
static struct timespec supp_hello_deadline;

void supplicant_accept(struct core *c)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd = accept4(c->listen_supplicant.fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    (cred.uid != c->supplicant_uid && cred.uid != getuid() && cred.uid != 0)) {
		log_error("refusing a supplicant connection from uid %u", (unsigned int)cred.uid);
		goto drop;
	}
	if (c->supplicant || supp_hello_pending) {
		log_error("refusing a second supplicant (pid %d)", (int)cred.pid);
		goto drop;
	}
	supp_ep.kind = EP_SUPPLICANT;
	supp_ep.fd = fd;
	supp_ep.owner = NULL;
	if (core_watch(c, &supp_ep))
		goto drop;
	supp_hello_pending = true;
	supp_pid = cred.pid;
	deadline_in(&supp_hello_deadline, SUPP_TIMEOUT_MS);
	return;
drop:
	supp_ep.fd = -1;
	close(fd);
}

static void hello_readable(struct core *c)
{
	uint8_t in[16];
	struct msg_fds fds;
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t version = 0;
	ssize_t n = msg_recv(supp_ep.fd, in, sizeof(in), &fds);

	msg_fds_close(&fds);
	if (n == -EAGAIN)
		return;
	supp_hello_pending = false;
	buf_reader_init(&r, n > 0 ? in : NULL, n > 0 ? (size_t)n : 0);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &version);
	/* The hello is echoed so that the supplicant knows it was accepted. */
	if (n <= 0 || !buf_done(&r) || type != MSG_SUPP_HELLO || version != PROTO_SUPP_VERSION ||
	    msg_send(supp_ep.fd, in, (size_t)n, NULL, 0)) {
		log_error("a supplicant connection spoke another protocol; closed");
		core_unwatch(c, &supp_ep);
		close(supp_ep.fd);
		supp_ep.fd = -1;
		return;
	}
	c->supplicant = &supp_ep;
	log_info("tee-supplicant pid %d connected", (int)supp_pid);
}

void supplicant_fail(struct core *c, const char *why)
{
	if (supp_hello_pending) {
		log_error("a supplicant connection %s; closed", why);
		supp_hello_pending = false;
	} else if (c->supplicant) {
		log_error("tee-supplicant %s; TAs cannot be loaded until it reconnects", why);
		c->supplicant = NULL;
	} else {
		return;
	}
	core_unwatch(c, &supp_ep);
	close(supp_ep.fd);
	supp_ep.fd = -1;
	open_supplicant_gone(c);
	image_wait_supplicant_gone(c);
}

void supplicant_tick(struct core *c, const struct timespec *now)
{
	if (supp_hello_pending && deadline_passed(&supp_hello_deadline, now))
		supplicant_fail(c, "sent no hello in time");
}

/* A reply to MSG_SUPP_LOAD_TA: handed to the open that asked. */
static bool load_reply(struct core *c, const uint8_t *in, size_t n, struct msg_fds *fds)
{
	struct buf_reader r;
	uint32_t type = 0;
	uint32_t req = 0;
	uint32_t res = 0;

	buf_reader_init(&r, in, n);
	buf_get_u32(&r, &type);
	buf_get_u32(&r, &req);
	buf_get_u32(&r, &res);
	if (!buf_done(&r) || type != MSG_SUPP_LOAD_TA_RSP ||
	    fds->n != (res == TEEC_SUCCESS ? 1u : 0u))
		return false;
	if (res != TEEC_SUCCESS)
		res = res == TEEC_ERROR_ITEM_NOT_FOUND ? res : TEEC_ERROR_COMMUNICATION;
	return open_image_arrived(c, req, res, fds) || image_wait_arrived(c, req, res, fds);
}

void supplicant_readable(struct core *c)
{
	uint8_t in[PROTO_MSG_MAX];
	struct msg_fds fds;
	ssize_t n = 0;
	bool ok = false;

	if (supp_hello_pending) {
		hello_readable(c);
		return;
	}
	n = msg_recv(c->supplicant->fd, in, sizeof(in), &fds);
	if (n == -EAGAIN)
		return;
	ok = n > 0 && load_reply(c, in, (size_t)n, &fds);
	msg_fds_close(&fds);
	if (!ok)
		supplicant_fail(c,
				n <= 0 ? "disconnected" : "sent a malformed or unrequested reply");
}

uint32_t supplicant_read_image(int fd, uint8_t **img, size_t *len)
{
	struct stat st;
	uint8_t *p = NULL;
	size_t off = 0;

	*img = NULL;
	*len = 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return TEEC_ERROR_SECURITY;
	if (st.st_size <= 0 || (uint64_t)st.st_size > TA_IMAGE_MAX)
		return TEEC_ERROR_SECURITY;
	p = malloc((size_t)st.st_size);
	if (!p)
		return TEEC_ERROR_OUT_OF_MEMORY;
	while (off < (size_t)st.st_size) {
		ssize_t n = pread(fd, p + off, (size_t)st.st_size - off, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(p);
			return TEEC_ERROR_SECURITY;
		}
		off += (size_t)n;
	}
	*img = p;
	*len = off;
	return TEEC_SUCCESS;
}

int supplicant_ask_image(struct core *c, const struct swtee_uuid *uuid, uint32_t *req)
{
	uint8_t out[32];
	struct buf_writer w;
	int rc = 0;

	*req = 0;
	if (!c->supplicant) {
		log_error("no tee-supplicant is connected; cannot load a TA");
		return -1;
	}
	if (!++c->next_supp_req)
		++c->next_supp_req;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_SUPP_LOAD_TA);
	buf_put_u32(&w, c->next_supp_req);
	buf_put_bytes(&w, uuid->b, sizeof(uuid->b));
	rc = msg_send(c->supplicant->fd, out, buf_written(&w), NULL, 0);
	if (rc) {
		supplicant_fail(c, rc == -EAGAIN ? "does not read its requests"
						 : "does not take requests");
		return -1;
	}
	*req = c->next_supp_req;
	return 0;
}

/* A sealed memfd holding a copy of elf: the TA process maps it read-only. */
static int sealed_copy(const char *name, const uint8_t *elf, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	size_t off = 0;

	if (fd < 0)
		return -1;
	while (off < len) {
		ssize_t n = write(fd, elf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto err;
		off += (size_t)n;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
		goto err;
	return fd;
err:
	close(fd);
	return -1;
}

/*
 * Verified images, kept as their sealed ELF memfd: a TA file the supplicant
 * hands over again unchanged (same device, inode, size, modification and
 * change times; the change time is the kernel's, not the file owner's to
 * set) is not read and verified again. What is served from here is always
 * bytes the core verified itself.
 */
#define IMAGE_CACHE 16

struct image_key {
	struct swtee_uuid uuid;
	bool lib; /* verified as a TA library, not a TA */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct timespec ctime;
};

struct image_entry {
	struct image_key key;
	int elf_fd; /* -1 when the slot is free */
	struct ta_facts facts;
	uint32_t version; /* the signed ta_version, checked again at each hit */
	uint64_t used;
};

static struct image_entry image_cache[IMAGE_CACHE] = {
    [0 ... IMAGE_CACHE - 1] = {.elf_fd = -1},
};
static uint64_t image_clock;

static bool image_key_of(int fd, const struct swtee_uuid *uuid, bool lib, struct image_key *k)
{
	struct stat st;

	memset(k, 0, sizeof(*k));
	if (fstat(fd, &st))
		return false;
	k->uuid = *uuid;
	k->lib = lib;
	k->dev = st.st_dev;
	k->ino = st.st_ino;
	k->size = st.st_size;
	k->mtime = st.st_mtim;
	k->ctime = st.st_ctim;
	return true;
}

static bool image_key_equal(const struct image_key *a, const struct image_key *b)
{
	return uuid_equal(&a->uuid, &b->uuid) && a->lib == b->lib && a->dev == b->dev &&
	       a->ino == b->ino && a->size == b->size && a->mtime.tv_sec == b->mtime.tv_sec &&
	       a->mtime.tv_nsec == b->mtime.tv_nsec && a->ctime.tv_sec == b->ctime.tv_sec &&
	       a->ctime.tv_nsec == b->ctime.tv_nsec;
}

/* A descriptor of the cached ELF for k, or -1. */
static int image_cache_get(const struct image_key *k, struct ta_facts *facts, uint32_t *version)
{
	for (size_t i = 0; i < IMAGE_CACHE; i++) {
		struct image_entry *e = &image_cache[i];

		if (e->elf_fd < 0 || !image_key_equal(&e->key, k))
			continue;
		e->used = ++image_clock;
		*facts = e->facts;
		*version = e->version;
		return fcntl(e->elf_fd, F_DUPFD_CLOEXEC, 3);
	}
	return -1;
}

static void image_cache_put(const struct image_key *k, int elf_fd, const struct ta_facts *facts,
			    uint32_t version)
{
	struct image_entry *victim = &image_cache[0];

	for (size_t i = 0; i < IMAGE_CACHE; i++) {
		struct image_entry *e = &image_cache[i];

		/* A TA updated on disk replaces its older image. */
		if (e->elf_fd >= 0 && uuid_equal(&e->key.uuid, &k->uuid) && e->key.lib == k->lib) {
			victim = e;
			break;
		}
		if (e->elf_fd < 0 || e->used < victim->used)
			victim = e;
	}
	if (victim->elf_fd >= 0)
		close(victim->elf_fd);
	victim->key = *k;
	victim->facts = *facts;
	victim->version = version;
	victim->used = ++image_clock;
	victim->elf_fd = fcntl(elf_fd, F_DUPFD_CLOEXEC, 3);
}

uint32_t supplicant_image_verify(struct core *c, const struct swtee_uuid *uuid, bool lib,
				 int file_fd, int *elf_fd, struct ta_facts *facts)
{
	const char *what = lib ? "TA library" : "TA";
	struct image_key key;
	bool keyed = false;
	char name[SWTEE_UUID_STR_LEN];
	struct ta_image_info info;
	uint8_t *img = NULL;
	size_t len = 0;
	uint32_t res = TEEC_ERROR_GENERIC;

	*elf_fd = -1;
	*facts = (struct ta_facts){0};
	uuid_format(uuid, name);
	keyed = image_key_of(file_fd, uuid, lib, &key);
	if (keyed) {
		uint32_t version = 0;

		*elf_fd = image_cache_get(&key, facts, &version);
		if (*elf_fd >= 0) {
			/* A floor raised since, by another image of the UUID, holds here too. */
			res = ta_version_accept(uuid, version, what);
			if (res) {
				close(*elf_fd);
				*elf_fd = -1;
				*facts = (struct ta_facts){0};
			}
			goto out;
		}
	}
	res = supplicant_read_image(file_fd, &img, &len);
	if (res) {
		log_error("%s %s: refused: the supplicant did not hand over a readable file "
			  "of at most %u bytes",
			  what, name, TA_IMAGE_MAX);
		goto out;
	}
	res = ta_keys_verify(c, img, len, uuid, lib, &info, what);
	if (res)
		goto out;
	res = ta_version_accept(uuid, info.ta_version, what);
	if (res)
		goto out;
	*elf_fd = sealed_copy(name, img + info.elf_offset, info.elf_len);
	if (*elf_fd < 0) {
		res = TEEC_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	*facts = (struct ta_facts){
	    .flags = info.flags, .stack_size = info.stack_size, .data_size = info.data_size};
	memcpy(facts->digest, info.digest, sizeof(facts->digest));
	if (keyed)
		image_cache_put(&key, *elf_fd, facts, info.ta_version);
	log_debug("%s %s: image verified (version %u, flags 0x%x, data size %u)", what, name,
		  info.ta_version, info.flags, info.data_size);
	res = TEEC_SUCCESS;
out:
	close(file_fd);
	free(img);
	return res;
}

int supplicant_open_channel(struct core *c, uint32_t type, int extra_fd, int *sock)
{
	uint8_t out[4];
	struct buf_writer w;
	int sv[2] = {-1, -1};
	int give[2];

	*sock = -1;
	if (!c->supplicant || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, type);
	give[0] = sv[1];
	give[1] = extra_fd;
	if (msg_send(c->supplicant->fd, out, buf_written(&w), give, extra_fd >= 0 ? 2 : 1)) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	close(sv[1]);
	*sock = sv[0];
	return 0;
}
