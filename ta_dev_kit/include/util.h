/*
 * Small helpers OP-TEE TAs take from <util.h>. Macros that the C library
 * may define too (MIN, MAX) are defined only when it has not.
 */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <compiler.h>

#define SIZE_4K UINTPTR_C(0x1000)
#define SIZE_1M UINTPTR_C(0x100000)

#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#define MAX_UNSAFE(a, b) MAX(a, b)
#define MIN_UNSAFE(a, b) MIN(a, b)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#endif

/* v rounded up or down to a multiple of size, a power of two. */
#define ROUNDUP(v, size) (((v) + ((__typeof__(v))(size)-1)) & ~((__typeof__(v))(size)-1))
#define ROUNDDOWN(v, size) ((v) & ~((__typeof__(v))(size)-1))
#define DIV_ROUND_UP(x, y) (((x) + (y)-1) / (y))
#define IS_POWER_OF_TWO(x) (((x) != 0) && (((x) & (~(x) + 1)) == (x)))
#define IS_ALIGNED(x, a) (((x) & ((a)-1)) == 0)
#define IS_ALIGNED_WITH_TYPE(x, type) IS_ALIGNED((uintptr_t)(x), _Alignof(type))

#define BIT32(nr) (UINT32_C(1) << (nr))
#define BIT64(nr) (UINT64_C(1) << (nr))
#define BIT(nr) BIT32(nr)
#define SHIFT_U32(v, shift) ((uint32_t)(v) << (shift))
#define SHIFT_U64(v, shift) ((uint64_t)(v) << (shift))
/* Bits h down to l set, h >= l. */
#define GENMASK_32(h, l) ((UINT32_MAX << (l)) & (UINT32_MAX >> (31 - (h))))
#define GENMASK_64(h, l) ((UINT64_MAX << (l)) & (UINT64_MAX >> (63 - (h))))

/* True when the result did not fit *res. */
#define ADD_OVERFLOW(a, b, res) __compiler_add_overflow((a), (b), (res))
#define SUB_OVERFLOW(a, b, res) __compiler_sub_overflow((a), (b), (res))
#define MUL_OVERFLOW(a, b, res) __compiler_mul_overflow((a), (b), (res))

#ifndef container_of
#define container_of(ptr, type, member) ((type *)((uintptr_t)(ptr)-offsetof(type, member)))
#endif

#define TO_STR(x) _TO_STR(x)
#define _TO_STR(x) #x
#define CONCAT(x, y) _CONCAT(x, y)
#define _CONCAT(x, y) x##y

#endif /* UTIL_H */
