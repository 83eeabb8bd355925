/*
 * The pseudo-TAs a client application opens at OP-TEE's UUIDs (invoke-tests,
 * stats, secure-storage TA management, attestation): built-in images, started as TA
 * instances like any other, whose runtime serves their commands
 * (src/ta_runtime/pta_client.c). They never come from the TA path: no TA
 * file can take one of their UUIDs.
 */
#ifndef SWTEE_CORE_PTA_IMAGE_H
#define SWTEE_CORE_PTA_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "uuid.h"

/*
 * Is uuid a built-in pseudo-TA? If so, *elf_fd is the empty sealed memfd an
 * instance takes for its image (-1 when none could be made) and *facts all
 * zero (a new instance for every session; runtime code, sized as the
 * largest TA).
 */
struct ta_facts;
bool pta_image(const struct swtee_uuid *uuid, int *elf_fd, struct ta_facts *facts);
/* Is uuid the stats pseudo-TA's? The secure-storage TA management one's? Attestation's? */
bool pta_is_stats(const struct swtee_uuid *uuid);
bool pta_is_secstor(const struct swtee_uuid *uuid);
bool pta_is_attestation(const struct swtee_uuid *uuid);

struct core;
struct instance;
struct buf_reader;
struct msg_fds;

/*
 * MSG_CTL_STATS from instance in: answers the TAs its user runs (pta_stats.c),
 * or kills in if it is no stats pseudo-TA or the request does not parse.
 */
void pta_stats_request(struct core *c, struct instance *in, struct buf_reader *r,
		       const struct msg_fds *fds);

/*
 * pta_attest.c: MSG_CTL_ATTEST from instance in, answered now or, for a TA
 * image, once the supplicant has handed it over (image_wait.c). An instance
 * that is no attestation pseudo-TA, or a request that does not parse, is
 * killed.
 */
void pta_attest_request(struct core *c, struct instance *in, struct buf_reader *r,
			const struct msg_fds *fds);

#endif /* SWTEE_CORE_PTA_IMAGE_H */
