/*
 * Opening a session, as events. The core's one thread never waits on a
 * peer: an open that needs the supplicant sends its request and waits as a
 * pending record, tagged by the request's id, with a deadline; the reply
 * arrives through the event loop. The steps:
 *
 *   PICK      an instance to share (instance_pick); if it has sent messages
 *             the core has not read (a session it just closed, say), SETTLE
 *             until the loop has read them, then PICK again;
 *   WAIT_TA   the TA's image from the supplicant, then verified;
 *   WAIT_LIB  each TA library it needs, one at a time (ta_libs.c's walk);
 *             then PICK again (another open may have started the instance
 *             meanwhile) and, if none, a spare takes the verified image;
 *   answer    the requester gets its session socket or the error.
 *
 * A supplicant that never answers delays only the opens waiting on it; at
 * the deadline it is dropped and those opens fail. A requester that goes
 * away leaves its open running without an answer, so that the supplicant's
 * reply still finds whom it was for.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "core.h"
#include "log.h"
#include "proto.h"
#include "pta_image.h"

enum open_step {
	OPEN_PICK,
	OPEN_SETTLE,
	OPEN_WAIT_TA,
	OPEN_WAIT_LIB,
};

struct open_req {
	enum open_step step;
	struct client *cl;	/* the requester, or */
	struct instance *owner; /* (TA to TA); both NULL once it is gone */
	uid_t uid;		/* the user it counts against */
	bool abandoned;
	struct swtee_uuid uuid;
	uint32_t login;
	struct swtee_uuid identity;
	uint32_t settle_id;	/* OPEN_SETTLE: the instance to hear first */
	uint32_t supp_req;	/* OPEN_WAIT_*: the supplicant request */
	struct swtee_uuid want; /* OPEN_WAIT_LIB: the library asked for */
	struct timespec deadline;
	int elf_fd; /* the verified TA, -1 until then */
	struct ta_facts facts;
	bool walked; /* every library it needs is verified, in walk.libs */
	struct lib_walk walk;
	struct open_req *next;
};

static void answer(struct core *c, struct open_req *o, uint32_t res, int sock, uint32_t sid)
{
	(void)c;
	if (o->cl)
		client_open_answer(o->cl, res, sid, sock);
	else if (o->owner)
		ta_request_open_answer(o->owner, res, sid, sock);
}

/* Ends o: its requester (if still there) gets res, and the session on sock. */
static void finish(struct core *c, struct open_req *o, uint32_t res, int sock, uint32_t sid)
{
	struct open_req **pp = &c->opens;

	while (*pp && *pp != o)
		pp = &(*pp)->next;
	if (*pp)
		*pp = o->next;
	answer(c, o, res, sock, sid);
	if (sock >= 0)
		close(sock);
	if (o->elf_fd >= 0)
		close(o->elf_fd);
	ta_libs_abandon(&o->walk);
	free(o);
}

static void ask(struct core *c, struct open_req *o, const struct swtee_uuid *uuid,
		enum open_step step)
{
	if (supplicant_ask_image(c, uuid, &o->supp_req)) {
		finish(c, o, TEEC_ERROR_COMMUNICATION, -1, 0);
		return;
	}
	o->step = step;
	deadline_in(&o->deadline, SUPP_TIMEOUT_MS);
}

/* Would a new instance for o take its user past the limit? Says so in the log. */
static bool over_instances(struct core *c, const struct open_req *o)
{
	char name[SWTEE_UUID_STR_LEN];

	if (instance_count_user(c, o->uid) < c->limits.instances_per_user)
		return false;
	uuid_format(&o->uuid, name);
	log_error("user %u runs %u TA instances, its limit (--max-instances-per-user); "
		  "refusing a new instance of TA %s",
		  (unsigned int)o->uid, c->limits.instances_per_user, name);
	return true;
}

static uint32_t opens_of_user(const struct core *c, uid_t uid)
{
	uint32_t n = 0;

	for (const struct open_req *o = c->opens; o; o = o->next)
		if (o->uid == uid)
			n++;
	return n;
}

