/* The "base" TA library: needed by "top", needs nothing of its own. */
#include "shlib_trace.h"
#include "ta_shlib.h"

static void __attribute__((constructor)) base_init(void)
{
	shlib_trace_add(SHLIB_ID_BASE);
}

__attribute__((visibility("default"))) int shlib_base_mul(int a, int b)
{
	return a * b;
}
