/* Built from sub/sub.mk: its own flags and include directory. */
#include <stdint.h>

#include <features_ta.h>
#include <sub_private.h>

uint32_t features_sub_bits(void);

uint32_t features_sub_bits(void)
{
	uint32_t bits = 0;

#if defined(SUB_FLAG) && SUB_FLAG == 3
	bits |= SUB_CFLAGS_Y;
#endif
#ifndef TOP_FLAG
	bits |= SUB_NO_TOP_FLAGS;
#endif
#ifdef __SWTEE__
	bits |= SUB_KIT_FLAGS;
#endif
#if SUB_PRIVATE_MAGIC == 0x5b
	bits |= SUB_INCDIRS_Y;
#endif
	return bits;
}
