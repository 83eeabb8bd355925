/*
 * The GP 1.1 twins (__GP11_*, tee_api_compat.h) of the object and
 * crypto functions: 32-bit lengths and the 1.1 layouts of
 * TEE_Attribute and TEE_ObjectInfo, converted to and from the 1.3.1 calls.
 * Where 1.1 behaves differently it is said at the function (the key
 * setters and __GP11_TEE_FreeOperation are in tee_api_operation.c).
 */
#include <stdlib.h>
#include <string.h>

#include "object.h"
#include "operation.h"
#include "runtime.h"

/* A 1.3.1 copy of 1.1 attributes; panics on a NULL array or no memory. */
static TEE_Attribute *attrs_from_gp11(const __GP11_TEE_Attribute *attrs, uint32_t count,
				      const char *func)
{
	TEE_Attribute *a = NULL;

	if (!count)
		return NULL;
	if (!attrs)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	a = calloc(count, sizeof(*a));
	if (!a)
		rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
	for (uint32_t i = 0; i < count; i++) {
		a[i].attributeID = attrs[i].attributeID;
		if (attrs[i].attributeID & TEE_ATTR_FLAG_VALUE) {
			a[i].content.value.a = attrs[i].content.value.a;
			a[i].content.value.b = attrs[i].content.value.b;
		} else {
			a[i].content.ref.buffer = attrs[i].content.ref.buffer;
			a[i].content.ref.length = attrs[i].content.ref.length;
		}
	}
	return a;
}

static void info_to_gp11(const TEE_ObjectInfo *in, __GP11_TEE_ObjectInfo *out)
{
	out->objectType = in->objectType;
	out->objectSize = in->objectSize;
	out->maxObjectSize = in->maxObjectSize;
	out->objectUsage = in->objectUsage;
	out->dataSize = (uint32_t)in->dataSize;
	out->dataPosition = (uint32_t)in->dataPosition;
	out->handleFlags = in->handleFlags;
}

/* *len as a size_t; panics on a NULL pointer. */
static size_t len_in(const uint32_t *len, const char *func)
{
	if (!len)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return *len;
}

void __GP11_TEE_GetObjectInfo(TEE_ObjectHandle object, __GP11_TEE_ObjectInfo *objectInfo)
{
	TEE_ObjectInfo info;

	if (!objectInfo)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "__GP11_TEE_GetObjectInfo");
	TEE_GetObjectInfo(object, &info);
	info_to_gp11(&info, objectInfo);
}

TEE_Result __GP11_TEE_GetObjectInfo1(TEE_ObjectHandle object, __GP11_TEE_ObjectInfo *objectInfo)
{
	TEE_ObjectInfo info;
	TEE_Result res = TEE_SUCCESS;

	if (!objectInfo)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "__GP11_TEE_GetObjectInfo1");
	res = TEE_GetObjectInfo1(object, &info);
	info_to_gp11(&info, objectInfo);
	return res;
}

TEE_Result __GP11_TEE_GetObjectBufferAttribute(TEE_ObjectHandle object, uint32_t attributeID,
					       void *buffer, uint32_t *size)
{
	size_t n = len_in(size, "__GP11_TEE_GetObjectBufferAttribute");
	TEE_Result res = TEE_GetObjectBufferAttribute(object, attributeID, buffer, &n);

	*size = (uint32_t)n;
	return res;
}

TEE_Result __GP11_TEE_AllocateTransientObject(TEE_ObjectType objectType, uint32_t maxKeySize,
					      TEE_ObjectHandle *object)
{
	/* 1.1 had no TEE_TYPE_DATA rule; it fails the same way here. */
	return TEE_AllocateTransientObject(objectType, maxKeySize, object);
}

TEE_Result __GP11_TEE_PopulateTransientObject(TEE_ObjectHandle object,
					      const __GP11_TEE_Attribute *attrs, uint32_t attrCount)
{
	TEE_Attribute *a = attrs_from_gp11(attrs, attrCount, "__GP11_TEE_PopulateTransientObject");
	TEE_Result res = TEE_PopulateTransientObject(object, a, attrCount);

	free(a);
	return res;
}

void __GP11_TEE_InitRefAttribute(__GP11_TEE_Attribute *attr, uint32_t attributeID,
				 const void *buffer, uint32_t length)
{
	if (!attr || (attributeID & TEE_ATTR_FLAG_VALUE))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "__GP11_TEE_InitRefAttribute");
	attr->attributeID = attributeID;
	attr->content.ref.buffer = (void *)buffer;
	attr->content.ref.length = length;
}

