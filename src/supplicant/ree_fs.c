/*
 * The REE FS channels of tee-supplicant. Each channel is a socket from the
 * core with a shared window for file data, served by a thread of its own so
 * that the storage of one TA never waits for another's. A request is a batch
 * of file operations in one directory of the storage path, run in order; the
 * first that fails ends the batch. The core orders its writes and syncs in
 * the batch itself (see docs/storage.md); this side only does what it is
 * told, on names it has checked, and keeps a few files open between batches.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "log.h"
#include "msg.h"
#include "proto.h"
#include "ree_fs.h"
#include "ree_fs_batch.h"

#define FD_CACHE 32
#define COPY_CHUNK (256u * 1024)
#define LIST_MAX 65536
/* Files of at least this many allocated bytes are unlinked in the background. */
#define REAP_MIN (1u << 20)
/* Names of files waiting to be unlinked: never a name the core uses (proto.h). */
#define TRASH_PREFIX ".rm-"

struct cached_fd {
	char name[PROTO_FS_NAME_MAX + 1];
	int fd;
	bool rdonly; /* opened for reading only: the file or the file system is read-only */
	unsigned long used;
};

struct channel {
	int sock;
	int rootfd;
	int dirfd;
	char dir[PROTO_FS_DIR_LEN + 1];
	uint8_t *win;
	struct cached_fd fds[FD_CACHE];
	unsigned long tick;
	uint8_t *bounce;
	struct ree_fs_batch req; /* the batch being run */
};

/*
 * Removal of large files in the background. Unlinking a file of some hundred
 * MiB keeps the file system busy for tens of milliseconds while it frees the
 * blocks; a channel that waited for it would hold up the TA whose object
 * replaced or deleted that file. So such a file is renamed at once to a
 * trash name, which the core can neither write nor list (a leading dot),
 * and one reaper thread unlinks it. The name the core used is free when the
 * REMOVE returns, as before.
 *
 * Space a removal frees must be there before a write fails for the lack of
 * it: an operation that fails with ENOSPC or EDQUOT waits for the reaper and
 * runs once more (batch). Trash left by a supplicant that did not finish is
 * queued when the next one starts (ree_fs_init); on a normal exit the
 * reaper finishes its queue first (ree_fs_finish).
 */
struct trash {
	struct trash *next;
	char dir[PROTO_FS_DIR_LEN + 1];
	char name[32];
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* work queued, the queue drained, or stop */
	int rootfd;	     /* the storage path; -1 before ree_fs_init */
	struct trash *head;
	struct trash **tail;
	unsigned long seq;  /* for trash names */
	unsigned long done; /* unlinks finished: what a retry after ENOSPC looks at */
	bool busy;	    /* an unlink is under way */
	bool started;
	bool stop;
	pthread_t thread;
} reap = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .cond = PTHREAD_COND_INITIALIZER,
    .rootfd = -1,
    .tail = &reap.head,
};

static void reap_one(const struct trash *t)
{
	int dirfd = openat(reap.rootfd, t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);

	if (dirfd < 0 || (unlinkat(dirfd, t->name, 0) && errno != ENOENT))
		log_error("REE FS: cannot remove %s/%s: %s", t->dir, t->name, strerror(errno));
	if (dirfd >= 0)
		close(dirfd);
}

static void *reaper_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&reap.lock);
	for (;;) {
		struct trash *t = reap.head;

		if (!t) {
			pthread_cond_broadcast(&reap.cond); /* drained */
			if (reap.stop)
				break;
			pthread_cond_wait(&reap.cond, &reap.lock);
			continue;
		}
		reap.head = t->next;
		if (!reap.head)
			reap.tail = &reap.head;
		reap.busy = true;
		pthread_mutex_unlock(&reap.lock);
		reap_one(t);
		free(t);
		pthread_mutex_lock(&reap.lock);
		reap.busy = false;
		reap.done++;
	}
	pthread_mutex_unlock(&reap.lock);
	return NULL;
}

/* Queues dir/name (a trash name) for the reaper. 0, or -1 when there is none. */
static int reap_queue(const char *dir, const char *name)
{
	struct trash *t = calloc(1, sizeof(*t));
	int rc = -1;

	pthread_mutex_lock(&reap.lock);
	if (t && !reap.started && !reap.stop && reap.rootfd >= 0)
		reap.started = !pthread_create(&reap.thread, NULL, reaper_main, NULL);
	if (t && reap.started && !reap.stop) {
		snprintf(t->dir, sizeof(t->dir), "%s", dir);
		snprintf(t->name, sizeof(t->name), "%s", name);
		*reap.tail = t;
		reap.tail = &t->next;
		pthread_cond_broadcast(&reap.cond);
		t = NULL;
		rc = 0;
	}
	pthread_mutex_unlock(&reap.lock);
	free(t);
	return rc;
}

