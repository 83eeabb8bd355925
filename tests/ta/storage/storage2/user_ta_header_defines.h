#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_storage.h>

#define TA_UUID TA_STORAGE2_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (32 * 1024)
#define TA_DATA_SIZE (8 * 1024 * 1024)
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee trusted storage test TA (second UUID)"

#endif
