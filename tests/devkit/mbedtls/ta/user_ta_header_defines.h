/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <mbedtls_ta.h>

#define TA_UUID MBEDTLS_TA_UUID
#define TA_FLAGS (TA_FLAG_SINGLE_INSTANCE | TA_FLAG_MULTI_SESSION)
#define TA_STACK_SIZE (16 * 1024)
#define TA_DATA_SIZE (64 * 1024)
/* As optee_os's ta/pkcs11 writes it: util.h's TO_STR, which the kit's TA
 * header source includes for it. */
#define TA_VERSION TO_STR(3) "." TO_STR(6)

#endif
