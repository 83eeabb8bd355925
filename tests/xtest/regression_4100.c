/*
 * regression 41xx: the GP Arithmetical API, through the arith test TA,
 * differentially against OpenSSL BN on this side. Each case sends batches
 * of operations on random operands (every sign, sizes from 0 bits to
 * gpd.tee.arith.maxBigIntSize, zeros, ones, powers of two, all-ones values,
 * aliased destinations, the GP 1.1 entry points) plus fixed vectors, checks
 * every result and return code, then has the TA commit each misuse GP makes
 * a panic and expects TEEC_ERROR_TARGET_DEAD.
 *
 * The operands come from a generator seeded with XTEST_ARITH_SEED (hex) when
 * set, else with the time; a failure prints the seed. xtest -l N runs
 * (N + 1) times as many cases.
 */
#include <inttypes.h>
#include <openssl/bn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "adbg.h"
#include "ta_arith.h"
#include "xtest_helpers.h"

#define MAX_BITS 4096 /* gpd.tee.arith.maxBigIntSize */
#define BATCH_BYTES (96 * 1024)
#define BATCH_RECORDS 512
#define FAILURES_SHOWN 8

#define TEE_ERROR_OVERFLOW_CODE 0xFFFF300FU
#define TEE_ERROR_SHORT_BUFFER_CODE 0xFFFF0010U

static const TEEC_UUID arith_uuid = TA_ARITH_UUID;

static const char *const op_names[TA_ARITH_OP_COUNT] = {
    "Init",	 "Octet",  "FromS32",  "ToS32",	     "Cmp",    "CmpS32", "Add",	     "Sub",
    "Mul",	 "Square", "Neg",      "Div",	     "Mod",    "AddMod", "SubMod",   "MulMod",
    "SquareMod", "InvMod", "ExpMod",   "ShiftRight", "GetBit", "SetBit", "BitCount", "Abs",
    "Assign",	 "EGcd",   "RelPrime", "IsPrime",    "FMM",
};

/* splitmix64: small, seedable, good enough to pick test operands. */
struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rng_next(r) % n) : 0;
}

static bool rng_chance(struct rng *r, uint32_t percent)
{
	return rng_below(r, 100) < percent;
}

enum check { CHECK_EXACT, CHECK_EGCD, CHECK_PRIME };

/* What one record must give back. */
struct expect {
	uint32_t op;
	uint32_t flags;
	uint32_t arg;
	uint32_t dst_bits;
	BIGNUM *in[3];
	int nin;
	enum check check;
	uint32_t res;
	uint32_t res2;
	bool check_ival;
	int32_t ival;
	int nouts;
	BIGNUM *out[3];
};

struct batch {
	ADBG_Case_t *c;
	TEEC_Session *s;
	BN_CTX *ctx;
	uint64_t seed;
	uint8_t *req;
	size_t len;
	size_t cap;
	struct expect exp[BATCH_RECORDS];
	size_t n;
	size_t out_cap;
	unsigned long records;
	unsigned int failures;
	bool broken;
};

static void put_raw(struct batch *b, const void *p, size_t n)
{
	if (b->broken)
		return;
	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2;
		uint8_t *q = realloc(b->req, cap);

		if (!q) {
			b->broken = true;
			return;
		}
		b->req = q;
		b->cap = cap;
	}
	memcpy(b->req + b->len, p, n);
	b->len += n;
}

static void put_u32(struct batch *b, uint32_t v)
{
	uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};

	put_raw(b, x, sizeof(x));
}

/* An operand of the protocol: sign, then len magnitude bytes (padded). */
static void put_bytes_operand(struct batch *b, int32_t sign, const uint8_t *bytes, size_t len)
{
	static const uint8_t zeros[4];

	put_u32(b, (uint32_t)sign);
	put_u32(b, (uint32_t)len);
	put_raw(b, bytes, len);
	put_raw(b, zeros, ((len + 3) & ~(size_t)3) - len);
}

static void put_bn(struct batch *b, const BIGNUM *v)
{
	uint8_t buf[TA_ARITH_MAX_BITS / 8];
	int len = BN_bn2bin(v, buf);

	put_bytes_operand(b, BN_is_negative(v) ? -1 : 1, buf, (size_t)len);
}

static void print_bn(const char *what, const BIGNUM *v)
{
	char *hex = v ? BN_bn2hex(v) : NULL;

	Do_ADBG_Log("    %s = %s", what, hex ? hex : "(none)");
	OPENSSL_free(hex);
}

static void expect_clear(struct expect *e)
{
	for (int i = 0; i < 3; i++) {
		BN_free(e->in[i]);
		BN_free(e->out[i]);
	}
	memset(e, 0, sizeof(*e));
}

static void report(struct batch *b, const struct expect *e, const char *why, BIGNUM *const *got,
		   int ngot, uint32_t res, uint32_t res2, int32_t ival)
{
	b->failures++;
	if (b->failures > FAILURES_SHOWN)
		return;
	Do_ADBG_Log("  %s (flags 0x%x arg %" PRIu32 " dst_bits %" PRIu32 "): %s; seed %016" PRIx64,
		    op_names[e->op], e->flags, e->arg, e->dst_bits, why, b->seed);
	for (int i = 0; i < e->nin; i++)
		print_bn(i == 0 ? "op1" : i == 1 ? "op2" : "op3", e->in[i]);
	Do_ADBG_Log("    expected res 0x%08x res2 0x%08x ival %" PRId32
		    ", got 0x%08x 0x%08x %" PRId32,
		    e->res, e->res2, e->ival, res, res2, ival);
	for (int i = 0; i < e->nouts; i++)
		print_bn("expected", e->out[i]);
	for (int i = 0; i < ngot; i++)
		print_bn("got", got[i]);
}

static const uint8_t *get_u32(const uint8_t *p, const uint8_t *end, uint32_t *v)
{
	if (!p || end - p < 4)
		return NULL;
	*v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return p + 4;
}

static const uint8_t *get_bn(const uint8_t *p, const uint8_t *end, BIGNUM **v)
{
	uint32_t sign = 0;
	uint32_t len = 0;

	p = get_u32(p, end, &sign);
	p = get_u32(p, end, &len);
	if (!p || len > (size_t)(end - p) || ((len + 3) & ~3u) > (size_t)(end - p))
		return NULL;
	*v = BN_bin2bn(p, (int)len, NULL);
	if (!*v)
		return NULL;
	BN_set_negative(*v, (int32_t)sign < 0);
	return p + ((len + 3) & ~3u);
}

static bool check_egcd(struct batch *b, const struct expect *e, BIGNUM *const *got, int ngot)
{
	BIGNUM *t1 = BN_new();
	BIGNUM *t2 = BN_new();
	const BIGNUM *u = NULL;
	const BIGNUM *v = NULL;
	bool ok = t1 && t2 && ngot == e->nouts && !BN_cmp(got[0], e->out[0]);
	int i = 1;

	if (ok && !(e->flags & TA_ARITH_F_NULL1))
		u = got[i++];
	if (ok && !(e->flags & TA_ARITH_F_NULL2))
		v = got[i++];
	/* Bezout: u * op1 + v * op2 = gcd, u and v no larger than the other operand. */
	if (ok && u && v) {
		ok = BN_mul(t1, u, e->in[0], b->ctx) && BN_mul(t2, v, e->in[1], b->ctx) &&
		     BN_add(t1, t1, t2) && !BN_cmp(t1, e->out[0]);
		ok = ok && (BN_num_bits(u) <= BN_num_bits(e->in[1]) || BN_abs_is_word(u, 1));
		ok = ok && (BN_num_bits(v) <= BN_num_bits(e->in[0]) || BN_abs_is_word(v, 1));
	}
	BN_free(t1);
	BN_free(t2);
	return ok;
}

