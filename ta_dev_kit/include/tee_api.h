/* GP TEE Internal API (older header name): everything is in tee_internal_api.h. */
#ifndef TEE_API_H
#define TEE_API_H

#include <tee_internal_api.h>

#endif /* TEE_API_H */
