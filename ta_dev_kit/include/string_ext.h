/*
 * String and memory functions OP-TEE's libutils adds to <string.h>. All
 * are functions of the TA runtime.
 */
#ifndef STRING_EXT_H
#define STRING_EXT_H

#include <stddef.h>
#include <string.h>
#include <sys/cdefs.h>

/*
 * Copies src into dst[0..size), truncating, and NUL-terminates it unless
 * size is 0. Returns strlen(src): a result >= size means truncation.
 */
size_t strlcpy(char *dst, const char *src, size_t size);
/*
 * Appends src to the string in dst[0..size), as strlcpy. Returns the length
 * of the string it tried to make, strlen(src) plus the initial length of
 * dst (at most size).
 */
size_t strlcat(char *dst, const char *src, size_t size);

/*
 * Compares p1[0..nb) and p2[0..nb) in time that depends on nb only: 0 when
 * equal, nonzero otherwise (not an ordering, unlike memcmp).
 */
int consttime_memcmp(const void *p1, const void *p2, size_t nb);

/* The older name of consttime_memcmp. */
static inline int buf_compare_ct(const void *s1, const void *s2, size_t n)
{
	return consttime_memcmp(s1, s2, n);
}

/*
 * memset(s, 0, count) that the compiler may not remove as a dead store:
 * for clearing keys and other secrets before their memory is reused.
 */
void memzero_explicit(void *s, size_t count);

#endif /* STRING_EXT_H */
