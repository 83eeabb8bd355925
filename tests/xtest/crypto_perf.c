/*
 * xtest --aes-perf and --hash-perf (alias --sha-perf): OP-TEE's symmetric
 * perf applets, with their options and output lines, over the crypto_perf
 * TA; and the loops the benchmark cases 2001..2012 share with them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include "crypto_perf.h"
#include "xtest_helpers.h"
#include "xtest_perf.h"

/* Digest and MAC lengths, bytes, of the hash algorithms by TA code. */
static const struct {
	uint32_t algo;
	const char *name;
	size_t len;
} crypto_perf_hashes[] = {
    {TA_SHA_SHA1, "SHA1", 20},		 {TA_SHA_SHA224, "SHA224", 28},
    {TA_SHA_SHA256, "SHA256", 32},	 {TA_SHA_SHA384, "SHA384", 48},
    {TA_SHA_SHA512, "SHA512", 64},	 {TA_SM3, "SM3", 32},
    {TA_HMAC_SHA1, "HMAC_SHA1", 20},	 {TA_HMAC_SHA224, "HMAC_SHA224", 28},
    {TA_HMAC_SHA256, "HMAC_SHA256", 32}, {TA_HMAC_SHA384, "HMAC_SHA384", 48},
    {TA_HMAC_SHA512, "HMAC_SHA512", 64}, {TA_HMAC_SM3, "HMAC_SM3", 32},
};

#define CRYPTO_PERF_NHASHES (sizeof(crypto_perf_hashes) / sizeof(crypto_perf_hashes[0]))
/* -s and -u: no buffer above 512 MiB, the TA's window for shared memory. */
#define CRYPTO_PERF_SIZE_MAX (512ul * 1024 * 1024)
#define CRYPTO_PERF_COUNT_MAX 100000000ul

/* ---- shared ---- */

const char *crypto_perf_progname(void)
{
	return "xtest";
}

bool crypto_perf_parse_uint(const char *applet, const char *opt, const char *arg, unsigned long max,
			    unsigned long *v)
{
	char *end = NULL;

	errno = 0;
	*v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' || *v > max) {
		fprintf(stderr, "%s %s: %s wants a number from 0 to %lu, not \"%s\"\n",
			crypto_perf_progname(), applet, opt, max, arg);
		return false;
	}
	return true;
}

bool crypto_perf_random(void *buf, size_t len)
{
	uint8_t *p = buf;
	ssize_t got = 0;

	while (len) {
		got = getrandom(p, len, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			perror("getrandom");
			return false;
		}
		p += got;
		len -= (size_t)got;
	}
	return true;
}

void crypto_perf_warmup(unsigned int seconds)
{
	xtest_warmup(seconds);
}

