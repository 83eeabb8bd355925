/*
 * The emulated RPMB: in the core's secure dir, one slot file per TA store
 * (rpmb/<the store's name>), which the normal world never sees:
 *
 *   0, 512   two copies of the anchor, MACed under K_rpmb (from the HUK):
 *            a write counter that only grows, the REE journal position it
 *            anchors (seq, tag), and the head of the log below (seq, tag,
 *            bytes used)
 *   4096...  the log: the records of small transactions, chained after the
 *            anchored REE position (same format as REE journal records)
 *
 * Writes alternate between the copies (even counters in the first), so a
 * torn write leaves the previous copy readable. A small commit is one log
 * record and one anchor copy, made durable by one fdatasync; a checkpoint or
 * a large transaction moves the anchor and empties the log (journal.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "log.h"
#include "paths.h"
#include "rpmb.h"
#include "secure.h"

#define RPMB_MAGIC 0x50525753u /* "SWRP" */
#define RPMB_VERSION 2u
#define COPY_OFF(i) ((off_t)(i)*512)
#define BODY (4 + 4 + 8 + 8 + STOR_TAG + 8 + STOR_TAG + 8 + STOR_TAG)
#define COPY_LEN (BODY + STOR_HASH)
#define ZERO_CHUNK (256u * 1024)

static int slot_path(const char *dirname, const char *suffix, char *out, size_t n)
{
	char name[STOR_DIRNAME_LEN + 8];

	snprintf(name, sizeof(name), "rpmb/%s%s", dirname, suffix);
	return paths_join(out, n, keys_secure_dir(), name);
}

static void encode(uint8_t out[COPY_LEN], const struct ta_keys *k, const struct rpmb_slot *r)
{
	struct buf_writer w;

	buf_writer_init(&w, out, COPY_LEN);
	buf_put_u32(&w, RPMB_MAGIC);
	buf_put_u32(&w, RPMB_VERSION);
	buf_put_u64(&w, r->counter);
	buf_put_u64(&w, r->seq);
	buf_put_bytes(&w, r->tag, STOR_TAG);
	buf_put_u64(&w, r->log_seq);
	buf_put_bytes(&w, r->log_tag, STOR_TAG);
	buf_put_u64(&w, r->log_end);
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
	buf_get_u64(&rd, &r->log_seq);
	buf_get_bytes(&rd, r->log_tag, STOR_TAG);
	buf_get_u64(&rd, &r->log_end);
	return buf_ok(&rd) && magic == RPMB_MAGIC && version == RPMB_VERSION &&
	       secure_equal(in + BODY - STOR_TAG, k->binding, STOR_TAG) &&
	       r->log_end <= RPMB_LOG_SIZE && r->log_seq >= r->seq;
}

int rpmb_open(struct rpmb_slot *r, const char *dirname, const struct ta_keys *k)
{
	char path[SWTEE_PATH_MAX];
	uint8_t buf[2][COPY_LEN];
	struct rpmb_slot c[2];
	bool ok[2] = {false, false};
	int pick = 0;
	int fd = -1;
	bool ro = false;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (slot_path(dirname, "", path, sizeof(path)))
		return RPMB_IO;
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && (errno == EROFS || errno == EACCES)) {
		/* A read-only secure dir: the store can still be read. */
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		ro = true;
	}
	if (fd < 0)
		return errno == ENOENT ? RPMB_ABSENT : RPMB_IO;
	for (int i = 0; i < 2; i++) {
		memset(&c[i], 0, sizeof(c[i]));
		ok[i] = pread(fd, buf[i], COPY_LEN, COPY_OFF(i)) == COPY_LEN &&
			decode(buf[i], k, &c[i]);
	}
	pick = ok[0] && (!ok[1] || c[0].counter > c[1].counter) ? 0 : 1;
	/* Even counters go to the first copy, odd ones to the second. */
	if ((!ok[0] && !ok[1]) || c[pick].counter % 2 != (uint64_t)pick) {
		log_error("RPMB slot %s fails its check", path);
		close(fd);
		return RPMB_BAD;
	}
	*r = c[pick];
	r->fd = fd;
	r->readonly = ro;
	return RPMB_OK;
}

/* Writes len bytes at off, whatever pieces it takes; -1 with errno. */
static int write_all(int fd, const void *p, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const uint8_t *)p + done, len - done, off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

