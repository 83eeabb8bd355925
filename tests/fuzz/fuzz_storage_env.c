/*
 * The environment of the storage harnesses: a fake tee-supplicant serving
 * one store from memory, the fixed test keys, the RPMB slot file
 * (fuzz_storage_env.h). The builders of what a store holds are in
 * fuzz_storage_build.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_storage_env.h"
#include "log.h"
#include "memfd.h"
#include "msg.h"
#include "paths.h"
#include "secure.h"

#define FSE_PAGE 4096u
#define FSE_FILES 128
#define FSE_PAGES_MAX 8192u	  /* 32 MiB of file data in all */
#define FSE_SIZE_MAX (1ull << 36) /* larger files: no space */
#define FSE_REMOVED_MAX 256
#define FSE_BOUNCE (64u * 1024)

/* A sparse file: the pages that were written, in order; the rest reads as zeros. */
struct fse_file {
	bool used;
	char name[PROTO_FS_NAME_MAX + 1];
	uint64_t size;
	uint64_t *idx;
	uint8_t **pg;
	size_t n;
	size_t cap;
};

static struct {
	bool ready;
	char secure[SWTEE_PATH_MAX];
	char huk[SWTEE_PATH_MAX];
	char rpmb[SWTEE_PATH_MAX];
	char slot[SWTEE_PATH_MAX];
	struct swtee_uuid uuid;
	struct ta_keys keys;
	char dir[STOR_DIRNAME_LEN + 1];
	struct reefs fs;
	int supp_sock;
	pthread_t thread;
	/* The store's REE directory. The supplicant thread only uses it while the core waits. */
	bool dir_exists;
	struct fse_file files[FSE_FILES];
	size_t pages;
	const uint8_t *faults;
	size_t nfaults;
	const uint8_t *lists;
	size_t nlists;
	char removed[FSE_REMOVED_MAX][PROTO_FS_NAME_MAX + 1];
	size_t nremoved;
	size_t hidden; /* READs answered with less than the file holds */
	uint8_t *bounce;
} env;

/* The fixed hardware unique key of every run. */
static const uint8_t fuzz_huk[32] = {
    0x73, 0x77, 0x74, 0x65, 0x65, 0x2d, 0x66, 0x75, 0x7a, 0x7a, 0x2d, 0x73, 0x74, 0x6f, 0x72, 0x61,
    0x67, 0x65, 0x2d, 0x68, 0x75, 0x6b, 0x2d, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
};

static void bad_batch(const char *why)
{
	fprintf(stderr, "fake supplicant: the core sent %s\n", why);
	abort();
}

/* ---- files ---- */

static struct fse_file *file_find(const char *name)
{
	for (size_t i = 0; i < FSE_FILES; i++)
		if (env.files[i].used && !strcmp(env.files[i].name, name))
			return &env.files[i];
	return NULL;
}

static struct fse_file *file_make(const char *name)
{
	struct fse_file *f = file_find(name);

	for (size_t i = 0; !f && i < FSE_FILES; i++) {
		if (!env.files[i].used) {
			f = &env.files[i];
			memset(f, 0, sizeof(*f));
			f->used = true;
			snprintf(f->name, sizeof(f->name), "%s", name);
		}
	}
	return f;
}

static void file_drop(struct fse_file *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->pg[i]);
	env.pages -= f->n;
	free(f->idx);
	free(f->pg);
	memset(f, 0, sizeof(*f));
}

