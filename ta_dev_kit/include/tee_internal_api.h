/*
 * GlobalPlatform TEE Internal Core API v1.3.1: the entry points a Trusted
 * Application implements and the functions the TA runtime provides to it.
 *
 * Unless a declaration says otherwise, a function returns only the codes
 * the GP specification lists for it; any other failure, and any misuse
 * (bad handle, wrong state, buffers that break the parameter annotations),
 * panics the TA and its clients see TEE_ERROR_TARGET_DEAD.
 *
 * A TA built with __OPTEE_CORE_API_COMPAT_1_1 (or that requires version
 * 1.1, see tee_api_defines.h) gets the GP 1.1 signatures instead, through
 * tee_api_compat.h included at the end.
 */
#ifndef TEE_INTERNAL_API_H
#define TEE_INTERNAL_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <compiler.h>
#include <tee_api_defines.h>
#include <tee_api_types.h>
/* TAs written for OP-TEE use the log macros after including only this header. */
#include <trace.h>

/*
 * Marks the TA entry points. They must be visible to the runtime even in a
 * TA built with -fvisibility=hidden.
 */
#ifndef TA_EXPORT
#define TA_EXPORT __attribute__((visibility("default")))
#endif

/* TA interface: implemented by the TA, called by the runtime */

/* Once per instance, before the first session opens. */
TEE_Result TA_EXPORT TA_CreateEntryPoint(void);

/* Once per instance, after the last session closes. */
void TA_EXPORT TA_DestroyEntryPoint(void);

/*
 * *sessionContext is stored and handed back to the other entry points of
 * the session. An error here fails TEEC_OpenSession with origin
 * TEE_ORIGIN_TRUSTED_APP and no session is created.
 */
TEE_Result TA_EXPORT TA_OpenSessionEntryPoint(uint32_t paramTypes, TEE_Param params[TEE_NUM_PARAMS],
					      void **sessionContext);

void TA_EXPORT TA_CloseSessionEntryPoint(void *sessionContext);

TEE_Result TA_EXPORT TA_InvokeCommandEntryPoint(void *sessionContext, uint32_t commandID,
						uint32_t paramTypes,
						TEE_Param params[TEE_NUM_PARAMS]);

/* Property access */

/*
 * propsetOrEnumerator is a TEE_PROPSET_* pseudo-handle (name selects the
 * property) or an enumerator (name is ignored, the current one is read).
 * Lengths are in/out: buffer size on entry, bytes needed or written on
 * return, including the NUL for strings; TEE_ERROR_SHORT_BUFFER if too small.
 */
TEE_Result TEE_GetPropertyAsString(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				   char *valueBuffer, size_t *valueBufferLen);
TEE_Result TEE_GetPropertyAsBool(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				 bool *value);
TEE_Result TEE_GetPropertyAsU32(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				uint32_t *value);
TEE_Result TEE_GetPropertyAsU64(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				uint64_t *value);
TEE_Result TEE_GetPropertyAsBinaryBlock(TEE_PropSetHandle propsetOrEnumerator, const char *name,
					void *valueBuffer, size_t *valueBufferLen);
TEE_Result TEE_GetPropertyAsUUID(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				 TEE_UUID *value);
TEE_Result TEE_GetPropertyAsIdentity(TEE_PropSetHandle propsetOrEnumerator, const char *name,
				     TEE_Identity *value);
TEE_Result TEE_AllocatePropertyEnumerator(TEE_PropSetHandle *enumerator);
void TEE_FreePropertyEnumerator(TEE_PropSetHandle enumerator);
void TEE_StartPropertyEnumerator(TEE_PropSetHandle enumerator, TEE_PropSetHandle propSet);
void TEE_ResetPropertyEnumerator(TEE_PropSetHandle enumerator);
TEE_Result TEE_GetPropertyName(TEE_PropSetHandle enumerator, void *nameBuffer,
			       size_t *nameBufferLen);
TEE_Result TEE_GetNextProperty(TEE_PropSetHandle enumerator);

/* Panic: ends the TA instance; panicCode is only informative. */
void TEE_Panic(TEE_Result panicCode) __attribute__((noreturn));

/* Internal Client API: sessions from this TA to another TA */

/*
 * Any error code may come back; *returnOrigin says from where. On failure
 * *session is TEE_HANDLE_NULL.
 */
