/*
 * Attribute shorthands TAs written for OP-TEE use without including
 * anything but tee_internal_api.h (which includes this header). Each is
 * defined only when the C library has not defined it already.
 *
 * __unused and __used are also member names in a few Linux headers
 * (<asm/stat.h>, <spawn.h>): include those before this header if a TA
 * needs them.
 */
#ifndef COMPILER_H
#define COMPILER_H

#ifndef __deprecated
#define __deprecated __attribute__((deprecated))
#endif
#ifndef __packed
#define __packed __attribute__((packed))
#endif
#ifndef __weak
#define __weak __attribute__((weak))
#endif
#ifndef __noreturn
#define __noreturn __attribute__((__noreturn__))
#endif
#ifndef __pure
#define __pure __attribute__((pure))
#endif
#ifndef __aligned
#define __aligned(x) __attribute__((aligned(x)))
#endif
#ifndef __printf
#define __printf(fmt, args) __attribute__((format(printf, fmt, args)))
#endif
#ifndef __noinline
#define __noinline __attribute__((noinline))
#endif
#ifndef __attr_const
#define __attr_const __attribute__((__const__))
#endif
#ifndef __unused
#define __unused __attribute__((unused))
#endif
#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif
#ifndef __used
#define __used __attribute__((__used__))
#endif
#ifndef __must_check
#define __must_check __attribute__((warn_unused_result))
#endif
#ifndef __cold
#define __cold __attribute__((__cold__))
#endif
#ifndef __section
#define __section(name) __attribute__((section(name)))
#endif
#ifndef __data
#define __data __section(".data")
#endif
#ifndef __bss
#define __bss __section(".bss")
#endif
#ifndef __rodata
#define __rodata __section(".rodata")
#endif
#ifndef __noprof
#define __noprof __attribute__((no_instrument_function))
#endif
#ifndef __always_inline
#define __always_inline __inline __attribute__((__always_inline__))
#endif
#ifndef __fallthrough
#define __fallthrough __attribute__((__fallthrough__))
#endif

/* Overflow-checked arithmetic: true when the result did not fit *res. */
#define __compiler_add_overflow(a, b, res) __builtin_add_overflow((a), (b), (res))
#define __compiler_sub_overflow(a, b, res) __builtin_sub_overflow((a), (b), (res))
#define __compiler_mul_overflow(a, b, res) __builtin_mul_overflow((a), (b), (res))

#endif /* COMPILER_H */