/* The count of unlinks finished so far. */
static unsigned long reap_done(void)
{
	unsigned long n = 0;

	pthread_mutex_lock(&reap.lock);
	n = reap.done;
	pthread_mutex_unlock(&reap.lock);
	return n;
}

/* Waits until every queued removal is done; the count of those finished. */
static unsigned long reap_drain(void)
{
	unsigned long n = 0;

	pthread_mutex_lock(&reap.lock);
	while (reap.started && (reap.head || reap.busy))
		pthread_cond_wait(&reap.cond, &reap.lock);
	n = reap.done;
	pthread_mutex_unlock(&reap.lock);
	return n;
}

static uint32_t errno_res(int e)
{
	switch (e) {
	case ENOENT:
		return FS_RES_NOENT;
	case ENOSPC:
	case EDQUOT:
	case EFBIG:
		return FS_RES_NOSPC;
	default:
		return FS_RES_IO;
	}
}

static void fd_cache_drop(struct channel *ch, const char *name)
{
	for (size_t i = 0; i < FD_CACHE; i++) {
		if (ch->fds[i].fd >= 0 && !strcmp(ch->fds[i].name, name)) {
			close(ch->fds[i].fd);
			ch->fds[i].fd = -1;
		}
	}
}

static void fd_cache_clear(struct channel *ch)
{
	for (size_t i = 0; i < FD_CACHE; i++) {
		if (ch->fds[i].fd >= 0)
			close(ch->fds[i].fd);
		ch->fds[i].fd = -1;
	}
}

/*
 * The open file name in the current directory, for writing when write is
 * set (then created if absent), else for reading: on a read-only file
 * system, or a file this user may not write, reads still work.
 */
static int file_get(struct channel *ch, const char *name, bool write)
{
	struct cached_fd *victim = &ch->fds[0];
	bool rdonly = false;
	int fd = -1;

	for (size_t i = 0; i < FD_CACHE; i++) {
		struct cached_fd *c = &ch->fds[i];

		if (c->fd >= 0 && !strcmp(c->name, name)) {
			if (write && c->rdonly) {
				/* Writable again, perhaps: opened anew below, in this slot. */
				victim = c;
				break;
			}
			c->used = ++ch->tick;
			return c->fd;
		}
		if (c->fd < 0 || (victim->fd >= 0 && c->used < victim->used))
			victim = c;
	}
	fd = openat(ch->dirfd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (write ? O_CREAT : 0), 0600);
	if (fd < 0 && !write && (errno == EROFS || errno == EACCES)) {
		fd = openat(ch->dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		rdonly = true;
	}
	if (fd < 0)
		return -1;
	if (victim->fd >= 0)
		close(victim->fd);
	victim->fd = fd;
	victim->rdonly = rdonly;
	victim->used = ++ch->tick;
	snprintf(victim->name, sizeof(victim->name), "%s", name);
	return fd;
}

static int set_dir(struct channel *ch, const char *dir, bool may_be_absent)
{
	char want[PROTO_FS_DIR_LEN + 1];

	if (ch->dirfd >= 0 && !strcmp(ch->dir, dir))
		return 0;
	snprintf(want, sizeof(want), "%s", dir); /* dir may be ch->dir */
	fd_cache_clear(ch);
	if (ch->dirfd >= 0)
		close(ch->dirfd);
	snprintf(ch->dir, sizeof(ch->dir), "%s", want);
	ch->dirfd = openat(ch->rootfd, want, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (ch->dirfd < 0)
		return may_be_absent && errno == ENOENT ? 0 : -1;
	return 0;
}

static int full_pread(int fd, uint8_t *p, size_t len, uint64_t off, size_t *got)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, p + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	*got = done;
	return 0;
}

static int full_pwrite(int fd, const uint8_t *p, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, p + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

static int op_copy(struct channel *ch, const struct ree_fs_op *o, uint32_t *count)
{
	const char *from = o->name;
	const char *to = o->to;
	uint64_t soff = o->off;
	uint64_t doff = o->to_off;
	uint32_t len = o->len;
	int sfd = -1;
	int dfd = -1;

	sfd = file_get(ch, from, false);
	if (sfd < 0)
		return -1;
	dfd = file_get(ch, to, true);
	if (dfd < 0)
		return -1;
	/* Both may have been cached in the same slot only if they are one file. */
	sfd = file_get(ch, from, false);
	if (sfd < 0)
		return -1;
	while (*count < len) {
		size_t want = len - *count < COPY_CHUNK ? len - *count : COPY_CHUNK;
		size_t got = 0;

		if (full_pread(sfd, ch->bounce, want, soff + *count, &got))
			return -1;
		if (got != want) {
			errno = EIO; /* the source is shorter than the core wrote it */
			return -1;
		}
		if (full_pwrite(dfd, ch->bounce, got, doff + *count))
			return -1;
		*count += (uint32_t)got;
	}
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Keeps the LIST_MAX smallest of names[0..n): sorted, the rest freed. */
static size_t list_trim(char **names, size_t n)
{
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = LIST_MAX; i < n; i++)
		free(names[i]);
	return n < LIST_MAX ? n : LIST_MAX;
}

/*
 * The names after `after` in the directory, sorted, as many as fit the
 * window: the smallest ones, so that the core can page through with the
 * last name it got.
 */
static int op_list(struct channel *ch, const char *after, uint32_t *count)
{
	char **names = calloc(2 * LIST_MAX, sizeof(*names));
	size_t n = 0;
	int rc = -1;
	int fd = dup(ch->dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e = NULL;

	if (!d || !names) {
		if (!d && fd >= 0)
			close(fd);
		goto out;
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, after) <= 0 ||
		    strlen(e->d_name) > PROTO_FS_NAME_MAX)
			continue;
		if (n == 2 * LIST_MAX)
			n = list_trim(names, n);
		names[n] = strdup(e->d_name);
		if (!names[n])
			goto out;
		n++;
	}
	n = list_trim(names, n);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]) + 1;

		if (*count + len > PROTO_FS_WINDOW)
			break;
		memcpy(ch->win + *count, names[i], len);
		*count += (uint32_t)len;
	}
	rc = 0;
