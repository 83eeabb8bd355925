/*
 * storage-no-keys: no key of the trusted storage appears in any log.
 *
 * A workload that loads TAs and uses storage (xtest's 1xxx and 6xxx
 * regression families, then objects of two storage TAs left in place, one
 * written past 256 KiB so that the REE journal holds a record) runs under
 * "swtee run -v -v": the core and the supplicant log at debug level, and
 * everything the run prints (the core, the supplicant, the TAs, xtest)
 * goes to one log. Then the keys are derived from the HUK in the state's
 * secure dir, with the primitives of src/core/storage/keys.c, and checked
 * against what keys.c itself derives (keys_for_ta): the HUK, the SSK, the
 * RPMB key, and per TA of the TA directory its TSK, directory and journal
 * keys and slot binding; and the FEK of every object at rest, read from
 * each store's directory snapshot. None may be in the log: raw, in hex of
 * either case, or in base64 (standard or URL alphabet, at any alignment),
 * nor any 15 bytes in a row of one. A self-test of the search (every form
 * planted in a scratch log must be found) runs first, so that a search
 * that finds nothing cannot pass for a clean log.
 *
 * usage: storage-no-keys --swtee PATH --xtest PATH --ta-dir DIR --state DIR
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paths.h"
#include "st_client.h"
#include "st_model.h"
#include "st_run.h"
#include "st_util.h"
#include "storage.h"
#include "ta_storage.h"
#include "uuid.h"

/* A needle holds WIN bytes of a key: any WIN + 3 bytes of a key in a row are caught. */
#define WIN 12u
#define WIN_STEP 4u
#define HEX_LEN (2 * WIN)
#define B64_LEN 15u /* the base64 characters WIN bytes decide at any alignment, at least */
#define KEY_MAX 32u
/* The directory snapshot's clear head (journal.c): magic version seq count time(1+8+8) iv. */
#define SNAP_HEAD (4 + 4 + 8 + 4 + 1 + 8 + 8 + STOR_IV)
#define SNAP_MAGIC 0x444a5753u
#define LOG_MAX (64u << 20)

const char *const st_who = "storage-no-keys";

struct key {
	char what[96];
	uint8_t b[KEY_MAX];
	size_t len;
};

struct needle {
	uint64_t pre; /* the first 8 bytes, for the search */
	uint8_t text[HEX_LEN];
	size_t key;
	const char *form;
};

struct needles {
	size_t len;
	struct needle *v;
	size_t n;
	size_t cap;
};

static struct key *keys;
static size_t nkeys;
static size_t capkeys;

static void key_add(const uint8_t *b, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void key_add(const uint8_t *b, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (nkeys == capkeys) {
		capkeys = capkeys ? 2 * capkeys : 64;
		keys = realloc(keys, capkeys * sizeof(*keys));
		if (!keys)
			st_die("out of memory");
	}
	va_start(ap, fmt);
	vsnprintf(keys[nkeys].what, sizeof(keys[nkeys].what), fmt, ap);
	va_end(ap);
	memcpy(keys[nkeys].b, b, len);
	keys[nkeys].len = len;
	nkeys++;
}

/* ---- the forms a key may take in a log ---- */

static void hex(const uint8_t *b, size_t n, uint8_t *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = (uint8_t)digits[b[i] >> 4];
		out[2 * i + 1] = (uint8_t)digits[b[i] & 15];
	}
}

/*
 * Base64 of b[n] preceded by shift bytes of something else: the characters
 * that depend on b alone (the first B64_LEN of them) into out.
 */
static void b64_core(const uint8_t *b, size_t n, unsigned int shift, uint8_t *out)
{
	static const char alpha[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint8_t in[KEY_MAX + 6] = {0};
	size_t bits = 8 * ((size_t)shift + n);
	size_t first = (8 * (size_t)shift + 5) / 6; /* the first character past the prefix */

	memcpy(in + shift, b, n);
	for (size_t k = 0; k < B64_LEN; k++) {
		size_t bit = 6 * (first + k);
		unsigned int v = 0;

		if (bit + 6 > bits)
			st_die("base64 window too short");
		v = (unsigned int)(in[bit / 8] << 8 | in[bit / 8 + 1]);
		out[k] = (uint8_t)alpha[(v >> (10 - bit % 8)) & 63];
	}
}

static void needle_add(struct needles *s, const uint8_t *text, size_t key, const char *form)
{
	struct needle *v = NULL;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			st_die("out of memory");
	}
	v = &s->v[s->n++];
	memcpy(v->text, text, s->len);
	memcpy(&v->pre, text, sizeof(v->pre));
	v->key = key;
	v->form = form;
}

