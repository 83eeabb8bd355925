#include "uuid.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool uuid_parse(const char *s, struct swtee_uuid *out)
{
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (!s || strlen(s) != 36)
		return false;
	for (size_t i = 0; i < 36;) {
		int hi = 0;
		int lo = 0;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
			i++;
			continue;
		}
		hi = hexval(s[i]);
		lo = hexval(s[i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		out->b[n++] = (uint8_t)(hi << 4 | lo);
		i += 2;
	}
	return n == 16;
}

void uuid_format(const struct swtee_uuid *u, char out[SWTEE_UUID_STR_LEN])
{
	const uint8_t *b = u->b;

	snprintf(out, SWTEE_UUID_STR_LEN,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
		 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
		 b[15]);
}

void uuid_from_fields(struct swtee_uuid *u, uint32_t time_low, uint16_t time_mid,
		      uint16_t time_hi_and_version, const uint8_t clock_seq_and_node[8])
{
	u->b[0] = (uint8_t)(time_low >> 24);
	u->b[1] = (uint8_t)(time_low >> 16);
	u->b[2] = (uint8_t)(time_low >> 8);
	u->b[3] = (uint8_t)time_low;
	u->b[4] = (uint8_t)(time_mid >> 8);
	u->b[5] = (uint8_t)time_mid;
	u->b[6] = (uint8_t)(time_hi_and_version >> 8);
	u->b[7] = (uint8_t)time_hi_and_version;
	memcpy(u->b + 8, clock_seq_and_node, 8);
}

void uuid_to_fields(const struct swtee_uuid *u, uint32_t *time_low, uint16_t *time_mid,
		    uint16_t *time_hi_and_version, uint8_t clock_seq_and_node[8])
{
	*time_low =
	    (uint32_t)u->b[0] << 24 | (uint32_t)u->b[1] << 16 | (uint32_t)u->b[2] << 8 | u->b[3];
	*time_mid = (uint16_t)(u->b[4] << 8 | u->b[5]);
	*time_hi_and_version = (uint16_t)(u->b[6] << 8 | u->b[7]);
	memcpy(clock_seq_and_node, u->b + 8, 8);
}

bool uuid_equal(const struct swtee_uuid *a, const struct swtee_uuid *b)
{
	return memcmp(a->b, b->b, 16) == 0;
}

bool uuid_is_nil(const struct swtee_uuid *u)
{
	static const struct swtee_uuid nil;

	return uuid_equal(u, &nil);
}
