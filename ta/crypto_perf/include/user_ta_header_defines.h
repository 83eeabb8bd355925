#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#include <ta_crypto_perf.h>

#define TA_UUID TA_CRYPTO_PERF_UUID
#define TA_FLAGS 0
#define TA_STACK_SIZE (32 * 1024)
/* GCM decryption holds up to TA_CRYPTO_PERF_GCM_MESSAGE_MAX of plaintext (twice, growing). */
#define TA_DATA_SIZE (48 * 1024 * 1024)
#define TA_VERSION "1.0"
#define TA_DESCRIPTION "swtee crypto performance TA"

#endif
