/*
 * swtee bench crypto: ECDSA P-256 signing and verifying of a SHA-256 digest
 * through the crypto_perf TA (one invoke per operation) against libcrypto
 * in this process, in operations per second. Until the TA runtime has
 * ECDSA the rows are reported as skipped, with what the TEE answered.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <tee_api_defines.h>

#include "bench_crypto.h"
#include "bench_text.h"
#include "ta_crypto_perf.h"

#define ECDSA_ITERATIONS 2000
#define ECDSA_BLOCKS 10
#define ECDSA_BLOCK_PRIME 4
#define ECDSA_DIGEST 32
#define ECDSA_SIG_MAX 160 /* raw r || s (the TA) or DER (libcrypto) */

struct ecdsa_case {
	TEEC_Context *teec;
	bool verify;
	uint8_t digest[ECDSA_DIGEST];
	TEEC_SharedMemory dig; /* the digest, for the TA */
	TEEC_SharedMemory sig; /* the TA's signature */
	bool dig_alloc;
	bool sig_alloc;
	EVP_PKEY *pkey; /* the native path */
	EVP_PKEY_CTX *pctx;
	uint8_t nsig[ECDSA_SIG_MAX];
	size_t nsig_len;
	size_t sig_len; /* the TA's signature in sig */
};

/* The key-generation attribute the TA reads: the curve, P-256. */
static const uint32_t ecdsa_key_attrs[] = {TEE_ATTR_ECC_CURVE, TEE_ECC_CURVE_NIST_P256, 0};

static TEEC_Result ecdsa_prepare_key(TEEC_Session *sess, uint32_t *origin)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = TEE_TYPE_ECDSA_KEYPAIR;
	op.params[0].value.b = 256;
	op.params[1].tmpref.buffer = (void *)ecdsa_key_attrs;
	op.params[1].tmpref.size = sizeof(ecdsa_key_attrs);
	return TEEC_InvokeCommand(sess, TA_CRYPTO_PERF_CMD_ASYM_PREPARE_KEY, &op, origin);
}

static TEEC_Result ecdsa_prepare_op(TEEC_Session *sess, uint32_t mode, uint32_t *origin)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = TEE_ALG_ECDSA_P256;
	op.params[0].value.b = mode;
	return TEEC_InvokeCommand(sess, TA_CRYPTO_PERF_CMD_ASYM_PREPARE_OP, &op, origin);
}

/* One signature into c->sig (sign), or one check of it (verify). */
static TEEC_Result ecdsa_ta_once(struct ecdsa_case *c, TEEC_Session *sess, bool verify,
				 uint32_t *origin)
{
	TEEC_Operation op;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(
	    TEEC_VALUE_INPUT, TEEC_MEMREF_PARTIAL_INPUT,
	    verify ? TEEC_MEMREF_PARTIAL_INPUT : TEEC_MEMREF_PARTIAL_OUTPUT, TEEC_NONE);
	op.params[0].value.a = 1;
	op.params[1].memref.parent = &c->dig;
	op.params[1].memref.size = ECDSA_DIGEST;
	op.params[2].memref.parent = &c->sig;
	op.params[2].memref.size = verify ? c->sig_len : c->sig.size;
	res = TEEC_InvokeCommand(sess, TA_CRYPTO_PERF_CMD_ASYM_PROCESS, &op, origin);
	if (res == TEEC_SUCCESS && !verify)
		c->sig_len = op.params[2].memref.size;
	return res;
}

/* A session with the key and operation ready for c (a signature made first to verify). */
static TEEC_Result ecdsa_ta_ready(struct ecdsa_case *c, TEEC_Session *sess, uint32_t *origin)
{
	TEEC_Result res = ecdsa_prepare_key(sess, origin);

	if (res == TEEC_SUCCESS && c->verify) {
		res = ecdsa_prepare_op(sess, TEE_MODE_SIGN, origin);
		if (res == TEEC_SUCCESS)
			res = ecdsa_ta_once(c, sess, false, origin);
	}
	if (res == TEEC_SUCCESS)
		res = ecdsa_prepare_op(sess, c->verify ? TEE_MODE_VERIFY : TEE_MODE_SIGN, origin);
	return res;
}

