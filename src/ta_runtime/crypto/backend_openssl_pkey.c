/*
 * The OpenSSL 3 backend: asymmetric keys. A GP key object becomes an
 * EVP_PKEY through OSSL_PARAM lists whose integer buffers are our own
 * (wiped when let go), never through the library's BIGNUM copies.
 *
 * The asymmetric algorithms are fetched once, in the zygote, like the
 * symmetric ones (backend_openssl.c), so that a sandboxed instance finds
 * them in the library context's cache.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/kdf.h>

#include <tee_api_defines.h>
#include <tee_api_defines_extensions.h>
#include <utee_defines.h>

#include "backend_openssl.h"
#include "secure.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct bo_curve curves[] = {
    {TEE_ECC_CURVE_NIST_P192, "prime192v1", 192, 24, 24},
    {TEE_ECC_CURVE_NIST_P224, "secp224r1", 224, 28, 28},
    {TEE_ECC_CURVE_NIST_P256, "prime256v1", 256, 32, 32},
    {TEE_ECC_CURVE_NIST_P384, "secp384r1", 384, 48, 48},
    {TEE_ECC_CURVE_NIST_P521, "secp521r1", 521, 66, 66},
    {TEE_ECC_CURVE_SM2, "SM2", 256, 32, 32},
};

enum fetch_kind { F_KEYMGMT, F_SIGNATURE, F_CIPHER, F_EXCHANGE, F_KDF };

/* What the asymmetric code fetches; held for the process's life. */
static struct {
	enum fetch_kind kind;
	const char *name;
	void *method;
} fetched[] = {
    {F_KEYMGMT, "RSA", NULL},	  {F_KEYMGMT, "DSA", NULL},	{F_KEYMGMT, "DH", NULL},
    {F_KEYMGMT, "EC", NULL},	  {F_KEYMGMT, "SM2", NULL},	{F_KEYMGMT, "X25519", NULL},
    {F_KEYMGMT, "ED25519", NULL}, {F_SIGNATURE, "RSA", NULL},	{F_SIGNATURE, "DSA", NULL},
    {F_SIGNATURE, "ECDSA", NULL}, {F_SIGNATURE, "SM2", NULL},	{F_SIGNATURE, "ED25519", NULL},
    {F_CIPHER, "RSA", NULL},	  {F_CIPHER, "SM2", NULL},	{F_EXCHANGE, "DH", NULL},
    {F_EXCHANGE, "ECDH", NULL},	  {F_EXCHANGE, "X25519", NULL}, {F_KDF, "HKDF", NULL},
    {F_KDF, "PBKDF2", NULL},	  {F_KDF, "SSKDF", NULL},
};

void bo_asym_fetch(void)
{
	OSSL_LIB_CTX *lc = bo_libctx();

	for (size_t i = 0; i < N(fetched); i++) {
		const char *name = fetched[i].name;

		switch (fetched[i].kind) {
		case F_KEYMGMT:
			fetched[i].method = EVP_KEYMGMT_fetch(lc, name, NULL);
			break;
		case F_SIGNATURE:
			fetched[i].method = EVP_SIGNATURE_fetch(lc, name, NULL);
			break;
		case F_CIPHER:
			fetched[i].method = EVP_ASYM_CIPHER_fetch(lc, name, NULL);
			break;
		case F_EXCHANGE:
			fetched[i].method = EVP_KEYEXCH_fetch(lc, name, NULL);
			break;
		case F_KDF:
			fetched[i].method = EVP_KDF_fetch(lc, name, NULL);
			break;
		}
	}
	ERR_clear_error();
}

/* True when the library has the method of that kind and name. */
static bool have(enum fetch_kind kind, const char *name)
{
	for (size_t i = 0; i < N(fetched); i++)
		if (fetched[i].kind == kind && !strcmp(fetched[i].name, name))
			return fetched[i].method != NULL;
	return false;
}

