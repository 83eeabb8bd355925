/*
 * swtee bench group "crypto": SHA-1, SHA-256, AES-128-ECB, AES-128-CBC,
 * AES-256-CBC and AES-128-GCM on 256 B .. 1 MiB buffers, through the
 * crypto_perf TA (one TEEC_InvokeCommand per buffer, buffers in shared
 * memory) against libcrypto's EVP in this process, in the same run.
 *
 * Rows (JSON names):
 *	invoke_noop			the no-op invoke round trip, the reference
 *					for the per-call overhead (bench_invoke.c's)
 *	<alg>/<size>			throughput, kB/s, TA against "native";
 *					cost_ratio = TA time / native time per
 *					buffer, target <= 1.10 at 1 MiB
 *	<alg>/<size>/overhead		TA time - native time, us, against
 *					invoke_noop: target <= 1.3
 *	<alg>/<size>/ipc_overhead	the same for the native work done by a
 *					child process behind a socketpair (no
 *					swtee at all), against the bare round
 *					trip: what any process boundary costs on
 *					this machine at that size, for context
 *	ecdsa-p256/sign, /verify	operations/s (bench_crypto_ecdsa.c)
 *	<alg>/<size>/accel_off		throughput of the TA in a private TEE
 *					without the CPU's AES and SHA instructions,
 *					against the TA with them: cost_ratio is the
 *					accelerator's gain (bench_crypto_tee.c)
 * Without --json the group prints a table shaped as the seed's USB armory
 * table (kB/s by buffer size, a row per algorithm, path and accelerator)
 * with those rows beside swtee's, then the ratios and overheads.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "bench_crypto.h"
#include "bench_text.h"
#include "ta_crypto_perf.h"

#define CRYPTO_MIB (1024 * 1024)
#define CRYPTO_TARGET_RATIO 1.10   /* TA time / native time at 1 MiB */
#define CRYPTO_TARGET_OVERHEAD 1.3 /* (TA - native time) / no-op invoke */
#define CRYPTO_NOOP_ITERATIONS 20000
#define CRYPTO_NOOP_BLOCKS 40
/* Blocks per side: each TA block is a new session, so a new instance and placement. */
#define CRYPTO_BLOCKS 40
/* Untimed invokes at the start of a block: the instance maps the buffers, warms up. */
#define CRYPTO_BLOCK_PRIME 8
#define CRYPTO_DIGEST_MAX 64
#define CRYPTO_IV_LEN 16
/* The IPC reference's messages: the sizes of an invoke and its reply on the wire. */
#define CRYPTO_IPC_REQUEST 116
#define CRYPTO_IPC_REPLY 76
/* The rows without target (IPC reference, accelerator off) take a quarter of the iterations. */
#define CRYPTO_REFERENCE_SHARE 4

struct crypto_alg {
	const char *name; /* as the seed spells it: "aes-128-cbc", "sha256" */
	bool hash;
	uint32_t ta_algo; /* TA_SHA_* or TA_AES_* */
	uint32_t key_bits;
	const char *evp; /* libcrypto's name */
};

static const struct crypto_alg crypto_algs[] = {
    {"sha1", true, TA_SHA_SHA1, 0, "SHA1"},
    {"sha256", true, TA_SHA_SHA256, 0, "SHA2-256"},
    {"aes-128-ecb", false, TA_AES_ECB, 128, "AES-128-ECB"},
    {"aes-128-cbc", false, TA_AES_CBC, 128, "AES-128-CBC"},
    {"aes-256-cbc", false, TA_AES_CBC, 256, "AES-256-CBC"},
    {"aes-128-gcm", false, TA_AES_GCM, 128, "AES-128-GCM"},
};

#define CRYPTO_NALGS (sizeof(crypto_algs) / sizeof(crypto_algs[0]))

/*
 * Buffer sizes, and the timed buffers per side at each (the --iterations
 * default): enough for 40 blocks of 50 up to 64 KiB and 20 at 1 MiB, where
 * a buffer takes 0.1..1 ms.
 */
static const struct {
	size_t size;
	size_t iterations;
} crypto_sizes[] = {
    {256, 4000}, {1024, 4000}, {8192, 2000}, {65536, 2000}, {CRYPTO_MIB, 1000},
};

#define CRYPTO_NSIZES (sizeof(crypto_sizes) / sizeof(crypto_sizes[0]))

/* One algorithm at one size: a TA path on a TEE, and the native path. */
struct crypto_case {
	const struct crypto_alg *alg;
	size_t size;
	TEEC_Context *teec;
	TEEC_SharedMemory in;
	TEEC_SharedMemory out;
	bool in_alloc;
	bool out_alloc;
	uint8_t *nin; /* native buffers */
	uint8_t *nout;
	EVP_MD *md;
	EVP_MD_CTX *mdctx;
	EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *cctx;
	size_t message_len; /* GCM: bytes into the message, as the TA counts */
};

