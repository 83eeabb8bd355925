/*
 * GP TEE Internal Core API 1.1 compatibility layer.
 *
 * Every function whose signature changed after GP 1.1 (mostly uint32_t
 * lengths that became size_t, and the TEE_Param, TEE_Attribute and
 * TEE_ObjectInfo layouts) also exists under a __GP11_ name with the 1.1
 * signature. When __OPTEE_CORE_API_COMPAT_1_1 is non-zero the standard names
 * are mapped to those twins, so a TA written for 1.1 builds unchanged.
 *
 * The 1.1 behaviour differs in places too: __GP11_TEE_FreeOperation panics
 * on TEE_HANDLE_NULL, __GP11_TEE_SetOperationKey{,2} panic unless the
 * operation is in its initial state, and __GP11_TEE_Asymmetric{En,De}crypt
 * return only TEE_ERROR_SHORT_BUFFER and TEE_ERROR_BAD_PARAMETERS.
 */
#ifndef TEE_API_COMPAT_H
#define TEE_API_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_api_defines.h>
#include <tee_api_types.h>

/* TA interface */

TEE_Result __GP11_TA_OpenSessionEntryPoint(uint32_t paramTypes,
					   __GP11_TEE_Param params[TEE_NUM_PARAMS],
					   void **sessionContext);
TEE_Result __GP11_TA_InvokeCommandEntryPoint(void *sessionContext, uint32_t commandID,
					     uint32_t paramTypes,
					     __GP11_TEE_Param params[TEE_NUM_PARAMS]);

/* Property access */

TEE_Result __GP11_TEE_GetPropertyAsString(TEE_PropSetHandle propsetOrEnumerator, const char *name,
					  char *valueBuffer, uint32_t *valueBufferLen);
TEE_Result __GP11_TEE_GetPropertyAsBinaryBlock(TEE_PropSetHandle propsetOrEnumerator,
					       const char *name, void *valueBuffer,
					       uint32_t *valueBufferLen);
TEE_Result __GP11_TEE_GetPropertyName(TEE_PropSetHandle enumerator, void *nameBuffer,
				      uint32_t *nameBufferLen);

/* Internal Client API */

TEE_Result __GP11_TEE_OpenTASession(const TEE_UUID *destination,
				    uint32_t cancellationRequestTimeout, uint32_t paramTypes,
				    __GP11_TEE_Param params[TEE_NUM_PARAMS],
				    TEE_TASessionHandle *session, uint32_t *returnOrigin);
TEE_Result __GP11_TEE_InvokeTACommand(TEE_TASessionHandle session,
				      uint32_t cancellationRequestTimeout, uint32_t commandID,
				      uint32_t paramTypes, __GP11_TEE_Param params[TEE_NUM_PARAMS],
				      uint32_t *returnOrigin);

/* Memory management */

TEE_Result __GP11_TEE_CheckMemoryAccessRights(uint32_t accessFlags, void *buffer, uint32_t size);
void *__GP11_TEE_Malloc(uint32_t size, uint32_t hint);
void *__GP11_TEE_Realloc(void *buffer, uint32_t newSize);
void __GP11_TEE_MemMove(void *dest, const void *src, uint32_t size);
int32_t __GP11_TEE_MemCompare(const void *buffer1, const void *buffer2, uint32_t size);
void __GP11_TEE_MemFill(void *buff, uint32_t x, uint32_t size);

/* Trusted Storage */

void __GP11_TEE_GetObjectInfo(TEE_ObjectHandle object, __GP11_TEE_ObjectInfo *objectInfo);
TEE_Result __GP11_TEE_GetObjectInfo1(TEE_ObjectHandle object, __GP11_TEE_ObjectInfo *objectInfo);
TEE_Result __GP11_TEE_GetObjectBufferAttribute(TEE_ObjectHandle object, uint32_t attributeID,
					       void *buffer, uint32_t *size);
TEE_Result __GP11_TEE_AllocateTransientObject(TEE_ObjectType objectType, uint32_t maxKeySize,
					      TEE_ObjectHandle *object);
TEE_Result __GP11_TEE_PopulateTransientObject(TEE_ObjectHandle object,
					      const __GP11_TEE_Attribute *attrs,
					      uint32_t attrCount);
void __GP11_TEE_InitRefAttribute(__GP11_TEE_Attribute *attr, uint32_t attributeID,
				 const void *buffer, uint32_t length);
