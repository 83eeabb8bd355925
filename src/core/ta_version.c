/*
 * TA version floors (ta_version.h). The file secure/ta_versions:
 *
 *   u32 magic "SWTV", u32 format 1, u32 count
 *   count x { 16-byte UUID, u32 highest version accepted }
 *   HMAC-SHA256 under K_rpmb of all the above (keys_rpmb_mac; the magic
 *   keeps it apart from the RPMB anchors MACed under the same key)
 *
 * Only UUIDs whose floor is above 0 are kept: a version 0 image of a UUID
 * never seen costs no write.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "buf.h"
#include "log.h"
#include "paths.h"
#include "secure.h"
#include "storage/storage.h"
#include "ta_version.h"

#define TV_MAGIC 0x56545753u /* "SWTV" */
#define TV_FORMAT 1u
#define TV_HEAD 12u
#define TV_ENTRY 20u
#define TV_MAX 65536u
#define TV_FILE "ta_versions"

struct tv_entry {
	struct swtee_uuid uuid;
	uint32_t version;
};

static struct tv_entry *table;
static size_t count;
static size_t cap;
static bool allow;
static bool persist; /* the secure dir holds the table */
static bool broken;  /* the file failed its check: refuse everything */

static int tv_path(const char *name, char *out, size_t n)
{
	return paths_join(out, n, keys_secure_dir(), name);
}

/* Parses and checks a whole file's bytes into the table; -1 if it fails. */
static int tv_decode(const uint8_t *p, size_t len)
{
	uint8_t mac[STOR_HASH];
	struct buf_reader r;
	uint32_t magic = 0;
	uint32_t format = 0;
	uint32_t n = 0;

	if (len < TV_HEAD + STOR_HASH)
		return -1;
	keys_rpmb_mac(p, len - STOR_HASH, mac);
	if (!secure_equal(mac, p + len - STOR_HASH, STOR_HASH))
		return -1;
	buf_reader_init(&r, p, len - STOR_HASH);
	if (!buf_get_u32(&r, &magic) || !buf_get_u32(&r, &format) || !buf_get_u32(&r, &n) ||
	    magic != TV_MAGIC || format != TV_FORMAT || n > TV_MAX ||
	    buf_left(&r) != (size_t)n * TV_ENTRY)
		return -1;
	table = calloc(n ? n : 1, sizeof(*table));
	if (!table)
		return -1;
	cap = n ? n : 1;
	for (count = 0; count < n; count++)
		if (!buf_get_bytes(&r, table[count].uuid.b, sizeof(table[count].uuid.b)) ||
		    !buf_get_u32(&r, &table[count].version))
			return -1;
	return buf_done(&r) ? 0 : -1;
}

/* 0 (also when there is no file yet), or -1 when it cannot be used. */
static int tv_load(void)
{
	char path[SWTEE_PATH_MAX];
	struct stat st;
	uint8_t *buf = NULL;
	int fd = -1;
	int rc = -1;

	if (tv_path(TV_FILE, path, sizeof(path)))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 0 ||
	    (uint64_t)st.st_size > TV_HEAD + (uint64_t)TV_MAX * TV_ENTRY + STOR_HASH)
		goto out;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf || read(fd, buf, (size_t)st.st_size + 1) != st.st_size)
		goto out;
	rc = tv_decode(buf, (size_t)st.st_size);