void bench_crypto_teec_error(const char *what, TEEC_Result res, uint32_t origin)
{
	fprintf(stderr, "swtee bench: crypto: %s: TEEC error 0x%08x (origin %u)%s\n", what, res,
		origin,
		res == TEEC_ERROR_ITEM_NOT_FOUND
		    ? "; the crypto_perf TA ships in lib/swtee/ta: is it in the TA path?"
		    : "");
}

TEEC_Result bench_crypto_open(TEEC_Context *teec, TEEC_Session *sess)
{
	static const TEEC_UUID uuid = TA_CRYPTO_PERF_UUID;
	uint32_t origin = 0;
	TEEC_Result res =
	    TEEC_OpenSession(teec, sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);

	if (res != TEEC_SUCCESS)
		bench_crypto_teec_error("opening a session to the crypto_perf TA", res, origin);
	return res;
}

/* ---- the native path ---- */

static int crypto_native_start(struct crypto_case *c)
{
	uint8_t key[32];
	uint8_t iv[CRYPTO_IV_LEN];
	size_t i = 0;

	for (i = 0; i < sizeof(key); i++)
		key[i] = TA_CRYPTO_PERF_KEY_BYTE(i);
	for (i = 0; i < sizeof(iv); i++)
		iv[i] = TA_CRYPTO_PERF_IV_BYTE(i);
	c->message_len = 0;
	/* GCM's default nonce length is the TA's 12 bytes. */
	if (!EVP_EncryptInit_ex2(c->cctx, c->cipher, key, c->alg->ta_algo == TA_AES_ECB ? NULL : iv,
				 NULL) ||
	    !EVP_CIPHER_CTX_set_padding(c->cctx, 0))
		return -1;
	return 0;
}

/* One buffer, as the TA handles it: a whole digest, or the stream's next piece. */
static int crypto_native_once(struct crypto_case *c)
{
	unsigned int md_len = 0;
	int out_len = 0;

	if (c->alg->hash)
		return EVP_DigestInit_ex2(c->mdctx, c->md, NULL) &&
			       EVP_DigestUpdate(c->mdctx, c->nin, c->size) &&
			       EVP_DigestFinal_ex(c->mdctx, c->nout, &md_len)
			   ? 0
			   : -1;
	if (c->alg->ta_algo == TA_AES_GCM &&
	    c->message_len > TA_CRYPTO_PERF_GCM_MESSAGE_MAX - c->size && crypto_native_start(c))
		return -1;
	c->message_len += c->size;
	return EVP_EncryptUpdate(c->cctx, c->nout, &out_len, c->nin, (int)c->size) &&
		       (size_t)out_len == c->size
		   ? 0
		   : -1;
}

static int crypto_native_loop(void *arg, size_t n, struct bench_samples *s)
{
	struct crypto_case *c = arg;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;

	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		if (crypto_native_once(c))
			goto fail;
		t1 = bench_now_us();
		if (bench_samples_add(s, t1 - t0))
			return -1;
	}
	return 0;
fail:
	fprintf(stderr, "swtee bench: crypto: libcrypto %s failed\n", c->alg->evp);
	return -1;
}

/* ---- the TA path ---- */

/* Prepares the case's operation in the session. */
static TEEC_Result crypto_ta_prepare(const struct crypto_case *c, TEEC_Session *sess,
				     uint32_t *origin)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	if (c->alg->hash) {
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].value.a = c->alg->ta_algo;
		return TEEC_InvokeCommand(sess, TA_CRYPTO_PERF_CMD_HASH_PREPARE_OP, &op, origin);
	}
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 0; /* encrypt */
	op.params[0].value.b = c->alg->key_bits;
	op.params[1].value.a = c->alg->ta_algo;
	return TEEC_InvokeCommand(sess, TA_CRYPTO_PERF_CMD_CIPHER_PREPARE_KEY, &op, origin);
}

/* The process command for one buffer, as a client fills it. */
static TEEC_Result crypto_ta_once(struct crypto_case *c, TEEC_Session *sess, uint32_t *origin)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INPUT, TEEC_MEMREF_PARTIAL_OUTPUT,
					 TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].memref.parent = &c->in;
	op.params[0].memref.size = c->size;
	op.params[1].memref.parent = &c->out;
	op.params[1].memref.size = c->out.size;
	op.params[2].value.a = 1; /* one loop in the TA */
	return TEEC_InvokeCommand(sess,
				  c->alg->hash ? TA_CRYPTO_PERF_CMD_HASH_PROCESS
					       : TA_CRYPTO_PERF_CMD_CIPHER_PROCESS,
				  &op, origin);
}

