#include "teec_shm_pool.h"

#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct pool_entry {
	int fd;
	uint8_t *map;
	size_t size;
};

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pool_entry pool[TEEC_SHM_POOL_MAX];
static size_t pool_n;
static size_t contexts; /* initialised and not yet finalised */

bool teec_shm_pool_take(size_t size, int *fd, uint8_t **map)
{
	struct pool_entry e = {.fd = -1};
	size_t i = 0;

	*fd = -1;
	*map = NULL;
	pthread_mutex_lock(&pool_lock);
	for (i = 0; i < pool_n; i++) {
		if (pool[i].size == size) {
			e = pool[i];
			pool[i] = pool[--pool_n];
			break;
		}
	}
	pthread_mutex_unlock(&pool_lock);
	if (e.fd < 0)
		return false;
	/* What the previous allocation held must not reach the next one's TA. */
	memset(e.map, 0, e.size);
	*fd = e.fd;
	*map = e.map;
	return true;
}

bool teec_shm_pool_put(int fd, uint8_t *map, size_t size)
{
	bool kept = false;

	if (size > TEEC_SHM_POOL_ENTRY_MAX)
		return false;
	pthread_mutex_lock(&pool_lock);
	if (contexts && pool_n < TEEC_SHM_POOL_MAX) {
		pool[pool_n++] = (struct pool_entry){.fd = fd, .map = map, .size = size};
		kept = true;
	}
	pthread_mutex_unlock(&pool_lock);
	return kept;
}

void teec_shm_pool_hold(void)
{
	pthread_mutex_lock(&pool_lock);
	contexts++;
	pthread_mutex_unlock(&pool_lock);
}

void teec_shm_pool_unhold(void)
{
	struct pool_entry drop[TEEC_SHM_POOL_MAX];
	size_t n = 0;

	pthread_mutex_lock(&pool_lock);
	if (contexts)
		contexts--;
	if (!contexts) {
		n = pool_n;
		memcpy(drop, pool, n * sizeof(drop[0]));
		pool_n = 0;
	}
	pthread_mutex_unlock(&pool_lock);
	for (size_t i = 0; i < n; i++) {
		munmap(drop[i].map, drop[i].size);
		close(drop[i].fd);
	}
}