void __GP11_TEE_InitValueAttribute(__GP11_TEE_Attribute *attr, uint32_t attributeID, uint32_t a,
				   uint32_t b)
{
	if (!attr || !(attributeID & TEE_ATTR_FLAG_VALUE))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "__GP11_TEE_InitValueAttribute");
	attr->attributeID = attributeID;
	attr->content.value.a = a;
	attr->content.value.b = b;
}

TEE_Result __GP11_TEE_GenerateKey(TEE_ObjectHandle object, uint32_t keySize,
				  const __GP11_TEE_Attribute *params, uint32_t paramCount)
{
	TEE_Attribute *a = attrs_from_gp11(params, paramCount, "__GP11_TEE_GenerateKey");
	TEE_Result res = TEE_GenerateKey(object, keySize, a, paramCount);

	free(a);
	return res;
}

void __GP11_TEE_DigestUpdate(TEE_OperationHandle operation, const void *chunk, uint32_t chunkSize)
{
	TEE_DigestUpdate(operation, chunk, chunkSize);
}

TEE_Result __GP11_TEE_DigestDoFinal(TEE_OperationHandle operation, const void *chunk,
				    uint32_t chunkLen, void *hash, uint32_t *hashLen)
{
	size_t n = len_in(hashLen, "__GP11_TEE_DigestDoFinal");
	TEE_Result res = TEE_DigestDoFinal(operation, chunk, chunkLen, hash, &n);

	*hashLen = (uint32_t)n;
	return res;
}

void __GP11_TEE_CipherInit(TEE_OperationHandle operation, const void *IV, uint32_t IVLen)
{
	TEE_CipherInit(operation, IV, IVLen);
}

TEE_Result __GP11_TEE_CipherUpdate(TEE_OperationHandle operation, const void *srcData,
				   uint32_t srcLen, void *destData, uint32_t *destLen)
{
	size_t n = len_in(destLen, "__GP11_TEE_CipherUpdate");
	TEE_Result res = TEE_CipherUpdate(operation, srcData, srcLen, destData, &n);

	*destLen = (uint32_t)n;
	return res;
}

TEE_Result __GP11_TEE_CipherDoFinal(TEE_OperationHandle operation, const void *srcData,
				    uint32_t srcLen, void *destData, uint32_t *destLen)
{
	size_t n = destLen ? *destLen : 0;
	TEE_Result res = TEE_CipherDoFinal(operation, srcData, srcLen, destData, &n);

	if (destLen)
		*destLen = (uint32_t)n;
	return res;
}

void __GP11_TEE_MACInit(TEE_OperationHandle operation, const void *IV, uint32_t IVLen)
{
	TEE_MACInit(operation, IV, IVLen);
}

void __GP11_TEE_MACUpdate(TEE_OperationHandle operation, const void *chunk, uint32_t chunkSize)
{
	TEE_MACUpdate(operation, chunk, chunkSize);
}

TEE_Result __GP11_TEE_MACComputeFinal(TEE_OperationHandle operation, const void *message,
				      uint32_t messageLen, void *mac, uint32_t *macLen)
{
	size_t n = len_in(macLen, "__GP11_TEE_MACComputeFinal");
	TEE_Result res = TEE_MACComputeFinal(operation, message, messageLen, mac, &n);

	*macLen = (uint32_t)n;
	return res;
}

TEE_Result __GP11_TEE_MACCompareFinal(TEE_OperationHandle operation, const void *message,
				      uint32_t messageLen, const void *mac, uint32_t macLen)
{
	return TEE_MACCompareFinal(operation, message, messageLen, mac, macLen);
}

TEE_Result __GP11_TEE_AEInit(TEE_OperationHandle operation, const void *nonce, uint32_t nonceLen,
			     uint32_t tagLen, uint32_t AADLen, uint32_t payloadLen)
{
	return TEE_AEInit(operation, nonce, nonceLen, tagLen, AADLen, payloadLen);
}

void __GP11_TEE_AEUpdateAAD(TEE_OperationHandle operation, const void *AADdata, uint32_t AADdataLen)
{
	TEE_AEUpdateAAD(operation, AADdata, AADdataLen);
}

TEE_Result __GP11_TEE_AEUpdate(TEE_OperationHandle operation, const void *srcData, uint32_t srcLen,
			       void *destData, uint32_t *destLen)
{
	size_t n = len_in(destLen, "__GP11_TEE_AEUpdate");
	TEE_Result res = TEE_AEUpdate(operation, srcData, srcLen, destData, &n);

	*destLen = (uint32_t)n;
	return res;
}