/* n timed buffers through a session, and so a TA instance, of the block's own. */
static int crypto_ta_loop(void *arg, size_t n, struct bench_samples *s)
{
	struct crypto_case *c = arg;
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
	res = crypto_ta_prepare(c, &sess, &origin);
	if (res != TEEC_SUCCESS) {
		bench_crypto_teec_error(c->alg->name, res, origin);
		goto out;
	}
	for (i = 0; i < CRYPTO_BLOCK_PRIME; i++) {
		res = crypto_ta_once(c, &sess, &origin);
		if (res != TEEC_SUCCESS)
			goto invoke_error;
	}
	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		res = crypto_ta_once(c, &sess, &origin);
		t1 = bench_now_us();
		if (res != TEEC_SUCCESS)
			goto invoke_error;
		if (bench_samples_add(s, t1 - t0))
			goto out;
	}
	ret = 0;
	goto out;
invoke_error:
	bench_crypto_teec_error(c->alg->name, res, origin);
out:
	if (sess_open)
		TEEC_CloseSession(&sess);
	return ret;
}

/* ---- the IPC reference: the native work behind a socketpair, no swtee ---- */

/* The child: one buffer of native work per request, then the reply. */
static void __attribute__((noreturn)) crypto_ipc_child(struct crypto_case *c, int fd)
{
	uint8_t buf[CRYPTO_IPC_REQUEST];
	ssize_t n = 0;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(n < 0);
		if (crypto_native_once(c) ||
		    send(fd, buf, CRYPTO_IPC_REPLY, MSG_NOSIGNAL) != CRYPTO_IPC_REPLY)
			_exit(1);
	}
}

/* One request and its reply; 0, or -1 after saying why. */
static int crypto_ipc_once(int fd)
{
	uint8_t out[CRYPTO_IPC_REQUEST] = {0};
	uint8_t in[CRYPTO_IPC_REQUEST];

	if (send(fd, out, sizeof(out), MSG_NOSIGNAL) != (ssize_t)sizeof(out) ||
	    recv(fd, in, sizeof(in), 0) != CRYPTO_IPC_REPLY) {
		fprintf(stderr, "swtee bench: crypto: IPC reference: %s\n",
			errno ? strerror(errno) : "short reply");
		return -1;
	}
	return 0;
}

/* n timed buffers through a child of the block's own, as crypto_ta_loop through a TA. */
static int crypto_ipc_loop(void *arg, size_t n, struct bench_samples *s)
{
	struct crypto_case *c = arg;
	int sv[2] = {-1, -1};
	pid_t child = -1;
	double t0 = 0;
	double t1 = 0;
	size_t i = 0;
	int ret = -1;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		fprintf(stderr, "swtee bench: socketpair: %s\n", strerror(errno));
		goto out;
	}
	child = fork();
	if (child < 0) {
		fprintf(stderr, "swtee bench: fork: %s\n", strerror(errno));
		goto out;
	}
	if (child == 0) {
		/* Nothing of the parent's (its TEE connections) but stdio and the socket. */
		close(sv[0]);
		if (sv[1] > 3)
			close_range(3, (unsigned int)sv[1] - 1, 0);
		close_range((unsigned int)sv[1] + 1, ~0U, 0);
		crypto_ipc_child(c, sv[1]);
	}
	close(sv[1]);
	sv[1] = -1;
	for (i = 0; i < CRYPTO_BLOCK_PRIME; i++)
		if (crypto_ipc_once(sv[0]))
			goto out;
	for (i = 0; i < n; i++) {
		t0 = bench_now_us();
		if (crypto_ipc_once(sv[0]))
			goto out;
		t1 = bench_now_us();
		if (bench_samples_add(s, t1 - t0))
			goto out;
	}
	ret = 0;
out:
	/* The child reads the end of the stream and exits. */
	if (sv[0] >= 0)
		close(sv[0]);
	if (sv[1] >= 0)
		close(sv[1]);
	if (child > 0)
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
	return ret;
}

/* ---- cases ---- */

static void crypto_case_fini(struct crypto_case *c)
{
	if (c->in_alloc)
		TEEC_ReleaseSharedMemory(&c->in);
	if (c->out_alloc)
		TEEC_ReleaseSharedMemory(&c->out);
	free(c->nin);
	free(c->nout);
	EVP_MD_CTX_free(c->mdctx);
	EVP_MD_free(c->md);
	EVP_CIPHER_CTX_free(c->cctx);
	EVP_CIPHER_free(c->cipher);
	memset(c, 0, sizeof(*c));
}

/*
 * Sets up alg at size: shared memory on teec (NULL: no TA path) and the
 * native path, the same random input on both. 0, or -1 after saying why.
 */