static int needle_cmp(const void *a, const void *b)
{
	const struct needle *x = a;
	const struct needle *y = b;

	return x->pre < y->pre ? -1 : x->pre > y->pre;
}

/* Every window of every key, in each form: raw, hex, base64 at the three alignments. */
static void needles_build(struct needles *raw, struct needles *hx, struct needles *b64)
{
	raw->len = WIN;
	hx->len = HEX_LEN;
	b64->len = B64_LEN;
	for (size_t k = 0; k < nkeys; k++) {
		for (size_t o = 0; o + WIN <= keys[k].len; o += WIN_STEP) {
			uint8_t text[HEX_LEN];

			needle_add(raw, keys[k].b + o, k, "raw bytes");
			hex(keys[k].b + o, WIN, text);
			needle_add(hx, text, k, "hex");
			for (unsigned int s = 0; s < 3; s++) {
				b64_core(keys[k].b + o, WIN, s, text);
				needle_add(b64, text, k, "base64");
			}
		}
	}
	qsort(raw->v, raw->n, sizeof(*raw->v), needle_cmp);
	qsort(hx->v, hx->n, sizeof(*hx->v), needle_cmp);
	qsort(b64->v, b64->n, sizeof(*b64->v), needle_cmp);
}

/* Reports every needle of s in hay[n]; returns how many were found. */
static unsigned int search(const struct needles *s, const uint8_t *hay, size_t n, const char *name,
			   bool quiet)
{
	unsigned int found = 0;

	for (size_t i = 0; s->n && i + s->len <= n; i++) {
		struct needle probe = {0};
		const struct needle *hit = NULL;

		memcpy(&probe.pre, hay + i, sizeof(probe.pre));
		hit = bsearch(&probe, s->v, s->n, sizeof(*s->v), needle_cmp);
		if (!hit)
			continue;
		while (hit > s->v && hit[-1].pre == probe.pre)
			hit--;
		for (; hit < s->v + s->n && hit->pre == probe.pre; hit++) {
			if (memcmp(hit->text, hay + i, s->len) != 0)
				continue;
			found++;
			if (!quiet)
				fprintf(stderr, "%s: %s is in %s at byte %zu, as %s\n", st_who,
					keys[hit->key].what, name, i, hit->form);
		}
	}
	return found;
}

/* Searches hay[n] for every key in every form; returns the hits. */
static unsigned int scan(const uint8_t *hay, size_t n, const char *name, bool quiet)
{
	struct needles raw = {0};
	struct needles hx = {0};
	struct needles b64 = {0};
	uint8_t *view = calloc(1, n + 1);
	unsigned int found = 0;

	if (!view)
		st_die("out of memory");
	needles_build(&raw, &hx, &b64);
	found += search(&raw, hay, n, name, quiet);
	/* Hex in either case. */
	for (size_t i = 0; i < n; i++)
		view[i] = hay[i] >= 'A' && hay[i] <= 'F' ? (uint8_t)(hay[i] + 'a' - 'A') : hay[i];
	found += search(&hx, view, n, name, quiet);
	/* The URL alphabet of base64 as the standard one. */
	for (size_t i = 0; i < n; i++)
		view[i] = hay[i] == '-' ? '+' : hay[i] == '_' ? '/' : hay[i];
	found += search(&b64, view, n, name, quiet);
	free(view);
	free(raw.v);
	free(hx.v);
	free(b64.v);
	return found;
}

/* The search must find each form of a key planted in a scratch log, and nothing in noise. */
static void self_test(void)
{
	static const char *const b64url = "-_";
	uint8_t key[KEY_MAX];
	uint8_t text[4 * KEY_MAX + 16];
	uint8_t *noise = malloc(1u << 20);
	size_t saved = nkeys;

	if (!noise || crypt_random(key, sizeof(key)) || crypt_random(noise, 1u << 20))
		st_die("cannot make test data");
	key_add(key, sizeof(key), "the self-test key");
	if (scan(noise, 1u << 20, "noise", true))
		st_die("self-test: the search finds a key in random bytes");
	/* raw, in noise */
	memcpy(noise + 1000, key, sizeof(key));
	if (!scan(noise, 1u << 20, "noise", true))
		st_die("self-test: a raw key is not found");
	/* hex, upper case, only 16 bytes from the middle */
	memset(text, ' ', sizeof(text));
	hex(key + 7, 16, text + 3);
	for (size_t i = 3; i < 3 + 32; i++)
		if (text[i] >= 'a' && text[i] <= 'f')
			text[i] = (uint8_t)(text[i] - 'a' + 'A');
	if (!scan(text, sizeof(text), "scratch", true))
		st_die("self-test: 16 bytes of a key in upper-case hex are not found");
	/* base64 (OpenSSL's encoder) after 0, 1, 2 other bytes; and in the URL alphabet */
	for (unsigned int s = 0; s < 6; s++) {
		uint8_t in[KEY_MAX + 3] = {0x5a, 0xa5, 0x3c};
		int n = 0;

		memcpy(in + s % 3, key, sizeof(key));
		n = EVP_EncodeBlock(text, in, (int)(s % 3 + sizeof(key)));
		for (int i = 0; s >= 3 && i < n; i++)
			text[i] = text[i] == '+'   ? (uint8_t)b64url[0]
				  : text[i] == '/' ? (uint8_t)b64url[1]
						   : text[i];
		if (n <= 0 || !scan(text, (size_t)n, "scratch", true))
			st_die("self-test: a key in base64 after %u bytes is not found", s % 3);
	}
	nkeys = saved;
	free(noise);
}

