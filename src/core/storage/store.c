/*
 * The stores of the core: one per TA that uses storage, shared by all its
 * instances, each with a lock of its own. The table lock is held only to
 * find or drop a store, never across any storage work, so the stores of
 * different TAs never wait for each other. A store is loaded (recovered,
 * recovery.c) by the first worker that locks it and unloaded when its last
 * worker lets go.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "secure.h"
#include "storage.h"

static pthread_mutex_t stores_lock = PTHREAD_MUTEX_INITIALIZER;
static struct store *stores;

/* A batch of a committed record failed on its way to the files (fsb_send). */
static void store_apply_failed(struct fs_owner *o, TEE_Result res)
{
	struct store *s = (struct store *)((char *)o - offsetof(struct store, applying));

	store_break(s, res, "a commit did not finish");
}

struct store *store_get(const struct swtee_uuid *uuid)
{
	struct store *s = NULL;

	pthread_mutex_lock(&stores_lock);
	for (s = stores; s; s = s->next)
		if (uuid_equal(&s->uuid, uuid))
			break;
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (s) {
			s->keys = secmem_alloc(sizeof(*s->keys));
			if (!s->keys) {
				free(s);
				s = NULL;
			}
		}
		if (s) {
			s->uuid = *uuid;
			s->rpmb.fd = -1;
			s->applying.failed = store_apply_failed;
			keys_for_ta(uuid, s->keys, s->dir);
			pthread_mutex_init(&s->lock, NULL);
			s->next = stores;
			stores = s;
		}
	}
	if (s)
		s->refs++;
	pthread_mutex_unlock(&stores_lock);
	return s;
}

static void store_unload(struct store *s)
{
	dir_free_all(s);
	map_cache_free(s);
	rpmb_close(&s->rpmb);
	free(s->dirty.fid);
	s->dirty.fid = NULL;
	s->dirty.n = s->dirty.cap = 0;
	s->loaded = false;
	s->time_set = false;
}

void store_put(struct store *s)
{
	struct store **pp = &stores;

	if (!s)
		return;
	pthread_mutex_lock(&stores_lock);
	if (--s->refs) {
		pthread_mutex_unlock(&stores_lock);
		return;
	}
	while (*pp && *pp != s)
		pp = &(*pp)->next;
	if (*pp)
		*pp = s->next;
	pthread_mutex_unlock(&stores_lock);
	store_unload(s);
	pthread_mutex_destroy(&s->lock);
	secmem_free(s->keys);
	secure_wipe(s, sizeof(*s));
	free(s);
}

/*
 * Whether the store can be changed: its RPMB slot opened for writing, and
 * the supplicant able to open its journal for writing (a write of nothing).
 * Read-only, it says so once, at load.
 */
static bool writable(struct store *s)
{
	char name[SWTEE_UUID_STR_LEN];
	const char *why = NULL;
	struct fsb b;

	if (s->rpmb.readonly) {
		why = "its RPMB slot in the secure dir";
	} else {
		fsb_init(&b, s->fs, s->dir);
		fsb_write(&b, "j", 0, 0, FS_WRITE_AREA); /* the journal (journal.h) */
		if (fsb_run(&b) == TEE_ERROR_STORAGE_NOT_AVAILABLE && !s->fs->broken)
			why = "its files in the supplicant's storage dir";
	}
	if (!why)
		return true;
	uuid_format(&s->uuid, name);
	log_error("storage of TA %s is read-only: %s cannot be written; reads work, changes "
		  "fail with TEE_ERROR_STORAGE_NOT_AVAILABLE",
		  name, why);
	return false;
}

TEE_Result store_lock_loaded(struct store *s, struct reefs *fs)
{
	TEE_Result res = TEE_ERROR_STORAGE_NOT_AVAILABLE;

	pthread_mutex_lock(&s->lock);
	s->fs = fs;
	if (s->applying.post && s->applying.post != fs)
		reefs_settle(s->applying.post);
	if (s->broken)
		res = s->broken;
	else if (s->loaded && !fs->broken)
		res = TEE_SUCCESS;
	return res;
}

TEE_Result store_lock(struct store *s, struct reefs *fs)
{
	TEE_Result res = TEE_ERROR_GENERIC;

	pthread_mutex_lock(&s->lock);
	s->fs = fs;
	/* Another instance's channel may still be applying a commit: wait for it. */
	if (s->applying.post && s->applying.post != fs)
		reefs_settle(s->applying.post);
	if (s->broken)
		return s->broken;
	if (fs->broken)
		return TEE_ERROR_STORAGE_NOT_AVAILABLE;
	if (s->loaded)
		return TEE_SUCCESS;
	res = journal_load(s);
	if (!res) {
		s->loaded = true;
		s->readonly = !writable(s);
		if (!s->readonly)
			journal_sweep(s);
		return TEE_SUCCESS;
	}
	store_unload(s);
	if (res == TEE_ERROR_CORRUPT_OBJECT)
		store_break(s, res, "its files fail their checks");
	return res;
}

void store_unlock(struct store *s)
{
	s->fs = NULL;
	pthread_mutex_unlock(&s->lock);
}

bool store_sole(struct store *s)
{
	bool sole = false;

	pthread_mutex_lock(&stores_lock);
	sole = s->refs == 1;
	pthread_mutex_unlock(&stores_lock);
	return sole;
}
