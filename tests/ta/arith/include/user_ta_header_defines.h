#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_arith.h>

#define TA_UUID TA_ARITH_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (64 * 1024)
#define TA_DATA_SIZE (256 * 1024)
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee arithmetic test TA"

#endif