/* Page idx of f, made (zeroed) when make is set and there is room; else NULL when absent. */
static uint8_t *page_get(struct fse_file *f, uint64_t idx, bool make)
{
	size_t lo = 0;
	size_t hi = f->n;
	uint8_t *p = NULL;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->idx[mid] < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->n && f->idx[lo] == idx)
		return f->pg[lo];
	if (!make || env.pages >= FSE_PAGES_MAX)
		return NULL;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		uint64_t *idxs = realloc(f->idx, cap * sizeof(*idxs));
		uint8_t **pgs = NULL;

		if (!idxs)
			return NULL;
		f->idx = idxs;
		pgs = realloc(f->pg, cap * sizeof(*pgs));
		if (!pgs)
			return NULL;
		f->pg = pgs;
		f->cap = cap;
	}
	p = calloc(1, FSE_PAGE);
	if (!p)
		return NULL;
	memmove(&f->idx[lo + 1], &f->idx[lo], (f->n - lo) * sizeof(*f->idx));
	memmove(&f->pg[lo + 1], &f->pg[lo], (f->n - lo) * sizeof(*f->pg));
	f->idx[lo] = idx;
	f->pg[lo] = p;
	f->n++;
	env.pages++;
	return p;
}

static uint32_t file_write(struct fse_file *f, uint64_t off, const uint8_t *p, size_t n)
{
	if (off > FSE_SIZE_MAX || n > FSE_SIZE_MAX - off)
		return FS_RES_NOSPC;
	for (size_t done = 0; done < n;) {
		uint64_t at = off + done;
		size_t in = (size_t)(at % FSE_PAGE);
		size_t k = FSE_PAGE - in < n - done ? FSE_PAGE - in : n - done;
		uint8_t *pg = page_get(f, at / FSE_PAGE, true);

		if (!pg)
			return FS_RES_NOSPC;
		memcpy(pg + in, p + done, k);
		done += k;
		if (at + k > f->size)
			f->size = at + k;
	}
	return FS_RES_OK;
}

/* Bytes [off, off + n) into dst, short at the end of the file: the count. */
static size_t file_read(struct fse_file *f, uint64_t off, uint8_t *dst, size_t n)
{
	if (off >= f->size)
		return 0;
	if (n > f->size - off)
		n = (size_t)(f->size - off);
	for (size_t done = 0; done < n;) {
		uint64_t at = off + done;
		size_t in = (size_t)(at % FSE_PAGE);
		size_t k = FSE_PAGE - in < n - done ? FSE_PAGE - in : n - done;
		uint8_t *pg = page_get(f, at / FSE_PAGE, false);

		if (pg)
			memcpy(dst + done, pg + in, k);
		else
			memset(dst + done, 0, k);
		done += k;
	}
	return n;
}

static uint32_t file_truncate(struct fse_file *f, uint64_t size)
{
	uint64_t keep = (size + FSE_PAGE - 1) / FSE_PAGE;
	size_t n = 0;
	uint8_t *last = NULL;

	if (size > FSE_SIZE_MAX)
		return FS_RES_NOSPC;
	for (size_t i = 0; i < f->n; i++) {
		if (f->idx[i] < keep) {
			f->idx[n] = f->idx[i];
			f->pg[n] = f->pg[i];
			n++;
		} else {
			free(f->pg[i]);
			env.pages--;
		}
	}
	f->n = n;
	last = size % FSE_PAGE ? page_get(f, size / FSE_PAGE, false) : NULL;
	if (last)
		memset(last + size % FSE_PAGE, 0, FSE_PAGE - size % FSE_PAGE);
	f->size = size;
	return FS_RES_OK;
}

static uint32_t file_zero(struct fse_file *f, uint64_t off, uint32_t n)
{
	if (off > FSE_SIZE_MAX || n > FSE_SIZE_MAX - off)
		return FS_RES_NOSPC;
	for (uint64_t done = 0; done < n;) {
		uint64_t at = off + done;
		size_t in = (size_t)(at % FSE_PAGE);
		uint64_t k = FSE_PAGE - in < n - done ? FSE_PAGE - in : n - done;
		uint8_t *pg = page_get(f, at / FSE_PAGE, false);

		if (pg)
			memset(pg + in, 0, (size_t)k);
		done += k;
	}
	if (n && off + n > f->size)
		f->size = off + n;
	return FS_RES_OK;
}

