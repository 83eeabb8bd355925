/*
 * BSD bit strings, as OP-TEE's libutils has them: an array of bitstr_t
 * holding bit 0 in the low bit of byte 0. bit_decl declares one, bit_alloc
 * mallocs one (free() it), and bit_ffs/bit_ffc store in *value the index
 * of the first set/clear bit among the first nbits, or -1 if none.
 * bit_nset/bit_nclear act on bits start through stop, both included.
 */
#ifndef BITSTRING_H
#define BITSTRING_H

#include <stdlib.h>

typedef unsigned char bitstr_t;

#define __bitstr_byte(bit) ((bit) >> 3)
#define __bitstr_mask(bit) (1 << ((bit)&0x7))

/* Bytes a bit string of nbits bits takes. */
#define bitstr_size(nbits) (((nbits) + 7) >> 3)
#define bit_alloc(nbits) ((bitstr_t *)calloc((size_t)bitstr_size(nbits), sizeof(bitstr_t)))
#define bit_decl(name, nbits) ((name)[bitstr_size(nbits)])

#define bit_test(name, bit) ((name)[__bitstr_byte(bit)] & __bitstr_mask(bit))
#define bit_set(name, bit) ((name)[__bitstr_byte(bit)] |= __bitstr_mask(bit))
#define bit_clear(name, bit) ((name)[__bitstr_byte(bit)] &= ~__bitstr_mask(bit))

static inline void __bitstr_nset(bitstr_t *name, int start, int stop)
{
	for (int i = start; i <= stop; i++)
		bit_set(name, i);
}

static inline void __bitstr_nclear(bitstr_t *name, int start, int stop)
{
	for (int i = start; i <= stop; i++)
		bit_clear(name, i);
}

/* The first bit among nbits whose state is set (1) or clear (0), or -1. */
static inline int __bitstr_find(const bitstr_t *name, int nbits, int set)
{
	for (int i = 0; i < nbits; i++) {
		if (!bit_test(name, i) == !set)
			return i;
	}
	return -1;
}

#define bit_nset(name, start, stop) __bitstr_nset((name), (start), (stop))
#define bit_nclear(name, start, stop) __bitstr_nclear((name), (start), (stop))
#define bit_ffs(name, nbits, value) (*(value) = __bitstr_find((name), (nbits), 1))
#define bit_ffc(name, nbits, value) (*(value) = __bitstr_find((name), (nbits), 0))

#endif /* BITSTRING_H */
