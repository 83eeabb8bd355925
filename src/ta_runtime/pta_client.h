/*
 * Pseudo-TAs a client application opens directly (pta_client.c): the core
 * starts an instance of a built-in image for their UUIDs, with no ELF, and
 * the runtime serves their commands as the TA's entry points. Sessions,
 * parameters, logins and limits are those of any TA instance.
 */
#ifndef SWTEE_RT_PTA_CLIENT_H
#define SWTEE_RT_PTA_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include <tee_internal_api.h>

/*
 * If rt.uuid names a built-in image, takes elf_fd (the core's empty
 * stand-in, closed here), binds the image's entry points, enters the
 * sandbox at log level level and returns true; rt.load_error says whether
 * it can run (nlibs must be 0: a built-in links no library). Returns false,
 * having done nothing, for any other UUID.
 */
bool rt_builtin_load(int elf_fd, uint32_t nlibs, int level);

/*
 * pta_selftest.c: runs the runtime's own self-tests (heap, memory helpers,
 * base64, digests, ciphers, MACs, big integers, random numbers), logging
 * each that fails. TEE_SUCCESS when all pass, TEE_ERROR_GENERIC otherwise.
 */
TEE_Result rt_self_tests(void);

/* pta_attest.c: the attestation pseudo-TA's commands. */
TEE_Result rt_pta_attest_invoke(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS]);

#endif /* SWTEE_RT_PTA_CLIENT_H */
