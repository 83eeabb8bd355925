#include "secure.h"

#include <stdint.h>
#include <string.h>

void secure_wipe(void *p, size_t n)
{
	if (p && n)
		explicit_bzero(p, n);
}

bool secure_equal(const void *a, const void *b, size_t n)
{
	const volatile uint8_t *x = a;
	const volatile uint8_t *y = b;
	uint8_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= x[i] ^ y[i];
	return d == 0;
}
