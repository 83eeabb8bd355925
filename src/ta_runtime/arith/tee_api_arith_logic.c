/*
 * GP arithmetic: comparisons, bits, shifts, assignment and absolute value.
 * Bit operations act on the magnitude |x| and keep the sign, as GP says.
 */
#include <limits.h>

#include "arith.h"
#include "runtime.h"

int32_t TEE_BigIntCmp(const TEE_BigInt *op1, const TEE_BigInt *op2)
{
	static const char func[] = "TEE_BigIntCmp";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	BIGNUM *b = NULL;
	int32_t res = 0;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	b = rt_bigint_get(ctx, func);
	rt_bigint_read(op1, a, func);
	rt_bigint_read(op2, b, func);
	res = BN_cmp(a, b);
	BN_CTX_end(ctx);
	return res < 0 ? -1 : res > 0;
}

int32_t TEE_BigIntCmpS32(const TEE_BigInt *op, int32_t shortVal)
{
	static const char func[] = "TEE_BigIntCmpS32";
	BN_CTX *ctx = rt_bigint_ctx(func);
	uint32_t mag = shortVal < 0 ? 0u - (uint32_t)shortVal : (uint32_t)shortVal;
	BIGNUM *a = NULL;
	BIGNUM *b = NULL;
	int32_t res = 0;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	b = rt_bigint_get(ctx, func);
	rt_bigint_read(op, a, func);
	if (!BN_set_word(b, mag))
		rt_bigint_fail(func);
	BN_set_negative(b, shortVal < 0);
	res = BN_cmp(a, b);
	BN_CTX_end(ctx);
	return res < 0 ? -1 : res > 0;
}

void TEE_BigIntShiftRight(TEE_BigInt *dest, const TEE_BigInt *op, size_t bits)
{
	static const char func[] = "TEE_BigIntShiftRight";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	rt_bigint_read(op, a, func);
	if (bits >= (size_t)BN_num_bits(a))
		BN_zero(a);
	else if (!BN_rshift(a, a, (int)bits))
		rt_bigint_fail(func);
	rt_bigint_write_or_panic(dest, a, func);
	BN_CTX_end(ctx);
}

bool TEE_BigIntGetBit(const TEE_BigInt *src, uint32_t bitIndex)
{
	static const char func[] = "TEE_BigIntGetBit";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	bool bit = false;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	rt_bigint_read(src, a, func);
	bit = bitIndex < (uint32_t)BN_num_bits(a) && BN_is_bit_set(a, (int)bitIndex);
	BN_CTX_end(ctx);
	return bit;
}

uint32_t TEE_BigIntGetBitCount(const TEE_BigInt *src)
{
	static const char func[] = "TEE_BigIntGetBitCount";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	uint32_t n = 0;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	rt_bigint_read(src, a, func);
	n = (uint32_t)BN_num_bits(a);
	BN_CTX_end(ctx);
	return n;
}

TEE_Result TEE_BigIntSetBit(TEE_BigInt *op, uint32_t bitIndex, bool value)
{
	static const char func[] = "TEE_BigIntSetBit";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;

	if (bitIndex >= rt_bigint_capacity_bits(op, func))
		return TEE_ERROR_OVERFLOW;
	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	rt_bigint_read(op, a, func);
	if (value) {
		if (!BN_set_bit(a, (int)bitIndex))
			rt_bigint_fail(func);
	} else if (bitIndex < (uint32_t)BN_num_bits(a)) {
		if (!BN_clear_bit(a, (int)bitIndex))
			rt_bigint_fail(func);
	}
	rt_bigint_write_or_panic(op, a, func);
	BN_CTX_end(ctx);
	return TEE_SUCCESS;
}

static TEE_Result assign(TEE_BigInt *dest, const TEE_BigInt *src, bool abs, const char *func)
{
	BN_CTX *ctx = rt_bigint_ctx(func);
	TEE_Result res = TEE_ERROR_OVERFLOW;
	BIGNUM *a = NULL;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	rt_bigint_read(src, a, func);
	if (abs)
		BN_set_negative(a, 0);
	if (rt_bigint_write(dest, a, func))
		res = TEE_SUCCESS;
	BN_CTX_end(ctx);
	return res;
}

TEE_Result TEE_BigIntAssign(TEE_BigInt *dest, const TEE_BigInt *src)
{
	return assign(dest, src, false, "TEE_BigIntAssign");
}

TEE_Result TEE_BigIntAbs(TEE_BigInt *dest, const TEE_BigInt *src)
{
	return assign(dest, src, true, "TEE_BigIntAbs");
}
