/*
 * The algorithms TEE_AllocateOperation accepts and TEE_IsAlgorithmSupported
 * reports, which agree: an algorithm is supported when it is in this table
 * and the backend can run it (and the digest it uses) on this machine;
 * TEE_IsAlgorithmSupported also wants the curve an ECC algorithm runs on.
 *
 * Beyond OP-TEE: TEE_ALG_SM4_ECB_PKCS5 and TEE_ALG_SM4_CBC_PKCS5 (GP 1.3),
 * which OP-TEE refuses; SHAKE128/256, which OP-TEE allocates but leaves
 * out of TEE_IsAlgorithmSupported (here both say yes); the SHA-3 forms of
 * RSA, DSA and ECDSA; GP 1.3's TEE_ALG_HKDF. The GP 1.3.1 ECDSA IDs
 * (TEE_ALG_ECDSA_SHA*) take any NIST curve, as GP defines them; OP-TEE
 * ties each to one curve, which here only its own IDs (__OPTEE_ALG_ECDSA_P*)
 * do. TEE_ALG_MD5SHA1, TEE_ALG_RSASSA_PKCS1_V1_5_MD5SHA1, Ed448 and X448
 * are refused by both.
 */
#include "operation.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

#define CIPHER(a, k, bs, f)                                                                        \
	{                                                                                          \
		(a), TEE_OPERATION_CIPHER, (k), (bs), 0, (f), 0                                    \
	}
#define MAC(a, k, dl)                                                                              \
	{                                                                                          \
		(a), TEE_OPERATION_MAC, (k), 1, (dl), 0, 0                                         \
	}
#define AE(a)                                                                                      \
	{                                                                                          \
		(a), TEE_OPERATION_AE, TEE_TYPE_AES, 1, 0, 0, 0                                    \
	}
#define DIGEST(a, dl, f)                                                                           \
	{                                                                                          \
		(a), TEE_OPERATION_DIGEST, 0, 1, (dl), (f), 0                                      \
	}
#define ACIPHER(a, k, h)                                                                           \
	{                                                                                          \
		(a), TEE_OPERATION_ASYMMETRIC_CIPHER, (k), 1, 0, 0, (h)                            \
	}
#define SIGN(a, k, h)                                                                              \
	{                                                                                          \
		(a), TEE_OPERATION_ASYMMETRIC_SIGNATURE, (k), 1, 0, 0, (h)                         \
	}
