/*
 * What the objects of the storage test TA must hold, for the tests that
 * check them across runs of the TEE: each object is the pattern of a seed
 * (ta_storage_pattern, by position, so appends keep it), except a head
 * rewritten with another seed. Kept between runs in a text file.
 */
#ifndef ST_MODEL_H
#define ST_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_client_api.h>

#define ST_MODEL_MAX 512
/* The largest object a model holds, and the buffer st_model_check needs. */
#define ST_MODEL_OBJ_MAX (1u << 20)

struct st_obj {
	char name[32];
	uint32_t seed;
	uint32_t len;
	uint32_t head_seed; /* bytes [0, head_len) follow this seed */
	uint32_t head_len;
};

struct st_model {
	struct st_obj o[ST_MODEL_MAX];
	size_t n;
};

/* The byte at off of o. */
uint8_t st_model_byte(const struct st_obj *o, uint32_t off);
/* The len bytes at off of o into p. */
void st_model_fill(const struct st_obj *o, uint32_t off, uint8_t *p, uint32_t len);
/* The object name, or NULL. */
struct st_obj *st_model_find(struct st_model *m, const char *name);
/* Adds or replaces name as the pattern of seed; NULL when the model is full. */
struct st_obj *st_model_set(struct st_model *m, const char *name, uint32_t seed, uint32_t len);
void st_model_remove(struct st_model *m, const char *name);
/* 0 or -1. */
int st_model_save(const struct st_model *m, const char *path);
int st_model_load(struct st_model *m, const char *path);
/*
 * Reads every object of m back through the open st_client session and
 * compares it; with whole, the TA must have no other object. Says what
 * differs on stderr, prefixed by who; returns how many objects differ.
 */
unsigned int st_model_check(const struct st_model *m, bool whole, const char *who);
/*
 * Whether name reads back as o (NULL: absent); false, with a line on
 * stderr, otherwise.
 */
bool st_model_check_one(const char *name, const struct st_obj *o, const char *who);
/*
 * Creates name through the open st_client session as the object
 * st_model_set(m, name, seed, len) describes, its data made in buf (len
 * bytes at least). st_create's result.
 */
TEEC_Result st_model_create(const char *name, uint32_t seed, uint32_t len, uint8_t *buf);
/* st_model_create, then name set in m (st_model_set) when the create worked. Its result. */
TEEC_Result st_model_add(struct st_model *m, const char *name, uint32_t seed, uint32_t len,
			 uint8_t *buf);
/*
 * st_model_check of m, whole, as a failure of the driver (st_fail): "WHEN:
 * N object(s) DIFFER" when any object differs, differ saying how (such as
 * "not as committed").
 */
void st_model_expect(const struct st_model *m, const char *when, const char *differ);
/*
 * The start of a client's run that goes on from a run before it: the
 * model that run saved at path, loaded (st_model_load). 0, or -1 with a
 * failure (st_fail) that says so.
 */
int st_model_resume(struct st_model *m, const char *path);
/*
 * The end of a client's run: m saved at path for the runs after it (a
 * failure when it cannot be). The client's exit status: 1 when any
 * failure was counted (st_failures), else 0.
 */
int st_model_finish(const struct st_model *m, const char *path);
/*
 * A client's run after a restart: the model at path resumed and expected
 * (st_model_expect). The client's exit status, as st_model_finish's.
 */
int st_model_verify(const char *path, const char *differ);
/*
 * The start of a driver's client run: a buffer of ST_MODEL_OBJ_MAX bytes
 * and the session to the storage TA (st_init). NULL, with a line that says
 * so, when either cannot be had.
 */
uint8_t *st_model_begin(void);
/* The end of it: the session closed, buf freed. */
void st_model_end(uint8_t *buf);
/*
 * One mode of a driver's client run ("--client NAME PATH [PATH2]"): run
 * gets PATH, run2 PATH and PATH2 (a mode has one of them).
 */
struct st_mode {
	const char *name;
	int (*run)(const char *path);
	int (*run2)(const char *path, const char *path2);
};
/*
 * A driver's client run: the mode argv[2] names, among modes (ended by a
 * NULL name) and "verify" (st_model_verify of PATH, differ saying how),
 * between st_model_begin (into *buf) and st_model_end. The mode's exit
 * status; 2 for an unknown mode or a PATH2 missing; 1 without a session.
 */
int st_model_client(int argc, char **argv, const struct st_mode *modes, const char *differ,
		    uint8_t **buf);

#endif
