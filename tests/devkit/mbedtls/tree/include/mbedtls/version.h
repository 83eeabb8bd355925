/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef MBEDTLS_VERSION_H
#define MBEDTLS_VERSION_H

#include "mbedtls/build_info.h"

unsigned int mbedtls_version_get_number(void);

#endif
