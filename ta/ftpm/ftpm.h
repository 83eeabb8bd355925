/*
 * The firmware TPM TA's private header. libtpms is the TPM 2.0 engine; this
 * TA gives it a platform: power, locality, NV in GP trusted storage and
 * entropy from TEE_GenerateRandom. libtpms keeps its state in globals, so
 * there is one TPM per process, which the TA's single instance owns.
 */
#ifndef FTPM_H
#define FTPM_H

#include <stdbool.h>
#include <stdint.h>
#include <tee_internal_api.h>

#include "ftpm_ta.h"

#define TPM_HEADER_SIZE 10
#define TPM_ST_NO_SESSIONS 0x8001
#define TPM_ST_SESSIONS 0x8002
#define TPM_CC_STARTUP 0x144
#define TPM_CC_SHUTDOWN 0x145
#define TPM_SU_CLEAR 0x0000
#define TPM_SU_STATE 0x0001
#define TPM_RC_SUCCESS 0x000
#define TPM_RC_INITIALIZE 0x100

/* ftpm_power.c: the TPM's power and its command path */

/*
 * Gives libtpms its callbacks and entropy source and chooses TPM 2.0; once,
 * before the first power-on. TEE_SUCCESS or TEE_ERROR_GENERIC.
 */
TEE_Result ftpm_setup(void);
/* Powers on (flags: FTPM_POWER_*); see TA_FTPM_POWER_ON. */
TEE_Result ftpm_power_on(uint32_t flags);
/* Powers off (flags: FTPM_POWER_*); see TA_FTPM_POWER_OFF. */
void ftpm_power_off(uint32_t flags);
bool ftpm_is_on(void);
/*
 * Runs the command in cmd (len bytes, private memory, may be changed) at
 * locality loc. *rsp points at the response (the TA's own buffer, valid
 * until the next call) and *rsp_len is its size. TEE_ERROR_BAD_STATE when
 * the TPM is off, TEE_ERROR_GENERIC when libtpms gives no response.
 */
TEE_Result ftpm_execute(uint8_t *cmd, uint32_t len, uint8_t loc, const uint8_t **rsp,
			uint32_t *rsp_len);
/* The platform's hash and TPM-established signals (TPM on only). */
TEE_Result ftpm_hash_start(void);
TEE_Result ftpm_hash_data(const uint8_t *data, uint32_t len);
TEE_Result ftpm_hash_end(void);
TEE_Result ftpm_established_get(bool *set);
TEE_Result ftpm_established_reset(uint8_t loc);

/* ftpm_nv.c: libtpms' NV, in GP trusted storage */

/*
 * The libtpms NV callbacks. Each name ("permall", ...) is one persistent
 * object in TEE_STORAGE_PRIVATE, replaced whole and atomically on every
 * store: the storage engine encrypts it, authenticates it and detects a
 * rollback.
 */
uint32_t ftpm_nv_init(void);
uint32_t ftpm_nv_load(unsigned char **data, uint32_t *length, uint32_t tpm_number,
		      const char *name);
uint32_t ftpm_nv_store(const unsigned char *data, uint32_t length, uint32_t tpm_number,
		       const char *name);
uint32_t ftpm_nv_delete(uint32_t tpm_number, const char *name, unsigned char must_exist);
/*
 * The first storage error of the NV layer since the last call (cleared by
 * it), other than "not found": TEE_SUCCESS when there was none.
 */
TEE_Result ftpm_nv_take_error(void);

/* ftpm_rand.c: entropy */

/*
 * Makes TEE_GenerateRandom the random source of libcrypto's default library
 * context, which libtpms draws its entropy from (_plat__GetEntropy) and
 * libcrypto uses inside libtpms' operations. TEE_SUCCESS, or an error when
 * libcrypto refuses (its default generators already running).
 */
TEE_Result ftpm_rand_init(void);

#endif