/* ---- the client: runs inside "swtee run" ---- */

static int run_xtest(const char *xtest, const char *which)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execl(xtest, "xtest", "-t", "regression", which, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Objects that stay, so that their FEKs are in the snapshots at rest. */
static int make_objects(const TEEC_UUID *uuid, const char *prefix, uint32_t n, uint8_t *buf)
{
	if (st_init_ta(uuid))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "%s-%u", prefix, i);
		if (st_model_create(name, i, 1000 + 40000 * i, buf)) {
			st_fini();
			return -1;
		}
	}
	/* Past 256 KiB over data that is there: a record of the REE journal. */
	if (n == 8 && st_write_at("keep-7", 0, buf, 280000)) {
		st_fini();
		return -1;
	}
	st_fini();
	return 0;
}

static int client_main(int argc, char **argv)
{
	const TEEC_UUID one = TA_STORAGE_UUID;
	const TEEC_UUID two = TA_STORAGE2_UUID;
	uint8_t *buf = malloc(1u << 20);
	int rc = 0;

	if (argc < 4 || strcmp(argv[2], "workload") != 0 || !buf)
		return 2;
	if (run_xtest(argv[3], "_1") || run_xtest(argv[3], "_6")) {
		fprintf(stderr, "%s: xtest failed\n", st_who);
		rc = 1;
	}
	if (make_objects(&one, "keep", 8, buf) || make_objects(&two, "keep2", 3, buf)) {
		fprintf(stderr, "%s: cannot make the objects that stay\n", st_who);
		rc = 1;
	}
	free(buf);
	return rc;
}

/* ---- the keys ---- */

static void read_file(const char *path, uint8_t **out, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t done = 0;

	if (fd < 0 || fstat(fd, &st) || st.st_size < 0 || (uint64_t)st.st_size > LOG_MAX)
		st_die("cannot read %s: %s", path, strerror(errno));
	*len = (size_t)st.st_size;
	*out = malloc(*len ? *len : 1);
	if (!*out)
		st_die("out of memory");
	while (done < *len) {
		ssize_t n = read(fd, *out + done, *len - done);

		if (n <= 0)
			st_die("cannot read %s", path);
		done += (size_t)n;
	}
	close(fd);
}

/* The FEKs of the objects in a snapshot of a store, read with its directory key. */
static size_t snapshot_feks(const char *path, const uint8_t kdir[STOR_KEY], const char *ta)
{
	uint8_t *f = NULL;
	uint8_t *pt = NULL;
	size_t len = 0;
	size_t body = 0;
	size_t found = 0;
	uint32_t magic = 0;
	uint32_t count = 0;
	struct buf_reader r;
	EVP_CIPHER_CTX *ctx = crypt_ctx_new(kdir);

	read_file(path, &f, &len);
	if (!ctx || len < SNAP_HEAD + STOR_TAG)
		st_die("%s: not a directory snapshot", path);
	body = len - SNAP_HEAD - STOR_TAG;
	pt = malloc(body + 1);
	buf_reader_init(&r, f, SNAP_HEAD);
	buf_get_u32(&r, &magic);
	buf_skip(&r, 4 + 8);
	buf_get_u32(&r, &count);
	if (!pt || magic != SNAP_MAGIC || (size_t)count * ENTRY_BYTES != body)
		st_die("%s: not a directory snapshot (has journal.c's format changed?)", path);
	if (crypt_open(ctx, f + SNAP_HEAD - STOR_IV, f, SNAP_HEAD, f + SNAP_HEAD, pt, body,
		       f + SNAP_HEAD + body))
		st_die("%s does not open with the directory key derived here", path);
	buf_reader_init(&r, pt, body);
	for (uint32_t i = 0; i < count; i++) {
		struct stor_entry *e = entry_new();

		if (!e || !entry_get(&r, e))
			st_die("%s: entry %u does not parse", path, i);
		key_add(e->fek, STOR_KEY, "the FEK of object %u of TA %s", i, ta);
		entry_free(e);
		found++;
	}
	EVP_CIPHER_CTX_free(ctx);
	free(pt);
	free(f);
	return found;
}

