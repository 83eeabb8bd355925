/*
 * OP-TEE's atomic helpers. atomic_inc32 and atomic_dec32 are functions of
 * the TA runtime (as in OP-TEE's libutils) and are sequentially consistent;
 * the rest are inline, with the orderings of compiler.h's
 * __compiler_compare_and_swap (acquire) and relaxed loads and stores.
 */
#ifndef ATOMIC_H
#define ATOMIC_H

#include <compiler.h>
#include <types_ext.h>

/* Adds 1 to (subtracts 1 from) *v atomically; returns the new value. */
uint32_t atomic_inc32(volatile uint32_t *v);
uint32_t atomic_dec32(volatile uint32_t *v);

/*
 * Stores nval in *p if *p equals *oval and returns true; otherwise copies
 * *p into *oval and returns false.
 */
static inline bool atomic_cas_uint(unsigned int *p, unsigned int *oval, unsigned int nval)
{
	return __compiler_compare_and_swap(p, oval, nval);
}

static inline bool atomic_cas_u32(uint32_t *p, uint32_t *oval, uint32_t nval)
{
	return __compiler_compare_and_swap(p, oval, nval);
}

static inline unsigned int atomic_load_uint(unsigned int *p)
{
	return __compiler_atomic_load(p);
}

static inline uint32_t atomic_load_u32(uint32_t *p)
{
	return __compiler_atomic_load(p);
}

static inline void atomic_store_uint(unsigned int *p, unsigned int val)
{
	__compiler_atomic_store(p, val);
}

static inline void atomic_store_u32(uint32_t *p, uint32_t val)
{
	__compiler_atomic_store(p, val);
}

#endif /* ATOMIC_H */
