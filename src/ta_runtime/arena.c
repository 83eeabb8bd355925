/*
 * The TA heap: a two-level segregated-fit allocator (TLSF, after Masmano et
 * al.) over one arena. A block is a 16-byte header and its payload, its size
 * a multiple of 16. Free blocks sit in FL_COUNT x SL_COUNT lists by size,
 * found in constant time through two bitmaps; a block that is freed merges
 * with its free neighbours at once, so no two free blocks are ever adjacent.
 *
 * The arena is followed by a guard page, then by the bitmap of block starts:
 * a TA that writes past the end of the heap faults instead of corrupting it.
 *
 * The arena is a sealed memfd (it cannot shrink or grow), so that the core
 * can map it too, read-only, and seal large writes to trusted storage
 * straight from the TA's buffer (rt_arena_take_fd, tee_api_stream.c).
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arena.h"
#include "memfd.h"
#include "runtime.h"

#define ALIGN_LOG2 4
#define ALIGN ((size_t)1 << ALIGN_LOG2)
#define SL_LOG2 4
#define SL_COUNT (1u << SL_LOG2)
#define FL_SHIFT (SL_LOG2 + ALIGN_LOG2)
#define SMALL_SIZE ((size_t)1 << FL_SHIFT)
#define FL_COUNT (32 - FL_SHIFT + 1) /* blocks below 4 GiB */
#define ARENA_MAX (((size_t)1 << 32) - ALIGN)

#define F_FREE ((size_t)1)
#define F_PREV_FREE ((size_t)2)
#define F_MASK (ALIGN - 1)

struct blk {
	size_t prev_size; /* of the block just before, while that one is free */
	size_t size;	  /* of this block, header included; low bits: F_* */
	/* The payload; in a free block, its list links. */
	struct blk *next_free;
	struct blk *prev_free;
};

#define HDR_SIZE offsetof(struct blk, next_free)
#define MIN_BLOCK sizeof(struct blk)

_Static_assert(HDR_SIZE == ALIGN, "the payload must stay 16-byte aligned");
_Static_assert(MIN_BLOCK % ALIGN == 0, "block sizes are multiples of ALIGN");

static uint8_t *arena;
static size_t arena_size;
static int arena_fd = -1; /* the memfd behind the arena; -1 once given away, or without one */
static uint8_t *starts;	  /* one bit per ALIGN bytes of the arena */
static void *zero_page;
static uint8_t zero_fallback;
static uint32_t fl_map;
static uint32_t sl_map[FL_COUNT];
static struct blk *heads[FL_COUNT][SL_COUNT];

static size_t bsize(const struct blk *b)
{
	return b->size & ~F_MASK;
}

static bool is_free(const struct blk *b)
{
	return (b->size & F_FREE) != 0;
}

static struct blk *next_of(const struct blk *b)
{
	uint8_t *n = (uint8_t *)b + bsize(b);

	return n < arena + arena_size ? (struct blk *)n : NULL;
}

static size_t unit_of(const void *p)
{
	return (size_t)((const uint8_t *)p - arena) / ALIGN;
}

static void start_set(const void *p, bool on)
{
	size_t u = unit_of(p);

	if (on)
		starts[u / 8] |= (uint8_t)(1u << (u % 8));
	else
		starts[u / 8] &= (uint8_t) ~(1u << (u % 8));
}

static bool start_get(const void *p)
{
	size_t u = unit_of(p);

	return (starts[u / 8] >> (u % 8)) & 1;
}

static unsigned int msb(size_t v)
{
	return (unsigned int)(sizeof(unsigned long long) * 8 - 1) -
	       (unsigned int)__builtin_clzll((unsigned long long)v);
}

static void mapping(size_t size, unsigned int *fl, unsigned int *sl)
{
	unsigned int f = 0;

	if (size < SMALL_SIZE) {
		*fl = 0;
		*sl = (unsigned int)(size / (SMALL_SIZE / SL_COUNT));
		return;
	}
	f = msb(size);
	*sl = (unsigned int)(size >> (f - SL_LOG2)) ^ SL_COUNT;
	*fl = f - FL_SHIFT + 1;
}

static void insert_free(struct blk *b)
{
	unsigned int fl = 0;
	unsigned int sl = 0;

	mapping(bsize(b), &fl, &sl);
	b->prev_free = NULL;
	b->next_free = heads[fl][sl];
	if (b->next_free)
		b->next_free->prev_free = b;
	heads[fl][sl] = b;
	fl_map |= 1u << fl;
	sl_map[fl] |= 1u << sl;
}