void crypto_perf_clock_resolution(int verbosity)
{
	struct timespec ts = {0};

	if (verbosity < 2 || clock_getres(CLOCK_MONOTONIC, &ts))
		return;
	printf("Clock resolution is %jd ns\n", (intmax_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

void crypto_perf_errx(const char *what, TEEC_Result res, const uint32_t *origin)
{
	fprintf(stderr, "%s: 0x%08x", what, res);
	if (origin)
		fprintf(stderr, " (orig=%d)", (int)*origin);
	fprintf(stderr, "\n");
}

TEEC_Result crypto_perf_invoke_timed(TEEC_Session *sess, uint32_t cmd, TEEC_Operation *op,
				     uint32_t *origin, double *us)
{
	struct timespec t0 = {0};
	struct timespec t1 = {0};
	TEEC_Result res = TEEC_ERROR_GENERIC;

	xtest_monotonic_now(&t0);
	res = TEEC_InvokeCommand(sess, cmd, op, origin);
	xtest_monotonic_now(&t1);
	*us = xtest_timespec_diff_us(&t0, &t1);
	return res;
}

void crypto_perf_progress(int verbosity, unsigned int left, unsigned int n)
{
	if (verbosity < 2)
		return;
	if (n >= 10 && left % (n / 10) == 0) {
		putchar('#');
		fflush(stdout);
	}
	if (!left)
		putchar('\n');
}

static const char *yesno(bool v)
{
	return v ? "yes" : "no";
}

/* One shared memory of size bytes (at least one: a zero-size one is no buffer). */
static TEEC_Result crypto_perf_shm(TEEC_Context *ctx, TEEC_SharedMemory *shm, size_t size,
				   uint32_t flags)
{
	TEEC_Result res = TEEC_ERROR_GENERIC;

	memset(shm, 0, sizeof(*shm));
	shm->size = size ? size : 1;
	shm->flags = flags;
	res = TEEC_AllocateSharedMemory(ctx, shm);
	if (res != TEEC_SUCCESS)
		crypto_perf_errx("TEEC_AllocateSharedMemory", res, NULL);
	return res;
}

static TEEC_Result crypto_perf_open(TEEC_Context *ctx, TEEC_Session *sess)
{
	const TEEC_UUID uuid = TA_CRYPTO_PERF_UUID;
	uint32_t origin = 0;
	TEEC_Result res =
	    TEEC_OpenSession(ctx, sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);

	if (res != TEEC_SUCCESS)
		crypto_perf_errx("TEEC_OpenSession", res, &origin);
	return res;
}

/* An untimed invoke whose failure is printed. */
static TEEC_Result crypto_perf_invoke(TEEC_Session *sess, uint32_t cmd, TEEC_Operation *op)
{
	uint32_t origin = 0;
	TEEC_Result res = TEEC_InvokeCommand(sess, cmd, op, &origin);

	if (res != TEEC_SUCCESS)
		crypto_perf_errx("TEEC_InvokeCommand", res, &origin);
	return res;
}

/* ---- cipher ---- */

void crypto_perf_cipher_cfg_init(struct crypto_perf_cipher_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = TA_AES_ECB;
	cfg->key_bits = AES_128;
	cfg->size = 1024;
	cfg->unit = CRYPTO_DEF_UNIT_SIZE;
	cfg->n = CRYPTO_DEF_COUNT;
	cfg->l = CRYPTO_DEF_LOOPS;
	cfg->input = CRYPTO_USE_ZEROS;
	cfg->warmup = CRYPTO_DEF_WARMUP;
	cfg->verbosity = CRYPTO_DEF_VERBOSITY;
}

const char *crypto_perf_mode_str(uint32_t mode)
{
	switch (mode) {
	case TA_AES_ECB:
	case TA_SM4_ECB:
		return "ECB";
	case TA_AES_CBC:
	case TA_SM4_CBC:
		return "CBC";
	case TA_AES_CTR:
	case TA_SM4_CTR:
		return "CTR";
	case TA_AES_XTS:
	case TA_SM4_XTS:
		return "XTS";
	case TA_AES_GCM:
		return "GCM";
	default:
		return "???";
	}
}

static const char *crypto_perf_cipher_str(uint32_t mode)
{
	if (mode <= TA_AES_GCM)
		return "AES";
	if (mode <= TA_SM4_XTS)
		return "SM4";
	return "???";
}

TEEC_Result crypto_perf_cipher_run(TEEC_Context *ctx, const struct crypto_perf_cipher_cfg *cfg,
				   struct xtest_stats *st)
{
	TEEC_SharedMemory in_shm = {0};
	TEEC_SharedMemory out_shm = {0};
	TEEC_Session sess = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	uint32_t origin = 0;
	bool sess_open = false;
	bool in_alloc = false;
	bool out_alloc = false;
	unsigned int left = cfg->n;
	double us = 0;

	xtest_stats_init(st);
	crypto_perf_clock_resolution(cfg->verbosity);
	if (cfg->verbosity >= 2) {
		printf("input test buffer:  Non secure memory\n");
		printf("output test buffer: Non secure memory\n");
	}
	res = crypto_perf_open(ctx, &sess);
	if (res != TEEC_SUCCESS)
		goto out;
	sess_open = true;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = cfg->decrypt;
	op.params[0].value.b = cfg->key_bits;
	op.params[1].value.a = cfg->mode;
	res = crypto_perf_invoke(&sess, TA_CRYPTO_PERF_CMD_CIPHER_PREPARE_KEY, &op);
	if (res != TEEC_SUCCESS)
		goto out;

	/* Both INOUT, so that one buffer can be input and output (-i). */
	res = crypto_perf_shm(ctx, &in_shm, cfg->size, TEEC_MEM_INPUT | TEEC_MEM_OUTPUT);
	if (res != TEEC_SUCCESS)
		goto out;
	in_alloc = true;
	if (!cfg->in_place) {
		res = crypto_perf_shm(ctx, &out_shm, cfg->size, TEEC_MEM_INPUT | TEEC_MEM_OUTPUT);
		if (res != TEEC_SUCCESS)
			goto out;
		out_alloc = true;
	}
	if (cfg->input == CRYPTO_USE_ZEROS)
		memset(in_shm.buffer, 0, cfg->size);

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INOUT, TEEC_MEMREF_PARTIAL_INOUT,
					 TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].memref.parent = &in_shm;
	op.params[0].memref.size = cfg->size;
	op.params[1].memref.parent = cfg->in_place ? &in_shm : &out_shm;
	op.params[1].memref.size = cfg->size;
	op.params[2].value.a = cfg->l;
	op.params[2].value.b = (uint32_t)cfg->unit;

	if (cfg->verbosity >= 1) {
		printf("Starting test: %s, %scrypt, keysize=%u bits, size=%zu bytes, ",
		       crypto_perf_mode_str(cfg->mode), cfg->decrypt ? "de" : "en", cfg->key_bits,
		       cfg->size);
		printf("random=%s, ", yesno(cfg->input == CRYPTO_USE_RANDOM));
		printf("in place=%s, ", yesno(cfg->in_place));
		printf("inner loops=%u, loops=%u, warm-up=%u s, ", cfg->l, cfg->n, cfg->warmup);
		printf("unit=%zu\n", cfg->unit);
		fflush(stdout);
	}
	crypto_perf_warmup(cfg->warmup);

	while (left-- > 0) {
		if (cfg->input == CRYPTO_USE_RANDOM &&
		    !crypto_perf_random(in_shm.buffer, cfg->size)) {
			res = TEEC_ERROR_GENERIC;
			goto out;
		}
		res = crypto_perf_invoke_timed(&sess, TA_CRYPTO_PERF_CMD_CIPHER_PROCESS, &op,
					       &origin, &us);
		if (res != TEEC_SUCCESS) {
			crypto_perf_errx("TEEC_InvokeCommand", res, &origin);
			goto out;
		}
		xtest_stats_add(st, us);
		crypto_perf_progress(cfg->verbosity, left, cfg->n);
	}
	xtest_stats_print(stdout, st, cfg->size, cfg->verbosity);
	res = TEEC_SUCCESS;
out:
	if (in_alloc)
		TEEC_ReleaseSharedMemory(&in_shm);
	if (out_alloc)
		TEEC_ReleaseSharedMemory(&out_shm);
	if (sess_open)
		TEEC_CloseSession(&sess);
	return res;
}

/* ---- hash ---- */

void crypto_perf_hash_cfg_init(struct crypto_perf_hash_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->algo = TA_SHA_SHA1;
	cfg->size = 1024;
	cfg->n = CRYPTO_DEF_COUNT;
	cfg->l = CRYPTO_DEF_LOOPS;
	cfg->input = CRYPTO_USE_ZEROS;
	cfg->warmup = CRYPTO_DEF_WARMUP;
	cfg->verbosity = CRYPTO_DEF_VERBOSITY;
}

const char *crypto_perf_hash_str(uint32_t algo)
{
	size_t i = 0;

	for (i = 0; i < CRYPTO_PERF_NHASHES; i++)
		if (crypto_perf_hashes[i].algo == algo)
			return crypto_perf_hashes[i].name;
	return "???";
}

static size_t crypto_perf_hash_len(uint32_t algo)
{
	size_t i = 0;

	for (i = 0; i < CRYPTO_PERF_NHASHES; i++)
		if (crypto_perf_hashes[i].algo == algo)
			return crypto_perf_hashes[i].len;
	return 0;
}

TEEC_Result crypto_perf_hash_run(TEEC_Context *ctx, const struct crypto_perf_hash_cfg *cfg,
				 struct xtest_stats *st)
{
	TEEC_SharedMemory in_shm = {0};
	TEEC_SharedMemory out_shm = {0};
	TEEC_Session sess = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	size_t offset = cfg->unaligned ? 1 : 0;
	size_t hash_len = crypto_perf_hash_len(cfg->algo);
	uint32_t origin = 0;
	bool sess_open = false;
	bool in_alloc = false;
	bool out_alloc = false;
	unsigned int left = cfg->n;
	double us = 0;

	xtest_stats_init(st);
	if (cfg->verbosity >= 2)
		printf("hash-perf\n");
	crypto_perf_clock_resolution(cfg->verbosity);
	res = crypto_perf_open(ctx, &sess);
	if (res != TEEC_SUCCESS)
		goto out;
	sess_open = true;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = cfg->algo;
	res = crypto_perf_invoke(&sess, TA_CRYPTO_PERF_CMD_HASH_PREPARE_OP, &op);
	if (res != TEEC_SUCCESS)
		goto out;

	res = crypto_perf_shm(ctx, &in_shm, cfg->size + offset, TEEC_MEM_INPUT);
	if (res != TEEC_SUCCESS)
		goto out;
	in_alloc = true;
	res = crypto_perf_shm(ctx, &out_shm, hash_len, TEEC_MEM_OUTPUT);
	if (res != TEEC_SUCCESS)
		goto out;
	out_alloc = true;
	if (cfg->input == CRYPTO_USE_ZEROS)
		memset((uint8_t *)in_shm.buffer + offset, 0, cfg->size);

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INPUT, TEEC_MEMREF_PARTIAL_OUTPUT,
					 TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].memref.parent = &in_shm;
	op.params[0].memref.size = cfg->size + offset;
	op.params[1].memref.parent = &out_shm;
	op.params[1].memref.size = hash_len;
	op.params[2].value.a = cfg->l;
	op.params[2].value.b = (uint32_t)offset;

	if (cfg->verbosity >= 1) {
		printf("Starting test: %s, size=%zu bytes, ", crypto_perf_hash_str(cfg->algo),
		       cfg->size);
		printf("random=%s, ", yesno(cfg->input == CRYPTO_USE_RANDOM));
		printf("unaligned=%s, ", yesno(cfg->unaligned));
		printf("inner loops=%u, loops=%u, warm-up=%u s\n", cfg->l, cfg->n, cfg->warmup);
		fflush(stdout);
	}
	crypto_perf_warmup(cfg->warmup);

	while (left-- > 0) {
		if (cfg->input == CRYPTO_USE_RANDOM &&
		    !crypto_perf_random((uint8_t *)in_shm.buffer + offset, cfg->size)) {
			res = TEEC_ERROR_GENERIC;
			goto out;
		}
		/* The TA writes the digest length back; the next call needs the room again. */
		op.params[1].memref.size = hash_len;
		res = crypto_perf_invoke_timed(&sess, TA_CRYPTO_PERF_CMD_HASH_PROCESS, &op, &origin,
					       &us);
		if (res != TEEC_SUCCESS) {
			crypto_perf_errx("TEEC_InvokeCommand", res, &origin);
			goto out;
		}
		xtest_stats_add(st, us);
		crypto_perf_progress(cfg->verbosity, left, cfg->n);
	}
	xtest_stats_print(stdout, st, cfg->size, cfg->verbosity);
	res = TEEC_SUCCESS;
out:
	if (in_alloc)
		TEEC_ReleaseSharedMemory(&in_shm);
	if (out_alloc)
		TEEC_ReleaseSharedMemory(&out_shm);
	if (sess_open)
		TEEC_CloseSession(&sess);
	return res;
}

/* ---- the applets ---- */

/* The applet's exit status after res; says so when the TEE lacks what was asked. */
static int crypto_perf_applet_status(const char *applet, TEEC_Result res, const char *what)
{
	if (res == TEEC_SUCCESS)
		return 0;
	if (res == TEEC_ERROR_NOT_SUPPORTED)
		fprintf(stderr, "%s %s: %s is not supported by this TEE\n", crypto_perf_progname(),
			applet, what);
	return 1;
}

static void aes_perf_usage(const char *applet, const struct crypto_perf_cipher_cfg *d)
{
	fprintf(stderr, "Usage: %s %s [-h]\n", crypto_perf_progname(), applet);
	fprintf(stderr,
		"Usage: %s %s [-d] [-i] [-k SIZE] [-l LOOP] [-c CIPHER] [-m MODE] [-n LOOP] "
		"[-r|--not-inited] [-s SIZE] [-u UNIT] [-v [-v]] [-w SEC]\n",
		crypto_perf_progname(), applet);
	fprintf(stderr, "AES/SM4 performance testing tool for swtee (OP-TEE's options)\n\n");
	fprintf(stderr, "Options:\n");
	fprintf(stderr, "  -d            Test decryption instead of encryption\n");
	fprintf(stderr, "  -h|--help     Print this help and exit\n");
	fprintf(stderr, "  -i|--in-place Use the same buffer for input and output\n");
	fprintf(stderr, "  -k SIZE       Key size in bits: 128, 192 or 256 [%u]\n", d->key_bits);
	fprintf(stderr, "  -l LOOP       Inner loop iterations, in the TA [%u]\n", d->l);
	fprintf(stderr, "  -c CIPHER     cipher: AES, SM4 [%s]\n", crypto_perf_cipher_str(d->mode));
	fprintf(stderr, "  -m MODE       mode: ECB, CBC, CTR, XTS, GCM [%s]\n",
		crypto_perf_mode_str(d->mode));
	fprintf(stderr, "  -n LOOP       Outer test loop iterations: timed invokes [%u]\n", d->n);
	fprintf(stderr, "  --not-inited  Do not initialize the input buffer\n");
	fprintf(stderr, "  -r|--random   Random input data, new before each invoke "
			"(default: all zeros)\n");
	fprintf(stderr, "  -s SIZE       Test buffer size in bytes, a multiple of 16 [%zu]\n",
		d->size);
	fprintf(stderr, "  -u UNIT       Divide the buffer in UNIT-byte updates (+ remainder)\n");
	fprintf(stderr, "                (0 to ignore) [%zu]\n", d->unit);
	fprintf(stderr, "  -v            Be verbose (use twice for greater effect)\n");
	fprintf(stderr, "  -w|--warmup SEC  Warm-up time in seconds: a busy loop before the\n");
	fprintf(stderr, "                   test, so that CPU frequency scaling settles [%u]\n",
		d->warmup);
	fprintf(stderr,
		"\nTo test without the CPU's AES instructions, mask them in the TEE's\n"
		"environment: OPENSSL_ia32cap='~0x200000200000000:~0x60020000000' "
		"swtee run -- %s %s\n",
		crypto_perf_progname(), applet);
}

/* "-x" at argv[*i] wants a value; false (after saying so) when there is none. */
static bool crypto_perf_next_arg(int argc, char *argv[], int *i)
{
	if (++*i < argc)
		return true;
	fprintf(stderr, "%s %s: %s: missing argument\n", crypto_perf_progname(), argv[0],
		argv[*i - 1]);
	return false;
}

static bool crypto_perf_has_help(int argc, char *argv[])
{
	int i = 0;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

/* The TA_AES_* / TA_SM4_* mode for cipher and mode names; false when SM4 has no such mode. */
static bool crypto_perf_cipher_mode(bool sm4, uint32_t aes_mode, uint32_t *mode)
{
	if (!sm4) {
		*mode = aes_mode;
		return true;
	}
	switch (aes_mode) {
	case TA_AES_ECB:
		*mode = TA_SM4_ECB;
		return true;
	case TA_AES_CBC:
		*mode = TA_SM4_CBC;
		return true;
	case TA_AES_CTR:
		*mode = TA_SM4_CTR;
		return true;
	case TA_AES_XTS:
		*mode = TA_SM4_XTS;
		return true;
	default:
		return false;
	}
}

int aes_perf_runner_cmd_parser(int argc, char *argv[])
{
	static const char *const modes[] = {"ECB", "CBC", "CTR", "XTS", "GCM"};
	const char *applet = argc > 0 ? argv[0] : "--aes-perf";
	struct crypto_perf_cipher_cfg cfg;
	struct crypto_perf_cipher_cfg def;
	struct xtest_stats st;
	TEEC_Context ctx;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	uint32_t aes_mode = TA_AES_ECB;
	unsigned long v = 0;
	bool sm4 = false;
	char what[64];
	size_t k = 0;
	int i = 0;
	int status = 1;

	crypto_perf_cipher_cfg_init(&cfg);
	crypto_perf_cipher_cfg_init(&def);
	if (crypto_perf_has_help(argc, argv)) {
		aes_perf_usage(applet, &def);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-d")) {
			cfg.decrypt = true;
		} else if (!strcmp(argv[i], "-i") || !strcmp(argv[i], "--in-place")) {
			cfg.in_place = true;
		} else if (!strcmp(argv[i], "-k")) {
			if (!crypto_perf_next_arg(argc, argv, &i))
				return 1;
			if (!crypto_perf_parse_uint(applet, "-k", argv[i], 256, &v) ||
			    (v != AES_128 && v != AES_192 && v != AES_256)) {
				fprintf(stderr, "%s %s: invalid key size\n", crypto_perf_progname(),
					applet);
				aes_perf_usage(applet, &def);
				return 1;
			}
			cfg.key_bits = (uint32_t)v;
		} else if (!strcmp(argv[i], "-l")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-l", argv[i], UINT32_MAX, &v))
				return 1;
			cfg.l = (unsigned int)v;
		} else if (!strcmp(argv[i], "-c")) {
			if (!crypto_perf_next_arg(argc, argv, &i))
				return 1;
			if (!strcasecmp(argv[i], "SM4")) {
				sm4 = true;
			} else if (!strcasecmp(argv[i], "AES")) {
				sm4 = false;
			} else {
				fprintf(stderr, "%s %s, invalid cipher\n", crypto_perf_progname(),
					applet);
				aes_perf_usage(applet, &def);
				return 1;
			}
		} else if (!strcmp(argv[i], "-m")) {
			if (!crypto_perf_next_arg(argc, argv, &i))
				return 1;
			for (k = 0; k < sizeof(modes) / sizeof(modes[0]); k++)
				if (!strcasecmp(argv[i], modes[k]))
					break;
			if (k == sizeof(modes) / sizeof(modes[0])) {
				fprintf(stderr, "%s %s, invalid mode\n", crypto_perf_progname(),
					applet);
				aes_perf_usage(applet, &def);
				return 1;
			}
			aes_mode = (uint32_t)k; /* TA_AES_ECB .. TA_AES_GCM */
		} else if (!strcmp(argv[i], "-n")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-n", argv[i], CRYPTO_PERF_COUNT_MAX,
						    &v))
				return 1;
			cfg.n = (unsigned int)v;
		} else if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--random")) {
			if (cfg.input == CRYPTO_NOT_INITED) {
				fprintf(stderr, "--random is not compatible with --not-inited\n");
				aes_perf_usage(applet, &def);
				return 1;
			}
			cfg.input = CRYPTO_USE_RANDOM;
		} else if (!strcmp(argv[i], "--not-inited")) {
			if (cfg.input == CRYPTO_USE_RANDOM) {
				fprintf(stderr, "--random is not compatible with --not-inited\n");
				aes_perf_usage(applet, &def);
				return 1;
			}
			cfg.input = CRYPTO_NOT_INITED;
		} else if (!strcmp(argv[i], "-s")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-s", argv[i], CRYPTO_PERF_SIZE_MAX,
						    &v))
				return 1;
			cfg.size = v;
		} else if (!strcmp(argv[i], "-u")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-u", argv[i], CRYPTO_PERF_SIZE_MAX,
						    &v))
				return 1;
			cfg.unit = v;
		} else if (!strcmp(argv[i], "-v")) {
			cfg.verbosity++;
		} else if (!strcmp(argv[i], "-w") || !strcmp(argv[i], "--warmup")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-w", argv[i], 3600, &v))
				return 1;
			cfg.warmup = (unsigned int)v;
		} else {
			fprintf(stderr, "%s %s: invalid argument: %s\n", crypto_perf_progname(),
				applet, argv[i]);
			aes_perf_usage(applet, &def);
			return 1;
		}
	}
	if (!crypto_perf_cipher_mode(sm4, aes_mode, &cfg.mode)) {
		fprintf(stderr, "%s %s: SM4 has no %s mode\n", crypto_perf_progname(), applet,
			modes[aes_mode]);
		return 1;
	}
	if (sm4 && cfg.key_bits != AES_128) {
		fprintf(stderr, "%s %s: invalid key size\n", crypto_perf_progname(), applet);
		return 1;
	}
	if (cfg.size & (16 - 1)) {
		fprintf(stderr, "invalid buffer size argument, must be a multiple of 16\n\n");
		aes_perf_usage(applet, &def);
		return 1;
	}

	res = TEEC_InitializeContext(NULL, &ctx);
	if (res != TEEC_SUCCESS) {
		crypto_perf_errx("TEEC_InitializeContext", res, NULL);
		return 1;
	}
	res = crypto_perf_cipher_run(&ctx, &cfg, &st);
	snprintf(what, sizeof(what), "%s-%u-%s %scryption", crypto_perf_cipher_str(cfg.mode),
		 cfg.key_bits, crypto_perf_mode_str(cfg.mode), cfg.decrypt ? "de" : "en");
	status = crypto_perf_applet_status(applet, res, what);
	TEEC_FinalizeContext(&ctx);
	return status;
}

