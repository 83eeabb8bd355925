/*
 * GP arithmetic: addition, subtraction, negation, multiplication, squaring
 * and division. The destination must hold the result: GP leaves its size to
 * the caller, and a result that does not fit panics.
 */
#include "arith.h"
#include "runtime.h"

enum binop { OP_ADD, OP_SUB, OP_MUL };

static void binary(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2, enum binop which,
		   const char *func)
{
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	BIGNUM *b = NULL;
	BIGNUM *r = NULL;
	int ok = 0;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	b = rt_bigint_get(ctx, func);
	r = rt_bigint_get(ctx, func);
	rt_bigint_read(op1, a, func);
	rt_bigint_read(op2, b, func);
	switch (which) {
	case OP_ADD:
		ok = BN_add(r, a, b);
		break;
	case OP_SUB:
		ok = BN_sub(r, a, b);
		break;
	case OP_MUL:
		ok = BN_mul(r, a, b, ctx);
		break;
	}
	if (!ok)
		rt_bigint_fail(func);
	rt_bigint_write_or_panic(dest, r, func);
	BN_CTX_end(ctx);
}

void TEE_BigIntAdd(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2)
{
	binary(dest, op1, op2, OP_ADD, "TEE_BigIntAdd");
}

void TEE_BigIntSub(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2)
{
	binary(dest, op1, op2, OP_SUB, "TEE_BigIntSub");
}

void TEE_BigIntMul(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2)
{
	binary(dest, op1, op2, OP_MUL, "TEE_BigIntMul");
}

void TEE_BigIntSquare(TEE_BigInt *dest, const TEE_BigInt *op)
{
	static const char func[] = "TEE_BigIntSquare";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	BIGNUM *r = NULL;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	r = rt_bigint_get(ctx, func);
	rt_bigint_read(op, a, func);
	if (!BN_sqr(r, a, ctx))
		rt_bigint_fail(func);
	rt_bigint_write_or_panic(dest, r, func);
	BN_CTX_end(ctx);
}

void TEE_BigIntNeg(TEE_BigInt *dest, const TEE_BigInt *op)
{
	static const char func[] = "TEE_BigIntNeg";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	rt_bigint_read(op, a, func);
	BN_set_negative(a, !BN_is_negative(a));
	rt_bigint_write_or_panic(dest, a, func);
	BN_CTX_end(ctx);
}

/*
 * op1 = dest_q * op2 + dest_r, the quotient rounded towards zero and the
 * remainder of op1's sign (what BN_div computes). Either destination may be
 * NULL; they may not be the same array; op2 may not be zero.
 */
void TEE_BigIntDiv(TEE_BigInt *dest_q, TEE_BigInt *dest_r, const TEE_BigInt *op1,
		   const TEE_BigInt *op2)
{
	static const char func[] = "TEE_BigIntDiv";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	BIGNUM *b = NULL;
	BIGNUM *q = NULL;
	BIGNUM *r = NULL;

	if (dest_q && dest_q == dest_r)
		rt_bigint_panic(func);
	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	b = rt_bigint_get(ctx, func);
	q = rt_bigint_get(ctx, func);
	r = rt_bigint_get(ctx, func);
	rt_bigint_read(op1, a, func);
	rt_bigint_read(op2, b, func);
	if (BN_is_zero(b))
		rt_bigint_panic(func);
	if (!BN_div(q, r, a, b, ctx))
		rt_bigint_fail(func);
	if (dest_q)
		rt_bigint_write_or_panic(dest_q, q, func);
	if (dest_r)
		rt_bigint_write_or_panic(dest_r, r, func);
	BN_CTX_end(ctx);
}