/* Checks one result record against e; returns where the next record starts. */
static const uint8_t *check_one(struct batch *b, const struct expect *e, const uint8_t *p,
				const uint8_t *end)
{
	BIGNUM *got[3] = {NULL, NULL, NULL};
	uint32_t res = 0;
	uint32_t res2 = 0;
	uint32_t ival = 0;
	uint32_t nouts = 0;
	bool ok = true;
	const char *why = "wrong result";

	p = get_u32(p, end, &res);
	p = get_u32(p, end, &res2);
	p = get_u32(p, end, &ival);
	p = get_u32(p, end, &nouts);
	if (!p || nouts > 3)
		return NULL;
	for (uint32_t i = 0; i < nouts; i++) {
		p = get_bn(p, end, &got[i]);
		if (!p)
			goto out;
	}
	if (res != e->res || res2 != e->res2) {
		ok = false;
		why = "wrong return code";
	} else if (e->check == CHECK_PRIME) {
		/* 1: certainly prime; -1: probably prime; 0: composite. */
		ok = e->ival ? (int32_t)ival == 1 || (int32_t)ival == -1 : ival == 0;
		if (e->ival == 1 && BN_num_bits(e->in[0]) <= 64)
			ok = ival == 1;
	} else if (e->check_ival && (int32_t)ival != e->ival) {
		ok = false;
	} else if (e->check == CHECK_EGCD) {
		ok = check_egcd(b, e, got, (int)nouts);
	} else if ((int)nouts != e->nouts) {
		ok = false;
		why = "wrong number of results";
	} else {
		for (int i = 0; i < e->nouts; i++)
			ok = ok && !BN_cmp(got[i], e->out[i]);
	}
	if (!ok)
		report(b, e, why, got, (int)nouts, res, res2, (int32_t)ival);
out:
	for (int i = 0; i < 3; i++)
		BN_free(got[i]);
	return p;
}

/* Sends the batch, checks every record, and empties it. */
static void batch_flush(struct batch *b)
{
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	uint8_t *out = NULL;
	const uint8_t *p = NULL;
	TEEC_Result res = TEEC_SUCCESS;

	if (!b->n)
		return;
	out = calloc(1, b->out_cap);
	if (!ADBG_EXPECT_NOT_NULL(b->c, out) || !ADBG_EXPECT_TRUE(b->c, !b->broken))
		goto out;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT,
					 TEEC_VALUE_OUTPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = b->req;
	op.params[0].tmpref.size = b->len;
	op.params[1].tmpref.buffer = out;
	op.params[1].tmpref.size = b->out_cap;
	res = TEEC_InvokeCommand(b->s, TA_ARITH_CMD_BATCH, &op, &orig);
	if (!ADBG_EXPECT_TEEC_SUCCESS(b->c, res) ||
	    !ADBG_EXPECT(b->c, b->n, op.params[2].value.a)) {
		b->broken = true;
		goto out;
	}
	p = out;
	for (size_t i = 0; i < b->n && p; i++)
		p = check_one(b, &b->exp[i], p, out + op.params[1].tmpref.size);
	ADBG_EXPECT_TRUE(b->c, p == out + op.params[1].tmpref.size);
	b->records += b->n;
out:
	free(out);
	for (size_t i = 0; i < b->n; i++)
		expect_clear(&b->exp[i]);
	b->n = 0;
	b->len = 0;
	b->out_cap = 0;
}

/*
 * Starts a record; the operands in[0..nin) become the batch's (and are sent
 * as they are). Returns the expectation to fill.
 */
static struct expect *record(struct batch *b, uint32_t op, uint32_t flags, uint32_t arg,
			     uint32_t dst_bits, BIGNUM *in0, BIGNUM *in1, BIGNUM *in2)
{
	BIGNUM *in[3] = {in0, in1, in2};
	struct expect *e = NULL;

	if (b->n == BATCH_RECORDS || b->len > BATCH_BYTES)
		batch_flush(b);
	e = &b->exp[b->n++];
	e->op = op;
	e->flags = flags;
	e->arg = arg;
	e->dst_bits = dst_bits;
	while (e->nin < 3 && in[e->nin]) {
		e->in[e->nin] = in[e->nin];
		e->nin++;
	}
	put_u32(b, op);
	put_u32(b, flags);
	put_u32(b, arg);
	put_u32(b, dst_bits);
	put_u32(b, (uint32_t)e->nin);
	if (op != TA_ARITH_OCTET)
		for (int i = 0; i < e->nin; i++)
			put_bn(b, e->in[i]);
	/* Every big result comes from a destination of dst_bits. */
	b->out_cap += 16 + 3 * (12 + (size_t)(dst_bits + 31) / 32 * 4);
	return e;
}

static BIGNUM *bn_new(struct batch *b)
{
	BIGNUM *v = BN_new();

	if (!v)
		b->broken = true;
	return v;
}

static BIGNUM *bn_copy(struct batch *b, const BIGNUM *v)
{
	BIGNUM *r = BN_dup(v);

	if (!r)
		b->broken = true;
	return r;
}

static BIGNUM *bn_s64(struct batch *b, int64_t v)
{
	BIGNUM *r = bn_new(b);
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	if (r && (!BN_set_word(r, mag)))
		b->broken = true;
	if (r)
		BN_set_negative(r, v < 0);
	return r;
}

static BIGNUM *bn_hex(struct batch *b, const char *hex)
{
	BIGNUM *r = NULL;

	if (!BN_hex2bn(&r, hex))
		b->broken = true;
	return r;
}

/* 2^bits + add (add in -1..1) */
static BIGNUM *bn_pow2(struct batch *b, int bits, int add)
{
	BIGNUM *r = bn_new(b);

	if (r && (!BN_set_bit(r, bits) || (add > 0 && !BN_add_word(r, (BN_ULONG)add)) ||
		  (add < 0 && !BN_sub_word(r, (BN_ULONG)-add))))
		b->broken = true;
	return r;
}

/* A size in bits for an operand: the edges often, the maximum sometimes. */
static int rand_bits(struct rng *r, int max)
{
	static const int edges[] = {0, 1, 2, 7, 8, 9, 31, 32, 33, 63, 64, 65, 127, 128, 129};
	uint32_t k = rng_below(r, 100);

	if (k < 20) {
		int e = edges[rng_below(r, sizeof(edges) / sizeof(edges[0]))];

		return e <= max ? e : max;
	}
	if (k < 28)
		return max;
	if (k < 70)
		return (int)rng_below(r, (uint32_t)(max < 256 ? max : 256) + 1);
	return (int)rng_below(r, (uint32_t)max + 1);
}