TEE_Result TEE_OpenTASession(const TEE_UUID *destination, uint32_t cancellationRequestTimeout,
			     uint32_t paramTypes, TEE_Param params[TEE_NUM_PARAMS],
			     TEE_TASessionHandle *session, uint32_t *returnOrigin);
void TEE_CloseTASession(TEE_TASessionHandle session);
TEE_Result TEE_InvokeTACommand(TEE_TASessionHandle session, uint32_t cancellationRequestTimeout,
			       uint32_t commandID, uint32_t paramTypes,
			       TEE_Param params[TEE_NUM_PARAMS], uint32_t *returnOrigin);

/* Cancellation */

bool TEE_GetCancellationFlag(void);
/* Both return true if cancellation was masked before the call. */
bool TEE_UnmaskCancellation(void);
bool TEE_MaskCancellation(void);

/* Memory management */

/* TEE_SUCCESS or TEE_ERROR_ACCESS_DENIED only; never panics. */
TEE_Result TEE_CheckMemoryAccessRights(uint32_t accessFlags, void *buffer, size_t size);
void TEE_SetInstanceData(const void *instanceData);
const void *TEE_GetInstanceData(void);
/* hint is TEE_MALLOC_*; returns NULL when out of memory. */
void *TEE_Malloc(size_t size, uint32_t hint);
void *TEE_Realloc(void *buffer, size_t newSize);
void TEE_Free(void *buffer);
void TEE_MemMove(void *dest, const void *src, size_t size);
/* Constant time in size; <0, 0 or >0 like memcmp. */
int32_t TEE_MemCompare(const void *buffer1, const void *buffer2, size_t size);
/* Fills with the low byte of x. */
void TEE_MemFill(void *buff, uint32_t x, size_t size);

/* Trusted Storage: generic object functions */

void TEE_GetObjectInfo(TEE_ObjectHandle object, TEE_ObjectInfo *objectInfo); /* deprecated */
TEE_Result TEE_GetObjectInfo1(TEE_ObjectHandle object, TEE_ObjectInfo *objectInfo);
void TEE_RestrictObjectUsage(TEE_ObjectHandle object, uint32_t objectUsage); /* deprecated */
TEE_Result TEE_RestrictObjectUsage1(TEE_ObjectHandle object, uint32_t objectUsage);
TEE_Result TEE_GetObjectBufferAttribute(TEE_ObjectHandle object, uint32_t attributeID, void *buffer,
					size_t *size);
TEE_Result TEE_GetObjectValueAttribute(TEE_ObjectHandle object, uint32_t attributeID, uint32_t *a,
				       uint32_t *b);
void TEE_CloseObject(TEE_ObjectHandle object);

/* Trusted Storage: transient objects */

TEE_Result TEE_AllocateTransientObject(TEE_ObjectType objectType, uint32_t maxObjectSize,
				       TEE_ObjectHandle *object);
void TEE_FreeTransientObject(TEE_ObjectHandle object);
void TEE_ResetTransientObject(TEE_ObjectHandle object);
TEE_Result TEE_PopulateTransientObject(TEE_ObjectHandle object, const TEE_Attribute *attrs,
				       uint32_t attrCount);
/* attr only refers to buffer; nothing is copied until the attribute is used. */
void TEE_InitRefAttribute(TEE_Attribute *attr, uint32_t attributeID, const void *buffer,
			  size_t length);
void TEE_InitValueAttribute(TEE_Attribute *attr, uint32_t attributeID, uint32_t a, uint32_t b);
void TEE_CopyObjectAttributes(TEE_ObjectHandle destObject,
			      TEE_ObjectHandle srcObject); /* deprecated */
TEE_Result TEE_CopyObjectAttributes1(TEE_ObjectHandle destObject, TEE_ObjectHandle srcObject);
TEE_Result TEE_GenerateKey(TEE_ObjectHandle object, uint32_t keySize, const TEE_Attribute *params,
			   uint32_t paramCount);

/* Trusted Storage: persistent objects */

TEE_Result TEE_OpenPersistentObject(uint32_t storageID, const void *objectID, size_t objectIDLen,
				    uint32_t flags, TEE_ObjectHandle *object);