out:
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	if (d)
		closedir(d);
	return rc;
}

static int op_zero(int fd, uint64_t off, uint32_t len, uint8_t *scratch)
{
	memset(scratch, 0, COPY_CHUNK);
	for (uint32_t done = 0; done < len;) {
		uint32_t n = len - done < COPY_CHUNK ? len - done : COPY_CHUNK;

		if (full_pwrite(fd, scratch, n, off + done))
			return -1;
		done += n;
	}
	return 0;
}

/*
 * The space of [off, off + len) allocated, the size and bytes of the file
 * as they were: what the core writes there after a commit cannot then fail
 * for a full disk. A file system that cannot do it gets no guarantee.
 */
static int op_reserve(int fd, uint64_t off, uint32_t len)
{
	uint64_t end = off + len;
	uint64_t size = 0;
	uint64_t blk = 0;
	struct stat st;
	off_t at = 0;
	int r = 0;

	if (!len)
		return 0;
	if (fstat(fd, &st))
		return -1;
	size = (uint64_t)st.st_size;
	blk = st.st_blksize > 0 ? (uint64_t)st.st_blksize : 4096;
	/*
	 * Most ranges are there already (a block rewritten, a map page
	 * updated, a short last block grown): nothing to allocate, and
	 * fallocate would cost a journal transaction of the file system.
	 * Blocks written but not yet on disk count as data: their space was
	 * set aside when they were written. Below the size, only from the
	 * first hole on is anything missing.
	 */
	if (off < size) {
		at = lseek(fd, (off_t)off, SEEK_HOLE);
		if (at >= 0 && (uint64_t)at >= end)
			return 0;
		if (at > (off_t)off)
			off = (uint64_t)at;
	}
	/*
	 * Past the size, the rest of the block that holds the last byte is
	 * allocated when that byte is.
	 */
	if (off >= size && size % blk && off < size - size % blk + blk &&
	    lseek(fd, (off_t)(size - 1), SEEK_DATA) == (off_t)(size - 1)) {
		uint64_t tail = size - size % blk + blk;

		if (end <= tail)
			return 0;
		off = tail;
	}
	do {
		r = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)(end - off));
	} while (r && errno == EINTR);
	if (r && (errno == EOPNOTSUPP || errno == ENOSYS))
		return 0;
	return r;
}

