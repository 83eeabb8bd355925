/* The "top" TA library: the TA links it; it links "base". */
#include "shlib_trace.h"
#include "ta_shlib.h"

static void __attribute__((constructor)) top_init(void)
{
	shlib_trace_add(SHLIB_ID_TOP);
}

__attribute__((visibility("default"))) int shlib_top_add_mul(int a, int b)
{
	return a + shlib_base_mul(a, b);
}
