#include "ta_sign.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

#include <openssl/core_names.h>

#include "buf.h"
#include "ta_image.h"
#include "ta_image_format.h"

static int key_check(EVP_PKEY *key, size_t *sig_size, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	int bits = 0;
	int size = 0;

	*sig_size = 0;
	if (!EVP_PKEY_is_a(key, "RSA")) {
		ta_image_set_why(why, whylen, "signing key is not an RSA key");
		goto out;
	}
	bits = EVP_PKEY_get_bits(key);
	size = EVP_PKEY_get_size(key);
	if (bits < SHDR_MIN_RSA_BITS || size <= 0 || (unsigned int)size > SHDR_MAX_SIG_SIZE) {
		ta_image_set_why(why, whylen, "RSA key of %d bits; need %d to %u bits", bits,
				 SHDR_MIN_RSA_BITS, SHDR_MAX_SIG_SIZE * 8);
		goto out;
	}
	*sig_size = (size_t)size;
	rc = TA_IMAGE_OK;
out:
	return rc;
}

static void why_crypto(char *why, size_t whylen, const char *what)
{
	char err[160] = "unknown error";
	unsigned long e = ERR_peek_last_error();

	if (e)
		ERR_error_string_n(e, err, sizeof(err));
	ta_image_set_why(why, whylen, "%s: %s", what, err);
}

