/*
 * The directory of a store: every object of one TA, in memory while the
 * store is loaded (about 300 bytes an object), found by (namespace, object
 * id) through a hash table and walked in file-id order for enumeration. Its
 * durable form is the snapshot a checkpoint writes plus the journal records
 * since (journal.h); both carry entries in the form of entry_put.
 */
#include <stdlib.h>
#include <string.h>

#include "secure.h"
#include "storage.h"

struct stor_entry *entry_new(void)
{
	struct stor_entry *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->fek = secmem_alloc(STOR_KEY);
	if (!e->fek) {
		free(e);
		return NULL;
	}
	return e;
}

struct stor_entry *entry_dup(const struct stor_entry *e)
{
	struct stor_entry *d = entry_new();
	uint8_t *fek = NULL;

	if (!d)
		return NULL;
	fek = d->fek;
	*d = *e;
	d->fek = fek;
	memcpy(d->fek, e->fek, STOR_KEY);
	d->open = NULL;
	d->hnext = NULL;
	return d;
}

void entry_free(struct stor_entry *e)
{
	if (!e)
		return;
	secmem_free(e->fek);
	secure_wipe(e, sizeof(*e));
	free(e);
}

void entry_put(struct buf_writer *w, const struct stor_entry *e)
{
	uint8_t id[PROTO_STOR_ID_MAX] = {0};

	memcpy(id, e->id, e->id_len);
	buf_put_bytes(w, e->fid, STOR_FID);
	buf_put_u8(w, e->ns);
	buf_put_u8(w, e->flags);
	buf_put_u8(w, e->id_len);
	buf_put_bytes(w, id, sizeof(id));
	buf_put_bytes(w, e->fek, STOR_KEY);
	buf_put_u64(w, e->size);
	buf_put_bytes(w, e->root, STOR_HASH);
	buf_put_u32(w, e->type);
	buf_put_u32(w, e->obj_size);
	buf_put_u32(w, e->max_size);
	buf_put_u32(w, e->usage);
	buf_put_u32(w, e->attr_len);
	buf_put_bytes(w, e->attr_iv, STOR_IV);
	buf_put_bytes(w, e->attr_tag, STOR_TAG);
}

bool entry_get(struct buf_reader *r, struct stor_entry *e)
{
	uint8_t id[PROTO_STOR_ID_MAX];

	buf_get_bytes(r, e->fid, STOR_FID);
	buf_get_u8(r, &e->ns);
	buf_get_u8(r, &e->flags);
	buf_get_u8(r, &e->id_len);
	buf_get_bytes(r, id, sizeof(id));
	buf_get_bytes(r, e->fek, STOR_KEY);
	buf_get_u64(r, &e->size);
	buf_get_bytes(r, e->root, STOR_HASH);
	buf_get_u32(r, &e->type);
	buf_get_u32(r, &e->obj_size);
	buf_get_u32(r, &e->max_size);
	buf_get_u32(r, &e->usage);
	buf_get_u32(r, &e->attr_len);
	buf_get_bytes(r, e->attr_iv, STOR_IV);
	buf_get_bytes(r, e->attr_tag, STOR_TAG);
	if (!buf_ok(r) || e->ns > STOR_NS_RPMB || (e->flags & ~ENTRY_CORRUPT) ||
	    e->id_len > PROTO_STOR_ID_MAX || e->size > STOR_MAX_SIZE ||
	    e->attr_len > PROTO_STOR_ATTR_MAX)
		return false;
	memcpy(e->id, id, e->id_len);
	return true;
}

void entry_file(const uint8_t fid[STOR_FID], char kind, char out[PROTO_FS_NAME_MAX + 1])
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	for (size_t i = 0; i < STOR_FID; i++) {
		out[n++] = hex[fid[i] >> 4];
		out[n++] = hex[fid[i] & 15];
	}
	if (kind) {
		out[n++] = '.';
		out[n++] = kind;
	}
	out[n] = '\0';
}

static size_t hash_of(const struct store *s, uint8_t ns, const uint8_t *id, size_t len)
{
	uint64_t h = 1469598103934665603ull ^ ns;

	for (size_t i = 0; i < len; i++)
		h = (h ^ id[i]) * 1099511628211ull;
	h ^= len;
	return (size_t)(h % s->hsize);
}

static bool same_id(const struct stor_entry *e, uint8_t ns, const uint8_t *id, size_t len)
{
	return e->ns == ns && e->id_len == len && !memcmp(e->id, id, len);
}

