/*
 * The GP 1.1 arithmetic functions whose sizes were uint32_t
 * (tee_api_compat.h). They behave as the 1.3 ones.
 */
#include "arith.h"

uint32_t __GP11_TEE_BigIntFMMSizeInU32(uint32_t modulusSizeInBits)
{
	return (uint32_t)TEE_BigIntFMMSizeInU32(modulusSizeInBits);
}

uint32_t __GP11_TEE_BigIntFMMContextSizeInU32(uint32_t modulusSizeInBits)
{
	return (uint32_t)TEE_BigIntFMMContextSizeInU32(modulusSizeInBits);
}

void __GP11_TEE_BigIntInit(TEE_BigInt *bigInt, uint32_t len)
{
	TEE_BigIntInit(bigInt, len);
}

void __GP11_TEE_BigIntInitFMMContext(TEE_BigIntFMMContext *context, uint32_t len,
				     const TEE_BigInt *modulus)
{
	TEE_BigIntInitFMMContext(context, len, modulus);
}

void __GP11_TEE_BigIntInitFMM(TEE_BigIntFMM *bigIntFMM, uint32_t len)
{
	TEE_BigIntInitFMM(bigIntFMM, len);
}

TEE_Result __GP11_TEE_BigIntConvertFromOctetString(TEE_BigInt *dest, const uint8_t *buffer,
						   uint32_t bufferLen, int32_t sign)
{
	return TEE_BigIntConvertFromOctetString(dest, buffer, bufferLen, sign);
}

TEE_Result __GP11_TEE_BigIntConvertToOctetString(uint8_t *buffer, uint32_t *bufferLen,
						 const TEE_BigInt *bigInt)
{
	size_t len = 0;
	TEE_Result res = TEE_SUCCESS;

	if (!bufferLen)
		rt_bigint_panic("TEE_BigIntConvertToOctetString");
	len = *bufferLen;
	res = TEE_BigIntConvertToOctetString(buffer, &len, bigInt);
	*bufferLen = (uint32_t)len; /* at most ARITH_MAX_LIMBS * 4 bytes */
	return res;
}

void __GP11_TEE_BigIntShiftRight(TEE_BigInt *dest, const TEE_BigInt *op, uint32_t bits)
{
	TEE_BigIntShiftRight(dest, op, bits);
}