struct store_dir {
	char name[STOR_DIRNAME_LEN + 1];
	bool known;
};

/* What derive and derive_ta share: the state, the storage keys, the stores on disk. */
struct derive_ctx {
	const char *state;
	uint8_t ssk[STOR_HASH];
	uint8_t krpmb[STOR_HASH];
	struct store_dir stores[64];
	size_t nstores;
};

/*
 * The keys of the TA uuid_str, derived here and checked against keys.c's,
 * and the FEKs of its store if it has one; returns the FEKs found.
 */
static size_t derive_ta(struct derive_ctx *x, const char *uuid_str)
{
	static const char hexd[] = "0123456789abcdef";
	char path[SWTEE_PATH_MAX];
	struct swtee_uuid uuid;
	struct ta_keys real;
	char real_dir[STOR_DIRNAME_LEN + 1];
	char dir[STOR_DIRNAME_LEN + 1];
	uint8_t tsk[STOR_HASH];
	uint8_t kdir[STOR_HASH];
	uint8_t kjournal[STOR_HASH];
	uint8_t h[STOR_HASH];
	size_t feks = 0;

	if (!uuid_parse(uuid_str, &uuid))
		return 0;
	crypt_hmac(x->ssk, "ta", 2, uuid.b, sizeof(uuid.b), tsk);
	crypt_hmac(tsk, "dir", 3, NULL, 0, kdir);
	crypt_hmac(tsk, "journal", 7, NULL, 0, kjournal);
	crypt_hmac(x->krpmb, "slot", 4, uuid.b, sizeof(uuid.b), h);
	key_add(tsk, sizeof(tsk), "the TSK of TA %s", uuid_str);
	key_add(kdir, sizeof(kdir), "the directory key of TA %s", uuid_str);
	key_add(kjournal, sizeof(kjournal), "the journal key of TA %s", uuid_str);
	key_add(h, STOR_TAG, "the RPMB slot binding of TA %s", uuid_str);
	/* What keys.c derives must be what was derived here. */
	keys_for_ta(&uuid, &real, real_dir);
	if (memcmp(real.dir, kdir, STOR_KEY) || memcmp(real.journal, kjournal, STOR_KEY) ||
	    memcmp(real.binding, h, STOR_TAG))
		st_die("the keys of TA %s differ from keys.c's: follow its derivation", uuid_str);
	crypt_hmac(x->ssk, "name", 4, uuid.b, sizeof(uuid.b), h);
	for (size_t i = 0; i < STOR_DIRNAME_LEN / 2; i++) {
		dir[2 * i] = hexd[h[i] >> 4];
		dir[2 * i + 1] = hexd[h[i] & 15];
	}
	dir[STOR_DIRNAME_LEN] = '\0';
	if (strcmp(dir, real_dir) != 0)
		st_die("the store name of TA %s differs from keys.c's", uuid_str);
	for (size_t i = 0; i < x->nstores; i++) {
		DIR *sd = NULL;
		struct dirent *f = NULL;

		if (strcmp(x->stores[i].name, dir) != 0)
			continue;
		x->stores[i].known = true;
		st_pathf(path, sizeof(path), "%s/ree/%s", x->state, dir);
		sd = opendir(path);
		while (sd && (f = readdir(sd))) {
			char snap[SWTEE_PATH_MAX + 32];

			if (f->d_name[0] != 'd' || strlen(f->d_name) != 17)
				continue;
			st_pathf(snap, sizeof(snap), "%s/%s", path, f->d_name);
			feks += snapshot_feks(snap, kdir, uuid_str);
		}
		if (sd)
			closedir(sd);
	}
	return feks;
}

/* The built-in pseudo-TAs that keep trusted storage: attestation (its key). */
static const char *const builtin_stores[] = {"39800861-182a-4720-9b67-2bcd622bc0b5"};

