#include "ta_image.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
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
		ta_image_set_why(why, whylen,
				 "more than %u subkey headers, or a subkey where the TA belongs",
				 SHDR_MAX_SUBKEYS);
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

/* signer: 0 for the trusted keys, else the number of the subkey that must sign. */
static int signature_check(EVP_PKEY *const *keys, size_t nkeys, uint32_t signer, uint32_t algo,
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
	if (signer && !tried)
		ta_image_set_why(why, whylen,
				 "signature of %zu bytes, but subkey %u has a %d-byte "
				 "RSA modulus: wrong signer",
				 sig_size, signer, EVP_PKEY_get_size(keys[0]));
	else if (signer)
		ta_image_set_why(why, whylen, "signature not accepted by subkey %u: wrong signer",
				 signer);
	else if (!tried)
		ta_image_set_why(why, whylen, "no trusted key has a %zu-byte RSA modulus",
				 sig_size);
	else
		ta_image_set_why(why, whylen, "signature not accepted by any trusted key");
out:
	return rc;
}

static bool algo_known(uint32_t algo)
{
	return algo == SHDR_ALGO_RSASSA_PSS_SHA256 || algo == SHDR_ALGO_RSASSA_PKCS1_V1_5_SHA256;
}

int ta_subkey_next_uuid(const struct swtee_uuid *ns, const uint8_t *name, size_t name_size,
			struct swtee_uuid *out)
{
	int rc = -1;
	uint8_t digest[64] = {0};
	unsigned int n = 0;
	EVP_MD_CTX *md = NULL;

	if (!ns || !out || (name_size && !name))
		goto out;
	if (!name_size) {
		*out = *ns;
		rc = 0;
		goto out;
	}
	md = EVP_MD_CTX_new();
	if (!md || EVP_DigestInit_ex(md, EVP_sha512(), NULL) != 1 ||
	    EVP_DigestUpdate(md, ns->b, sizeof(ns->b)) != 1 ||
	    EVP_DigestUpdate(md, name, strnlen((const char *)name, name_size)) != 1 ||
	    EVP_DigestFinal_ex(md, digest, &n) != 1 || n != sizeof(digest))
		goto out;
	memcpy(out->b, digest, sizeof(out->b));
	out->b[6] = (uint8_t)((out->b[6] & 0x0fu) | 0x50u); /* version 5 */
	out->b[8] = (uint8_t)((out->b[8] & 0x3fu) | 0x80u); /* RFC 4122 variant */
	rc = 0;
out:
	EVP_MD_CTX_free(md);
	return rc;
}

/* One subkey header as read from an image; pointers into the image. */
struct subkey {
	struct shdr h;
	const uint8_t *shdr;
	const uint8_t *hash;
	const uint8_t *sig;
	const uint8_t *body;
	struct ta_subkey_info info;
	EVP_PKEY *key;
};

/* Whether the reader's next bytes are a subkey header (magic and img_type). */
static bool subkey_next(const struct buf_reader *r)
{
	struct buf_reader peek = *r;
	struct shdr h = {0};

	return shdr_read(&peek, &h, NULL, 0) == TA_IMAGE_OK && h.magic == SHDR_MAGIC &&
	       h.img_type == SHDR_SUBKEY;
}