/* A value of exactly bits bits (0 when bits is 0) in one of several shapes. */
static BIGNUM *rand_bn_bits(struct batch *b, struct rng *r, int bits, bool neg_ok)
{
	uint8_t buf[TA_ARITH_MAX_BITS / 8 + 8] = {0};
	size_t n = 0;
	BIGNUM *v = NULL;
	uint32_t shape = rng_below(r, 10);

	if (bits <= 0)
		return bn_s64(b, 0);
	n = ((size_t)bits + 7) / 8;
	if (n > sizeof(buf))
		abort(); /* the callers stay within TA_ARITH_MAX_BITS */
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)rng_next(r);
	if (shape == 0)
		memset(buf, 0xff, n); /* 2^bits - 1 */
	if (shape == 1 || shape == 2) {
		memset(buf, 0, n); /* 2^(bits-1), or 2^(bits-1) + 1 */
		buf[n - 1] = shape == 2;
	}
	if (shape == 3) /* sparse */
		for (size_t i = 0; i < n; i++)
			buf[i] &= (uint8_t)(rng_next(r) & rng_next(r));
	/* Exactly bits bits: clear above, set the top one. */
	if (bits % 8)
		buf[0] &= (uint8_t)((1u << (bits % 8)) - 1);
	buf[0] |= (uint8_t)(1u << ((bits - 1) % 8));
	v = BN_bin2bn(buf, (int)n, NULL);
	if (!v)
		b->broken = true;
	else if (neg_ok && rng_chance(r, 50))
		BN_set_negative(v, 1);
	return v;
}

static BIGNUM *rand_bn(struct batch *b, struct rng *r, int max_bits, bool neg_ok)
{
	return rand_bn_bits(b, r, rand_bits(r, max_bits), neg_ok);
}

/* A modulus: at least 2, odd or even. */
static BIGNUM *rand_modulus(struct batch *b, struct rng *r, int max_bits)
{
	int bits = rand_bits(r, max_bits);
	BIGNUM *n = rand_bn_bits(b, r, bits < 2 ? 2 : bits, false);

	if (n && rng_chance(r, 50) && !BN_set_bit(n, 0))
		b->broken = true;
	return n;
}

/* Room for a result of bits bits, with a little spare now and then. */
static uint32_t room(struct rng *r, int bits)
{
	uint32_t dst = (uint32_t)bits + (rng_chance(r, 50) ? rng_below(r, 70) : 0);

	return dst > TA_ARITH_MAX_BITS ? TA_ARITH_MAX_BITS : dst;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void set_out(struct batch *b, struct expect *e, BIGNUM *v)
{
	if (!v)
		b->broken = true;
	else if (BN_is_zero(v))
		BN_set_negative(v, 0); /* no negative zero */
	e->out[e->nouts++] = v;
}

static bool batch_open(struct batch *b, ADBG_Case_t *c, TEEC_Session *s)
{
	const char *env = getenv("XTEST_ARITH_SEED");
	uint32_t orig = 0;

	memset(b, 0, sizeof(*b));
	b->c = c;
	b->s = s;
	b->ctx = BN_CTX_new();
	b->seed = env ? strtoull(env, NULL, 16)
		      : (uint64_t)time(NULL) * 0x100000001b3ULL ^ (uint64_t)getpid();
	if (!ADBG_EXPECT_NOT_NULL(c, b->ctx))
		return false;
	return ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(s, &arith_uuid, NULL, &orig));
}

static void batch_close(struct batch *b, const char *what)
{
	batch_flush(b);
	ADBG_EXPECT(b->c, 0, b->failures);
	if (b->failures)
		Do_ADBG_Log("%s: %u of %lu records failed (seed %016" PRIx64 ")", what, b->failures,
			    b->records, b->seed);
	else
		Do_ADBG_Log("%s: %lu records checked", what, b->records);
	TEEC_CloseSession(b->s);
	BN_CTX_free(b->ctx);
	free(b->req);
	b->req = NULL;
}

static unsigned int scaled(unsigned int n)
{
	return n * (unsigned int)(xtest_level() + 1);
}

/* Each misuse in which[] must end the TA: a fresh session per panic. */
static void expect_panics(ADBG_Case_t *c, const uint32_t *which, size_t n)
{
	Do_ADBG_BeginSubCase(c, "Panics GP specifies");
	for (size_t i = 0; i < n; i++) {
		TEEC_Session s = {0};
		TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
		uint32_t orig = 0;

		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, xtest_teec_open_session(&s, &arith_uuid, NULL, &orig)))
			break;
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
		op.params[0].value.a = which[i];
		if (!ADBG_EXPECT_TEEC_RESULT(
			c, TEEC_ERROR_TARGET_DEAD,
			TEEC_InvokeCommand(&s, TA_ARITH_CMD_PANIC, &op, &orig)))
			Do_ADBG_Log("  misuse %" PRIu32 " did not panic", which[i]);
		ADBG_EXPECT_TEEC_ERROR_ORIGIN(c, TEEC_ORIGIN_TEE, orig);
		TEEC_CloseSession(&s);
	}
	Do_ADBG_EndSubCase(c, NULL);
}

#define PANICS(c, ...)                                                                             \
	do {                                                                                       \
		static const uint32_t which_[] = {__VA_ARGS__};                                    \
		expect_panics((c), which_, sizeof(which_) / sizeof(which_[0]));                    \
	} while (0)

/* ---- 4101 ---- */

static void add_init(struct batch *b, uint32_t bits, uint32_t flags)
{
	struct expect *e = record(b, TA_ARITH_INIT, flags, 0, bits, NULL, NULL, NULL);

	e->check_ival = true;
	set_out(b, e, bn_s64(b, 0));
}

static void xtest_tee_test_4101(ADBG_Case_t *c)
{
	static const uint32_t sizes[] = {0, 1, 31, 32, 33, 512, 2048, 2049, 4096, 8192};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Init at every size, 1.3 and 1.1 entry points");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		add_init(&b, sizes[i], 0);
		add_init(&b, sizes[i], TA_ARITH_F_GP11);
	}
	for (unsigned int i = 0; i < scaled(500); i++)
		add_init(&b, rng_below(&r, TA_ARITH_MAX_BITS + 1),
			 rng_below(&r, 2) * TA_ARITH_F_GP11);
	batch_close(&b, "Init");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_INIT_TOO_LARGE, TA_ARITH_PANIC_INIT_TOO_SMALL,
	       TA_ARITH_PANIC_UNINITIALIZED);
}
ADBG_CASE_DEFINE(regression, 4101, xtest_tee_test_4101,
		 "Test TEE Internal API Arithmetical API - Bigint init");

/* ---- 4102 ---- */

/*
 * FromOctetString of bytes (leading zeros included) into dst_bits, then
 * ToOctetString into a buffer of buf_len bytes.
 */
static void add_octet(struct batch *b, const uint8_t *bytes, size_t len, int32_t sign,
		      uint32_t dst_bits, uint32_t buf_len, uint32_t flags)
{
	BIGNUM *v = BN_bin2bn(bytes, (int)len, NULL);
	struct expect *e = record(b, TA_ARITH_OCTET, flags, buf_len, dst_bits, v, NULL, NULL);
	uint32_t cap = (dst_bits + 31) / 32 * 32;
	uint32_t need = v ? (uint32_t)BN_num_bytes(v) : 0;

	put_bytes_operand(b, sign, bytes, len);
	if (!v) {
		b->broken = true;
		return;
	}
	BN_set_negative(v, sign < 0);
	e->check_ival = true;
	if ((uint32_t)BN_num_bits(v) > cap) {
		e->res = TEE_ERROR_OVERFLOW_CODE;
		e->check_ival = false;
		return;
	}
	e->res2 = buf_len < need ? TEE_ERROR_SHORT_BUFFER_CODE : 0;
	e->ival = (int32_t)need;
	set_out(b, e, bn_copy(b, v));
}

