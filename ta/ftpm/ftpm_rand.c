/*
 * Entropy for libtpms. libtpms takes its entropy from libcrypto's RAND_bytes
 * in the default library context (its _plat__GetEntropy seeds and reseeds
 * the TPM's own DRBG), and libcrypto draws random numbers there inside some
 * of libtpms' operations too. This file registers a small provider whose
 * one random generator is TEE_GenerateRandom, and makes it the generator of
 * that default context, so that all of the TPM's randomness comes from the
 * TEE's. The TA runtime's crypto has a library context of its own, so
 * TEE_GenerateRandom does not come back here.
 *
 * It must run before anything in the process instantiates the default
 * context's generators (libcrypto refuses to swap them afterwards); the TA's
 * creation is the first use.
 */
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <stdlib.h>
#include <trace.h>

#include "ftpm.h"

#define PROVIDER_NAME "swtee-ftpm-rand"
#define RAND_NAME "SWTEE-TEE-GENERATE-RANDOM"
/* What one generate call may ask for; libcrypto splits longer requests. */
#define MAX_REQUEST (64 * 1024)

struct tee_rand {
	int state; /* EVP_RAND_STATE_* */
};

/* Bytes the generator has given, so that the set-up can check it is in use. */
static size_t generated;

static void *tee_rand_newctx(void *provctx, void *parent, const OSSL_DISPATCH *parent_calls)
{
	struct tee_rand *r = calloc(1, sizeof(*r));

	(void)provctx;
	(void)parent;
	(void)parent_calls;
	if (r)
		r->state = EVP_RAND_STATE_UNINITIALISED;
	return r;
}

static void tee_rand_freectx(void *ctx)
{
	free(ctx);
}

static int tee_rand_instantiate(void *ctx, unsigned int strength, int prediction_resistance,
				const unsigned char *pstr, size_t pstr_len,
				const OSSL_PARAM params[])
{
	struct tee_rand *r = ctx;

	(void)strength;
	(void)prediction_resistance;
	(void)pstr;
	(void)pstr_len;
	(void)params;
	r->state = EVP_RAND_STATE_READY;
	return 1;
}

static int tee_rand_uninstantiate(void *ctx)
{
	struct tee_rand *r = ctx;

	r->state = EVP_RAND_STATE_UNINITIALISED;
	return 1;
}

static int tee_rand_generate(void *ctx, unsigned char *out, size_t outlen, unsigned int strength,
			     int prediction_resistance, const unsigned char *adin, size_t adin_len)
{
	struct tee_rand *r = ctx;

	(void)strength;
	(void)prediction_resistance;
	(void)adin;
	(void)adin_len;
	if (r->state != EVP_RAND_STATE_READY)
		return 0;
	TEE_GenerateRandom(out, outlen); /* panics rather than fail */
	generated += outlen;
	return 1;
}

/*
 * Stirred-in data (RAND_add, RAND_seed) is dropped: TEE_GenerateRandom is
 * the one source, and it keeps itself seeded.
 */
static int tee_rand_reseed(void *ctx, int prediction_resistance, const unsigned char *ent,
			   size_t ent_len, const unsigned char *adin, size_t adin_len)
{
	(void)ctx;
	(void)prediction_resistance;
	(void)ent;
	(void)ent_len;
	(void)adin;
	(void)adin_len;
	return 1;
}

/* One thread runs the TA: the locks libcrypto asks for have nothing to guard. */
static int tee_rand_enable_locking(void *ctx)
{
	(void)ctx;
	return 1;
}

static int tee_rand_lock(void *ctx)
{
	(void)ctx;
	return 1;
}

static void tee_rand_unlock(void *ctx)
{
	(void)ctx;
}

static const OSSL_PARAM *tee_rand_gettable_ctx_params(void *ctx, void *provctx)
{
	static const OSSL_PARAM gettable[] = {
	    OSSL_PARAM_int(OSSL_RAND_PARAM_STATE, NULL),
	    OSSL_PARAM_uint(OSSL_RAND_PARAM_STRENGTH, NULL),
	    OSSL_PARAM_size_t(OSSL_RAND_PARAM_MAX_REQUEST, NULL),
	    OSSL_PARAM_END,
	};

	(void)ctx;
	(void)provctx;
	return gettable;
}

