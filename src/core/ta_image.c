#include "ta_image.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "buf.h"
#include "secure.h"

/* A PEM public or private RSA key is a few KiB; anything larger is not one. */
#define TA_IMAGE_MAX_PEM (1024u * 1024u)

struct shdr {
	uint32_t magic;
	uint32_t img_type;
	uint32_t img_size;
	uint32_t algo;
	uint16_t hash_size;
	uint16_t sig_size;
};

void ta_image_set_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whylen)
		return;
	va_start(ap, fmt);
	/* A reason longer than whylen is cut on purpose: it is only a diagnostic. */
	/* va_start is above; clang-tidy 14 forgets it when a file has several compile commands. */
	/* NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized) */
	if (vsnprintf(why, whylen, fmt, ap) < 0)
		why[0] = '\0';
	va_end(ap);
}

static void why_clear(char *why, size_t whylen)
{
	if (why && whylen)
		why[0] = '\0';
}

int ta_image_hash(const uint8_t *shdr, const uint8_t *rest, size_t rest_len,
		  uint8_t hash[SHDR_HASH_SIZE])
{
	int rc = -1;
	unsigned int n = 0;
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	if (!md)
		goto out;
	if (EVP_DigestInit_ex(md, EVP_sha256(), NULL) != 1 ||
	    EVP_DigestUpdate(md, shdr, SHDR_SIZE) != 1 ||
	    EVP_DigestUpdate(md, rest, rest_len) != 1 || EVP_DigestFinal_ex(md, hash, &n) != 1 ||
	    n != SHDR_HASH_SIZE)
		goto out;
	rc = 0;
out:
	EVP_MD_CTX_free(md);
	return rc;
}

int ta_image_sig_params(EVP_PKEY_CTX *ctx, uint32_t algo)
{
	int rc = -1;

	if (algo == SHDR_ALGO_RSASSA_PSS_SHA256) {
		if (EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) <= 0 ||
		    EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) <= 0 ||
		    EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) <= 0 ||
		    EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, (int)SHDR_PSS_SALT_LEN) <= 0)
			goto out;
	} else if (algo == SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256) {
		if (EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) <= 0 ||
		    EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) <= 0)
			goto out;
	} else {
		goto out;
	}
	rc = 0;
out:
	return rc;
}