static void hash_perf_usage(const char *applet, const struct crypto_perf_hash_cfg *d)
{
	fprintf(stderr, "Usage: %s %s [-h]\n", crypto_perf_progname(), applet);
	fprintf(stderr,
		"Usage: %s %s [-a ALGO] [-l LOOP] [-n LOOP] [-r] [-s SIZE] [-u] "
		"[-v [-v]] [-w SEC]\n",
		crypto_perf_progname(), applet);
	fprintf(stderr, "Hash performance testing tool for swtee (OP-TEE's options)\n\n");
	fprintf(stderr, "Options:\n");
	fprintf(stderr,
		"  -a ALGO          Algorithm (SHA1, SHA224, SHA256, SHA384, SHA512, SM3,\n"
		"                   HMAC_SHA1, HMAC_SHA224, HMAC_SHA256, HMAC_SHA384,\n"
		"                   HMAC_SHA512, HMAC_SM3) [%s]\n",
		crypto_perf_hash_str(d->algo));
	fprintf(stderr, "  -h|--help        Print this help and exit\n");
	fprintf(stderr,
		"  -l LOOP          Inner loop iterations (the TA calls "
		"TEE_DigestDoFinal() <x> times) [%u]\n",
		d->l);
	fprintf(stderr, "  -n LOOP          Outer test loop iterations: timed invokes [%u]\n",
		d->n);
	fprintf(stderr, "  -r|--random      Random input data, new before each invoke "
			"(default: all zeros)\n");
	fprintf(stderr, "  -s SIZE          Test buffer size in bytes [%zu]\n", d->size);
	fprintf(stderr, "  -u|--unalign     Use an unaligned buffer (odd address)\n");
	fprintf(stderr, "  -v               Be verbose (use twice for greater effect)\n");
	fprintf(stderr, "  -w|--warmup SEC  Warm-up time in seconds: a busy loop before the\n");
	fprintf(stderr, "                   test, so that CPU frequency scaling settles [%u]\n",
		d->warmup);
	fprintf(stderr,
		"\nTo test without the CPU's SHA instructions, mask them in the TEE's\n"
		"environment: OPENSSL_ia32cap='~0x200000200000000:~0x60020000000' "
		"swtee run -- %s %s\n",
		crypto_perf_progname(), applet);
}

