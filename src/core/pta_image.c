/* Built-in pseudo-TA images (pta_image.h). */
#include <pta_attestation.h>
#include <pta_invoke_tests.h>
#include <pta_secstor_ta_mgmt.h>
#include <pta_stats.h>

#include "core.h"
#include "memfd.h"
#include "pta_image.h"

struct pta_uuid {
	uint32_t time_low;
	uint16_t time_mid;
	uint16_t time_hi;
	uint8_t node[8];
};

static const struct pta_uuid builtins[] = {
    PTA_INVOKE_TESTS_UUID,
    STATS_UUID,
    PTA_SECSTOR_TA_MGMT_UUID,
    PTA_ATTESTATION_UUID,
};

static void builtin_uuid(size_t i, struct swtee_uuid *u)
{
	uuid_from_fields(u, builtins[i].time_low, builtins[i].time_mid, builtins[i].time_hi,
			 builtins[i].node);
}

bool pta_is_stats(const struct swtee_uuid *uuid)
{
	static const struct pta_uuid stats = STATS_UUID;
	struct swtee_uuid b;

	uuid_from_fields(&b, stats.time_low, stats.time_mid, stats.time_hi, stats.node);
	return uuid_equal(uuid, &b);
}

bool pta_is_secstor(const struct swtee_uuid *uuid)
{
	static const struct pta_uuid secstor = PTA_SECSTOR_TA_MGMT_UUID;
	struct swtee_uuid b;

	uuid_from_fields(&b, secstor.time_low, secstor.time_mid, secstor.time_hi, secstor.node);
	return uuid_equal(uuid, &b);
}

bool pta_is_attestation(const struct swtee_uuid *uuid)
{
	static const struct pta_uuid attestation = PTA_ATTESTATION_UUID;
	struct swtee_uuid b;

	uuid_from_fields(&b, attestation.time_low, attestation.time_mid, attestation.time_hi,
			 attestation.node);
	return uuid_equal(uuid, &b);
}

bool pta_image(const struct swtee_uuid *uuid, int *elf_fd, struct ta_facts *facts)
{
	struct swtee_uuid b;

	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		builtin_uuid(i, &b);
		if (!uuid_equal(uuid, &b))
			continue;
		*elf_fd = memfd_new_sealed("swtee-pta", 1);
		*facts = (struct ta_facts){0};
		return true;
	}
	return false;
}
