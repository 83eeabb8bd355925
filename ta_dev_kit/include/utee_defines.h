/*
 * Helpers around the GP algorithm identifiers, block and digest sizes, and
 * TEE_Time and byte-order utilities, under the names OP-TEE uses.
 */
#ifndef UTEE_DEFINES_H
#define UTEE_DEFINES_H

#include <stdbool.h>
#include <stdint.h>

/* As OP-TEE's, which TAs rely on for PRIx32, vaddr_t and the attributes. */
#include <compiler.h>
#include <types_ext.h>

#include <tee_api_defines.h>
#include <tee_api_defines_extensions.h>
#include <tee_api_types.h>

/*
 * Layout of an algorithm identifier (GP Internal Core API 1.0, table 6-9):
 *
 *   [31:28] operation class, a TEE_OPERATION_* value
 *   [23:20] internal hash: the MGF1 hash of OAEP and PSS, a TEE_MAIN_ALGO_* hash
 *   [15:12] digest hash of a signature, a TEE_MAIN_ALGO_* hash
 *   [11:8]  chain mode, a TEE_CHAIN_MODE_* value
 *   [7:0]   main algorithm, a TEE_MAIN_ALGO_* value
 *
 * Some IDs break the pattern and are special-cased by TEE_ALG_GET_CLASS()
 * and TEE_ALG_GET_MAIN_ALG(): the SM2, ECDSA, EdDSA, X448, HKDF and SHAKE
 * IDs of GP 1.2/1.3, and the extension IDs with class nibble 0xF.
 *
 * The digest nibble is not a TEE_MAIN_ALGO_* value for every signature
 * algorithm: TEE_ALG_ECDSA_SHA* count from 1 = SHA-1, and TEE_ALG_SM2_DSA_SM3
 * and the EdDSA IDs carry 6 whatever their hash. TEE_ALG_GET_DIGEST_HASH()
 * gives SM3 for TEE_ALG_SM2_DSA_SM3, as OP-TEE's does.
 */

/* Main algorithm, bits [7:0] */
#define TEE_MAIN_ALGO_MD5 0x01
#define TEE_MAIN_ALGO_SHA1 0x02
#define TEE_MAIN_ALGO_SHA224 0x03
#define TEE_MAIN_ALGO_SHA256 0x04
#define TEE_MAIN_ALGO_SHA384 0x05
#define TEE_MAIN_ALGO_SHA512 0x06
#define TEE_MAIN_ALGO_SM3 0x07
#define TEE_MAIN_ALGO_SHA3_224 0x08
#define TEE_MAIN_ALGO_SHA3_256 0x09
#define TEE_MAIN_ALGO_SHA3_384 0x0A
#define TEE_MAIN_ALGO_SHA3_512 0x0B
#define TEE_MAIN_ALGO_AES 0x10
#define TEE_MAIN_ALGO_DES 0x11
#define TEE_MAIN_ALGO_DES2 0x12
#define TEE_MAIN_ALGO_DES3 0x13
#define TEE_MAIN_ALGO_SM4 0x14
#define TEE_MAIN_ALGO_RSA 0x30
#define TEE_MAIN_ALGO_DSA 0x31
#define TEE_MAIN_ALGO_DH 0x32
#define TEE_MAIN_ALGO_ECDSA 0x41
#define TEE_MAIN_ALGO_ECDH 0x42
#define TEE_MAIN_ALGO_ED25519 0x43
#define TEE_MAIN_ALGO_X25519 0x44
#define TEE_MAIN_ALGO_SM2_DSA_SM3 0x45
#define TEE_MAIN_ALGO_SM2_KEP 0x46
#define TEE_MAIN_ALGO_SM2_PKE 0x47
/* swtee addition: the low byte of TEE_TYPE_ED448_*, as X448 follows its type */
#define TEE_MAIN_ALGO_ED448 0x48
#define TEE_MAIN_ALGO_X448 0x49
#define TEE_MAIN_ALGO_HKDF 0xC0
#define TEE_MAIN_ALGO_CONCAT_KDF 0xC1
#define TEE_MAIN_ALGO_PBKDF2 0xC2
#define TEE_MAIN_ALGO_SHAKE128 0xC3
#define TEE_MAIN_ALGO_SHAKE256 0xC4

