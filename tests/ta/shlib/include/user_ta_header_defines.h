#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_shlib.h>

#define TA_UUID TA_SHLIB_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (16 * 1024)
#define TA_DATA_SIZE (64 * 1024)
#define TA_DESCRIPTION "swtee test TA: TA shared libraries"

#endif
