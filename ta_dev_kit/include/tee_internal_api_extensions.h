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
 * Cache maintenance on [buf, buf + len), which must be a client's memref
 * of the running operation, as in OP-TEE (never the TA's own memory).
 * Needs TA_FLAG_CACHE_MAINTENANCE (TEE_ERROR_NOT_SUPPORTED otherwise);
 * TEE_ERROR_ACCESS_DENIED for any other range. Memory here is coherent,
 * so beyond these checks there is nothing to do.
 */
TEE_Result TEE_CacheClean(char *buf, size_t len);
TEE_Result TEE_CacheFlush(char *buf, size_t len);
TEE_Result TEE_CacheInvalidate(char *buf, size_t len);

/*
 * Maps len (> 0) bytes of zero-initialised, readable and writable memory,
 * whole pages; flags is 0 or TEE_MEMORY_ACCESS_ANY_OWNER (memory that may
 * be shared with other TAs). Returns NULL on failure or other flags.
 * Release with tee_unmap.
 */
void *tee_map_zi(size_t len, uint32_t flags);
/* As tee_map_zi, at exactly va (page-aligned) unless va is 0; NULL if va is taken. */
void *tee_map_zi_va(uintptr_t va, size_t len, uint32_t flags);
/*
 * buf and len must be exactly those of an earlier tee_map_zi{,_va};
 * TEE_ERROR_BAD_PARAMETERS for anything else (nothing is unmapped).
 */
TEE_Result tee_unmap(void *buf, size_t len);

/*
 * Parses "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (hex digits of either case)
 * into *uuid; TEE_ERROR_BAD_FORMAT, *uuid untouched, if s is malformed.
 */
TEE_Result tee_uuid_from_str(TEE_UUID *uuid, const char *s);

/*
 * Calls the supplicant plugin identified by uuid with command cmd/sub_cmd
 * on buf[0..len). The plugin may write back into buf; *outlen (if not
 * NULL) receives the number of bytes it wrote. swtee's supplicant has no
 * plugins: TEE_ERROR_NOT_SUPPORTED (TEE_ERROR_BAD_PARAMETERS for a NULL
 * uuid, or a NULL buf with len), *outlen 0.
 */
TEE_Result tee_invoke_supp_plugin(const TEE_UUID *uuid, uint32_t cmd, uint32_t sub_cmd, void *buf,
				  size_t len, size_t *outlen);

/*
 * Heap leak checking: mark the heap, then later check that everything
 * allocated since the mark was freed: the bytes held beyond the mark, 0
 * when none. Counts the C library's heap (malloc, calloc, strdup, ...),
 * where small freed blocks kept in glibc's per-thread cache still count;
 * TEE_Malloc's blocks are not counted.
 */
void tee_user_mem_mark_heap(void);
size_t tee_user_mem_check_heap(void);

#endif /* TEE_INTERNAL_API_EXTENSIONS_H */