static int tee_rand_get_ctx_params(void *ctx, OSSL_PARAM params[])
{
	struct tee_rand *r = ctx;
	OSSL_PARAM *p = NULL;

	p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STATE);
	if (p && !OSSL_PARAM_set_int(p, r->state))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_STRENGTH);
	if (p && !OSSL_PARAM_set_uint(p, 256))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_RAND_PARAM_MAX_REQUEST);
	if (p && !OSSL_PARAM_set_size_t(p, MAX_REQUEST))
		return 0;
	return 1;
}

static const OSSL_DISPATCH tee_rand_functions[] = {
    {OSSL_FUNC_RAND_NEWCTX, (void (*)(void))tee_rand_newctx},
    {OSSL_FUNC_RAND_FREECTX, (void (*)(void))tee_rand_freectx},
    {OSSL_FUNC_RAND_INSTANTIATE, (void (*)(void))tee_rand_instantiate},
    {OSSL_FUNC_RAND_UNINSTANTIATE, (void (*)(void))tee_rand_uninstantiate},
    {OSSL_FUNC_RAND_GENERATE, (void (*)(void))tee_rand_generate},
    {OSSL_FUNC_RAND_RESEED, (void (*)(void))tee_rand_reseed},
    {OSSL_FUNC_RAND_ENABLE_LOCKING, (void (*)(void))tee_rand_enable_locking},
    {OSSL_FUNC_RAND_LOCK, (void (*)(void))tee_rand_lock},
    {OSSL_FUNC_RAND_UNLOCK, (void (*)(void))tee_rand_unlock},
    {OSSL_FUNC_RAND_GETTABLE_CTX_PARAMS, (void (*)(void))tee_rand_gettable_ctx_params},
    {OSSL_FUNC_RAND_GET_CTX_PARAMS, (void (*)(void))tee_rand_get_ctx_params},
    {0, NULL},
};

static const OSSL_ALGORITHM tee_rand_algorithms[] = {
    {RAND_NAME, "provider=" PROVIDER_NAME, tee_rand_functions, "TEE_GenerateRandom"},
    {NULL, NULL, NULL, NULL},
};

static const OSSL_ALGORITHM *tee_rand_query(void *provctx, int operation_id, int *no_cache)
{
	(void)provctx;
	*no_cache = 0;
	return operation_id == OSSL_OP_RAND ? tee_rand_algorithms : NULL;
}

static const OSSL_DISPATCH tee_rand_provider[] = {
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))tee_rand_query},
    {0, NULL},
};

static int tee_rand_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
				  const OSSL_DISPATCH **out, void **provctx)
{
	(void)in;
	*out = tee_rand_provider;
	*provctx = (void *)handle;
	return 1;
}

TEE_Result ftpm_rand_init(void)
{
	unsigned char probe[16];
	TEE_Result res = TEE_ERROR_GENERIC;

	/*
	 * Loading a provider by hand stops libcrypto from loading the default
	 * one on its own: load it too, libtpms' algorithms are there.
	 */
	if (!OSSL_PROVIDER_add_builtin(NULL, PROVIDER_NAME, tee_rand_provider_init) ||
	    !OSSL_PROVIDER_load(NULL, "default") || !OSSL_PROVIDER_load(NULL, PROVIDER_NAME)) {
		EMSG("cannot load the TEE random provider");
		goto out;
	}
	if (!RAND_set_DRBG_type(NULL, RAND_NAME, "provider=" PROVIDER_NAME, NULL, NULL)) {
		EMSG("libcrypto's default random generators already run");
		goto out;
	}
	if (RAND_bytes(probe, sizeof(probe)) != 1 || generated < sizeof(probe)) {
		EMSG("the TEE random generator is not in use");
		goto out;
	}
	res = TEE_SUCCESS;
out:
	ERR_clear_error();
	return res;
}