static void remove_free(struct blk *b)
{
	unsigned int fl = 0;
	unsigned int sl = 0;

	mapping(bsize(b), &fl, &sl);
	if (b->prev_free)
		b->prev_free->next_free = b->next_free;
	else
		heads[fl][sl] = b->next_free;
	if (b->next_free)
		b->next_free->prev_free = b->prev_free;
	if (!heads[fl][sl]) {
		sl_map[fl] &= ~(1u << sl);
		if (!sl_map[fl])
			fl_map &= ~(1u << fl);
	}
}

/* A free block of at least need bytes, still in its list, or NULL. */
static struct blk *find_free(size_t need)
{
	unsigned int fl = 0;
	unsigned int sl = 0;
	uint32_t sl_bits = 0;
	uint32_t fl_bits = 0;
	size_t rounded = need;

	/* Any block of the class after rounding up is large enough. */
	if (need >= SMALL_SIZE)
		rounded += ((size_t)1 << (msb(need) - SL_LOG2)) - 1;
	mapping(rounded, &fl, &sl);
	if (fl < FL_COUNT) {
		sl_bits = sl_map[fl] & (~0u << sl);
		if (!sl_bits && fl + 1 < FL_COUNT) {
			fl_bits = fl_map & (~0u << (fl + 1));
			if (fl_bits) {
				fl = (unsigned int)__builtin_ctz(fl_bits);
				sl_bits = sl_map[fl];
			}
		}
		if (sl_bits)
			return heads[fl][(unsigned int)__builtin_ctz(sl_bits)];
	}
	/* None: a block of need's own class may still be large enough. */
	mapping(need, &fl, &sl);
	for (struct blk *b = fl < FL_COUNT ? heads[fl][sl] : NULL; b; b = b->next_free)
		if (bsize(b) >= need)
			return b;
	return NULL;
}

/* Marks b free and tells the block after it. */
static void mark_free(struct blk *b)
{
	struct blk *n = next_of(b);

	b->size |= F_FREE;
	if (n) {
		n->size |= F_PREV_FREE;
		n->prev_size = bsize(b);
	}
}

static void mark_used(struct blk *b)
{
	struct blk *n = next_of(b);

	b->size &= ~F_FREE;
	if (n)
		n->size &= ~F_PREV_FREE;
}

/* Frees b (in no list): merges it with free neighbours and lists the result. */
static void release(struct blk *b)
{
	struct blk *n = next_of(b);

	if (b->size & F_PREV_FREE) {
		struct blk *p = (struct blk *)((uint8_t *)b - b->prev_size);

		remove_free(p);
		p->size = (bsize(p) + bsize(b)) | (p->size & F_PREV_FREE);
		start_set(b, false);
		b = p;
	}
	if (n && is_free(n)) {
		remove_free(n);
		b->size = (bsize(b) + bsize(n)) | (b->size & F_PREV_FREE);
		start_set(n, false);
	}
	mark_free(b);
	insert_free(b);
}

/* Makes b (in no list) a used block of need bytes; what is left over is freed. */
static void take(struct blk *b, size_t need)
{
	struct blk *rest = NULL;

	if (bsize(b) - need >= MIN_BLOCK) {
		rest = (struct blk *)((uint8_t *)b + need);
		rest->size = bsize(b) - need;
		rest->prev_size = 0;
		b->size = need | (b->size & F_MASK);
		start_set(rest, true);
	}
	mark_used(b);
	if (rest)
		release(rest);
}

/* The block size for a payload of size bytes, or 0 when no arena holds it. */
static size_t block_need(size_t size)
{
	size_t need = 0;

	if (!arena || size > arena_size)
		return 0;
	need = (size + HDR_SIZE + ALIGN - 1) & ~(ALIGN - 1);
	return need < MIN_BLOCK ? MIN_BLOCK : need;
}

/* The block of a pointer the heap handed out; anything else panics. */
static struct blk *checked(void *p, const char *func)
{
	uintptr_t a = (uintptr_t)p;
	uintptr_t base = (uintptr_t)arena;
	struct blk *b = NULL;
	struct blk *n = NULL;
	size_t size = 0;