/* Removes name from the channel's directory: large files in the background. */
static int op_remove(struct channel *ch, const char *name)
{
	char trash[32];
	struct stat st;

	fd_cache_drop(ch, name);
	if (!fstatat(ch->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_blocks * 512 >= REAP_MIN) {
		pthread_mutex_lock(&reap.lock);
		snprintf(trash, sizeof(trash), TRASH_PREFIX "%ld-%lu", (long)getpid(), ++reap.seq);
		pthread_mutex_unlock(&reap.lock);
		if (!renameat(ch->dirfd, name, ch->dirfd, trash)) {
			if (!reap_queue(ch->dir, trash))
				return 0;
			name = trash; /* no reaper: unlinked here */
		}
	}
	if (unlinkat(ch->dirfd, name, 0) && errno != ENOENT)
		return -1;
	return 0;
}

/* Runs one well-formed op; -1 with errno set when it fails. */
static int run_op(struct channel *ch, const struct ree_fs_op *o, uint32_t *count)
{
	size_t got = 0;
	int fd = -1;

	*count = 0;
	if (o->code != FS_OP_MKDIR && ch->dirfd < 0) {
		errno = ENOENT;
		return -1;
	}
	switch (o->code) {
	case FS_OP_READ:
	case FS_OP_WRITE:
		fd = file_get(ch, o->name, o->code == FS_OP_WRITE);
		if (fd < 0)
			return -1;
		if (o->code == FS_OP_WRITE)
			return full_pwrite(fd, ch->win + o->win, o->len, o->off);
		if (full_pread(fd, ch->win + o->win, o->len, o->off, &got))
			return -1;
		*count = (uint32_t)got;
		return 0;
	case FS_OP_COPY:
		return op_copy(ch, o, count);
	case FS_OP_TRUNCATE:
		fd = file_get(ch, o->name, true);
		return fd < 0 ? -1 : ftruncate(fd, (off_t)o->off);
	case FS_OP_SYNC:
		fd = file_get(ch, o->name, false);
		if (fd < 0)
			return errno == ENOENT ? 0 : -1; /* nothing to make durable */
		return fdatasync(fd);
	case FS_OP_REMOVE:
		return op_remove(ch, o->name);
	case FS_OP_SYNCDIR:
		return fsync(ch->dirfd);
	case FS_OP_MKDIR:
		if (mkdirat(ch->rootfd, ch->dir, 0700) && errno != EEXIST)
			return -1;
		if (fsync(ch->rootfd))
			return -1;
		return ch->dirfd >= 0 ? 0 : set_dir(ch, ch->dir, false);
	case FS_OP_LIST:
		return op_list(ch, o->name, count);
	case FS_OP_ZERO:
		fd = file_get(ch, o->name, true);
		return fd < 0 ? -1 : op_zero(fd, o->off, o->len, ch->bounce);
	case FS_OP_RESERVE:
		fd = file_get(ch, o->name, true);
		return fd < 0 ? -1 : op_reserve(fd, o->off, o->len);
	case FS_OP_WRITEOUT:
		/* Only a hint: the SYNC that follows is what counts. */
		fd = file_get(ch, o->name, false);
		if (fd >= 0)
			sync_file_range(fd, (off_t)o->off, o->len, SYNC_FILE_RANGE_WRITE);
		return 0;
	default:
		break;
	}
	errno = EINVAL;
	return -1;
}

/*
 * The answer to the op the parser refused (req.ops[req.nvalid]), the same
 * as when it came to be run: without a directory, only MKDIR gets further.
 */
static uint32_t refused_op(const struct channel *ch)
{
	const struct ree_fs_batch *b = &ch->req;
	uint32_t op = b->ops[b->nvalid].code;

	if (!b->bad_code_read)
		return FS_RES_INVAL;
	if (op != FS_OP_MKDIR && ch->dirfd < 0)
		return FS_RES_NOENT;
	log_error("REE FS: %s/...: operation %u failed: %s", b->dir, op, strerror(EINVAL));
	return FS_RES_INVAL;
}

static void batch(struct channel *ch, const uint8_t *in, size_t n)
{
	uint8_t out[16 + 4 * PROTO_FS_OPS_MAX];
	uint32_t counts[PROTO_FS_OPS_MAX];
	const struct ree_fs_batch *b = &ch->req;
	struct buf_writer w;
	uint32_t res = FS_RES_OK;
	uint32_t i = 0;

	if (!ree_fs_batch_parse(in, n, &ch->req)) {
		res = FS_RES_INVAL;
		goto reply;
	}
	/* An absent directory leaves dirfd at -1: only MKDIR works then. */
	if (set_dir(ch, b->dir, true)) {
		res = errno_res(errno);
		goto reply;
	}
	for (i = 0; i < b->nvalid; i++) {
		unsigned long gen = reap_done();
		int rc = run_op(ch, &b->ops[i], &counts[i]);

		/* The space of files still being removed, then once more. */
		if (rc && (errno == ENOSPC || errno == EDQUOT) && reap_drain() != gen)
			rc = run_op(ch, &b->ops[i], &counts[i]);
		if (rc) {
			res = errno == EINVAL ? FS_RES_INVAL : errno_res(errno);
			if (res != FS_RES_NOENT)
				log_error("REE FS: %s/...: operation %u failed: %s", b->dir,
					  b->ops[i].code, strerror(errno));
			break;
		}
	}
	if (res == FS_RES_OK && b->end == REE_FS_BATCH_BAD_OP)
		res = refused_op(ch);
	else if (res == FS_RES_OK && b->end == REE_FS_BATCH_TRAILING)
		res = FS_RES_INVAL;
reply:
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_FS_BATCH_RSP);
	buf_put_u32(&w, res);
	buf_put_u32(&w, res == FS_RES_OK ? b->nops : i);
	for (uint32_t k = 0; k < i && k < b->nops; k++)
		buf_put_u32(&w, counts[k]);
	msg_send(ch->sock, out, buf_written(&w), NULL, 0);
}

