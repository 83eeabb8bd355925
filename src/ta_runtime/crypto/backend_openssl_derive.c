/*
 * The OpenSSL 3 backend: shared secrets (DH, ECDH, X25519) and the key
 * derivation functions (HKDF, PBKDF2, Concat KDF).
 *
 * The peer's DH or ECC public key is checked by the library before use
 * (EVP_PKEY_derive_set_peer_ex with validation): a DH value outside
 * 2..p-2, or not of order q when the key has a q; an ECC point off the
 * curve. X25519 takes any 32 bytes (RFC 7748); a point of small order
 * gives an all-zero secret, which OpenSSL refuses and OP-TEE returns.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/proverr.h>

#include <tee_api_defines.h>

#include "backend_openssl.h"
#include "secure.h"

/* Derives with k and peer into out; BAD_PARAMETERS for a peer the library refuses. */
static TEE_Result derive(struct be_pkey *k, EVP_PKEY *peer, bool validate, bool pad, uint8_t *out,
			 size_t *out_len)
{
	EVP_PKEY_CTX *ctx = bo_pkey_ctx(k->pk);
	TEE_Result res = TEE_ERROR_GENERIC;
	struct bo_params b;
	size_t n = 0;

	bo_params_init(&b);
	if (!ctx)
		return TEE_ERROR_OUT_OF_MEMORY;
	if (EVP_PKEY_derive_init(ctx) != 1) {
		res = bo_fail();
		goto out;
	}
	if (pad && (!bo_params_uint(&b, OSSL_EXCHANGE_PARAM_PAD, 1) ||
		    EVP_PKEY_CTX_set_params(ctx, b.p) != 1)) {
		res = bo_fail();
		goto out;
	}
	if (EVP_PKEY_derive_set_peer_ex(ctx, peer, validate ? 1 : 0) != 1) {
		ERR_clear_error();
		res = TEE_ERROR_BAD_PARAMETERS;
		goto out;
	}
	if (EVP_PKEY_derive(ctx, NULL, &n) != 1 || n > *out_len) {
		res = bo_fail();
		goto out;
	}
	if (EVP_PKEY_derive(ctx, out, &n) != 1) {
		unsigned long e = ERR_peek_last_error();

		res = bo_fail();
		/* X25519 with a point of small order: the secret is zero. */
		if (!validate && ERR_GET_REASON(e) == PROV_R_FAILED_DURING_DERIVATION) {
			memset(out, 0, n);
			*out_len = n;
			res = TEE_SUCCESS;
		}
		goto out;
	}
	*out_len = n;
	res = TEE_SUCCESS;
out:
	bo_params_free(&b);
	EVP_PKEY_CTX_free(ctx);
	return res;
}

static bool add_attr(struct bo_params *b, const struct tee_obj *o, uint32_t id, const char *key)
{
	const uint8_t *p = NULL;
	size_t len = 0;

	if (!bo_attr(o, id, &p, &len))
		return true;
	return bo_params_bn(b, key, p, len);
}

TEE_Result be_derive_dh(struct be_pkey *k, const uint8_t *peer, size_t peer_len, uint8_t *out,
			size_t *out_len)
{
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	EVP_PKEY *pk = NULL;
	struct bo_params b;
	size_t off = 0;

	bo_params_init(&b);
	if (!add_attr(&b, k->obj, TEE_ATTR_DH_PRIME, OSSL_PKEY_PARAM_FFC_P) ||
	    !add_attr(&b, k->obj, TEE_ATTR_DH_BASE, OSSL_PKEY_PARAM_FFC_G) ||
	    !add_attr(&b, k->obj, TEE_ATTR_DH_SUBPRIME, OSSL_PKEY_PARAM_FFC_Q) ||
	    !bo_params_bn(&b, OSSL_PKEY_PARAM_PUB_KEY, peer, peer_len))
		goto out;
	pk = bo_pkey_fromdata("DH", EVP_PKEY_PUBLIC_KEY, &b);
	if (!pk) {
		res = bo_fail() == TEE_ERROR_OUT_OF_MEMORY ? TEE_ERROR_OUT_OF_MEMORY
							   : TEE_ERROR_BAD_PARAMETERS;
		goto out;
	}
	res = derive(k, pk, true, true, out, out_len);
	if (res)
		goto out;
	/* OP-TEE gives the number without its leading zero bytes. */
	while (off + 1 < *out_len && !out[off])
		off++;
	memmove(out, out + off, *out_len - off);
	secure_wipe(out + *out_len - off, off);
	*out_len -= off;
out:
	EVP_PKEY_free(pk);
	bo_params_free(&b);
	return res;
}