bool bo_asym_supported(uint32_t alg)
{
	uint32_t main = TEE_ALG_GET_MAIN_ALG(alg);

	switch (main) {
	case TEE_MAIN_ALGO_RSA:
		if (TEE_ALG_GET_CLASS(alg) == TEE_OPERATION_ASYMMETRIC_CIPHER)
			return have(F_KEYMGMT, "RSA") && have(F_CIPHER, "RSA");
		return have(F_KEYMGMT, "RSA") && have(F_SIGNATURE, "RSA");
	case TEE_MAIN_ALGO_DSA:
		return have(F_KEYMGMT, "DSA") && have(F_SIGNATURE, "DSA");
	case TEE_MAIN_ALGO_ECDSA:
		return have(F_KEYMGMT, "EC") && have(F_SIGNATURE, "ECDSA");
	case TEE_MAIN_ALGO_DH:
		return have(F_KEYMGMT, "DH") && have(F_EXCHANGE, "DH");
	case TEE_MAIN_ALGO_ECDH:
		return have(F_KEYMGMT, "EC") && have(F_EXCHANGE, "ECDH");
	case TEE_MAIN_ALGO_X25519:
		return have(F_KEYMGMT, "X25519") && have(F_EXCHANGE, "X25519");
	case TEE_MAIN_ALGO_ED25519:
		return have(F_KEYMGMT, "ED25519") && have(F_SIGNATURE, "ED25519") &&
		       bo_md(TEE_ALG_SHA512) && have(F_KEYMGMT, "EC");
	case TEE_MAIN_ALGO_SM2_DSA_SM3:
		return have(F_KEYMGMT, "SM2") && have(F_SIGNATURE, "SM2") && bo_md(TEE_ALG_SM3);
	case TEE_MAIN_ALGO_SM2_PKE:
		return have(F_KEYMGMT, "SM2") && have(F_CIPHER, "SM2") && bo_md(TEE_ALG_SM3);
	case TEE_MAIN_ALGO_SM2_KEP:
		return have(F_KEYMGMT, "SM2") && bo_md(TEE_ALG_SM3);
	case TEE_MAIN_ALGO_HKDF:
		return have(F_KDF, "HKDF");
	case TEE_MAIN_ALGO_PBKDF2:
		return have(F_KDF, "PBKDF2");
	case TEE_MAIN_ALGO_CONCAT_KDF:
		return have(F_KDF, "SSKDF");
	default:
		return false;
	}
}

const struct bo_curve *bo_curve(uint32_t tee)
{
	for (size_t i = 0; i < N(curves); i++)
		if (curves[i].tee == tee)
			return &curves[i];
	return NULL;
}

const char *bo_md_name(uint32_t alg)
{
	const EVP_MD *md = bo_md(alg);

	return md ? EVP_MD_get0_name(md) : NULL;
}

/* ---- parameter lists ---- */

void bo_params_init(struct bo_params *b)
{
	memset(b, 0, sizeof(*b));
	/*
	 * bo_params_free freed buf[0..n) just before; clang-tidy 14 loses n (and so the
	 * buffers) after the store at a symbolic index in params_commit.
	 */
	/* NOLINTNEXTLINE(clang-analyzer-unix.Malloc) */
	b->p[0] = OSSL_PARAM_construct_end();
}

void bo_params_free(struct bo_params *b)
{
	for (size_t i = 0; i < b->n; i++) {
		secure_wipe(b->buf[i], b->len[i]);
		free(b->buf[i]);
	}
	bo_params_init(b);
}

/* Room for one more parameter with a len-byte buffer of our own. */
static uint8_t *params_add(struct bo_params *b, size_t len)
{
	uint8_t *buf = NULL;

	if (b->n == BO_PARAMS_MAX)
		return NULL;
	buf = calloc(1, len ? len : 1);
	if (!buf)
		return NULL;
	/* Every caller commits right after, so buf[n] is free: the same loss of n as above. */
	/* NOLINTBEGIN(clang-analyzer-unix.Malloc) */
	b->buf[b->n] = buf;
	b->len[b->n] = len;
	/* NOLINTEND(clang-analyzer-unix.Malloc) */
	return buf;
}

static void params_commit(struct bo_params *b, OSSL_PARAM p)
{
	b->p[b->n++] = p;
	b->p[b->n] = OSSL_PARAM_construct_end();
}

