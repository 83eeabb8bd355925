/*
 * TA and TA library images a running instance's request needs (an
 * attestation of an image, a library loaded at run time), asked of the
 * supplicant. The supplicant answers later, so each request waits here,
 * keyed by the supplicant's request number, with an open's deadline: a
 * supplicant that does not answer in time is dropped, which answers every
 * wait. When no supplicant is there, or it has no such image, the image
 * installed in the secure dir (if any) is used.
 */
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "core.h"
#include "image_wait.h"

struct image_wait {
	uint32_t supp_req;
	uint32_t instance_id;
	struct swtee_uuid uuid;
	image_wait_done done;
	struct timespec deadline; /* the supplicant's, as for an open */
	struct image_wait *next;
};

static struct image_wait *waits;

/* Ends a (taken) with the supplicant's result and file (taken, -1 for none). */
static void finish(struct core *c, struct image_wait *a, uint32_t res, int file_fd)
{
	struct instance *in = instance_by_id(c, a->instance_id);

	if (res == TEEC_ERROR_ITEM_NOT_FOUND && (file_fd = ta_store_open(&a->uuid)) >= 0)
		res = TEEC_SUCCESS;
	if (in && in->gone)
		in = NULL;
	if (!in && file_fd >= 0) {
		close(file_fd);
		file_fd = -1;
	}
	a->done(c, in, &a->uuid, res, file_fd);
	free(a);
}

bool image_wait_pending(uint32_t instance_id)
{
	for (const struct image_wait *a = waits; a; a = a->next)
		if (a->instance_id == instance_id)
			return true;
	return false;
}

void image_wait_start(struct core *c, struct instance *in, const struct swtee_uuid *uuid,
		      image_wait_done done)
{
	struct image_wait *a = calloc(1, sizeof(*a));

	if (!a) {
		done(c, in, uuid, TEEC_ERROR_OUT_OF_MEMORY, -1);
		return;
	}
	a->instance_id = in->id;
	a->uuid = *uuid;
	a->done = done;
	if (supplicant_ask_image(c, uuid, &a->supp_req)) {
		/* No supplicant: the secure dir's image, if one is installed. */
		finish(c, a, TEEC_ERROR_ITEM_NOT_FOUND, -1);
		return;
	}
	deadline_in(&a->deadline, SUPP_TIMEOUT_MS);
	a->next = waits;
	waits = a;
}

void image_wait_tick(struct core *c, const struct timespec *now)
{
	for (const struct image_wait *a = waits; a; a = a->next) {
		if (deadline_passed(&a->deadline, now)) {
			/* Dropped as for a late open: every wait is answered then. */
			supplicant_fail(c, "did not answer in time");
			return;
		}
	}
}

void image_wait_fini(void)
{
	while (waits) {
		struct image_wait *a = waits;

		waits = a->next;
		free(a);
	}
}

bool image_wait_arrived(struct core *c, uint32_t req, uint32_t res, struct msg_fds *fds)
{
	for (struct image_wait **p = &waits; *p; p = &(*p)->next) {
		struct image_wait *a = *p;

		if (a->supp_req != req)
			continue;
		*p = a->next;
		finish(c, a, res, res ? -1 : msg_fds_take(fds, 0));
		return true;
	}
	return false;
}

void image_wait_supplicant_gone(struct core *c)
{
	while (waits) {
		struct image_wait *a = waits;
		struct instance *in = instance_by_id(c, a->instance_id);

		waits = a->next;
		a->done(c, in && !in->gone ? in : NULL, &a->uuid, TEEC_ERROR_COMMUNICATION, -1);
		free(a);
	}
}