static int crypto_case_init(struct crypto_case *c, const struct crypto_alg *alg, size_t size,
			    TEEC_Context *teec)
{
	size_t out_size = alg->hash ? CRYPTO_DIGEST_MAX : size;
	size_t native = (size + 4095) / 4096 * 4096;
	TEEC_Result res = TEEC_SUCCESS;

	memset(c, 0, sizeof(*c));
	c->alg = alg;
	c->size = size;
	c->teec = teec;
	/* Page-aligned, as the shared memory is. */
	c->nin = aligned_alloc(4096, native);
	c->nout = aligned_alloc(4096, alg->hash ? 4096 : native);
	if (!c->nin || !c->nout) {
		fprintf(stderr, "swtee bench: out of memory\n");
		goto fail;
	}
	if (RAND_bytes(c->nin, (int)size) != 1)
		goto lib_fail;
	memset(c->nout, 0, alg->hash ? 4096 : native);
	if (alg->hash) {
		c->md = EVP_MD_fetch(NULL, alg->evp, NULL);
		c->mdctx = EVP_MD_CTX_new();
		if (!c->md || !c->mdctx)
			goto lib_fail;
	} else {
		c->cipher = EVP_CIPHER_fetch(NULL, alg->evp, NULL);
		c->cctx = EVP_CIPHER_CTX_new();
		if (!c->cipher || !c->cctx || crypto_native_start(c))
			goto lib_fail;
	}
	if (!teec)
		return 0;
	c->in.size = size;
	c->in.flags = TEEC_MEM_INPUT;
	res = TEEC_AllocateSharedMemory(teec, &c->in);
	if (res != TEEC_SUCCESS)
		goto shm_fail;
	c->in_alloc = true;
	c->out.size = out_size;
	c->out.flags = TEEC_MEM_OUTPUT;
	res = TEEC_AllocateSharedMemory(teec, &c->out);
	if (res != TEEC_SUCCESS)
		goto shm_fail;
	c->out_alloc = true;
	memcpy(c->in.buffer, c->nin, size);
	memset(c->out.buffer, 0, out_size);
	return 0;
shm_fail:
	bench_crypto_teec_error("TEEC_AllocateSharedMemory", res, TEEC_ORIGIN_API);
	goto fail;
lib_fail:
	fprintf(stderr, "swtee bench: crypto: libcrypto cannot set up %s\n", alg->evp);
fail:
	crypto_case_fini(c);
	return -1;
}

static size_t crypto_iterations(struct bench_ctx *ctx, size_t k, size_t share)
{
	return bench_iterations(ctx, crypto_sizes[k].iterations / share);
}

/* kB/s (1000 bytes) for one buffer of size bytes in us microseconds. */
static double crypto_kbs(size_t size, double us)
{
	return us > 0 ? (double)size * 1000.0 / us : NAN;
}

/*
 * Turns t, a measurement of TA against another path in us per buffer, into
 * a throughput row: kB/s, higher is better, the percentiles those of the
 * times (p99 is the slow tail). The cost ratio stays time over time.
 */
static void crypto_throughput(struct bench_result *r, const struct bench_result *t, size_t size,
			      const char *name, const char *baseline)
{
	*r = *t;
	bench_text(r->name, sizeof(r->name), "%s", name);
	bench_text(r->unit, sizeof(r->unit), "kB/s");
	bench_text(r->baseline_name, sizeof(r->baseline_name), "%s", baseline);
	r->higher_is_better = true;
	r->value = crypto_kbs(size, t->value);
	r->p50 = crypto_kbs(size, t->p50);
	r->p90 = crypto_kbs(size, t->p90);
	r->p99 = crypto_kbs(size, t->p99);
	r->baseline_value = crypto_kbs(size, t->baseline_value);
	r->baseline_p50 = crypto_kbs(size, t->baseline_p50);
	r->baseline_p90 = crypto_kbs(size, t->baseline_p90);
	r->has_target = false;
}

/*
 * The TA against native for one algorithm and size: a throughput and an
 * overhead row; then the IPC reference's overhead row.
 */
