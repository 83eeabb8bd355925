// SPDX-License-Identifier: BSD-2-Clause
/*
 * The entropy source of mbedTLS in a TA. The kit's configuration has no
 * platform entropy (no /dev/urandom, no getrandom(): a TA has the TEE's
 * random source) and MBEDTLS_ENTROPY_HARDWARE_ALT, so mbedtls_entropy_init()
 * registers this function as its strong source; it draws from
 * TEE_GenerateRandom, the TEE's own generator.
 */
#include <stddef.h>
#include <stdint.h>
#include <tee_internal_api.h>

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen);

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen)
{
	size_t done = 0;

	(void)data;
	if (!olen || (len && !output))
		return -1;
	/* TEE_GenerateRandom takes a uint32_t length in the GP 1.1 API. */
	while (done < len) {
		size_t n = len - done;

		if (n > UINT32_MAX)
			n = UINT32_MAX;
		TEE_GenerateRandom(output + done, n);
		done += n;
	}
	*olen = len;
	return 0;
}
