#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <size_ta.h>

#define TA_UUID TA_SIZE11_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (2 * 1024)
#define TA_DATA_SIZE (16 * 1024)
#define TA_DESCRIPTION "swtee devkit test: the GP 1.1 API"

#endif