/* Chain mode, bits [11:8] */
#define TEE_CHAIN_MODE_ECB_NOPAD 0x0
#define TEE_CHAIN_MODE_CBC_NOPAD 0x1
#define TEE_CHAIN_MODE_CTR 0x2
#define TEE_CHAIN_MODE_CTS 0x3
#define TEE_CHAIN_MODE_XTS 0x4
#define TEE_CHAIN_MODE_CBC_MAC_PKCS5 0x5
#define TEE_CHAIN_MODE_CMAC 0x6
#define TEE_CHAIN_MODE_CCM 0x7
#define TEE_CHAIN_MODE_GCM 0x8
#define TEE_CHAIN_MODE_PKCS1_PSS_MGF1 0x9

static inline uint32_t utee_alg_get_class(uint32_t algo)
{
	switch (algo) {
	case TEE_ALG_SM2_PKE:
	case TEE_ALG_RSAES_PKCS1_OAEP_MGF1_MD5:
		return TEE_OPERATION_ASYMMETRIC_CIPHER;
	case TEE_ALG_SM2_KEP:
		return TEE_OPERATION_KEY_DERIVATION;
	case TEE_ALG_RSASSA_PKCS1_V1_5:
	case TEE_ALG_RSASSA_PKCS1_PSS_MGF1_MD5:
		return TEE_OPERATION_ASYMMETRIC_SIGNATURE;
	case TEE_ALG_DES3_CMAC:
		return TEE_OPERATION_MAC;
	case TEE_ALG_SM4_XTS:
		return TEE_OPERATION_CIPHER;
	default:
		return (algo >> 28) & 0xF;
	}
}

static inline uint32_t utee_alg_get_main_alg(uint32_t algo)
{
	switch (algo) {
	case TEE_ALG_SM2_PKE:
		return TEE_MAIN_ALGO_SM2_PKE;
	case TEE_ALG_SM2_KEP:
		return TEE_MAIN_ALGO_SM2_KEP;
	case TEE_ALG_ECDSA_SHA1:
	case TEE_ALG_ECDSA_SHA224:
	case TEE_ALG_ECDSA_SHA256:
	case TEE_ALG_ECDSA_SHA384:
	case TEE_ALG_ECDSA_SHA512:
	case TEE_ALG_ECDSA_SHA3_224:
	case TEE_ALG_ECDSA_SHA3_256:
	case TEE_ALG_ECDSA_SHA3_384:
	case TEE_ALG_ECDSA_SHA3_512:
		return TEE_MAIN_ALGO_ECDSA;
	case TEE_ALG_ED448:
		return TEE_MAIN_ALGO_ED448;
	case TEE_ALG_X448:
		return TEE_MAIN_ALGO_X448;
	case TEE_ALG_HKDF:
		return TEE_MAIN_ALGO_HKDF;
	case TEE_ALG_SHAKE128:
		return TEE_MAIN_ALGO_SHAKE128;
	case TEE_ALG_SHAKE256:
		return TEE_MAIN_ALGO_SHAKE256;
	default:
		return algo & 0xFF;
	}
}

/* Operation class of an algorithm ID, a TEE_OPERATION_* value. */
#define TEE_ALG_GET_CLASS(algo) utee_alg_get_class(algo)
/* Main algorithm of an algorithm ID, a TEE_MAIN_ALGO_* value. */
#define TEE_ALG_GET_MAIN_ALG(algo) utee_alg_get_main_alg(algo)
/*
 * The digest hash of a signature, bits [15:12]; SM2 DSA's, whose field says
 * 6 (SHA-512), is SM3, as in OP-TEE.
 */
static inline uint32_t utee_alg_get_digest_hash(uint32_t algo)
{
	if (algo == TEE_ALG_SM2_DSA_SM3)
		return TEE_MAIN_ALGO_SM3;
	return (algo >> 12) & 0xF;
}