struct stor_entry *dir_find(struct store *s, uint8_t ns, const uint8_t *id, size_t len)
{
	if (!s->hsize)
		return NULL;
	for (struct stor_entry *e = s->hash[hash_of(s, ns, id, len)]; e; e = e->hnext)
		if (same_id(e, ns, id, len))
			return e;
	return NULL;
}

/* The position of fid in s->sorted, or where it would go. */
static size_t sorted_pos(const struct store *s, const uint8_t fid[STOR_FID], bool *found)
{
	size_t lo = 0;
	size_t hi = s->n;

	*found = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(s->sorted[mid]->fid, fid, STOR_FID);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct stor_entry *dir_find_fid(struct store *s, const uint8_t fid[STOR_FID])
{
	bool found = false;
	size_t i = sorted_pos(s, fid, &found);

	return found ? s->sorted[i] : NULL;
}

struct stor_entry *dir_next(struct store *s, uint8_t ns, const uint8_t *after)
{
	bool found = false;
	size_t i = after ? sorted_pos(s, after, &found) : 0;

	if (found)
		i++;
	for (; i < s->n; i++)
		if (s->sorted[i]->ns == ns)
			return s->sorted[i];
	return NULL;
}

static int hash_grow(struct store *s)
{
	size_t size = s->hsize ? s->hsize * 2 : 256;
	struct stor_entry **h = calloc(size, sizeof(struct stor_entry *));

	if (!h)
		return -1;
	free(s->hash);
	s->hash = h;
	s->hsize = size;
	for (size_t i = 0; i < s->n; i++) {
		struct stor_entry *e = s->sorted[i];
		size_t k = hash_of(s, e->ns, e->id, e->id_len);

		e->hnext = s->hash[k];
		s->hash[k] = e;
	}
	return 0;
}

static void hash_unlink(struct store *s, struct stor_entry *e, uint8_t ns, const uint8_t *id,
			size_t len)
{
	struct stor_entry **pp = &s->hash[hash_of(s, ns, id, len)];

	while (*pp && *pp != e)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = e->hnext;
	e->hnext = NULL;
}

int dir_insert(struct store *s, struct stor_entry *e)
{
	bool found = false;
	size_t i = 0;
	size_t k = 0;

	if (s->n >= STOR_OBJECTS_MAX)
		return -1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct stor_entry **p = realloc(s->sorted, cap * sizeof(struct stor_entry *));

		if (!p)
			return -1;
		s->sorted = p;
		s->cap = cap;
	}
	i = sorted_pos(s, e->fid, &found);
	if (found)
		return -1;
	memmove(&s->sorted[i + 1], &s->sorted[i], (s->n - i) * sizeof(struct stor_entry *));
	s->sorted[i] = e;
	s->n++;
	if (s->n > s->hsize) {
		/* hash_grow re-files every entry, e among them */
		if (hash_grow(s)) {
			s->n--;
			memmove(&s->sorted[i], &s->sorted[i + 1],
				(s->n - i) * sizeof(struct stor_entry *));
			return -1;
		}
		return 0;
	}
	k = hash_of(s, e->ns, e->id, e->id_len);
	e->hnext = s->hash[k];
	s->hash[k] = e;
	return 0;
}

void dir_remove(struct store *s, struct stor_entry *e)
{
	bool found = false;
	size_t i = sorted_pos(s, e->fid, &found);

	if (found && s->sorted[i] == e) {
		memmove(&s->sorted[i], &s->sorted[i + 1],
			(s->n - i - 1) * sizeof(struct stor_entry *));
		s->n--;
	}
	hash_unlink(s, e, e->ns, e->id, e->id_len);
	entry_free(e);
}

void dir_rehash(struct store *s, struct stor_entry *e, uint8_t old_ns, const uint8_t *old_id,
		size_t old_len)
{
	size_t k = 0;

	hash_unlink(s, e, old_ns, old_id, old_len);
	k = hash_of(s, e->ns, e->id, e->id_len);
	e->hnext = s->hash[k];
	s->hash[k] = e;
}

void dir_free_all(struct store *s)
{
	for (size_t i = 0; i < s->n; i++)
		entry_free(s->sorted[i]);
	free(s->sorted);
	free(s->hash);
	s->sorted = NULL;
	s->hash = NULL;
	s->n = s->cap = s->hsize = 0;
}
