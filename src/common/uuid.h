/*
 * UUIDs in their canonical 16-byte big-endian form, as they appear in signed
 * TA headers, on the wire and in file names. TEEC_UUID and TEE_UUID (host
 * order fields) convert to and from this form with uuid_from_fields and
 * uuid_to_fields.
 */
#ifndef SWTEE_UUID_H
#define SWTEE_UUID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "must_check.h"

struct swtee_uuid {
	uint8_t b[16];
};

#define SWTEE_UUID_STR_LEN 37 /* 36 characters and the NUL */

/* Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (either case). */
SWTEE_MUST_CHECK bool uuid_parse(const char *s, struct swtee_uuid *out);
/* Writes the lower-case canonical form into out[SWTEE_UUID_STR_LEN]. */
void uuid_format(const struct swtee_uuid *u, char out[SWTEE_UUID_STR_LEN]);
void uuid_from_fields(struct swtee_uuid *u, uint32_t time_low, uint16_t time_mid,
		      uint16_t time_hi_and_version, const uint8_t clock_seq_and_node[8]);
void uuid_to_fields(const struct swtee_uuid *u, uint32_t *time_low, uint16_t *time_mid,
		    uint16_t *time_hi_and_version, uint8_t clock_seq_and_node[8]);
bool uuid_equal(const struct swtee_uuid *a, const struct swtee_uuid *b);
bool uuid_is_nil(const struct swtee_uuid *u);

#endif
