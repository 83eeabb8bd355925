/*
 * Released shared memory kept for reuse, so that a client that allocates,
 * invokes and releases on every call (as OP-TEE's libckteec does) pays no
 * memfd creation, sealing, mapping and unmapping each time.
 *
 * Only memory that no TA has ever mapped enters the pool: its descriptor
 * never left this process (libteec copied its bytes through a session's
 * bounce buffer instead), so handing it to another allocation, for any
 * session of any context, shows no TA anything. Each entry is zeroed when
 * it is taken, as a new memfd would be. The pool is per process, which
 * bounds it per context as well (TEEC_ReleaseSharedMemory names no
 * context): at most TEEC_SHM_POOL_MAX entries of at most
 * TEEC_SHM_POOL_ENTRY_MAX bytes, emptied when the last context is
 * finalised.
 */
#ifndef SWTEE_TEEC_SHM_POOL_H
#define SWTEE_TEEC_SHM_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TEEC_SHM_POOL_MAX 8
#define TEEC_SHM_POOL_ENTRY_MAX (64 * 1024)

/*
 * Takes an entry of exactly size bytes: its sealed memfd in *fd and its
 * mapping, zeroed, in *map (both the caller's now). False when there is none.
 */
bool teec_shm_pool_take(size_t size, int *fd, uint8_t **map);

/*
 * Offers the never-exposed memfd fd and its mapping map of size bytes. True:
 * the pool holds them now. False (full, too large, no context open): the
 * caller still owns them and frees them.
 */
bool teec_shm_pool_put(int fd, uint8_t *map, size_t size);

/* A context was initialised. */
void teec_shm_pool_hold(void);
/* A context was finalised; the last one empties the pool. */
void teec_shm_pool_unhold(void);

#endif