bool bo_params_bn(struct bo_params *b, const char *key, const uint8_t *be, size_t len)
{
	uint8_t *buf = NULL;

	bo_strip(&be, &len);
	buf = params_add(b, len);
	if (!buf)
		return false;
	/* The library takes integers in the machine's byte order. */
	for (size_t i = 0; i < len; i++) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		buf[i] = be[len - 1 - i];
#else
		buf[i] = be[i];
#endif
	}
	params_commit(b, OSSL_PARAM_construct_BN(key, buf, len));
	return true;
}

bool bo_params_octets(struct bo_params *b, const char *key, const uint8_t *p, size_t len)
{
	uint8_t *buf = params_add(b, len);

	if (!buf)
		return false;
	if (len)
		memcpy(buf, p, len);
	params_commit(b, OSSL_PARAM_construct_octet_string(key, buf, len));
	return true;
}

bool bo_params_utf8(struct bo_params *b, const char *key, const char *s)
{
	size_t len = strlen(s);
	uint8_t *buf = params_add(b, len + 1);

	if (!buf)
		return false;
	memcpy(buf, s, len + 1);
	params_commit(b, OSSL_PARAM_construct_utf8_string(key, (char *)buf, len));
	return true;
}

bool bo_params_uint(struct bo_params *b, const char *key, unsigned int v)
{
	uint8_t *buf = params_add(b, sizeof(v));

	if (!buf)
		return false;
	memcpy(buf, &v, sizeof(v));
	params_commit(b, OSSL_PARAM_construct_uint(key, (unsigned int *)(void *)buf));
	return true;
}

bool bo_params_int(struct bo_params *b, const char *key, int v)
{
	uint8_t *buf = params_add(b, sizeof(v));

	if (!buf)
		return false;
	memcpy(buf, &v, sizeof(v));
	params_commit(b, OSSL_PARAM_construct_int(key, (int *)(void *)buf));
	return true;
}

bool bo_params_size(struct bo_params *b, const char *key, size_t v)
{
	uint8_t *buf = params_add(b, sizeof(v));

	if (!buf)
		return false;
	memcpy(buf, &v, sizeof(v));
	params_commit(b, OSSL_PARAM_construct_size_t(key, (size_t *)(void *)buf));
	return true;
}

/* ---- attributes ---- */

bool bo_attr(const struct tee_obj *o, uint32_t id, const uint8_t **p, size_t *len)
{
	const struct obj_attr *a = obj_attr_find(o, id);

	*p = NULL;
	*len = 0;
	if (!a)
		return false;
	*p = a->buf;
	*len = a->len;
	return true;
}

void bo_strip(const uint8_t **p, size_t *len)
{
	while (*len && !**p) {
		(*p)++;
		(*len)--;
	}
}

bool bo_ec_point(const struct bo_curve *c, const uint8_t *x, size_t x_len, const uint8_t *y,
		 size_t y_len, uint8_t *out)
{
	bo_strip(&x, &x_len);
	bo_strip(&y, &y_len);
	if (x_len > c->bytes || y_len > c->bytes)
		return false;
	memset(out, 0, 1 + 2 * c->bytes);
	out[0] = 0x04;
	if (x_len)
		memcpy(out + 1 + c->bytes - x_len, x, x_len);
	if (y_len)
		memcpy(out + 1 + 2 * c->bytes - y_len, y, y_len);
	return true;
}

EVP_PKEY_CTX *bo_pkey_ctx(EVP_PKEY *pk)
{
	return EVP_PKEY_CTX_new_from_pkey(bo_libctx(), pk, NULL);
}

EVP_PKEY *bo_pkey_fromdata(const char *type, int selection, struct bo_params *b)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(bo_libctx(), type, NULL);
	EVP_PKEY *pk = NULL;

	if (ctx && EVP_PKEY_fromdata_init(ctx) == 1 &&
	    EVP_PKEY_fromdata(ctx, &pk, selection, b->p) != 1) {
		EVP_PKEY_free(pk);
		pk = NULL;
	}
	EVP_PKEY_CTX_free(ctx);
	return pk;
}

/* ---- keys ---- */

static bool is_pair(const struct tee_obj *o)
{
	return o->type & OBJ_TYPE_KEYPAIR_BIT;
}

