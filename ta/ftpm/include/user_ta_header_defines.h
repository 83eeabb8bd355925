#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ftpm_ta.h>

#define TA_UUID TA_FTPM_UUID
/* One TPM for the whole TEE, kept running between clients, as on OP-TEE. */
#define TA_FLAGS (TA_FLAG_SINGLE_INSTANCE | TA_FLAG_INSTANCE_KEEP_ALIVE)
#define TA_STACK_SIZE (64 * 1024)
#define TA_DATA_SIZE (1024 * 1024)
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee firmware TPM 2.0 (libtpms)"

#endif