TEE_Result __GP11_TEE_AEEncryptFinal(TEE_OperationHandle operation, const void *srcData,
				     uint32_t srcLen, void *destData, uint32_t *destLen, void *tag,
				     uint32_t *tagLen)
{
	size_t dl = len_in(destLen, "__GP11_TEE_AEEncryptFinal");
	size_t tl = len_in(tagLen, "__GP11_TEE_AEEncryptFinal");
	TEE_Result res = TEE_AEEncryptFinal(operation, srcData, srcLen, destData, &dl, tag, &tl);

	*destLen = (uint32_t)dl;
	*tagLen = (uint32_t)tl;
	return res;
}

TEE_Result __GP11_TEE_AEDecryptFinal(TEE_OperationHandle operation, const void *srcData,
				     uint32_t srcLen, void *destData, uint32_t *destLen, void *tag,
				     uint32_t tagLen)
{
	size_t n = len_in(destLen, "__GP11_TEE_AEDecryptFinal");
	TEE_Result res = TEE_AEDecryptFinal(operation, srcData, srcLen, destData, &n, tag, tagLen);

	*destLen = (uint32_t)n;
	return res;
}

void __GP11_TEE_GenerateRandom(void *randomBuffer, uint32_t randomBufferLen)
{
	TEE_GenerateRandom(randomBuffer, randomBufferLen);
}

/* GP 1.1 allows only SHORT_BUFFER and BAD_PARAMETERS from encryption and decryption. */
static TEE_Result gp11_crypt_result(TEE_Result res)
{
	if (res == TEE_ERROR_CIPHERTEXT_INVALID || res == TEE_ERROR_NOT_SUPPORTED)
		return TEE_ERROR_BAD_PARAMETERS;
	return res;
}

TEE_Result __GP11_TEE_AsymmetricEncrypt(TEE_OperationHandle operation,
					const __GP11_TEE_Attribute *params, uint32_t paramCount,
					const void *srcData, uint32_t srcLen, void *destData,
					uint32_t *destLen)
{
	static const char func[] = "__GP11_TEE_AsymmetricEncrypt";
	size_t n = len_in(destLen, func);
	TEE_Attribute *a = attrs_from_gp11(params, paramCount, func);
	TEE_Result res =
	    TEE_AsymmetricEncrypt(operation, a, paramCount, srcData, srcLen, destData, &n);

	free(a);
	*destLen = (uint32_t)n;
	return gp11_crypt_result(res);
}

TEE_Result __GP11_TEE_AsymmetricDecrypt(TEE_OperationHandle operation,
					const __GP11_TEE_Attribute *params, uint32_t paramCount,
					const void *srcData, uint32_t srcLen, void *destData,
					uint32_t *destLen)
{
	static const char func[] = "__GP11_TEE_AsymmetricDecrypt";
	size_t n = len_in(destLen, func);
	TEE_Attribute *a = attrs_from_gp11(params, paramCount, func);
	TEE_Result res =
	    TEE_AsymmetricDecrypt(operation, a, paramCount, srcData, srcLen, destData, &n);

	free(a);
	*destLen = (uint32_t)n;
	return gp11_crypt_result(res);
}

TEE_Result __GP11_TEE_AsymmetricSignDigest(TEE_OperationHandle operation,
					   const __GP11_TEE_Attribute *params, uint32_t paramCount,
					   const void *digest, uint32_t digestLen, void *signature,
					   uint32_t *signatureLen)
{
	static const char func[] = "__GP11_TEE_AsymmetricSignDigest";
	size_t n = len_in(signatureLen, func);
	TEE_Attribute *a = attrs_from_gp11(params, paramCount, func);
	TEE_Result res =
	    TEE_AsymmetricSignDigest(operation, a, paramCount, digest, digestLen, signature, &n);

	free(a);
	*signatureLen = (uint32_t)n;
	return res;
}

TEE_Result __GP11_TEE_AsymmetricVerifyDigest(TEE_OperationHandle operation,
					     const __GP11_TEE_Attribute *params,
					     uint32_t paramCount, const void *digest,
					     uint32_t digestLen, const void *signature,
					     uint32_t signatureLen)
{
	TEE_Attribute *a = attrs_from_gp11(params, paramCount, "__GP11_TEE_AsymmetricVerifyDigest");
	TEE_Result res = TEE_AsymmetricVerifyDigest(operation, a, paramCount, digest, digestLen,
						    signature, signatureLen);

	free(a);
	return res;
}

void __GP11_TEE_DeriveKey(TEE_OperationHandle operation, const __GP11_TEE_Attribute *params,
			  uint32_t paramCount, TEE_ObjectHandle derivedKey)
{
	TEE_Attribute *a = attrs_from_gp11(params, paramCount, "__GP11_TEE_DeriveKey");

	TEE_DeriveKey(operation, a, paramCount, derivedKey);
	free(a);
}