static void files_clear(void)
{
	for (size_t i = 0; i < FSE_FILES; i++)
		if (env.files[i].used)
			file_drop(&env.files[i]);
	env.dir_exists = false;
}

/* ---- the fake supplicant ---- */

/* A name as tee-supplicant accepts it; the empty one only when may_be_empty. */
static void get_name(struct buf_reader *r, char out[PROTO_FS_NAME_MAX + 1], bool may_be_empty)
{
	uint8_t len = 0;

	if (!buf_get_u8(r, &len) || len > PROTO_FS_NAME_MAX || (!len && !may_be_empty) ||
	    !buf_get_bytes(r, out, len))
		bad_batch("a malformed file name");
	out[len] = '\0';
	if (len && out[0] == '.')
		bad_batch("a hidden file name");
	for (size_t i = 0; i < len; i++)
		if (!((out[i] >= '0' && out[i] <= '9') || (out[i] >= 'a' && out[i] <= 'z') ||
		      out[i] == '.'))
			bad_batch("a file name with a character tee-supplicant refuses");
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static uint32_t op_list(const char *after, uint32_t *count)
{
	const char *names[FSE_FILES];
	size_t n = 0;

	if (env.nlists >= 2) {
		/* A canned answer: whatever bytes the input says. */
		size_t len = (size_t)env.lists[0] | (size_t)env.lists[1] << 8;

		env.lists += 2;
		env.nlists -= 2;
		if (len > env.nlists)
			len = env.nlists;
		memcpy(env.fs.win, env.lists, len);
		env.lists += len;
		env.nlists -= len;
		*count = (uint32_t)len;
		return FS_RES_OK;
	}
	for (size_t i = 0; i < FSE_FILES; i++)
		if (env.files[i].used && strcmp(env.files[i].name, after) > 0)
			names[n++] = env.files[i].name;
	qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(names[i]) + 1;

		if (*count + len > PROTO_FS_WINDOW)
			break;
		memcpy(env.fs.win + *count, names[i], len);
		*count += (uint32_t)len;
	}
	return FS_RES_OK;
}

static uint32_t op_copy(const char *from, uint64_t soff, uint32_t len, const char *to,
			uint64_t doff, uint32_t *count)
{
	struct fse_file *src = file_find(from);
	struct fse_file *dst = NULL;

	if (!src)
		return FS_RES_NOENT;
	dst = file_make(to);
	if (!dst)
		return FS_RES_NOSPC;
	if (soff > FSE_SIZE_MAX)
		return FS_RES_IO;
	while (*count < len) {
		size_t want = len - *count < FSE_BOUNCE ? len - *count : FSE_BOUNCE;
		uint32_t res = 0;

		if (file_read(src, soff + *count, env.bounce, want) != want)
			return FS_RES_IO; /* the source is shorter than the core wrote it */
		res = file_write(dst, doff + *count, env.bounce, want);
		if (res)
			return res;
		*count += (uint32_t)want;
	}
	return FS_RES_OK;
}

/* The next byte of the fault schedule: a result to fail with, 0 to run the op. */
static uint8_t next_fault(void)
{
	uint8_t f = 0;

	if (!env.nfaults)
		return 0;
	f = env.faults[0];
	env.faults++;
	env.nfaults--;
	return f;
}

/* Whether an honest READ of [off, off + len) of name returns bytes. */
static bool read_has_bytes(const char *name, uint64_t off, uint32_t len, bool ours)
{
	struct fse_file *f = file_find(name);

	return ours && env.dir_exists && f && len && off < f->size;
}

