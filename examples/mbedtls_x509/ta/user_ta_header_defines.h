#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <x509_ta.h>

#define TA_UUID TA_X509_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (16 * 1024)
#define TA_DATA_SIZE (64 * 1024)
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee example: X.509 with mbedTLS inside the TA"

#endif
