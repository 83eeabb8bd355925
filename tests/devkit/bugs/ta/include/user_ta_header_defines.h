#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <bugs_ta.h>

#define TA_UUID TA_BUGS_UUID
/* CFG_BUGS_KEEP_ALIVE=y on the make command line: one instance that outlives its sessions. */
#ifdef CFG_BUGS_KEEP_ALIVE
#define TA_FLAGS (TA_FLAG_SINGLE_INSTANCE | TA_FLAG_MULTI_SESSION | TA_FLAG_INSTANCE_KEEP_ALIVE)
#else
#define TA_FLAGS 0
#endif
#define TA_STACK_SIZE (8 * 1024)
#define TA_DATA_SIZE (64 * 1024)
#define TA_DESCRIPTION "swtee devkit test: planted bugs"

#endif
