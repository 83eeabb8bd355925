#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <hotp_ta.h>

#define TA_UUID TA_HOTP_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (2 * 1024)
#define TA_DATA_SIZE (32 * 1024)
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee example: HOTP one-time passwords"

#endif
