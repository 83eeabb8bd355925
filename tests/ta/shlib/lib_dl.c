/*
 * The "dl" TA library: the TA does not link it but loads it with dlopen()
 * once running. It links "base", and reaches the TA's own shlib_trace.
 */
#include <tee_internal_api.h>

#include "shlib_trace.h"
#include "ta_shlib.h"

static void __attribute__((constructor)) dl_init(void)
{
	shlib_trace_add(SHLIB_ID_DL);
}

__attribute__((visibility("default"))) int shlib_dl_twice(int a)
{
	return shlib_base_mul(a, 2);
}

__attribute__((visibility("default"))) void shlib_dl_panic(void)
{
	TEE_Panic(TA_SHLIB_DL_PANIC_CODE);
}