/* Parses one op whole, then runs it: FS_RES_*. */
static uint32_t run_op(uint32_t op, struct buf_reader *r, bool ours, uint32_t *count)
{
	char name[PROTO_FS_NAME_MAX + 1] = "";
	char to[PROTO_FS_NAME_MAX + 1] = "";
	uint64_t off = 0;
	uint64_t doff = 0;
	uint32_t len = 0;
	uint32_t win = 0;
	uint32_t res = FS_RES_OK;
	struct fse_file *f = NULL;
	uint8_t fault = 0;

	*count = 0;
	switch (op) {
	case FS_OP_READ:
	case FS_OP_WRITE:
		get_name(r, name, false);
		if (!buf_get_u64(r, &off) || !buf_get_u32(r, &len) || !buf_get_u32(r, &win) ||
		    win > PROTO_FS_WINDOW || len > PROTO_FS_WINDOW - win)
			bad_batch("a read or write outside the window");
		break;
	case FS_OP_COPY:
		get_name(r, name, false);
		if (!buf_get_u64(r, &off) || !buf_get_u32(r, &len))
			bad_batch("a malformed copy");
		get_name(r, to, false);
		if (!buf_get_u64(r, &doff))
			bad_batch("a malformed copy");
		break;
	case FS_OP_TRUNCATE:
		get_name(r, name, false);
		if (!buf_get_u64(r, &off) || off > INT64_MAX)
			bad_batch("a malformed truncation");
		break;
	case FS_OP_SYNC:
	case FS_OP_REMOVE:
		get_name(r, name, false);
		break;
	case FS_OP_SYNCDIR:
	case FS_OP_MKDIR:
		break;
	case FS_OP_LIST:
		get_name(r, name, true);
		break;
	case FS_OP_ZERO:
	case FS_OP_WRITEOUT:
	case FS_OP_RESERVE:
		get_name(r, name, false);
		if (!buf_get_u64(r, &off) || !buf_get_u32(r, &len) ||
		    (op == FS_OP_WRITEOUT && off > INT64_MAX) ||
		    (op == FS_OP_RESERVE && off > (uint64_t)INT64_MAX - len))
			bad_batch("a malformed zero, writeout or reserve");
		break;
	default:
		bad_batch("an unknown operation");
	}
	fault = next_fault();
	if (fault >= 0xc0 && fault < 0xf0) {
		if (op == FS_OP_READ && read_has_bytes(name, off, len, ours))
			env.hidden++;
		return fault < 0xd0 ? FS_RES_NOENT : fault < 0xe0 ? FS_RES_IO : FS_RES_NOSPC;
	}
	if (op != FS_OP_MKDIR && (!ours || !env.dir_exists))
		return FS_RES_NOENT;
	switch (op) {
	case FS_OP_READ:
		f = file_find(name);
		if (!f)
			return FS_RES_NOENT;
		*count = (uint32_t)file_read(f, off, env.fs.win + win, len);
		break;
	case FS_OP_WRITE:
		f = file_make(name);
		res = f ? file_write(f, off, env.fs.win + win, len) : FS_RES_NOSPC;
		break;
	case FS_OP_COPY:
		res = op_copy(name, off, len, to, doff, count);
		break;
	case FS_OP_TRUNCATE:
		f = file_make(name);
		res = f ? file_truncate(f, off) : FS_RES_NOSPC;
		break;
	case FS_OP_REMOVE:
		if (env.nremoved < FSE_REMOVED_MAX)
			snprintf(env.removed[env.nremoved++], PROTO_FS_NAME_MAX + 1, "%s", name);
		f = file_find(name);
		if (f)
			file_drop(f);
		break;
	case FS_OP_MKDIR:
		if (!ours)
			return FS_RES_IO;
		env.dir_exists = true;
		break;
	case FS_OP_LIST:
		res = op_list(name, count);
		break;
	case FS_OP_ZERO:
		f = file_make(name);
		res = f ? file_zero(f, off, len) : FS_RES_NOSPC;
		break;
	case FS_OP_RESERVE: /* the file is made; its size and bytes stay */
		res = file_make(name) ? FS_RES_OK : FS_RES_NOSPC;
		break;
	default: /* syncs and writeback hints: nothing to do in memory */
		break;
	}
	if (!res && fault >= 0xf0) {
		uint32_t all = *count;

		*count = (uint32_t)((uint64_t)*count * (fault & 15) / 16);
		if (op == FS_OP_READ && *count < all)
			env.hidden++;
	}
	return res;
}

