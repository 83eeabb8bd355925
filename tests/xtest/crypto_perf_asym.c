/*
 * xtest --asym-perf: OP-TEE's asymmetric perf applet, with its options and
 * output lines, over the crypto_perf TA. Signatures are over a digest the
 * host computes of the -k bytes of input; key generation (RSA_GENKEYPAIR,
 * DH, ECDH, X25519, SM2_GENKEYPAIR) times TEE_GenerateKey, as OP-TEE does.
 * What the TEE cannot do is reported as such and ends with status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include <tee_api_defines.h>

#include "crypto_perf.h"
#include "xtest_helpers.h"
#include "xtest_perf.h"

/* A mode of our own for the key generation tests. */
#define ASYM_GENKEY 0xffffffffu
#define ASYM_DEF_WIDTH 2048u
#define ASYM_DEF_SIZE 256u
#define ASYM_WIDTH_MAX 4096u
/* The TA's limit for one attribute, and four of them. */
#define ASYM_ATTRS_MAX (TA_CRYPTO_PERF_MAX_ATTRS * (12 + TA_CRYPTO_PERF_MAX_ATTR_LEN))
/* PKCS#1 v1.5 encryption padding, and OAEP's besides its two hashes. */
#define ASYM_PKCS1_MIN 11
#define ASYM_OAEP_OTHER 2
/* The DER DigestInfo around a SHA-2 digest in a PKCS#1 v1.5 signature (SHA-1: 15). */
#define ASYM_DIGEST_INFO 19

enum asym_family { ASYM_DH, ASYM_RSA, ASYM_ECDSA, ASYM_ECDH, ASYM_X25519, ASYM_SM2 };

struct asym_alg {
	const char *name; /* OP-TEE's -a name */
	enum asym_family family;
	uint32_t mode;	   /* TEE_MODE_* or ASYM_GENKEY */
	uint32_t tee_alg;  /* 0 for key generation */
	const char *hash;  /* RSA: the OpenSSL digest signed or OAEP's hash */
	uint32_t key_type; /* 0: by family */
};

