#include <featlib.h>

uint32_t featlib_magic(void)
{
	return FEATLIB_MAGIC;
}
