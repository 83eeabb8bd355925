#include "teec_session.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/*
 * table_lock guards the table and every session's known[] and forget[];
 * cancel_lock guards current_op and serial, so that TEEC_RequestCancellation
 * from another thread never waits for a call in flight.
 */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cancel_lock = PTHREAD_MUTEX_INITIALIZER;
static struct teec_session **table;
static size_t table_cap;
static atomic_uint shm_ids;

uint32_t teec_new_shm_id(void)
{
	uint32_t id = 0;

	do {
		id = atomic_fetch_add(&shm_ids, 1) + 1;
	} while (id == 0);
	return id;
}

uint32_t teec_session_register(struct teec_session *s)
{
	uint32_t id = 0;

	pthread_mutex_lock(&table_lock);
	for (size_t i = 0; i < table_cap; i++) {
		if (!table[i]) {
			table[i] = s;
			id = (uint32_t)i + 1;
			goto out;
		}
	}
	if (table_cap < UINT32_MAX / 2) {
		size_t ncap = table_cap ? table_cap * 2 : 16;
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): a table of pointers, by design. */
		struct teec_session **t = realloc(table, ncap * sizeof(*t));

		if (t) {
			/* NOLINTNEXTLINE(bugprone-sizeof-expression): as above. */
			memset(t + table_cap, 0, (ncap - table_cap) * sizeof(*t));
			table = t;
			table[table_cap] = s;
			id = (uint32_t)table_cap + 1;
			table_cap = ncap;
		}
	}
out:
	pthread_mutex_unlock(&table_lock);
	return id;
}

struct teec_session *teec_session_lookup(uint32_t id)
{
	struct teec_session *s = NULL;

	pthread_mutex_lock(&table_lock);
	if (id >= 1 && id <= table_cap)
		s = table[id - 1];
	pthread_mutex_unlock(&table_lock);
	return s;
}

struct teec_session *teec_session_unregister(uint32_t id)
{
	struct teec_session *s = NULL;

	pthread_mutex_lock(&table_lock);
	if (id >= 1 && id <= table_cap) {
		s = table[id - 1];
		table[id - 1] = NULL;
	}
	pthread_mutex_unlock(&table_lock);
	return s;
}

void teec_cancel_lock(void)
{
	pthread_mutex_lock(&cancel_lock);
}

void teec_cancel_unlock(void)
{
	pthread_mutex_unlock(&cancel_lock);
}

void teec_sessions_forget_shm(uint32_t id)
{
	pthread_mutex_lock(&table_lock);
	for (size_t i = 0; i < table_cap; i++) {
		struct teec_session *s = table[i];

		if (!s)
			continue;
		for (size_t k = 0; k < s->nknown; k++) {
			if (s->known[k] != id)
				continue;
			s->known[k] = s->known[--s->nknown];
			/* A full list only means the TA keeps a mapping longer. */
			if (s->nforget < PROTO_FORGET_MAX)
				s->forget[s->nforget++] = id;
			break;
		}
	}
	pthread_mutex_unlock(&table_lock);
}

bool teec_session_knows(const struct teec_session *s, uint32_t id)
{
	bool found = false;

	pthread_mutex_lock(&table_lock);
	for (size_t k = 0; k < s->nknown && !found; k++)
		found = s->known[k] == id;
	pthread_mutex_unlock(&table_lock);
	return found;
}

bool teec_session_mark_known(struct teec_session *s, uint32_t id)
{
	bool ok = true;

	pthread_mutex_lock(&table_lock);
	if (s->nknown == s->capknown) {
		size_t ncap = s->capknown ? s->capknown * 2 : 8;
		uint32_t *k = realloc(s->known, ncap * sizeof(*k));

		if (!k) {
			ok = false;
			goto out;
		}
		s->known = k;
		s->capknown = ncap;
	}
	s->known[s->nknown++] = id;
out:
	pthread_mutex_unlock(&table_lock);
	return ok;
}

size_t teec_session_take_forget(struct teec_session *s, uint32_t *out, size_t cap)
{
	size_t n = 0;

	pthread_mutex_lock(&table_lock);
	n = s->nforget < cap ? s->nforget : cap;
	memcpy(out, s->forget, n * sizeof(*out));
	memmove(s->forget, s->forget + n, (s->nforget - n) * sizeof(*out));
	s->nforget -= n;
	pthread_mutex_unlock(&table_lock);
	return n;
}
