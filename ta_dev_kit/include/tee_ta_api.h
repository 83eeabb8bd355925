/* GP TA interface (older header name): everything is in tee_internal_api.h. */
#ifndef TEE_TA_API_H
#define TEE_TA_API_H

#include <tee_internal_api.h>

#endif /* TEE_TA_API_H */
