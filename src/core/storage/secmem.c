/*
 * Locked memory for keys: pages that are mlock'ed (never swapped), left out
 * of core dumps, cut in 128-byte slots, and wiped when a slot is freed. When
 * the lock limit is reached the memory is still private and wiped, and the
 * core says so once.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "keys.h"
#include "log.h"
#include "secure.h"

#define SLOT 128u
#define PAGE 4096u
#define SLOTS (PAGE / SLOT)
#define FULL ((1ull << SLOTS) - 1)

struct secpage {
	uint8_t *base;
	uint64_t used; /* one bit per slot */
	struct secpage *next;
};

static pthread_mutex_t secmem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct secpage *pages;
static bool warned;

static struct secpage *page_new(void)
{
	struct secpage *pg = calloc(1, sizeof(*pg));
	void *p = NULL;

	if (!pg)
		return NULL;
	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		free(pg);
		return NULL;
	}
	madvise(p, PAGE, MADV_DONTDUMP);
	madvise(p, PAGE, MADV_DONTFORK);
	if (mlock(p, PAGE) && !warned) {
		warned = true;
		log_info("cannot lock more key memory (RLIMIT_MEMLOCK); keys stay unlocked");
	}
	pg->base = p;
	pg->next = pages;
	pages = pg;
	return pg;
}

void *secmem_alloc(size_t n)
{
	struct secpage *pg = NULL;
	void *p = NULL;

	if (!n || n > SLOT)
		return NULL;
	pthread_mutex_lock(&secmem_lock);
	for (pg = pages; pg; pg = pg->next)
		if (pg->used != FULL)
			break;
	if (!pg)
		pg = page_new();
	if (pg) {
		for (unsigned int i = 0; i < SLOTS; i++) {
			if (!(pg->used & (1ull << i))) {
				pg->used |= 1ull << i;
				p = pg->base + i * SLOT;
				memset(p, 0, SLOT);
				break;
			}
		}
	}
	pthread_mutex_unlock(&secmem_lock);
	return p;
}

void secmem_free(void *p)
{
	uint8_t *b = p;

	if (!p)
		return;
	pthread_mutex_lock(&secmem_lock);
	for (struct secpage *pg = pages; pg; pg = pg->next) {
		if (b >= pg->base && b < pg->base + PAGE) {
			size_t i = (size_t)(b - pg->base) / SLOT;

			secure_wipe(pg->base + i * SLOT, SLOT);
			pg->used &= ~(1ull << i);
			break;
		}
	}
	pthread_mutex_unlock(&secmem_lock);
}