#define RSA_SIG(h, a)                                                                              \
	{"RSASSA_PKCS1_V1_5_" h "_SIGN", ASYM_RSA, TEE_MODE_SIGN,                                  \
	 TEE_ALG_RSASSA_PKCS1_V1_5_##a,	 h,	   0},                                             \
	{                                                                                          \
		"RSASSA_PKCS1_V1_5_" h "_VERIFY", ASYM_RSA, TEE_MODE_VERIFY,                       \
		    TEE_ALG_RSASSA_PKCS1_V1_5_##a, h, 0                                            \
	}
#define RSA_PSS(h, a)                                                                              \
	{"RSASSA_PKCS1_PSS_MGF1_" h "_SIGN", ASYM_RSA, TEE_MODE_SIGN,                              \
	 TEE_ALG_RSASSA_PKCS1_PSS_MGF1_##a,  h,	       0},                                         \
	{                                                                                          \
		"RSASSA_PKCS1_PSS_MGF1_" h "_VERIFY", ASYM_RSA, TEE_MODE_VERIFY,                   \
		    TEE_ALG_RSASSA_PKCS1_PSS_MGF1_##a, h, 0                                        \
	}
#define RSA_OAEP(h, a)                                                                             \
	{"RSAES_PKCS1_OAEP_" h "_ENCRYPT",  ASYM_RSA, TEE_MODE_ENCRYPT,                            \
	 TEE_ALG_RSAES_PKCS1_OAEP_MGF1_##a, h,	      0},                                          \
	{                                                                                          \
		"RSAES_PKCS1_OAEP_" h "_DECRYPT", ASYM_RSA, TEE_MODE_DECRYPT,                      \
		    TEE_ALG_RSAES_PKCS1_OAEP_MGF1_##a, h, 0                                        \
	}

static const struct asym_alg asym_algs[] = {
    {"DH", ASYM_DH, ASYM_GENKEY, 0, NULL, TEE_TYPE_DH_KEYPAIR},
    {"RSA_GENKEYPAIR", ASYM_RSA, ASYM_GENKEY, 0, NULL, 0},
    {"RSA_NOPAD_ENCRYPT", ASYM_RSA, TEE_MODE_ENCRYPT, TEE_ALG_RSA_NOPAD, NULL, 0},
    {"RSA_NOPAD_DECRYPT", ASYM_RSA, TEE_MODE_DECRYPT, TEE_ALG_RSA_NOPAD, NULL, 0},
    {"RSAES_PKCS1_V1_5_ENCRYPT", ASYM_RSA, TEE_MODE_ENCRYPT, TEE_ALG_RSAES_PKCS1_V1_5, NULL, 0},
    {"RSAES_PKCS1_V1_5_DECRYPT", ASYM_RSA, TEE_MODE_DECRYPT, TEE_ALG_RSAES_PKCS1_V1_5, NULL, 0},
    RSA_OAEP("SHA1", SHA1),
    RSA_OAEP("SHA224", SHA224),
    RSA_OAEP("SHA256", SHA256),
    RSA_OAEP("SHA384", SHA384),
    RSA_OAEP("SHA512", SHA512),
    RSA_SIG("SHA1", SHA1),
    RSA_SIG("SHA224", SHA224),
    RSA_SIG("SHA256", SHA256),
    RSA_SIG("SHA384", SHA384),
    RSA_SIG("SHA512", SHA512),
    RSA_PSS("SHA1", SHA1),
    RSA_PSS("SHA224", SHA224),
    RSA_PSS("SHA256", SHA256),
    RSA_PSS("SHA384", SHA384),
    RSA_PSS("SHA512", SHA512),
    {"ECDSA_SIGN", ASYM_ECDSA, TEE_MODE_SIGN, 0, NULL, TEE_TYPE_ECDSA_KEYPAIR},
    {"ECDSA_VERIFY", ASYM_ECDSA, TEE_MODE_VERIFY, 0, NULL, TEE_TYPE_ECDSA_KEYPAIR},
    {"ECDH", ASYM_ECDH, ASYM_GENKEY, 0, NULL, TEE_TYPE_ECDH_KEYPAIR},
    {"X25519", ASYM_X25519, ASYM_GENKEY, 0, NULL, TEE_TYPE_X25519_KEYPAIR},
    {"SM2_GENKEYPAIR", ASYM_SM2, ASYM_GENKEY, 0, NULL, TEE_TYPE_SM2_DSA_KEYPAIR},
    {"SM2_SIGN", ASYM_SM2, TEE_MODE_SIGN, TEE_ALG_SM2_DSA_SM3, "SM3", TEE_TYPE_SM2_DSA_KEYPAIR},
    {"SM2_VERIFY", ASYM_SM2, TEE_MODE_VERIFY, TEE_ALG_SM2_DSA_SM3, "SM3", TEE_TYPE_SM2_DSA_KEYPAIR},
    {"SM2_ENCRYPT", ASYM_SM2, TEE_MODE_ENCRYPT, TEE_ALG_SM2_PKE, NULL, TEE_TYPE_SM2_PKE_KEYPAIR},
    {"SM2_DECRYPT", ASYM_SM2, TEE_MODE_DECRYPT, TEE_ALG_SM2_PKE, NULL, TEE_TYPE_SM2_PKE_KEYPAIR},
};

#define ASYM_NALGS (sizeof(asym_algs) / sizeof(asym_algs[0]))

/* NIST curves by width: GP curve, the ECDSA algorithm on it and the digest it signs. */
static const struct {
	uint32_t bits;
	uint32_t curve;
	uint32_t alg;
	const char *hash;
} asym_curves[] = {
    {192, TEE_ECC_CURVE_NIST_P192, TEE_ALG_ECDSA_P192, "SHA1"},
    {224, TEE_ECC_CURVE_NIST_P224, TEE_ALG_ECDSA_P224, "SHA224"},
    {256, TEE_ECC_CURVE_NIST_P256, TEE_ALG_ECDSA_P256, "SHA256"},
    {384, TEE_ECC_CURVE_NIST_P384, TEE_ALG_ECDSA_P384, "SHA384"},
    {521, TEE_ECC_CURVE_NIST_P521, TEE_ALG_ECDSA_P521, "SHA512"},
};

#define ASYM_NCURVES (sizeof(asym_curves) / sizeof(asym_curves[0]))

struct asym_cfg {
	const struct asym_alg *alg;
	uint32_t width; /* key bits (-d) */
	bool width_set;
	size_t size; /* input bytes (-k) */
	bool size_set;
	uint32_t salt_len; /* -s; 0: the algorithm's default */
	unsigned int n;
	unsigned int l;
	bool random;
	unsigned int warmup;
	int verbosity;
};

/* The attribute records the TA reads (ta_crypto_perf.h). */
struct asym_attrs {
	uint8_t buf[ASYM_ATTRS_MAX];
	size_t len;
};

static void asym_put_u32(struct asym_attrs *a, uint32_t v)
{
	memcpy(a->buf + a->len, &v, sizeof(v));
	a->len += sizeof(v);
}

static void asym_attr_value(struct asym_attrs *a, uint32_t id, uint32_t va, uint32_t vb)
{
	asym_put_u32(a, id);
	asym_put_u32(a, va);
	asym_put_u32(a, vb);
}

/* A buffer attribute; len is at most TA_CRYPTO_PERF_MAX_ATTR_LEN (the caller's limit). */
static void asym_attr_ref(struct asym_attrs *a, uint32_t id, const void *p, size_t len)
{
	asym_put_u32(a, id);
	asym_put_u32(a, 0);
	asym_put_u32(a, (uint32_t)len);
	memcpy(a->buf + a->len, p, len);
	memset(a->buf + a->len + len, 0, (len + 3) / 4 * 4 - len);
	a->len += (len + 3) / 4 * 4;
}

/* RFC 7919 ffdhe2048's prime and generator, from libcrypto, as attributes. */
static bool asym_dh_attrs(struct asym_attrs *a, uint32_t width)
{
	EVP_PKEY_CTX *pctx = NULL;
	EVP_PKEY *params = NULL;
	BIGNUM *p = NULL;
	BIGNUM *g = NULL;
	uint8_t bytes[ASYM_WIDTH_MAX / 8];
	OSSL_PARAM req[2];
	bool ok = false;
	int n = 0;

	if (width != 2048) {
		fprintf(stderr, "%s --asym-perf: DH takes -d 2048 (the RFC 7919 ffdhe2048 group)\n",
			crypto_perf_progname());
		return false;
	}
	req[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "ffdhe2048", 0);
	req[1] = OSSL_PARAM_construct_end();
	pctx = EVP_PKEY_CTX_new_from_name(NULL, "DH", NULL);
	if (!pctx || EVP_PKEY_paramgen_init(pctx) <= 0 || !EVP_PKEY_CTX_set_params(pctx, req) ||
	    EVP_PKEY_paramgen(pctx, &params) <= 0 ||
	    !EVP_PKEY_get_bn_param(params, OSSL_PKEY_PARAM_FFC_P, &p) ||
	    !EVP_PKEY_get_bn_param(params, OSSL_PKEY_PARAM_FFC_G, &g)) {
		fprintf(stderr, "%s --asym-perf: libcrypto has no ffdhe2048 group\n",
			crypto_perf_progname());
		goto out;
	}
	n = BN_bn2bin(p, bytes);
	asym_attr_ref(a, TEE_ATTR_DH_PRIME, bytes, (size_t)n);
	n = BN_bn2bin(g, bytes);
	asym_attr_ref(a, TEE_ATTR_DH_BASE, bytes, (size_t)n);
	ok = true;
out:
	BN_free(p);
	BN_free(g);
	EVP_PKEY_free(params);
	EVP_PKEY_CTX_free(pctx);
	return ok;
}

static int asym_curve(uint32_t bits)
{
	size_t i = 0;

	for (i = 0; i < ASYM_NCURVES; i++)
		if (asym_curves[i].bits == bits)
			return (int)i;
	return -1;
}

/* The key type, the attributes to generate it with and the algorithm, for cfg. */
static bool asym_setup(const struct asym_cfg *cfg, uint32_t *key_type, struct asym_attrs *attrs,
		       uint32_t *tee_alg, const char **hash)
{
	const struct asym_alg *alg = cfg->alg;
	int c = 0;

	*key_type = alg->key_type;
	*tee_alg = alg->tee_alg;
	*hash = alg->hash;
	attrs->len = 0;
	switch (alg->family) {
	case ASYM_DH:
		return asym_dh_attrs(attrs, cfg->width);
	case ASYM_RSA:
		*key_type = TEE_TYPE_RSA_KEYPAIR;
		if (cfg->width < 256 || cfg->width > ASYM_WIDTH_MAX) {
			fprintf(stderr, "%s --asym-perf: RSA takes -d 256..%u\n",
				crypto_perf_progname(), ASYM_WIDTH_MAX);
			return false;
		}
		return true;
	case ASYM_ECDSA:
	case ASYM_ECDH:
		c = asym_curve(cfg->width);
		if (c < 0) {
			fprintf(stderr, "ECC curve is not supported!\n");
			return false;
		}
		asym_attr_value(attrs, TEE_ATTR_ECC_CURVE, asym_curves[c].curve, 0);
		if (alg->family == ASYM_ECDSA) {
			*tee_alg = asym_curves[c].alg;
			*hash = asym_curves[c].hash;
		}
		return true;
	case ASYM_SM2:
		asym_attr_value(attrs, TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_SM2, 0);
		return true;
	default:
		return true;
	}
}

/* Checks -k and -s against the key as OP-TEE does; false after saying why. */
static bool asym_check_sizes(const struct asym_cfg *cfg)
{
	const struct asym_alg *alg = cfg->alg;
	const EVP_MD *md = NULL;
	size_t bytes = (cfg->width + 7) / 8;
	size_t hlen = 0;

	if (alg->family != ASYM_RSA || alg->mode == ASYM_GENKEY)
		return true;
	if (alg->hash) {
		md = EVP_get_digestbyname(alg->hash);
		hlen = md ? (size_t)EVP_MD_get_size(md) : 0;
	}
	if (alg->mode == TEE_MODE_ENCRYPT || alg->mode == TEE_MODE_DECRYPT) {
		if ((alg->tee_alg == TEE_ALG_RSA_NOPAD && cfg->size > bytes) ||
		    (alg->tee_alg == TEE_ALG_RSAES_PKCS1_V1_5 &&
		     cfg->size + ASYM_PKCS1_MIN > bytes) ||
		    (hlen && cfg->size + 2 * hlen + ASYM_OAEP_OTHER > bytes)) {
			fprintf(stderr, "The size or algo is not valid!\n");
			return false;
		}
		return true;
	}
	/* PSS: digest, salt and two bytes; PKCS#1 v1.5: digest, its DigestInfo and padding. */
	if (strstr(alg->name, "_PSS_") ? bytes < hlen + (cfg->salt_len ? cfg->salt_len : hlen) + 2
				       : bytes < hlen + ASYM_DIGEST_INFO + ASYM_PKCS1_MIN) {
		fprintf(stderr, "The size or algo is not valid!\n");
		return false;
	}
	return true;
}

/* The digest (by OpenSSL name) of the len bytes at in, which gets signed. */
static bool asym_digest(const char *hash, const void *in, size_t len, uint8_t *out, size_t *out_len)
{
	unsigned int n = 0;

	if (!EVP_Digest(in, len, out, &n, EVP_get_digestbyname(hash), NULL)) {
		fprintf(stderr, "%s --asym-perf: libcrypto cannot compute %s\n",
			crypto_perf_progname(), hash);
		return false;
	}
	*out_len = n;
	return true;
}

/* An invoke with the session's attrs (or NONE) in slot 1; failures are printed. */
static TEEC_Result asym_prepare(TEEC_Session *sess, uint32_t cmd, uint32_t a, uint32_t b,
				struct asym_attrs *attrs)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT,
					 attrs && attrs->len ? TEEC_MEMREF_TEMP_INPUT : TEEC_NONE,
					 TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = a;
	op.params[0].value.b = b;
	if (attrs && attrs->len) {
		op.params[1].tmpref.buffer = attrs->buf;
		op.params[1].tmpref.size = attrs->len;
	}
	res = TEEC_InvokeCommand(sess, cmd, &op, &origin);
	if (res != TEEC_SUCCESS && res != TEEC_ERROR_NOT_SUPPORTED)
		crypto_perf_errx("TEEC_InvokeCommand()", res, &origin);
	return res;
}

/* ASYM_PROCESS: in, then out (or a second input for VERIFY); *out_len in/out. */
static void asym_process_op(TEEC_Operation *op, TEEC_SharedMemory *in, size_t in_len,
			    TEEC_SharedMemory *out, size_t out_len, bool verify, uint32_t loops)
{
	memset(op, 0, sizeof(*op));
	op->paramTypes = TEEC_PARAM_TYPES(
	    TEEC_VALUE_INPUT, TEEC_MEMREF_PARTIAL_INPUT,
	    verify ? TEEC_MEMREF_PARTIAL_INPUT : TEEC_MEMREF_PARTIAL_OUTPUT, TEEC_NONE);
	op->params[0].value.a = loops;
	op->params[1].memref.parent = in;
	op->params[1].memref.size = in_len;
	op->params[2].memref.parent = out;
	op->params[2].memref.size = out_len;
}

struct asym_run {
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_SharedMemory in;  /* the message, then its digest, ciphertext or plaintext */
	TEEC_SharedMemory out; /* signature, ciphertext, plaintext */
	TEEC_SharedMemory aux; /* VERIFY's digest, DECRYPT's ciphertext */
	bool ctx_open, sess_open, in_alloc, out_alloc, aux_alloc;
};

static TEEC_Result asym_shm(struct asym_run *r, TEEC_SharedMemory *shm, size_t size, bool *done)
{
	TEEC_Result res = TEEC_ERROR_GENERIC;

	memset(shm, 0, sizeof(*shm));
	shm->size = size ? size : 1;
	shm->flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	res = TEEC_AllocateSharedMemory(&r->ctx, shm);
	if (res != TEEC_SUCCESS)
		crypto_perf_errx("TEEC_AllocateSharedMemory()", res, NULL);
	*done = res == TEEC_SUCCESS;
	return res;
}

static void asym_run_fini(struct asym_run *r)
{
	if (r->in_alloc)
		TEEC_ReleaseSharedMemory(&r->in);
	if (r->out_alloc)
		TEEC_ReleaseSharedMemory(&r->out);
	if (r->aux_alloc)
		TEEC_ReleaseSharedMemory(&r->aux);
	if (r->sess_open)
		TEEC_CloseSession(&r->sess);
	if (r->ctx_open)
		TEEC_FinalizeContext(&r->ctx);
}

/*
 * Sets up the timed invoke of cfg in *op and *cmd: the key, the operation
 * and, for VERIFY and DECRYPT, a signature or ciphertext made first.
 */
static TEEC_Result asym_ready(struct asym_run *r, const struct asym_cfg *cfg, uint32_t *cmd,
			      TEEC_Operation *op)
{
	const struct asym_alg *alg = cfg->alg;
	struct asym_attrs *attrs = NULL;
	struct asym_attrs op_attrs = {.len = 0};
	TEEC_Operation once = TEEC_OPERATION_INITIALIZER;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	const char *hash = NULL;
	uint32_t key_type = 0;
	uint32_t tee_alg = 0;
	uint32_t origin = 0;
	uint8_t digest[EVP_MAX_MD_SIZE];
	size_t digest_len = 0;
	size_t bytes = (cfg->width + 7) / 8;
	size_t out_size = 2 * bytes + cfg->size + 128;
	uint32_t first = 0;

	attrs = calloc(1, sizeof(*attrs));
	if (!attrs) {
		fprintf(stderr, "%s --asym-perf: out of memory\n", crypto_perf_progname());
		goto out;
	}
	if (!asym_setup(cfg, &key_type, attrs, &tee_alg, &hash)) {
		res = TEEC_ERROR_BAD_PARAMETERS;
		goto out;
	}
	res = asym_prepare(&r->sess, TA_CRYPTO_PERF_CMD_ASYM_PREPARE_KEY, key_type, cfg->width,
			   attrs);
	if (res != TEEC_SUCCESS)
		goto out;
	if (alg->mode == ASYM_GENKEY) {
		memset(op, 0, sizeof(*op));
		op->paramTypes =
		    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op->params[0].value.a = cfg->l;
		*cmd = TA_CRYPTO_PERF_CMD_ASYM_GEN_KEYPAIR;
		goto out;
	}

	res = asym_shm(r, &r->in, cfg->size, &r->in_alloc);
	if (res == TEEC_SUCCESS)
		res = asym_shm(r, &r->out, out_size, &r->out_alloc);
	if (res == TEEC_SUCCESS)
		res = asym_shm(r, &r->aux, out_size, &r->aux_alloc);
	if (res != TEEC_SUCCESS)
		goto out;
	memset(r->in.buffer, 0, cfg->size);
	if (cfg->random && !crypto_perf_random(r->in.buffer, cfg->size)) {
		res = TEEC_ERROR_GENERIC;
		goto out;
	}
	/* No-padding RSA: a message below the modulus. */
	if (cfg->size && tee_alg == TEE_ALG_RSA_NOPAD)
		((uint8_t *)r->in.buffer)[0] = 0;
	if (alg->mode == TEE_MODE_SIGN || alg->mode == TEE_MODE_VERIFY) {
		if (!asym_digest(hash, r->in.buffer, cfg->size, digest, &digest_len)) {
			res = TEEC_ERROR_GENERIC;
			goto out;
		}
		memcpy(r->aux.buffer, digest, digest_len);
	}
	if (cfg->salt_len && alg->family == ASYM_RSA && alg->mode != TEE_MODE_ENCRYPT &&
	    alg->mode != TEE_MODE_DECRYPT)
		asym_attr_value(&op_attrs, TEE_ATTR_RSA_PSS_SALT_LENGTH, cfg->salt_len, 0);

	/* VERIFY and DECRYPT need a signature or ciphertext: made here, untimed. */
	if (alg->mode == TEE_MODE_VERIFY || alg->mode == TEE_MODE_DECRYPT) {
		first = alg->mode == TEE_MODE_VERIFY ? TEE_MODE_SIGN : TEE_MODE_ENCRYPT;
		res = asym_prepare(&r->sess, TA_CRYPTO_PERF_CMD_ASYM_PREPARE_OP, tee_alg, first,
				   &op_attrs);
		if (res != TEEC_SUCCESS)
			goto out;
		if (first == TEE_MODE_SIGN)
			asym_process_op(&once, &r->aux, digest_len, &r->out, out_size, false, 1);
		else
			asym_process_op(&once, &r->in, cfg->size, &r->out, out_size, false, 1);
		res = TEEC_InvokeCommand(&r->sess, TA_CRYPTO_PERF_CMD_ASYM_PROCESS, &once, &origin);
		if (res != TEEC_SUCCESS) {
			if (res != TEEC_ERROR_NOT_SUPPORTED)
				crypto_perf_errx("TEEC_InvokeCommand()", res, &origin);
			goto out;
		}
	}
	res = asym_prepare(&r->sess, TA_CRYPTO_PERF_CMD_ASYM_PREPARE_OP, tee_alg, alg->mode,
			   &op_attrs);
	if (res != TEEC_SUCCESS)
		goto out;
	*cmd = TA_CRYPTO_PERF_CMD_ASYM_PROCESS;
	switch (alg->mode) {
	case TEE_MODE_SIGN:
		asym_process_op(op, &r->aux, digest_len, &r->out, out_size, false, cfg->l);
		break;
	case TEE_MODE_VERIFY:
		asym_process_op(op, &r->aux, digest_len, &r->out, once.params[2].memref.size, true,
				cfg->l);
		break;
	case TEE_MODE_ENCRYPT:
		asym_process_op(op, &r->in, cfg->size, &r->out, out_size, false, cfg->l);
		break;
	default:
		asym_process_op(op, &r->out, once.params[2].memref.size, &r->aux, out_size, false,
				cfg->l);
		break;
	}
out:
	free(attrs);
	return res;
}

static int asym_perf_run_test(const struct asym_cfg *cfg)
{
	struct asym_run r;
	struct xtest_stats st;
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	const TEEC_UUID uuid = TA_CRYPTO_PERF_UUID;
	size_t out_room = 0;
	uint32_t cmd = 0;
	uint32_t origin = 0;
	unsigned int left = cfg->n;
	double us = 0;
	int status = 1;

	memset(&r, 0, sizeof(r));
	xtest_stats_init(&st);
	if (cfg->verbosity >= 1) {
		printf("random=%s, ", cfg->random ? "yes" : "no");
		printf("inner loops=%u, loops=%u, warm-up=%u s\n", cfg->l, cfg->n, cfg->warmup);
		fflush(stdout);
	}
	crypto_perf_clock_resolution(cfg->verbosity);

	res = TEEC_InitializeContext(NULL, &r.ctx);
	if (res != TEEC_SUCCESS) {
		crypto_perf_errx("TEEC_InitializeContext", res, NULL);
		goto out;
	}
	r.ctx_open = true;
	res = TEEC_OpenSession(&r.ctx, &r.sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);
	if (res != TEEC_SUCCESS) {
		crypto_perf_errx("TEEC_OpenSession", res, &origin);
		goto out;
	}
	r.sess_open = true;
	res = asym_ready(&r, cfg, &cmd, &op);
	if (res != TEEC_SUCCESS)
		goto out;
	out_room = op.params[2].memref.size;
	crypto_perf_warmup(cfg->warmup);

	while (left-- > 0) {
		/* The TA writes the output's length back; the next call needs the room again. */
		if (cmd == TA_CRYPTO_PERF_CMD_ASYM_PROCESS)
			op.params[2].memref.size = out_room;
		res = crypto_perf_invoke_timed(&r.sess, cmd, &op, &origin, &us);
		if (res != TEEC_SUCCESS) {
			crypto_perf_errx("TEEC_InvokeCommand()", res, &origin);
			goto out;
		}
		xtest_stats_add(&st, us);
		crypto_perf_progress(cfg->verbosity, left, cfg->n);
	}
	printf("%.3f ms/op\n", cfg->l ? st.mean / 1000 / cfg->l : 0.0);
	xtest_stats_print(stdout, &st, cfg->size, cfg->verbosity);
	status = 0;
out:
	if (res == TEEC_ERROR_NOT_SUPPORTED)
		fprintf(stderr,
			"%s --asym-perf: %s with %u-bit keys is not supported by this TEE\n",
			crypto_perf_progname(), cfg->alg->name, cfg->width);
	asym_run_fini(&r);
	return status;
}

static void asym_perf_usage(const char *applet)
{
	size_t i = 0;

	fprintf(stderr, "Usage: %s %s [-h]\n", crypto_perf_progname(), applet);
	fprintf(stderr,
		"Usage: %s %s [-a ALGO] [-d WIDTH_BITS] [-k SIZE] [-l LOOP] [-n LOOP] "
		"[-r] [-s SALT_LEN] [-v [-v]] [-w SEC]\n",
		crypto_perf_progname(), applet);
	fprintf(stderr, "Asymmetric performance testing tool for swtee (OP-TEE's options)\n\n");
	fprintf(stderr, "Options:\n");
	fprintf(stderr, "  -h|--help        Print this help and exit\n");
	fprintf(stderr, "  -a ALGO          Asymmetric algorithm [DH]:");
	for (i = 0; i < ASYM_NALGS; i++)
		fprintf(stderr, "%s%s", i % 3 ? ", " : "\n                   ", asym_algs[i].name);
	fprintf(stderr, "\n");
	fprintf(stderr,
		"  -d WIDTH_BITS    Key size in bits [%u; 256 for ECC]\n"
		"                   ECC: 192, 224, 256, 384 or 521; DH: 2048 (ffdhe2048);\n"
		"                   RSA: <= %u\n",
		ASYM_DEF_WIDTH, ASYM_WIDTH_MAX);
	fprintf(stderr,
		"  -k SIZE          Bytes of message, encrypted or hashed and signed "
		"[%u]\n",
		ASYM_DEF_SIZE);
	fprintf(stderr, "  -l LOOP          Inner loop iterations, in the TA [%u]\n",
		CRYPTO_DEF_LOOPS);
	fprintf(stderr, "  -n LOOP          Outer test loop iterations: timed invokes [%u]\n",
		CRYPTO_DEF_COUNT / 10);
	fprintf(stderr, "  -r|--random      Random input data (default: all zeros)\n");
	fprintf(stderr, "  -s SALT_LEN      Salt length in bytes (RSASSA_PKCS1_PSS_* only) "
			"[the digest's]\n");
	fprintf(stderr, "  -v               Be verbose (use twice for greater effect)\n");
	fprintf(stderr, "  -w|--warmup SEC  Warm-up time in seconds: a busy loop first [%u]\n",
		CRYPTO_DEF_WARMUP);
}

static bool asym_next_arg(int argc, char *argv[], int *i)
{
	if (++*i < argc)
		return true;
	fprintf(stderr, "%s %s: %s: missing argument\n", crypto_perf_progname(), argv[0],
		argv[*i - 1]);
	return false;
}

int asym_perf_runner_cmd_parser(int argc, char *argv[])
{
	const char *applet = argc > 0 ? argv[0] : "--asym-perf";
	struct asym_cfg cfg = {
	    .alg = &asym_algs[0],
	    .width = ASYM_DEF_WIDTH,
	    .size = ASYM_DEF_SIZE,
	    .n = CRYPTO_DEF_COUNT / 10,
	    .l = CRYPTO_DEF_LOOPS,
	    .warmup = CRYPTO_DEF_WARMUP,
	    .verbosity = CRYPTO_DEF_VERBOSITY,
	};
	const EVP_MD *md = NULL;
	unsigned long v = 0;
	size_t k = 0;
	int i = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			asym_perf_usage(applet);
			return 0;
		}
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-a")) {
			if (!asym_next_arg(argc, argv, &i))
				return 1;
			for (k = 0; k < ASYM_NALGS; k++)
				if (!strcasecmp(argv[i], asym_algs[k].name))
					break;
			if (k == ASYM_NALGS) {
				fprintf(stderr, "%s %s, invalid main_algo\n",
					crypto_perf_progname(), applet);
				asym_perf_usage(applet);
				return 1;
			}
			cfg.alg = &asym_algs[k];
		} else if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "-n") ||
			   !strcmp(argv[i], "-k") || !strcmp(argv[i], "-d") ||
			   !strcmp(argv[i], "-s") || !strcmp(argv[i], "-w") ||
			   !strcmp(argv[i], "--warmup")) {
			const char *opt = argv[i];

			if (!asym_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, opt, argv[i], 100000000ul, &v))
				return 1;
			if (!strcmp(opt, "-l")) {
				cfg.l = (unsigned int)v;
			} else if (!strcmp(opt, "-n")) {
				cfg.n = (unsigned int)v;
			} else if (!strcmp(opt, "-k")) {
				cfg.size = v;
				cfg.size_set = true;
			} else if (!strcmp(opt, "-d")) {
				cfg.width = (uint32_t)v;
				cfg.width_set = true;
			} else if (!strcmp(opt, "-s")) {
				cfg.salt_len = (uint32_t)v;
			} else {
				cfg.warmup = (unsigned int)v;
			}
		} else if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--random")) {
			cfg.random = true;
		} else if (!strcmp(argv[i], "-v")) {
			cfg.verbosity++;
		} else {
			fprintf(stderr, "%s %s: invalid argument: %s\n", crypto_perf_progname(),
				applet, argv[i]);
			asym_perf_usage(applet);
			return 1;
		}
	}

	/* ECC and SM2 keys are 256 bits unless -d says otherwise (X25519 always). */
	if (cfg.alg->family == ASYM_X25519 || cfg.alg->family == ASYM_SM2 ||
	    (!cfg.width_set && (cfg.alg->family == ASYM_ECDSA || cfg.alg->family == ASYM_ECDH)))
		cfg.width = 256;
	if (cfg.width > ASYM_WIDTH_MAX) {
		fprintf(stderr, "%s %s: -d %u is above %u\n", crypto_perf_progname(), applet,
			cfg.width, ASYM_WIDTH_MAX);
		return 1;
	}
	/* OP-TEE's default message sizes leave room for the padding. */
	if (!cfg.size_set && cfg.alg->family == ASYM_RSA) {
		if (cfg.alg->tee_alg == TEE_ALG_RSAES_PKCS1_V1_5)
			cfg.size -= ASYM_PKCS1_MIN;
		md = cfg.alg->hash && (cfg.alg->mode == TEE_MODE_ENCRYPT ||
				       cfg.alg->mode == TEE_MODE_DECRYPT)
			 ? EVP_get_digestbyname(cfg.alg->hash)
			 : NULL;
		if (md)
			cfg.size -= 2 * (size_t)EVP_MD_get_size(md) + ASYM_OAEP_OTHER;
	}
	if (cfg.alg->mode == ASYM_GENKEY || (cfg.alg->family == ASYM_SM2 && !cfg.size_set))
		cfg.size = (cfg.width + 7) / 8;
	if (!asym_check_sizes(&cfg)) {
		asym_perf_usage(applet);
		return 1;
	}
	return asym_perf_run_test(&cfg);
}
