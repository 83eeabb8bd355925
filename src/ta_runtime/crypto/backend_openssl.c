/*
 * The OpenSSL 3 backend: library set-up, random numbers and digests.
 *
 * The TA crypto runs in its own library context with the default and the
 * legacy providers, so that nothing a TA links itself can change it and
 * single DES (legacy only) is there when the system has the provider. Every
 * algorithm is fetched once, in the zygote, and shared by all instances.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

#include <tee_api_defines.h>
#include <utee_defines.h>

#include "backend_openssl.h"
#include "secure.h"

struct bo_md_name {
	uint32_t alg;
	const char *name;
};

static const struct bo_md_name md_names[] = {
    {TEE_ALG_MD5, "MD5"},
    {TEE_ALG_SHA1, "SHA1"},
    {TEE_ALG_SHA224, "SHA2-224"},
    {TEE_ALG_SHA256, "SHA2-256"},
    {TEE_ALG_SHA384, "SHA2-384"},
    {TEE_ALG_SHA512, "SHA2-512"},
    {TEE_ALG_SHA3_224, "SHA3-224"},
    {TEE_ALG_SHA3_256, "SHA3-256"},
    {TEE_ALG_SHA3_384, "SHA3-384"},
    {TEE_ALG_SHA3_512, "SHA3-512"},
    {TEE_ALG_SM3, "SM3"},
    {TEE_ALG_SHAKE128, "SHAKE-128"},
    {TEE_ALG_SHAKE256, "SHAKE-256"},
};

#define MD_COUNT (sizeof(md_names) / sizeof(md_names[0]))

/* Library names by block cipher and mode; NULL where the library has none. */
static const char *const cipher_names[BO_BLOCK_COUNT][BO_MODE_COUNT] = {
    [BO_AES128] = {"AES-128-ECB", "AES-128-CBC", "AES-128-CTR", "AES-128-GCM", "AES-128-CCM"},
    [BO_AES192] = {"AES-192-ECB", "AES-192-CBC", "AES-192-CTR", "AES-192-GCM", "AES-192-CCM"},
    [BO_AES256] = {"AES-256-ECB", "AES-256-CBC", "AES-256-CTR", "AES-256-GCM", "AES-256-CCM"},
    [BO_DES] = {"DES-ECB", "DES-CBC", NULL, NULL, NULL},
    [BO_DES3] = {"DES-EDE3-ECB", "DES-EDE3-CBC", NULL, NULL, NULL},
    [BO_SM4] = {"SM4-ECB", "SM4-CBC", "SM4-CTR", NULL, NULL},
};

static struct {
	bool done;
	TEE_Result res;
	OSSL_LIB_CTX *libctx;
	bool des_emulated;
	EVP_CIPHER *ciphers[BO_BLOCK_COUNT][BO_MODE_COUNT];
	EVP_MD *mds[MD_COUNT];
	EVP_MAC *hmac;
	EVP_MAC *cmac;
} bo;

struct be_hash {
	const EVP_MD *md;
	EVP_MD_CTX *ctx;
	bool xof;
	size_t squeezed; /* XOF output given out so far */
};

TEE_Result bo_fail(void)
{
	unsigned long e = ERR_peek_last_error();
	TEE_Result res = TEE_ERROR_GENERIC;

	if (ERR_GET_REASON(e) == ERR_R_MALLOC_FAILURE)
		res = TEE_ERROR_OUT_OF_MEMORY;
	ERR_clear_error();
	return res;
}

static void bo_fetch_all(void)
{
	for (int b = 0; b < BO_BLOCK_COUNT; b++)
		for (int m = 0; m < BO_MODE_COUNT; m++)
			if (cipher_names[b][m])
				bo.ciphers[b][m] =
				    EVP_CIPHER_fetch(bo.libctx, cipher_names[b][m], NULL);
	/*
	 * Without the legacy provider, DES(K) is 3DES(K, K, K): the first two
	 * passes cancel out. Same results, a third of the speed.
	 */
	if (!bo.ciphers[BO_DES][BO_ECB] || !bo.ciphers[BO_DES][BO_CBC]) {
		for (int m = 0; m < BO_MODE_COUNT; m++) {
			EVP_CIPHER_free(bo.ciphers[BO_DES][m]);
			bo.ciphers[BO_DES][m] = NULL;
			if (bo.ciphers[BO_DES3][m] && EVP_CIPHER_up_ref(bo.ciphers[BO_DES3][m]))
				bo.ciphers[BO_DES][m] = bo.ciphers[BO_DES3][m];
		}
		bo.des_emulated = true;
	}
	for (size_t i = 0; i < MD_COUNT; i++)
		bo.mds[i] = EVP_MD_fetch(bo.libctx, md_names[i].name, NULL);
	bo.hmac = EVP_MAC_fetch(bo.libctx, "HMAC", NULL);
	bo.cmac = EVP_MAC_fetch(bo.libctx, "CMAC", NULL);
	ERR_clear_error();
	bo_asym_fetch();
}

