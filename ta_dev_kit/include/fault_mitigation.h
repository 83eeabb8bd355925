/*
 * OP-TEE's fault-injection mitigation helpers (ftmn_*, FTMN_*): double
 * checks and step counters that make a glitched branch in a sensitive
 * function detectable. They guard against physical fault attacks on the
 * chip running OP-TEE's core; a swtee TA is a host process, outside that
 * threat model (README.md), so they are compiled here as OP-TEE compiles
 * them without CFG_CORE_FAULT_MITIGATION: the checks do nothing, calls go
 * straight through with a NULL ftmn argument, ftmn_return_val returns its
 * value. Code written with them builds and behaves as its plain version.
 */
#ifndef FAULT_MITIGATION_H
#define FAULT_MITIGATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <compiler.h>
#include <config.h>
#include <tee_api.h>
#include <util.h>

#define READ_ONCE(p) __compiler_atomic_load(&(p))
#define WRITE_ONCE(p, v) __compiler_atomic_store(&(p), (v))

struct ftmn_check {
	unsigned long steps;
	unsigned long val;
};

struct ftmn_func_arg {
	unsigned long hash;
	unsigned long ret;
};

/* Step increments: distinct primes, so that step counts add up uniquely. */
enum ftmn_incr {
	FTMN_INCR0 = 7873,
	FTMN_INCR1 = 7877,
	FTMN_INCR2 = 7879,
	FTMN_INCR3 = 7883,
	FTMN_INCR4 = 7901,
	FTMN_INCR5 = 7907,
	FTMN_INCR_RESERVED = 7919,
};

#define FTMN_DEFAULT_HASH ((unsigned long)UINT64_C(0xc478bf63e9500cb5))
/*
 * OP-TEE folds a function's name into a hash. With the mitigation off
 * nothing compares hashes, so this is a cheap constant stand-in.
 */
#define FTMN_FUNC_HASH(name) (FTMN_DEFAULT_HASH ^ (unsigned long)sizeof(name))

/* res = func(args..., NULL): the callee's struct ftmn_func_arg * is NULL. */
#define FTMN_CALL_FUNC(res, ftmn_check, incr, func, ...)                                           \
	do {                                                                                       \
		(res) = func(__VA_ARGS__, NULL);                                                   \
	} while (0)
#define FTMN_CALL_VOID_FUNC(ftmn_check, incr, func, ...)                                           \
	do {                                                                                       \
		func(__VA_ARGS__, NULL);                                                           \
	} while (0)
#define FTMN_CALLEE_DONE(arg, res) ftmn_callee_done((arg), FTMN_FUNC_HASH(__func__), (res))
/*
 * The result of memcmp_func(p1, p2, nb), as the callee's result: with the
 * mitigations, a second comparison would back it; here it is the one call
 * (optee_os's mbedTLS uses it in its RSA verification).
 */
#define FTMN_CALLEE_DONE_MEMCMP(memcmp_func, p1, p2, nb) ((memcmp_func)((p1), (p2), (nb)))

/* The expected step count after c0 steps of FTMN_INCR0, c1 of FTMN_INCR1, ... */
#define FTMN_STEP_COUNT1(c0) ((c0)*FTMN_INCR0)
#define FTMN_STEP_COUNT2(c0, c1) (FTMN_STEP_COUNT1(c0) + (c1)*FTMN_INCR1)
#define FTMN_STEP_COUNT3(c0, c1, c2) (FTMN_STEP_COUNT2(c0, c1) + (c2)*FTMN_INCR2)
#define FTMN_STEP_COUNT4(c0, c1, c2, c3) (FTMN_STEP_COUNT3(c0, c1, c2) + (c3)*FTMN_INCR3)
#define FTMN_STEP_COUNT5(c0, c1, c2, c3, c4) (FTMN_STEP_COUNT4(c0, c1, c2, c3) + (c4)*FTMN_INCR4)
#define FTMN_STEP_COUNT6(c0, c1, c2, c3, c4, c5)                                                   \
	(FTMN_STEP_COUNT5(c0, c1, c2, c3, c4) + (c5)*FTMN_INCR5)

static inline void ftmn_panic(void)
{
	TEE_Panic(0);
}

static inline void ftmn_callee_done(struct ftmn_func_arg *arg __unused, unsigned long hash __unused,
				    unsigned long ret __unused)
{
}

static inline void ftmn_checkpoint(struct ftmn_check *check __unused, enum ftmn_incr incr __unused)
{
}

static inline void ftmn_check_call_done(struct ftmn_func_arg *arg __unused,
					unsigned long hash __unused, unsigned long ret __unused,
					struct ftmn_check *check __unused,
					enum ftmn_incr incr __unused)
{
}

static inline void ftmn_expect_val(struct ftmn_check *check __unused, enum ftmn_incr incr __unused,
				   unsigned long ret __unused, unsigned long val __unused)
{
}

static inline void ftmn_expect_not_val(struct ftmn_check *check __unused,
				       enum ftmn_incr incr __unused, unsigned long ret __unused,
				       unsigned long val __unused)
{
}

static inline void ftmn_save_val(struct ftmn_check *check, enum ftmn_incr incr, unsigned long val)
{
	ftmn_expect_val(check, incr, val, val);
}

static inline void ftmn_save_ptr(struct ftmn_check *check, enum ftmn_incr incr, void *p)
{
	ftmn_save_val(check, incr, (unsigned long)p);
}

static inline void ftmn_expect_nonzero(struct ftmn_check *check, enum ftmn_incr incr,
				       unsigned long ret)
{
	ftmn_expect_not_val(check, incr, ret, 0);
}

static inline void ftmn_expect_null(struct ftmn_check *check, enum ftmn_incr incr, void *p)
{
	ftmn_expect_val(check, incr, (unsigned long)p, 0);
}

static inline void ftmn_expect_not_null(struct ftmn_check *check, enum ftmn_incr incr, void *p)
{
	ftmn_expect_nonzero(check, incr, (unsigned long)p);
}

static inline void ftmn_expect_state(struct ftmn_check *check __unused,
				     unsigned long steps __unused, unsigned long val __unused)
{
}

static inline unsigned long ftmn_return_val(struct ftmn_check *check __unused, unsigned long val)
{
	return val;
}

#endif /* FAULT_MITIGATION_H */