int rpmb_create(struct rpmb_slot *r, const char *dirname, const struct ta_keys *k)
{
	char path[SWTEE_PATH_MAX];
	char tmp[SWTEE_PATH_MAX];
	char dir[SWTEE_PATH_MAX];
	uint8_t buf[COPY_LEN];
	uint8_t *zero = calloc(1, ZERO_CHUNK);
	int fd = -1;
	int dfd = -1;
	int rc = RPMB_IO;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!zero || slot_path(dirname, "", path, sizeof(path)) ||
	    slot_path(dirname, ".new", tmp, sizeof(tmp)) ||
	    paths_join(dir, sizeof(dir), keys_secure_dir(), "rpmb"))
		goto out;
	encode(buf, k, r);
	unlink(tmp);
	fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, buf, COPY_LEN, COPY_OFF(0)))
		goto failed;
	/* The log area written once, so that appending to it never grows the file. */
	for (off_t off = 0; off < RPMB_LOG_SIZE; off += ZERO_CHUNK)
		if (write_all(fd, zero, ZERO_CHUNK, RPMB_LOG_OFF + off))
			goto failed;
	if (fsync(fd) || rename(tmp, path))
		goto failed;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd))
		goto failed;
	r->fd = fd;
	fd = -1; /* transferred */
	rc = RPMB_OK;
	goto out;
failed:
	rc = errno == ENOSPC || errno == EDQUOT ? RPMB_FULL : RPMB_IO;
	log_error("cannot create the RPMB slot %s: %s", path, strerror(errno));
out:
	free(zero);
	if (dfd >= 0)
		close(dfd);
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	return rc;
}

/* Writes the next anchor copy for r (its fields already the new ones); no sync. */
static int put_copy(struct rpmb_slot *r, const struct ta_keys *k)
{
	uint8_t buf[COPY_LEN];

	encode(buf, k, r);
	return pwrite(r->fd, buf, COPY_LEN, COPY_OFF(r->counter % 2)) == COPY_LEN ? 0 : -1;
}

int rpmb_update(struct rpmb_slot *r, const struct ta_keys *k, uint64_t seq,
		const uint8_t tag[STOR_TAG])
{
	struct rpmb_slot n = *r;

	if (r->readonly)
		log_error("an RPMB slot in a read-only secure dir cannot be changed");
	if (r->fd < 0 || seq < r->log_seq || r->readonly)
		return -1;
	n.counter++;
	n.seq = n.log_seq = seq;
	memcpy(n.tag, tag, STOR_TAG);
	memcpy(n.log_tag, tag, STOR_TAG);
	n.log_end = 0;
	if (put_copy(&n, k) || fdatasync(r->fd))
		return -1;
	*r = n;
	return 0;
}

int rpmb_log_append(struct rpmb_slot *r, const struct ta_keys *k, const void *rec, size_t len,
		    uint64_t seq, const uint8_t tag[STOR_TAG])
{
	struct rpmb_slot n = *r;
	uint64_t off = r->log_end;

	if (r->fd < 0 || seq != r->log_seq + 1 || len > RPMB_LOG_SIZE || off > RPMB_LOG_SIZE - len)
		return RPMB_LOG_NOTHING;
	if (pwrite(r->fd, rec, len, RPMB_LOG_OFF + (off_t)off) != (ssize_t)len)
		return RPMB_LOG_NOTHING; /* the head does not point at it: no trace */
	n.counter++;
	n.log_seq = seq;
	memcpy(n.log_tag, tag, STOR_TAG);
	n.log_end = (off + len + 7) & ~7ull;
	if (n.log_end > RPMB_LOG_SIZE)
		n.log_end = RPMB_LOG_SIZE;
	/* One sync for the record and the head that names it. */
	if (put_copy(&n, k) || fdatasync(r->fd))
		return RPMB_LOG_MAYBE;
	*r = n;
	return 0;
}

int rpmb_log_read(const struct rpmb_slot *r, void *buf)
{
	size_t done = 0;

	while (done < RPMB_LOG_SIZE) {
		ssize_t n = pread(r->fd, (uint8_t *)buf + done, RPMB_LOG_SIZE - done,
				  RPMB_LOG_OFF + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	/* A short log area (truncated file) reads as zeros: no record there. */
	memset((uint8_t *)buf + done, 0, RPMB_LOG_SIZE - done);
	return 0;
}

void rpmb_close(struct rpmb_slot *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}
