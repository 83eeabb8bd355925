/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The mbedTLS 3 configuration of the TA developer kit (MBEDTLS_CONFIG_FILE
 * for the library the kit builds from MBEDTLS_DIR and for every source of a
 * TA built with CFG_TA_MBEDTLS=y). A TA runs in the TEE, not on a system:
 *   - no file, network or clock parts: no MBEDTLS_FS_IO, MBEDTLS_NET_C,
 *     MBEDTLS_TIMING_C, MBEDTLS_HAVE_TIME or MBEDTLS_HAVE_TIME_DATE (so
 *     X.509 validity dates are parsed but not compared with a clock);
 *   - no platform entropy; the one strong source is TEE_GenerateRandom,
 *     as mbedtls_hardware_poll() (src/mbedtls/tee_entropy.c);
 *   - no TLS: the cryptography, ASN.1, PK and X.509 modules OP-TEE TAs use
 *     (ta/pkcs11, optee_test's crypt TA);
 *   - memory from the C library of the TA's process (no MBEDTLS_PLATFORM_C).
 * CFG_TA_MBEDTLS_SELF_TEST=y adds the self tests (MBEDTLS_SELF_TEST).
 * A TA that needs another set names its own header with MBEDTLS_CONFIG=.
 */
#ifndef SWTEE_MBEDTLS_CONFIG_H
#define SWTEE_MBEDTLS_CONFIG_H

/* The platform. */
#define MBEDTLS_HAVE_ASM
#define MBEDTLS_NO_PLATFORM_ENTROPY
#define MBEDTLS_ENTROPY_HARDWARE_ALT

/* Random numbers. */
#define MBEDTLS_ENTROPY_C
#define MBEDTLS_CTR_DRBG_C
#define MBEDTLS_HMAC_DRBG_C

/* Hashes and MACs. */
#define MBEDTLS_MD_C
#define MBEDTLS_MD5_C
#define MBEDTLS_SHA1_C
#define MBEDTLS_SHA224_C
#define MBEDTLS_SHA256_C
#define MBEDTLS_SHA384_C
#define MBEDTLS_SHA512_C
#define MBEDTLS_SHA3_C
#define MBEDTLS_RIPEMD160_C
#define MBEDTLS_CMAC_C
#define MBEDTLS_HKDF_C
#define MBEDTLS_PKCS5_C
#define MBEDTLS_PKCS12_C

/* Ciphers. */
#define MBEDTLS_CIPHER_C
#define MBEDTLS_AES_C
#define MBEDTLS_DES_C
#define MBEDTLS_CHACHA20_C
#define MBEDTLS_POLY1305_C
#define MBEDTLS_CHACHAPOLY_C
#define MBEDTLS_GCM_C
#define MBEDTLS_CCM_C
#define MBEDTLS_NIST_KW_C
#define MBEDTLS_CIPHER_MODE_CBC
#define MBEDTLS_CIPHER_MODE_CFB
#define MBEDTLS_CIPHER_MODE_CTR
#define MBEDTLS_CIPHER_MODE_OFB
#define MBEDTLS_CIPHER_MODE_XTS
#define MBEDTLS_CIPHER_PADDING_PKCS7
#define MBEDTLS_CIPHER_PADDING_ONE_AND_ZEROS
#define MBEDTLS_CIPHER_PADDING_ZEROS_AND_LEN
#define MBEDTLS_CIPHER_PADDING_ZEROS

/* Public keys. */
#define MBEDTLS_BIGNUM_C
#define MBEDTLS_GENPRIME
#define MBEDTLS_RSA_C
#define MBEDTLS_PKCS1_V15
#define MBEDTLS_PKCS1_V21
#define MBEDTLS_ECP_C
#define MBEDTLS_ECP_NIST_OPTIM
#define MBEDTLS_ECP_DP_SECP192R1_ENABLED
#define MBEDTLS_ECP_DP_SECP224R1_ENABLED
#define MBEDTLS_ECP_DP_SECP256R1_ENABLED
#define MBEDTLS_ECP_DP_SECP384R1_ENABLED
#define MBEDTLS_ECP_DP_SECP521R1_ENABLED
#define MBEDTLS_ECP_DP_SECP256K1_ENABLED
#define MBEDTLS_ECP_DP_BP256R1_ENABLED
#define MBEDTLS_ECP_DP_BP384R1_ENABLED
#define MBEDTLS_ECP_DP_BP512R1_ENABLED
#define MBEDTLS_ECP_DP_CURVE25519_ENABLED
#define MBEDTLS_ECDH_C
#define MBEDTLS_ECDSA_C
#define MBEDTLS_ECDSA_DETERMINISTIC
#define MBEDTLS_PK_C
#define MBEDTLS_PK_PARSE_C
#define MBEDTLS_PK_WRITE_C

/* Encodings and certificates. */
#define MBEDTLS_ASN1_PARSE_C
#define MBEDTLS_ASN1_WRITE_C
#define MBEDTLS_OID_C
#define MBEDTLS_BASE64_C
#define MBEDTLS_PEM_PARSE_C
#define MBEDTLS_PEM_WRITE_C
#define MBEDTLS_X509_USE_C
#define MBEDTLS_X509_CRT_PARSE_C
#define MBEDTLS_X509_CRL_PARSE_C
#define MBEDTLS_X509_CSR_PARSE_C
#define MBEDTLS_X509_CREATE_C
#define MBEDTLS_X509_CRT_WRITE_C
#define MBEDTLS_X509_CSR_WRITE_C

/* Error strings and the version. */
#define MBEDTLS_ERROR_C
#define MBEDTLS_VERSION_C

#if defined(CFG_TA_MBEDTLS_SELF_TEST)
#define MBEDTLS_SELF_TEST
#endif

#endif /* SWTEE_MBEDTLS_CONFIG_H */
