/*
 * GP arithmetic: sizes, initialisation and the converters to and from octet
 * strings and int32_t.
 */
#include <limits.h>
#include <string.h>

#include "arith.h"
#include "runtime.h"

static size_t size_in_u32(size_t bits)
{
	return bits / 32 + (bits % 32 != 0) + ARITH_HDR_WORDS;
}

size_t TEE_BigIntFMMSizeInU32(size_t modulusSizeInBits)
{
	return size_in_u32(modulusSizeInBits);
}

/* A context is its magic word followed by a TEE_BigInt copy of the modulus. */
size_t TEE_BigIntFMMContextSizeInU32(size_t modulusSizeInBits)
{
	return 1 + size_in_u32(modulusSizeInBits);
}

void TEE_BigIntInit(TEE_BigInt *bigInt, size_t len)
{
	rt_bigint_init(bigInt, len, "TEE_BigIntInit");
}

void TEE_BigIntInitFMM(TEE_BigIntFMM *bigIntFMM, size_t len)
{
	rt_bigint_init(bigIntFMM, len, "TEE_BigIntInitFMM");
}

static void init_context(TEE_BigIntFMMContext *context, size_t len, const TEE_BigInt *modulus,
			 const char *func)
{
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *n = NULL;

	if (!context || len < 1)
		rt_bigint_panic(func);
	BN_CTX_start(ctx);
	n = rt_bigint_get(ctx, func);
	rt_bigint_read_modulus(modulus, n, func);
	rt_bigint_init(context + 1, len - 1, func);
	rt_bigint_write_or_panic(context + 1, n, func);
	context[0] = ARITH_CTX_MAGIC;
	BN_CTX_end(ctx);
}

void TEE_BigIntInitFMMContext(TEE_BigIntFMMContext *context, size_t len, const TEE_BigInt *modulus)
{
	init_context(context, len, modulus, "TEE_BigIntInitFMMContext");
}

/* Every modulus of at least 2, odd or even, is supported: never NOT_SUPPORTED. */
TEE_Result TEE_BigIntInitFMMContext1(TEE_BigIntFMMContext *context, size_t len,
				     const TEE_BigInt *modulus)
{
	init_context(context, len, modulus, "TEE_BigIntInitFMMContext1");
	return TEE_SUCCESS;
}

TEE_Result TEE_BigIntConvertFromOctetString(TEE_BigInt *dest, const uint8_t *buffer,
					    size_t bufferLen, int32_t sign)
{
	static const char func[] = "TEE_BigIntConvertFromOctetString";
	BN_CTX *ctx = rt_bigint_ctx(func);
	TEE_Result res = TEE_ERROR_OVERFLOW;
	BIGNUM *bn = NULL;

	if (bufferLen && !buffer)
		rt_bigint_panic(func);
	/* Leading zeros do not count against dest's size. */
	while (bufferLen && !*buffer) {
		buffer++;
		bufferLen--;
	}
	if (bufferLen > rt_bigint_capacity_bits(dest, func) / 8)
		return TEE_ERROR_OVERFLOW;
	BN_CTX_start(ctx);
	bn = rt_bigint_get(ctx, func);
	if (!BN_bin2bn(buffer, (int)bufferLen, bn))
		rt_bigint_fail(func);
	BN_set_negative(bn, sign < 0);
	if (rt_bigint_write(dest, bn, func))
		res = TEE_SUCCESS;
	BN_CTX_end(ctx);
	return res;
}

TEE_Result TEE_BigIntConvertToOctetString(uint8_t *buffer, size_t *bufferLen,
					  const TEE_BigInt *bigInt)
{
	static const char func[] = "TEE_BigIntConvertToOctetString";
	BN_CTX *ctx = rt_bigint_ctx(func);
	TEE_Result res = TEE_ERROR_SHORT_BUFFER;
	BIGNUM *bn = NULL;
	size_t need = 0;

	if (!bufferLen)
		rt_bigint_panic(func);
	BN_CTX_start(ctx);
	bn = rt_bigint_get(ctx, func);
	rt_bigint_read(bigInt, bn, func);
	need = (size_t)BN_num_bytes(bn);
	if (need <= *bufferLen) {
		if (need && !buffer)
			rt_bigint_panic(func);
		if (need)
			BN_bn2bin(bn, buffer);
		res = TEE_SUCCESS;
	}
	*bufferLen = need;
	BN_CTX_end(ctx);
	return res;
}

void TEE_BigIntConvertFromS32(TEE_BigInt *dest, int32_t shortVal)
{
	static const char func[] = "TEE_BigIntConvertFromS32";
	BN_CTX *ctx = rt_bigint_ctx(func);
	uint32_t mag = shortVal < 0 ? 0u - (uint32_t)shortVal : (uint32_t)shortVal;
	BIGNUM *bn = NULL;

	BN_CTX_start(ctx);
	bn = rt_bigint_get(ctx, func);
	if (!BN_set_word(bn, mag))
		rt_bigint_fail(func);
	BN_set_negative(bn, shortVal < 0);
	rt_bigint_write_or_panic(dest, bn, func);
	BN_CTX_end(ctx);
}

TEE_Result TEE_BigIntConvertToS32(int32_t *dest, const TEE_BigInt *src)
{
	static const char func[] = "TEE_BigIntConvertToS32";
	BN_CTX *ctx = rt_bigint_ctx(func);
	TEE_Result res = TEE_ERROR_OVERFLOW;
	BIGNUM *bn = NULL;
	uint64_t mag = 0;

	if (!dest)
		rt_bigint_panic(func);
	BN_CTX_start(ctx);
	bn = rt_bigint_get(ctx, func);
	rt_bigint_read(src, bn, func);
	if (BN_num_bits(bn) > 32)
		goto out;
	mag = BN_get_word(bn);
	if (BN_is_negative(bn)) {
		if (mag > (uint64_t)INT32_MAX + 1)
			goto out;
		*dest = mag == (uint64_t)INT32_MAX + 1 ? INT32_MIN : -(int32_t)mag;
	} else {
		if (mag > INT32_MAX)
			goto out;
		*dest = (int32_t)mag;
	}
	res = TEE_SUCCESS;
out:
	BN_CTX_end(ctx);
	return res;
}