TEE_Result be_init(void)
{
	uint8_t probe[1];

	if (bo.done)
		return bo.res;
	bo.done = true;
	bo.res = TEE_ERROR_NOT_SUPPORTED;
	bo.libctx = OSSL_LIB_CTX_new();
	if (!bo.libctx)
		goto out;
	if (!OSSL_PROVIDER_load(bo.libctx, "default"))
		goto out;
	/*
	 * Optional: it only brings single DES. SWTEE_CRYPTO_NO_LEGACY=1 in
	 * swteed's environment leaves it out, so that tests cover the 3DES
	 * fallback.
	 */
	if (!getenv("SWTEE_CRYPTO_NO_LEGACY"))
		OSSL_PROVIDER_load(bo.libctx, "legacy");
	bo_fetch_all();
	/* Instantiates the DRBG; an instance reseeds it after the fork. */
	if (RAND_bytes_ex(bo.libctx, probe, sizeof(probe), 0) != 1)
		goto out;
	bo.res = TEE_SUCCESS;
out:
	ERR_clear_error();
	return bo.res;
}

/*
 * Runs before main, in the zygote every instance is forked from: an
 * instance runs sandboxed, and the legacy provider is a file to load.
 */
__attribute__((constructor)) static void be_preload(void)
{
	be_init();
}

OSSL_LIB_CTX *bo_libctx(void)
{
	return bo.libctx;
}

const EVP_CIPHER *bo_cipher(enum bo_block b, enum bo_mode m)
{
	if (be_init() || b >= BO_BLOCK_COUNT || m >= BO_MODE_COUNT)
		return NULL;
	return bo.ciphers[b][m];
}

bool bo_des_emulated(void)
{
	return bo.des_emulated;
}

const EVP_MD *bo_md(uint32_t alg)
{
	if (be_init())
		return NULL;
	for (size_t i = 0; i < MD_COUNT; i++)
		if (md_names[i].alg == alg)
			return bo.mds[i];
	return NULL;
}

EVP_MAC *bo_mac_hmac(void)
{
	return be_init() ? NULL : bo.hmac;
}

EVP_MAC *bo_mac_cmac(void)
{
	return be_init() ? NULL : bo.cmac;
}

size_t bo_block_size(enum bo_block b)
{
	return (b == BO_DES || b == BO_DES3) ? TEE_DES_BLOCK_SIZE : TEE_AES_BLOCK_SIZE;
}

int bo_block_key(uint32_t main, const uint8_t *key, size_t key_len, enum bo_block *b,
		 const uint8_t **lib_key, uint8_t kbuf[24])
{
	*lib_key = key;
	switch (main) {
	case TEE_MAIN_ALGO_AES:
		if (key_len == 16)
			*b = BO_AES128;
		else if (key_len == 24)
			*b = BO_AES192;
		else if (key_len == 32)
			*b = BO_AES256;
		else
			return -1;
		return 0;
	case TEE_MAIN_ALGO_SM4:
		if (key_len != 16)
			return -1;
		*b = BO_SM4;
		return 0;
	case TEE_MAIN_ALGO_DES:
		if (key_len != 8)
			return -1;
		*b = BO_DES;
		if (bo_des_emulated()) {
			memcpy(kbuf, key, 8);
			memcpy(kbuf + 8, key, 8);
			memcpy(kbuf + 16, key, 8);
			*lib_key = kbuf;
		}
		return 0;
	case TEE_MAIN_ALGO_DES3:
		*b = BO_DES3;
		if (key_len == 24)
			return 0;
		if (key_len != 16)
			return -1;
		/* Two-key 3DES is K1, K2, K1. */
		memcpy(kbuf, key, 16);
		memcpy(kbuf + 16, key, 8);
		*lib_key = kbuf;
		return 0;
	default:
		return -1;
	}
}

