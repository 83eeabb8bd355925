/*
 * The object types a TA can allocate: allowed sizes (OP-TEE's ranges, see
 * gp-api.md 5.8), the attributes of each, key generation (the backend's
 * be_keygen for the key pairs) and the checks TEE_PopulateTransientObject
 * makes beyond the table (asym_check).
 *
 * An SM2 type's curve is SM2: its TEE_ATTR_ECC_CURVE may be left out, as
 * OP-TEE allows. TEE_TYPE_HKDF (GP 1.3) holds the input keying material of
 * TEE_ALG_HKDF as its TEE_ATTR_SECRET_VALUE.
 *
 * HMAC keys for MD5, SHA-1 and SHA-2 take 64..1024 bits, OP-TEE's
 * CFG_HMAC_64_1024_RANGE: the GP minimums (e.g. 192 bits for HMAC-SHA256)
 * refuse the keys of RFC 4231 and Wycheproof.
 */
#include <tee_api_defines.h>
#include <tee_api_defines_extensions.h>

#include "backend.h"
#include "object.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct obj_type_attr secret_attrs[] = {
    {TEE_ATTR_SECRET_VALUE, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE},
};

static const struct obj_type_attr hkdf_ikm_attrs[] = {
    {TEE_ATTR_HKDF_IKM, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE},
};

static const struct obj_type_attr concat_kdf_attrs[] = {
    {TEE_ATTR_CONCAT_KDF_Z, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE},
};

static const struct obj_type_attr pbkdf2_attrs[] = {
    {TEE_ATTR_PBKDF2_PASSWORD, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE},
};

static const struct obj_type_attr rsa_pub_attrs[] = {
    {TEE_ATTR_RSA_MODULUS, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE},
    {TEE_ATTR_RSA_PUBLIC_EXPONENT, OBJ_ATTR_REQUIRED},
};

static const struct obj_type_attr rsa_pair_attrs[] = {
    {TEE_ATTR_RSA_MODULUS, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE},
    {TEE_ATTR_RSA_PUBLIC_EXPONENT, OBJ_ATTR_REQUIRED | OBJ_ATTR_GEN_OPTIONAL},
    {TEE_ATTR_RSA_PRIVATE_EXPONENT, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_RSA_PRIME1, OBJ_ATTR_OPT_GROUP},
    {TEE_ATTR_RSA_PRIME2, OBJ_ATTR_OPT_GROUP},
    {TEE_ATTR_RSA_EXPONENT1, OBJ_ATTR_OPT_GROUP},
    {TEE_ATTR_RSA_EXPONENT2, OBJ_ATTR_OPT_GROUP},
    {TEE_ATTR_RSA_COEFFICIENT, OBJ_ATTR_OPT_GROUP},
};

/* GP sizes a DSA key by its prime, p. */
static const struct obj_type_attr dsa_pub_attrs[] = {
    {TEE_ATTR_DSA_PRIME, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE},
    {TEE_ATTR_DSA_SUBPRIME, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_DSA_BASE, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_DSA_PUBLIC_VALUE, OBJ_ATTR_REQUIRED},
};

static const struct obj_type_attr dsa_pair_attrs[] = {
    {TEE_ATTR_DSA_PRIME, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE | OBJ_ATTR_GEN_REQUIRED},
    {TEE_ATTR_DSA_SUBPRIME, OBJ_ATTR_REQUIRED | OBJ_ATTR_GEN_REQUIRED},
    {TEE_ATTR_DSA_BASE, OBJ_ATTR_REQUIRED | OBJ_ATTR_GEN_REQUIRED},
    {TEE_ATTR_DSA_PRIVATE_VALUE, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_DSA_PUBLIC_VALUE, OBJ_ATTR_REQUIRED},
};

static const struct obj_type_attr dh_pair_attrs[] = {
    {TEE_ATTR_DH_PRIME, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE | OBJ_ATTR_GEN_REQUIRED},
    {TEE_ATTR_DH_BASE, OBJ_ATTR_REQUIRED | OBJ_ATTR_GEN_REQUIRED},
    {TEE_ATTR_DH_PUBLIC_VALUE, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_DH_PRIVATE_VALUE, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_DH_SUBPRIME, OBJ_ATTR_OPT_GROUP | OBJ_ATTR_GEN_OPTIONAL},
    {TEE_ATTR_DH_X_BITS, OBJ_ATTR_GEN_OPTIONAL},
};

