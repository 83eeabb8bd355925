/*
 * image_wait.c: the TA and TA library images running instances wait for
 * from the supplicant (image_wait.c's opening comment).
 */
#ifndef SWTEE_CORE_IMAGE_WAIT_H
#define SWTEE_CORE_IMAGE_WAIT_H

#include <stdbool.h>
#include <stdint.h>

#include "uuid.h"

struct core;
struct instance;
struct msg_fds;
struct timespec;

/*
 * What a wait ends with: in is NULL when the instance is gone meanwhile;
 * file_fd (taken, -1 for none) is the image file when res is 0.
 */
typedef void (*image_wait_done)(struct core *c, struct instance *in, const struct swtee_uuid *uuid,
				uint32_t res, int file_fd);

/* Asks for uuid's image for instance in; done is called once, perhaps before this returns. */
void image_wait_start(struct core *c, struct instance *in, const struct swtee_uuid *uuid,
		      image_wait_done done);
/* Does the instance wait for an image now? */
bool image_wait_pending(uint32_t instance_id);
/* The supplicant's answer to request req, if it was one of these (then true). */
bool image_wait_arrived(struct core *c, uint32_t req, uint32_t res, struct msg_fds *fds);
/* The supplicant is gone: every wait ends with TEEC_ERROR_COMMUNICATION. */
void image_wait_supplicant_gone(struct core *c);
/* Drops the supplicant when a wait passes its deadline (SUPP_TIMEOUT_MS), as opens do. */
void image_wait_tick(struct core *c, const struct timespec *now);
/* Frees the waits, at shutdown. */
void image_wait_fini(void);

#endif /* SWTEE_CORE_IMAGE_WAIT_H */