static void serve(const uint8_t *in, size_t n)
{
	uint8_t out[16 + 4 * PROTO_FS_OPS_MAX];
	uint32_t counts[PROTO_FS_OPS_MAX];
	char dir[PROTO_FS_DIR_LEN + 1];
	struct buf_reader r;
	struct buf_writer w;
	uint32_t type = 0;
	uint32_t nops = 0;
	uint32_t res = FS_RES_OK;
	uint32_t i = 0;

	buf_reader_init(&r, in, n);
	buf_get_u32(&r, &type);
	buf_get_bytes(&r, dir, PROTO_FS_DIR_LEN);
	buf_get_u32(&r, &nops);
	dir[PROTO_FS_DIR_LEN] = '\0';
	if (!buf_ok(&r) || type != MSG_FS_BATCH || nops > PROTO_FS_OPS_MAX)
		bad_batch("a malformed batch");
	for (size_t k = 0; k < PROTO_FS_DIR_LEN; k++)
		if (!((dir[k] >= '0' && dir[k] <= '9') || (dir[k] >= 'a' && dir[k] <= 'f')))
			bad_batch("a malformed directory name");
	for (i = 0; i < nops; i++) {
		uint32_t op = 0;

		if (!buf_get_u32(&r, &op))
			bad_batch("fewer operations than it said");
		res = run_op(op, &r, !strcmp(dir, env.dir), &counts[i]);
		if (res)
			break;
	}
	if (res == FS_RES_OK && !buf_done(&r))
		bad_batch("a batch with trailing bytes");
	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_FS_BATCH_RSP);
	buf_put_u32(&w, res);
	buf_put_u32(&w, res == FS_RES_OK ? nops : i);
	for (uint32_t k = 0; k < i && k < nops; k++)
		buf_put_u32(&w, counts[k]);
	msg_send(env.supp_sock, out, buf_written(&w), NULL, 0);
}

static void *supplicant_main(void *arg)
{
	uint8_t *in = malloc(PROTO_MSG_MAX);

	(void)arg;
	while (in) {
		struct msg_fds fds;
		ssize_t n = msg_recv(env.supp_sock, in, PROTO_MSG_MAX, &fds);

		msg_fds_close(&fds);
		if (n <= 0)
			break;
		serve(in, (size_t)n);
	}
	free(in);
	return NULL;
}

static void channel_open(void)
{
	int sv[2] = {-1, -1};

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		abort();
	env.fs.sock = sv[0];
	env.fs.broken = false;
	env.fs.inflight = 0;
	env.supp_sock = sv[1];
	if (pthread_create(&env.thread, NULL, supplicant_main, NULL))
		abort();
}

static void channel_close(void)
{
	close(env.fs.sock);
	env.fs.sock = -1;
	pthread_join(env.thread, NULL);
	close(env.supp_sock);
	env.supp_sock = -1;
}

/* ---- the environment ---- */

static void cleanup(void)
{
	char tmp[SWTEE_PATH_MAX + 8];

	snprintf(tmp, sizeof(tmp), "%s.new", env.slot);
	unlink(tmp);
	unlink(env.slot);
	rmdir(env.rpmb);
	rmdir(env.secure);
}