static void xtest_tee_test_4102(ADBG_Case_t *c)
{
	static const uint8_t v1[] = {1, 2, 3, 4};
	static const uint8_t v2[] = {0, 0, 0, 1, 2, 3, 4, 5};
	static const uint8_t v3[] = {0x80, 0, 0, 0, 0, 0, 0, 0, 0};
	static const uint8_t zero[] = {0, 0, 0};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Octet strings both ways, short buffers and overflows");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_octet(&b, v1, sizeof(v1), 1, 32, 4, 0);
	add_octet(&b, v1, sizeof(v1), -1, 32, 3, 0);
	add_octet(&b, v2, sizeof(v2), 1, 64, 8, TA_ARITH_F_GP11);
	add_octet(&b, v2, sizeof(v2), 1, 32, 8, 0);   /* 5 significant bytes: overflow */
	add_octet(&b, v3, sizeof(v3), -1, 64, 16, 0); /* 2^71: overflow */
	add_octet(&b, v3, sizeof(v3), -1, 72, 16, 0);
	add_octet(&b, zero, sizeof(zero), -1, 0, 0, 0); /* -0 is 0, in a capacity of 0 */
	add_octet(&b, zero, 0, 1, 32, 0, TA_ARITH_F_GP11);
	for (unsigned int i = 0; i < scaled(3000); i++) {
		uint8_t buf[TA_ARITH_MAX_BITS / 8 + 16];
		int bits = rand_bits(&r, MAX_BITS);
		size_t lead = rng_chance(&r, 30) ? rng_below(&r, 9) : 0;
		size_t n = ((size_t)bits + 7) / 8;
		BIGNUM *v = rand_bn_bits(&b, &r, bits, false);
		uint32_t dst = rng_chance(&r, 20) ? (uint32_t)rng_below(&r, (uint32_t)bits + 1)
						  : room(&r, bits);
		uint32_t buf_len = (uint32_t)n;

		if (!v)
			break;
		memset(buf, 0, lead);
		BN_bn2binpad(v, buf + lead, (int)n);
		BN_free(v);
		if (rng_chance(&r, 30))
			buf_len = rng_below(&r, (uint32_t)n + 2);
		add_octet(&b, buf, lead + n, rng_chance(&r, 50) ? -1 : 1, dst, buf_len,
			  rng_below(&r, 2) * TA_ARITH_F_GP11);
	}
	batch_close(&b, "Octet");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_TO_OCTET_NULL_LEN);
}
ADBG_CASE_DEFINE(regression, 4102, xtest_tee_test_4102,
		 "Test TEE Internal API Arithmetical API - Octet string");

/* ---- 4103 ---- */

static void add_from_s32(struct batch *b, int32_t v)
{
	struct expect *e = record(b, TA_ARITH_FROM_S32, 0, (uint32_t)v, 32, NULL, NULL, NULL);

	e->check_ival = true;
	e->ival = v;
	set_out(b, e, bn_s64(b, v));
}

static void add_to_s32(struct batch *b, BIGNUM *v)
{
	struct expect *e = record(b, TA_ARITH_TO_S32, 0, 0, 0, v, NULL, NULL);
	BIGNUM *lo = bn_s64(b, INT32_MIN);
	BIGNUM *hi = bn_s64(b, INT32_MAX);

	if (!v || !lo || !hi) {
		b->broken = true;
	} else if (BN_cmp(v, lo) < 0 || BN_cmp(v, hi) > 0) {
		e->res = TEE_ERROR_OVERFLOW_CODE;
	} else {
		uint64_t mag = BN_get_word(v);

		e->check_ival = true;
		e->ival = BN_is_negative(v) ? (int32_t)(0u - (uint32_t)mag) : (int32_t)mag;
	}
	BN_free(lo);
	BN_free(hi);
}

static void xtest_tee_test_4103(ADBG_Case_t *c)
{
	static const int64_t edges[] = {0,
					1,
					-1,
					123,
					-123,
					INT32_MAX,
					INT32_MIN,
					(int64_t)INT32_MAX + 1,
					(int64_t)INT32_MIN - 1,
					UINT32_MAX,
					-(int64_t)UINT32_MAX,
					(int64_t)1 << 32,
					INT64_MAX,
					-INT64_MAX};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "int32_t both ways, overflows");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		if (edges[i] >= INT32_MIN && edges[i] <= INT32_MAX)
			add_from_s32(&b, (int32_t)edges[i]);
		add_to_s32(&b, bn_s64(&b, edges[i]));
	}
	for (unsigned int i = 0; i < scaled(2000); i++) {
		add_from_s32(&b, (int32_t)(uint32_t)rng_next(&r));
		add_to_s32(&b, rand_bn(&b, &r, rng_chance(&r, 80) ? 40 : MAX_BITS, true));
	}
	batch_close(&b, "S32");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_FROM_S32_NO_ROOM, TA_ARITH_PANIC_TO_S32_NULL);
}
ADBG_CASE_DEFINE(regression, 4103, xtest_tee_test_4103,
		 "Test TEE Internal API Arithmetical API - S32");

/* ---- 4104 ---- */

static void add_cmp(struct batch *b, BIGNUM *x, BIGNUM *y)
{
	struct expect *e = record(b, TA_ARITH_CMP, 0, 0, 0, x, y, NULL);

	e->check_ival = true;
	e->ival = x && y ? BN_cmp(x, y) : 0;
}

static void add_cmp_s32(struct batch *b, BIGNUM *x, int32_t v)
{
	struct expect *e = record(b, TA_ARITH_CMP_S32, 0, (uint32_t)v, 0, x, NULL, NULL);
	BIGNUM *y = bn_s64(b, v);

	e->check_ival = true;
	e->ival = x && y ? BN_cmp(x, y) : 0;
	BN_free(y);
}

static void xtest_tee_test_4104(ADBG_Case_t *c)
{
	static const int64_t edges[] = {
	    0, 1, -1, 2, INT32_MAX, INT32_MIN, 1ll << 31, -(1ll << 31) - 1, 1ll << 32};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Cmp and CmpS32");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		for (size_t j = 0; j < sizeof(edges) / sizeof(edges[0]); j++) {
			add_cmp(&b, bn_s64(&b, edges[i]), bn_s64(&b, edges[j]));
			if (edges[j] >= INT32_MIN && edges[j] <= INT32_MAX)
				add_cmp_s32(&b, bn_s64(&b, edges[i]), (int32_t)edges[j]);
		}
	}
	for (unsigned int i = 0; i < scaled(2000); i++) {
		BIGNUM *x = rand_bn(&b, &r, MAX_BITS, true);
		BIGNUM *y = NULL;
		uint32_t k = rng_below(&r, 4);

		if (!x)
			break;
		/* Equal values, opposite signs, and unrelated ones. */
		y = k == 0 ? bn_copy(&b, x) : rand_bn(&b, &r, MAX_BITS, true);
		if (y && k == 1)
			BN_set_negative(y, !BN_is_negative(x));
		add_cmp(&b, x, y);
		add_cmp_s32(&b, rand_bn(&b, &r, 40, true), (int32_t)(uint32_t)rng_next(&r));
	}
	batch_close(&b, "Cmp");
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 4104, xtest_tee_test_4104,
		 "Test TEE Internal API Arithmetical API - Compare");

/* ---- 4105 to 4107 ---- */

