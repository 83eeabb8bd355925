/* SPDX-License-Identifier: BSD-2-Clause */
/* The stand-in's build_info.h: its version, and the configuration the kit names. */
#ifndef MBEDTLS_BUILD_INFO_H
#define MBEDTLS_BUILD_INFO_H

#define MBEDTLS_VERSION_MAJOR 3
#define MBEDTLS_VERSION_MINOR 6
#define MBEDTLS_VERSION_PATCH 0
#define MBEDTLS_VERSION_NUMBER 0x03060000

/* The stand-in has no default configuration: the kit must name its own. */
#if !defined(MBEDTLS_CONFIG_FILE)
#error "MBEDTLS_CONFIG_FILE is not defined"
#endif
#include MBEDTLS_CONFIG_FILE

#endif
