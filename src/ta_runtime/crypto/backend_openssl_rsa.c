/*
 * The OpenSSL 3 backend: RSA. Encryption with PKCS#1 v1.5, OAEP or no
 * padding; signatures with PKCS#1 v1.5 (with or without the hash's
 * DigestInfo) and PSS, over the digest the TA computed.
 *
 * Beyond what OpenSSL checks: a padded ciphertext must be exactly the
 * modulus long (RFC 8017 7.1.2 and 7.2.2, step 1), and a signature too.
 * A PKCS#1 v1.5 signature whose DigestInfo leaves out the NULL parameters
 * of the hash is accepted, as libtomcrypt (OP-TEE) does.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>

#include <tee_api_defines.h>
#include <tee_api_defines_extensions.h>
#include <utee_defines.h>

#include "backend_openssl.h"
#include "secure.h"

enum rsa_scheme {
	RSA_NOPAD,
	RSA_ES_PKCS1,
	RSA_ES_OAEP,
	RSA_SSA_PKCS1,
	RSA_SSA_PSS,
};

static enum rsa_scheme scheme(uint32_t alg)
{
	switch (TEE_ALG_GET_CHAIN_MODE(alg)) {
	case 0x1:
		return RSA_ES_PKCS1;
	case 0x2:
		return RSA_ES_OAEP;
	case 0x8:
		return RSA_SSA_PKCS1;
	case 0x9:
		return RSA_SSA_PSS;
	default:
		return RSA_NOPAD;
	}
}

/* Sets padding, digests and label on a context initialised for an operation. */
static bool ctx_setup(EVP_PKEY_CTX *ctx, enum rsa_scheme s, const struct be_asym_params *p)
{
	const char *md = p->hash ? bo_md_name(p->hash) : NULL;
	const char *mgf = p->mgf_hash ? bo_md_name(p->mgf_hash) : md;
	struct bo_params b;
	bool ok = false;

	bo_params_init(&b);
	switch (s) {
	case RSA_NOPAD:
		ok = bo_params_utf8(&b, OSSL_ASYM_CIPHER_PARAM_PAD_MODE,
				    OSSL_PKEY_RSA_PAD_MODE_NONE);
		break;
	case RSA_ES_PKCS1:
		ok = bo_params_utf8(&b, OSSL_ASYM_CIPHER_PARAM_PAD_MODE,
				    OSSL_PKEY_RSA_PAD_MODE_PKCSV15);
		break;
	case RSA_ES_OAEP:
		ok = md && mgf &&
		     bo_params_utf8(&b, OSSL_ASYM_CIPHER_PARAM_PAD_MODE,
				    OSSL_PKEY_RSA_PAD_MODE_OAEP) &&
		     bo_params_utf8(&b, OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, md) &&
		     bo_params_utf8(&b, OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, mgf);
		if (ok && p->label_len)
			ok = bo_params_octets(&b, OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, p->label,
					      p->label_len);
		break;
	case RSA_SSA_PKCS1:
		ok = bo_params_utf8(&b, OSSL_SIGNATURE_PARAM_PAD_MODE,
				    OSSL_PKEY_RSA_PAD_MODE_PKCSV15);
		if (ok && p->hash)
			ok = md && bo_params_utf8(&b, OSSL_SIGNATURE_PARAM_DIGEST, md);
		break;
	case RSA_SSA_PSS:
		ok =
		    md && mgf &&
		    bo_params_utf8(&b, OSSL_SIGNATURE_PARAM_PAD_MODE, OSSL_PKEY_RSA_PAD_MODE_PSS) &&
		    bo_params_utf8(&b, OSSL_SIGNATURE_PARAM_DIGEST, md) &&
		    bo_params_utf8(&b, OSSL_SIGNATURE_PARAM_MGF1_DIGEST, mgf) &&
		    p->salt_len <= INT32_MAX &&
		    bo_params_int(&b, OSSL_SIGNATURE_PARAM_PSS_SALTLEN, (int)p->salt_len);
		break;
	}
	if (ok)
		ok = EVP_PKEY_CTX_set_params(ctx, b.p) == 1;
	bo_params_free(&b);
	return ok;
}

