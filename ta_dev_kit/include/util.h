/*
 * Small helpers OP-TEE TAs take from <util.h>, with OP-TEE's names and
 * semantics: MAX, MIN, ROUNDUP_DIV, CMP_TRILEAN and container_of evaluate
 * each argument once. Macros that the C library may define too (MIN, MAX)
 * are defined only when it has not.
 */
#ifndef UTIL_H
#define UTIL_H

#include <assert.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include <compiler.h>
#include <config.h>

/* OP-TEE's libc has it, C's <stdint.h> does not: a uintptr_t constant. */
#ifndef UINTPTR_C
#if __SIZEOF_POINTER__ == __SIZEOF_LONG__
#define UINTPTR_C(c) c##UL
#else
#define UINTPTR_C(c) c##ULL
#endif
#endif

#define SIZE_4K UINTPTR_C(0x1000)
#define SIZE_1M UINTPTR_C(0x100000)
#define SIZE_2M UINTPTR_C(0x200000)
#define SIZE_4M UINTPTR_C(0x400000)
#define SIZE_8M UINTPTR_C(0x800000)
#define SIZE_2G UINTPTR_C(0x80000000)

/*
 * Integer constants of the types OP-TEE's register and address code wants;
 * C only, as C++ code names template parameters U.
 */
#ifndef __cplusplus
#ifndef U
#define U(v) v##U
#endif
#ifndef UL
#define UL(v) v##UL
#endif
#ifndef ULL
#define ULL(v) v##ULL
#endif
#endif

/*
 * The macros below that evaluate each argument once keep the values in
 * locals named with __COUNTER__ (__UNIQ), so that one nested in another's
 * arguments, MIN(MIN(a, b), c), declares no local that shadows another
 * (-Wshadow, which the kit turns on).
 */
#define __UNIQ(name) CONCAT(name, __COUNTER__)
#define __MAX_ONCE(a, b, x, y)                                                                     \
	(__extension__({                                                                           \
		__typeof__(a) x = (a);                                                             \
		__typeof__(b) y = (b);                                                             \
		x > y ? x : y;                                                                     \
	}))
#define __MIN_ONCE(a, b, x, y)                                                                     \
	(__extension__({                                                                           \
		__typeof__(a) x = (a);                                                             \
		__typeof__(b) y = (b);                                                             \
		x < y ? x : y;                                                                     \
	}))
#ifndef MAX
#define MAX(a, b) __MAX_ONCE(a, b, __UNIQ(__max_a), __UNIQ(__max_b))
#endif
#ifndef MIN
#define MIN(a, b) __MIN_ONCE(a, b, __UNIQ(__min_a), __UNIQ(__min_b))
#endif
/* For constant expressions (a static array size, say): arguments evaluated twice. */
#define MAX_UNSAFE(a, b) (((a) > (b)) ? (a) : (b))
#define MIN_UNSAFE(a, b) (((a) < (b)) ? (a) : (b))

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#endif

/*
 * Fails the build when x, an integer constant expression, is false. OP-TEE
 * allows it inside functions; here it works at file scope too.
 */
#ifdef __cplusplus
#define COMPILE_TIME_ASSERT(x) static_assert((x), "COMPILE_TIME_ASSERT(" #x ")")
#else
#define COMPILE_TIME_ASSERT(x) _Static_assert((x), "COMPILE_TIME_ASSERT(" #x ")")
#endif

/* x has to be of an unsigned type */
#define IS_POWER_OF_TWO(x) (((x) != 0) && (((x) & (~(x) + 1)) == (x)))

/* v rounded up or down to a multiple of size, a power of two. */
#define __ROUNDUP(v, size) (((v) + ((__typeof__(v))(size)-1)) & ~((__typeof__(v))(size)-1))
#define __ROUNDDOWN(v, size) ((v) & ~((__typeof__(v))(size)-1))
#define ROUNDUP(v, size) __ROUNDUP(v, size)
#define ROUNDDOWN(v, size) __ROUNDDOWN(v, size)
/* The same, asserting (in a debug build) that a variable size is a power of two. */
#define ROUNDUP_VAR(v, size)                                                                       \
	(__extension__({                                                                           \
		assert(IS_POWER_OF_TWO(size));                                                     \
		__ROUNDUP((v), (size));                                                            \
	}))
#define ROUNDDOWN_VAR(v, size)                                                                     \
	(__extension__({                                                                           \
		assert(IS_POWER_OF_TWO(size));                                                     \
		__ROUNDDOWN((v), (size));                                                          \
	}))
/* Any size, not only powers of two. */
#define ROUNDUP2(v, size) ((((v) + (size)-1) / (size)) * (size))
#define ROUNDDOWN2(v, size) (((v) / (size)) * (size))

/*
 * v rounded up to a multiple of size (a power of two) into *res; true, and
 * *res untouched, when that does not fit *res.
 */
#define ROUNDUP_OVERFLOW(v, size, res)                                                             \
	(__extension__({                                                                           \
		__typeof__(*(res)) __ru_tmp = 0;                                                   \
		__typeof__(v) __ru_mask = (__typeof__(v))(size)-1;                                 \
                                                                                                   \
		ADD_OVERFLOW((v), __ru_mask, &__ru_tmp)                                            \
		? 1 : ((void)(*(res) = __ru_tmp & ~__ru_mask), 0);                                 \
	}))
#define ROUNDUP_OVERFLOW_VAR(v, size, res) ROUNDUP_OVERFLOW(v, size, res)

/*
 * x / y rounded up, y a power of two, without the overflow x + y - 1 could
 * have (bytes to pages: ROUNDUP_DIV(len, SIZE_4K)). Inside a function, as
 * in OP-TEE; with constant arguments it is a constant expression there (for
 * COMPILE_TIME_ASSERT), otherwise each argument is evaluated once.
 */
