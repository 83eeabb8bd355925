#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_os_test.h>

#define TA_UUID TA_OS_TEST_UUID
#define TA_FLAGS (TA_FLAG_SINGLE_INSTANCE | TA_FLAG_MULTI_SESSION)
#define TA_STACK_SIZE (32 * 1024)
#define TA_DATA_SIZE TA_OS_TEST_DATA_SIZE
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee OS test TA: memory, panics, instance data, time"

#endif
