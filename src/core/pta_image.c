/* Built-in pseudo-TA images (pta_image.h). */
#include <pta_invoke_tests.h>

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
};

bool pta_image(const struct swtee_uuid *uuid, int *elf_fd, uint32_t *flags)
{
	struct swtee_uuid b;

	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		uuid_from_fields(&b, builtins[i].time_low, builtins[i].time_mid,
				 builtins[i].time_hi, builtins[i].node);
		if (!uuid_equal(uuid, &b))
			continue;
		*elf_fd = memfd_new_sealed("swtee-pta", 1);
		*flags = 0;
		return true;
	}
	return false;
}
