/*
 * TA version rollback protection, as OP-TEE's ta_ver.db: the core keeps the
 * highest signed-header ta_version it has accepted for each UUID, and
 * refuses an image whose version is below it.
 *
 * The table lives in the core's secure dir (secure/ta_versions), MACed
 * under K_rpmb as the emulated RPMB's anchors are, and is replaced whole
 * (written aside, synced, renamed) each time a floor rises. Without a
 * secure dir (storage off) the floors are kept in memory until the core
 * stops.
 */
#ifndef SWTEE_TA_VERSION_H
#define SWTEE_TA_VERSION_H

#include <stdbool.h>
#include <stdint.h>

#include "uuid.h"

/*
 * Loads the table from the secure dir when the storage keys are ready
 * (call after storage_init). allow_rollback: older images are loaded (and
 * logged) instead of refused; the floors still rise. A table that fails
 * its check makes every later ta_version_accept refuse, unless
 * allow_rollback, with which the table starts over empty. 0, or -1 when
 * the table could not be read (logged).
 */
int ta_version_init(bool allow_rollback);

/*
 * An image of uuid with signed version, already verified, is about to be
 * used. TEEC_SUCCESS when version is at least the floor (which is raised,
 * durably, to version); TEEC_ERROR_ACCESS_CONFLICT (OP-TEE's answer) with
 * a log line naming the UUID and both versions when it is below;
 * TEEC_ERROR_STORAGE_NO_SPACE, TEEC_ERROR_OUT_OF_MEMORY or
 * TEEC_ERROR_GENERIC when the new floor cannot be recorded (the image is
 * refused then, so that no floor is skipped). what: "TA" or "TA library",
 * for the log.
 */
uint32_t ta_version_accept(const struct swtee_uuid *uuid, uint32_t version, const char *what);

/* Frees the table. */
void ta_version_fini(void);

#endif
