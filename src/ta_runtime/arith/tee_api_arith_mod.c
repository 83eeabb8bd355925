/*
 * GP arithmetic: modular functions and fast modular multiplication (FMM).
 * The modulus is at least 2 or the TA panics. Operands may lie outside
 * [0, n-1] (they are reduced first); results are in [0, n-1].
 *
 * FMM: swtee's representation of an element is its plain residue modulo n,
 * a TEE_BigInt-shaped array; ComputeFMM is a modular multiplication by
 * libcrypto (Montgomery inside TEE_BigIntExpMod). The context holds a copy of
 * the modulus, so that an element used with another modulus is caught.
 */
#include <openssl/err.h>

#include "arith.h"
#include "runtime.h"

enum modop { MOD_REDUCE, MOD_ADD, MOD_SUB, MOD_MUL, MOD_SQR };

static void modular(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
		    const TEE_BigInt *n, const TEE_BigIntFMMContext *context, enum modop which,
		    const char *func)
{
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	BIGNUM *b = NULL;
	BIGNUM *m = NULL;
	BIGNUM *r = NULL;
	int ok = 0;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	b = rt_bigint_get(ctx, func);
	m = rt_bigint_get(ctx, func);
	r = rt_bigint_get(ctx, func);
	rt_bigint_read_modulus(n, m, func);
	rt_bigint_check_context(context, m, ctx, func);
	rt_bigint_read(op1, a, func);
	if (op2)
		rt_bigint_read(op2, b, func);
	switch (which) {
	case MOD_REDUCE:
		ok = BN_nnmod(r, a, m, ctx);
		break;
	case MOD_ADD:
		ok = BN_mod_add(r, a, b, m, ctx);
		break;
	case MOD_SUB:
		ok = BN_mod_sub(r, a, b, m, ctx);
		break;
	case MOD_MUL:
		ok = BN_mod_mul(r, a, b, m, ctx);
		break;
	case MOD_SQR:
		ok = BN_mod_sqr(r, a, m, ctx);
		break;
	}
	if (!ok)
		rt_bigint_fail(func);
	rt_bigint_write_or_panic(dest, r, func);
	BN_CTX_end(ctx);
}

void TEE_BigIntMod(TEE_BigInt *dest, const TEE_BigInt *op, const TEE_BigInt *n)
{
	modular(dest, op, NULL, n, NULL, MOD_REDUCE, "TEE_BigIntMod");
}

void TEE_BigIntAddMod(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
		      const TEE_BigInt *n)
{
	modular(dest, op1, op2, n, NULL, MOD_ADD, "TEE_BigIntAddMod");
}

void TEE_BigIntSubMod(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
		      const TEE_BigInt *n)
{
	modular(dest, op1, op2, n, NULL, MOD_SUB, "TEE_BigIntSubMod");
}

void TEE_BigIntMulMod(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
		      const TEE_BigInt *n)
{
	modular(dest, op1, op2, n, NULL, MOD_MUL, "TEE_BigIntMulMod");
}

void TEE_BigIntSquareMod(TEE_BigInt *dest, const TEE_BigInt *op, const TEE_BigInt *n)
{
	modular(dest, op, NULL, n, NULL, MOD_SQR, "TEE_BigIntSquareMod");
}

/* op must be invertible modulo n (gcd 1, so not zero) or the TA panics. */
void TEE_BigIntInvMod(TEE_BigInt *dest, const TEE_BigInt *op, const TEE_BigInt *n)
{
	static const char func[] = "TEE_BigIntInvMod";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	BIGNUM *m = NULL;
	BIGNUM *r = NULL;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	m = rt_bigint_get(ctx, func);
	r = rt_bigint_get(ctx, func);
	rt_bigint_read_modulus(n, m, func);
	rt_bigint_read(op, a, func);
	if (BN_is_zero(a))
		rt_bigint_panic(func);
	if (!BN_mod_inverse(r, a, m, ctx)) {
		/* libcrypto fails the same way for "no inverse" and for memory. */
		ERR_clear_error();
		rt_bigint_panic(func);
	}
	rt_bigint_write_or_panic(dest, r, func);
	BN_CTX_end(ctx);
}

/*
 * dest = op1^op2 mod n, for odd and even n alike. The exponent is treated as
 * secret (constant-time exponentiation) when n is odd, which is when
 * libcrypto has a constant-time path.
 */
TEE_Result TEE_BigIntExpMod(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
			    const TEE_BigInt *n, const TEE_BigIntFMMContext *context)
{
	static const char func[] = "TEE_BigIntExpMod";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	BIGNUM *e = NULL;
	BIGNUM *m = NULL;
	BIGNUM *r = NULL;
	int ok = 0;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	e = rt_bigint_get(ctx, func);
	m = rt_bigint_get(ctx, func);
	r = rt_bigint_get(ctx, func);
	rt_bigint_read_modulus(n, m, func);
	rt_bigint_check_context(context, m, ctx, func);
	rt_bigint_read(op1, a, func);
	rt_bigint_read(op2, e, func);
	if (BN_is_negative(e))
		rt_bigint_panic(func);
	if (!BN_nnmod(a, a, m, ctx))
		rt_bigint_fail(func);
	if (BN_is_odd(m)) {
		BN_set_flags(e, BN_FLG_CONSTTIME);
		ok = BN_mod_exp_mont_consttime(r, a, e, m, ctx, NULL);
	} else {
		ok = BN_mod_exp(r, a, e, m, ctx);
	}
	if (!ok)
		rt_bigint_fail(func);
	rt_bigint_write_or_panic(dest, r, func);
	BN_CTX_end(ctx);
	return TEE_SUCCESS;
}

void TEE_BigIntConvertToFMM(TEE_BigIntFMM *dest, const TEE_BigInt *src, const TEE_BigInt *n,
			    const TEE_BigIntFMMContext *context)
{
	static const char func[] = "TEE_BigIntConvertToFMM";

	if (!context)
		rt_bigint_panic(func);
	modular(dest, src, NULL, n, context, MOD_REDUCE, func);
}

void TEE_BigIntConvertFromFMM(TEE_BigInt *dest, const TEE_BigIntFMM *src, const TEE_BigInt *n,
			      const TEE_BigIntFMMContext *context)
{
	static const char func[] = "TEE_BigIntConvertFromFMM";

	if (!context)
		rt_bigint_panic(func);
	modular(dest, src, NULL, n, context, MOD_REDUCE, func);
}

void TEE_BigIntComputeFMM(TEE_BigIntFMM *dest, const TEE_BigIntFMM *op1, const TEE_BigIntFMM *op2,
			  const TEE_BigInt *n, const TEE_BigIntFMMContext *context)
{
	static const char func[] = "TEE_BigIntComputeFMM";

	if (!context)
		rt_bigint_panic(func);
	modular(dest, op1, op2, n, context, MOD_MUL, func);
}
