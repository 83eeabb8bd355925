// SPDX-License-Identifier: BSD-2-Clause
/* Calls into the mbedTLS tree the kit built and linked (CFG_TA_MBEDTLS=y). */
#include <mbedtls/entropy.h>
#include <mbedtls/sha256.h>
#include <mbedtls/version.h>
#include <string.h>
#include <tee_internal_api.h>
#include <mbedtls_ta.h>

#if defined(MBEDTLS_TA_MPI_POOL)
#include <mempool.h>

extern void *mbedtls_mpi_mempool;

static TEE_Result cmd_mpi_pool(void)
{
	void *p = NULL;

	if (!mbedtls_mpi_mempool)
		return TEE_ERROR_BAD_STATE;
	p = mempool_alloc(mbedtls_mpi_mempool, 4096);
	if (!p)
		return TEE_ERROR_OUT_OF_MEMORY;
	mempool_free(mbedtls_mpi_mempool, p);
	return TEE_SUCCESS;
}
#else
static TEE_Result cmd_mpi_pool(void)
{
	return TEE_ERROR_NOT_SUPPORTED;
}
#endif

#if !defined(CFG_TA_MBEDTLS)
#error "the kit did not pass CFG_TA_MBEDTLS"
#endif

#if defined(MBEDTLS_TA_CALL_ABSENT)
/* A function of mbedTLS's names that the library does not have. */
int mbedtls_absent_function(void);
#endif

TEE_Result TA_CreateEntryPoint(void)
{
#if defined(MBEDTLS_TA_CALL_ABSENT)
	if (mbedtls_absent_function())
		return TEE_ERROR_GENERIC;
#endif
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[4], void **session)
{
	(void)types;
	(void)params;
	(void)session;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *session)
{
	(void)session;
}

static TEE_Result tee_sha256(const void *in, size_t len, uint8_t out[32])
{
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	size_t out_len = 32;
	TEE_Result res = TEE_AllocateOperation(&op, TEE_ALG_SHA256, TEE_MODE_DIGEST, 0);

	if (res != TEE_SUCCESS)
		return res;
	res = TEE_DigestDoFinal(op, in, len, out, &out_len);
	TEE_FreeOperation(op);
	return res;
}

static TEE_Result cmd_sha256(uint32_t types, TEE_Param params[4])
{
	uint8_t ours[32];
	uint8_t tee[32];
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE) ||
	    params[1].memref.size < sizeof(ours))
		return res;
	if (mbedtls_sha256(params[0].memref.buffer, params[0].memref.size, ours, 0))
		return TEE_ERROR_GENERIC;
	res = tee_sha256(params[0].memref.buffer, params[0].memref.size, tee);
	if (res != TEE_SUCCESS)
		return res;
	if (memcmp(ours, tee, sizeof(ours)))
		return TEE_ERROR_SECURITY;
	memcpy(params[1].memref.buffer, ours, sizeof(ours));
	params[1].memref.size = sizeof(ours);
	return TEE_SUCCESS;
}

static TEE_Result cmd_entropy(uint32_t types, TEE_Param params[4])
{
	uint8_t *out = params[0].memref.buffer;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_OUTPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE) ||
	    params[0].memref.size < 64)
		return TEE_ERROR_BAD_PARAMETERS;
	if (mbedtls_entropy_func(NULL, out, 32) || mbedtls_entropy_func(NULL, out + 32, 32))
		return TEE_ERROR_GENERIC;
	params[0].memref.size = 64;
	return TEE_SUCCESS;
}

TEE_Result TA_InvokeCommandEntryPoint(void *session, uint32_t cmd, uint32_t types,
				      TEE_Param params[4])
{
	(void)session;
	switch (cmd) {
	case MBEDTLS_TA_CMD_SHA256:
		return cmd_sha256(types, params);
	case MBEDTLS_TA_CMD_ENTROPY:
		return cmd_entropy(types, params);
	case MBEDTLS_TA_CMD_VERSION:
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		params[0].value.a = mbedtls_version_get_number();
		params[0].value.b = CFG_TA_MBEDTLS;
		return TEE_SUCCESS;
	case MBEDTLS_TA_CMD_MPI_POOL:
		return cmd_mpi_pool();
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