#define DERIVE(a, k, h, f)                                                                         \
	{                                                                                          \
		(a), TEE_OPERATION_KEY_DERIVATION, (k), 1, 0, (f), (h)                             \
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

    ACIPHER(TEE_ALG_RSAES_PKCS1_V1_5, TEE_TYPE_RSA_KEYPAIR, 0),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_MD5, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_MD5),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA1, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA1),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA224, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA224),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA256, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA256),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA384, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA384),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA512, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA512),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_224, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_224),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_256, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_256),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_384, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_384),
    ACIPHER(TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_512, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_512),
    ACIPHER(TEE_ALG_RSA_NOPAD, TEE_TYPE_RSA_KEYPAIR, 0),
    ACIPHER(TEE_ALG_SM2_PKE, TEE_TYPE_SM2_PKE_KEYPAIR, 0),

    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5, TEE_TYPE_RSA_KEYPAIR, 0),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_MD5, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_MD5),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA1, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA1),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA224, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA224),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA256),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA384, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA384),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA512, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA512),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_224, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_224),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_256, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_256),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_384, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_384),
    SIGN(TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_512, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_512),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_MD5, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_MD5),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA1, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA1),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA224, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA224),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA256),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA384, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA384),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA512, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA512),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_224, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_224),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_256, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_256),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_384, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_384),
    SIGN(TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_512, TEE_TYPE_RSA_KEYPAIR, TEE_ALG_SHA3_512),
    SIGN(TEE_ALG_DSA_SHA1, TEE_TYPE_DSA_KEYPAIR, TEE_ALG_SHA1),
    SIGN(TEE_ALG_DSA_SHA224, TEE_TYPE_DSA_KEYPAIR, TEE_ALG_SHA224),
    SIGN(TEE_ALG_DSA_SHA256, TEE_TYPE_DSA_KEYPAIR, TEE_ALG_SHA256),
    SIGN(TEE_ALG_DSA_SHA3_224, TEE_TYPE_DSA_KEYPAIR, TEE_ALG_SHA3_224),
    SIGN(TEE_ALG_DSA_SHA3_256, TEE_TYPE_DSA_KEYPAIR, TEE_ALG_SHA3_256),
    SIGN(TEE_ALG_DSA_SHA3_384, TEE_TYPE_DSA_KEYPAIR, TEE_ALG_SHA3_384),
    SIGN(TEE_ALG_DSA_SHA3_512, TEE_TYPE_DSA_KEYPAIR, TEE_ALG_SHA3_512),
    SIGN(TEE_ALG_ECDSA_SHA1, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA1),
    SIGN(TEE_ALG_ECDSA_SHA224, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA224),
    SIGN(TEE_ALG_ECDSA_SHA256, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA256),
    SIGN(TEE_ALG_ECDSA_SHA384, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA384),
    SIGN(TEE_ALG_ECDSA_SHA512, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA512),
    SIGN(TEE_ALG_ECDSA_SHA3_224, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA3_224),
    SIGN(TEE_ALG_ECDSA_SHA3_256, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA3_256),
    SIGN(TEE_ALG_ECDSA_SHA3_384, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA3_384),
    SIGN(TEE_ALG_ECDSA_SHA3_512, TEE_TYPE_ECDSA_KEYPAIR, TEE_ALG_SHA3_512),
    /* GP 1.1's ECDSA: the curve is the algorithm's, the digest any length */
    SIGN(__OPTEE_ALG_ECDSA_P192, TEE_TYPE_ECDSA_KEYPAIR, 0),
    SIGN(__OPTEE_ALG_ECDSA_P224, TEE_TYPE_ECDSA_KEYPAIR, 0),
    SIGN(__OPTEE_ALG_ECDSA_P256, TEE_TYPE_ECDSA_KEYPAIR, 0),
    SIGN(__OPTEE_ALG_ECDSA_P384, TEE_TYPE_ECDSA_KEYPAIR, 0),
    SIGN(__OPTEE_ALG_ECDSA_P521, TEE_TYPE_ECDSA_KEYPAIR, 0),
    SIGN(TEE_ALG_ED25519, TEE_TYPE_ED25519_KEYPAIR, 0),
    SIGN(TEE_ALG_SM2_DSA_SM3, TEE_TYPE_SM2_DSA_KEYPAIR, TEE_ALG_SM3),

    DERIVE(TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_TYPE_DH_KEYPAIR, 0, 0),
    DERIVE(TEE_ALG_ECDH_DERIVE_SHARED_SECRET, TEE_TYPE_ECDH_KEYPAIR, 0, 0),
    DERIVE(__OPTEE_ALG_ECDH_P192, TEE_TYPE_ECDH_KEYPAIR, 0, 0),
    DERIVE(__OPTEE_ALG_ECDH_P224, TEE_TYPE_ECDH_KEYPAIR, 0, 0),
    DERIVE(__OPTEE_ALG_ECDH_P256, TEE_TYPE_ECDH_KEYPAIR, 0, 0),
    DERIVE(__OPTEE_ALG_ECDH_P384, TEE_TYPE_ECDH_KEYPAIR, 0, 0),
    DERIVE(__OPTEE_ALG_ECDH_P521, TEE_TYPE_ECDH_KEYPAIR, 0, 0),
    DERIVE(TEE_ALG_X25519, TEE_TYPE_X25519_KEYPAIR, 0, 0),
    DERIVE(TEE_ALG_SM2_KEP, TEE_TYPE_SM2_KEP_KEYPAIR, TEE_ALG_SM3, ALG_TWO_KEYS),
    /* GP 1.3 HKDF: the digest is a parameter of TEE_DeriveKey (SHA-256 by default) */
    DERIVE(TEE_ALG_HKDF, TEE_TYPE_HKDF, 0, 0),
    DERIVE(TEE_ALG_HKDF_MD5_DERIVE_KEY, TEE_TYPE_HKDF_IKM, TEE_ALG_MD5, 0),
    DERIVE(TEE_ALG_HKDF_SHA1_DERIVE_KEY, TEE_TYPE_HKDF_IKM, TEE_ALG_SHA1, 0),
    DERIVE(TEE_ALG_HKDF_SHA224_DERIVE_KEY, TEE_TYPE_HKDF_IKM, TEE_ALG_SHA224, 0),
    DERIVE(TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_TYPE_HKDF_IKM, TEE_ALG_SHA256, 0),
    DERIVE(TEE_ALG_HKDF_SHA384_DERIVE_KEY, TEE_TYPE_HKDF_IKM, TEE_ALG_SHA384, 0),
    DERIVE(TEE_ALG_HKDF_SHA512_DERIVE_KEY, TEE_TYPE_HKDF_IKM, TEE_ALG_SHA512, 0),
    DERIVE(TEE_ALG_CONCAT_KDF_SHA1_DERIVE_KEY, TEE_TYPE_CONCAT_KDF_Z, TEE_ALG_SHA1, 0),
    DERIVE(TEE_ALG_CONCAT_KDF_SHA224_DERIVE_KEY, TEE_TYPE_CONCAT_KDF_Z, TEE_ALG_SHA224, 0),
    DERIVE(TEE_ALG_CONCAT_KDF_SHA256_DERIVE_KEY, TEE_TYPE_CONCAT_KDF_Z, TEE_ALG_SHA256, 0),
    DERIVE(TEE_ALG_CONCAT_KDF_SHA384_DERIVE_KEY, TEE_TYPE_CONCAT_KDF_Z, TEE_ALG_SHA384, 0),
    DERIVE(TEE_ALG_CONCAT_KDF_SHA512_DERIVE_KEY, TEE_TYPE_CONCAT_KDF_Z, TEE_ALG_SHA512, 0),
    DERIVE(TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY, TEE_TYPE_PBKDF2_PASSWORD, TEE_ALG_SHA1, 0),
    DERIVE(TEE_ALG_PBKDF2_HMAC_SHA224_DERIVE_KEY, TEE_TYPE_PBKDF2_PASSWORD, TEE_ALG_SHA224, 0),
    DERIVE(TEE_ALG_PBKDF2_HMAC_SHA256_DERIVE_KEY, TEE_TYPE_PBKDF2_PASSWORD, TEE_ALG_SHA256, 0),
    DERIVE(TEE_ALG_PBKDF2_HMAC_SHA384_DERIVE_KEY, TEE_TYPE_PBKDF2_PASSWORD, TEE_ALG_SHA384, 0),
    DERIVE(TEE_ALG_PBKDF2_HMAC_SHA512_DERIVE_KEY, TEE_TYPE_PBKDF2_PASSWORD, TEE_ALG_SHA512, 0),
    DERIVE(TEE_ALG_PBKDF2_HMAC_SM3_DERIVE_KEY, TEE_TYPE_PBKDF2_PASSWORD, TEE_ALG_SM3, 0),
};