/* Adds attribute id of o (if it has it) as integer key; true when absent. */
static bool add_bn(struct bo_params *b, const struct tee_obj *o, uint32_t id, const char *key)
{
	const uint8_t *p = NULL;
	size_t len = 0;

	if (!bo_attr(o, id, &p, &len))
		return true;
	return bo_params_bn(b, key, p, len);
}

static size_t bn_bytes(const struct tee_obj *o, uint32_t id)
{
	const uint8_t *p = NULL;
	size_t len = 0;

	bo_attr(o, id, &p, &len);
	bo_strip(&p, &len);
	return len;
}

static EVP_PKEY *rsa_key(const struct tee_obj *o, struct be_pkey *k)
{
	struct bo_params b;
	EVP_PKEY *pk = NULL;
	bool ok = false;

	bo_params_init(&b);
	ok = add_bn(&b, o, TEE_ATTR_RSA_MODULUS, OSSL_PKEY_PARAM_RSA_N) &&
	     add_bn(&b, o, TEE_ATTR_RSA_PUBLIC_EXPONENT, OSSL_PKEY_PARAM_RSA_E);
	if (ok && is_pair(o))
		ok = add_bn(&b, o, TEE_ATTR_RSA_PRIVATE_EXPONENT, OSSL_PKEY_PARAM_RSA_D) &&
		     add_bn(&b, o, TEE_ATTR_RSA_PRIME1, OSSL_PKEY_PARAM_RSA_FACTOR1) &&
		     add_bn(&b, o, TEE_ATTR_RSA_PRIME2, OSSL_PKEY_PARAM_RSA_FACTOR2) &&
		     add_bn(&b, o, TEE_ATTR_RSA_EXPONENT1, OSSL_PKEY_PARAM_RSA_EXPONENT1) &&
		     add_bn(&b, o, TEE_ATTR_RSA_EXPONENT2, OSSL_PKEY_PARAM_RSA_EXPONENT2) &&
		     add_bn(&b, o, TEE_ATTR_RSA_COEFFICIENT, OSSL_PKEY_PARAM_RSA_COEFFICIENT1);
	if (ok)
		pk = bo_pkey_fromdata("RSA", is_pair(o) ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
				      &b);
	bo_params_free(&b);
	k->size = bn_bytes(o, TEE_ATTR_RSA_MODULUS);
	return pk;
}

static EVP_PKEY *dsa_key(const struct tee_obj *o, struct be_pkey *k)
{
	struct bo_params b;
	EVP_PKEY *pk = NULL;
	bool ok = false;

	bo_params_init(&b);
	ok = add_bn(&b, o, TEE_ATTR_DSA_PRIME, OSSL_PKEY_PARAM_FFC_P) &&
	     add_bn(&b, o, TEE_ATTR_DSA_SUBPRIME, OSSL_PKEY_PARAM_FFC_Q) &&
	     add_bn(&b, o, TEE_ATTR_DSA_BASE, OSSL_PKEY_PARAM_FFC_G) &&
	     add_bn(&b, o, TEE_ATTR_DSA_PUBLIC_VALUE, OSSL_PKEY_PARAM_PUB_KEY) &&
	     add_bn(&b, o, TEE_ATTR_DSA_PRIVATE_VALUE, OSSL_PKEY_PARAM_PRIV_KEY);
	if (ok)
		pk = bo_pkey_fromdata("DSA", is_pair(o) ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
				      &b);
	bo_params_free(&b);
	k->size = bn_bytes(o, TEE_ATTR_DSA_SUBPRIME);
	return pk;
}

static EVP_PKEY *dh_key(const struct tee_obj *o, struct be_pkey *k)
{
	struct bo_params b;
	EVP_PKEY *pk = NULL;
	bool ok = false;

	bo_params_init(&b);
	ok = add_bn(&b, o, TEE_ATTR_DH_PRIME, OSSL_PKEY_PARAM_FFC_P) &&
	     add_bn(&b, o, TEE_ATTR_DH_BASE, OSSL_PKEY_PARAM_FFC_G) &&
	     add_bn(&b, o, TEE_ATTR_DH_SUBPRIME, OSSL_PKEY_PARAM_FFC_Q) &&
	     add_bn(&b, o, TEE_ATTR_DH_PUBLIC_VALUE, OSSL_PKEY_PARAM_PUB_KEY) &&
	     add_bn(&b, o, TEE_ATTR_DH_PRIVATE_VALUE, OSSL_PKEY_PARAM_PRIV_KEY);
	if (ok)
		pk = bo_pkey_fromdata("DH", EVP_PKEY_KEYPAIR, &b);
	bo_params_free(&b);
	k->size = bn_bytes(o, TEE_ATTR_DH_PRIME);
	return pk;
}