/* Runs o until it waits or ends. */
static void advance(struct core *c, struct open_req *o)
{
	struct instance *in = NULL;
	bool settle = false;
	uint32_t res = TEEC_ERROR_GENERIC;
	uint32_t sid = 0;
	int sock = -1;

	if (o->abandoned) {
		finish(c, o, TEEC_ERROR_COMMUNICATION, -1, 0);
		return;
	}
	res = instance_pick(c, &o->uuid, o->owner, &in, &settle);
	if (res) {
		finish(c, o, res, -1, 0);
		return;
	}
	if (settle) {
		o->step = OPEN_SETTLE;
		o->settle_id = in->id;
		return;
	}
	if (!in && over_instances(c, o)) {
		finish(c, o, TEEC_ERROR_BUSY, -1, 0);
		return;
	}
	if (!in && !o->walked && pta_image(&o->uuid, &o->elf_fd, &o->facts)) {
		o->walked = true; /* a built-in pseudo-TA: no file, no library */
		if (o->elf_fd < 0) {
			finish(c, o, TEEC_ERROR_OUT_OF_MEMORY, -1, 0);
			return;
		}
	}
	if (!in && !o->walked) {
		ask(c, o, &o->uuid, OPEN_WAIT_TA);
		return;
	}
	if (!in) {
		in = instance_start(c, &o->uuid, o->elf_fd, &o->facts, &o->walk.libs, &res);
		if (in)
			in->uid = o->uid;
	}
	if (in)
		res = instance_attach(c, in, o->cl, o->owner, o->login, &o->identity, &sock, &sid);
	finish(c, o, res, sock, sid);
}

/* The walk of o's libraries goes on: the next one is asked for, or o picks again. */
static void walk_on(struct core *c, struct open_req *o)
{
	struct swtee_uuid want;
	uint32_t res = 0;

	switch (ta_libs_next(&o->walk, &want, &res)) {
	case LIB_WALK_NEED:
		o->want = want;
		ask(c, o, &o->want, OPEN_WAIT_LIB);
		break;
	case LIB_WALK_DONE:
		o->walked = true;
		o->step = OPEN_PICK;
		advance(c, o);
		break;
	case LIB_WALK_FAILED:
		finish(c, o, res, -1, 0);
		break;
	}
}

void open_start(struct core *c, struct client *cl, struct instance *owner,
		const struct swtee_uuid *uuid, uint32_t login, const struct swtee_uuid *identity)
{
	struct open_req none = {.cl = cl, .owner = owner};
	uid_t uid = cl ? cl->cred.uid : owner->uid;
	struct open_req *o = NULL;

	/* Opens a supplicant keeps waiting stay until its deadline, their clients gone or not. */
	if (opens_of_user(c, uid) >= c->limits.opens_per_user) {
		log_error("user %u has %u session opens in progress, its limit "
			  "(--max-opens-per-user); refusing another",
			  (unsigned int)uid, c->limits.opens_per_user);
		answer(c, &none, TEEC_ERROR_BUSY, -1, 0);
		return;
	}
	o = calloc(1, sizeof(*o));
	if (!o) {
		answer(c, &none, TEEC_ERROR_OUT_OF_MEMORY, -1, 0);
		return;
	}
	o->uid = uid;
	o->cl = cl;
	o->owner = owner;
	o->uuid = *uuid;
	o->login = login;
	o->identity = *identity;
	o->elf_fd = -1;
	o->step = OPEN_PICK;
	o->next = c->opens;
	c->opens = o;
	advance(c, o);
}

bool open_pending(const struct core *c, const struct client *cl, const struct instance *owner)
{
	for (const struct open_req *o = c->opens; o; o = o->next)
		if (!o->abandoned && ((cl && o->cl == cl) || (owner && o->owner == owner)))
			return true;
	return false;
}

