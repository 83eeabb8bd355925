/*
 * GP arithmetic: greatest common divisor, Bezout coefficients and the
 * primality test.
 */
#include "arith.h"
#include "runtime.h"

/* GP: a confidence level below 80 counts as 80. swtee stops at 256. */
#define CONFIDENCE_MIN 80u
#define CONFIDENCE_MAX 256u
/* No composite below 1009^2 escapes trial division by the primes below 1000. */
#define TRIAL_LIMIT (1009ul * 1009ul)

static const uint16_t small_primes[] = {
    2,	 3,   5,   7,	11,  13,  17,  19,  23,	 29,  31,  37,	41,  43,  47,  53,  59,	 61,  67,
    71,	 73,  79,  83,	89,  97,  101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163,
    167, 173, 179, 181, 191, 193, 197, 199, 211, 223, 227, 229, 233, 239, 241, 251, 257, 263, 269,
    271, 277, 281, 283, 293, 307, 311, 313, 317, 331, 337, 347, 349, 353, 359, 367, 373, 379, 383,
    389, 397, 401, 409, 419, 421, 431, 433, 439, 443, 449, 457, 461, 463, 467, 479, 487, 491, 499,
    503, 509, 521, 523, 541, 547, 557, 563, 569, 571, 577, 587, 593, 599, 601, 607, 613, 617, 619,
    631, 641, 643, 647, 653, 659, 661, 673, 677, 683, 691, 701, 709, 719, 727, 733, 739, 743, 751,
    757, 761, 769, 773, 787, 797, 809, 811, 821, 823, 827, 829, 839, 853, 857, 859, 863, 877, 881,
    883, 887, 907, 911, 919, 929, 937, 941, 947, 953, 967, 971, 977, 983, 991, 997,
};

/* Miller-Rabin with these bases is exact below 3.3 * 10^24, so for 64 bits. */
static const uint8_t exact_bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};

bool TEE_BigIntRelativePrime(const TEE_BigInt *op1, const TEE_BigInt *op2)
{
	static const char func[] = "TEE_BigIntRelativePrime";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *a = NULL;
	BIGNUM *b = NULL;
	BIGNUM *g = NULL;
	bool res = false;

	BN_CTX_start(ctx);
	a = rt_bigint_get(ctx, func);
	b = rt_bigint_get(ctx, func);
	g = rt_bigint_get(ctx, func);
	rt_bigint_read(op1, a, func);
	rt_bigint_read(op2, b, func);
	BN_set_negative(a, 0);
	BN_set_negative(b, 0);
	if (!BN_gcd(g, a, b, ctx))
		rt_bigint_fail(func);
	res = BN_is_one(g);
	BN_CTX_end(ctx);
	return res;
}

static void swap(BIGNUM **x, BIGNUM **y)
{
	BIGNUM *t = *x;

	*x = *y;
	*y = t;
}

/*
 * gcd = u * op1 + v * op2 with gcd >= 0, by the extended Euclidean
 * algorithm on |op1| and |op2|: |u| <= |op2| and |v| <= |op1|, so u and v fit
 * arrays the size of the operands. u and v may be NULL.
 */
void TEE_BigIntComputeExtendedGcd(TEE_BigInt *gcd, TEE_BigInt *u, TEE_BigInt *v,
				  const TEE_BigInt *op1, const TEE_BigInt *op2)
{
	static const char func[] = "TEE_BigIntComputeExtendedGcd";
	BN_CTX *ctx = rt_bigint_ctx(func);
	BIGNUM *r0 = NULL;
	BIGNUM *r1 = NULL;
	BIGNUM *s0 = NULL;
	BIGNUM *s1 = NULL;
	BIGNUM *t0 = NULL;
	BIGNUM *t1 = NULL;
	BIGNUM *q = NULL;
	BIGNUM *tmp = NULL;
	bool neg1 = false;
	bool neg2 = false;

	if (!gcd || (u && (u == v || u == gcd)) || (v && v == gcd))
		rt_bigint_panic(func);
	BN_CTX_start(ctx);
	r0 = rt_bigint_get(ctx, func);
	r1 = rt_bigint_get(ctx, func);
	s0 = rt_bigint_get(ctx, func);
	s1 = rt_bigint_get(ctx, func);
	t0 = rt_bigint_get(ctx, func);
	t1 = rt_bigint_get(ctx, func);
	q = rt_bigint_get(ctx, func);
	tmp = rt_bigint_get(ctx, func);
	rt_bigint_read(op1, r0, func);
	rt_bigint_read(op2, r1, func);
	neg1 = BN_is_negative(r0);
	neg2 = BN_is_negative(r1);
	BN_set_negative(r0, 0);
	BN_set_negative(r1, 0);
	if (!BN_one(s0) || !BN_one(t1))
		rt_bigint_fail(func);
	BN_zero(s1);
	BN_zero(t0);
	while (!BN_is_zero(r1)) {
		if (!BN_div(q, tmp, r0, r1, ctx))
			rt_bigint_fail(func);
		swap(&r0, &r1);
		swap(&r1, &tmp);
		if (!BN_mul(tmp, q, s1, ctx) || !BN_sub(tmp, s0, tmp))
			rt_bigint_fail(func);
		swap(&s0, &s1);
		swap(&s1, &tmp);
		if (!BN_mul(tmp, q, t1, ctx) || !BN_sub(tmp, t0, tmp))
			rt_bigint_fail(func);
		swap(&t0, &t1);
		swap(&t1, &tmp);
	}
	if (neg1)
		BN_set_negative(s0, !BN_is_negative(s0));
	if (neg2)
		BN_set_negative(t0, !BN_is_negative(t0));
	rt_bigint_write_or_panic(gcd, r0, func);
	if (u)
		rt_bigint_write_or_panic(u, s0, func);
	if (v)
		rt_bigint_write_or_panic(v, t0, func);
	BN_CTX_end(ctx);
}

