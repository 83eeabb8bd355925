/*
 * OP-TEE's snprintf variants. They format as the C library's snprintf
 * does, with OP-TEE's extension: %pUl prints the TEE_UUID its argument
 * points to, in lower case ("%pUl", (void *)&uuid). The compiler's format
 * check sees a %p followed by the text "Ul".
 */
#ifndef PRINTK_H
#define PRINTK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* As snprintf and vsnprintf: the length the whole output would have. */
int snprintk(char *str, size_t size, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));
int vsnprintk(char *str, size_t size, const char *fmt, va_list ap)
    __attribute__((__format__(__printf__, 3, 0)));

#endif /* PRINTK_H */