static int hash_sign(EVP_PKEY *key, uint32_t algo, const uint8_t hash[SHDR_HASH_SIZE], uint8_t *sig,
		     size_t sig_size, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	EVP_PKEY_CTX *ctx = NULL;
	size_t n = sig_size;

	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
	if (!ctx || EVP_PKEY_sign_init(ctx) != 1 || ta_image_sig_params(ctx, algo) ||
	    EVP_PKEY_sign(ctx, sig, &n, hash, SHDR_HASH_SIZE) != 1) {
		why_crypto(why, whylen, "RSA signing failed");
		goto out;
	}
	if (n != sig_size) {
		ta_image_set_why(why, whylen, "RSA signature of %zu bytes, expected %zu", n,
				 sig_size);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	EVP_PKEY_CTX_free(ctx);
	return rc;
}

/*
 * Writes pre bytes of room (left for the caller), then shdr (img_type,
 * img_size, algo), hash and signature over shdr || a || b, then a and b.
 */
static int shdr_sign(uint32_t img_type, uint32_t img_size, uint32_t algo, EVP_PKEY *key, size_t pre,
		     const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, uint8_t **out,
		     size_t *outlen, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	uint8_t *img = NULL;
	uint8_t *hdr = NULL;
	uint8_t *body = NULL;
	size_t sig_size = 0;
	size_t body_off = 0;
	size_t total = 0;
	uint8_t hash[SHDR_HASH_SIZE] = {0};
	struct buf_writer w = {0};

	rc = key_check(key, &sig_size, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_GENERIC;
	if (__builtin_add_overflow(pre, (size_t)SHDR_SIZE + SHDR_HASH_SIZE + sig_size, &body_off) ||
	    __builtin_add_overflow(body_off, alen, &total) ||
	    __builtin_add_overflow(total, blen, &total)) {
		ta_image_set_why(why, whylen, "image size overflows");
		goto out;
	}
	img = calloc(1, total);
	if (!img) {
		ta_image_set_why(why, whylen, "out of memory");
		goto out;
	}
	hdr = img + pre;
	body = img + body_off;
	buf_writer_init(&w, hdr, SHDR_SIZE);
	buf_put_u32(&w, SHDR_MAGIC);
	buf_put_u32(&w, img_type);
	buf_put_u32(&w, img_size);
	buf_put_u32(&w, algo);
	buf_put_u16(&w, SHDR_HASH_SIZE);
	buf_put_u16(&w, (uint16_t)sig_size);
	if (buf_written(&w) != SHDR_SIZE) {
		ta_image_set_why(why, whylen, "cannot write the header");
		goto out;
	}
	buf_writer_init(&w, body, total - body_off);
	buf_put_bytes(&w, a, alen);
	if (blen)
		buf_put_bytes(&w, b, blen);
	if (buf_written(&w) != total - body_off) {
		ta_image_set_why(why, whylen, "cannot write the image body");
		goto out;
	}
	if (ta_image_hash(hdr, body, total - body_off, hash)) {
		why_crypto(why, whylen, "cannot compute the image hash");
		goto out;
	}
	rc = hash_sign(key, algo, hash, hdr + SHDR_SIZE + SHDR_HASH_SIZE, sig_size, why, whylen);
	if (rc)
		goto out;
	memcpy(hdr + SHDR_SIZE, hash, sizeof(hash));
	*out = img;
	img = NULL; /* transferred */
	*outlen = total;
	rc = TA_IMAGE_OK;
out:
	free(img);
	return rc;
}

static void out_clear(uint8_t **out, size_t *outlen, char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = '\0';
	if (out)
		*out = NULL;
	if (outlen)
		*outlen = 0;
}

int ta_image_sign(const uint8_t *elf, size_t len, const struct swtee_uuid *uuid, uint32_t version,
		  uint32_t algo, EVP_PKEY *key, uint8_t **out, size_t *outlen, char *why,
		  size_t whylen)
{
	return ta_image_sign_chain(NULL, 0, NULL, elf, len, uuid, version, algo, key, out, outlen,
				   why, whylen);
}

/*
 * The prefix of an image signed under the subkey chain[0..len): the chain and
 * the last subkey's name, NUL-padded to its name_size. Fills *last, and *ns
 * with the UUID the next image must carry.
 */
static int chain_prefix(const uint8_t *chain, size_t len, const char *name, uint8_t **prefix,
			size_t *prefix_len, struct ta_subkey_info *last, struct swtee_uuid *ns,
			char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	uint32_t count = 0;
	size_t name_len = name ? strlen(name) : 0;
	uint8_t *p = NULL;

	*prefix = NULL;
	*prefix_len = 0;
	rc = ta_subkey_chain_parse(chain, len, last, &count, NULL, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_SIZE;
	if (name_len > last->name_size) {
		ta_image_set_why(why, whylen, "name of %zu bytes, but the subkey allows %u%s",
				 name_len, last->name_size,
				 last->name_size ? "" : " (an identity subkey takes no name)");
		goto out;
	}
	rc = TA_IMAGE_E_GENERIC;
	p = calloc(1, len + last->name_size + 1);
	if (!p) {
		ta_image_set_why(why, whylen, "out of memory");
		goto out;
	}
	memcpy(p, chain, len);
	if (name_len) /* with its NUL: name_len <= name_size, and p has one byte more */
		memcpy(p + len, name, name_len + 1);
	if (ta_subkey_next_uuid(&last->uuid, p + len, last->name_size, ns)) {
		ta_image_set_why(why, whylen, "cannot compute the subkey's namespace");
		goto out;
	}
	*prefix = p;
	p = NULL; /* transferred */
	*prefix_len = len + last->name_size;
	rc = TA_IMAGE_OK;
out:
	free(p);
	return rc;
}

/* Puts prefix[0..prefix_len) into the room shdr_sign left at the start of *img. */
static void prefix_fill(uint8_t *img, const uint8_t *prefix, size_t prefix_len)
{
	if (prefix_len)
		memcpy(img, prefix, prefix_len);
}

int ta_image_sign_chain(const uint8_t *chain, size_t chain_len, const char *name,
			const uint8_t *elf, size_t len, const struct swtee_uuid *uuid,
			uint32_t version, uint32_t algo, EVP_PKEY *key, uint8_t **out,
			size_t *outlen, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	uint8_t boot[SHDR_BOOTSTRAP_TA_SIZE] = {0};
	uint8_t *prefix = NULL;
	size_t prefix_len = 0;
	struct ta_subkey_info last = {0};
	struct swtee_uuid ns = {0};
	char s1[SWTEE_UUID_STR_LEN] = "";
	char s2[SWTEE_UUID_STR_LEN] = "";
	struct buf_writer w = {0};

	out_clear(out, outlen, why, whylen);
	if (!elf || !uuid || !key || !out || !outlen || (chain_len && !chain)) {
		ta_image_set_why(why, whylen, "invalid arguments");
		goto out;
	}
	rc = TA_IMAGE_E_ALGO;
	if (algo != SHDR_ALGO_RSASSA_PSS_SHA256 && algo != SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256) {
		ta_image_set_why(why, whylen, "unsupported signature algorithm 0x%08x", algo);
		goto out;
	}
	rc = TA_IMAGE_E_SIZE;
	if (len == 0 || len > SHDR_MAX_IMG_SIZE) {
		ta_image_set_why(why, whylen, "ELF of %zu bytes; must be 1 to %u", len,
				 SHDR_MAX_IMG_SIZE);
		goto out;
	}
	if (chain) {
		rc = chain_prefix(chain, chain_len, name, &prefix, &prefix_len, &last, &ns, why,
				  whylen);
		if (rc)
			goto out;
		rc = TA_IMAGE_E_UUID;
		if (!uuid_equal(uuid, &ns)) {
			uuid_format(uuid, s1);
			uuid_format(&ns, s2);
			ta_image_set_why(why, whylen,
					 "UUID %s lies outside the subkey's namespace: with this "
					 "name the TA's UUID is %s",
					 s1, s2);
			goto out;
		}
	}
	buf_writer_init(&w, boot, sizeof(boot));
	buf_put_bytes(&w, uuid->b, sizeof(uuid->b));
	buf_put_u32(&w, version);
	rc = shdr_sign(SHDR_BOOTSTRAP_TA, (uint32_t)len, algo, key, prefix_len, boot, sizeof(boot),
		       elf, len, out, outlen, why, whylen);
	if (rc)
		goto out;
	prefix_fill(*out, prefix, prefix_len);
out:
	free(prefix);
	return rc;
}

/* The subkey body: uuid, fields, the modulus and exponent attributes, then their bytes. */
static int subkey_body_build(const struct ta_subkey_info *sub, EVP_PKEY *pub, uint8_t **body,
			     size_t *body_len, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	BIGNUM *n = NULL;
	BIGNUM *e = NULL;
	int nlen = 0;
	int elen = 0;
	size_t attrs_end = SHDR_SUBKEY_SIZE + 2 * SHDR_SUBKEY_ATTR_SIZE;
	size_t total = 0;
	uint8_t *p = NULL;
	struct buf_writer w = {0};

	*body = NULL;
	*body_len = 0;
	if (!EVP_PKEY_is_a(pub, "RSA") || EVP_PKEY_get_bn_param(pub, "n", &n) != 1 ||
	    EVP_PKEY_get_bn_param(pub, "e", &e) != 1) {
		ta_image_set_why(why, whylen, "the subkey is not an RSA key");
		goto out;
	}
	/* As OP-TEE's signer writes them: big-endian, one bit of room for a sign. */
	nlen = (BN_num_bits(n) + 8) / 8;
	elen = (BN_num_bits(e) + 8) / 8;
	total = attrs_end + (size_t)nlen + (size_t)elen;
	if (total > SHDR_MAX_SUBKEY_BODY) {
		ta_image_set_why(why, whylen, "the subkey's header would exceed %u bytes",
				 SHDR_MAX_SUBKEY_BODY);
		goto out;
	}
	p = malloc(total);
	if (!p) {
		ta_image_set_why(why, whylen, "out of memory");
		goto out;
	}
	buf_writer_init(&w, p, total);
	buf_put_bytes(&w, sub->uuid.b, sizeof(sub->uuid.b));
	buf_put_u32(&w, sub->name_size);
	buf_put_u32(&w, sub->version);
	buf_put_u32(&w, sub->max_depth);
	buf_put_u32(&w, sub->algo);
	buf_put_u32(&w, 2);
	buf_put_u32(&w, SHDR_ATTR_RSA_MODULUS);
	buf_put_u32(&w, (uint32_t)attrs_end);
	buf_put_u32(&w, (uint32_t)nlen);
	buf_put_u32(&w, SHDR_ATTR_RSA_PUBLIC_EXPONENT);
	buf_put_u32(&w, (uint32_t)(attrs_end + (size_t)nlen));
	buf_put_u32(&w, (uint32_t)elen);
	if (buf_written(&w) != attrs_end || BN_bn2binpad(n, p + attrs_end, nlen) != nlen ||
	    BN_bn2binpad(e, p + attrs_end + nlen, elen) != elen) {
		ta_image_set_why(why, whylen, "cannot write the subkey header");
		goto out;
	}
	*body = p;
	p = NULL; /* transferred */
	*body_len = total;
	rc = TA_IMAGE_OK;
out:
	free(p);
	BN_free(n);
	BN_free(e);
	return rc;
}

int ta_subkey_sign(const uint8_t *parent, size_t parent_len, const char *name,
		   const struct ta_subkey_info *sub, EVP_PKEY *pub, uint32_t algo, EVP_PKEY *key,
		   uint8_t **out, size_t *outlen, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	uint8_t *prefix = NULL;
	size_t prefix_len = 0;
	uint8_t *body = NULL;
	size_t body_len = 0;
	struct ta_subkey_info last = {0};
	struct swtee_uuid ns = {0};
	char s1[SWTEE_UUID_STR_LEN] = "";
	char s2[SWTEE_UUID_STR_LEN] = "";

	out_clear(out, outlen, why, whylen);
	if (!sub || !pub || !key || !out || !outlen || (parent_len && !parent)) {
		ta_image_set_why(why, whylen, "invalid arguments");
		goto out;
	}
	rc = TA_IMAGE_E_ALGO;
	if ((algo != SHDR_ALGO_RSASSA_PSS_SHA256 && algo != SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256) ||
	    (sub->algo != SHDR_ALGO_RSASSA_PSS_SHA256 &&
	     sub->algo != SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256)) {
		ta_image_set_why(why, whylen, "unsupported signature algorithm");
		goto out;
	}
	rc = TA_IMAGE_E_SIZE;
	if (sub->name_size > SHDR_MAX_SUBKEY_NAME) {
		ta_image_set_why(why, whylen, "name size %u exceeds %u", sub->name_size,
				 SHDR_MAX_SUBKEY_NAME);
		goto out;
	}
	if (parent) {
		rc = chain_prefix(parent, parent_len, name, &prefix, &prefix_len, &last, &ns, why,
				  whylen);
		if (rc)
			goto out;
		rc = TA_IMAGE_E_SUBKEY;
		if (sub->max_depth >= last.max_depth) {
			ta_image_set_why(why, whylen,
					 "max depth %u, but the parent subkey allows at most %u "
					 "below it%s",
					 sub->max_depth, last.max_depth,
					 last.max_depth ? "" : " (none: it signs TAs only)");
			goto out;
		}
		rc = TA_IMAGE_E_UUID;
		if (!uuid_equal(&sub->uuid, &ns)) {
			uuid_format(&sub->uuid, s1);
			uuid_format(&ns, s2);
			ta_image_set_why(why, whylen,
					 "UUID %s lies outside the parent subkey's namespace: "
					 "with this name it is %s",
					 s1, s2);
			goto out;
		}
	}
	rc = TA_IMAGE_E_SUBKEY;
	if (!EVP_PKEY_is_a(pub, "RSA") || EVP_PKEY_get_bits(pub) < SHDR_MIN_RSA_BITS ||
	    EVP_PKEY_get_size(pub) > (int)SHDR_MAX_SIG_SIZE) {
		ta_image_set_why(why, whylen, "the subkey must be an RSA key of %d to %u bits",
				 SHDR_MIN_RSA_BITS, SHDR_MAX_SIG_SIZE * 8);
		goto out;
	}
	rc = subkey_body_build(sub, pub, &body, &body_len, why, whylen);
	if (rc)
		goto out;
	rc = shdr_sign(SHDR_SUBKEY, (uint32_t)body_len, algo, key, prefix_len, body, body_len, NULL,
		       0, out, outlen, why, whylen);
	if (rc)
		goto out;
	prefix_fill(*out, prefix, prefix_len);
out:
	free(body);
	free(prefix);
	return rc;
}