/* Raw fields, bits [11:8] and [23:20]. */
#define TEE_ALG_GET_CHAIN_MODE(algo) (((uint32_t)(algo) >> 8) & 0xF)
#define TEE_ALG_GET_DIGEST_HASH(algo) utee_alg_get_digest_hash(algo)
#define TEE_ALG_GET_INTERNAL_HASH(algo) (((uint32_t)(algo) >> 20) & 0xF)

/* Digest algorithm ID (TEE_ALG_*) of a TEE_MAIN_ALGO_* hash. */
#define TEE_ALG_HASH_ALGO(main_hash) (((uint32_t)TEE_OPERATION_DIGEST << 28) | (main_hash))
/* Digest algorithm ID of the internal (MGF1) hash of an algorithm ID. */
#define TEE_INTERNAL_HASH_TO_ALGO(algo) TEE_ALG_HASH_ALGO(TEE_ALG_GET_INTERNAL_HASH(algo))
/* Digest algorithm ID of the digest-hash field; see the caveat above. */
#define TEE_DIGEST_HASH_TO_ALGO(algo) TEE_ALG_HASH_ALGO(TEE_ALG_GET_DIGEST_HASH(algo))

/* Block and key sizes, in bytes */
#define TEE_AES_BLOCK_SIZE 16UL
#define TEE_DES_BLOCK_SIZE 8UL
#define TEE_SM4_BLOCK_SIZE 16UL
#define TEE_AES_MAX_KEY_SIZE 32UL

/* Digest sizes, in bytes */
#define TEE_MD5_HASH_SIZE 16UL
#define TEE_SHA1_HASH_SIZE 20UL
#define TEE_SHA224_HASH_SIZE 28UL
#define TEE_SHA256_HASH_SIZE 32UL
#define TEE_SHA384_HASH_SIZE 48UL
#define TEE_SHA512_HASH_SIZE 64UL
#define TEE_SM3_HASH_SIZE 32UL
#define TEE_SHA3_224_HASH_SIZE 28UL
#define TEE_SHA3_256_HASH_SIZE 32UL
#define TEE_SHA3_384_HASH_SIZE 48UL
#define TEE_SHA3_512_HASH_SIZE 64UL
#define TEE_MD5SHA1_HASH_SIZE (TEE_MD5_HASH_SIZE + TEE_SHA1_HASH_SIZE)
#define TEE_MAX_HASH_SIZE 64UL

/*
 * Digest size in bytes of a digest or HMAC algorithm ID, 0 for any other
 * ID.
 */
#define TEE_ALG_GET_DIGEST_SIZE(algo) utee_alg_get_digest_size(algo)

static inline size_t utee_alg_get_digest_size(uint32_t algo)
{
	switch (algo) {
	case TEE_ALG_MD5:
	case TEE_ALG_HMAC_MD5:
		return TEE_MD5_HASH_SIZE;
	case TEE_ALG_SHA1:
	case TEE_ALG_HMAC_SHA1:
		return TEE_SHA1_HASH_SIZE;
	case TEE_ALG_SHA224:
	case TEE_ALG_HMAC_SHA224:
	case TEE_ALG_SHA3_224:
	case TEE_ALG_HMAC_SHA3_224:
		return TEE_SHA224_HASH_SIZE;
	case TEE_ALG_SHA256:
	case TEE_ALG_HMAC_SHA256:
	case TEE_ALG_SHA3_256:
	case TEE_ALG_HMAC_SHA3_256:
	case TEE_ALG_SM3:
	case TEE_ALG_HMAC_SM3:
		return TEE_SHA256_HASH_SIZE;
	case TEE_ALG_SHA384:
	case TEE_ALG_HMAC_SHA384:
	case TEE_ALG_SHA3_384:
	case TEE_ALG_HMAC_SHA3_384:
		return TEE_SHA384_HASH_SIZE;
	case TEE_ALG_SHA512:
	case TEE_ALG_HMAC_SHA512:
	case TEE_ALG_SHA3_512:
	case TEE_ALG_HMAC_SHA3_512:
		return TEE_SHA512_HASH_SIZE;
	case TEE_ALG_MD5SHA1:
		return TEE_MD5SHA1_HASH_SIZE;
	default:
		return 0;
	}
}