static int crypto_measure_case(struct bench_ctx *ctx, const struct crypto_alg *alg, size_t k,
			       double noop_us, double pingpong_us)
{
	struct crypto_case c;
	struct bench_result t;
	struct bench_result r;
	size_t size = crypto_sizes[k].size;
	size_t n = crypto_iterations(ctx, k, 1);
	char name[BENCH_NAME_MAX];
	int ret = -1;

	if (crypto_case_init(&c, alg, size, bench_teec(ctx)))
		return -1;
	bench_text(name, sizeof(name), "%s/%zu", alg->name, size);
	if (bench_measure(&(struct bench_pair){.name = name,
					       .run = crypto_ta_loop,
					       .arg = &c,
					       .baseline_name = "native",
					       .baseline = crypto_native_loop,
					       .baseline_arg = &c,
					       .iterations = n,
					       .warmup = n / 10,
					       .blocks = CRYPTO_BLOCKS},
			  &t))
		goto out;
	crypto_throughput(&r, &t, size, name, "native");
	if (size == CRYPTO_MIB) {
		r.has_target = true;
		r.target = CRYPTO_TARGET_RATIO;
	}
	if (bench_report(ctx, &r))
		goto out;

	/* What an invoke adds to the same work done natively, against a no-op invoke. */
	memset(&r, 0, sizeof(r));
	bench_text(r.name, sizeof(r.name), "%s/%zu/overhead", alg->name, size);
	bench_text(r.unit, sizeof(r.unit), "us");
	bench_text(r.baseline_name, sizeof(r.baseline_name), "invoke_noop");
	r.statistic = "best_block_median_difference";
	r.iterations = t.iterations;
	r.blocks = t.blocks;
	r.value = t.value - t.baseline_value;
	r.has_baseline = true;
	r.baseline_value = noop_us;
	r.has_target = true;
	r.target = CRYPTO_TARGET_OVERHEAD;
	if (bench_report(ctx, &r))
		goto out;

	/* The same work behind a bare socketpair: what a process boundary costs here. */
	bench_text(name, sizeof(name), "%s/%zu/ipc_overhead", alg->name, size);
	n = crypto_iterations(ctx, k, CRYPTO_REFERENCE_SHARE);
	if (bench_measure(&(struct bench_pair){.name = name,
					       .run = crypto_ipc_loop,
					       .arg = &c,
					       .baseline_name = "native",
					       .baseline = crypto_native_loop,
					       .baseline_arg = &c,
					       .iterations = n,
					       .warmup = n / 10,
					       .blocks = CRYPTO_BLOCKS},
			  &t))
		goto out;
	memset(&r, 0, sizeof(r));
	bench_text(r.name, sizeof(r.name), "%s", name);
	bench_text(r.unit, sizeof(r.unit), "us");
	bench_text(r.baseline_name, sizeof(r.baseline_name), "socketpair_pingpong");
	r.statistic = "best_block_median_difference";
	r.iterations = t.iterations;
	r.blocks = t.blocks;
	r.value = t.value - t.baseline_value;
	r.has_baseline = true;
	r.baseline_value = pingpong_us;
	ret = bench_report(ctx, &r);
out:
	crypto_case_fini(&c);
	return ret;
}

/* The TA without the CPU's instructions (tee) against the TA with them. */
static int crypto_measure_accel_off(struct bench_ctx *ctx, const struct crypto_alg *alg, size_t k,
				    TEEC_Context *off)
{
	struct crypto_case on_case;
	struct crypto_case off_case;
	struct bench_result t;
	struct bench_result r;
	size_t size = crypto_sizes[k].size;
	size_t n = crypto_iterations(ctx, k, CRYPTO_REFERENCE_SHARE);
	char name[BENCH_NAME_MAX];
	int ret = -1;

	if (crypto_case_init(&on_case, alg, size, bench_teec(ctx)))
		return -1;
	if (crypto_case_init(&off_case, alg, size, off)) {
		crypto_case_fini(&on_case);
		return -1;
	}
	bench_text(name, sizeof(name), "%s/%zu/accel_off", alg->name, size);
	if (bench_measure(&(struct bench_pair){.name = name,
					       .run = crypto_ta_loop,
					       .arg = &off_case,
					       .baseline_name = "swtee_accel_on",
					       .baseline = crypto_ta_loop,
					       .baseline_arg = &on_case,
					       .iterations = n,
					       .warmup = n / 10,
					       .blocks = CRYPTO_BLOCKS},
			  &t))
		goto out;
	crypto_throughput(&r, &t, size, name, "swtee_accel_on");
	ret = bench_report(ctx, &r);
out:
	crypto_case_fini(&on_case);
	crypto_case_fini(&off_case);
	return ret;
}

/* Every accel_off row as skipped, for why. */
static int crypto_skip_accel_off(struct bench_ctx *ctx, const char *why)
{
	struct bench_result r;
	size_t a = 0;
	size_t k = 0;

	for (a = 0; a < CRYPTO_NALGS; a++) {
		for (k = 0; k < CRYPTO_NSIZES; k++) {
			memset(&r, 0, sizeof(r));
			bench_text(r.name, sizeof(r.name), "%s/%zu/accel_off", crypto_algs[a].name,
				   crypto_sizes[k].size);
			bench_text(r.unit, sizeof(r.unit), "kB/s");
			r.higher_is_better = true;
			r.value = NAN;
			r.skipped = true;
			bench_text(r.skip_reason, sizeof(r.skip_reason), "%s", why);
			if (bench_report(ctx, &r))
				return -1;
		}
	}
	return 0;
}

static int crypto_accel_off(struct bench_ctx *ctx)
{
	struct bench_crypto_tee tee;
	char why[BENCH_REASON_MAX];
	size_t a = 0;
	size_t k = 0;
	int ret = 0;

	if (bench_crypto_tee_start(&tee, why, sizeof(why))) {
		fprintf(stderr, "swtee bench: crypto: no accelerator-off rows: %s\n", why);
		return crypto_skip_accel_off(ctx, why);
	}
	for (a = 0; a < CRYPTO_NALGS && !ret; a++)
		for (k = 0; k < CRYPTO_NSIZES && !ret; k++)
			ret = crypto_measure_accel_off(ctx, &crypto_algs[a], k, &tee.teec);
	bench_crypto_tee_stop(&tee);
	return ret;
}

