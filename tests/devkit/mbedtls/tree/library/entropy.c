// SPDX-License-Identifier: BSD-2-Clause
/*
 * The stand-in's entropy: only the source the configuration provides. The
 * kit's configuration must have no platform, file or clock parts and the
 * hardware source, mbedtls_hardware_poll(), which the kit supplies.
 */
#include "mbedtls/entropy.h"

#if !defined(MBEDTLS_NO_PLATFORM_ENTROPY) || !defined(MBEDTLS_ENTROPY_HARDWARE_ALT)
#error "the configuration must take entropy from mbedtls_hardware_poll() alone"
#endif
#if defined(MBEDTLS_FS_IO) || defined(MBEDTLS_NET_C) || defined(MBEDTLS_TIMING_C) ||               \
    defined(MBEDTLS_HAVE_TIME) || defined(MBEDTLS_HAVE_TIME_DATE)
#error "a TA's configuration has no file, network or clock parts"
#endif

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen);

int mbedtls_entropy_func(void *data, unsigned char *output, size_t len)
{
	size_t got = 0;

	if (mbedtls_hardware_poll(data, output, len, &got) || got != len)
		return MBEDTLS_ERR_ENTROPY_SOURCE_FAILED;
	return 0;
}
