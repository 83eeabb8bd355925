#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_hostile.h>

#define TA_UUID TA_HOSTILE_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (16 * 1024)
#define TA_DATA_SIZE (1024 * 1024)
#define TA_DESCRIPTION "swtee hostile test TA: tries what the sandbox forbids"

#endif