static int ecdsa_ta_loop(void *arg, size_t n, struct bench_samples *s)
{
	struct ecdsa_case *c = arg;
	TEEC_Session sess;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	bool sess_open = false;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;
	int ret = -1;

	if (bench_crypto_open(c->teec, &sess) != TEEC_SUCCESS)
		goto out;
	sess_open = true;
	res = ecdsa_ta_ready(c, &sess, &origin);
	for (i = 0; res == TEEC_SUCCESS && i < ECDSA_BLOCK_PRIME; i++)
		res = ecdsa_ta_once(c, &sess, c->verify, &origin);
	if (res != TEEC_SUCCESS)
		goto invoke_error;
	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		res = ecdsa_ta_once(c, &sess, c->verify, &origin);
		t1 = bench_now_us();
		if (res != TEEC_SUCCESS)
			goto invoke_error;
		if (bench_samples_add(s, t1 - t0))
			goto out;
	}
	ret = 0;
	goto out;
invoke_error:
	bench_crypto_teec_error(c->verify ? "ECDSA P-256 verify" : "ECDSA P-256 sign", res, origin);
out:
	if (sess_open)
		TEEC_CloseSession(&sess);
	return ret;
}

static int ecdsa_native_loop(void *arg, size_t n, struct bench_samples *s)
{
	struct ecdsa_case *c = arg;
	size_t len = 0;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;
	int ok = 0;

	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		if (c->verify) {
			ok = EVP_PKEY_verify(c->pctx, c->nsig, c->nsig_len, c->digest,
					     sizeof(c->digest)) == 1;
		} else {
			len = sizeof(c->nsig);
			ok = EVP_PKEY_sign(c->pctx, c->nsig, &len, c->digest, sizeof(c->digest)) ==
			     1;
		}
		t1 = bench_now_us();
		if (!ok) {
			fprintf(stderr, "swtee bench: crypto: libcrypto ECDSA P-256 failed\n");
			return -1;
		}
		if (bench_samples_add(s, t1 - t0))
			return -1;
	}
	return 0;
}

static void ecdsa_case_fini(struct ecdsa_case *c)
{
	if (c->dig_alloc)
		TEEC_ReleaseSharedMemory(&c->dig);
	if (c->sig_alloc)
		TEEC_ReleaseSharedMemory(&c->sig);
	EVP_PKEY_CTX_free(c->pctx);
	EVP_PKEY_free(c->pkey);
	memset(c, 0, sizeof(*c));
}

static int ecdsa_case_init(struct ecdsa_case *c, TEEC_Context *teec, bool verify)
{
	TEEC_Result res = TEEC_SUCCESS;
	size_t len = sizeof(c->nsig);

	memset(c, 0, sizeof(*c));
	c->teec = teec;
	c->verify = verify;
	if (RAND_bytes(c->digest, sizeof(c->digest)) != 1)
		goto lib_fail;
	c->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	c->pctx = c->pkey ? EVP_PKEY_CTX_new_from_pkey(NULL, c->pkey, NULL) : NULL;
	if (!c->pctx || EVP_PKEY_sign_init(c->pctx) != 1 ||
	    EVP_PKEY_sign(c->pctx, c->nsig, &len, c->digest, sizeof(c->digest)) != 1)
		goto lib_fail;
	c->nsig_len = len;
	if (verify && EVP_PKEY_verify_init(c->pctx) != 1)
		goto lib_fail;
	c->dig.size = ECDSA_DIGEST;
	c->dig.flags = TEEC_MEM_INPUT;
	res = TEEC_AllocateSharedMemory(teec, &c->dig);
	if (res != TEEC_SUCCESS)
		goto shm_fail;
	c->dig_alloc = true;
	memcpy(c->dig.buffer, c->digest, ECDSA_DIGEST);
	c->sig.size = ECDSA_SIG_MAX;
	c->sig.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	res = TEEC_AllocateSharedMemory(teec, &c->sig);
	if (res != TEEC_SUCCESS)
		goto shm_fail;
	c->sig_alloc = true;
	return 0;
shm_fail:
	bench_crypto_teec_error("TEEC_AllocateSharedMemory", res, TEEC_ORIGIN_API);
	goto fail;
lib_fail:
	fprintf(stderr, "swtee bench: crypto: libcrypto cannot set up ECDSA P-256\n");
fail:
	ecdsa_case_fini(c);
	return -1;
}