/* op1 OP op2 for ADD, SUB, MUL; op2 NULL for SQUARE and NEG. */
static void add_basic(struct batch *b, struct rng *r, uint32_t op, BIGNUM *x, BIGNUM *y)
{
	BIGNUM *v = bn_new(b);
	uint32_t flags = rng_chance(r, 25) ? TA_ARITH_F_ALIAS : 0;
	struct expect *e = NULL;
	int ok = v && x && (y || op == TA_ARITH_SQUARE || op == TA_ARITH_NEG);
	int bits = 0;

	if (ok) {
		switch (op) {
		case TA_ARITH_ADD:
			ok = BN_add(v, x, y);
			break;
		case TA_ARITH_SUB:
			ok = BN_sub(v, x, y);
			break;
		case TA_ARITH_MUL:
			ok = BN_mul(v, x, y, b->ctx);
			break;
		case TA_ARITH_SQUARE:
			ok = BN_sqr(v, x, b->ctx);
			break;
		default:
			ok = BN_copy(v, x) != NULL;
			BN_set_negative(v, !BN_is_negative(x));
			break;
		}
	}
	if (ok)
		bits = max_int(BN_num_bits(v), (flags & TA_ARITH_F_ALIAS) ? BN_num_bits(x) : 0);
	e = record(b, op, flags, 0, room(r, bits), x, y, NULL);
	if (!ok)
		b->broken = true;
	set_out(b, e, v);
}

static void xtest_tee_test_4105(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Add and Sub, in place or not");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_basic(&b, &r, TA_ARITH_ADD, bn_hex(&b, "FFFFFFFF"), bn_hex(&b, "1"));
	add_basic(&b, &r, TA_ARITH_SUB, bn_hex(&b, "-FFFFFFFF"), bn_hex(&b, "-FFFFFFFF"));
	add_basic(&b, &r, TA_ARITH_SUB, bn_hex(&b, "100000000"), bn_hex(&b, "1"));
	for (unsigned int i = 0; i < scaled(2000); i++) {
		add_basic(&b, &r, TA_ARITH_ADD, rand_bn(&b, &r, MAX_BITS, true),
			  rand_bn(&b, &r, MAX_BITS, true));
		add_basic(&b, &r, TA_ARITH_SUB, rand_bn(&b, &r, MAX_BITS, true),
			  rand_bn(&b, &r, MAX_BITS, true));
	}
	batch_close(&b, "Add/Sub");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_ADD_OVERFLOW);
}
ADBG_CASE_DEFINE(regression, 4105, xtest_tee_test_4105,
		 "Test TEE Internal API Arithmetical API - Add/Sub");

static void xtest_tee_test_4106(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Neg, in place or not");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_basic(&b, &r, TA_ARITH_NEG, bn_s64(&b, 0), NULL);
	for (unsigned int i = 0; i < scaled(2000); i++)
		add_basic(&b, &r, TA_ARITH_NEG, rand_bn(&b, &r, MAX_BITS, true), NULL);
	batch_close(&b, "Neg");
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 4106, xtest_tee_test_4106,
		 "Test TEE Internal API Arithmetical API - Neg");

static void xtest_tee_test_4107(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Mul and Square, up to twice the maximum size");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_basic(&b, &r, TA_ARITH_MUL, bn_hex(&b, "FFFFFFFF"), bn_hex(&b, "-FFFFFFFF"));
	add_basic(&b, &r, TA_ARITH_MUL, bn_pow2(&b, MAX_BITS, -1), bn_pow2(&b, MAX_BITS, -1));
	add_basic(&b, &r, TA_ARITH_SQUARE, bn_pow2(&b, MAX_BITS - 1, 0), NULL);
	for (unsigned int i = 0; i < scaled(2000); i++) {
		add_basic(&b, &r, TA_ARITH_MUL, rand_bn(&b, &r, MAX_BITS, true),
			  rand_bn(&b, &r, MAX_BITS, true));
		add_basic(&b, &r, TA_ARITH_SQUARE, rand_bn(&b, &r, MAX_BITS, true), NULL);
	}
	batch_close(&b, "Mul");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_MUL_OVERFLOW);
}
ADBG_CASE_DEFINE(regression, 4107, xtest_tee_test_4107,
		 "Test TEE Internal API Arithmetical API - Mul");

/* ---- 4108 ---- */

static void add_div(struct batch *b, struct rng *r, BIGNUM *x, BIGNUM *y)
{
	BIGNUM *q = bn_new(b);
	BIGNUM *rem = bn_new(b);
	uint32_t flags = 0;
	struct expect *e = NULL;
	int bits = 0;

	if (!q || !rem || !x || !y || BN_is_zero(y) || !BN_div(q, rem, x, y, b->ctx)) {
		b->broken = true;
		BN_free(q);
		BN_free(rem);
		BN_free(x);
		BN_free(y);
		return;
	}
	switch (rng_below(r, 6)) {
	case 0:
		flags = TA_ARITH_F_NULL1;
		break;
	case 1:
		flags = TA_ARITH_F_NULL2;
		break;
	case 2:
		flags = TA_ARITH_F_ALIAS;
		break;
	default:
		break;
	}
	bits = max_int(BN_num_bits(q), BN_num_bits(rem));
	if (flags & TA_ARITH_F_ALIAS)
		bits = max_int(bits, BN_num_bits(x));
	e = record(b, TA_ARITH_DIV, flags, 0, room(r, bits), x, y, NULL);
	if (flags & TA_ARITH_F_NULL1)
		BN_free(q);
	else
		set_out(b, e, q);
	if (flags & TA_ARITH_F_NULL2)
		BN_free(rem);
	else
		set_out(b, e, rem);
}

static void xtest_tee_test_4108(ADBG_Case_t *c)
{
	static const char *const fixed[][2] = {
	    {"53", "7"},   {"-53", "7"},
	    {"53", "-7"},  {"-53", "-7"},
	    {"0", "1"},	   {"1", "-1"},
	    {"B7FB", "5"}, {"7", "53"},
	    {"-7", "53"},  {"FFFFFFFFFFFFFFFFFFFFFFFF", "100000000"},
	};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Div: truncated quotient, remainder of the dividend's sign");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add_div(&b, &r, bn_hex(&b, fixed[i][0]), bn_hex(&b, fixed[i][1]));
	for (unsigned int i = 0; i < scaled(2000); i++) {
		BIGNUM *y = rand_bn(&b, &r, MAX_BITS, true);

		if (y && BN_is_zero(y))
			BN_one(y);
		add_div(&b, &r, rand_bn(&b, &r, MAX_BITS, true), y);
	}
	batch_close(&b, "Div");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_DIV_ZERO, TA_ARITH_PANIC_DIV_SAME_DEST);
}
ADBG_CASE_DEFINE(regression, 4108, xtest_tee_test_4108,
		 "Test TEE Internal API Arithmetical API - Div");

/* ---- 4109 and 4110 ---- */

/* op on x (and y) modulo n; results in [0, n - 1]. */
static void add_mod(struct batch *b, struct rng *r, uint32_t op, BIGNUM *x, BIGNUM *y, BIGNUM *n)
{
	BIGNUM *v = bn_new(b);
	uint32_t flags = 0;
	struct expect *e = NULL;
	int ok = 0;
	int bits = 0;

	/* One operand only: a second one given is not used. */
	if (op == TA_ARITH_MOD || op == TA_ARITH_SQUAREMOD) {
		BN_free(y);
		y = NULL;
	}
	ok = v && x && n && (y || op == TA_ARITH_MOD || op == TA_ARITH_SQUAREMOD);

	if (ok) {
		switch (op) {
		case TA_ARITH_MOD:
			ok = BN_nnmod(v, x, n, b->ctx);
			break;
		case TA_ARITH_ADDMOD:
			ok = BN_mod_add(v, x, y, n, b->ctx);
			break;
		case TA_ARITH_SUBMOD:
			ok = BN_mod_sub(v, x, y, n, b->ctx);
			break;
		case TA_ARITH_SQUAREMOD:
			ok = BN_mod_sqr(v, x, n, b->ctx);
			break;
		default: /* MULMOD, FMM */
			ok = BN_mod_mul(v, x, y, n, b->ctx);
			break;
		}
	}
	if (op != TA_ARITH_FMM && rng_chance(r, 25))
		flags = TA_ARITH_F_ALIAS;
	if (op == TA_ARITH_FMM && rng_chance(r, 30))
		flags = TA_ARITH_F_GP11;
	if (ok)
		bits = max_int(BN_num_bits(n), (flags & TA_ARITH_F_ALIAS) ? BN_num_bits(x) : 0);
	if (op == TA_ARITH_MOD || op == TA_ARITH_SQUAREMOD)
		e = record(b, op, flags, 0, room(r, bits), x, n, NULL);
	else
		e = record(b, op, flags, 0, room(r, bits), x, y, n);
	if (!ok)
		b->broken = true;
	set_out(b, e, v);
}

