/*
 * confine_array_index(index, size): index when index < size, else 0, with
 * no branch the CPU could speculate past (a Spectre v1 guard). Use it
 * after the ordinary bounds check, on the index that is then used:
 *
 *	if (i >= n)
 *		return TEE_ERROR_BAD_PARAMETERS;
 *	v = table[confine_array_index(i, n)];
 */
#ifndef CONFINE_ARRAY_INDEX_H
#define CONFINE_ARRAY_INDEX_H

#include <stddef.h>

#if defined(__x86_64__)
static inline size_t confine_array_index(size_t index, size_t size)
{
	size_t safe = 0;

	/* cmov depends on the comparison's flags, so it waits for them. */
	__asm__("cmp %[size], %[index]\n\tcmovb %[index], %[safe]"
		: [safe] "+r"(safe)
		: [index] "r"(index), [size] "r"(size)
		: "cc");
	return safe;
}
#elif defined(__aarch64__)
static inline size_t confine_array_index(size_t index, size_t size)
{
	size_t safe;

	/* csel, then CSDB so that no later load uses a speculated value. */
	__asm__("cmp %[index], %[size]\n\tcsel %[safe], %[index], xzr, lo\n\thint #20"
		: [safe] "=r"(safe)
		: [index] "r"(index), [size] "r"(size)
		: "cc");
	return safe;
}
#else
static inline size_t confine_array_index(size_t index, size_t size)
{
	/* All ones when index < size, computed without a branch. */
	size_t mask = (size_t)0 - (size_t)(index < size);

	return index & mask;
}
#endif

#endif /* CONFINE_ARRAY_INDEX_H */