/*
 * Whether the TEE signs with ECDSA P-256: 1, 0 with the reason in why, or
 * -1 after printing an unexpected failure.
 */
static int ecdsa_supported(TEEC_Context *teec, char *why, size_t why_len)
{
	TEEC_Session sess;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	const char *step = "TEE_GenerateKey(TEE_TYPE_ECDSA_KEYPAIR, 256)";
	int ret = -1;

	if (bench_crypto_open(teec, &sess) != TEEC_SUCCESS)
		return -1;
	res = ecdsa_prepare_key(&sess, &origin);
	if (res == TEEC_SUCCESS) {
		step = "TEE_AllocateOperation(TEE_ALG_ECDSA_P256, TEE_MODE_SIGN)";
		res = ecdsa_prepare_op(&sess, TEE_MODE_SIGN, &origin);
	}
	if (res == TEEC_SUCCESS) {
		ret = 1;
	} else if (res == TEEC_ERROR_NOT_SUPPORTED) {
		bench_text(why, why_len, "the TEE has no ECDSA P-256: %s answers NOT_SUPPORTED",
			   step);
		ret = 0;
	} else {
		bench_crypto_teec_error(step, res, origin);
	}
	TEEC_CloseSession(&sess);
	return ret;
}

/* Operations per second from t, a measurement in us per operation. */
static void ecdsa_ops(struct bench_result *r, const struct bench_result *t, const char *name)
{
	*r = *t;
	bench_text(r->name, sizeof(r->name), "%s", name);
	bench_text(r->unit, sizeof(r->unit), "op/s");
	r->higher_is_better = true;
	r->value = t->value > 0 ? 1e6 / t->value : NAN;
	r->p50 = t->p50 > 0 ? 1e6 / t->p50 : NAN;
	r->p90 = t->p90 > 0 ? 1e6 / t->p90 : NAN;
	r->p99 = t->p99 > 0 ? 1e6 / t->p99 : NAN;
	r->baseline_value = t->baseline_value > 0 ? 1e6 / t->baseline_value : NAN;
	r->baseline_p50 = t->baseline_p50 > 0 ? 1e6 / t->baseline_p50 : NAN;
	r->baseline_p90 = t->baseline_p90 > 0 ? 1e6 / t->baseline_p90 : NAN;
}

int bench_crypto_ecdsa_run(struct bench_ctx *ctx)
{
	static const char *const names[] = {"ecdsa-p256/sign", "ecdsa-p256/verify"};
	struct ecdsa_case c;
	struct bench_result t;
	struct bench_result r;
	char why[BENCH_REASON_MAX];
	size_t n = bench_iterations(ctx, ECDSA_ITERATIONS);
	int supported = ecdsa_supported(bench_teec(ctx), why, sizeof(why));
	int i = 0;

	if (supported < 0)
		return -1;
	for (i = 0; i < 2; i++) {
		if (!supported) {
			memset(&r, 0, sizeof(r));
			bench_text(r.name, sizeof(r.name), "%s", names[i]);
			bench_text(r.unit, sizeof(r.unit), "op/s");
			r.higher_is_better = true;
			r.value = NAN;
			r.skipped = true;
			bench_text(r.skip_reason, sizeof(r.skip_reason), "%s", why);
			if (bench_report(ctx, &r))
				return -1;
			continue;
		}
		if (ecdsa_case_init(&c, bench_teec(ctx), i == 1))
			return -1;
		if (bench_measure(&(struct bench_pair){.name = names[i],
						       .run = ecdsa_ta_loop,
						       .arg = &c,
						       .baseline_name = "native",
						       .baseline = ecdsa_native_loop,
						       .baseline_arg = &c,
						       .iterations = n,
						       .warmup = n / 10,
						       .blocks = ECDSA_BLOCKS},
				  &t)) {
			ecdsa_case_fini(&c);
			return -1;
		}
		ecdsa_case_fini(&c);
		ecdsa_ops(&r, &t, names[i]);
		if (bench_report(ctx, &r))
			return -1;
	}
	return 0;
}
