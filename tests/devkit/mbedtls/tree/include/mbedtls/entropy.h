/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef MBEDTLS_ENTROPY_H
#define MBEDTLS_ENTROPY_H

#include <stddef.h>
#include "mbedtls/build_info.h"

#define MBEDTLS_ERR_ENTROPY_SOURCE_FAILED -0x003C

/* len bytes from the configured strong source (data is unused here). */
int mbedtls_entropy_func(void *data, unsigned char *output, size_t len);

#endif
