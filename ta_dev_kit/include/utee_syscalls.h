/*
 * OP-TEE's _utee_* functions are its TA runtime's system calls into its
 * core. swtee's runtime has no such layer (it reaches its core over its own
 * protocol), so it exports none of them. Those with an exact GP equivalent
 * are given here as inline functions over it; the rest (object, storage,
 * crypto state, property and session calls, _utee_return, _utee_log,
 * _utee_gprof_send) are left out, so a TA calling one is told so when it
 * builds (an implicit declaration), not when it loads. Call the GP API
 * instead.
 */
#ifndef UTEE_SYSCALLS_H
#define UTEE_SYSCALLS_H

#include <compiler.h>
#include <stddef.h>
#include <stdint.h>
#include <tee_api_types.h>
#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>
#include <trace.h>
#include <utee_types.h>

static inline void _utee_panic(unsigned long code)
{
	TEE_Panic((TEE_Result)code);
}

static inline TEE_Result _utee_check_access_rights(uint32_t flags, const void *buf, size_t len)
{
	return TEE_CheckMemoryAccessRights(flags, (void *)(uintptr_t)buf, len);
}

static inline TEE_Result _utee_get_cancellation_flag(uint32_t *cancel)
{
	*cancel = TEE_GetCancellationFlag();
	return TEE_SUCCESS;
}

static inline TEE_Result _utee_unmask_cancellation(uint32_t *old_mask)
{
	*old_mask = TEE_UnmaskCancellation();
	return TEE_SUCCESS;
}

static inline TEE_Result _utee_mask_cancellation(uint32_t *old_mask)
{
	*old_mask = TEE_MaskCancellation();
	return TEE_SUCCESS;
}

static inline TEE_Result _utee_wait(unsigned long timeout)
{
	return TEE_Wait((uint32_t)timeout);
}

/* cat: an enum utee_time_category */
static inline TEE_Result _utee_get_time(unsigned long cat, TEE_Time *time)
{
	switch (cat) {
	case UTEE_TIME_CAT_SYSTEM:
		TEE_GetSystemTime(time);
		return TEE_SUCCESS;
	case UTEE_TIME_CAT_TA_PERSISTENT:
		return TEE_GetTAPersistentTime(time);
	case UTEE_TIME_CAT_REE:
		TEE_GetREETime(time);
		return TEE_SUCCESS;
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}

static inline TEE_Result _utee_set_ta_time(const TEE_Time *time)
{
	return TEE_SetTAPersistentTime(time);
}

static inline TEE_Result _utee_cryp_random_number_generate(void *buf, size_t blen)
{
	TEE_GenerateRandom(buf, blen);
	return TEE_SUCCESS;
}

/* op: an enum utee_cache_operation */
static inline TEE_Result _utee_cache_operation(void *va, size_t l, unsigned long op)
{
	switch (op) {
	case TEE_CACHECLEAN:
		return TEE_CacheClean((char *)va, l);
	case TEE_CACHEFLUSH:
		return TEE_CacheFlush((char *)va, l);
	case TEE_CACHEINVALIDATE:
		return TEE_CacheInvalidate((char *)va, l);
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}

#endif