static const struct obj_type_attr ecc_pub_attrs[] = {
    {TEE_ATTR_ECC_PUBLIC_VALUE_X, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_PUBLIC_VALUE_Y, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_CURVE, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE},
};

static const struct obj_type_attr ecc_pair_attrs[] = {
    {TEE_ATTR_ECC_PRIVATE_VALUE, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_PUBLIC_VALUE_X, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_PUBLIC_VALUE_Y, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_CURVE, OBJ_ATTR_REQUIRED | OBJ_ATTR_SIZE | OBJ_ATTR_GEN_REQUIRED},
};

static const struct obj_type_attr sm2_pub_attrs[] = {
    {TEE_ATTR_ECC_PUBLIC_VALUE_X, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_PUBLIC_VALUE_Y, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_CURVE, OBJ_ATTR_OPTIONAL | OBJ_ATTR_SIZE},
};

static const struct obj_type_attr sm2_pair_attrs[] = {
    {TEE_ATTR_ECC_PRIVATE_VALUE, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_PUBLIC_VALUE_X, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_PUBLIC_VALUE_Y, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ECC_CURVE, OBJ_ATTR_OPTIONAL | OBJ_ATTR_SIZE | OBJ_ATTR_GEN_OPTIONAL},
};

static const struct obj_type_attr ed25519_pub_attrs[] = {
    {TEE_ATTR_ED25519_PUBLIC_VALUE, OBJ_ATTR_REQUIRED},
};

static const struct obj_type_attr ed25519_pair_attrs[] = {
    {TEE_ATTR_ED25519_PUBLIC_VALUE, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_ED25519_PRIVATE_VALUE, OBJ_ATTR_REQUIRED},
};

static const struct obj_type_attr x25519_pub_attrs[] = {
    {TEE_ATTR_X25519_PUBLIC_VALUE, OBJ_ATTR_REQUIRED},
};

static const struct obj_type_attr x25519_pair_attrs[] = {
    {TEE_ATTR_X25519_PUBLIC_VALUE, OBJ_ATTR_REQUIRED},
    {TEE_ATTR_X25519_PRIVATE_VALUE, OBJ_ATTR_REQUIRED},
};

/* Bytes of a big-endian number without its leading zeros. */
static size_t num_len(const struct tee_obj *o, uint32_t id)
{
	const struct obj_attr *a = obj_attr_find(o, id);
	size_t off = 0;

	if (!a)
		return 0;
	while (off < a->len && !a->buf[off])
		off++;
	return a->len - off;
}

static bool is_sm2(uint32_t type)
{
	type &= ~OBJ_TYPE_KEYPAIR_BIT;
	return type == TEE_TYPE_SM2_DSA_PUBLIC_KEY || type == TEE_TYPE_SM2_KEP_PUBLIC_KEY ||
	       type == TEE_TYPE_SM2_PKE_PUBLIC_KEY;
}

/* ECC: the type's kind of curve; coordinates and private value no longer than its size. */
static bool ecc_ok(const struct tee_obj *o)
{
	const struct obj_attr *curve = obj_attr_find(o, TEE_ATTR_ECC_CURVE);
	size_t bytes = (o->object_size + 7) / 8;

	if (is_sm2(o->type) ? curve && curve->a != TEE_ECC_CURVE_SM2
			    : !curve || curve->a == TEE_ECC_CURVE_SM2)
		return false;
	return num_len(o, TEE_ATTR_ECC_PUBLIC_VALUE_X) <= bytes &&
	       num_len(o, TEE_ATTR_ECC_PUBLIC_VALUE_Y) <= bytes &&
	       num_len(o, TEE_ATTR_ECC_PRIVATE_VALUE) <= bytes;
}

/* A buffer attribute of exactly len bytes. */
static bool len_is(const struct tee_obj *o, uint32_t id, size_t len)
{
	const struct obj_attr *a = obj_attr_find(o, id);

	return a && a->len == len;
}