void __GP11_TEE_InitValueAttribute(__GP11_TEE_Attribute *attr, uint32_t attributeID, uint32_t a,
				   uint32_t b);
TEE_Result __GP11_TEE_GenerateKey(TEE_ObjectHandle object, uint32_t keySize,
				  const __GP11_TEE_Attribute *params, uint32_t paramCount);
TEE_Result __GP11_TEE_OpenPersistentObject(uint32_t storageID, const void *objectID,
					   uint32_t objectIDLen, uint32_t flags,
					   TEE_ObjectHandle *object);
TEE_Result __GP11_TEE_CreatePersistentObject(uint32_t storageID, const void *objectID,
					     uint32_t objectIDLen, uint32_t flags,
					     TEE_ObjectHandle attributes, const void *initialData,
					     uint32_t initialDataLen, TEE_ObjectHandle *object);
TEE_Result __GP11_TEE_RenamePersistentObject(TEE_ObjectHandle object, const void *newObjectID,
					     uint32_t newObjectIDLen);
TEE_Result __GP11_TEE_GetNextPersistentObject(TEE_ObjectEnumHandle objectEnumerator,
					      __GP11_TEE_ObjectInfo *objectInfo, void *objectID,
					      uint32_t *objectIDLen);
TEE_Result __GP11_TEE_ReadObjectData(TEE_ObjectHandle object, void *buffer, uint32_t size,
				     uint32_t *count);
TEE_Result __GP11_TEE_WriteObjectData(TEE_ObjectHandle object, const void *buffer, uint32_t size);
TEE_Result __GP11_TEE_TruncateObjectData(TEE_ObjectHandle object, uint32_t size);
TEE_Result __GP11_TEE_SeekObjectData(TEE_ObjectHandle object, int32_t offset, TEE_Whence whence);

/* Cryptographic operations */

void __GP11_TEE_FreeOperation(TEE_OperationHandle operation);
TEE_Result __GP11_TEE_GetOperationInfoMultiple(TEE_OperationHandle operation,
					       TEE_OperationInfoMultiple *operationInfoMultiple,
					       uint32_t *operationSize);
TEE_Result __GP11_TEE_SetOperationKey(TEE_OperationHandle operation, TEE_ObjectHandle key);
TEE_Result __GP11_TEE_SetOperationKey2(TEE_OperationHandle operation, TEE_ObjectHandle key1,
				       TEE_ObjectHandle key2);
void __GP11_TEE_DigestUpdate(TEE_OperationHandle operation, const void *chunk, uint32_t chunkSize);
TEE_Result __GP11_TEE_DigestDoFinal(TEE_OperationHandle operation, const void *chunk,
				    uint32_t chunkLen, void *hash, uint32_t *hashLen);
void __GP11_TEE_CipherInit(TEE_OperationHandle operation, const void *IV, uint32_t IVLen);
TEE_Result __GP11_TEE_CipherUpdate(TEE_OperationHandle operation, const void *srcData,
				   uint32_t srcLen, void *destData, uint32_t *destLen);
TEE_Result __GP11_TEE_CipherDoFinal(TEE_OperationHandle operation, const void *srcData,
				    uint32_t srcLen, void *destData, uint32_t *destLen);
void __GP11_TEE_MACInit(TEE_OperationHandle operation, const void *IV, uint32_t IVLen);
void __GP11_TEE_MACUpdate(TEE_OperationHandle operation, const void *chunk, uint32_t chunkSize);
TEE_Result __GP11_TEE_MACComputeFinal(TEE_OperationHandle operation, const void *message,
				      uint32_t messageLen, void *mac, uint32_t *macLen);
TEE_Result __GP11_TEE_MACCompareFinal(TEE_OperationHandle operation, const void *message,
				      uint32_t messageLen, const void *mac, uint32_t macLen);
TEE_Result __GP11_TEE_AEInit(TEE_OperationHandle operation, const void *nonce, uint32_t nonceLen,
			     uint32_t tagLen, uint32_t AADLen, uint32_t payloadLen);
void __GP11_TEE_AEUpdateAAD(TEE_OperationHandle operation, const void *AADdata,
			    uint32_t AADdataLen);