static int shdr_read(struct buf_reader *r, struct shdr *h, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_SIZE;

	buf_get_u32(r, &h->magic);
	buf_get_u32(r, &h->img_type);
	buf_get_u32(r, &h->img_size);
	buf_get_u32(r, &h->algo);
	buf_get_u16(r, &h->hash_size);
	buf_get_u16(r, &h->sig_size);
	if (!buf_ok(r)) {
		ta_image_set_why(why, whylen, "image shorter than its %u-byte header", SHDR_SIZE);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

static int shdr_check_type(const struct shdr *h, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_TYPE;

	switch (h->img_type) {
	case SHDR_BOOTSTRAP_TA:
		rc = TA_IMAGE_OK;
		break;
	case SHDR_TA:
		ta_image_set_why(
		    why, whylen,
		    "legacy TA image (img_type 0) not supported: sign it as a bootstrap TA");
		break;
	case SHDR_ENCRYPTED_TA:
		ta_image_set_why(why, whylen, "encrypted TA image (img_type 2) not supported");
		break;
	case SHDR_SUBKEY:
		ta_image_set_why(why, whylen, "subkey-signed TA image (img_type 3) not supported");
		break;
	default:
		ta_image_set_why(why, whylen, "unknown image type %u", h->img_type);
		break;
	}
	return rc;
}

/* Magic, type, caps, algorithm, and the exact length of the whole image. */
static int shdr_check(const struct shdr *h, size_t len, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_MAGIC;
	size_t total = 0;

	if (h->magic != SHDR_MAGIC) {
		ta_image_set_why(why, whylen, "not a signed TA image (magic 0x%08x)", h->magic);
		goto out;
	}
	rc = shdr_check_type(h, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_SIZE;
	if (h->hash_size != SHDR_HASH_SIZE) {
		ta_image_set_why(why, whylen, "hash size %u, expected %u", h->hash_size,
				 SHDR_HASH_SIZE);
		goto out;
	}
	if (h->sig_size == 0 || h->sig_size > SHDR_MAX_SIG_SIZE) {
		ta_image_set_why(why, whylen, "signature size %u out of range (1..%u)", h->sig_size,
				 SHDR_MAX_SIG_SIZE);
		goto out;
	}
	if (h->img_size > SHDR_MAX_IMG_SIZE) {
		ta_image_set_why(why, whylen, "ELF size %u exceeds the %u-byte limit", h->img_size,
				 SHDR_MAX_IMG_SIZE);
		goto out;
	}
	rc = TA_IMAGE_E_ALGO;
	if (h->algo != SHDR_ALGO_RSASSA_PSS_SHA256 &&
	    h->algo != SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256) {
		ta_image_set_why(why, whylen, "unsupported signature algorithm 0x%08x", h->algo);
		goto out;
	}
	rc = TA_IMAGE_E_SIZE;
	if (__builtin_add_overflow((size_t)SHDR_SIZE, (size_t)h->hash_size, &total) ||
	    __builtin_add_overflow(total, (size_t)h->sig_size, &total) ||
	    __builtin_add_overflow(total, (size_t)SHDR_BOOTSTRAP_TA_SIZE, &total) ||
	    __builtin_add_overflow(total, (size_t)h->img_size, &total)) {
		ta_image_set_why(why, whylen, "image size overflows");
		goto out;
	}
	if (total != len) {
		ta_image_set_why(why, whylen, "image is %zu bytes but its header describes %zu",
				 len, total);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

static bool key_usable(EVP_PKEY *key, size_t sig_size)
{
	return key && EVP_PKEY_is_a(key, "RSA") && EVP_PKEY_get_bits(key) >= SHDR_MIN_RSA_BITS &&
	       EVP_PKEY_get_size(key) > 0 && (size_t)EVP_PKEY_get_size(key) == sig_size;
}

static bool key_accepts(EVP_PKEY *key, uint32_t algo, const uint8_t hash[SHDR_HASH_SIZE],
			const uint8_t *sig, size_t sig_size)
{
	bool ok = false;
	EVP_PKEY_CTX *ctx = NULL;

	ERR_set_mark();
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
	if (!ctx || EVP_PKEY_verify_init(ctx) != 1 || ta_image_sig_params(ctx, algo))
		goto out;
	ok = EVP_PKEY_verify(ctx, sig, sig_size, hash, SHDR_HASH_SIZE) == 1;
out:
	EVP_PKEY_CTX_free(ctx);
	ERR_pop_to_mark();
	return ok;
}

static int signature_check(EVP_PKEY *const *keys, size_t nkeys, uint32_t algo,
			   const uint8_t hash[SHDR_HASH_SIZE], const uint8_t *sig, size_t sig_size,
			   char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_SIGNATURE;
	size_t tried = 0;

	for (size_t i = 0; i < nkeys; i++) {
		if (!key_usable(keys[i], sig_size))
			continue;
		tried++;
		if (key_accepts(keys[i], algo, hash, sig, sig_size)) {
			rc = TA_IMAGE_OK;
			goto out;
		}
	}
	if (!tried)
		ta_image_set_why(why, whylen, "no trusted key has a %zu-byte RSA modulus",
				 sig_size);
	else
		ta_image_set_why(why, whylen, "signature not accepted by any trusted key");
out:
	return rc;
}

static int verify(const uint8_t *img, size_t len, const struct swtee_uuid *expected,
		  EVP_PKEY *const *keys, size_t nkeys, struct ta_image_info *info, char *why,
		  size_t whylen, bool lib)
{
	int rc = TA_IMAGE_E_GENERIC;
	struct ta_image_info res = {0};
	struct shdr h = {0};
	struct buf_reader r = {0};
	struct buf_reader boot = {0};
	const uint8_t *stored = NULL;
	const uint8_t *sig = NULL;
	const uint8_t *rest = NULL;
	const uint8_t *elf = NULL;
	size_t rest_len = 0;
	uint8_t hash[SHDR_HASH_SIZE] = {0};
	struct swtee_uuid head = {0};
	char s1[SWTEE_UUID_STR_LEN] = "";
	char s2[SWTEE_UUID_STR_LEN] = "";

	why_clear(why, whylen);
	if (info)
		memset(info, 0, sizeof(*info));
	if (!img || !info || !keys || !nkeys) {
		ta_image_set_why(why, whylen, "invalid arguments");
		goto out;
	}
	buf_reader_init(&r, img, len);
	rc = shdr_read(&r, &h, why, whylen);
	if (rc)
		goto out;
	rc = shdr_check(&h, len, why, whylen);
	if (rc)
		goto out;

	rc = TA_IMAGE_E_SIZE;
	buf_get_ptr(&r, &stored, h.hash_size);
	buf_get_ptr(&r, &sig, h.sig_size);
	rest_len = buf_left(&r);
	buf_get_ptr(&r, &rest, rest_len);
	if (!buf_done(&r)) {
		ta_image_set_why(why, whylen, "image truncated");
		goto out;
	}

	rc = TA_IMAGE_E_GENERIC;
	if (ta_image_hash(img, rest, rest_len, hash)) {
		ta_image_set_why(why, whylen, "cannot compute the image hash");
		goto out;
	}
	rc = TA_IMAGE_E_HASH;
	if (!secure_equal(hash, stored, SHDR_HASH_SIZE)) {
		ta_image_set_why(why, whylen, "image hash mismatch: the image was altered");
		goto out;
	}
	rc = signature_check(keys, nkeys, h.algo, hash, sig, h.sig_size, why, whylen);
	if (rc)
		goto out;

	/* Authenticated from here on; still parsed through the bounded reader. */
	rc = TA_IMAGE_E_SIZE;
	buf_reader_init(&boot, rest, rest_len);
	buf_get_bytes(&boot, res.uuid.b, sizeof(res.uuid.b));
	buf_get_u32(&boot, &res.ta_version);
	buf_get_ptr(&boot, &elf, h.img_size);
	if (!buf_done(&boot)) {
		ta_image_set_why(why, whylen, "bootstrap header truncated");
		goto out;
	}
	rc = TA_IMAGE_E_UUID;
	if (expected && !uuid_equal(expected, &res.uuid)) {
		uuid_format(&res.uuid, s1);
		uuid_format(expected, s2);
		ta_image_set_why(why, whylen, "image is signed for TA %s, expected %s", s1, s2);
		goto out;
	}
	if (lib) {
		rc = ta_elf_check_lib(elf, h.img_size, &res.uuid, why, whylen);
		if (rc)
			goto out;
		head = res.uuid;
	} else {
		rc = ta_elf_read_head(elf, h.img_size, &head, &res.stack_size, &res.flags, why,
				      whylen);
		if (rc)
			goto out;
	}
	rc = TA_IMAGE_E_UUID;
	if (!uuid_equal(&head, &res.uuid)) {
		uuid_format(&res.uuid, s1);
		uuid_format(&head, s2);
		ta_image_set_why(why, whylen, "signed header UUID %s differs from .ta_head UUID %s",
				 s1, s2);
		goto out;
	}
	res.elf_offset = (size_t)(elf - img);
	res.elf_len = h.img_size;
	*info = res;
	rc = TA_IMAGE_OK;
out:
	return rc;
}

static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf;
	(void)size;
	(void)rwflag;
	(void)u;
	return -1;
}

/* A new key holding only the public half of key. */
static EVP_PKEY *public_half(EVP_PKEY *key)
{
	EVP_PKEY *pub = NULL;
	unsigned char *der = NULL;
	const unsigned char *p = NULL;
	int n = i2d_PUBKEY(key, &der);

	if (n <= 0)
		goto out;
	p = der;
	pub = d2i_PUBKEY(NULL, &p, n);
	if (pub && p != der + n) {
		EVP_PKEY_free(pub);
		pub = NULL;
	}
out:
	OPENSSL_free(der);
	return pub;
}

EVP_PKEY *ta_image_load_pubkey_pem(const char *pem, size_t len)
{
	EVP_PKEY *key = NULL;
	EVP_PKEY *priv = NULL;
	BIO *bio = NULL;

	ERR_set_mark();
	if (!pem || len > TA_IMAGE_MAX_PEM)
		goto out;
	bio = BIO_new_mem_buf(pem, (int)len);
	if (!bio)
		goto out;
	key = PEM_read_bio_PUBKEY(bio, NULL, no_passphrase, NULL);
	if (!key) {
		BIO_free(bio);
		bio = BIO_new_mem_buf(pem, (int)len);
		if (!bio)
			goto out;
		priv = PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, NULL);
		if (!priv)
			goto out;
		key = public_half(priv);
	}
	if (key && (!EVP_PKEY_is_a(key, "RSA") || EVP_PKEY_get_bits(key) < SHDR_MIN_RSA_BITS)) {
		EVP_PKEY_free(key);
		key = NULL;
	}
out:
	EVP_PKEY_free(priv);
	BIO_free(bio);
	ERR_pop_to_mark();
	return key;
}

int ta_image_verify(const uint8_t *img, size_t len, const struct swtee_uuid *expected,
		    EVP_PKEY *const *keys, size_t nkeys, struct ta_image_info *info, char *why,
		    size_t whylen)
{
	return verify(img, len, expected, keys, nkeys, info, why, whylen, false);
}

int ta_image_verify_lib(const uint8_t *img, size_t len, const struct swtee_uuid *expected,
			EVP_PKEY *const *keys, size_t nkeys, struct ta_image_info *info, char *why,
			size_t whylen)
{
	if (!expected) {
		if (info)
			memset(info, 0, sizeof(*info));
		ta_image_set_why(why, whylen, "invalid arguments");
		return TA_IMAGE_E_GENERIC;
	}
	return verify(img, len, expected, keys, nkeys, info, why, whylen, true);
}