/* The key chain from the HUK, checked against keys.c; returns the FEKs found. */
static size_t derive(const char *state, const char *ta_dir)
{
	static struct derive_ctx x;
	char path[SWTEE_PATH_MAX];
	char secure[SWTEE_PATH_MAX];
	size_t feks = 0;
	uint8_t *huk = NULL;
	size_t huk_len = 0;
	struct dirent *e = NULL;
	DIR *d = NULL;

	x.state = state;
	st_pathf(secure, sizeof(secure), "%s/secure", state);
	st_pathf(path, sizeof(path), "%s/huk", secure);
	read_file(path, &huk, &huk_len);
	if (huk_len != 32)
		st_die("%s is not a 32-byte key", path);
	key_add(huk, huk_len, "the HUK");
	crypt_hmac(huk, "swtee storage key", 17, NULL, 0, x.ssk);
	crypt_hmac(huk, "swtee rpmb key", 14, NULL, 0, x.krpmb);
	key_add(x.ssk, sizeof(x.ssk), "the SSK");
	key_add(x.krpmb, sizeof(x.krpmb), "the RPMB key");
	free(huk);
	if (keys_init(secure))
		st_die("keys.c cannot load the keys of %s", secure);
	/* The stores on disk: each must turn out to be a TA's whose keys are derived. */
	st_pathf(path, sizeof(path), "%s/ree", state);
	d = opendir(path);
	while (d && (e = readdir(d)) && x.nstores < 64) {
		if (strlen(e->d_name) != STOR_DIRNAME_LEN)
			continue;
		memcpy(x.stores[x.nstores].name, e->d_name, STOR_DIRNAME_LEN + 1);
		x.stores[x.nstores++].known = false;
	}
	if (d)
		closedir(d);
	if (!x.nstores)
		st_die("the workload left no store in %s", path);
	d = opendir(ta_dir);
	if (!d)
		st_die("cannot read %s", ta_dir);
	while ((e = readdir(d))) {
		char uuid_str[SWTEE_UUID_STR_LEN];
		size_t n = strlen(e->d_name);

		if (n < 4 || strcmp(e->d_name + n - 3, ".ta") != 0 || n - 3 >= sizeof(uuid_str))
			continue;
		memcpy(uuid_str, e->d_name, n - 3);
		uuid_str[n - 3] = '\0';
		feks += derive_ta(&x, uuid_str);
	}
	closedir(d);
	for (size_t i = 0; i < sizeof(builtin_stores) / sizeof(builtin_stores[0]); i++)
		feks += derive_ta(&x, builtin_stores[i]);
	keys_fini();
	for (size_t i = 0; i < x.nstores; i++)
		if (!x.stores[i].known)
			st_die("store %s is of no TA in %s: its keys cannot be derived",
			       x.stores[i].name, ta_dir);
	return feks;
}

int main(int argc, char **argv)
{
	const char *swtee = NULL;
	const char *xtest = NULL;
	const char *ta_dir = NULL;
	const char *state = NULL;
	char top[SWTEE_PATH_MAX];
	char log[SWTEE_PATH_MAX + 16];
	uint8_t *text = NULL;
	size_t len = 0;
	size_t feks = 0;
	unsigned int found = 0;
	int rc = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "--client"))
		return client_main(argc, argv);
	swtee = st_arg(argc, argv, "--swtee");
	xtest = st_arg(argc, argv, "--xtest");
	ta_dir = st_arg(argc, argv, "--ta-dir");
	state = st_arg(argc, argv, "--state");
	if (!swtee || !xtest || !ta_dir || !state)
		st_die("usage: storage-no-keys --swtee PATH --xtest PATH --ta-dir DIR --state DIR");
	self_test();
	snprintf(top, sizeof(top), "%s", state);
	snprintf(log, sizeof(log), "%s.log", top);
	if (st_run_sh("rm -rf '%s' '%s'", top, log))
		st_die("cannot clean %s", top);
	{
		const char *const args[] = {"workload", xtest, NULL};

		rc = st_run(swtee, top, log, ST_RUN_VERBOSE | ST_RUN_STDOUT, args);
	}
	if (rc) {
		st_run_tail(log, 40);
		st_die("the workload failed (exit %d)", rc);
	}
	read_file(log, &text, &len);
	/* The log is the one asked for: the core's and the supplicant's lines are in it. */
	if (!memmem(text, len, "swteed: ", 8) || !memmem(text, len, "tee-supplicant: ", 16))
		st_die("%s has no lines of the core and the supplicant", log);
	feks = derive(top, ta_dir);
	if (feks < 11)
		st_die("only %zu FEKs found in the snapshots; the workload leaves 11 objects",
		       feks);
	found = scan(text, len, log, false);
	printf("%s: %zu keys (the HUK, the SSK, the RPMB key, 4 per TA, %zu FEKs) in %zu bytes "
	       "of log: %u found\n",
	       st_who, nkeys, feks, len, found);
	free(text);
	free(keys);
	return found ? 1 : 0;
}