/* Leading zero bytes of buf[0..*len) removed, keeping one (OP-TEE's RSA without padding). */
static void strip_zeros(uint8_t *buf, size_t *len)
{
	size_t off = 0;

	while (off + 1 < *len && !buf[off])
		off++;
	memmove(buf, buf + off, *len - off);
	*len -= off;
}

/* RSA without padding, either way: in (up to k bytes) as a number below the modulus. */
static TEE_Result nopad(struct be_pkey *k, bool encrypt, const uint8_t *in, size_t len,
			uint8_t *out, size_t *out_len)
{
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	struct be_asym_params none = {0};
	EVP_PKEY_CTX *ctx = NULL;
	uint8_t *block = NULL;
	size_t n = k->size;

	if (len > k->size)
		return TEE_ERROR_BAD_PARAMETERS;
	block = calloc(1, k->size ? k->size : 1);
	ctx = bo_pkey_ctx(k->pk);
	if (!block || !ctx) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	if (len)
		memcpy(block + k->size - len, in, len);
	if ((encrypt ? EVP_PKEY_encrypt_init(ctx) : EVP_PKEY_decrypt_init(ctx)) != 1 ||
	    !ctx_setup(ctx, RSA_NOPAD, &none)) {
		res = bo_fail();
		goto out;
	}
	/* A number not below the modulus is the only failure left. */
	if ((encrypt ? EVP_PKEY_encrypt(ctx, out, &n, block, k->size)
		     : EVP_PKEY_decrypt(ctx, out, &n, block, k->size)) != 1) {
		ERR_clear_error();
		goto out;
	}
	strip_zeros(out, &n);
	*out_len = n;
	res = TEE_SUCCESS;
out:
	if (block)
		secure_wipe(block, k->size);
	free(block);
	EVP_PKEY_CTX_free(ctx);
	return res;
}

