#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_hostile.h>

#ifdef TA_HOSTILE_SHARED
#define TA_UUID TA_HOSTILE_SHARED_UUID(TA_HOSTILE_SHARED)
#define TA_FLAGS (TA_FLAG_SINGLE_INSTANCE | TA_FLAG_MULTI_SESSION | TA_FLAG_INSTANCE_KEEP_ALIVE)
#else
#define TA_UUID TA_HOSTILE_UUID
#define TA_FLAGS 0
#endif
#define TA_STACK_SIZE (16 * 1024)
#define TA_DATA_SIZE (1024 * 1024)
#define TA_DESCRIPTION "swtee hostile test TA: tries what the sandbox forbids"

#endif