const struct alg_desc *alg_find(uint32_t alg)
{
	for (size_t i = 0; i < N(algs); i++)
		if (algs[i].alg == alg)
			return &algs[i];
	return NULL;
}

size_t alg_hash_size(uint32_t hash)
{
	switch (hash) {
	case TEE_ALG_MD5:
		return TEE_MD5_HASH_SIZE;
	case TEE_ALG_SHA1:
		return TEE_SHA1_HASH_SIZE;
	case TEE_ALG_SHA224:
	case TEE_ALG_SHA3_224:
		return TEE_SHA224_HASH_SIZE;
	case TEE_ALG_SHA256:
	case TEE_ALG_SHA3_256:
	case TEE_ALG_SM3:
		return TEE_SHA256_HASH_SIZE;
	case TEE_ALG_SHA384:
	case TEE_ALG_SHA3_384:
		return TEE_SHA384_HASH_SIZE;
	case TEE_ALG_SHA512:
	case TEE_ALG_SHA3_512:
		return TEE_SHA512_HASH_SIZE;
	default:
		return 0;
	}
}

uint32_t alg_fixed_curve(uint32_t alg)
{
	switch (alg) {
	case __OPTEE_ALG_ECDSA_P192:
	case __OPTEE_ALG_ECDH_P192:
		return TEE_ECC_CURVE_NIST_P192;
	case __OPTEE_ALG_ECDSA_P224:
	case __OPTEE_ALG_ECDH_P224:
		return TEE_ECC_CURVE_NIST_P224;
	case __OPTEE_ALG_ECDSA_P256:
	case __OPTEE_ALG_ECDH_P256:
		return TEE_ECC_CURVE_NIST_P256;
	case __OPTEE_ALG_ECDSA_P384:
	case __OPTEE_ALG_ECDH_P384:
		return TEE_ECC_CURVE_NIST_P384;
	case __OPTEE_ALG_ECDSA_P521:
	case __OPTEE_ALG_ECDH_P521:
		return TEE_ECC_CURVE_NIST_P521;
	default:
		return 0;
	}
}

