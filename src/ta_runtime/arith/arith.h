/*
 * The GP Arithmetical API (Internal Core API chapter 8) over OpenSSL BN.
 *
 * A TEE_BigInt is the TA's own array of uint32_t, of TEE_BigIntSizeInU32(n)
 * words for n bits: two header words, then the magnitude in 32-bit limbs,
 * least significant first:
 *   word 0  ARITH_MAGIC | sign (bit 0: 1 when negative; zero is never negative)
 *   word 1  capacity in limbs (low 16 bits) | limbs in use (high 16 bits)
 * TEE_BigIntInit writes the header; every function checks it before it
 * trusts a limb count, so an array that was never initialised panics.
 * TEE_BigIntFMM elements have the same layout: swtee's FMM representation
 * is the plain residue modulo n (see tee_api_arith_mod.c).
 *
 * Every function reads its operands into BIGNUMs first and writes its
 * results last, so a destination may be one of the operands.
 * The size limit: a TEE_BigInt holds up to twice gpd.tee.arith.maxBigIntSize
 * bits, so that the product of two operands of the maximum size fits.
 *
 * Panic codes, in the core's log with the function's name:
 * TEE_ERROR_BAD_PARAMETERS for what GP makes a programming error (a bad
 * header or size, a modulus below 2, a zero divisor, ...), TEE_ERROR_OVERFLOW
 * for a result too large for the destination of a function that has no
 * return code for it, TEE_ERROR_OUT_OF_MEMORY when libcrypto cannot compute.
 */
#ifndef SWTEE_ARITH_H
#define SWTEE_ARITH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/bn.h>

#include <tee_internal_api.h>

#define ARITH_MAX_BITS 4096u /* gpd.tee.arith.maxBigIntSize, as properties.c says */
#define ARITH_MAX_LIMBS (2 * ARITH_MAX_BITS / 32)
#define ARITH_HDR_WORDS 2u
#define ARITH_MAGIC 0xb16e0000u
#define ARITH_MAGIC_MASK 0xfffffffeu
#define ARITH_CTX_MAGIC 0xb16c7a00u /* word 0 of an FMM context; a TEE_BigInt follows */

/* bigint.c */

/* Ends the TA: an argument the GP specification makes a programming error. */
void rt_bigint_panic(const char *func) __attribute__((noreturn));
/* Ends the TA: libcrypto could not compute (out of memory). */
void rt_bigint_fail(const char *func) __attribute__((noreturn));

/*
 * The per-instance BN_CTX, for BN_CTX_start/BN_CTX_get/BN_CTX_end around
 * one GP call. rt_bigint_get gets a BIGNUM of it or panics.
 */
BN_CTX *rt_bigint_ctx(const char *func);
BIGNUM *rt_bigint_get(BN_CTX *ctx, const char *func);

/* Writes the header of an empty TEE_BigInt of len words; panics on a bad len. */
void rt_bigint_init(uint32_t *big, size_t len, const char *func);

/* Reads the TEE_BigInt big (checked, or a panic) into bn. */
void rt_bigint_read(const uint32_t *big, BIGNUM *bn, const char *func);

/* Capacity of big in bits (header checked). */
size_t rt_bigint_capacity_bits(const uint32_t *big, const char *func);

/*
 * Writes bn into big. Returns false, big untouched, when it does not fit;
 * rt_bigint_write_or_panic panics instead.
 */
bool rt_bigint_write(uint32_t *big, const BIGNUM *bn, const char *func);
void rt_bigint_write_or_panic(uint32_t *big, const BIGNUM *bn, const char *func);

/*
 * Reads a modulus: panics unless it is at least 2 (GP: the modulus of the
 * modular functions is greater than one).
 */
void rt_bigint_read_modulus(const uint32_t *n, BIGNUM *bn, const char *func);

/*
 * Checks an FMM context (NULL allowed when optional) against the modulus
 * bn it is used with; panics when it was not initialised for that modulus.
 */
void rt_bigint_check_context(const TEE_BigIntFMMContext *context, const BIGNUM *n, BN_CTX *ctx,
			     const char *func);

#endif