static void xtest_tee_test_4109(ADBG_Case_t *c)
{
	static const char *const fixed[][2] = {
	    {"10", "A"}, {"-1", "123"}, {"-122", "123"}, {"-1", "100000000000000000000"},
	    {"7", "2"},	 {"0", "2"},	{"2", "2"},	 {"-2", "2"},
	};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Mod: a result in [0, n - 1] for every sign");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add_mod(&b, &r, TA_ARITH_MOD, bn_hex(&b, fixed[i][0]), NULL,
			bn_hex(&b, fixed[i][1]));
	for (unsigned int i = 0; i < scaled(3000); i++)
		add_mod(&b, &r, TA_ARITH_MOD, rand_bn(&b, &r, MAX_BITS, true), NULL,
			rand_modulus(&b, &r, MAX_BITS));
	batch_close(&b, "Mod");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_MOD_ZERO, TA_ARITH_PANIC_MOD_ONE, TA_ARITH_PANIC_MOD_NEGATIVE);
}
ADBG_CASE_DEFINE(regression, 4109, xtest_tee_test_4109,
		 "Test TEE Internal API Arithmetical API - Mod");

static void xtest_tee_test_4110(ADBG_Case_t *c)
{
	static const uint32_t ops[] = {TA_ARITH_ADDMOD, TA_ARITH_SUBMOD, TA_ARITH_MULMOD,
				       TA_ARITH_SQUAREMOD, TA_ARITH_FMM};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "AddMod, SubMod, MulMod, SquareMod and FMM, odd and even n");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		add_mod(&b, &r, ops[k], bn_pow2(&b, MAX_BITS, -1), bn_pow2(&b, MAX_BITS, -1),
			bn_pow2(&b, MAX_BITS - 1, 1));
		add_mod(&b, &r, ops[k], bn_s64(&b, 1), bn_s64(&b, 1), bn_s64(&b, 2));
		for (unsigned int i = 0; i < scaled(1000); i++) {
			BIGNUM *n = rand_modulus(&b, &r, MAX_BITS);
			int nb = n ? BN_num_bits(n) : 2;
			/* Mostly reduced operands, as GP expects; any value now and then. */
			int xb = rng_chance(&r, 80) ? nb - 1 : rand_bits(&r, MAX_BITS);
			BIGNUM *x = rand_bn(&b, &r, xb, rng_chance(&r, 20));
			BIGNUM *y = rand_bn(&b, &r, xb, rng_chance(&r, 20));

			add_mod(&b, &r, ops[k], x, y, n);
		}
	}
	batch_close(&b, "Mod arith");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_FMM_NO_CTX, TA_ARITH_PANIC_FMM_CTX_SMALL);
}
ADBG_CASE_DEFINE(regression, 4110, xtest_tee_test_4110,
		 "Test TEE Internal API Arithmetical API - Mod arith");

/* ---- 4111 ---- */

static void add_invmod(struct batch *b, struct rng *r, BIGNUM *x, BIGNUM *n)
{
	BIGNUM *v = bn_new(b);
	uint32_t flags = rng_chance(r, 25) ? TA_ARITH_F_ALIAS : 0;
	struct expect *e = NULL;

	if (!v || !x || !n || !BN_mod_inverse(v, x, n, b->ctx))
		b->broken = true;
	e = record(
	    b, TA_ARITH_INVMOD, flags, 0,
	    room(r, max_int(BN_num_bits(n), (flags & TA_ARITH_F_ALIAS) && x ? BN_num_bits(x) : 0)),
	    x, n, NULL);
	set_out(b, e, v);
}

static void xtest_tee_test_4111(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;
	unsigned int done = 0;

	Do_ADBG_BeginSubCase(c, "InvMod of invertible values, odd and even n");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_invmod(&b, &r, bn_s64(&b, 3), bn_s64(&b, 7));
	add_invmod(&b, &r, bn_s64(&b, -3), bn_s64(&b, 7));
	add_invmod(&b, &r, bn_s64(&b, 1), bn_s64(&b, 2));
	add_invmod(&b, &r, bn_hex(&b, "462D578CF0F88"), bn_hex(&b, "AB54A98CEB1F0AD3"));
	while (done < scaled(2000) && !b.broken) {
		BIGNUM *n = rand_modulus(&b, &r, rng_chance(&r, 90) ? 1024 : MAX_BITS);
		BIGNUM *x =
		    rand_bn(&b, &r, rng_chance(&r, 80) && n ? BN_num_bits(n) : MAX_BITS, true);
		BIGNUM *g = bn_new(&b);

		if (n && x && g && !BN_is_zero(x) && BN_gcd(g, x, n, b.ctx) && BN_is_one(g)) {
			add_invmod(&b, &r, x, n);
			done++;
		} else {
			BN_free(n);
			BN_free(x);
		}
		BN_free(g);
	}
	batch_close(&b, "InvMod");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_INVMOD_ZERO, TA_ARITH_PANIC_INVMOD_NOT_COPRIME);
}
ADBG_CASE_DEFINE(regression, 4111, xtest_tee_test_4111,
		 "Test TEE Internal API Arithmetical API - Invmod");

/* ---- 4112 ---- */

static void add_prime(struct batch *b, BIGNUM *x, uint32_t level, int known)
{
	struct expect *e = record(b, TA_ARITH_IS_PRIME, 0, level, 0, x, NULL, NULL);

	e->check = CHECK_PRIME;
	if (!x) {
		b->broken = true;
		return;
	}
	if (known >= 0) {
		e->ival = known;
	} else {
		BIGNUM *a = BN_dup(x);

		if (!a) {
			b->broken = true;
			return;
		}
		BN_set_negative(a, 0);
		e->ival = BN_check_prime(a, b->ctx, NULL) == 1;
		BN_free(a);
	}
}

