/* The test TAs' use of the system pseudo-TA (pta_system_client.c). */
#ifndef PTA_SYSTEM_CLIENT_H
#define PTA_SYSTEM_CLIENT_H

#include <tee_internal_api.h>

#include "test_pta_system.h"

/*
 * Opens a session to the system pseudo-TA, makes one call as mode says and
 * returns its result. p[0] is MEMREF_INPUT, p[1] MEMREF_OUTPUT.
 */
TEE_Result test_pta_system(uint32_t mode, TEE_Param p[TEE_NUM_PARAMS]);

#endif
