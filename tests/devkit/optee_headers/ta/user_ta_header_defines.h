#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <optee_headers_ta.h>

#define TA_UUID TA_OPTEE_HEADERS_UUID
/* The cache operations need it. */
#define TA_FLAGS TA_FLAG_CACHE_MAINTENANCE
#define TA_STACK_SIZE (8 * 1024)
#define TA_DATA_SIZE (64 * 1024)

#endif