void fse_init(void)
{
	const char *base = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
	int win = -1;
	int fd = -1;

	if (env.ready)
		return;
	log_init("fuzz", 0);
	snprintf(env.secure, sizeof(env.secure), "%s/swtee-fuzz-storage-XXXXXX", base);
	if (!mkdtemp(env.secure) || paths_join(env.huk, sizeof(env.huk), env.secure, "huk") ||
	    paths_join(env.rpmb, sizeof(env.rpmb), env.secure, "rpmb"))
		abort();
	fd = open(env.huk, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, fuzz_huk, sizeof(fuzz_huk)) != (ssize_t)sizeof(fuzz_huk))
		abort();
	close(fd);
	if (keys_init(env.secure))
		abort();
	unlink(env.huk); /* the keys are derived: only the RPMB slot is left to clean up */
	atexit(cleanup);
	memset(env.uuid.b, 0x5a, sizeof(env.uuid.b));
	keys_for_ta(&env.uuid, &env.keys, env.dir);
	if (snprintf(env.slot, sizeof(env.slot), "%s/%s", env.rpmb, env.dir) >=
	    (int)sizeof(env.slot))
		abort();
	env.bounce = malloc(FSE_BOUNCE);
	win = memfd_new_sealed("fuzz-storage-window", PROTO_FS_WINDOW);
	if (!env.bounce || win < 0 || reefs_open(&env.fs, -1, win))
		abort();
	close(win);
	channel_open();
	env.ready = true;
}

const struct swtee_uuid *fse_uuid(void)
{
	return &env.uuid;
}

const struct ta_keys *fse_keys(void)
{
	return &env.keys;
}

const char *fse_dir(void)
{
	return env.dir;
}

struct reefs *fse_fs(void)
{
	return &env.fs;
}

void fse_reset(void)
{
	reefs_settle(&env.fs);
	if (env.fs.broken) {
		channel_close();
		channel_open();
	}
	files_clear();
	env.faults = NULL;
	env.nfaults = 0;
	env.lists = NULL;
	env.nlists = 0;
	env.nremoved = 0;
	env.hidden = 0;
	unlink(env.slot);
}

void fse_mkdir(void)
{
	env.dir_exists = true;
}

int fse_put(const char *name, uint64_t off, const void *p, size_t n)
{
	struct fse_file *f = file_make(name);

	env.dir_exists = true;
	return f && !file_write(f, off, p, n) ? 0 : -1;
}

void fse_faults(const uint8_t *p, size_t n)
{
	env.faults = p;
	env.nfaults = n;
}

void fse_listings(const uint8_t *p, size_t n)
{
	env.lists = p;
	env.nlists = n;
}

size_t fse_removed_count(void)
{
	return env.nremoved;
}

const char *fse_removed(size_t i)
{
	return i < env.nremoved ? env.removed[i] : "";
}

size_t fse_hidden(void)
{
	return env.hidden;
}

int fse_slot_write(const void *p, size_t n)
{
	int fd = open(env.slot, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int rc = 0;

	if (fd < 0)
		return -1;
	if (n && pwrite(fd, p, n, 0) != (ssize_t)n)
		rc = -1;
	close(fd);
	return rc;
}

void fse_anchor_encode(uint8_t out[RF_COPY_LEN], const struct rpmb_slot *r)
{
	struct buf_writer w;

	buf_writer_init(&w, out, RF_COPY_LEN);
	buf_put_u32(&w, RF_MAGIC);
	buf_put_u32(&w, RF_VERSION);
	buf_put_u64(&w, r->counter);
	buf_put_u64(&w, r->seq);
	buf_put_bytes(&w, r->tag, STOR_TAG);
	buf_put_u64(&w, r->log_seq);
	buf_put_bytes(&w, r->log_tag, STOR_TAG);
	buf_put_u64(&w, r->log_end);
	buf_put_bytes(&w, env.keys.binding, STOR_TAG);
	keys_rpmb_mac(out, RF_BODY, out + RF_BODY);
}

void fse_entry_encode(uint8_t *out, const struct stor_entry *e)
{
	struct buf_writer w;

	buf_writer_init(&w, out, ENTRY_BYTES);
	entry_put(&w, e);
}