/* TEE_Time arithmetic; millis stays below TEE_TIME_MILLIS_BASE. */
#define TEE_TIME_MILLIS_BASE 1000

static inline bool utee_time_lt(TEE_Time a, TEE_Time b)
{
	return a.seconds < b.seconds || (a.seconds == b.seconds && a.millis < b.millis);
}

static inline TEE_Time utee_time_add(TEE_Time a, TEE_Time b)
{
	TEE_Time r = {.seconds = a.seconds + b.seconds, .millis = a.millis + b.millis};

	if (r.millis >= TEE_TIME_MILLIS_BASE) {
		r.seconds++;
		r.millis -= TEE_TIME_MILLIS_BASE;
	}
	return r;
}

/* a - b, for a not earlier than b */
static inline TEE_Time utee_time_sub(TEE_Time a, TEE_Time b)
{
	TEE_Time r = {.seconds = a.seconds - b.seconds, .millis = a.millis};

	if (a.millis < b.millis) {
		r.seconds--;
		r.millis += TEE_TIME_MILLIS_BASE;
	}
	r.millis -= b.millis;
	return r;
}

#define TEE_TIME_LT(t1, t2) utee_time_lt((t1), (t2))
#define TEE_TIME_LE(t1, t2) (!utee_time_lt((t2), (t1)))
/* dst = t1 + t2 */
#define TEE_TIME_ADD(t1, t2, dst) ((dst) = utee_time_add((t1), (t2)))
/* dst = t1 - t2 */
#define TEE_TIME_SUB(t1, t2, dst) ((dst) = utee_time_sub((t1), (t2)))

/* Byte order */
#define TEE_U16_BSWAP(x) __builtin_bswap16(x)
#define TEE_U32_BSWAP(x) __builtin_bswap32(x)
#define TEE_U64_BSWAP(x) __builtin_bswap64(x)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TEE_U16_TO_BIG_ENDIAN(x) TEE_U16_BSWAP(x)
#define TEE_U32_TO_BIG_ENDIAN(x) TEE_U32_BSWAP(x)
#define TEE_U64_TO_BIG_ENDIAN(x) TEE_U64_BSWAP(x)
#define TEE_U16_TO_LITTLE_ENDIAN(x) ((uint16_t)(x))
#define TEE_U32_TO_LITTLE_ENDIAN(x) ((uint32_t)(x))
#define TEE_U64_TO_LITTLE_ENDIAN(x) ((uint64_t)(x))
#else
#define TEE_U16_TO_BIG_ENDIAN(x) ((uint16_t)(x))
#define TEE_U32_TO_BIG_ENDIAN(x) ((uint32_t)(x))
#define TEE_U64_TO_BIG_ENDIAN(x) ((uint64_t)(x))
#define TEE_U16_TO_LITTLE_ENDIAN(x) TEE_U16_BSWAP(x)
#define TEE_U32_TO_LITTLE_ENDIAN(x) TEE_U32_BSWAP(x)
#define TEE_U64_TO_LITTLE_ENDIAN(x) TEE_U64_BSWAP(x)
#endif
#define TEE_U16_FROM_BIG_ENDIAN(x) TEE_U16_TO_BIG_ENDIAN(x)
#define TEE_U32_FROM_BIG_ENDIAN(x) TEE_U32_TO_BIG_ENDIAN(x)
#define TEE_U64_FROM_BIG_ENDIAN(x) TEE_U64_TO_BIG_ENDIAN(x)
#define TEE_U16_FROM_LITTLE_ENDIAN(x) TEE_U16_TO_LITTLE_ENDIAN(x)
#define TEE_U32_FROM_LITTLE_ENDIAN(x) TEE_U32_TO_LITTLE_ENDIAN(x)
#define TEE_U64_FROM_LITTLE_ENDIAN(x) TEE_U64_TO_LITTLE_ENDIAN(x)

#endif /* UTEE_DEFINES_H */
