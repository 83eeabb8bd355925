/*
 * Client side of the crypto_perf TA (ta/crypto_perf): the loops behind
 * xtest --aes-perf and --hash-perf (crypto_perf.c), --asym-perf
 * (crypto_perf_asym.c) and the benchmark cases 2001..2012
 * (benchmark_2000.c), measured as OP-TEE's xtest measures them: one timed
 * TEEC_InvokeCommand per buffer, in and out buffers in shared memory
 * allocated once, the inner loop (-l) run inside the TA.
 */
#ifndef XTEST_CRYPTO_PERF_H
#define XTEST_CRYPTO_PERF_H

#include <stdbool.h>
#include <stddef.h>

#include <tee_client_api.h>

#include "ta_crypto_perf.h"
#include "xtest_stats.h"

/* OP-TEE's defaults (crypto_common.h). */
#define CRYPTO_DEF_COUNT 5000u /* -n: timed invokes */
#define CRYPTO_DEF_LOOPS 1u    /* -l: loops inside the TA per invoke */
#define CRYPTO_DEF_WARMUP 2u   /* -w: seconds of busy loop first */
#define CRYPTO_DEF_UNIT_SIZE 0
#define CRYPTO_DEF_VERBOSITY 0

/* What the input buffer holds while it is processed. */
enum crypto_perf_input {
	CRYPTO_USE_ZEROS,  /* zeros (the default) */
	CRYPTO_USE_RANDOM, /* -r: new random bytes before every invoke, not timed */
	CRYPTO_NOT_INITED, /* --not-inited: whatever the new shared memory holds */
};

struct crypto_perf_cipher_cfg {
	uint32_t mode;	   /* TA_AES_* */
	uint32_t key_bits; /* AES_128, AES_192, AES_256 */
	bool decrypt;
	bool in_place; /* one buffer for input and output */
	size_t size;   /* bytes per buffer */
	size_t unit;   /* bytes per update; 0: the whole buffer */
	unsigned int n;
	unsigned int l;
	enum crypto_perf_input input;
	unsigned int warmup;
	int verbosity;
};

struct crypto_perf_hash_cfg {
	uint32_t algo; /* TA_SHA_*, TA_SM3, TA_HMAC_* */
	size_t size;
	bool unaligned; /* the data starts one byte into the buffer */
	unsigned int n;
	unsigned int l;
	enum crypto_perf_input input;
	unsigned int warmup;
	int verbosity;
};

/* OP-TEE's defaults: AES-128-ECB encryption of 1024 bytes, 5000 times. */
void crypto_perf_cipher_cfg_init(struct crypto_perf_cipher_cfg *cfg);
/* SHA-1 of 1024 bytes, 5000 times. */
void crypto_perf_hash_cfg_init(struct crypto_perf_hash_cfg *cfg);

/*
 * Runs the test against a session of its own on ctx and prints OP-TEE's
 * lines to stdout: with verbosity >= 1 "Starting test: ..." first and the
 * 2-sigma interval last, and always
 *	min=%gus max=%gus mean=%gus stddev=%gus (cv %g%%) (%gMiB/s)
 * st receives the timings (microseconds per invoke). Returns TEEC_SUCCESS,
 * or the first failure after printing it to stderr ("TEEC_InvokeCommand:
 * 0x%08x (orig=%d)", as OP-TEE's tools); TEEC_ERROR_NOT_SUPPORTED when the
 * TEE cannot do the algorithm.
 */
TEEC_Result crypto_perf_cipher_run(TEEC_Context *ctx, const struct crypto_perf_cipher_cfg *cfg,
				   struct xtest_stats *st);
TEEC_Result crypto_perf_hash_run(TEEC_Context *ctx, const struct crypto_perf_hash_cfg *cfg,
				 struct xtest_stats *st);

/* OP-TEE's names of modes and hash algorithms ("ECB", "SHA256"); "???" when unknown. */
const char *crypto_perf_mode_str(uint32_t mode);
const char *crypto_perf_hash_str(uint32_t algo);

/* ---- shared by the applets ---- */

/* The name the usage lines give xtest ("xtest"). */
const char *crypto_perf_progname(void);

/*
 * Parses a whole decimal number from 0 to max into *v. Returns false after
 * telling why on stderr (applet and option name the culprit).
 */
bool crypto_perf_parse_uint(const char *applet, const char *opt, const char *arg, unsigned long max,
			    unsigned long *v);

/* Fills buf with random bytes (getrandom); false after saying why on stderr. */
bool crypto_perf_random(void *buf, size_t len);

/* Busy loop for seconds, then "Clock resolution is %jd ns" with -v -v. */
void crypto_perf_warmup(unsigned int seconds);
void crypto_perf_clock_resolution(int verbosity);

/* Prints OP-TEE's failure line for res (and origin, when given) to stderr. */
void crypto_perf_errx(const char *what, TEEC_Result res, const uint32_t *origin);

/* An invoke, timed with CLOCK_MONOTONIC; *us receives its duration. */
TEEC_Result crypto_perf_invoke_timed(TEEC_Session *sess, uint32_t cmd, TEEC_Operation *op,
				     uint32_t *origin, double *us);

/* Progress marks for -v -v: a '#' every tenth of n; a newline after the last. */
void crypto_perf_progress(int verbosity, unsigned int left, unsigned int n);

#endif
