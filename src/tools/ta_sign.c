#include "ta_sign.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>

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

int ta_image_sign(const uint8_t *elf, size_t len, const struct swtee_uuid *uuid, uint32_t version,
		  uint32_t algo, EVP_PKEY *key, uint8_t **out, size_t *outlen, char *why,
		  size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	uint8_t *img = NULL;
	size_t sig_size = 0;
	size_t boot_off = 0;
	size_t total = 0;
	uint8_t hash[SHDR_HASH_SIZE] = {0};
	struct buf_writer w = {0};

	if (why && whylen)
		why[0] = '\0';
	if (out)
		*out = NULL;
	if (outlen)
		*outlen = 0;
	if (!elf || !uuid || !key || !out || !outlen) {
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
	rc = key_check(key, &sig_size, why, whylen);
	if (rc)
		goto out;

	rc = TA_IMAGE_E_GENERIC;
	boot_off = SHDR_SIZE + SHDR_HASH_SIZE + sig_size;
	if (__builtin_add_overflow(boot_off, (size_t)SHDR_BOOTSTRAP_TA_SIZE, &total) ||
	    __builtin_add_overflow(total, len, &total)) {
		ta_image_set_why(why, whylen, "image size overflows");
		goto out;
	}
	img = malloc(total);
	if (!img) {
		ta_image_set_why(why, whylen, "out of memory");
		goto out;
	}

	buf_writer_init(&w, img, SHDR_SIZE);
	buf_put_u32(&w, SHDR_MAGIC);
	buf_put_u32(&w, SHDR_BOOTSTRAP_TA);
	buf_put_u32(&w, (uint32_t)len);
	buf_put_u32(&w, algo);
	buf_put_u16(&w, SHDR_HASH_SIZE);
	buf_put_u16(&w, (uint16_t)sig_size);
	if (buf_written(&w) != SHDR_SIZE) {
		ta_image_set_why(why, whylen, "cannot write the header");
		goto out;
	}
	buf_writer_init(&w, img + boot_off, total - boot_off);
	buf_put_bytes(&w, uuid->b, sizeof(uuid->b));
	buf_put_u32(&w, version);
	buf_put_bytes(&w, elf, len);
	if (buf_written(&w) != total - boot_off) {
		ta_image_set_why(why, whylen, "cannot write the image body");
		goto out;
	}

	if (ta_image_hash(img, img + boot_off, total - boot_off, hash)) {
		why_crypto(why, whylen, "cannot compute the image hash");
		goto out;
	}
	rc = hash_sign(key, algo, hash, img + SHDR_SIZE + SHDR_HASH_SIZE, sig_size, why, whylen);
	if (rc)
		goto out;
	memcpy(img + SHDR_SIZE, hash, sizeof(hash));

	*out = img;
	img = NULL; /* transferred */
	*outlen = total;
	rc = TA_IMAGE_OK;
out:
	free(img);
	return rc;
}
