#ifndef FEATLIB_H
#define FEATLIB_H

#include <stdint.h>

#define FEATLIB_MAGIC 0xfeedbeefu

uint32_t featlib_magic(void);

#endif