static bool is_sm2(uint32_t type)
{
	switch (type & ~OBJ_TYPE_KEYPAIR_BIT) {
	case TEE_TYPE_SM2_DSA_PUBLIC_KEY:
	case TEE_TYPE_SM2_KEP_PUBLIC_KEY:
	case TEE_TYPE_SM2_PKE_PUBLIC_KEY:
		return true;
	default:
		return false;
	}
}

static EVP_PKEY *ecc_key(const struct tee_obj *o, struct be_pkey *k)
{
	const struct obj_attr *curve = obj_attr_find(o, TEE_ATTR_ECC_CURVE);
	const uint8_t *x = NULL;
	const uint8_t *y = NULL;
	size_t x_len = 0;
	size_t y_len = 0;
	uint8_t point[1 + 2 * 66];
	struct bo_params b;
	EVP_PKEY *pk = NULL;
	bool ok = false;

	k->curve = bo_curve(curve ? curve->a : TEE_ECC_CURVE_SM2);
	if (!k->curve || is_sm2(o->type) != (k->curve->tee == TEE_ECC_CURVE_SM2))
		return NULL;
	k->size = k->curve->order_bytes;
	bo_attr(o, TEE_ATTR_ECC_PUBLIC_VALUE_X, &x, &x_len);
	bo_attr(o, TEE_ATTR_ECC_PUBLIC_VALUE_Y, &y, &y_len);
	if (!bo_ec_point(k->curve, x, x_len, y, y_len, point))
		return NULL;
	bo_params_init(&b);
	ok = bo_params_utf8(&b, OSSL_PKEY_PARAM_GROUP_NAME, k->curve->name) &&
	     bo_params_octets(&b, OSSL_PKEY_PARAM_PUB_KEY, point, 1 + 2 * k->curve->bytes) &&
	     add_bn(&b, o, TEE_ATTR_ECC_PRIVATE_VALUE, OSSL_PKEY_PARAM_PRIV_KEY);
	if (ok)
		pk = bo_pkey_fromdata(is_sm2(o->type) ? "SM2" : "EC",
				      is_pair(o) ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, &b);
	bo_params_free(&b);
	return pk;
}

/* Ed25519 and X25519: 32-byte raw keys; a pair is made from its private value. */
static EVP_PKEY *raw_key(const struct tee_obj *o, struct be_pkey *k, const char *name,
			 uint32_t pub_id, uint32_t priv_id)
{
	const uint8_t *p = NULL;
	size_t len = 0;

	k->size = 32;
	if (is_pair(o)) {
		if (!bo_attr(o, priv_id, &p, &len) || len != 32)
			return NULL;
		return EVP_PKEY_new_raw_private_key_ex(bo_libctx(), name, NULL, p, len);
	}
	if (!bo_attr(o, pub_id, &p, &len) || len != 32)
		return NULL;
	return EVP_PKEY_new_raw_public_key_ex(bo_libctx(), name, NULL, p, len);
}