static void channel_free(struct channel *ch)
{
	fd_cache_clear(ch);
	if (ch->dirfd >= 0)
		close(ch->dirfd);
	if (ch->rootfd >= 0)
		close(ch->rootfd);
	if (ch->sock >= 0)
		close(ch->sock);
	if (ch->win)
		munmap(ch->win, PROTO_FS_WINDOW);
	free(ch->bounce);
	free(ch);
}

static void *channel_thread(void *arg)
{
	struct channel *ch = arg;
	uint8_t *in = malloc(PROTO_MSG_MAX);

	while (in) {
		struct msg_fds fds;
		ssize_t n = msg_recv(ch->sock, in, PROTO_MSG_MAX, &fds);

		msg_fds_close(&fds);
		if (n <= 0)
			break;
		batch(ch, in, (size_t)n);
	}
	free(in);
	channel_free(ch);
	return NULL;
}

int ree_fs_serve_channel(const char *root, int sock, int win_fd)
{
	struct channel *ch = calloc(1, sizeof(*ch));
	struct stat st;
	pthread_t t;
	pthread_attr_t attr;
	void *win = MAP_FAILED;

	if (!ch)
		goto fail;
	ch->sock = sock;
	sock = -1; /* transferred */
	ch->dirfd = -1;
	for (size_t i = 0; i < FD_CACHE; i++)
		ch->fds[i].fd = -1;
	ch->rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ch->bounce = malloc(COPY_CHUNK);
	if (ch->rootfd < 0 || !ch->bounce || fstat(win_fd, &st) ||
	    (uint64_t)st.st_size < PROTO_FS_WINDOW)
		goto fail;
	win = mmap(NULL, PROTO_FS_WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, win_fd, 0);
	if (win == MAP_FAILED)
		goto fail;
	ch->win = win;
	close(win_fd);
	win_fd = -1;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &attr, channel_thread, ch)) {
		pthread_attr_destroy(&attr);
		goto fail;
	}
	pthread_attr_destroy(&attr);
	return 0;
fail:
	log_error("cannot serve a REE FS channel");
	if (ch)
		channel_free(ch);
	if (sock >= 0)
		close(sock);
	if (win_fd >= 0)
		close(win_fd);
	return -1;
}

/* Queues the trash in one directory of the storage path. */
static void trash_collect(const char *dir)
{
	int fd = openat(reap.rootfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e = NULL;

	if (!d && fd >= 0)
		close(fd);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, TRASH_PREFIX, strlen(TRASH_PREFIX)) &&
		    strlen(e->d_name) < sizeof(((struct trash *)0)->name))
			reap_queue(dir, e->d_name);
	if (d)
		closedir(d);
}

void ree_fs_init(const char *root)
{
	int fd = -1;
	DIR *d = NULL;
	struct dirent *e = NULL;

	reap.rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fd = reap.rootfd >= 0 ? dup(reap.rootfd) : -1;
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	while (d && (e = readdir(d)))
		if (strlen(e->d_name) == PROTO_FS_DIR_LEN && ree_fs_batch_dir_ok(e->d_name))
			trash_collect(e->d_name);
	if (d)
		closedir(d);
}

void ree_fs_finish(void)
{
	int fd = -1;

	pthread_mutex_lock(&reap.lock);
	reap.stop = true;
	pthread_cond_broadcast(&reap.cond);
	pthread_mutex_unlock(&reap.lock);
	if (reap.started)
		pthread_join(reap.thread, NULL);
	pthread_mutex_lock(&reap.lock);
	fd = reap.rootfd;
	reap.rootfd = -1;
	pthread_mutex_unlock(&reap.lock);
	if (fd >= 0)
		close(fd);
}
