// SPDX-License-Identifier: BSD-2-Clause
#include "mbedtls/version.h"

unsigned int mbedtls_version_get_number(void)
{
	return MBEDTLS_VERSION_NUMBER;
}