/*
 * What the table cannot say about a populated asymmetric key. The values
 * themselves (a point on its curve, an RSA key whose parts agree) are the
 * library's to check when the key is used.
 */
static TEE_Result asym_check(const struct tee_obj *o)
{
	const struct obj_attr *n = NULL;
	bool ok = true;

	switch (o->type & ~OBJ_TYPE_KEYPAIR_BIT) {
	case TEE_TYPE_RSA_PUBLIC_KEY:
		/* An odd modulus, an exponent in 1..n */
		n = obj_attr_find(o, TEE_ATTR_RSA_MODULUS);
		ok = n && n->len && (n->buf[n->len - 1] & 1) &&
		     num_len(o, TEE_ATTR_RSA_PUBLIC_EXPONENT) &&
		     num_len(o, TEE_ATTR_RSA_PUBLIC_EXPONENT) <= num_len(o, TEE_ATTR_RSA_MODULUS);
		if (ok && (o->type & OBJ_TYPE_KEYPAIR_BIT))
			ok = num_len(o, TEE_ATTR_RSA_PRIVATE_EXPONENT) &&
			     num_len(o, TEE_ATTR_RSA_PRIVATE_EXPONENT) <=
				 num_len(o, TEE_ATTR_RSA_MODULUS);
		break;
	case TEE_TYPE_ECDSA_PUBLIC_KEY:
	case TEE_TYPE_ECDH_PUBLIC_KEY:
	case TEE_TYPE_SM2_DSA_PUBLIC_KEY:
	case TEE_TYPE_SM2_KEP_PUBLIC_KEY:
	case TEE_TYPE_SM2_PKE_PUBLIC_KEY:
		ok = ecc_ok(o);
		break;
	case TEE_TYPE_ED25519_PUBLIC_KEY:
		ok = len_is(o, TEE_ATTR_ED25519_PUBLIC_VALUE, 32) &&
		     (!(o->type & OBJ_TYPE_KEYPAIR_BIT) ||
		      len_is(o, TEE_ATTR_ED25519_PRIVATE_VALUE, 32));
		break;
	case TEE_TYPE_X25519_PUBLIC_KEY:
		ok = len_is(o, TEE_ATTR_X25519_PUBLIC_VALUE, 32) &&
		     (!(o->type & OBJ_TYPE_KEYPAIR_BIT) ||
		      len_is(o, TEE_ATTR_X25519_PRIVATE_VALUE, 32));
		break;
	default:
		break;
	}
	return ok ? TEE_SUCCESS : TEE_ERROR_BAD_PARAMETERS;
}

#define SECRET(t, lo, hi, st)                                                                      \
	{                                                                                          \
		.type = (t), .min_size = (lo), .max_size = (hi), .step = (st), .secret = true,     \
		.attrs = secret_attrs, .nattrs = N(secret_attrs), .keygen = obj_keygen_secret,     \
	}
#define SECRET_AS(t, lo, hi, st, a)                                                                \
	{                                                                                          \
		.type = (t), .min_size = (lo), .max_size = (hi), .step = (st), .secret = true,     \
		.attrs = (a), .nattrs = N(a), .keygen = obj_keygen_secret,                         \
	}
#define ASYM(t, lo, hi, st, a)                                                                     \
	{                                                                                          \
		.type = (t), .min_size = (lo), .max_size = (hi), .step = (st), .attrs = (a),       \
		.nattrs = N(a), .check = asym_check,                                               \
	}
#define ASYM_PAIR(t, lo, hi, st, a)                                                                \
	{                                                                                          \
		.type = (t), .min_size = (lo), .max_size = (hi), .step = (st), .attrs = (a),       \
		.nattrs = N(a), .keygen = be_keygen, .check = asym_check,                          \
	}

