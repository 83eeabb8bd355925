/* SPDX-License-Identifier: BSD-2-Clause */
/* A TA that calls mbedTLS 3 functions, built by the kit with CFG_TA_MBEDTLS=y. */
#ifndef MBEDTLS_TA_H
#define MBEDTLS_TA_H

#define MBEDTLS_TA_UUID                                                                            \
	{                                                                                          \
		0x3a5c7e91, 0x0b2d, 0x4f46,                                                        \
		{                                                                                  \
			0x8a, 0x1c, 0x5e, 0x7f, 0x90, 0xa2, 0xb3, 0xc4                             \
		}                                                                                  \
	}

/* [in] memref data, [out] memref digest (32): mbedtls_sha256(), which the TA
 * checks against the TEE's own SHA-256 (TEE_ERROR_SECURITY if they differ). */
#define MBEDTLS_TA_CMD_SHA256 0
/* [out] memref (64): two draws of 32 bytes from mbedtls_entropy_func(). */
#define MBEDTLS_TA_CMD_ENTROPY 1
/* [out] value: a = mbedtls_version_get_number(), b = 1 if CFG_TA_MBEDTLS was set. */
#define MBEDTLS_TA_CMD_VERSION 2
/* Built with -DMBEDTLS_TA_MPI_POOL against a tree that defines optee_os's
 * mbedtls_mpi_mempool: TEE_SUCCESS if the kit gave it a pool that serves an
 * allocation; TEE_ERROR_NOT_SUPPORTED otherwise. */
#define MBEDTLS_TA_CMD_MPI_POOL 3

#endif