static int bench_crypto_run(struct bench_ctx *ctx)
{
	static const TEEC_UUID uuid = TA_CRYPTO_PERF_UUID;
	struct bench_result noop;
	TEEC_Session sess;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t origin = 0;
	size_t n = bench_iterations(ctx, CRYPTO_NOOP_ITERATIONS);
	size_t a = 0;
	size_t k = 0;

	res =
	    TEEC_OpenSession(bench_teec(ctx), &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);
	if (res == TEEC_ERROR_ITEM_NOT_FOUND)
		return bench_skip(ctx, "the crypto_perf TA (shipped in lib/swtee/ta) is not in the "
				       "TA path");
	if (res != TEEC_SUCCESS) {
		bench_crypto_teec_error("opening a session to the crypto_perf TA", res, origin);
		return -1;
	}
	TEEC_CloseSession(&sess);

	if (getenv("OPENSSL_ia32cap") || getenv("OPENSSL_armcap"))
		fprintf(stderr, "swtee bench: crypto: OPENSSL_ia32cap or OPENSSL_armcap is set: "
				"the native rows run with that mask\n");
	/* The reference for the per-call overhead, measured as the invoke group does. */
	if (bench_measure(&(struct bench_pair){.name = "invoke_noop",
					       .run = bench_invoke_nop_loop,
					       .arg = bench_teec(ctx),
					       .baseline_name = "socketpair_pingpong",
					       .baseline = bench_pingpong_loop,
					       .iterations = n,
					       .warmup = n / 10,
					       .blocks = CRYPTO_NOOP_BLOCKS},
			  &noop) ||
	    bench_report(ctx, &noop))
		return -1;
	for (a = 0; a < CRYPTO_NALGS; a++)
		for (k = 0; k < CRYPTO_NSIZES; k++)
			if (crypto_measure_case(ctx, &crypto_algs[a], k, noop.value,
						noop.baseline_value))
				return -1;
	if (bench_crypto_ecdsa_run(ctx))
		return -1;
	return crypto_accel_off(ctx);
}

/* ---- the table ---- */

/* The USB armory Mk II rows of shared/reference/seed-figures.md, kB/s. */
static const struct {
	const char *device;
	const char *alg;
	const char *library;
	const char *accel;
	double kbs[CRYPTO_NSIZES];
} crypto_seed[] = {
    {"ULZ", "aes-128-cbc", "TamaGo", "none", {4882, 6177, 6717, 6769, 6470}},
    {"ULZ", "aes-128-cbc", "TamaGo", "DCP", {4563, 13071, 30438, 35661, 35509}},
    {"ULZ", "aes-128-cbc", "OpenSSL", "none", {22392, 23097, 23306, 23166, 21179}},
    {"ULZ", "aes-128-cbc", "OpenSSL", "DCP (afalg)", {3895, 11325, 27399, 29578, 349}},
    {"ULZ", "sha256", "TamaGo", "none", {5986, 8700, 9854, 10023, 9597}},
    {"ULZ", "sha256", "TamaGo", "DCP", {5220, 17513, 56999, 76982, 79532}},
    {"ULZ", "sha256", "OpenSSL", "none", {18724, 27143, 31159, 31522, 26913}},
    {"UL", "aes-128-cbc", "TamaGo", "CAAM", {1947, 6411, 22765, 32757, 31911}},
    {"UL", "sha256", "TamaGo", "CAAM", {2626, 10272, 46997, 83314, 80552}},
};

#define CRYPTO_NSEED (sizeof(crypto_seed) / sizeof(crypto_seed[0]))

struct crypto_table {
	FILE *f;
	const struct bench_result *const *r;
	size_t n;
};

static const struct bench_result *crypto_find(const struct crypto_table *t, const char *alg,
					      size_t size, const char *suffix)
{
	char name[BENCH_NAME_MAX];

	bench_text(name, sizeof(name), "%s/%zu%s", alg, size, suffix);
	return bench_result_find(t->r, t->n, name);
}

/* One number of a table, decimals after the point, or "-". */
static void crypto_cell(FILE *f, double v, int decimals)
{
	if (isfinite(v))
		fprintf(f, " %10.*f", decimals, v);
	else
		fprintf(f, " %10s", "-");
}

