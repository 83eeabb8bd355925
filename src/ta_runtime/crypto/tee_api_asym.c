/*
 * GP Cryptographic Operations API: asymmetric operations (6.6) and key
 * derivation (6.7), not implemented yet.
 *
 * TEE_AllocateOperation refuses every asymmetric and key-derivation
 * algorithm (TEE_ERROR_NOT_SUPPORTED, in agreement with
 * TEE_IsAlgorithmSupported), so no handle of those classes exists: every
 * call here is given a bad handle or an operation of another class, and
 * panics as GP requires. The implementations replace these bodies.
 */
#include "operation.h"
#include "runtime.h"

static void no_asym_op(TEE_OperationHandle operation, const char *func)
{
	op_from_handle(operation, func);
	rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
}

TEE_Result TEE_AsymmetricEncrypt(TEE_OperationHandle operation, const TEE_Attribute *params,
				 uint32_t paramCount, const void *srcData, size_t srcLen,
				 void *destData, size_t *destLen)
{
	(void)params, (void)paramCount, (void)srcData, (void)srcLen, (void)destData, (void)destLen;
	no_asym_op(operation, "TEE_AsymmetricEncrypt");
	return TEE_ERROR_NOT_SUPPORTED;
}

TEE_Result TEE_AsymmetricDecrypt(TEE_OperationHandle operation, const TEE_Attribute *params,
				 uint32_t paramCount, const void *srcData, size_t srcLen,
				 void *destData, size_t *destLen)
{
	(void)params, (void)paramCount, (void)srcData, (void)srcLen, (void)destData, (void)destLen;
	no_asym_op(operation, "TEE_AsymmetricDecrypt");
	return TEE_ERROR_NOT_SUPPORTED;
}

TEE_Result TEE_AsymmetricSignDigest(TEE_OperationHandle operation, const TEE_Attribute *params,
				    uint32_t paramCount, const void *digest, size_t digestLen,
				    void *signature, size_t *signatureLen)
{
	(void)params, (void)paramCount, (void)digest, (void)digestLen, (void)signature;
	(void)signatureLen;
	no_asym_op(operation, "TEE_AsymmetricSignDigest");
	return TEE_ERROR_NOT_SUPPORTED;
}

TEE_Result TEE_AsymmetricVerifyDigest(TEE_OperationHandle operation, const TEE_Attribute *params,
				      uint32_t paramCount, const void *digest, size_t digestLen,
				      const void *signature, size_t signatureLen)
{
	(void)params, (void)paramCount, (void)digest, (void)digestLen, (void)signature;
	(void)signatureLen;
	no_asym_op(operation, "TEE_AsymmetricVerifyDigest");
	return TEE_ERROR_NOT_SUPPORTED;
}

void TEE_DeriveKey(TEE_OperationHandle operation, const TEE_Attribute *params, uint32_t paramCount,
		   TEE_ObjectHandle derivedKey)
{
	(void)params, (void)paramCount, (void)derivedKey;
	no_asym_op(operation, "TEE_DeriveKey");
}

TEE_Result __GP11_TEE_AsymmetricEncrypt(TEE_OperationHandle operation,
					const __GP11_TEE_Attribute *params, uint32_t paramCount,
					const void *srcData, uint32_t srcLen, void *destData,
					uint32_t *destLen)
{
	(void)params, (void)paramCount, (void)srcData, (void)srcLen, (void)destData, (void)destLen;
	no_asym_op(operation, "__GP11_TEE_AsymmetricEncrypt");
	return TEE_ERROR_NOT_SUPPORTED;
}

TEE_Result __GP11_TEE_AsymmetricDecrypt(TEE_OperationHandle operation,
					const __GP11_TEE_Attribute *params, uint32_t paramCount,
					const void *srcData, uint32_t srcLen, void *destData,
					uint32_t *destLen)
{
	(void)params, (void)paramCount, (void)srcData, (void)srcLen, (void)destData, (void)destLen;
	no_asym_op(operation, "__GP11_TEE_AsymmetricDecrypt");
	return TEE_ERROR_NOT_SUPPORTED;
}

TEE_Result __GP11_TEE_AsymmetricSignDigest(TEE_OperationHandle operation,
					   const __GP11_TEE_Attribute *params, uint32_t paramCount,
					   const void *digest, uint32_t digestLen, void *signature,
					   uint32_t *signatureLen)
{
	(void)params, (void)paramCount, (void)digest, (void)digestLen, (void)signature;
	(void)signatureLen;
	no_asym_op(operation, "__GP11_TEE_AsymmetricSignDigest");
	return TEE_ERROR_NOT_SUPPORTED;
}

TEE_Result __GP11_TEE_AsymmetricVerifyDigest(TEE_OperationHandle operation,
					     const __GP11_TEE_Attribute *params,
					     uint32_t paramCount, const void *digest,
					     uint32_t digestLen, const void *signature,
					     uint32_t signatureLen)
{
	(void)params, (void)paramCount, (void)digest, (void)digestLen, (void)signature;
	(void)signatureLen;
	no_asym_op(operation, "__GP11_TEE_AsymmetricVerifyDigest");
	return TEE_ERROR_NOT_SUPPORTED;
}

void __GP11_TEE_DeriveKey(TEE_OperationHandle operation, const __GP11_TEE_Attribute *params,
			  uint32_t paramCount, TEE_ObjectHandle derivedKey)
{
	(void)params, (void)paramCount, (void)derivedKey;
	no_asym_op(operation, "__GP11_TEE_DeriveKey");
}
