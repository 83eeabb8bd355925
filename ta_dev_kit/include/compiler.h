/*
 * Attribute shorthands TAs written for OP-TEE use without including
 * anything but tee_internal_api.h (which includes this header), under
 * OP-TEE's names.
 *
 * A TA here is a host program built against glibc, so every name below was
 * checked against glibc's and GCC's headers. <sys/cdefs.h> comes first so
 * that glibc's own definitions (__always_inline, ...) win and ours are
 * skipped. Names glibc uses as identifiers are left out or made safe:
 *   - __data is not defined: glibc names members and parameters so
 *     (<pthread.h>'s mutex, <link.h>'s dl_iterate_phdr, <crypt.h>);
 *     write __section(".data") instead;
 *   - __used: <spawn.h> has a member of that name, so it is included first;
 *   - fallthrough and barrier() are C only: libstdc++ uses both names;
 *   - __unused is a member of a few Linux UAPI headers (<linux/sysctl.h>,
 *     <asm/stat.h>): include those before this header if a TA needs them.
 */
#ifndef COMPILER_H
#define COMPILER_H

#include <sys/cdefs.h>
#ifndef __cplusplus
#include <spawn.h>
#endif

#ifndef __deprecated
#define __deprecated __attribute__((deprecated))
#endif
#ifndef __packed
#define __packed __attribute__((packed))
#endif
#ifndef __weak
#define __weak __attribute__((weak))
#endif
#ifndef __alias
#define __alias(x) __attribute__((alias(x)))
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
#if !defined(__used) && !defined(__cplusplus)
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
#ifndef __bss
#define __bss __section(".bss")
#endif
#ifndef __rodata
#define __rodata __section(".rodata")
#endif
#ifndef __noprof
#define __noprof __attribute__((no_instrument_function))
#endif
#ifndef __nostackcheck
#define __nostackcheck __attribute__((no_instrument_function))
#endif
#ifndef __always_inline
#define __always_inline __inline __attribute__((__always_inline__))
#endif
#ifndef __fallthrough
#define __fallthrough __attribute__((__fallthrough__))
#endif
/* Nothing in a TA is paged or shared with a second, nexus, world. */
#define __nex_bss
#define __nex_data
#ifdef __clang__
#define __no_stackprot
#else
#define __no_stackprot __attribute__((__optimize__("-fno-stack-protector")))
#endif
#define __inhibit_loop_to_libcall                                                                  \
	__attribute__((__optimize__("-fno-tree-loop-distribute-patterns")))

#define __compiler_bswap64(x) __builtin_bswap64((x))
#define __compiler_bswap32(x) __builtin_bswap32((x))
#define __compiler_bswap16(x) __builtin_bswap16((x))

/* Every compiler that builds a TA here has the overflow builtins. */
#define __HAVE_BUILTIN_OVERFLOW 1
/* Overflow-checked arithmetic: true when the result did not fit *res. */
#define __compiler_add_overflow(a, b, res) __builtin_add_overflow((a), (b), (res))
#define __compiler_sub_overflow(a, b, res) __builtin_sub_overflow((a), (b), (res))
#define __compiler_mul_overflow(a, b, res) __builtin_mul_overflow((a), (b), (res))

/*
 * OP-TEE's orderings: a compare-and-swap that acquires on success, and
 * relaxed loads and stores (callers add barriers where they need them).
 */
#define __compiler_compare_and_swap(p, oval, nval)                                                 \
	__atomic_compare_exchange_n((p), (oval), (nval), 1, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)
#define __compiler_atomic_load(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define __compiler_atomic_store(p, val) __atomic_store_n((p), (val), __ATOMIC_RELAXED)

#ifndef __cplusplus
/* A compiler barrier: no memory access is moved across it. */
#define barrier() __asm__ volatile("" : : : "memory")
#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif
#endif

#endif /* COMPILER_H */