static uint32_t curve_size(uint32_t curve)
{
	switch (curve) {
	case TEE_ECC_CURVE_NIST_P192:
		return 192;
	case TEE_ECC_CURVE_NIST_P224:
		return 224;
	case TEE_ECC_CURVE_NIST_P256:
		return 256;
	case TEE_ECC_CURVE_NIST_P384:
		return 384;
	case TEE_ECC_CURVE_NIST_P521:
		return 521;
	default:
		return 0;
	}
}

/* OP-TEE's key-size rules beyond the key types' (TEE_AllocateOperation). */
static bool key_size_ok(uint32_t alg, uint32_t size)
{
	uint32_t curve = alg_fixed_curve(alg);

	if (curve)
		return size == curve_size(curve);
	switch (alg) {
	case TEE_ALG_DSA_SHA1:
		return size <= 1024;
	case TEE_ALG_DSA_SHA224:
		return size == 2048;
	case TEE_ALG_DSA_SHA256:
	case TEE_ALG_DSA_SHA3_224:
	case TEE_ALG_DSA_SHA3_256:
	case TEE_ALG_DSA_SHA3_384:
	case TEE_ALG_DSA_SHA3_512:
		return size == 2048 || size == 3072;
	default:
		return true;
	}
}

/* The backend runs the algorithm and its digest (GP 1.3 HKDF: SHA-256, its default). */
static bool runs(const struct alg_desc *d)
{
	uint32_t hash = d->alg == TEE_ALG_HKDF ? TEE_ALG_SHA256 : d->hash;

	return be_alg_supported(d->alg) && (!hash || be_alg_supported(hash));
}

bool alg_usable(const struct alg_desc *d, uint32_t max_key_size)
{
	return runs(d) && (d->cls == TEE_OPERATION_DIGEST || key_size_ok(d->alg, max_key_size));
}

/* The curve (element) an algorithm's IsAlgorithmSupported answer needs. */
static bool element_ok(const struct alg_desc *d, uint32_t element)
{
	uint32_t curve = alg_fixed_curve(d->alg);

	if (curve)
		return element == curve;
	switch (d->key_type) {
	case TEE_TYPE_ECDSA_KEYPAIR:
	case TEE_TYPE_ECDH_KEYPAIR:
		return curve_size(element) != 0;
	case TEE_TYPE_SM2_DSA_KEYPAIR:
	case TEE_TYPE_SM2_KEP_KEYPAIR:
	case TEE_TYPE_SM2_PKE_KEYPAIR:
		return element == TEE_ECC_CURVE_SM2;
	case TEE_TYPE_ED25519_KEYPAIR:
	case TEE_TYPE_X25519_KEYPAIR:
		return element == TEE_ECC_CURVE_25519;
	default:
		return element == TEE_CRYPTO_ELEMENT_NONE;
	}
}

TEE_Result alg_supported(uint32_t alg, uint32_t element)
{
	const struct alg_desc *d = alg_find(alg);

	/* Any key size the algorithm has; the curve's for an ECC one. */
	if (!d || !element_ok(d, element) || !runs(d))
		return TEE_ERROR_NOT_SUPPORTED;
	return TEE_SUCCESS;
}
