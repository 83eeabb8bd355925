/* Requests the hostile TA forges on its storage and control channels (forge_storage.c). */
#ifndef FORGE_STORAGE_H
#define FORGE_STORAGE_H

#include <tee_internal_api.h>

/* TA_HOSTILE_CMD_FORGE_HEAP_WRITES: p[1].value.a says how far it got. */
TEE_Result hostile_forge_heap_writes(TEE_Param p[TEE_NUM_PARAMS]);
/* TA_HOSTILE_CMD_UNSEALED_HEAP: returns only if the core did not end the instance. */
void hostile_unsealed_heap(void);

/* TA_HOSTILE_CMD_RAW_OPEN_TA */
TEE_Result hostile_raw_open_ta(TEE_Param p[TEE_NUM_PARAMS]);

/* A key derivation request the core must refuse by ending the instance. */
TEE_Result hostile_forge_derive(void);
/* A stats request, which only the stats pseudo-TA may make. */
TEE_Result hostile_forge_stats(void);
TEE_Result hostile_forge_attest(uint32_t sid);

#endif
