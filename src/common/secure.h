/* The one wipe and the one constant-time comparison of the project. */
#ifndef SWTEE_SECURE_H
#define SWTEE_SECURE_H

#include <stdbool.h>
#include <stddef.h>

#include "must_check.h"

/* Overwrites n bytes at p with zeros; never optimised away. p may be NULL. */
void secure_wipe(void *p, size_t n);
#define SECURE_WIPE_VAR(v) secure_wipe(&(v), sizeof(v))
/* Compares n bytes in time that depends on n only. True when equal. */
SWTEE_MUST_CHECK bool secure_equal(const void *a, const void *b, size_t n);

#endif
