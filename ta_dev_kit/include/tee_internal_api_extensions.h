/*
 * Functions a TA may call beyond the GlobalPlatform TEE Internal Core API,
 * under the names OP-TEE uses.
 */
#ifndef TEE_INTERNAL_API_EXTENSIONS_H
#define TEE_INTERNAL_API_EXTENSIONS_H

#include <stddef.h>
#include <stdint.h>
/* TAs written for OP-TEE expect the log macros and stdio from this header. */
#include <stdio.h>
#include <trace.h>

#include <tee_api_defines_extensions.h>
#include <tee_api_types.h>

/*
 * Cache maintenance on [buf, buf + len) of the TA's own memory. Needs
 * TA_FLAG_CACHE_MAINTENANCE (TEE_ERROR_NOT_SUPPORTED otherwise);
 * TEE_ERROR_ACCESS_DENIED if the range is not writable TA memory.
 */
TEE_Result TEE_CacheClean(char *buf, size_t len);
TEE_Result TEE_CacheFlush(char *buf, size_t len);
TEE_Result TEE_CacheInvalidate(char *buf, size_t len);

/*
 * Maps len bytes of zero-initialised memory; flags is 0 or
 * TEE_MEMORY_ACCESS_ANY_OWNER (memory that may be shared with other TAs).
 * Returns NULL on failure. Release with tee_unmap.
 */
void *tee_map_zi(size_t len, uint32_t flags);
/* As tee_map_zi, at address va if possible (va is a hint, 0 for none). */
void *tee_map_zi_va(uintptr_t va, size_t len, uint32_t flags);
/* buf and len must be exactly those of an earlier tee_map_zi{,_va}. */
TEE_Result tee_unmap(void *buf, size_t len);

/* Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"; TEE_ERROR_BAD_FORMAT if malformed. */
TEE_Result tee_uuid_from_str(TEE_UUID *uuid, const char *s);

/*
 * Calls the supplicant plugin identified by uuid with command cmd/sub_cmd
 * on buf[0..len). The plugin may write back into buf; *outlen (if not
 * NULL) receives the number of bytes it wrote.
 */
TEE_Result tee_invoke_supp_plugin(const TEE_UUID *uuid, uint32_t cmd, uint32_t sub_cmd, void *buf,
				  size_t len, size_t *outlen);

/*
 * Heap leak checking: mark the heap, then later check that everything
 * allocated since the mark was freed (0 when it was).
 */
void tee_user_mem_mark_heap(void);
size_t tee_user_mem_check_heap(void);

#endif /* TEE_INTERNAL_API_EXTENSIONS_H */