TEE_Result be_pkey_new(const struct tee_obj *key, struct be_pkey **out)
{
	struct be_pkey *k = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	*out = NULL;
	res = be_init();
	if (res)
		return res;
	k = calloc(1, sizeof(*k));
	if (!k)
		return TEE_ERROR_OUT_OF_MEMORY;
	k->obj = key;
	switch (key->type & ~OBJ_TYPE_KEYPAIR_BIT) {
	case TEE_TYPE_RSA_PUBLIC_KEY:
		k->pk = rsa_key(key, k);
		break;
	case TEE_TYPE_DSA_PUBLIC_KEY:
		k->pk = dsa_key(key, k);
		break;
	case TEE_TYPE_DH_KEYPAIR & ~OBJ_TYPE_KEYPAIR_BIT:
		k->pk = dh_key(key, k);
		break;
	case TEE_TYPE_ECDSA_PUBLIC_KEY:
	case TEE_TYPE_ECDH_PUBLIC_KEY:
	case TEE_TYPE_SM2_DSA_PUBLIC_KEY:
	case TEE_TYPE_SM2_KEP_PUBLIC_KEY:
	case TEE_TYPE_SM2_PKE_PUBLIC_KEY:
		k->pk = ecc_key(key, k);
		break;
	case TEE_TYPE_ED25519_PUBLIC_KEY:
		k->pk = raw_key(key, k, "ED25519", TEE_ATTR_ED25519_PUBLIC_VALUE,
				TEE_ATTR_ED25519_PRIVATE_VALUE);
		break;
	case TEE_TYPE_X25519_PUBLIC_KEY:
		k->pk = raw_key(key, k, "X25519", TEE_ATTR_X25519_PUBLIC_VALUE,
				TEE_ATTR_X25519_PRIVATE_VALUE);
		break;
	default:
		free(k);
		return TEE_ERROR_NOT_SUPPORTED;
	}
	if (!k->pk) {
		res = bo_fail();
		free(k);
		return res == TEE_ERROR_OUT_OF_MEMORY ? res : TEE_ERROR_BAD_PARAMETERS;
	}
	*out = k;
	return TEE_SUCCESS;
}

void be_pkey_free(struct be_pkey *k)
{
	if (!k)
		return;
	EVP_PKEY_free(k->pk); /* cleanses the key */
	secure_wipe(k, sizeof(*k));
	free(k);
}

size_t be_asym_out_size(uint32_t alg, const struct be_pkey *k, uint32_t mode, size_t in_len)
{
	switch (TEE_ALG_GET_MAIN_ALG(alg)) {
	case TEE_MAIN_ALGO_RSA:
		return k->size;
	case TEE_MAIN_ALGO_DSA:
	case TEE_MAIN_ALGO_ECDSA:
	case TEE_MAIN_ALGO_SM2_DSA_SM3:
		return 2 * k->size;
	case TEE_MAIN_ALGO_ED25519:
		return 64;
	case TEE_MAIN_ALGO_SM2_PKE:
		/* C1 (an uncompressed point) || C2 || C3 (SM3) */
		if (mode == TEE_MODE_ENCRYPT)
			return in_len > SIZE_MAX - 97 ? SIZE_MAX : 97 + in_len;
		return in_len > 97 ? in_len - 97 : 0;
	default:
		return 0;
	}
}

/* ---- signature encodings ---- */

bool bo_sig_from_der(const uint8_t *der, size_t der_len, uint8_t *rs, size_t n)
{
	const unsigned char *p = der;
	ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
	const BIGNUM *r = NULL;
	const BIGNUM *s = NULL;
	bool ok = false;

	if (!sig)
		return false;
	ECDSA_SIG_get0(sig, &r, &s);
	ok = BN_bn2binpad(r, rs, (int)n) == (int)n && BN_bn2binpad(s, rs + n, (int)n) == (int)n;
	ECDSA_SIG_free(sig);
	return ok;
}

bool bo_sig_to_der(const uint8_t *rs, size_t rs_len, size_t n, uint8_t **der, size_t *der_len)
{
	ECDSA_SIG *sig = NULL;
	BIGNUM *r = NULL;
	BIGNUM *s = NULL;
	unsigned char *out = NULL;
	int len = 0;

	*der = NULL;
	*der_len = 0;
	if (rs_len != 2 * n)
		return false;
	sig = ECDSA_SIG_new();
	r = BN_bin2bn(rs, (int)n, NULL);
	s = BN_bin2bn(rs + n, (int)n, NULL);
	if (!sig || !r || !s || !ECDSA_SIG_set0(sig, r, s)) {
		BN_free(r);
		BN_free(s);
		ECDSA_SIG_free(sig);
		return false;
	}
	len = i2d_ECDSA_SIG(sig, &out);
	ECDSA_SIG_free(sig);
	if (len <= 0)
		return false;
	*der = out;
	*der_len = (size_t)len;
	return true;
}
