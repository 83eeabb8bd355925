/* What the storage test TA's objects must hold (st_model.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st_client.h"
#include "st_model.h"
#include "st_util.h"
#include "ta_storage.h"

uint8_t st_model_byte(const struct st_obj *o, uint32_t off)
{
	return ta_storage_pattern(off < o->head_len ? o->head_seed : o->seed, off);
}

void st_model_fill(const struct st_obj *o, uint32_t off, uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		p[i] = st_model_byte(o, off + i);
}

struct st_obj *st_model_find(struct st_model *m, const char *name)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->o[i].name, name))
			return &m->o[i];
	return NULL;
}

struct st_obj *st_model_set(struct st_model *m, const char *name, uint32_t seed, uint32_t len)
{
	struct st_obj *o = st_model_find(m, name);

	if (!o) {
		if (m->n == ST_MODEL_MAX || strlen(name) >= sizeof(o->name))
			return NULL;
		o = &m->o[m->n++];
		snprintf(o->name, sizeof(o->name), "%s", name);
	}
	o->seed = seed;
	o->len = len;
	o->head_seed = 0;
	o->head_len = 0;
	return o;
}

void st_model_remove(struct st_model *m, const char *name)
{
	struct st_obj *o = st_model_find(m, name);

	if (o)
		*o = m->o[--m->n];
}

int st_model_save(const struct st_model *m, const char *path)
{
	FILE *f = fopen(path, "we");
	int rc = 0;

	if (!f)
		return -1;
	for (size_t i = 0; i < m->n; i++) {
		const struct st_obj *o = &m->o[i];

		if (fprintf(f, "%s %u %u %u %u\n", o->name, o->seed, o->len, o->head_seed,
			    o->head_len) < 0)
			rc = -1;
	}
	if (fclose(f))
		rc = -1;
	return rc;
}

int st_model_load(struct st_model *m, const char *path)
{
	char line[128];
	FILE *f = fopen(path, "re");

	m->n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct st_obj o = {0};

		if (sscanf(line, "%31s %u %u %u %u", o.name, &o.seed, &o.len, &o.head_seed,
			   &o.head_len) != 5 ||
		    m->n == ST_MODEL_MAX || o.len > ST_MODEL_OBJ_MAX) {
			fclose(f);
			return -1;
		}
		m->o[m->n++] = o;
	}
	fclose(f);
	return 0;
}

static uint8_t *check_buf(void)
{
	static uint8_t *buf;

	if (!buf)
		buf = malloc(ST_MODEL_OBJ_MAX + 1);
	return buf;
}

bool st_model_check_one(const char *name, const struct st_obj *o, const char *who)
{
	uint8_t *buf = check_buf();
	size_t len = 0;
	TEEC_Result res = TEEC_SUCCESS;

	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", who);
		return false;
	}
	res = st_read_all(name, buf, ST_MODEL_OBJ_MAX + 1, &len);
	if (!o) {
		if (res == TEEC_ERROR_ITEM_NOT_FOUND)
			return true;
		fprintf(stderr, "%s: %s should be absent; reading it gave 0x%08x, %zu bytes\n", who,
			name, res, len);
		return false;
	}
	if (res) {
		fprintf(stderr, "%s: %s (%u bytes) does not read back: 0x%08x (origin %u)\n", who,
			name, o->len, res, st_origin());
		return false;
	}
	if (len != o->len) {
		fprintf(stderr, "%s: %s has %zu bytes, not %u\n", who, name, len, o->len);
		return false;
	}
	for (uint32_t i = 0; i < o->len; i++) {
		if (buf[i] != st_model_byte(o, i)) {
			fprintf(stderr, "%s: %s differs at byte %u of %u\n", who, name, i, o->len);
			return false;
		}
	}
	return true;
}

unsigned int st_model_check(const struct st_model *m, bool whole, const char *who)
{
	unsigned int bad = 0;
	uint32_t n = 0;
	TEEC_Result res = TEEC_SUCCESS;

	for (size_t i = 0; i < m->n; i++)
		bad += !st_model_check_one(m->o[i].name, &m->o[i], who);
	if (!whole)
		return bad;
	res = st_count(&n);
	if (res || n != m->n) {
		fprintf(stderr, "%s: the TA has %u objects (0x%08x), %zu expected\n", who, n, res,
			m->n);
		bad++;
	}
	return bad;
}

TEEC_Result st_model_create(const char *name, uint32_t seed, uint32_t len, uint8_t *buf)
{
	struct st_obj o = {.seed = seed, .len = len};

	st_model_fill(&o, 0, buf, len);
	return st_create(name, buf, len);
}

TEEC_Result st_model_add(struct st_model *m, const char *name, uint32_t seed, uint32_t len,
			 uint8_t *buf)
{
	TEEC_Result res = st_model_create(name, seed, len, buf);

	if (!res)
		st_model_set(m, name, seed, len);
	return res;
}

void st_model_expect(const struct st_model *m, const char *when, const char *differ)
{
	unsigned int bad = st_model_check(m, true, st_who);

	if (bad)
		st_fail("%s: %u object(s) %s", when, bad, differ);
}

int st_model_resume(struct st_model *m, const char *path)
{
	if (!st_model_load(m, path))
		return 0;
	st_fail("cannot read %s", path);
	return -1;
}

int st_model_finish(const struct st_model *m, const char *path)
{
	if (st_model_save(m, path))
		st_fail("cannot write %s", path);
	return st_failures ? 1 : 0;
}

int st_model_verify(const char *path, const char *differ)
{
	static struct st_model m;

	if (st_model_resume(&m, path))
		return 1;
	st_model_expect(&m, "after a restart", differ);
	return st_failures ? 1 : 0;
}

uint8_t *st_model_begin(void)
{
	uint8_t *buf = malloc(ST_MODEL_OBJ_MAX);

	if (!buf || st_init()) {
		fprintf(stderr, "%s: cannot open a session to the storage TA\n", st_who);
		free(buf);
		return NULL;
	}
	return buf;
}

void st_model_end(uint8_t *buf)
{
	st_fini();
	free(buf);
}

int st_model_client(int argc, char **argv, const struct st_mode *modes, const char *differ,
		    uint8_t **buf)
{
	const char *mode = argc > 2 ? argv[2] : "";
	const char *path = argc > 3 ? argv[3] : "";
	const char *path2 = argc > 4 ? argv[4] : NULL;
	const struct st_mode *m = modes;
	int rc = 2;

	while (m->name && strcmp(m->name, mode) != 0)
		m++;
	if (!m->name && strcmp(mode, "verify") != 0)
		return 2;
	if (m->run2 && !path2)
		return 2;
	*buf = st_model_begin();
	if (!*buf)
		return 1;
	if (!m->name)
		rc = st_model_verify(path, differ);
	else if (m->run2)
		rc = m->run2(path, path2);
	else
		rc = m->run(path);
	st_model_end(*buf);
	*buf = NULL;
	return rc;
}