TEE_Result bo_rsa_encrypt(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			  const void *in, size_t len, void *out, size_t *out_len)
{
	enum rsa_scheme s = scheme(alg);
	EVP_PKEY_CTX *ctx = NULL;
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	size_t n = k->size;

	if (s == RSA_NOPAD)
		return nopad(k, true, in, len, out, out_len);
	ctx = bo_pkey_ctx(k->pk);
	if (!ctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (EVP_PKEY_encrypt_init(ctx) != 1 || !ctx_setup(ctx, s, p)) {
		res = bo_fail();
		goto out;
	}
	/* A message too long for the key is the only failure left. */
	if (EVP_PKEY_encrypt(ctx, out, &n, in, len) != 1) {
		ERR_clear_error();
		goto out;
	}
	*out_len = n;
	res = TEE_SUCCESS;
out:
	EVP_PKEY_CTX_free(ctx);
	return res;
}

TEE_Result bo_rsa_decrypt(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			  const void *in, size_t len, void *out, size_t *out_len)
{
	enum rsa_scheme s = scheme(alg);
	EVP_PKEY_CTX *ctx = NULL;
	TEE_Result res = TEE_ERROR_CIPHERTEXT_INVALID;
	size_t n = k->size;

	if (s == RSA_NOPAD)
		return nopad(k, false, in, len, out, out_len);
	if (len != k->size)
		return TEE_ERROR_CIPHERTEXT_INVALID;
	ctx = bo_pkey_ctx(k->pk);
	if (!ctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (EVP_PKEY_decrypt_init(ctx) != 1 || !ctx_setup(ctx, s, p)) {
		res = bo_fail();
		goto out;
	}
	/* One answer for every way a ciphertext can be wrong. */
	if (EVP_PKEY_decrypt(ctx, out, &n, in, len) != 1) {
		ERR_clear_error();
		secure_wipe(out, k->size);
		goto out;
	}
	*out_len = n;
	res = TEE_SUCCESS;
out:
	EVP_PKEY_CTX_free(ctx);
	return res;
}

TEE_Result bo_rsa_sign(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
		       const void *digest, size_t len, void *sig, size_t *sig_len)
{
	EVP_PKEY_CTX *ctx = bo_pkey_ctx(k->pk);
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t n = k->size;

	if (!ctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (EVP_PKEY_sign_init(ctx) != 1 || !ctx_setup(ctx, scheme(alg), p)) {
		res = bo_fail();
		goto out;
	}
	/* The key too small for the encoding (or the salt) is what can fail. */
	if (EVP_PKEY_sign(ctx, sig, &n, digest, len) != 1) {
		res = bo_fail();
		if (res != TEE_ERROR_OUT_OF_MEMORY)
			res = TEE_ERROR_BAD_PARAMETERS;
		goto out;
	}
	*sig_len = n;
	res = TEE_SUCCESS;
out:
	EVP_PKEY_CTX_free(ctx);
	return res;
}

/*
 * A PKCS#1 v1.5 signature whose DigestInfo has no NULL parameters:
 *	30 L 30 L' <OID of the hash> 04 hlen <digest>
 */
static bool verify_missing_null(struct be_pkey *k, const struct be_asym_params *p,
				const uint8_t *digest, size_t len, const uint8_t *sig,
				size_t sig_len)
{
	const EVP_MD *md = bo_md(p->hash);
	EVP_PKEY_CTX *ctx = NULL;
	const ASN1_OBJECT *oid = NULL;
	unsigned char *oid_der = NULL;
	uint8_t *rec = NULL;
	uint8_t want[128];
	size_t rec_len = k->size;
	size_t want_len = 0;
	int oid_len = 0;
	bool ok = false;

	if (!md || len > 64)
		return false;
	oid = OBJ_nid2obj(EVP_MD_get_type(md));
	if (oid)
		oid_len = i2d_ASN1_OBJECT(oid, &oid_der);
	if (oid_len <= 0 || oid_len > 32)
		goto out;
	want[0] = 0x30;
	want[1] = (uint8_t)(2 + oid_len + 2 + len);
	want[2] = 0x30;
	want[3] = (uint8_t)oid_len;
	memcpy(want + 4, oid_der, (size_t)oid_len);
	want_len = 4 + (size_t)oid_len;
	want[want_len++] = 0x04;
	want[want_len++] = (uint8_t)len;
	memcpy(want + want_len, digest, len);
	want_len += len;
	rec = malloc(k->size);
	ctx = bo_pkey_ctx(k->pk);
	if (!rec || !ctx || EVP_PKEY_verify_recover_init(ctx) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) != 1 ||
	    EVP_PKEY_verify_recover(ctx, rec, &rec_len, sig, sig_len) != 1)
		goto out;
	ok = rec_len == want_len && secure_equal(rec, want, want_len);
out:
	ERR_clear_error();
	OPENSSL_free(oid_der);
	EVP_PKEY_CTX_free(ctx);
	free(rec);
	return ok;
}

TEE_Result bo_rsa_verify(uint32_t alg, struct be_pkey *k, const struct be_asym_params *p,
			 const void *digest, size_t len, const void *sig, size_t sig_len)
{
	enum rsa_scheme s = scheme(alg);
	EVP_PKEY_CTX *ctx = NULL;
	TEE_Result res = TEE_ERROR_SIGNATURE_INVALID;

	if (sig_len != k->size)
		return TEE_ERROR_SIGNATURE_INVALID;
	ctx = bo_pkey_ctx(k->pk);
	if (!ctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (EVP_PKEY_verify_init(ctx) != 1 || !ctx_setup(ctx, s, p)) {
		res = bo_fail();
		goto out;
	}
	if (EVP_PKEY_verify(ctx, sig, sig_len, digest, len) == 1 ||
	    (s == RSA_SSA_PKCS1 && p->hash && verify_missing_null(k, p, digest, len, sig, sig_len)))
		res = TEE_SUCCESS;
	ERR_clear_error();
out:
	EVP_PKEY_CTX_free(ctx);
	return res;
}
