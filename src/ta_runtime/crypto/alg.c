/*
 * The algorithms TEE_AllocateOperation accepts and TEE_IsAlgorithmSupported
 * reports, which agree: an algorithm is supported when it is in this table
 * and the backend can run it on this machine.
 *
 * Beyond OP-TEE: TEE_ALG_SM4_ECB_PKCS5 and TEE_ALG_SM4_CBC_PKCS5 (GP 1.3),
 * which OP-TEE refuses; and SHAKE128/256, which OP-TEE allocates but leaves
 * out of TEE_IsAlgorithmSupported (here both say yes). TEE_ALG_MD5SHA1 and
 * TEE_ALG_RSASSA_PKCS1_V1_5_MD5SHA1 are refused by both.
 */
#include "operation.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

#define CIPHER(a, k, bs, f)                                                                        \
	{                                                                                          \
		(a), TEE_OPERATION_CIPHER, (k), (bs), 0, (f)                                       \
	}
#define MAC(a, k, dl)                                                                              \
	{                                                                                          \
		(a), TEE_OPERATION_MAC, (k), 1, (dl), 0                                            \
	}
#define AE(a)                                                                                      \
	{                                                                                          \
		(a), TEE_OPERATION_AE, TEE_TYPE_AES, 1, 0, 0                                       \
	}
#define DIGEST(a, dl, f)                                                                           \
	{                                                                                          \
		(a), TEE_OPERATION_DIGEST, 0, 1, (dl), (f)                                         \
	}

static const struct alg_desc algs[] = {
    CIPHER(TEE_ALG_AES_ECB_NOPAD, TEE_TYPE_AES, 16, ALG_NOPAD),
    CIPHER(TEE_ALG_AES_CBC_NOPAD, TEE_TYPE_AES, 16, ALG_NOPAD),
    CIPHER(TEE_ALG_AES_CTR, TEE_TYPE_AES, 1, 0),
    CIPHER(TEE_ALG_AES_CTS, TEE_TYPE_AES, 16, ALG_TWO_BLOCKS),
    CIPHER(TEE_ALG_AES_XTS, TEE_TYPE_AES, 16, ALG_TWO_BLOCKS | ALG_TWO_KEYS),
    CIPHER(TEE_ALG_DES_ECB_NOPAD, TEE_TYPE_DES, 8, ALG_NOPAD),
    CIPHER(TEE_ALG_DES_CBC_NOPAD, TEE_TYPE_DES, 8, ALG_NOPAD),
    CIPHER(TEE_ALG_DES3_ECB_NOPAD, TEE_TYPE_DES3, 8, ALG_NOPAD),
    CIPHER(TEE_ALG_DES3_CBC_NOPAD, TEE_TYPE_DES3, 8, ALG_NOPAD),
    CIPHER(TEE_ALG_SM4_ECB_NOPAD, TEE_TYPE_SM4, 16, ALG_NOPAD),
    CIPHER(TEE_ALG_SM4_CBC_NOPAD, TEE_TYPE_SM4, 16, ALG_NOPAD),
    /* OP-TEE buffers SM4-CTR by blocks, unlike AES-CTR. */
    CIPHER(TEE_ALG_SM4_CTR, TEE_TYPE_SM4, 16, 0),
    CIPHER(TEE_ALG_SM4_XTS, TEE_TYPE_SM4, 16, ALG_TWO_BLOCKS | ALG_TWO_KEYS),
    CIPHER(TEE_ALG_SM4_ECB_PKCS5, TEE_TYPE_SM4, 16, ALG_PKCS5),
    CIPHER(TEE_ALG_SM4_CBC_PKCS5, TEE_TYPE_SM4, 16, ALG_PKCS5),

    MAC(TEE_ALG_AES_CBC_MAC_NOPAD, TEE_TYPE_AES, 16),
    MAC(TEE_ALG_AES_CBC_MAC_PKCS5, TEE_TYPE_AES, 16),
    MAC(TEE_ALG_AES_CMAC, TEE_TYPE_AES, 16),
    MAC(TEE_ALG_DES_CBC_MAC_NOPAD, TEE_TYPE_DES, 8),
    MAC(TEE_ALG_DES_CBC_MAC_PKCS5, TEE_TYPE_DES, 8),
    MAC(TEE_ALG_DES3_CBC_MAC_NOPAD, TEE_TYPE_DES3, 8),
    MAC(TEE_ALG_DES3_CBC_MAC_PKCS5, TEE_TYPE_DES3, 8),
    MAC(TEE_ALG_DES3_CMAC, TEE_TYPE_DES3, 8),
    MAC(TEE_ALG_HMAC_MD5, TEE_TYPE_HMAC_MD5, 16),
    MAC(TEE_ALG_HMAC_SHA1, TEE_TYPE_HMAC_SHA1, 20),
    MAC(TEE_ALG_HMAC_SHA224, TEE_TYPE_HMAC_SHA224, 28),
    MAC(TEE_ALG_HMAC_SHA256, TEE_TYPE_HMAC_SHA256, 32),
    MAC(TEE_ALG_HMAC_SHA384, TEE_TYPE_HMAC_SHA384, 48),
    MAC(TEE_ALG_HMAC_SHA512, TEE_TYPE_HMAC_SHA512, 64),
    MAC(TEE_ALG_HMAC_SM3, TEE_TYPE_HMAC_SM3, 32),
    MAC(TEE_ALG_HMAC_SHA3_224, TEE_TYPE_HMAC_SHA3_224, 28),
    MAC(TEE_ALG_HMAC_SHA3_256, TEE_TYPE_HMAC_SHA3_256, 32),
    MAC(TEE_ALG_HMAC_SHA3_384, TEE_TYPE_HMAC_SHA3_384, 48),
    MAC(TEE_ALG_HMAC_SHA3_512, TEE_TYPE_HMAC_SHA3_512, 64),

    AE(TEE_ALG_AES_CCM),
    AE(TEE_ALG_AES_GCM),

    DIGEST(TEE_ALG_MD5, 16, 0),
    DIGEST(TEE_ALG_SHA1, 20, 0),
    DIGEST(TEE_ALG_SHA224, 28, 0),
    DIGEST(TEE_ALG_SHA256, 32, 0),
    DIGEST(TEE_ALG_SHA384, 48, 0),
    DIGEST(TEE_ALG_SHA512, 64, 0),
    DIGEST(TEE_ALG_SHA3_224, 28, 0),
    DIGEST(TEE_ALG_SHA3_256, 32, 0),
    DIGEST(TEE_ALG_SHA3_384, 48, 0),
    DIGEST(TEE_ALG_SHA3_512, 64, 0),
    DIGEST(TEE_ALG_SM3, 32, 0),
    DIGEST(TEE_ALG_SHAKE128, 0, ALG_XOF),
    DIGEST(TEE_ALG_SHAKE256, 0, ALG_XOF),
};

const struct alg_desc *alg_find(uint32_t alg)
{
	for (size_t i = 0; i < N(algs); i++)
		if (algs[i].alg == alg)
			return &algs[i];
	return NULL;
}

TEE_Result alg_supported(uint32_t alg, uint32_t element)
{
	/* The elliptic-curve algorithms, which take a curve, join here. */
	if (element != TEE_CRYPTO_ELEMENT_NONE)
		return TEE_ERROR_NOT_SUPPORTED;
	if (!alg_find(alg) || !be_alg_supported(alg))
		return TEE_ERROR_NOT_SUPPORTED;
	return TEE_SUCCESS;
}
