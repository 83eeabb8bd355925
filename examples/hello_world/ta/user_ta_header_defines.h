/* The properties of the TA; the kit builds its header from these. */
#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <hello_world_ta.h>

#define TA_UUID TA_HELLO_WORLD_UUID

/* A new instance for each session; see user_ta_header.h for the others. */
#define TA_FLAGS 0
#define TA_STACK_SIZE (2 * 1024)
#define TA_DATA_SIZE (32 * 1024)

#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee example: hello world"

#endif
