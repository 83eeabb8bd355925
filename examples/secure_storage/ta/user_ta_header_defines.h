#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <secure_storage_ta.h>

#define TA_UUID TA_SECURE_STORAGE_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (2 * 1024)
#define TA_DATA_SIZE (32 * 1024)
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee example: trusted storage"

#endif
