/*
 * The emulated RPMB: in the core's secure dir, one slot file per TA store
 * (rpmb/<the store's name>), holding a write counter that only grows and the
 * journal position it anchors (sequence number and record tag), MACed under
 * K_rpmb, a key the normal world never sees. Writes alternate between two
 * copies at 0 and 512 so that a torn write leaves the previous one readable;
 * the valid copy with the higher counter is the slot. A slot stands for the
 * whole store: restoring older REE files gives a journal that stops short
 * of the anchored position, which the store refuses (journal.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "paths.h"
#include "secure.h"
#include "storage.h"

#define RPMB_MAGIC 0x50525753u /* "SWRP" */
#define RPMB_VERSION 1u
#define COPY_OFF(i) ((off_t)(i) * 512)
#define BODY (4 + 4 + 8 + 8 + STOR_TAG + STOR_TAG)
#define COPY_LEN (BODY + STOR_HASH)

static int slot_path(const char *dirname, const char *suffix, char *out, size_t n)
{
	char name[STOR_DIRNAME_LEN + 8];

	snprintf(name, sizeof(name), "rpmb/%s%s", dirname, suffix);
	return paths_join(out, n, keys_secure_dir(), name);
}

static void encode(uint8_t out[COPY_LEN], const struct ta_keys *k, uint64_t counter, uint64_t seq,
		   const uint8_t tag[STOR_TAG])
{
	struct buf_writer w;

	buf_writer_init(&w, out, COPY_LEN);
	buf_put_u32(&w, RPMB_MAGIC);
	buf_put_u32(&w, RPMB_VERSION);
	buf_put_u64(&w, counter);
	buf_put_u64(&w, seq);
	buf_put_bytes(&w, tag, STOR_TAG);
	buf_put_bytes(&w, k->binding, STOR_TAG);
	keys_rpmb_mac(out, BODY, out + BODY);
}

static bool decode(const uint8_t in[COPY_LEN], const struct ta_keys *k, struct rpmb_slot *r)
{
	uint8_t mac[STOR_HASH];
	struct buf_reader rd;
	uint32_t magic = 0;
	uint32_t version = 0;

	keys_rpmb_mac(in, BODY, mac);
	if (!secure_equal(mac, in + BODY, STOR_HASH))
		return false;
	buf_reader_init(&rd, in, BODY);
	buf_get_u32(&rd, &magic);
	buf_get_u32(&rd, &version);
	buf_get_u64(&rd, &r->counter);
	buf_get_u64(&rd, &r->seq);
	buf_get_bytes(&rd, r->tag, STOR_TAG);
	return buf_ok(&rd) && magic == RPMB_MAGIC && version == RPMB_VERSION &&
	       secure_equal(in + BODY - STOR_TAG, k->binding, STOR_TAG);
}

int rpmb_open(struct rpmb_slot *r, const char *dirname, const struct ta_keys *k)
{
	char path[SWTEE_PATH_MAX];
	uint8_t buf[2][COPY_LEN];
	struct rpmb_slot c[2];
	bool ok[2] = { false, false };
	int pick = 0;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (slot_path(dirname, "", path, sizeof(path)))
		return RPMB_IO;
	r->fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (r->fd < 0)
		return errno == ENOENT ? RPMB_ABSENT : RPMB_IO;
	for (int i = 0; i < 2; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		ok[i] = pread(r->fd, buf[i], COPY_LEN, COPY_OFF(i)) == COPY_LEN &&
			decode(buf[i], k, &c[i]);
	}
	if (!ok[0] && !ok[1]) {
		log_error("RPMB slot %s fails its check", path);
		return RPMB_BAD;
	}
	pick = ok[0] && (!ok[1] || c[0].counter > c[1].counter) ? 0 : 1;
	/* Even counters go to the first copy, odd ones to the second. */
	if (c[pick].counter % 2 != (uint64_t)pick) {
		log_error("RPMB slot %s is out of order", path);
		return RPMB_BAD;
	}
	r->counter = c[pick].counter;
	r->seq = c[pick].seq;
	memcpy(r->tag, c[pick].tag, STOR_TAG);
	return RPMB_OK;
}

int rpmb_create(struct rpmb_slot *r, const char *dirname, const struct ta_keys *k)
{
	static const uint8_t zero_tag[STOR_TAG];
	char path[SWTEE_PATH_MAX];
	char tmp[SWTEE_PATH_MAX];
	char dir[SWTEE_PATH_MAX];
	uint8_t buf[COPY_LEN];
	int fd = -1;
	int dfd = -1;
	int rc = -1;

	if (slot_path(dirname, "", path, sizeof(path)) ||
	    slot_path(dirname, ".new", tmp, sizeof(tmp)) ||
	    paths_join(dir, sizeof(dir), keys_secure_dir(), "rpmb"))
		return -1;
	encode(buf, k, 0, 0, zero_tag);
	unlink(tmp);
	fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || pwrite(fd, buf, COPY_LEN, COPY_OFF(0)) != COPY_LEN || fsync(fd) ||
	    rename(tmp, path))
		goto out;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd))
		goto out;
	rc = 0;
out:
	if (dfd >= 0)
		close(dfd);
	if (rc) {
		if (fd >= 0)
			close(fd);
		unlink(tmp);
		return -1;
	}
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	return 0;
}

int rpmb_update(struct rpmb_slot *r, const struct ta_keys *k, uint64_t seq,
		const uint8_t tag[STOR_TAG])
{
	uint8_t buf[COPY_LEN];
	uint64_t counter = r->counter + 1;

	if (r->fd < 0 || seq < r->seq)
		return -1;
	encode(buf, k, counter, seq, tag);
	if (pwrite(r->fd, buf, COPY_LEN, COPY_OFF(counter % 2)) != COPY_LEN || fdatasync(r->fd))
		return -1;
	r->counter = counter;
	r->seq = seq;
	memcpy(r->tag, tag, STOR_TAG);
	return 0;
}

void rpmb_close(struct rpmb_slot *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}