/* One Miller-Rabin round: false when base witnesses that n is composite. */
static bool mr_round(const BIGNUM *base, const BIGNUM *n, const BIGNUM *n1, const BIGNUM *d, int s,
		     BN_CTX *ctx, BN_MONT_CTX *mont, const char *func)
{
	BIGNUM *x = rt_bigint_get(ctx, func);

	if (!BN_mod_exp_mont(x, base, d, n, ctx, mont))
		rt_bigint_fail(func);
	if (BN_is_one(x) || !BN_cmp(x, n1))
		return true;
	for (int j = 1; j < s; j++) {
		if (!BN_mod_sqr(x, x, n, ctx))
			rt_bigint_fail(func);
		if (!BN_cmp(x, n1))
			return true;
	}
	return false;
}

/* n is odd, above TRIAL_LIMIT and free of small factors. */
static int32_t miller_rabin(const BIGNUM *n, uint32_t rounds, bool exact, BN_CTX *ctx,
			    const char *func)
{
	BN_MONT_CTX *mont = BN_MONT_CTX_new();
	BIGNUM *n1 = NULL;
	BIGNUM *d = NULL;
	BIGNUM *range = NULL;
	BIGNUM *base = NULL;
	int32_t res = exact ? 1 : -1;
	int s = 0;

	if (!mont)
		rt_bigint_fail(func);
	BN_CTX_start(ctx);
	n1 = rt_bigint_get(ctx, func);
	d = rt_bigint_get(ctx, func);
	range = rt_bigint_get(ctx, func);
	base = rt_bigint_get(ctx, func);
	if (!BN_MONT_CTX_set(mont, n, ctx) || !BN_sub(n1, n, BN_value_one()) ||
	    !BN_copy(range, n1) || !BN_sub_word(range, 2))
		rt_bigint_fail(func);
	while (!BN_is_bit_set(n1, s))
		s++;
	if (!BN_rshift(d, n1, s))
		rt_bigint_fail(func);
	for (uint32_t i = 0; i < rounds; i++) {
		bool passed = false;

		/* Random bases in [2, n - 2], or the fixed ones. */
		if (exact) {
			if (!BN_set_word(base, exact_bases[i]))
				rt_bigint_fail(func);
		} else if (!BN_priv_rand_range(base, range) || !BN_add_word(base, 2)) {
			rt_bigint_fail(func);
		}
		BN_CTX_start(ctx);
		passed = mr_round(base, n, n1, d, s, ctx, mont, func);
		BN_CTX_end(ctx);
		if (!passed) {
			res = 0;
			break;
		}
	}
	BN_CTX_end(ctx);
	BN_MONT_CTX_free(mont);
	return res;
}

/*
 * 0: composite. 1: prime, for certain (all values below 2^64). -1: no
 * witness of compositeness in ceil(confidence / 2) random Miller-Rabin rounds,
 * so composite with probability below 2^-confidence. The sign is ignored.
 */
int32_t TEE_BigIntIsProbablePrime(const TEE_BigInt *op, uint32_t confidenceLevel)
{
	static const char func[] = "TEE_BigIntIsProbablePrime";
	BN_CTX *ctx = rt_bigint_ctx(func);
	uint32_t level = confidenceLevel;
	BIGNUM *n = NULL;
	int32_t res = 0;

	BN_CTX_start(ctx);
	n = rt_bigint_get(ctx, func);
	rt_bigint_read(op, n, func);
	BN_set_negative(n, 0);
	if (BN_num_bits(n) < 2)
		goto out;
	for (size_t i = 0; i < sizeof(small_primes) / sizeof(small_primes[0]); i++) {
		BN_ULONG rem = 0;

		if (BN_is_word(n, small_primes[i])) {
			res = 1;
			goto out;
		}
		rem = BN_mod_word(n, small_primes[i]);
		if (rem == (BN_ULONG)-1)
			rt_bigint_fail(func);
		if (!rem)
			goto out;
	}
	if (BN_num_bits(n) <= 32 && BN_get_word(n) < TRIAL_LIMIT) {
		res = 1;
		goto out;
	}
	if (level < CONFIDENCE_MIN)
		level = CONFIDENCE_MIN;
	if (level > CONFIDENCE_MAX)
		level = CONFIDENCE_MAX;
	if (BN_num_bits(n) <= 64)
		res = miller_rabin(n, sizeof(exact_bases), true, ctx, func);
	else
		res = miller_rabin(n, (level + 1) / 2, false, ctx, func);
out:
	BN_CTX_end(ctx);
	return res;
}