/* The CPU's crypto instructions as /proc/cpuinfo names them, into out. */
static void crypto_cpu_flags(char *out, size_t n)
{
	static const char *const wanted[] = {"aes",   "pclmulqdq", "sha_ni", "vaes",  "vpclmulqdq",
					     "pmull", "sha1",	   "sha2",   "sha512"};
	char line[4096];
	char *tok = NULL;
	char *save = NULL;
	FILE *f = fopen("/proc/cpuinfo", "re");
	size_t used = 0;
	size_t i = 0;

	bench_text(out, n, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0 && strncmp(line, "Features", 8) != 0)
			continue;
		out[0] = '\0';
		for (tok =
			 strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \t\n", &save);
		     tok; tok = strtok_r(NULL, " \t\n", &save))
			for (i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++)
				if (!strcmp(tok, wanted[i]) && used + strlen(tok) + 2 < n) {
					/* Fits: checked just above. */
					if (!bench_fmt(out + used, n - used, "%s%s",
						       used ? " " : "", tok))
						break;
					used += strlen(out + used);
				}
		if (!used)
			bench_text(out, n, "none");
		break;
	}
	fclose(f);
}

static void crypto_table_throughput(const struct crypto_table *t)
{
	static const struct {
		const char *path;
		const char *accel;
		const char *suffix;
		bool baseline; /* the native side of the row's measurement */
	} paths[] = {
	    {"swtee TA", "CPU", "", false},
	    {"native", "CPU", "", true},
	    {"swtee TA", "none (masked)", "/accel_off", false},
	};
	char library[32];
	char flags[128];
	const struct bench_result *r = NULL;
	size_t a = 0;
	size_t p = 0;
	size_t k = 0;
	double v = 0;

	bench_text(library, sizeof(library), "OpenSSL %u.%u.%u", OPENSSL_version_major(),
		   OPENSSL_version_minor(), OPENSSL_version_patch());
	crypto_cpu_flags(flags, sizeof(flags));
	fprintf(t->f,
		"Throughput in kB/s (1 kB = 1000 bytes) by buffer size. swtee TA: one\n"
		"TEEC_InvokeCommand per buffer, buffers in shared memory; native: libcrypto\n"
		"(EVP) in this process. CPU crypto instructions: %s; \"none (masked)\": a\n"
		"private TEE started with OpenSSL's capability mask clearing them.\n\n",
		flags);
	fprintf(t->f, "%-10s %-12s %-15s %-14s", "path", "algorithm", "library", "accelerator");
	for (k = 0; k < CRYPTO_NSIZES; k++)
		fprintf(t->f, " %10zu", crypto_sizes[k].size);
	fputc('\n', t->f);
	for (a = 0; a < CRYPTO_NALGS; a++) {
		for (p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
			fprintf(t->f, "%-10s %-12s %-15s %-14s", paths[p].path, crypto_algs[a].name,
				library, paths[p].accel);
			for (k = 0; k < CRYPTO_NSIZES; k++) {
				r = crypto_find(t, crypto_algs[a].name, crypto_sizes[k].size,
						paths[p].suffix);
				v = !r || r->skipped	? NAN
				    : paths[p].baseline ? r->baseline_value
							: r->value;
				crypto_cell(t->f, v, 0);
			}
			fputc('\n', t->f);
		}
	}
	fprintf(t->f,
		"\nFor context, the USB armory Mk II (ARM Cortex-A7; ULZ 900 MHz, UL 528 MHz;\n"
		"shared/reference/seed-figures.md):\n");
	for (a = 0; a < CRYPTO_NSEED; a++) {
		fprintf(t->f, "%-10s %-12s %-15s %-14s", crypto_seed[a].device, crypto_seed[a].alg,
			crypto_seed[a].library, crypto_seed[a].accel);
		for (k = 0; k < CRYPTO_NSIZES; k++)
			crypto_cell(t->f, crypto_seed[a].kbs[k], 0);
		fputc('\n', t->f);
	}
}

/* A verdict over the row's cells: "ok", "over" (any cell over its target), "-" (none). */
static const char *crypto_verdict(int over, int judged)
{
	return !judged ? "-" : over ? "over" : "ok";
}