/*
 * attributes may be TEE_HANDLE_NULL for a pure data object. object may be
 * NULL: the object is then created and closed.
 */
TEE_Result TEE_CreatePersistentObject(uint32_t storageID, const void *objectID, size_t objectIDLen,
				      uint32_t flags, TEE_ObjectHandle attributes,
				      const void *initialData, size_t initialDataLen,
				      TEE_ObjectHandle *object);
void TEE_CloseAndDeletePersistentObject(TEE_ObjectHandle object); /* deprecated */
TEE_Result TEE_CloseAndDeletePersistentObject1(TEE_ObjectHandle object);
TEE_Result TEE_RenamePersistentObject(TEE_ObjectHandle object, const void *newObjectID,
				      size_t newObjectIDLen);

/* Trusted Storage: persistent object enumeration */

TEE_Result TEE_AllocatePersistentObjectEnumerator(TEE_ObjectEnumHandle *objectEnumerator);
void TEE_FreePersistentObjectEnumerator(TEE_ObjectEnumHandle objectEnumerator);
void TEE_ResetPersistentObjectEnumerator(TEE_ObjectEnumHandle objectEnumerator);
TEE_Result TEE_StartPersistentObjectEnumerator(TEE_ObjectEnumHandle objectEnumerator,
					       uint32_t storageID);
/* objectID must have room for TEE_OBJECT_ID_MAX_LEN bytes. */
TEE_Result TEE_GetNextPersistentObject(TEE_ObjectEnumHandle objectEnumerator,
				       TEE_ObjectInfo *objectInfo, void *objectID,
				       size_t *objectIDLen);

/* Trusted Storage: data stream access */

TEE_Result TEE_ReadObjectData(TEE_ObjectHandle object, void *buffer, size_t size, size_t *count);
TEE_Result TEE_WriteObjectData(TEE_ObjectHandle object, const void *buffer, size_t size);
TEE_Result TEE_TruncateObjectData(TEE_ObjectHandle object, size_t size);
TEE_Result TEE_SeekObjectData(TEE_ObjectHandle object, intmax_t offset, TEE_Whence whence);

/* Cryptographic operations: generic */

TEE_Result TEE_AllocateOperation(TEE_OperationHandle *operation, uint32_t algorithm, uint32_t mode,
				 uint32_t maxKeySize);
/* Does nothing for TEE_HANDLE_NULL. */
void TEE_FreeOperation(TEE_OperationHandle operation);
void TEE_GetOperationInfo(TEE_OperationHandle operation, TEE_OperationInfo *operationInfo);
/* *operationSize: bytes available at operationInfoMultiple, then bytes used or needed. */
TEE_Result TEE_GetOperationInfoMultiple(TEE_OperationHandle operation,
					TEE_OperationInfoMultiple *operationInfoMultiple,
					size_t *operationSize);
void TEE_ResetOperation(TEE_OperationHandle operation);
/* Copies the key material; key may be closed afterwards, or TEE_HANDLE_NULL to clear. */
TEE_Result TEE_SetOperationKey(TEE_OperationHandle operation, TEE_ObjectHandle key);
TEE_Result TEE_SetOperationKey2(TEE_OperationHandle operation, TEE_ObjectHandle key1,
				TEE_ObjectHandle key2);
void TEE_CopyOperation(TEE_OperationHandle dstOperation, TEE_OperationHandle srcOperation);
/* element is a TEE_ECC_CURVE_* or TEE_CRYPTO_ELEMENT_NONE. */
TEE_Result TEE_IsAlgorithmSupported(uint32_t algId, uint32_t element);

/* Cryptographic operations: message digest */

void TEE_DigestUpdate(TEE_OperationHandle operation, const void *chunk, size_t chunkSize);
TEE_Result TEE_DigestDoFinal(TEE_OperationHandle operation, const void *chunk, size_t chunkLen,
			     void *hash, size_t *hashLen);
/* Squeezes *hashLen bytes from an extendable-output function (SHAKE). */
TEE_Result TEE_DigestExtract(TEE_OperationHandle operation, void *hash, size_t *hashLen);

/* Cryptographic operations: symmetric cipher */

void TEE_CipherInit(TEE_OperationHandle operation, const void *IV, size_t IVLen);
TEE_Result TEE_CipherUpdate(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			    void *destData, size_t *destLen);
TEE_Result TEE_CipherDoFinal(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			     void *destData, size_t *destLen);