int hash_perf_runner_cmd_parser(int argc, char *argv[])
{
	const char *applet = argc > 0 ? argv[0] : "--hash-perf";
	struct crypto_perf_hash_cfg cfg;
	struct crypto_perf_hash_cfg def;
	struct xtest_stats st;
	TEEC_Context ctx;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	unsigned long v = 0;
	size_t k = 0;
	int i = 0;
	int status = 1;

	crypto_perf_hash_cfg_init(&cfg);
	crypto_perf_hash_cfg_init(&def);
	if (crypto_perf_has_help(argc, argv)) {
		hash_perf_usage(applet, &def);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-l", argv[i], UINT32_MAX, &v))
				return 1;
			cfg.l = (unsigned int)v;
		} else if (!strcmp(argv[i], "-a")) {
			if (!crypto_perf_next_arg(argc, argv, &i))
				return 1;
			for (k = 0; k < CRYPTO_PERF_NHASHES; k++)
				if (!strcasecmp(argv[i], crypto_perf_hashes[k].name))
					break;
			if (k == CRYPTO_PERF_NHASHES) {
				fprintf(stderr, "%s %s, invalid algorithm\n",
					crypto_perf_progname(), applet);
				hash_perf_usage(applet, &def);
				return 1;
			}
			cfg.algo = crypto_perf_hashes[k].algo;
		} else if (!strcmp(argv[i], "-n")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-n", argv[i], CRYPTO_PERF_COUNT_MAX,
						    &v))
				return 1;
			cfg.n = (unsigned int)v;
		} else if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--random")) {
			cfg.input = CRYPTO_USE_RANDOM;
		} else if (!strcmp(argv[i], "-s")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-s", argv[i], CRYPTO_PERF_SIZE_MAX,
						    &v))
				return 1;
			cfg.size = v;
		} else if (!strcmp(argv[i], "-u") || !strcmp(argv[i], "--unalign")) {
			cfg.unaligned = true;
		} else if (!strcmp(argv[i], "-v")) {
			cfg.verbosity++;
		} else if (!strcmp(argv[i], "-w") || !strcmp(argv[i], "--warmup")) {
			if (!crypto_perf_next_arg(argc, argv, &i) ||
			    !crypto_perf_parse_uint(applet, "-w", argv[i], 3600, &v))
				return 1;
			cfg.warmup = (unsigned int)v;
		} else {
			fprintf(stderr, "%s %s: invalid argument: %s\n", crypto_perf_progname(),
				applet, argv[i]);
			hash_perf_usage(applet, &def);
			return 1;
		}
	}

	res = TEEC_InitializeContext(NULL, &ctx);
	if (res != TEEC_SUCCESS) {
		crypto_perf_errx("TEEC_InitializeContext", res, NULL);
		return 1;
	}
	res = crypto_perf_hash_run(&ctx, &cfg, &st);
	status = crypto_perf_applet_status(applet, res, crypto_perf_hash_str(cfg.algo));
	TEEC_FinalizeContext(&ctx);
	return status;
}
