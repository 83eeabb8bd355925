#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_plugin.h>

#define TA_UUID TA_PLUGIN_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE TA_PLUGIN_STACK_SIZE
#define TA_DATA_SIZE TA_PLUGIN_DATA_SIZE
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "tee-supplicant plugin test TA"

#endif