/* Cryptographic operations: MAC */

void TEE_MACInit(TEE_OperationHandle operation, const void *IV, size_t IVLen);
void TEE_MACUpdate(TEE_OperationHandle operation, const void *chunk, size_t chunkSize);
TEE_Result TEE_MACComputeFinal(TEE_OperationHandle operation, const void *message,
			       size_t messageLen, void *mac, size_t *macLen);
/* Compares in constant time; TEE_ERROR_MAC_INVALID on mismatch. */
TEE_Result TEE_MACCompareFinal(TEE_OperationHandle operation, const void *message,
			       size_t messageLen, const void *mac, size_t macLen);

/* Cryptographic operations: authenticated encryption */

/* tagLen is in bits; AADLen and payloadLen are needed by CCM only. */
TEE_Result TEE_AEInit(TEE_OperationHandle operation, const void *nonce, size_t nonceLen,
		      uint32_t tagLen, size_t AADLen, size_t payloadLen);
void TEE_AEUpdateAAD(TEE_OperationHandle operation, const void *AADdata, size_t AADdataLen);
TEE_Result TEE_AEUpdate(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			void *destData, size_t *destLen);
TEE_Result TEE_AEEncryptFinal(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			      void *destData, size_t *destLen, void *tag, size_t *tagLen);
/* TEE_ERROR_MAC_INVALID if the tag does not match. */
TEE_Result TEE_AEDecryptFinal(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			      void *destData, size_t *destLen, void *tag, size_t tagLen);

/* Cryptographic operations: asymmetric */

TEE_Result TEE_AsymmetricEncrypt(TEE_OperationHandle operation, const TEE_Attribute *params,
				 uint32_t paramCount, const void *srcData, size_t srcLen,
				 void *destData, size_t *destLen);
TEE_Result TEE_AsymmetricDecrypt(TEE_OperationHandle operation, const TEE_Attribute *params,
				 uint32_t paramCount, const void *srcData, size_t srcLen,
				 void *destData, size_t *destLen);
TEE_Result TEE_AsymmetricSignDigest(TEE_OperationHandle operation, const TEE_Attribute *params,
				    uint32_t paramCount, const void *digest, size_t digestLen,
				    void *signature, size_t *signatureLen);
TEE_Result TEE_AsymmetricVerifyDigest(TEE_OperationHandle operation, const TEE_Attribute *params,
				      uint32_t paramCount, const void *digest, size_t digestLen,
				      const void *signature, size_t signatureLen);

/* Cryptographic operations: key derivation */

void TEE_DeriveKey(TEE_OperationHandle operation, const TEE_Attribute *params, uint32_t paramCount,
		   TEE_ObjectHandle derivedKey);

/* Cryptographic operations: random numbers */

void TEE_GenerateRandom(void *randomBuffer, size_t randomBufferLen);

/* Time */

void TEE_GetSystemTime(TEE_Time *time);
/* timeout in milliseconds or TEE_TIMEOUT_INFINITE; TEE_ERROR_CANCEL if cancelled. */
TEE_Result TEE_Wait(uint32_t timeout);
TEE_Result TEE_GetTAPersistentTime(TEE_Time *time);
TEE_Result TEE_SetTAPersistentTime(const TEE_Time *time);
void TEE_GetREETime(TEE_Time *time);

/*
 * Arithmetical API. Big integers live in caller-provided arrays of
 * TEE_BigIntSizeInU32(bits) words and must be initialised with
 * TEE_BigIntInit before use; len arguments are in uint32_t words.
 */

size_t TEE_BigIntFMMSizeInU32(size_t modulusSizeInBits);
size_t TEE_BigIntFMMContextSizeInU32(size_t modulusSizeInBits);

void TEE_BigIntInit(TEE_BigInt *bigInt, size_t len);
void TEE_BigIntInitFMMContext(TEE_BigIntFMMContext *context, size_t len, const TEE_BigInt *modulus);
TEE_Result TEE_BigIntInitFMMContext1(TEE_BigIntFMMContext *context, size_t len,
				     const TEE_BigInt *modulus);
void TEE_BigIntInitFMM(TEE_BigIntFMM *bigIntFMM, size_t len);

