/*
 * Constants beyond the GlobalPlatform TEE Internal Core API: extra error
 * codes, storage IDs, memory flags, algorithms, object types and
 * attributes. Names and values are the ones OP-TEE uses.
 */
#ifndef TEE_API_DEFINES_EXTENSIONS_H
#define TEE_API_DEFINES_EXTENSIONS_H

/*
 * Error codes in the range GP reserves for implementation-specific errors
 * (0x80000000-0x8FFFFFFF); 0x70000000-0x7FFFFFFF is reserved for
 * implementation-specific non-error information.
 */
#define TEE_ERROR_DEFER_DRIVER_INIT 0x80000000 /* a driver must retry later */
#define TEE_ERROR_NODE_DISABLED 0x80000001     /* the device is disabled */

/* Login by the REE kernel rather than a user process */
#define TEE_LOGIN_REE_KERNEL 0x80000000

/* Implementation-specific storage identifiers */
#define TEE_STORAGE_PRIVATE_REE 0x80000000  /* files kept by the REE */
#define TEE_STORAGE_PRIVATE_RPMB 0x80000100 /* replay-protected memory block */
/* Formerly TEE_STORAGE_PRIVATE_SQL, no longer supported */
#define TEE_STORAGE_PRIVATE_SQL_RESERVED 0x80000200

/* TEE_CheckMemoryAccessRights: also require non-secure or secure memory */
#define TEE_MEMORY_ACCESS_NONSECURE 0x10000000
#define TEE_MEMORY_ACCESS_SECURE 0x20000000

/* TEE_Malloc hint: leave the allocation uninitialised */
#define TEE_USER_MEM_HINT_NO_FILL_ZERO 0x80000000

/* RSA with MD5 as the MGF1 hash */
#define TEE_ALG_RSASSA_PKCS1_PSS_MGF1_MD5 0xF0111930
#define TEE_ALG_RSAES_PKCS1_OAEP_MGF1_MD5 0xF0110230

/* RSASSA PKCS#1 v1.5 over a digest given without its DigestInfo */
#define TEE_ALG_RSASSA_PKCS1_V1_5 0xF0000830

/* Triple-DES CMAC (NIST SP 800-38B) */
#define TEE_ALG_DES3_CMAC 0xF0000613

/* SM4 in XTS mode */
#define TEE_ALG_SM4_XTS 0xF0000414

/* HKDF (RFC 5869) */
#define TEE_ALG_HKDF_MD5_DERIVE_KEY 0x800010C0
#define TEE_ALG_HKDF_SHA1_DERIVE_KEY 0x800020C0
#define TEE_ALG_HKDF_SHA224_DERIVE_KEY 0x800030C0
#define TEE_ALG_HKDF_SHA256_DERIVE_KEY 0x800040C0
#define TEE_ALG_HKDF_SHA384_DERIVE_KEY 0x800050C0
#define TEE_ALG_HKDF_SHA512_DERIVE_KEY 0x800060C0

#define TEE_TYPE_HKDF_IKM 0xA10000C0

#define TEE_ATTR_HKDF_IKM 0xC00001C0
#define TEE_ATTR_HKDF_OKM_LENGTH 0xF00004C0
/*
 * HKDF salt and info IDs used before GP 1.3 named its own HKDF attributes;
 * renamed so as not to clash with TEE_ATTR_HKDF_SALT and TEE_ATTR_HKDF_INFO.
 */
#define __OPTEE_TEE_ATTR_HKDF_SALT 0xD00002C0
#define __OPTEE_ATTR_HKDF_INFO 0xD00003C0

/* Concatenation KDF (NIST SP 800-56A) */
#define TEE_ALG_CONCAT_KDF_SHA1_DERIVE_KEY 0x800020C1
#define TEE_ALG_CONCAT_KDF_SHA224_DERIVE_KEY 0x800030C1
#define TEE_ALG_CONCAT_KDF_SHA256_DERIVE_KEY 0x800040C1
#define TEE_ALG_CONCAT_KDF_SHA384_DERIVE_KEY 0x800050C1
#define TEE_ALG_CONCAT_KDF_SHA512_DERIVE_KEY 0x800060C1

#define TEE_TYPE_CONCAT_KDF_Z 0xA10000C1

#define TEE_ATTR_CONCAT_KDF_Z 0xC00001C1
#define TEE_ATTR_CONCAT_KDF_OTHER_INFO 0xD00002C1
#define TEE_ATTR_CONCAT_KDF_DKM_LENGTH 0xF00003C1

/* PBKDF2 (RFC 8018) */
#define TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY 0x800020C2
#define TEE_ALG_PBKDF2_HMAC_SHA224_DERIVE_KEY 0x800030C2
#define TEE_ALG_PBKDF2_HMAC_SHA256_DERIVE_KEY 0x800040C2
#define TEE_ALG_PBKDF2_HMAC_SHA384_DERIVE_KEY 0x800050C2
#define TEE_ALG_PBKDF2_HMAC_SHA512_DERIVE_KEY 0x800060C2
#define TEE_ALG_PBKDF2_HMAC_SM3_DERIVE_KEY 0x800070C2

#define TEE_TYPE_PBKDF2_PASSWORD 0xA10000C2

#define TEE_ATTR_PBKDF2_PASSWORD 0xC00001C2
#define TEE_ATTR_PBKDF2_SALT 0xD00002C2
#define TEE_ATTR_PBKDF2_ITERATION_COUNT 0xF00003C2
#define TEE_ATTR_PBKDF2_DKM_LENGTH 0xF00004C2

#endif /* TEE_API_DEFINES_EXTENSIONS_H */