/* Subkey n's signed header, hash, signature and body, with their caps. */
static int subkey_header(struct buf_reader *r, struct subkey *sk, uint32_t n, char *why,
			 size_t whylen)
{
	int rc = TA_IMAGE_E_SIZE;

	buf_get_ptr(r, &sk->shdr, 0);
	rc = shdr_read(r, &sk->h, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_SIZE;
	if (sk->h.hash_size != SHDR_HASH_SIZE || sk->h.sig_size == 0 ||
	    sk->h.sig_size > SHDR_MAX_SIG_SIZE) {
		ta_image_set_why(why, whylen,
				 "subkey %u: hash size %u or signature size %u out of "
				 "range",
				 n, sk->h.hash_size, sk->h.sig_size);
		goto out;
	}
	if (sk->h.img_size < SHDR_SUBKEY_SIZE || sk->h.img_size > SHDR_MAX_SUBKEY_BODY) {
		ta_image_set_why(why, whylen, "subkey %u: header of %u bytes, must be %u to %u", n,
				 sk->h.img_size, SHDR_SUBKEY_SIZE, SHDR_MAX_SUBKEY_BODY);
		goto out;
	}
	rc = TA_IMAGE_E_ALGO;
	if (!algo_known(sk->h.algo)) {
		ta_image_set_why(why, whylen, "subkey %u: unsupported signature algorithm 0x%08x",
				 n, sk->h.algo);
		goto out;
	}
	rc = TA_IMAGE_E_SIZE;
	buf_get_ptr(r, &sk->hash, sk->h.hash_size);
	buf_get_ptr(r, &sk->sig, sk->h.sig_size);
	buf_get_ptr(r, &sk->body, sk->h.img_size);
	if (!buf_ok(r)) {
		ta_image_set_why(why, whylen, "subkey %u: header truncated", n);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

/* An RSA public key from big-endian modulus and exponent bytes. */
static EVP_PKEY *rsa_from_parts(const uint8_t *mod, size_t mod_len, const uint8_t *exp,
				size_t exp_len)
{
	EVP_PKEY *key = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	BIGNUM *n = BN_bin2bn(mod, (int)mod_len, NULL);
	BIGNUM *e = BN_bin2bn(exp, (int)exp_len, NULL);

	if (!n || !e || !BN_is_odd(n) || !BN_is_odd(e) || BN_is_one(e) || BN_num_bits(e) > 64 ||
	    BN_num_bytes(n) > (int)SHDR_MAX_SIG_SIZE)
		goto out;
	bld = OSSL_PARAM_BLD_new();
	if (!bld || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e))
		goto out;
	params = OSSL_PARAM_BLD_to_param(bld);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) != 1)
		goto out;
	if (EVP_PKEY_get_bits(key) < SHDR_MIN_RSA_BITS) {
		EVP_PKEY_free(key);
		key = NULL;
	}
out:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(n);
	BN_free(e);
	return key;
}

/*
 * The body of subkey n: its fields, its attributes (exactly the RSA modulus
 * and public exponent, each once, inside the body) and its key.
 */