	if (!arena || a < base + HDR_SIZE || a >= base + arena_size || (a - base) % ALIGN)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	b = (struct blk *)(a - HDR_SIZE);
	size = bsize(b);
	if (!start_get(b) || is_free(b) || size < MIN_BLOCK ||
	    size > (size_t)(arena + arena_size - (uint8_t *)b))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	n = next_of(b);
	if (n && !start_get(n))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return b;
}

static size_t page_round(size_t v, size_t page)
{
	return (v + page - 1) & ~(page - 1);
}

/*
 * Puts a sealed memfd of len bytes in place of the anonymous memory at p.
 * Returns the memfd; -1 when it cannot (p then stays anonymous memory), -2
 * when p could not be mapped again.
 */
static int shared_arena(uint8_t *p, size_t len)
{
	int fd = memfd_new_sealed("swtee-ta-heap", len);

	if (fd < 0)
		return -1;
	if (mmap(p, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
		close(fd);
		return mmap(p, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
			    0) == MAP_FAILED
			   ? -2
			   : -1;
	}
	return fd;
}

int rt_arena_map(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t arena_len = 0;
	size_t bits_len = 0;
	uint8_t *p = NULL;
	struct blk *b = NULL;

	zero_page = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (zero_page == MAP_FAILED) {
		zero_page = NULL;
		return -1;
	}
	size &= ~(ALIGN - 1);
	if (size > ARENA_MAX)
		size = ARENA_MAX;
	if (size < MIN_BLOCK)
		return 0;
	arena_len = page_round(size, page);
	bits_len = page_round((size / ALIGN + 7) / 8, page);
	p = mmap(NULL, arena_len + page + bits_len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	if (mprotect(p + arena_len, page, PROT_NONE)) {
		munmap(p, arena_len + page + bits_len);
		return -1;
	}
	arena_fd = shared_arena(p, arena_len);
	if (arena_fd == -2) {
		arena_fd = -1;
		munmap(p, arena_len + page + bits_len);
		return -1;
	}
	arena = p;
	arena_size = size;
	starts = p + arena_len + page;
	b = (struct blk *)arena;
	b->prev_size = 0;
	b->size = size;
	start_set(b, true);
	mark_free(b);
	insert_free(b);
	return 0;
}

void *rt_arena_alloc(size_t size)
{
	size_t need = block_need(size);
	struct blk *b = need ? find_free(need) : NULL;

	if (!b)
		return NULL;
	remove_free(b);
	take(b, need);
	/* The slack past size stays zero, so that a later resize grows into zeros. */
	memset((uint8_t *)b + HDR_SIZE + size, 0, bsize(b) - HDR_SIZE - size);
	return (uint8_t *)b + HDR_SIZE;
}

void rt_arena_free(void *p, const char *func)
{
	release(checked(p, func));
}

void *rt_arena_resize(void *p, size_t size, const char *func)
{
	struct blk *b = checked(p, func);
	struct blk *n = next_of(b);
	size_t old = bsize(b) - HDR_SIZE;
	size_t need = block_need(size);
	uint8_t *q = NULL;

	if (!need)
		return NULL;
	if (need <= bsize(b)) {
		take(b, need);
		memset((uint8_t *)p + size, 0, bsize(b) - HDR_SIZE - size);
		return p;
	}
	if (n && is_free(n) && bsize(b) + bsize(n) >= need) {
		remove_free(n);
		start_set(n, false);
		b->size = (bsize(b) + bsize(n)) | (b->size & F_MASK);
		take(b, need);
		memset((uint8_t *)p + old, 0, bsize(b) - HDR_SIZE - old);
		return p;
	}
	q = rt_arena_alloc(size);
	if (!q)
		return NULL;
	memcpy(q, p, old);
	memset(q + old, 0, size - old);
	release(b);
	return q;
}

void *rt_arena_zero_ptr(void)
{
	return zero_page ? zero_page : &zero_fallback;
}

int rt_arena_take_fd(void)
{
	int fd = arena_fd;

	arena_fd = -1;
	return fd;
}

bool rt_arena_offset(const void *p, size_t len, uint64_t *off)
{
	uintptr_t a = (uintptr_t)p;

	if (!arena || a < (uintptr_t)arena || a - (uintptr_t)arena > arena_size ||
	    len > arena_size - (a - (uintptr_t)arena))
		return false;
	*off = a - (uintptr_t)arena;
	return true;
}

void rt_arena_range(uintptr_t *start, uintptr_t *end)
{
	*start = (uintptr_t)arena;
	*end = arena ? (uintptr_t)arena + arena_size : 0;
}
