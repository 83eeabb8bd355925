#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <features_ta.h>

#define TA_UUID TA_FEATURES_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (2 * 1024)
#define TA_DATA_SIZE (16 * 1024)
#define TA_DESCRIPTION "swtee devkit test: kit features"

#endif