EVP_CIPHER_CTX *bo_ecb_new(enum bo_block b, const uint8_t *key, bool encrypt)
{
	const EVP_CIPHER *c = bo_cipher(b, BO_ECB);
	EVP_CIPHER_CTX *ctx = NULL;

	if (!c)
		return NULL;
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return NULL;
	if (!EVP_CipherInit_ex2(ctx, c, key, NULL, encrypt ? 1 : 0, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(ctx, 0)) {
		EVP_CIPHER_CTX_free(ctx);
		ERR_clear_error();
		return NULL;
	}
	return ctx;
}

int bo_ecb(EVP_CIPHER_CTX *ctx, const uint8_t *in, size_t len, uint8_t *out)
{
	while (len) {
		size_t n = len > (1U << 30) ? (1U << 30) : len;
		int outl = 0;

		if (!EVP_CipherUpdate(ctx, out, &outl, in, (int)n) || (size_t)outl != n) {
			ERR_clear_error();
			return -1;
		}
		in += n;
		out += n;
		len -= n;
	}
	return 0;
}

bool be_alg_supported(uint32_t alg)
{
	uint32_t main = TEE_ALG_GET_MAIN_ALG(alg);
	uint32_t cls = TEE_ALG_GET_CLASS(alg);
	enum bo_block b = BO_AES128;
	enum bo_mode m = BO_ECB;

	if (be_init())
		return false;
	if (cls == TEE_OPERATION_ASYMMETRIC_CIPHER || cls == TEE_OPERATION_ASYMMETRIC_SIGNATURE ||
	    cls == TEE_OPERATION_KEY_DERIVATION)
		return bo_asym_supported(alg);
	if (cls == TEE_OPERATION_DIGEST)
		return bo_md(alg) != NULL;
	if (cls == TEE_OPERATION_MAC && main <= TEE_MAIN_ALGO_SHA3_512)
		return bo.hmac && bo_md(TEE_ALG_HASH_ALGO(main));
	switch (main) {
	case TEE_MAIN_ALGO_AES:
		b = BO_AES128;
		break;
	case TEE_MAIN_ALGO_DES:
		b = BO_DES;
		break;
	case TEE_MAIN_ALGO_DES3:
		b = BO_DES3;
		break;
	case TEE_MAIN_ALGO_SM4:
	case TEE_MAIN_ALGO_SM4 + 1: /* TEE_ALG_SM4_*_PKCS5 */
		b = BO_SM4;
		break;
	default:
		return false;
	}
	switch (alg) {
	case TEE_ALG_AES_CTR:
	case TEE_ALG_SM4_CTR:
		m = BO_CTR;
		break;
	case TEE_ALG_AES_CBC_NOPAD:
	case TEE_ALG_DES_CBC_NOPAD:
	case TEE_ALG_DES3_CBC_NOPAD:
	case TEE_ALG_SM4_CBC_NOPAD:
	case TEE_ALG_SM4_CBC_PKCS5:
	case TEE_ALG_AES_CTS:
	case TEE_ALG_AES_CBC_MAC_NOPAD:
	case TEE_ALG_AES_CBC_MAC_PKCS5:
	case TEE_ALG_DES_CBC_MAC_NOPAD:
	case TEE_ALG_DES_CBC_MAC_PKCS5:
	case TEE_ALG_DES3_CBC_MAC_NOPAD:
	case TEE_ALG_DES3_CBC_MAC_PKCS5:
		m = BO_CBC;
		break;
	case TEE_ALG_AES_CMAC:
	case TEE_ALG_DES3_CMAC:
		if (!bo.cmac)
			return false;
		m = BO_CBC;
		break;
	case TEE_ALG_AES_GCM:
		return bo.ciphers[BO_AES128][BO_GCM] && bo.ciphers[BO_AES192][BO_GCM] &&
		       bo.ciphers[BO_AES256][BO_GCM] && bo.ciphers[BO_AES128][BO_ECB];
	case TEE_ALG_AES_CCM:
		return bo.ciphers[BO_AES128][BO_CCM] && bo.ciphers[BO_AES192][BO_CCM] &&
		       bo.ciphers[BO_AES256][BO_CCM];
	default:
		m = BO_ECB;
		break;
	}
	if (b == BO_AES128)
		return bo.ciphers[BO_AES128][m] && bo.ciphers[BO_AES192][m] &&
		       bo.ciphers[BO_AES256][m] && bo.ciphers[BO_AES128][BO_ECB];
	return bo.ciphers[b][m] && bo.ciphers[b][BO_ECB];
}

TEE_Result be_random_add(const void *buf, size_t len)
{
	TEE_Result res = be_init();
	EVP_RAND_CTX *primary = NULL;

	if (res)
		return res;
	primary = RAND_get0_primary(bo.libctx);
	if (!primary || EVP_RAND_reseed(primary, 0, NULL, 0, buf, len) != 1)
		return bo_fail();
	return TEE_SUCCESS;
}

TEE_Result be_random(void *buf, size_t len)
{
	TEE_Result res = be_init();

	if (res)
		return res;
	if (!len)
		return TEE_SUCCESS;
	if (RAND_bytes_ex(bo.libctx, buf, len, 0) != 1)
		return bo_fail();
	return TEE_SUCCESS;
}

/* ---- digests ---- */

TEE_Result be_hash_new(uint32_t alg, struct be_hash **h)
{
	const EVP_MD *md = bo_md(alg);
	struct be_hash *n = NULL;

	*h = NULL;
	if (!md)
		return TEE_ERROR_NOT_SUPPORTED;
	n = calloc(1, sizeof(*n));
	if (!n)
		return TEE_ERROR_OUT_OF_MEMORY;
	n->md = md;
	n->xof = alg == TEE_ALG_SHAKE128 || alg == TEE_ALG_SHAKE256;
	n->ctx = EVP_MD_CTX_new();
	if (!n->ctx) {
		free(n);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	*h = n;
	return TEE_SUCCESS;
}

void be_hash_free(struct be_hash *h)
{
	if (!h)
		return;
	EVP_MD_CTX_free(h->ctx); /* cleanses the state */
	free(h);
}

TEE_Result be_hash_init(struct be_hash *h)
{
	h->squeezed = 0;
	if (!EVP_DigestInit_ex2(h->ctx, h->md, NULL))
		return bo_fail();
	return TEE_SUCCESS;
}

TEE_Result be_hash_update(struct be_hash *h, const void *data, size_t len)
{
	if (len && !EVP_DigestUpdate(h->ctx, data, len))
		return bo_fail();
	return TEE_SUCCESS;
}

/*
 * OpenSSL 3.0 can finalise an XOF once, for one length. The n-th squeeze
 * finalises a copy of the absorbed state for everything squeezed so far
 * plus len, and keeps the tail: quadratic in the number of squeezes, which
 * are few in practice.
 */
TEE_Result be_hash_squeeze(struct be_hash *h, void *out, size_t len)
{
	TEE_Result res = TEE_ERROR_GENERIC;
	EVP_MD_CTX *dup = NULL;
	uint8_t *tmp = NULL;
	size_t total = 0;

	if (!h->xof)
		return TEE_ERROR_BAD_STATE;
	if (!len)
		return TEE_SUCCESS;
	if (__builtin_add_overflow(h->squeezed, len, &total))
		return TEE_ERROR_OVERFLOW;
	tmp = malloc(total);
	dup = EVP_MD_CTX_new();
	if (!tmp || !dup) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	if (!EVP_MD_CTX_copy_ex(dup, h->ctx) || !EVP_DigestFinalXOF(dup, tmp, total)) {
		res = bo_fail();
		goto out;
	}
	memcpy(out, tmp + h->squeezed, len);
	h->squeezed = total;
	res = TEE_SUCCESS;
out:
	if (tmp)
		secure_wipe(tmp, total);
	free(tmp);
	EVP_MD_CTX_free(dup);
	return res;
}

TEE_Result be_hash_final(struct be_hash *h, void *out, size_t len)
{
	unsigned int n = 0;

	if (h->xof) {
		if (h->squeezed)
			return be_hash_squeeze(h, out, len);
		if (len && !EVP_DigestFinalXOF(h->ctx, out, len))
			return bo_fail();
		return TEE_SUCCESS;
	}
	if (len != (size_t)EVP_MD_get_size(h->md))
		return TEE_ERROR_BAD_PARAMETERS;
	if (!EVP_DigestFinal_ex(h->ctx, out, &n) || n != len)
		return bo_fail();
	return TEE_SUCCESS;
}

TEE_Result be_hash_copy(struct be_hash *dst, const struct be_hash *src)
{
	if (dst->md != src->md)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!EVP_MD_CTX_copy_ex(dst->ctx, src->ctx))
		return bo_fail();
	dst->squeezed = src->squeezed;
	return TEE_SUCCESS;
}