static void crypto_table_ratios(const struct crypto_table *t)
{
	const struct bench_result *noop = bench_result_find(t->r, t->n, "invoke_noop");
	const struct bench_result *r = NULL;
	double limit = noop ? CRYPTO_TARGET_OVERHEAD * noop->value : NAN;
	size_t a = 0;
	size_t k = 0;
	int over = 0;
	int judged = 0;
	double v = 0;

	fprintf(t->f,
		"\nCost ratio, swtee TA time / native time per buffer (target at 1 MiB: "
		"<= %.2f):\n",
		CRYPTO_TARGET_RATIO);
	fprintf(t->f, "%-12s", "algorithm");
	for (k = 0; k < CRYPTO_NSIZES; k++)
		fprintf(t->f, " %10zu", crypto_sizes[k].size);
	fprintf(t->f, "  verdict\n");
	for (a = 0; a < CRYPTO_NALGS; a++) {
		over = judged = 0;
		fprintf(t->f, "%-12s", crypto_algs[a].name);
		for (k = 0; k < CRYPTO_NSIZES; k++) {
			r = crypto_find(t, crypto_algs[a].name, crypto_sizes[k].size, "");
			v = r && r->value > 0 ? r->baseline_value / r->value : NAN;
			crypto_cell(t->f, v, 2);
			if (r && r->has_target) {
				judged++;
				over += !(v <= r->target);
			}
		}
		fprintf(t->f, "  %s\n", crypto_verdict(over, judged));
	}

	fprintf(t->f,
		"\nPer-call overhead, swtee TA time - native time per buffer, us; target: at most\n"
		"%.1f x the no-op invoke round trip measured in this run (%.2f us), so <= %.2f "
		"us:\n",
		CRYPTO_TARGET_OVERHEAD, noop ? noop->value : NAN, limit);
	fprintf(t->f, "%-12s", "algorithm");
	for (k = 0; k < CRYPTO_NSIZES; k++)
		fprintf(t->f, " %10zu", crypto_sizes[k].size);
	fprintf(t->f, "  verdict\n");
	for (a = 0; a < CRYPTO_NALGS; a++) {
		over = judged = 0;
		fprintf(t->f, "%-12s", crypto_algs[a].name);
		for (k = 0; k < CRYPTO_NSIZES; k++) {
			r = crypto_find(t, crypto_algs[a].name, crypto_sizes[k].size, "/overhead");
			v = r ? r->value : NAN;
			crypto_cell(t->f, v, 2);
			if (r && isfinite(limit)) {
				judged++;
				over += !(v <= limit);
			}
		}
		fprintf(t->f, "  %s\n", crypto_verdict(over, judged));
	}

	fprintf(t->f,
		"\nFor context, no swtee: the same native work done by a child process behind\n"
		"a socketpair, time - in-process time, us (the bare round trip: %.2f us):\n",
		noop ? noop->baseline_value : NAN);
	fprintf(t->f, "%-12s", "algorithm");
	for (k = 0; k < CRYPTO_NSIZES; k++)
		fprintf(t->f, " %10zu", crypto_sizes[k].size);
	fputc('\n', t->f);
	for (a = 0; a < CRYPTO_NALGS; a++) {
		fprintf(t->f, "%-12s", crypto_algs[a].name);
		for (k = 0; k < CRYPTO_NSIZES; k++) {
			r = crypto_find(t, crypto_algs[a].name, crypto_sizes[k].size,
					"/ipc_overhead");
			crypto_cell(t->f, r ? r->value : NAN, 2);
		}
		fputc('\n', t->f);
	}
}

static void crypto_table_ecdsa(const struct crypto_table *t)
{
	static const char *const ops[] = {"sign", "verify"};
	const struct bench_result *r = NULL;
	char name[BENCH_NAME_MAX];
	size_t i = 0;

	fprintf(t->f, "\nECDSA P-256 (SHA-256 digest), operations per second:\n");
	for (i = 0; i < 2; i++) {
		bench_text(name, sizeof(name), "ecdsa-p256/%s", ops[i]);
		r = bench_result_find(t->r, t->n, name);
		if (!r)
			continue;
		if (r->skipped) {
			fprintf(t->f, "  %-7s skipped: %s\n", ops[i], r->skip_reason);
			continue;
		}
		fprintf(t->f, "  %-7s swtee TA %8.0f/s   native %8.0f/s   cost ratio %.2f\n",
			ops[i], r->value, r->baseline_value,
			r->value > 0 ? r->baseline_value / r->value : NAN);
	}
	fprintf(t->f, "  For context (seed): signatures per second on the USB armory: ULZ OpenSSL "
		      "860/s,\n  TamaGo 147/s; UL OpenSSL 560/s, TamaGo 88/s, TamaGo with CAAM "
		      "217/s.\n");
}

static void bench_crypto_table(FILE *f, const struct bench_result *const *r, size_t n)
{
	const struct crypto_table t = {.f = f, .r = r, .n = n};

	fprintf(f, "swtee bench crypto\n\n");
	crypto_table_throughput(&t);
	crypto_table_ratios(&t);
	crypto_table_ecdsa(&t);
	fprintf(f, "\nTimes are the median of each side's best block (bench invoke explains why);\n"
		   "swtee bench crypto --json has every figure, with percentiles.\n");
}

static const struct bench_group bench_crypto_group = {
    .name = "crypto",
    .help = "hashes, ciphers and ECDSA through a TA vs. libcrypto in-process",
    .order = 40,
    .run = bench_crypto_run,
    .table = bench_crypto_table,
    /* invoke_noop; four rows per algorithm and size; ECDSA sign and verify */
    .cases = 1 + 4 * CRYPTO_NALGS * CRYPTO_NSIZES + 2,
    .seconds = 60,
};
BENCH_GROUP_DEFINE(bench_crypto_group);