static const struct obj_type types[] = {
    SECRET(TEE_TYPE_AES, 128, 256, 64),
    SECRET(TEE_TYPE_DES, 64, 64, 64),
    SECRET(TEE_TYPE_DES3, 128, 192, 64),
    SECRET(TEE_TYPE_SM4, 128, 128, 128),
    SECRET(TEE_TYPE_HMAC_MD5, 64, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA1, 64, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA224, 64, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA256, 64, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA384, 64, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA512, 64, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SM3, 80, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA3_224, 192, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA3_256, 256, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA3_384, 256, 1024, 8),
    SECRET(TEE_TYPE_HMAC_SHA3_512, 256, 1024, 8),
    SECRET(TEE_TYPE_GENERIC_SECRET, 0, 4096, 8),
    SECRET_AS(TEE_TYPE_HKDF_IKM, 0, 4096, 8, hkdf_ikm_attrs),
    SECRET_AS(TEE_TYPE_CONCAT_KDF_Z, 0, 4096, 8, concat_kdf_attrs),
    SECRET_AS(TEE_TYPE_PBKDF2_PASSWORD, 0, 4096, 8, pbkdf2_attrs),
    SECRET(TEE_TYPE_HKDF, 0, 4096, 8),
    ASYM(TEE_TYPE_RSA_PUBLIC_KEY, 256, 4096, 1, rsa_pub_attrs),
    ASYM_PAIR(TEE_TYPE_RSA_KEYPAIR, 256, 4096, 1, rsa_pair_attrs),
    ASYM(TEE_TYPE_DSA_PUBLIC_KEY, 512, 3072, 64, dsa_pub_attrs),
    ASYM_PAIR(TEE_TYPE_DSA_KEYPAIR, 512, 3072, 64, dsa_pair_attrs),
    ASYM_PAIR(TEE_TYPE_DH_KEYPAIR, 256, 2048, 1, dh_pair_attrs),
    ASYM(TEE_TYPE_ECDSA_PUBLIC_KEY, 192, 521, 1, ecc_pub_attrs),
    ASYM_PAIR(TEE_TYPE_ECDSA_KEYPAIR, 192, 521, 1, ecc_pair_attrs),
    ASYM(TEE_TYPE_ECDH_PUBLIC_KEY, 192, 521, 1, ecc_pub_attrs),
    ASYM_PAIR(TEE_TYPE_ECDH_KEYPAIR, 192, 521, 1, ecc_pair_attrs),
    ASYM(TEE_TYPE_SM2_DSA_PUBLIC_KEY, 256, 256, 1, sm2_pub_attrs),
    ASYM_PAIR(TEE_TYPE_SM2_DSA_KEYPAIR, 256, 256, 1, sm2_pair_attrs),
    ASYM(TEE_TYPE_SM2_KEP_PUBLIC_KEY, 256, 256, 1, sm2_pub_attrs),
    ASYM_PAIR(TEE_TYPE_SM2_KEP_KEYPAIR, 256, 256, 1, sm2_pair_attrs),
    ASYM(TEE_TYPE_SM2_PKE_PUBLIC_KEY, 256, 256, 1, sm2_pub_attrs),
    ASYM_PAIR(TEE_TYPE_SM2_PKE_KEYPAIR, 256, 256, 1, sm2_pair_attrs),
    ASYM(TEE_TYPE_ED25519_PUBLIC_KEY, 256, 256, 1, ed25519_pub_attrs),
    ASYM_PAIR(TEE_TYPE_ED25519_KEYPAIR, 256, 256, 1, ed25519_pair_attrs),
    ASYM(TEE_TYPE_X25519_PUBLIC_KEY, 256, 256, 1, x25519_pub_attrs),
    ASYM_PAIR(TEE_TYPE_X25519_KEYPAIR, 256, 256, 1, x25519_pair_attrs),
};

const struct obj_type *obj_type_find(uint32_t type)
{
	for (size_t i = 0; i < N(types); i++)
		if (types[i].type == type)
			return &types[i];
	return NULL;
}

bool obj_type_size_ok(const struct obj_type *t, uint32_t size)
{
	/* GP 1.0 counted DES keys without their parity bits. */
	if ((t->type == TEE_TYPE_DES && size == 56) ||
	    (t->type == TEE_TYPE_DES3 && (size == 112 || size == 168)))
		size += size / 7;
	return size >= t->min_size && size <= t->max_size && size % t->step == 0;
}

const struct obj_type_attr *obj_type_attr_find(const struct obj_type *t, uint32_t id)
{
	for (size_t i = 0; i < t->nattrs; i++)
		if (t->attrs[i].id == id)
			return &t->attrs[i];
	return NULL;
}