static void image_arrived(struct core *c, struct open_req *o, uint32_t res, int file_fd)
{
	char name[SWTEE_UUID_STR_LEN];
	bool lib = o->step == OPEN_WAIT_LIB;
	struct ta_facts facts = {0};
	int elf_fd = -1;

	/* No longer waiting: a supplicant dropped from here on does not end o twice. */
	o->step = OPEN_PICK;
	if (o->abandoned) {
		if (file_fd >= 0)
			close(file_fd);
		finish(c, o, TEEC_ERROR_COMMUNICATION, -1, 0);
		return;
	}
	/* Not on the TA path: installed into the secure dir, perhaps (ta_store.c). */
	if (res == TEEC_ERROR_ITEM_NOT_FOUND && !lib && (file_fd = ta_store_open(&o->uuid)) >= 0)
		res = TEEC_SUCCESS;
	if (res == TEEC_ERROR_ITEM_NOT_FOUND) {
		uuid_format(&o->uuid, name);
		if (lib)
			log_error("TA %s: needs a TA library that is not on the TA path", name);
		else
			log_info("TA %s: no such TA on the TA path", name);
	}
	if (!res)
		res = supplicant_image_verify(c, lib ? &o->want : &o->uuid, lib, file_fd, &elf_fd,
					      &facts);
	if (res) {
		finish(c, o, res, -1, 0);
		return;
	}
	if (lib) {
		res = ta_libs_push(&o->walk, elf_fd, facts.digest);
	} else {
		o->elf_fd = elf_fd;
		o->facts = facts;
		res = ta_libs_begin(&o->walk, &o->uuid, elf_fd);
	}
	if (res)
		finish(c, o, res, -1, 0);
	else
		walk_on(c, o);
}

bool open_image_arrived(struct core *c, uint32_t req, uint32_t res, struct msg_fds *fds)
{
	for (struct open_req *o = c->opens; o; o = o->next) {
		if ((o->step != OPEN_WAIT_TA && o->step != OPEN_WAIT_LIB) || o->supp_req != req)
			continue;
		image_arrived(c, o, res, res ? -1 : msg_fds_take(fds, 0));
		return true;
	}
	return false;
}

/* The first open waiting on the supplicant, or NULL. */
static struct open_req *first_waiting(struct core *c)
{
	for (struct open_req *o = c->opens; o; o = o->next)
		if (o->step == OPEN_WAIT_TA || o->step == OPEN_WAIT_LIB)
			return o;
	return NULL;
}

void open_supplicant_gone(struct core *c)
{
	struct open_req *o = NULL;

	while ((o = first_waiting(c)))
		finish(c, o, TEEC_ERROR_COMMUNICATION, -1, 0);
}

void open_requester_gone(struct core *c, const struct client *cl, const struct instance *owner)
{
	for (struct open_req *o = c->opens; o; o = o->next) {
		if ((cl && o->cl == cl) || (owner && o->owner == owner)) {
			o->cl = NULL;
			o->owner = NULL;
			o->abandoned = true;
		}
	}
}

/* The first open whose instance has been heard, or NULL. */
static struct open_req *first_settled(struct core *c)
{
	for (struct open_req *o = c->opens; o; o = o->next) {
		struct instance *in = NULL;

		if (o->step != OPEN_SETTLE)
			continue;
		in = instance_by_id(c, o->settle_id);
		if (!in || !instance_has_input(in))
			return o;
	}
	return NULL;
}

void open_tick(struct core *c, const struct timespec *now)
{
	struct open_req *o = NULL;

	/* Each advance either waits elsewhere or ends o, so this ends. */
	while ((o = first_settled(c))) {
		o->step = OPEN_PICK;
		advance(c, o);
	}
	for (o = c->opens; o; o = o->next) {
		if ((o->step == OPEN_WAIT_TA || o->step == OPEN_WAIT_LIB) &&
		    deadline_passed(&o->deadline, now)) {
			supplicant_fail(c, "did not answer in time");
			break;
		}
	}
}

void open_fini(struct core *c)
{
	while (c->opens) {
		c->opens->cl = NULL;
		c->opens->owner = NULL;
		finish(c, c->opens, TEEC_ERROR_COMMUNICATION, -1, 0);
	}
}
