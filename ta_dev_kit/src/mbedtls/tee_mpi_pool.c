// SPDX-License-Identifier: BSD-2-Clause
/*
 * optee_os's mbedTLS (lib/libmbedtls) takes the temporaries of its bignum
 * arithmetic from a pool, mbedtls_mpi_mempool, which OP-TEE's TA library
 * sets up before a TA runs; calls such as mbedtls_mpi_exp_mod() use it
 * unconditionally. The kit links this object into every TA built with
 * CFG_TA_MBEDTLS=y: when the tree defines mbedtls_mpi_mempool (an upstream
 * tree does not, and the weak reference stays NULL), it is given a pool
 * before the TA's entry points run.
 */
#include <stddef.h>
#include <stdint.h>
#include <mempool.h>

/* Room for the temporaries of 4096-bit RSA (the window table of an
 * exponentiation is the largest). */
#define SWTEE_MPI_POOL_SIZE (128 * 1024)

extern void *mbedtls_mpi_mempool __attribute__((weak));

static void swtee_mpi_pool_init(void) __attribute__((constructor));

static void swtee_mpi_pool_init(void)
{
	static uint8_t pool[SWTEE_MPI_POOL_SIZE] __attribute__((aligned(MEMPOOL_ALIGN)));

	if (&mbedtls_mpi_mempool && !mbedtls_mpi_mempool)
		mbedtls_mpi_mempool = mempool_alloc_pool(pool, sizeof(pool), NULL);
}
