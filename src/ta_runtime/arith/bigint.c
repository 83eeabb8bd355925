/*
 * The TEE_BigInt layout (arith.h) and its conversion to and from BIGNUM.
 * The TA's array is read through its header only after the header checks
 * out: a capacity within the limits and a limb count within the capacity.
 */
#include <string.h>

#include "arith.h"
#include "runtime.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "limbs are read as a little-endian byte string");
_Static_assert(ARITH_MAX_LIMBS <= 0xffff, "the limb counts are 16-bit fields");

static BN_CTX *bn_ctx;

void rt_bigint_panic(const char *func)
{
	rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
}

void rt_bigint_fail(const char *func)
{
	rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
}

BN_CTX *rt_bigint_ctx(const char *func)
{
	if (!bn_ctx)
		bn_ctx = BN_CTX_new();
	if (!bn_ctx)
		rt_bigint_fail(func);
	return bn_ctx;
}

BIGNUM *rt_bigint_get(BN_CTX *ctx, const char *func)
{
	BIGNUM *bn = BN_CTX_get(ctx);

	if (!bn)
		rt_bigint_fail(func);
	return bn;
}

void rt_bigint_init(uint32_t *big, size_t len, const char *func)
{
	if (!big || len < ARITH_HDR_WORDS || len - ARITH_HDR_WORDS > ARITH_MAX_LIMBS)
		rt_bigint_panic(func);
	memset(big, 0, len * sizeof(*big));
	big[0] = ARITH_MAGIC;
	big[1] = (uint32_t)(len - ARITH_HDR_WORDS);
}

/* The capacity and the limbs in use of big, checked. */
static void header(const uint32_t *big, uint32_t *cap, uint32_t *used, const char *func)
{
	if (!big || (big[0] & ARITH_MAGIC_MASK) != ARITH_MAGIC)
		rt_bigint_panic(func);
	*cap = big[1] & 0xffff;
	*used = big[1] >> 16;
	if (*cap > ARITH_MAX_LIMBS || *used > *cap)
		rt_bigint_panic(func);
}

size_t rt_bigint_capacity_bits(const uint32_t *big, const char *func)
{
	uint32_t cap = 0;
	uint32_t used = 0;

	header(big, &cap, &used, func);
	return (size_t)cap * 32;
}

void rt_bigint_read(const uint32_t *big, BIGNUM *bn, const char *func)
{
	uint32_t cap = 0;
	uint32_t used = 0;

	header(big, &cap, &used, func);
	if (!BN_lebin2bn((const unsigned char *)(big + ARITH_HDR_WORDS), (int)(used * 4), bn))
		rt_bigint_fail(func);
	BN_set_negative(bn, (big[0] & 1) && !BN_is_zero(bn));
}

bool rt_bigint_write(uint32_t *big, const BIGNUM *bn, const char *func)
{
	uint32_t cap = 0;
	uint32_t used = 0;
	uint32_t need = (uint32_t)(BN_num_bytes(bn) + 3) / 4;

	header(big, &cap, &used, func);
	if (need > cap)
		return false;
	if (need &&
	    BN_bn2lebinpad(bn, (unsigned char *)(big + ARITH_HDR_WORDS), (int)(need * 4)) < 0)
		rt_bigint_fail(func);
	/* Limbs past the value are zero: nothing of an older value stays behind. */
	memset(big + ARITH_HDR_WORDS + need, 0, (size_t)(cap - need) * sizeof(*big));
	big[0] = ARITH_MAGIC | (BN_is_negative(bn) && !BN_is_zero(bn));
	big[1] = cap | need << 16;
	return true;
}

void rt_bigint_write_or_panic(uint32_t *big, const BIGNUM *bn, const char *func)
{
	if (!rt_bigint_write(big, bn, func))
		rt_panic(TEE_ERROR_OVERFLOW, func);
}

void rt_bigint_read_modulus(const uint32_t *n, BIGNUM *bn, const char *func)
{
	rt_bigint_read(n, bn, func);
	if (BN_is_negative(bn) || BN_num_bits(bn) < 2)
		rt_bigint_panic(func);
}

void rt_bigint_check_context(const TEE_BigIntFMMContext *context, const BIGNUM *n, BN_CTX *ctx,
			     const char *func)
{
	BIGNUM *m = NULL;

	if (!context)
		return;
	if (context[0] != ARITH_CTX_MAGIC)
		rt_bigint_panic(func);
	BN_CTX_start(ctx);
	m = rt_bigint_get(ctx, func);
	rt_bigint_read(context + 1, m, func);
	if (BN_cmp(m, n))
		rt_bigint_panic(func);
	BN_CTX_end(ctx);
}
