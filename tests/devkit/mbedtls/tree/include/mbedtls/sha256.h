/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef MBEDTLS_SHA256_H
#define MBEDTLS_SHA256_H

#include <stddef.h>
#include "mbedtls/build_info.h"

#define MBEDTLS_ERR_SHA256_BAD_INPUT_DATA -0x0074

/* SHA-256 of input (is224 must be 0 here) into output[32]; 0 on success. */
int mbedtls_sha256(const unsigned char *input, size_t ilen, unsigned char *output, int is224);

#endif