#define __ROUNDUP_DIV_CONST(x, y) ((x) / (y) + (((x) & ((__typeof__(x))(y)-1)) ? 1 : 0))
#define __ROUNDUP_DIV_VARS(x, y, vx, vy)                                                           \
	(__extension__({                                                                           \
		__typeof__(x) vx = (x);                                                            \
		__typeof__(x) vy = (__typeof__(x))(y);                                             \
                                                                                                   \
		__ROUNDUP_DIV_CONST(vx, vy);                                                       \
	}))
#define ROUNDUP_DIV(x, y)                                                                          \
	__builtin_choose_expr(__builtin_constant_p(x) && __builtin_constant_p(y),                  \
			      __ROUNDUP_DIV_CONST(x, y),                                           \
			      __ROUNDUP_DIV_VARS(x, y, __UNIQ(__rud_x), __UNIQ(__rud_y)))
#define DIV_ROUND_UP(x, y) (((x) + (y)-1) / (y))
/* Unsigned division rounded to the nearest integer. */
#define __UDIV_ROUND_NEAREST_VARS(x, y, vx, vy)                                                    \
	(__extension__({                                                                           \
		__typeof__(x) vx = (x);                                                            \
		__typeof__(y) vy = (y);                                                            \
		(vx + (vy / 2)) / vy;                                                              \
	}))
#define UDIV_ROUND_NEAREST(x, y) __UDIV_ROUND_NEAREST_VARS(x, y, __UNIQ(__udrn_x), __UNIQ(__udrn_y))

#define IS_ALIGNED(x, a) (((x) & ((a)-1)) == 0)
#define IS_ALIGNED_WITH_TYPE(x, type) IS_ALIGNED((uintptr_t)(x), _Alignof(type))
#define ALIGNMENT_IS_OK(p, type) (((uintptr_t)(p) & (_Alignof(type) - 1)) == 0)

#define TO_STR(x) _TO_STR(x)
#define _TO_STR(x) #x
#define CONCAT(x, y) _CONCAT(x, y)
#define _CONCAT(x, y) x##y

/* The structure of type whose member is *ptr; ptr must point to such a member. */
#ifndef container_of
#define container_of(ptr, type, member)                                                            \
	(__extension__({                                                                           \
		const __typeof__(((type *)0)->member) *__co_ptr = (ptr);                           \
		(type *)((uintptr_t)(__co_ptr)-offsetof(type, member));                            \
	}))
#endif
#define MEMBER_SIZE(type, member) sizeof(((type *)0)->member)

#define BIT32(nr) (UINT32_C(1) << (nr))
#define BIT64(nr) (UINT64_C(1) << (nr))
#define BIT(nr) BIT32(nr)
#define SHIFT_U32(v, shift) ((uint32_t)(v) << (shift))
#define SHIFT_U64(v, shift) ((uint64_t)(v) << (shift))
/* Bits h down to l set, h >= l: GENMASK_64(39, 21) is 0x000000ffffe00000. */
#define GENMASK_32(h, l) ((UINT32_MAX << (l)) & (UINT32_MAX >> (31 - (h))))
#define GENMASK_64(h, l) ((UINT64_MAX << (l)) & (UINT64_MAX >> (63 - (h))))

/* True when the result did not fit *res (whose value is then unspecified). */
#define ADD_OVERFLOW(a, b, res) __compiler_add_overflow((a), (b), (res))
#define SUB_OVERFLOW(a, b, res) __compiler_sub_overflow((a), (b), (res))
#define MUL_OVERFLOW(a, b, res) __compiler_mul_overflow((a), (b), (res))

/* 1, 0 or -1 as a is greater than, equal to or less than b. */
#define __CMP_TRILEAN_VARS(a, b, x, y)                                                             \
	(__extension__({                                                                           \
		__typeof__(a) x = (a);                                                             \
		__typeof__(b) y = (b);                                                             \
		x > y ? 1 : (x < y ? -1 : 0);                                                      \
	}))
#define CMP_TRILEAN(a, b) __CMP_TRILEAN_VARS(a, b, __UNIQ(__ct_a), __UNIQ(__ct_b))

static inline uint64_t reg_pair_to_64(uint32_t reg0, uint32_t reg1)
{
	return (uint64_t)reg0 << 32 | reg1;
}

static inline uint32_t high32_from_64(uint64_t val)
{
	return (uint32_t)(val >> 32);
}

static inline uint32_t low32_from_64(uint64_t val)
{
	return (uint32_t)val;
}

static inline void reg_pair_from_64(uint64_t val, uint32_t *reg0, uint32_t *reg1)
{
	*reg0 = high32_from_64(val);
	*reg1 = low32_from_64(val);
}

/* The field mask selects in reg, shifted down; mask must not be 0. */
static inline uint32_t get_field_u32(uint32_t reg, uint32_t mask)
{
	return (reg & mask) / (mask & ~(mask - 1));
}

/* reg with the field mask selects replaced by val. */
static inline uint32_t set_field_u32(uint32_t reg, uint32_t mask, uint32_t val)
{
	return (reg & ~mask) | (val * (mask & ~(mask - 1)));
}

static inline uint64_t get_field_u64(uint64_t reg, uint64_t mask)
{
	return (reg & mask) / (mask & ~(mask - 1));
}

static inline uint64_t set_field_u64(uint64_t reg, uint64_t mask, uint64_t val)
{
	return (reg & ~mask) | (val * (mask & ~(mask - 1)));
}

#endif /* UTIL_H */
