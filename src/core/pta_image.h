/*
 * The pseudo-TAs a client application opens at OP-TEE's UUIDs (invoke-tests,
 * stats): built-in images, started as TA instances like any other, whose
 * runtime serves their commands (src/ta_runtime/pta_client.c). They never
 * come from the TA path: no TA file can take one of their UUIDs.
 */
#ifndef SWTEE_CORE_PTA_IMAGE_H
#define SWTEE_CORE_PTA_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "uuid.h"

/*
 * Is uuid a built-in pseudo-TA? If so, *elf_fd is the empty sealed memfd an
 * instance takes for its image (-1 when none could be made) and *flags its
 * TA_FLAG_* (a new instance for every session).
 */
bool pta_image(const struct swtee_uuid *uuid, int *elf_fd, uint32_t *flags);

#endif /* SWTEE_CORE_PTA_IMAGE_H */