TEE_Result __GP11_TEE_AEUpdate(TEE_OperationHandle operation, const void *srcData, uint32_t srcLen,
			       void *destData, uint32_t *destLen);
TEE_Result __GP11_TEE_AEEncryptFinal(TEE_OperationHandle operation, const void *srcData,
				     uint32_t srcLen, void *destData, uint32_t *destLen, void *tag,
				     uint32_t *tagLen);
TEE_Result __GP11_TEE_AEDecryptFinal(TEE_OperationHandle operation, const void *srcData,
				     uint32_t srcLen, void *destData, uint32_t *destLen, void *tag,
				     uint32_t tagLen);
TEE_Result __GP11_TEE_AsymmetricEncrypt(TEE_OperationHandle operation,
					const __GP11_TEE_Attribute *params, uint32_t paramCount,
					const void *srcData, uint32_t srcLen, void *destData,
					uint32_t *destLen);
TEE_Result __GP11_TEE_AsymmetricDecrypt(TEE_OperationHandle operation,
					const __GP11_TEE_Attribute *params, uint32_t paramCount,
					const void *srcData, uint32_t srcLen, void *destData,
					uint32_t *destLen);
TEE_Result __GP11_TEE_AsymmetricSignDigest(TEE_OperationHandle operation,
					   const __GP11_TEE_Attribute *params, uint32_t paramCount,
					   const void *digest, uint32_t digestLen, void *signature,
					   uint32_t *signatureLen);
TEE_Result __GP11_TEE_AsymmetricVerifyDigest(TEE_OperationHandle operation,
					     const __GP11_TEE_Attribute *params,
					     uint32_t paramCount, const void *digest,
					     uint32_t digestLen, const void *signature,
					     uint32_t signatureLen);
void __GP11_TEE_DeriveKey(TEE_OperationHandle operation, const __GP11_TEE_Attribute *params,
			  uint32_t paramCount, TEE_ObjectHandle derivedKey);
void __GP11_TEE_GenerateRandom(void *randomBuffer, uint32_t randomBufferLen);

/* Arithmetical API */

uint32_t __GP11_TEE_BigIntFMMSizeInU32(uint32_t modulusSizeInBits);
uint32_t __GP11_TEE_BigIntFMMContextSizeInU32(uint32_t modulusSizeInBits);
/* Declared for completeness; TEE_BigIntInit is not mapped to it (as OP-TEE). */
void __GP11_TEE_BigIntInit(TEE_BigInt *bigInt, uint32_t len);
void __GP11_TEE_BigIntInitFMMContext(TEE_BigIntFMMContext *context, uint32_t len,
				     const TEE_BigInt *modulus);
void __GP11_TEE_BigIntInitFMM(TEE_BigIntFMM *bigIntFMM, uint32_t len);
TEE_Result __GP11_TEE_BigIntConvertFromOctetString(TEE_BigInt *dest, const uint8_t *buffer,
						   uint32_t bufferLen, int32_t sign);
TEE_Result __GP11_TEE_BigIntConvertToOctetString(uint8_t *buffer, uint32_t *bufferLen,
						 const TEE_BigInt *bigInt);
void __GP11_TEE_BigIntShiftRight(TEE_BigInt *dest, const TEE_BigInt *op, uint32_t bits);

#if __OPTEE_CORE_API_COMPAT_1_1

/* Types */
#define TEE_Attribute __GP11_TEE_Attribute
#define TEE_ObjectInfo __GP11_TEE_ObjectInfo
#define TEE_Param __GP11_TEE_Param

/* TA interface: the runtime reaches these through wrappers in user_ta_header.c */
#define TA_InvokeCommandEntryPoint __GP11_TA_InvokeCommandEntryPoint
#define TA_OpenSessionEntryPoint __GP11_TA_OpenSessionEntryPoint