static void xtest_tee_test_4112(ADBG_Case_t *c)
{
	/* Carmichael numbers and strong pseudoprimes to base 2: all composite. */
	static const uint32_t tricky[] = {561,	 1105,	1729,	2465,	   2821,       6601,
					  8911,	 2047,	3277,	4033,	   4681,       8321,
					  41041, 75361, 825265, 321197185, 3215031751u};
	static const int mersenne[] = {61, 89, 107, 127, 521, 607, 1279, 2203, 2281};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;
	BIGNUM *p = NULL;

	Do_ADBG_BeginSubCase(c, "IsProbablePrime: small values, pseudoprimes, large primes");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	for (int64_t v = -20; v < 3000; v++)
		add_prime(&b, bn_s64(&b, v), 80, -1);
	for (size_t i = 0; i < sizeof(tricky) / sizeof(tricky[0]); i++)
		add_prime(&b, bn_s64(&b, tricky[i]), 80, 0);
	add_prime(&b, bn_hex(&b, "FFFFFFFFFFFFFFC5"), 80, 1); /* 2^64 - 59 */
	add_prime(&b, bn_hex(&b, "FFFFFFFFFFFFFFFF"), 80, 0);
	add_prime(&b, bn_hex(&b, "10000000000000000"), 80, 0);
	for (size_t i = 0; i < sizeof(mersenne) / sizeof(mersenne[0]); i++) {
		add_prime(&b, bn_pow2(&b, mersenne[i], -1), rng_below(&r, 200), 1);
		add_prime(&b, bn_pow2(&b, mersenne[i] + 1, -1), 80, 0);
	}
	add_prime(&b, bn_copy(&b, BN_get0_nist_prime_521()), 80, 1);
	p = BN_get_rfc3526_prime_2048(NULL);
	add_prime(&b, p, 80, 1);
	p = BN_get_rfc3526_prime_4096(NULL);
	add_prime(&b, bn_copy(&b, p), 80, 1);
	if (p && BN_sub_word(p, 2))
		add_prime(&b, p, 80, -1);
	for (unsigned int i = 0; i < scaled(300); i++) {
		BIGNUM *x = rand_bn(&b, &r, rng_chance(&r, 90) ? 512 : MAX_BITS, true);

		if (x && !BN_is_odd(x) && rng_chance(&r, 80))
			BN_add_word(x, 1);
		add_prime(&b, x, 80 + rng_below(&r, 60), -1);
	}
	for (unsigned int i = 0; i < scaled(40); i++) {
		BIGNUM *q1 = bn_new(&b);
		BIGNUM *q2 = bn_new(&b);
		int bits = 32 + (int)rng_below(&r, 224);

		if (!q1 || !q2 || !BN_generate_prime_ex(q1, bits, 0, NULL, NULL, NULL) ||
		    !BN_generate_prime_ex(q2, bits, 0, NULL, NULL, NULL)) {
			b.broken = true;
			BN_free(q1);
			BN_free(q2);
			break;
		}
		add_prime(&b, bn_copy(&b, q1), 80, 1);
		if (!BN_mul(q1, q1, q2, b.ctx))
			b.broken = true;
		add_prime(&b, q1, 80, 0);
		BN_free(q2);
	}
	batch_close(&b, "IsPrime");
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 4112, xtest_tee_test_4112,
		 "Test TEE Internal API Arithmetical API - Is prime");

/* ---- 4113 ---- */

static void add_shift(struct batch *b, struct rng *r, BIGNUM *x, uint32_t bits)
{
	BIGNUM *v = bn_new(b);
	uint32_t flags =
	    (rng_chance(r, 25) ? TA_ARITH_F_ALIAS : 0) | (rng_chance(r, 30) ? TA_ARITH_F_GP11 : 0);
	struct expect *e = NULL;

	if (!v || !x) {
		b->broken = true;
	} else if (bits >= (uint32_t)BN_num_bits(x)) {
		BN_zero(v);
	} else if (!BN_rshift(v, x, (int)bits)) {
		b->broken = true;
	}
	e = record(b, TA_ARITH_SHIFT_RIGHT, flags, bits,
		   room(r, max_int(v ? BN_num_bits(v) : 0,
				   (flags & TA_ARITH_F_ALIAS) && x ? BN_num_bits(x) : 0)),
		   x, NULL, NULL);
	set_out(b, e, v);
}

static void xtest_tee_test_4113(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "ShiftRight of |x|, the sign kept");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_shift(&b, &r, bn_s64(&b, -2), 1);
	add_shift(&b, &r, bn_s64(&b, -1), 1);
	add_shift(&b, &r, bn_hex(&b, "7FFFFFFF"), 31);
	add_shift(&b, &r, bn_hex(&b, "FFFFFFFF0000000000000000"), 64);
	add_shift(&b, &r, bn_pow2(&b, MAX_BITS * 2 - 1, 0), MAX_BITS * 2 - 1);
	add_shift(&b, &r, bn_s64(&b, 5), UINT32_MAX);
	for (unsigned int i = 0; i < scaled(3000); i++) {
		BIGNUM *x = rand_bn(&b, &r, MAX_BITS, true);
		int nb = x ? BN_num_bits(x) : 0;
		uint32_t bits = rng_chance(&r, 70) ? rng_below(&r, (uint32_t)nb + 2)
						   : rng_below(&r, TA_ARITH_MAX_BITS + 100);

		add_shift(&b, &r, x, bits);
	}
	batch_close(&b, "ShiftRight");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_SHIFT_OVERFLOW);
}
ADBG_CASE_DEFINE(regression, 4113, xtest_tee_test_4113,
		 "Test TEE Internal API Arithmetical API - shift right");

/* ---- 4114 ---- */

static void add_gcd(struct batch *b, struct rng *r, BIGNUM *x, BIGNUM *y)
{
	BIGNUM *g = bn_new(b);
	BIGNUM *ax = x ? BN_dup(x) : NULL;
	BIGNUM *ay = y ? BN_dup(y) : NULL;
	uint32_t flags = 0;
	struct expect *e = NULL;
	int bits = 0;

	if (!g || !ax || !ay) {
		b->broken = true;
	} else {
		BN_set_negative(ax, 0);
		BN_set_negative(ay, 0);
		if (!BN_gcd(g, ax, ay, b->ctx))
			b->broken = true;
		bits = max_int(max_int(BN_num_bits(x), BN_num_bits(y)), 1);
	}
	if (rng_chance(r, 20))
		flags = rng_chance(r, 50) ? TA_ARITH_F_NULL1 : TA_ARITH_F_NULL2;
	e = record(b, TA_ARITH_EGCD, flags, 0, room(r, bits), x, y, NULL);
	e->check = CHECK_EGCD;
	e->nouts = 1 + !(flags & TA_ARITH_F_NULL1) + !(flags & TA_ARITH_F_NULL2);
	e->out[0] = g;
	/* RelativePrime on the same pair. */
	e = record(b, TA_ARITH_REL_PRIME, 0, 0, 0, x ? BN_dup(x) : NULL, y ? BN_dup(y) : NULL,
		   NULL);
	e->check_ival = true;
	e->ival = g && BN_is_one(g);
	BN_free(ax);
	BN_free(ay);
}

static void xtest_tee_test_4114(ADBG_Case_t *c)
{
	static const char *const fixed[][2] = {
	    {"0", "0"},	    {"0", "123"}, {"123", "0"},		  {"1", "1"},
	    {"1", "-1"},    {"-2", "4"},  {"-2", "-4"},		  {"400", "800"},
	    {"261", "2B5"}, {"F", "A"},	  {"165D662", "1664FEA"},
	};
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "ComputeExtendedGcd (Bezout checked) and RelativePrime");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		add_gcd(&b, &r, bn_hex(&b, fixed[i][0]), bn_hex(&b, fixed[i][1]));
	add_gcd(&b, &r, bn_pow2(&b, MAX_BITS - 1, 0), bn_pow2(&b, MAX_BITS - 2, 0));
	for (unsigned int i = 0; i < scaled(1000); i++) {
		BIGNUM *x = rand_bn(&b, &r, rng_chance(&r, 90) ? 1024 : MAX_BITS, true);
		BIGNUM *y = rand_bn(&b, &r, rng_chance(&r, 90) ? 1024 : MAX_BITS, true);
		BIGNUM *f = rng_chance(&r, 30) ? rand_bn(&b, &r, 64, false) : NULL;

		/* A common factor now and then. */
		if (f && x && y && !BN_is_zero(f) && BN_num_bits(x) + 64 < MAX_BITS &&
		    BN_num_bits(y) + 64 < MAX_BITS) {
			BN_mul(x, x, f, b.ctx);
			BN_mul(y, y, f, b.ctx);
		}
		BN_free(f);
		add_gcd(&b, &r, x, y);
	}
	batch_close(&b, "GCD");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_EGCD_NULL_GCD);
}
ADBG_CASE_DEFINE(regression, 4114, xtest_tee_test_4114,
		 "Test TEE Internal API Arithmetical API - GCD");