TEE_Result be_derive_ecdh(struct be_pkey *k, const uint8_t *x, size_t x_len, const uint8_t *y,
			  size_t y_len, uint8_t *out, size_t *out_len)
{
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	uint8_t point[1 + 2 * 66];
	EVP_PKEY *pk = NULL;
	struct bo_params b;

	bo_params_init(&b);
	if (!k->curve || !bo_ec_point(k->curve, x, x_len, y, y_len, point))
		goto out;
	if (!bo_params_utf8(&b, OSSL_PKEY_PARAM_GROUP_NAME, k->curve->name) ||
	    !bo_params_octets(&b, OSSL_PKEY_PARAM_PUB_KEY, point, 1 + 2 * k->curve->bytes)) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	/* Refused here when the point is not on the curve. */
	pk = bo_pkey_fromdata("EC", EVP_PKEY_PUBLIC_KEY, &b);
	if (!pk) {
		res = bo_fail() == TEE_ERROR_OUT_OF_MEMORY ? TEE_ERROR_OUT_OF_MEMORY
							   : TEE_ERROR_BAD_PARAMETERS;
		goto out;
	}
	res = derive(k, pk, true, false, out, out_len);
out:
	EVP_PKEY_free(pk);
	bo_params_free(&b);
	return res;
}

TEE_Result be_derive_x25519(struct be_pkey *k, const uint8_t *peer, size_t peer_len, uint8_t *out,
			    size_t *out_len)
{
	EVP_PKEY *pk = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (peer_len != 32)
		return TEE_ERROR_BAD_PARAMETERS;
	pk = EVP_PKEY_new_raw_public_key_ex(bo_libctx(), "X25519", NULL, peer, peer_len);
	if (!pk)
		return bo_fail();
	res = derive(k, pk, false, false, out, out_len);
	EVP_PKEY_free(pk);
	return res;
}

/* ---- KDFs ---- */

static TEE_Result kdf(const char *name, struct bo_params *b, uint8_t *out, size_t out_len)
{
	EVP_KDF *kdf = EVP_KDF_fetch(bo_libctx(), name, NULL);
	EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;

	if (!ctx) {
		res = bo_fail();
		goto out;
	}
	/* Parameters were checked by the caller; what fails now is the output size. */
	if (EVP_KDF_derive(ctx, out, out_len, b->p) != 1) {
		res = bo_fail() == TEE_ERROR_OUT_OF_MEMORY ? TEE_ERROR_OUT_OF_MEMORY
							   : TEE_ERROR_BAD_PARAMETERS;
		goto out;
	}
	res = TEE_SUCCESS;
out:
	EVP_KDF_CTX_free(ctx);
	EVP_KDF_free(kdf);
	return res;
}

TEE_Result be_hkdf(uint32_t hash, const uint8_t *ikm, size_t ikm_len, const uint8_t *salt,
		   size_t salt_len, const uint8_t *info, size_t info_len, uint8_t *out,
		   size_t out_len)
{
	const char *md = bo_md_name(hash);
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	struct bo_params b;

	if (!md)
		return TEE_ERROR_NOT_SUPPORTED;
	bo_params_init(&b);
	if (bo_params_utf8(&b, OSSL_KDF_PARAM_DIGEST, md) &&
	    bo_params_octets(&b, OSSL_KDF_PARAM_KEY, ikm, ikm_len) &&
	    (!salt_len || bo_params_octets(&b, OSSL_KDF_PARAM_SALT, salt, salt_len)) &&
	    bo_params_octets(&b, OSSL_KDF_PARAM_INFO, info, info_len))
		res = kdf("HKDF", &b, out, out_len);
	bo_params_free(&b);
	return res;
}

TEE_Result be_pbkdf2(uint32_t hash, const uint8_t *pw, size_t pw_len, const uint8_t *salt,
		     size_t salt_len, uint32_t iter, uint8_t *out, size_t out_len)
{
	const char *md = bo_md_name(hash);
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	struct bo_params b;

	if (!md)
		return TEE_ERROR_NOT_SUPPORTED;
	if (!iter)
		return TEE_ERROR_BAD_PARAMETERS;
	bo_params_init(&b);
	/* pkcs5 = 1: RFC 8018 as is, not SP 800-132's lower bounds. */
	if (bo_params_utf8(&b, OSSL_KDF_PARAM_DIGEST, md) &&
	    bo_params_octets(&b, OSSL_KDF_PARAM_PASSWORD, pw, pw_len) &&
	    bo_params_octets(&b, OSSL_KDF_PARAM_SALT, salt, salt_len) &&
	    bo_params_uint(&b, OSSL_KDF_PARAM_ITER, iter) &&
	    bo_params_uint(&b, OSSL_KDF_PARAM_PKCS5, 1))
		res = kdf("PBKDF2", &b, out, out_len);
	bo_params_free(&b);
	return res;
}

TEE_Result be_concat_kdf(uint32_t hash, const uint8_t *z, size_t z_len, const uint8_t *info,
			 size_t info_len, uint8_t *out, size_t out_len)
{
	const char *md = bo_md_name(hash);
	TEE_Result res = TEE_ERROR_OUT_OF_MEMORY;
	struct bo_params b;

	if (!md)
		return TEE_ERROR_NOT_SUPPORTED;
	bo_params_init(&b);
	if (bo_params_utf8(&b, OSSL_KDF_PARAM_DIGEST, md) &&
	    bo_params_octets(&b, OSSL_KDF_PARAM_KEY, z, z_len) &&
	    bo_params_octets(&b, OSSL_KDF_PARAM_INFO, info, info_len))
		res = kdf("SSKDF", &b, out, out_len);
	bo_params_free(&b);
	return res;
}