/* buffer is big-endian magnitude; sign < 0 makes the result negative. */
TEE_Result TEE_BigIntConvertFromOctetString(TEE_BigInt *dest, const uint8_t *buffer,
					    size_t bufferLen, int32_t sign);
/* Writes the big-endian magnitude; the sign is dropped. */
TEE_Result TEE_BigIntConvertToOctetString(uint8_t *buffer, size_t *bufferLen,
					  const TEE_BigInt *bigInt);
void TEE_BigIntConvertFromS32(TEE_BigInt *dest, int32_t shortVal);
TEE_Result TEE_BigIntConvertToS32(int32_t *dest, const TEE_BigInt *src);

int32_t TEE_BigIntCmp(const TEE_BigInt *op1, const TEE_BigInt *op2);
int32_t TEE_BigIntCmpS32(const TEE_BigInt *op, int32_t shortVal);
void TEE_BigIntShiftRight(TEE_BigInt *dest, const TEE_BigInt *op, size_t bits);
bool TEE_BigIntGetBit(const TEE_BigInt *src, uint32_t bitIndex);
uint32_t TEE_BigIntGetBitCount(const TEE_BigInt *src);
TEE_Result TEE_BigIntSetBit(TEE_BigInt *op, uint32_t bitIndex, bool value);
TEE_Result TEE_BigIntAssign(TEE_BigInt *dest, const TEE_BigInt *src);
TEE_Result TEE_BigIntAbs(TEE_BigInt *dest, const TEE_BigInt *src);

void TEE_BigIntAdd(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2);
void TEE_BigIntSub(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2);
void TEE_BigIntNeg(TEE_BigInt *dest, const TEE_BigInt *op);
void TEE_BigIntMul(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2);
void TEE_BigIntSquare(TEE_BigInt *dest, const TEE_BigInt *op);
/* dest_q or dest_r may be NULL when not wanted. */
void TEE_BigIntDiv(TEE_BigInt *dest_q, TEE_BigInt *dest_r, const TEE_BigInt *op1,
		   const TEE_BigInt *op2);

void TEE_BigIntMod(TEE_BigInt *dest, const TEE_BigInt *op, const TEE_BigInt *n);
void TEE_BigIntAddMod(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
		      const TEE_BigInt *n);
void TEE_BigIntSubMod(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
		      const TEE_BigInt *n);
void TEE_BigIntMulMod(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
		      const TEE_BigInt *n);
void TEE_BigIntSquareMod(TEE_BigInt *dest, const TEE_BigInt *op, const TEE_BigInt *n);
void TEE_BigIntInvMod(TEE_BigInt *dest, const TEE_BigInt *op, const TEE_BigInt *n);
/* dest = op1^op2 mod n; context may be NULL. */
TEE_Result TEE_BigIntExpMod(TEE_BigInt *dest, const TEE_BigInt *op1, const TEE_BigInt *op2,
			    const TEE_BigInt *n, const TEE_BigIntFMMContext *context);

bool TEE_BigIntRelativePrime(const TEE_BigInt *op1, const TEE_BigInt *op2);
/* u and v may be NULL when not wanted. */
void TEE_BigIntComputeExtendedGcd(TEE_BigInt *gcd, TEE_BigInt *u, TEE_BigInt *v,
				  const TEE_BigInt *op1, const TEE_BigInt *op2);
/* 0: composite; 1: prime, wrong with probability at most 2^-confidenceLevel; -1: unknown. */
int32_t TEE_BigIntIsProbablePrime(const TEE_BigInt *op, uint32_t confidenceLevel);

void TEE_BigIntConvertToFMM(TEE_BigIntFMM *dest, const TEE_BigInt *src, const TEE_BigInt *n,
			    const TEE_BigIntFMMContext *context);
void TEE_BigIntConvertFromFMM(TEE_BigInt *dest, const TEE_BigIntFMM *src, const TEE_BigInt *n,
			      const TEE_BigIntFMMContext *context);
void TEE_BigIntComputeFMM(TEE_BigIntFMM *dest, const TEE_BigIntFMM *op1, const TEE_BigIntFMM *op2,
			  const TEE_BigInt *n, const TEE_BigIntFMMContext *context);

#include <tee_api_compat.h>

#endif /* TEE_INTERNAL_API_H */
