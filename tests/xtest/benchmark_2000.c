/*
 * benchmark 2xxx: SHA and AES through the crypto_perf TA, as OP-TEE's
 * benchmark_2000.c runs them: 5000 timed invokes of one buffer each,
 * random input (new before every invoke, not timed), a 2 s warm-up, and
 * OP-TEE's statistics line. The figures go to --json (<case>.mean,
 * .throughput, ...) and the seed's figures for the same case, an OP-TEE
 * board (shared/reference/seed-figures.md), are printed beside them as
 * context, not as a target: a case checks that the calls succeed, never
 * how fast they are.
 */
#include "adbg.h"
#include "crypto_perf.h"
#include "xtest_helpers.h"
#include "xtest_stats.h"

/* The seed's figure for a case: OP-TEE xtest on an i.MX6 (Cortex-A9). */
struct bench_2000_seed {
	double mean_us;
	double mib_s;
};

static void bench_2000_report(const struct xtest_stats *st, size_t size,
			      const struct bench_2000_seed *seed)
{
	xtest_stats_report("crypto", st, size);
	Do_ADBG_Log("swtee: mean %.1f us, %.2f MiB/s; seed (OP-TEE, i.MX6 Cortex-A9): "
		    "mean %.1f us, %.2f MiB/s",
		    st->mean, xtest_stats_mib_per_s(st->mean, size), seed->mean_us, seed->mib_s);
}

static void bench_2000_hash(ADBG_Case_t *c, uint32_t algo, size_t size,
			    const struct bench_2000_seed *seed)
{
	struct crypto_perf_hash_cfg cfg;
	struct xtest_stats st;

	crypto_perf_hash_cfg_init(&cfg);
	cfg.algo = algo;
	cfg.size = size;
	cfg.input = CRYPTO_USE_RANDOM;
	Do_ADBG_BeginSubCase(c, "%s, %zu bytes, %u invokes", crypto_perf_hash_str(algo), size,
			     cfg.n);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, crypto_perf_hash_run(&xtest_teec_ctx, &cfg, &st)))
		bench_2000_report(&st, size, seed);
	Do_ADBG_EndSubCase(c, NULL);
}

static void bench_2000_aes(ADBG_Case_t *c, uint32_t mode, uint32_t key_bits, size_t size,
			   const struct bench_2000_seed *seed)
{
	struct crypto_perf_cipher_cfg cfg;
	struct xtest_stats st;

	crypto_perf_cipher_cfg_init(&cfg);
	cfg.mode = mode;
	cfg.key_bits = key_bits;
	cfg.size = size;
	cfg.input = CRYPTO_USE_RANDOM;
	Do_ADBG_BeginSubCase(c, "AES-%u-%s encryption, %zu bytes, %u invokes", key_bits,
			     crypto_perf_mode_str(mode), size, cfg.n);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, crypto_perf_cipher_run(&xtest_teec_ctx, &cfg, &st)))
		bench_2000_report(&st, size, seed);
	Do_ADBG_EndSubCase(c, NULL);
}

static void xtest_tee_benchmark_2001(ADBG_Case_t *c)
{
	static const struct bench_2000_seed seed = {274.6, 3.56};

	bench_2000_hash(c, TA_SHA_SHA1, 1024, &seed);
}
ADBG_CASE_DEFINE(benchmark, 2001, xtest_tee_benchmark_2001,
		 "TEE SHA Performance test (TA_SHA_SHA1)");

static void xtest_tee_benchmark_2002(ADBG_Case_t *c)
{
	static const struct bench_2000_seed seed = {430.2, 9.08};

	bench_2000_hash(c, TA_SHA_SHA256, 4096, &seed);
}
/* OP-TEE's title reads "TA_SHA_SHA226", a typo for the SHA-256 the case runs. */
ADBG_CASE_DEFINE(benchmark, 2002, xtest_tee_benchmark_2002,
		 "TEE SHA Performance test (TA_SHA_SHA256)");

static void xtest_tee_benchmark_2011(ADBG_Case_t *c)
{
	static const struct bench_2000_seed seed = {332.4, 2.94};

	bench_2000_aes(c, TA_AES_ECB, AES_128, 1024, &seed);
}
ADBG_CASE_DEFINE(benchmark, 2011, xtest_tee_benchmark_2011,
		 "TEE AES Performance test (TA_AES_ECB)");

static void xtest_tee_benchmark_2012(ADBG_Case_t *c)
{
	static const struct bench_2000_seed seed = {373.6, 2.61};

	bench_2000_aes(c, TA_AES_CBC, AES_256, 1024, &seed);
}
ADBG_CASE_DEFINE(benchmark, 2012, xtest_tee_benchmark_2012,
		 "TEE AES Performance test (TA_AES_CBC)");