out:
	if (rc) {
		log_error("%s fails its check (or cannot be read): every TA load is refused; "
			  "swteed --allow-ta-rollback starts the TA version table over",
			  path);
		free(table);
		table = NULL;
		count = cap = 0;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

/* Writes t[0..n) as the new file: aside, synced, renamed. 0 or -1 with errno. */
static int tv_store(const struct tv_entry *t, size_t n)
{
	size_t len = TV_HEAD + n * TV_ENTRY + STOR_HASH;
	uint8_t *buf = malloc(len);
	struct buf_writer w;
	int rc = -1;

	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	buf_writer_init(&w, buf, len);
	buf_put_u32(&w, TV_MAGIC);
	buf_put_u32(&w, TV_FORMAT);
	buf_put_u32(&w, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		buf_put_bytes(&w, t[i].uuid.b, sizeof(t[i].uuid.b));
		buf_put_u32(&w, t[i].version);
	}
	keys_rpmb_mac(buf, len - STOR_HASH, buf + len - STOR_HASH);
	rc = paths_replace_file(keys_secure_dir(), TV_FILE, buf, len);
	free(buf);
	return rc;
}

int ta_version_init(bool allow_rollback)
{
	allow = allow_rollback;
	persist = keys_ready();
	broken = false;
	if (!persist) {
		log_info("no secure dir: TA version floors are kept until the core stops only");
		return 0;
	}
	if (tv_load()) {
		broken = !allow;
		return -1;
	}
	if (allow)
		log_error("warning: --allow-ta-rollback: TA images older than one loaded "
			  "before are accepted");
	return 0;
}

static struct tv_entry *tv_find(const struct swtee_uuid *uuid)
{
	for (size_t i = 0; i < count; i++)
		if (uuid_equal(&table[i].uuid, uuid))
			return &table[i];
	return NULL;
}

/* Raises uuid's floor to version, on disk first; a TEEC result. */
static uint32_t tv_raise(struct tv_entry *e, const struct swtee_uuid *uuid, uint32_t version)
{
	struct tv_entry *grown = NULL;
	bool added = false;
	uint32_t old = 0;

	if (!e) {
		if (count == TV_MAX)
			return TEEC_ERROR_OUT_OF_MEMORY;
		if (count == cap || !table) {
			size_t ncap = cap ? cap * 2 : 16;

			grown = realloc(table, ncap * sizeof(*table));
			if (!grown)
				return TEEC_ERROR_OUT_OF_MEMORY;
			table = grown;
			cap = ncap;
		}
		e = &table[count++];
		e->uuid = *uuid;
		e->version = 0;
		added = true;
	}
	old = e->version;
	e->version = version;
	if (persist && tv_store(table, count)) {
		uint32_t res = errno == ENOSPC || errno == EDQUOT ? TEEC_ERROR_STORAGE_NO_SPACE
								  : TEEC_ERROR_GENERIC;

		log_error("cannot record a TA version in %s/" TV_FILE ": %s", keys_secure_dir(),
			  strerror(errno));
		e->version = old;
		if (added)
			count--;
		return res;
	}
	return TEEC_SUCCESS;
}

uint32_t ta_version_accept(const struct swtee_uuid *uuid, uint32_t version, const char *what)
{
	char name[SWTEE_UUID_STR_LEN];
	struct tv_entry *e = NULL;
	uint32_t res = TEEC_ERROR_GENERIC;

	uuid_format(uuid, name);
	if (broken) {
		log_error("%s %s: refused: the TA version table failed its check", what, name);
		goto out;
	}
	e = tv_find(uuid);
	if (e && version < e->version) {
		if (!allow) {
			log_error("%s %s: version %u refused: version %u was loaded before "
				  "(rollback; swteed --allow-ta-rollback permits it)",
				  what, name, version, e->version);
			res = TEEC_ERROR_ACCESS_CONFLICT;
			goto out;
		}
		log_error("warning: %s %s: version %u loaded though version %u was loaded "
			  "before (--allow-ta-rollback)",
			  what, name, version, e->version);
	}
	if ((e && version > e->version) || (!e && version > 0)) {
		res = tv_raise(e, uuid, version);
		if (res)
			goto out;
		log_debug("%s %s: version floor now %u", what, name, version);
	}
	res = TEEC_SUCCESS;
out:
	return res;
}

void ta_version_fini(void)
{
	free(table);
	table = NULL;
	count = cap = 0;
}