static int subkey_body(struct subkey *sk, uint32_t n, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_SIZE;
	struct buf_reader r = {0};
	uint32_t attr_count = 0;
	const uint8_t *mod = NULL;
	const uint8_t *exp = NULL;
	uint32_t mod_len = 0;
	uint32_t exp_len = 0;

	buf_reader_init(&r, sk->body, sk->h.img_size);
	buf_get_bytes(&r, sk->info.uuid.b, sizeof(sk->info.uuid.b));
	buf_get_u32(&r, &sk->info.name_size);
	buf_get_u32(&r, &sk->info.version);
	buf_get_u32(&r, &sk->info.max_depth);
	buf_get_u32(&r, &sk->info.algo);
	buf_get_u32(&r, &attr_count);
	if (!buf_ok(&r) ||
	    attr_count > (sk->h.img_size - SHDR_SUBKEY_SIZE) / SHDR_SUBKEY_ATTR_SIZE) {
		ta_image_set_why(why, whylen, "subkey %u: %u attributes do not fit its header", n,
				 attr_count);
		goto out;
	}
	rc = TA_IMAGE_E_ALGO;
	if (!algo_known(sk->info.algo)) {
		ta_image_set_why(why, whylen, "subkey %u: unsupported key algorithm 0x%08x", n,
				 sk->info.algo);
		goto out;
	}
	for (uint32_t i = 0; i < attr_count; i++) {
		uint32_t id = 0, offs = 0, size = 0;
		const uint8_t **slot = NULL;
		uint32_t *slot_len = NULL;

		buf_get_u32(&r, &id);
		buf_get_u32(&r, &offs);
		buf_get_u32(&r, &size);
		rc = TA_IMAGE_E_SUBKEY;
		if (id == SHDR_ATTR_RSA_MODULUS) {
			slot = &mod;
			slot_len = &mod_len;
		} else if (id == SHDR_ATTR_RSA_PUBLIC_EXPONENT) {
			slot = &exp;
			slot_len = &exp_len;
		} else {
			ta_image_set_why(why, whylen, "subkey %u: unknown attribute 0x%08x", n, id);
			goto out;
		}
		if (*slot) {
			ta_image_set_why(why, whylen, "subkey %u: attribute 0x%08x given twice", n,
					 id);
			goto out;
		}
		if (size == 0 || offs > sk->h.img_size || size > sk->h.img_size - offs) {
			ta_image_set_why(why, whylen,
					 "subkey %u: attribute 0x%08x lies outside its header", n,
					 id);
			goto out;
		}
		*slot = sk->body + offs;
		*slot_len = size;
	}
	rc = TA_IMAGE_E_SUBKEY;
	if (!mod || !exp) {
		ta_image_set_why(why, whylen, "subkey %u: no RSA modulus and public exponent", n);
		goto out;
	}
	ERR_set_mark();
	sk->key = rsa_from_parts(mod, mod_len, exp, exp_len);
	ERR_pop_to_mark();
	if (!sk->key) {
		ta_image_set_why(why, whylen,
				 "subkey %u: not a valid RSA public key of %d to %u bits", n,
				 SHDR_MIN_RSA_BITS, SHDR_MAX_SIG_SIZE * 8);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

/* Subkey n's name, after the header; NULL when name_size is 0. */
static int subkey_name(struct buf_reader *r, const struct subkey *sk, uint32_t n,
		       const uint8_t **name, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_SIZE;

	*name = NULL;
	if (sk->info.name_size > SHDR_MAX_SUBKEY_NAME ||
	    !buf_get_ptr(r, name, sk->info.name_size)) {
		ta_image_set_why(why, whylen,
				 "subkey %u: name of %u bytes does not fit (at most %u)", n,
				 sk->info.name_size, SHDR_MAX_SUBKEY_NAME);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

/*
 * The subkey headers at the start of img[0..len): each authenticated by the
 * trusted keys (first) or the previous subkey, then its depth and UUID
 * checked. On success *off is where the TA's image begins, *key the last
 * subkey's key (NULL if there is none; the caller frees it), *ns the UUID
 * the TA must carry and *count the number of subkeys.
 */
static int subkey_chain(const uint8_t *img, size_t len, EVP_PKEY *const *keys, size_t nkeys,
			size_t *off, EVP_PKEY **key, struct swtee_uuid *ns, uint32_t *count,
			char *why, size_t whylen)
{
	int rc = TA_IMAGE_OK;
	struct buf_reader r = {0};
	struct subkey sk = {0};
	EVP_PKEY *prev = NULL;
	uint32_t depth_limit = UINT32_MAX;
	uint32_t n = 0;
	uint8_t hash[SHDR_HASH_SIZE] = {0};
	const uint8_t *name = NULL;
	char s1[SWTEE_UUID_STR_LEN] = "";
	char s2[SWTEE_UUID_STR_LEN] = "";

	buf_reader_init(&r, img, len);
	while (subkey_next(&r)) {
		memset(&sk, 0, sizeof(sk));
		n++;
		rc = TA_IMAGE_E_SUBKEY;
		if (n > SHDR_MAX_SUBKEYS) {
			ta_image_set_why(why, whylen, "more than %u subkeys: depth exceeded",
					 SHDR_MAX_SUBKEYS);
			goto out;
		}
		rc = subkey_header(&r, &sk, n, why, whylen);
		if (rc)
			goto out;
		rc = TA_IMAGE_E_GENERIC;
		if (ta_image_hash(sk.shdr, sk.body, sk.h.img_size, hash)) {
			ta_image_set_why(why, whylen, "cannot compute the hash of subkey %u", n);
			goto out;
		}
		rc = TA_IMAGE_E_HASH;
		if (!secure_equal(hash, sk.hash, SHDR_HASH_SIZE)) {
			ta_image_set_why(why, whylen,
					 "subkey %u: hash mismatch: the subkey header was altered",
					 n);
			goto out;
		}
		rc = prev ? signature_check(&prev, 1, n - 1, sk.h.algo, hash, sk.sig, sk.h.sig_size,
					    why, whylen)
			  : signature_check(keys, nkeys, 0, sk.h.algo, hash, sk.sig, sk.h.sig_size,
					    why, whylen);
		if (rc) {
			/* Prefix the subkey's number to the reason. */
			char inner[200] = "";

			snprintf(inner, sizeof(inner), "%s", why ? why : "");
			ta_image_set_why(why, whylen, "subkey %u: %s", n, inner);
			goto out;
		}
		/* Authenticated from here on. */
		rc = subkey_body(&sk, n, why, whylen);
		if (rc)
			goto out;
		rc = TA_IMAGE_E_SUBKEY;
		if (sk.info.max_depth >= depth_limit) {
			ta_image_set_why(why, whylen,
					 "subkey %u: max_depth %u, but subkey %u allows %u more "
					 "below it: depth exceeded",
					 n, sk.info.max_depth, n - 1, depth_limit);
			goto out;
		}
		rc = TA_IMAGE_E_UUID;
		if (prev && !uuid_equal(&sk.info.uuid, ns)) {
			uuid_format(&sk.info.uuid, s1);
			uuid_format(ns, s2);
			ta_image_set_why(why, whylen,
					 "subkey %u UUID %s lies outside the namespace of subkey "
					 "%u (expected %s)",
					 n, s1, n - 1, s2);
			goto out;
		}
		rc = subkey_name(&r, &sk, n, &name, why, whylen);
		if (rc)
			goto out;
		rc = TA_IMAGE_E_GENERIC;
		if (ta_subkey_next_uuid(&sk.info.uuid, name, sk.info.name_size, ns)) {
			ta_image_set_why(why, whylen, "cannot compute the namespace of subkey %u",
					 n);
			goto out;
		}
		depth_limit = sk.info.max_depth;
		EVP_PKEY_free(prev);
		prev = sk.key;
		sk.key = NULL;
	}
	*off = r.off;
	*key = prev;
	prev = NULL; /* transferred */
	*count = n;
	rc = TA_IMAGE_OK;
out:
	EVP_PKEY_free(sk.key);
	EVP_PKEY_free(prev);
	return rc;
}

int ta_subkey_chain_parse(const uint8_t *chain, size_t len, struct ta_subkey_info *last,
			  uint32_t *count, EVP_PKEY **key, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	struct buf_reader r = {0};
	struct subkey sk = {0};
	const uint8_t *name = NULL;
	uint32_t n = 0;

	why_clear(why, whylen);
	if (key)
		*key = NULL;
	if (!chain || !last || !count) {
		ta_image_set_why(why, whylen, "invalid arguments");
		goto out;
	}
	memset(last, 0, sizeof(*last));
	*count = 0;
	buf_reader_init(&r, chain, len);
	for (;;) {
		rc = TA_IMAGE_E_TYPE;
		if (!subkey_next(&r)) {
			if (n)
				ta_image_set_why(why, whylen,
						 "subkey %u's name is followed by no "
						 "subkey header",
						 n);
			else
				ta_image_set_why(why, whylen, "not a subkey image");
			goto out;
		}
		n++;
		rc = TA_IMAGE_E_SUBKEY;
		if (n > SHDR_MAX_SUBKEYS) {
			ta_image_set_why(why, whylen, "more than %u subkeys", SHDR_MAX_SUBKEYS);
			goto out;
		}
		EVP_PKEY_free(sk.key);
		memset(&sk, 0, sizeof(sk));
		rc = subkey_header(&r, &sk, n, why, whylen);
		if (!rc)
			rc = subkey_body(&sk, n, why, whylen);
		if (rc)
			goto out;
		if (buf_done(&r))
			break;
		rc = subkey_name(&r, &sk, n, &name, why, whylen);
		if (rc)
			goto out;
	}
	*last = sk.info;
	*count = n;
	if (key) {
		*key = sk.key;
		sk.key = NULL; /* transferred */
	}
	rc = TA_IMAGE_OK;
out:
	EVP_PKEY_free(sk.key);
	return rc;
}

/*
 * The parts of the TA's own image img[0..len): its checked header, the
 * stored hash, the signature and the rest (bootstrap header and ELF).
 */
static int image_layout(const uint8_t *img, size_t len, struct shdr *h, const uint8_t **stored,
			const uint8_t **sig, const uint8_t **rest, size_t *rest_len, char *why,
			size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	struct buf_reader r = {0};

	buf_reader_init(&r, img, len);
	rc = shdr_read(&r, h, why, whylen);
	if (rc)
		goto out;
	rc = shdr_check(h, len, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_SIZE;
	buf_get_ptr(&r, stored, h->hash_size);
	buf_get_ptr(&r, sig, h->sig_size);
	*rest_len = buf_left(&r);
	buf_get_ptr(&r, rest, *rest_len);
	if (!buf_done(&r)) {
		ta_image_set_why(why, whylen, "image truncated");
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

/* The bootstrap header of rest[0..rest_len) into res, and where the ELF lies. */
static int image_boot(const uint8_t *rest, size_t rest_len, const struct shdr *h,
		      struct ta_image_info *res, const uint8_t **elf, char *why, size_t whylen)
{
	int rc = TA_IMAGE_E_SIZE;
	struct buf_reader boot = {0};

	buf_reader_init(&boot, rest, rest_len);
	buf_get_bytes(&boot, res->uuid.b, sizeof(res->uuid.b));
	buf_get_u32(&boot, &res->ta_version);
	buf_get_ptr(&boot, elf, h->img_size);
	if (!buf_done(&boot)) {
		ta_image_set_why(why, whylen, "bootstrap header truncated");
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

/* .ta_head of elf[0..len) into res, its UUID equal to the signed header's. */
static int image_head(const uint8_t *elf, size_t len, struct ta_image_info *res, char *why,
		      size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	struct swtee_uuid head = {0};
	char s1[SWTEE_UUID_STR_LEN] = "";
	char s2[SWTEE_UUID_STR_LEN] = "";

	rc = ta_elf_read_head(elf, len, &head, &res->stack_size, &res->flags, why, whylen);
	if (!rc)
		rc = ta_elf_read_data_size(elf, len, &res->data_size, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_UUID;
	if (!uuid_equal(&head, &res->uuid)) {
		uuid_format(&res->uuid, s1);
		uuid_format(&head, s2);
		ta_image_set_why(why, whylen, "signed header UUID %s differs from .ta_head UUID %s",
				 s1, s2);
		goto out;
	}
	rc = TA_IMAGE_OK;
out:
	return rc;
}

/*
 * The TA's own image img[0..len), signed by one of keys: the trusted keys
 * (signer 0) or subkey number signer, whose namespace UUID ns it must carry.
 */
static int verify_image(const uint8_t *img, size_t len, const struct swtee_uuid *expected,
			EVP_PKEY *const *keys, size_t nkeys, uint32_t signer,
			const struct swtee_uuid *ns, struct ta_image_info *info, char *why,
			size_t whylen, bool lib)
{
	int rc = TA_IMAGE_E_GENERIC;
	struct ta_image_info res = {0};
	struct shdr h = {0};
	const uint8_t *stored = NULL;
	const uint8_t *sig = NULL;
	const uint8_t *rest = NULL;
	const uint8_t *elf = NULL;
	size_t rest_len = 0;
	uint8_t hash[SHDR_HASH_SIZE] = {0};
	char s1[SWTEE_UUID_STR_LEN] = "";
	char s2[SWTEE_UUID_STR_LEN] = "";

	rc = image_layout(img, len, &h, &stored, &sig, &rest, &rest_len, why, whylen);
	if (rc)
		goto out;

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
	rc = signature_check(keys, nkeys, signer, h.algo, hash, sig, h.sig_size, why, whylen);
	if (rc)
		goto out;

	/* Authenticated from here on; still parsed through the bounded reader. */
	rc = image_boot(rest, rest_len, &h, &res, &elf, why, whylen);
	if (rc)
		goto out;
	rc = TA_IMAGE_E_UUID;
	if (ns && !uuid_equal(ns, &res.uuid)) {
		uuid_format(&res.uuid, s1);
		uuid_format(ns, s2);
		ta_image_set_why(why, whylen,
				 "TA UUID %s lies outside the namespace of subkey %u (expected %s)",
				 s1, signer, s2);
		goto out;
	}
	if (expected && !uuid_equal(expected, &res.uuid)) {
		uuid_format(&res.uuid, s1);
		uuid_format(expected, s2);
		ta_image_set_why(why, whylen, "image is signed for TA %s, expected %s", s1, s2);
		goto out;
	}
	rc = lib ? ta_elf_check_lib(elf, h.img_size, &res.uuid, why, whylen)
		 : image_head(elf, h.img_size, &res, why, whylen);
	if (rc)
		goto out;
	res.elf_offset = (size_t)(elf - img);
	res.elf_len = h.img_size;
	memcpy(res.digest, hash, sizeof(res.digest));
	*info = res;
	rc = TA_IMAGE_OK;
out:
	return rc;
}

static int verify(const uint8_t *img, size_t len, const struct swtee_uuid *expected,
		  EVP_PKEY *const *keys, size_t nkeys, struct ta_image_info *info, char *why,
		  size_t whylen, bool lib)
{
	int rc = TA_IMAGE_E_GENERIC;
	size_t off = 0;
	EVP_PKEY *subkey = NULL;
	struct swtee_uuid ns = {0};
	uint32_t count = 0;

	why_clear(why, whylen);
	if (info)
		memset(info, 0, sizeof(*info));
	if (!img || !info || !keys || !nkeys) {
		ta_image_set_why(why, whylen, "invalid arguments");
		goto out;
	}
	rc = subkey_chain(img, len, keys, nkeys, &off, &subkey, &ns, &count, why, whylen);
	if (rc)
		goto out;
	rc = subkey
		 ? verify_image(img + off, len - off, expected, &subkey, 1, count, &ns, info, why,
				whylen, lib)
		 : verify_image(img, len, expected, keys, nkeys, 0, NULL, info, why, whylen, lib);
	if (rc)
		goto out;
	info->elf_offset += off;
	info->subkeys = count;
out:
	EVP_PKEY_free(subkey);
	return rc;
}

int ta_image_inspect(const uint8_t *img, size_t len, struct ta_image_info *info, char *why,
		     size_t whylen)
{
	int rc = TA_IMAGE_E_GENERIC;
	struct ta_image_info res = {0};
	struct buf_reader r = {0};
	struct subkey sk = {0};
	struct shdr h = {0};
	const uint8_t *name = NULL;
	const uint8_t *stored = NULL;
	const uint8_t *sig = NULL;
	const uint8_t *rest = NULL;
	const uint8_t *elf = NULL;
	size_t rest_len = 0;

	why_clear(why, whylen);
	if (info)
		memset(info, 0, sizeof(*info));
	if (!img || !info) {
		ta_image_set_why(why, whylen, "invalid arguments");
		goto out;
	}
	/* Subkey headers: their structure only, as ta_subkey_chain_parse reads it. */
	buf_reader_init(&r, img, len);
	while (subkey_next(&r)) {
		res.subkeys++;
		rc = TA_IMAGE_E_SUBKEY;
		if (res.subkeys > SHDR_MAX_SUBKEYS) {
			ta_image_set_why(why, whylen, "more than %u subkeys: depth exceeded",
					 SHDR_MAX_SUBKEYS);
			goto out;
		}
		EVP_PKEY_free(sk.key);
		memset(&sk, 0, sizeof(sk));
		rc = subkey_header(&r, &sk, res.subkeys, why, whylen);
		if (!rc)
			rc = subkey_body(&sk, res.subkeys, why, whylen);
		if (!rc)
			rc = subkey_name(&r, &sk, res.subkeys, &name, why, whylen);
		if (rc)
			goto out;
	}
	rc = image_layout(img + r.off, len - r.off, &h, &stored, &sig, &rest, &rest_len, why,
			  whylen);
	if (rc)
		goto out;
	rc = image_boot(rest, rest_len, &h, &res, &elf, why, whylen);
	if (rc)
		goto out;
	rc = image_head(elf, h.img_size, &res, why, whylen);
	if (rc)
		goto out;
	res.elf_offset = (size_t)(elf - img);
	res.elf_len = h.img_size;
	*info = res;
	rc = TA_IMAGE_OK;
out:
	EVP_PKEY_free(sk.key);
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
