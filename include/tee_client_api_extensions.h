/*
 * TEE Client API extensions beyond GlobalPlatform, under the names OP-TEE's
 * libteec uses.
 */
#ifndef TEE_CLIENT_API_EXTENSIONS_H
#define TEE_CLIENT_API_EXTENSIONS_H

#include <tee_client_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Registers the memory behind file descriptor fd (for example a dma-buf) as
 * shared memory of sharedMem->size bytes. The caller keeps ownership of fd;
 * release the registration with TEEC_ReleaseSharedMemory.
 */
TEEC_Result TEEC_RegisterSharedMemoryFileDescriptor(TEEC_Context *context,
						    TEEC_SharedMemory *sharedMem, int fd);

#ifdef __cplusplus
}
#endif

#endif /* TEE_CLIENT_API_EXTENSIONS_H */