/* ---- 4115 ---- */

static void add_abs(struct batch *b, struct rng *r, uint32_t op, BIGNUM *x)
{
	int bits = x ? BN_num_bits(x) : 0;
	uint32_t flags = rng_chance(r, 25) ? TA_ARITH_F_ALIAS : 0;
	uint32_t dst = (flags & TA_ARITH_F_ALIAS) || rng_chance(r, 70)
			   ? room(r, bits)
			   : rng_below(r, (uint32_t)bits + 1);
	struct expect *e = record(b, op, flags, 0, dst, x, NULL, NULL);
	BIGNUM *v = x ? BN_dup(x) : NULL;

	if (!v) {
		b->broken = true;
		return;
	}
	if (op == TA_ARITH_ABS)
		BN_set_negative(v, 0);
	if ((uint32_t)bits > (dst + 31) / 32 * 32) {
		e->res = TEE_ERROR_OVERFLOW_CODE;
		BN_free(v);
		return;
	}
	set_out(b, e, v);
}

static void xtest_tee_test_4115(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "Abs and Assign, overflows");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_abs(&b, &r, TA_ARITH_ABS, bn_s64(&b, -1));
	add_abs(&b, &r, TA_ARITH_ABS, bn_s64(&b, 0));
	for (unsigned int i = 0; i < scaled(2000); i++) {
		add_abs(&b, &r, TA_ARITH_ABS, rand_bn(&b, &r, MAX_BITS, true));
		add_abs(&b, &r, TA_ARITH_ASSIGN, rand_bn(&b, &r, MAX_BITS, true));
	}
	batch_close(&b, "Abs");
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 4115, xtest_tee_test_4115,
		 "Test TEE Internal API Arithmetical API - Abs");

/* ---- 4116 ---- */

static void add_bits(struct batch *b, struct rng *r, BIGNUM *x)
{
	int bits = x ? BN_num_bits(x) : 0;
	uint32_t idx = rng_chance(r, 80) ? rng_below(r, (uint32_t)bits + 40)
					 : rng_below(r, TA_ARITH_MAX_BITS + 64);
	uint32_t dst = room(r, bits);
	bool value = rng_chance(r, 50);
	struct expect *e = NULL;
	BIGNUM *v = x ? BN_dup(x) : NULL;

	if (!v) {
		b->broken = true;
		BN_free(x);
		return;
	}
	e = record(b, TA_ARITH_GET_BIT, 0, idx, 0, bn_copy(b, x), NULL, NULL);
	e->check_ival = true;
	e->ival = BN_is_bit_set(x, (int)idx);
	e = record(b, TA_ARITH_BIT_COUNT, 0, 0, 0, bn_copy(b, x), NULL, NULL);
	e->check_ival = true;
	e->ival = bits;
	e = record(b, TA_ARITH_SET_BIT, value ? TA_ARITH_F_VALUE : 0, idx, dst, x, NULL, NULL);
	if (idx >= (dst + 31) / 32 * 32) {
		e->res = TEE_ERROR_OVERFLOW_CODE;
		set_out(b, e, v);
		return;
	}
	if (value && !BN_set_bit(v, (int)idx))
		b->broken = true;
	if (!value && idx < (uint32_t)bits && !BN_clear_bit(v, (int)idx))
		b->broken = true;
	set_out(b, e, v);
}

static void xtest_tee_test_4116(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;

	Do_ADBG_BeginSubCase(c, "GetBit, GetBitCount and SetBit on |x|");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_bits(&b, &r, bn_s64(&b, -1));
	add_bits(&b, &r, bn_s64(&b, 0));
	for (unsigned int i = 0; i < scaled(2000); i++)
		add_bits(&b, &r, rand_bn(&b, &r, MAX_BITS, true));
	batch_close(&b, "Bits");
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 4116, xtest_tee_test_4116,
		 "Test TEE Internal API Arithmetical API - Get/Set Bit");

/* ---- 4117 ---- */

static void add_expmod(struct batch *b, struct rng *r, BIGNUM *x, BIGNUM *y, BIGNUM *n)
{
	BIGNUM *v = bn_new(b);
	BIGNUM *base = x ? BN_dup(x) : NULL;
	uint32_t flags = (rng_chance(r, 25) ? TA_ARITH_F_ALIAS : 0) |
			 (rng_chance(r, 40) ? TA_ARITH_F_CONTEXT : 0) |
			 (rng_chance(r, 20) ? TA_ARITH_F_GP11 : 0);
	struct expect *e = NULL;

	if (!v || !base || !y || !n || !BN_nnmod(base, base, n, b->ctx) ||
	    !BN_mod_exp(v, base, y, n, b->ctx))
		b->broken = true;
	BN_free(base);
	e = record(b, TA_ARITH_EXPMOD, flags, 0,
		   room(r, max_int(n ? BN_num_bits(n) : 0,
				   (flags & TA_ARITH_F_ALIAS) && x ? BN_num_bits(x) : 0)),
		   x, y, n);
	set_out(b, e, v);
}

static void xtest_tee_test_4117(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct batch b;
	struct rng r;
	BIGNUM *p = NULL;

	Do_ADBG_BeginSubCase(c, "ExpMod, odd and even moduli, with and without context");
	if (!batch_open(&b, c, &s))
		return;
	r.s = b.seed;
	add_expmod(&b, &r, bn_s64(&b, 2), bn_s64(&b, 10), bn_s64(&b, 1000));
	add_expmod(&b, &r, bn_s64(&b, -2), bn_s64(&b, 3), bn_s64(&b, 7));
	add_expmod(&b, &r, bn_s64(&b, 5), bn_s64(&b, 0), bn_s64(&b, 2));
	add_expmod(&b, &r, bn_s64(&b, 0), bn_s64(&b, 0), bn_s64(&b, 9));
	/* Fermat on the 4096-bit RFC 3526 prime: 2^(p-1) = 1. */
	p = BN_get_rfc3526_prime_4096(NULL);
	if (p) {
		BIGNUM *e = BN_dup(p);

		if (e && BN_sub_word(e, 1))
			add_expmod(&b, &r, bn_s64(&b, 2), e, p);
		else
			BN_free(e);
	}
	for (unsigned int i = 0; i < scaled(600); i++) {
		int nbits = rng_chance(&r, 90) ? 512 : rng_chance(&r, 80) ? 2048 : MAX_BITS;
		BIGNUM *n = rand_modulus(&b, &r, nbits);
		int eb = rng_chance(&r, 70) ? rand_bits(&r, 64)
					    : (int)rng_below(&r, (uint32_t)nbits + 1);

		add_expmod(&b, &r, rand_bn(&b, &r, n ? BN_num_bits(n) + 8 : 8, true),
			   rand_bn(&b, &r, eb, false), n);
	}
	batch_close(&b, "ExpMod");
	Do_ADBG_EndSubCase(c, NULL);
	PANICS(c, TA_ARITH_PANIC_EXPMOD_NEGATIVE, TA_ARITH_PANIC_EXPMOD_OTHER_CTX);
}
ADBG_CASE_DEFINE(regression, 4117, xtest_tee_test_4117,
		 "Test TEE Internal API Arithmetical API - ExpMod");