/* Functions */
#define TEE_AEDecryptFinal __GP11_TEE_AEDecryptFinal
#define TEE_AEEncryptFinal __GP11_TEE_AEEncryptFinal
#define TEE_AEInit __GP11_TEE_AEInit
#define TEE_AEUpdateAAD __GP11_TEE_AEUpdateAAD
#define TEE_AEUpdate __GP11_TEE_AEUpdate
#define TEE_AllocateTransientObject __GP11_TEE_AllocateTransientObject
#define TEE_AsymmetricDecrypt __GP11_TEE_AsymmetricDecrypt
#define TEE_AsymmetricEncrypt __GP11_TEE_AsymmetricEncrypt
#define TEE_AsymmetricSignDigest __GP11_TEE_AsymmetricSignDigest
#define TEE_AsymmetricVerifyDigest __GP11_TEE_AsymmetricVerifyDigest
#define TEE_BigIntConvertFromOctetString __GP11_TEE_BigIntConvertFromOctetString
#define TEE_BigIntConvertToOctetString __GP11_TEE_BigIntConvertToOctetString
#define TEE_BigIntFMMContextSizeInU32 __GP11_TEE_BigIntFMMContextSizeInU32
#define TEE_BigIntFMMSizeInU32 __GP11_TEE_BigIntFMMSizeInU32
#define TEE_BigIntInitFMMContext __GP11_TEE_BigIntInitFMMContext
#define TEE_BigIntInitFMM __GP11_TEE_BigIntInitFMM
#define TEE_BigIntShiftRight __GP11_TEE_BigIntShiftRight
#define TEE_CheckMemoryAccessRights __GP11_TEE_CheckMemoryAccessRights
#define TEE_CipherDoFinal __GP11_TEE_CipherDoFinal
#define TEE_CipherInit __GP11_TEE_CipherInit
#define TEE_CipherUpdate __GP11_TEE_CipherUpdate
#define TEE_CreatePersistentObject __GP11_TEE_CreatePersistentObject
#define TEE_DeriveKey __GP11_TEE_DeriveKey
#define TEE_DigestDoFinal __GP11_TEE_DigestDoFinal
#define TEE_DigestUpdate __GP11_TEE_DigestUpdate
#define TEE_FreeOperation __GP11_TEE_FreeOperation
#define TEE_GenerateKey __GP11_TEE_GenerateKey
#define TEE_GenerateRandom __GP11_TEE_GenerateRandom
#define TEE_GetNextPersistentObject __GP11_TEE_GetNextPersistentObject
#define TEE_GetObjectBufferAttribute __GP11_TEE_GetObjectBufferAttribute
#define TEE_GetObjectInfo1 __GP11_TEE_GetObjectInfo1
#define TEE_GetObjectInfo __GP11_TEE_GetObjectInfo
#define TEE_GetOperationInfoMultiple __GP11_TEE_GetOperationInfoMultiple
#define TEE_GetPropertyAsBinaryBlock __GP11_TEE_GetPropertyAsBinaryBlock
#define TEE_GetPropertyAsString __GP11_TEE_GetPropertyAsString
#define TEE_GetPropertyName __GP11_TEE_GetPropertyName
#define TEE_InitRefAttribute __GP11_TEE_InitRefAttribute
#define TEE_InitValueAttribute __GP11_TEE_InitValueAttribute
#define TEE_InvokeTACommand __GP11_TEE_InvokeTACommand
#define TEE_MACCompareFinal __GP11_TEE_MACCompareFinal
#define TEE_MACComputeFinal __GP11_TEE_MACComputeFinal
#define TEE_MACInit __GP11_TEE_MACInit
#define TEE_MACUpdate __GP11_TEE_MACUpdate
#define TEE_Malloc __GP11_TEE_Malloc
#define TEE_MemCompare __GP11_TEE_MemCompare
#define TEE_MemFill __GP11_TEE_MemFill
#define TEE_MemMove __GP11_TEE_MemMove
#define TEE_OpenPersistentObject __GP11_TEE_OpenPersistentObject
#define TEE_OpenTASession __GP11_TEE_OpenTASession
#define TEE_PopulateTransientObject __GP11_TEE_PopulateTransientObject
#define TEE_ReadObjectData __GP11_TEE_ReadObjectData
#define TEE_Realloc __GP11_TEE_Realloc
#define TEE_RenamePersistentObject __GP11_TEE_RenamePersistentObject
#define TEE_SeekObjectData __GP11_TEE_SeekObjectData
#define TEE_SetOperationKey2 __GP11_TEE_SetOperationKey2
#define TEE_SetOperationKey __GP11_TEE_SetOperationKey
#define TEE_TruncateObjectData __GP11_TEE_TruncateObjectData
#define TEE_WriteObjectData __GP11_TEE_WriteObjectData

#endif /* __OPTEE_CORE_API_COMPAT_1_1 */

#endif /* TEE_API_COMPAT_H */
