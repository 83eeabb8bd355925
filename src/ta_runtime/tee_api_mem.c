/*
 * GP memory management (Internal Core API 4.11), with OP-TEE's choices where
 * GP leaves room:
 *   - TEE_Malloc: FILL_ZERO, NO_SHARE, NO_FILL|NO_SHARE and OP-TEE's
 *     TEE_USER_MEM_HINT_NO_FILL_ZERO are served; NO_FILL alone panics; any
 *     other hint gets NULL. 0 bytes gives a pointer that faults when used.
 *   - NO_SHARE: the same heap. Every heap block is private to the instance
 *     process; a buffer passed to another TA is copied through a bounce
 *     buffer, never mapped, so no block is ever shared and no second heap
 *     (OP-TEE's TA_NO_SHARE_DATA_SIZE) is needed.
 *   - the heap is bounded by TA_DATA_SIZE (arena.c); TEE_Free and
 *     TEE_Realloc panic on a pointer the heap did not hand out or freed.
 *
 * TEE_CheckMemoryAccessRights answers from what the runtime knows of the
 * address space, range by range:
 *   - the memrefs of the operation now running: shared, so they pass only
 *     with TEE_MEMORY_ACCESS_ANY_OWNER; readable, and writable when OUTPUT
 *     or INOUT; non-secure memory when the client is a client application,
 *     secure when it is another TA;
 *   - the rest of any session's shared memory and control pages: refused;
 *   - the heap arena and the thread's stack: private, read-write;
 *   - the TA's ELF segments, as dl_iterate_phdr gives them, with the RELRO
 *     part read-only;
 *   - anything else (the C library's heap, say, which a TA's malloc uses):
 *     private, and probed: each page is copied through a pipe, to which the
 *     kernel answers EFAULT rather than a fault when it is not accessible.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log.h"
#include "runtime.h"
#include "arena.h"

#define ELF_RANGES_MAX 16
#define PERM_R TEE_MEMORY_ACCESS_READ
#define PERM_W TEE_MEMORY_ACCESS_WRITE
#define ACCESS_KNOWN                                                                               \
	(TEE_MEMORY_ACCESS_READ | TEE_MEMORY_ACCESS_WRITE | TEE_MEMORY_ACCESS_ANY_OWNER |          \
	 TEE_MEMORY_ACCESS_NONSECURE | TEE_MEMORY_ACCESS_SECURE)

enum owner {
	OWN_UNKNOWN,   /* not a region the runtime knows: probed */
	OWN_PRIVATE,   /* the instance's own memory */
	OWN_SHARED,    /* a memref of the running operation */
	OWN_FORBIDDEN, /* client memory outside the running operation */
};

struct region {
	uintptr_t start;
	uintptr_t end;
	uint32_t perm;
	enum owner owner;
};

static struct region elf_ranges[ELF_RANGES_MAX];
static size_t n_elf_ranges;
static struct region relro;
static struct region stack;
static size_t page_size;
static int probe_pipe[2] = {-1, -1};

static uintptr_t page_down(uintptr_t v)
{
	return v & ~(uintptr_t)(page_size - 1);
}

static uintptr_t page_up(uintptr_t v)
{
	return (v + page_size - 1) & ~(uintptr_t)(page_size - 1);
}

struct elf_find {
	uintptr_t base;
	const char *name;
};

static int elf_segments(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct elf_find *f = arg;

	(void)size;
	if (info->dlpi_addr != f->base || !info->dlpi_name || strcmp(info->dlpi_name, f->name) != 0)
		return 0;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		uintptr_t end = start + ph->p_memsz;

		if (ph->p_type == PT_GNU_RELRO) {
			/* As the dynamic linker protects it: whole pages inside. */
			relro.start = page_down(start);
			relro.end = page_down(end);
			relro.perm = PERM_R;
			relro.owner = OWN_PRIVATE;
		}
		if (ph->p_type != PT_LOAD || n_elf_ranges == ELF_RANGES_MAX)
			continue;
		elf_ranges[n_elf_ranges].start = page_down(start);
		elf_ranges[n_elf_ranges].end = page_up(end);
		elf_ranges[n_elf_ranges].perm = ((ph->p_flags & (PF_R | PF_X)) ? PERM_R : 0) |
						((ph->p_flags & PF_W) ? PERM_R | PERM_W : 0);
		elf_ranges[n_elf_ranges].owner = OWN_PRIVATE;
		n_elf_ranges++;
	}
	return 1;
}

static void find_elf_ranges(void)
{
	struct link_map *lm = NULL;
	struct elf_find f = {0};

	if (!rt.ta.handle || dlinfo(rt.ta.handle, RTLD_DI_LINKMAP, &lm) || !lm)
		return;
	f.base = lm->l_addr;
	f.name = lm->l_name;
	dl_iterate_phdr(elf_segments, &f);
}

static void find_stack(void)
{
	pthread_attr_t attr;
	void *addr = NULL;
	size_t size = 0;

	if (pthread_getattr_np(pthread_self(), &attr))
		return;
	if (!pthread_attr_getstack(&attr, &addr, &size)) {
		stack.start = (uintptr_t)addr;
		stack.end = (uintptr_t)addr + size;
		stack.perm = PERM_R | PERM_W;
		stack.owner = OWN_PRIVATE;
	}
	pthread_attr_destroy(&attr);
}

/*
 * Runs before the sandbox: the heap arena is mapped, and the stack's bounds
 * (which glibc reads from /proc for the main thread) and the TA's segments
 * are noted, so that no later answer needs a system call the sandbox refuses.
 */
void rt_mem_prepare(void)
{
	if (!stack.end)
		find_stack();
}

void rt_mem_prepare_process(void)
{
	if (probe_pipe[0] >= 0)
		return;
	if (pipe2(probe_pipe, O_CLOEXEC | O_NONBLOCK)) {
		probe_pipe[0] = -1;
		probe_pipe[1] = -1;
	}
}

void rt_heap_init(uint32_t limit)
{
	page_size = (size_t)sysconf(_SC_PAGESIZE);
	if (rt_arena_map(limit))
		log_error("cannot map a heap of %u bytes; TEE_Malloc will fail", limit);
	rt_mem_prepare();
	find_elf_ranges();
	rt_mem_prepare_process();
}

static bool memref_type(uint32_t t)
{
	return t == TEE_PARAM_TYPE_MEMREF_INPUT || t == TEE_PARAM_TYPE_MEMREF_OUTPUT ||
	       t == TEE_PARAM_TYPE_MEMREF_INOUT;
}

struct span {
	struct region r; /* owner OWN_UNKNOWN: no region the runtime knows */
	uintptr_t end;
};

static void consider(const struct region *r, uintptr_t a, struct span *sp)
{
	if (r->start >= r->end)
		return;
	if (a >= r->start && a < r->end) {
		if (sp->r.owner == OWN_UNKNOWN)
			sp->r = *r;
	} else if (r->start > a && r->start < sp->end) {
		sp->end = r->start;
	}
}

/*
 * The region at a, in priority order (the running operation's memrefs, other
 * client memory, RELRO, the TA's segments, heap, stack), and where the span
 * from a ends: at the region's end or where another region starts.
 */
static void span_at(uintptr_t a, struct span *sp)
{
	struct region heap = {.perm = PERM_R | PERM_W, .owner = OWN_PRIVATE};
	const struct rt_session *cur = rt.current;

	memset(sp, 0, sizeof(*sp));
	sp->end = UINTPTR_MAX;
	/* Writable memrefs first: where two overlap, the wider right is found. */
	for (int pass = 0; cur && pass < 2; pass++) {
		for (size_t i = 0; i < TEE_NUM_PARAMS; i++) {
			uint32_t t = TEE_PARAM_TYPE_GET(cur->op_types, i);
			const TEE_Param *p = &cur->op_params[i];
			struct region r = {(uintptr_t)p->memref.buffer,
					   (uintptr_t)p->memref.buffer + p->memref.size, PERM_R,
					   OWN_SHARED};

			if (!memref_type(t) || !p->memref.buffer ||
			    (t == TEE_PARAM_TYPE_MEMREF_INPUT) != (pass == 1))
				continue;
			if (t != TEE_PARAM_TYPE_MEMREF_INPUT)
				r.perm |= PERM_W;
			consider(&r, a, sp);
		}
	}
	for (const struct rt_session *s = rt.sessions; s; s = s->next) {
		for (size_t i = 0; i < s->nshm; i++) {
			struct region r = {(uintptr_t)s->shm[i].map,
					   (uintptr_t)s->shm[i].map + s->shm[i].size, 0,
					   OWN_FORBIDDEN};

			consider(&r, a, sp);
		}
		if (s->ctl) {
			struct region r = {(uintptr_t)s->ctl, (uintptr_t)s->ctl + sizeof(*s->ctl),
					   0, OWN_FORBIDDEN};

			consider(&r, a, sp);
		}
	}
	consider(&relro, a, sp);
	for (size_t i = 0; i < n_elf_ranges; i++)
		consider(&elf_ranges[i], a, sp);
	rt_arena_range(&heap.start, &heap.end);
	consider(&heap, a, sp);
	consider(&stack, a, sp);
	if (sp->r.owner != OWN_UNKNOWN && sp->r.end < sp->end)
		sp->end = sp->r.end;
}

/*
 * True when every page of [a, end) can be read (and written, with write),
 * asked of the kernel: a byte of each page goes into the pipe and back, and
 * a page that cannot be accessed fails the copy with EFAULT, not a fault.
 * Raw system calls, so that a sanitizer's interceptors do not look first.
 */
static bool probe(uintptr_t a, uintptr_t end, bool write)
{
	uint8_t c = 0;

	if (probe_pipe[0] < 0)
		return false;
	for (uintptr_t p = a; p < end; p = page_down(p) + page_size) {
		bool ok = false;

		if (syscall(SYS_write, probe_pipe[1], (const void *)p, 1) != 1)
			return false;
		ok = syscall(SYS_read, probe_pipe[0], write ? (void *)p : (void *)&c, 1) == 1;
		if (!ok) {
			(void)syscall(SYS_read, probe_pipe[0], &c, 1);
			return false;
		}
		if (page_down(p) + page_size < page_down(p))
			break; /* the last page of the address space */
	}
	return true;
}

/* True when the client of the running operation is another TA: its memory is secure. */
static bool client_is_ta(void)
{
	return rt.current && rt.current->login == TEE_LOGIN_TRUSTED_APP;
}

static bool span_allows(uint32_t flags, const struct span *sp, uintptr_t a, uintptr_t end)
{
	uint32_t want = flags & (PERM_R | PERM_W);
	bool secure = true;

	switch (sp->r.owner) {
	case OWN_UNKNOWN:
		return !(flags & TEE_MEMORY_ACCESS_NONSECURE) && probe(a, end, flags & PERM_W);
	case OWN_SHARED:
		if (!(flags & TEE_MEMORY_ACCESS_ANY_OWNER))
			return false;
		secure = client_is_ta();
		break;
	case OWN_PRIVATE:
		break;
	default:
		return false;
	}
	if ((flags & TEE_MEMORY_ACCESS_SECURE) && !secure)
		return false;
	if ((flags & TEE_MEMORY_ACCESS_NONSECURE) && secure)
		return false;
	return (sp->r.perm & want) == want;
}

static TEE_Result check_access(uint32_t flags, const void *buffer, size_t size)
{
	uintptr_t a = (uintptr_t)buffer;
	uintptr_t end = 0;

	if (!size)
		return TEE_SUCCESS;
	if (flags & ~(uint32_t)ACCESS_KNOWN)
		return TEE_ERROR_ACCESS_DENIED;
	if ((flags & TEE_MEMORY_ACCESS_SECURE) && (flags & TEE_MEMORY_ACCESS_NONSECURE))
		return TEE_ERROR_ACCESS_DENIED;
	if (__builtin_add_overflow(a, size, &end))
		return TEE_ERROR_ACCESS_DENIED;
	while (a < end) {
		struct span sp;
		uintptr_t stop = 0;

		span_at(a, &sp);
		stop = sp.end < end ? sp.end : end;
		if (!span_allows(flags, &sp, a, stop))
			return TEE_ERROR_ACCESS_DENIED;
		a = stop;
	}
	return TEE_SUCCESS;
}

TEE_Result TEE_CheckMemoryAccessRights(uint32_t accessFlags, void *buffer, size_t size)
{
	return check_access(accessFlags, buffer, size);
}

TEE_Result __GP11_TEE_CheckMemoryAccessRights(uint32_t accessFlags, void *buffer, uint32_t size)
{
	return check_access(accessFlags, buffer, size);
}

void TEE_SetInstanceData(const void *instanceData)
{
	rt.instance_data = instanceData;
}

const void *TEE_GetInstanceData(void)
{
	return rt.instance_data;
}

void *TEE_Malloc(size_t size, uint32_t hint)
{
	bool fill = true;
	void *p = NULL;

	switch (hint) {
	case TEE_MALLOC_FILL_ZERO:
	case TEE_MALLOC_NO_SHARE:
		break;
	case TEE_MALLOC_NO_FILL | TEE_MALLOC_NO_SHARE:
	case TEE_USER_MEM_HINT_NO_FILL_ZERO:
		fill = false;
		break;
	case TEE_MALLOC_NO_FILL:
		/* NO_FILL on its own is a programming error, as in OP-TEE. */
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_Malloc");
	default:
		log_error("TEE_Malloc: unknown hint 0x%08x", hint);
		return NULL;
	}
	if (!size)
		return rt_arena_zero_ptr();
	p = rt_arena_alloc(size);
	if (p && fill)
		memset(p, 0, size);
	return p;
}

void *__GP11_TEE_Malloc(uint32_t size, uint32_t hint)
{
	return TEE_Malloc(size, hint);
}

void TEE_Free(void *buffer)
{
	if (!buffer || buffer == rt_arena_zero_ptr())
		return;
	rt_arena_free(buffer, "TEE_Free");
}

static void *mem_realloc(void *buffer, size_t size, const char *func)
{
	if (!buffer || buffer == rt_arena_zero_ptr())
		return TEE_Malloc(size, TEE_MALLOC_FILL_ZERO);
	if (!size) {
		rt_arena_free(buffer, func);
		return rt_arena_zero_ptr();
	}
	return rt_arena_resize(buffer, size, func);
}

void *TEE_Realloc(void *buffer, size_t newSize)
{
	return mem_realloc(buffer, newSize, "TEE_Realloc");
}

void *__GP11_TEE_Realloc(void *buffer, uint32_t newSize)
{
	return mem_realloc(buffer, newSize, "TEE_Realloc");
}

/* A buffer of size bytes at p that no access can reach: a programming error. */
static void check_buffer(const void *p, size_t size, const char *func)
{
	uintptr_t end = 0;

	if (size && (!p || __builtin_add_overflow((uintptr_t)p, size, &end)))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
}

void TEE_MemMove(void *dest, const void *src, size_t size)
{
	check_buffer(dest, size, "TEE_MemMove");
	check_buffer(src, size, "TEE_MemMove");
	if (size)
		memmove(dest, src, size);
}

void __GP11_TEE_MemMove(void *dest, const void *src, uint32_t size)
{
	TEE_MemMove(dest, src, size);
}

int32_t TEE_MemCompare(const void *buffer1, const void *buffer2, size_t size)
{
	const uint8_t *a = buffer1;
	const uint8_t *b = buffer2;
	uint32_t done = 0;
	int32_t res = 0;

	check_buffer(buffer1, size, "TEE_MemCompare");
	check_buffer(buffer2, size, "TEE_MemCompare");
	/* Every byte is read; the first difference decides, without a branch on data. */
	for (size_t i = 0; i < size; i++) {
		int32_t d = (int32_t)a[i] - (int32_t)b[i];
		uint32_t differs = ((uint32_t)d | (uint32_t)-d) >> 31;
		uint32_t first = differs & ~done;
		int32_t sign = 1 - 2 * (int32_t)((uint32_t)d >> 31);

		res |= (int32_t)(0u - first) & sign;
		done |= differs;
	}
	return res;
}

int32_t __GP11_TEE_MemCompare(const void *buffer1, const void *buffer2, uint32_t size)
{
	return TEE_MemCompare(buffer1, buffer2, size);
}

void TEE_MemFill(void *buff, uint32_t x, size_t size)
{
	check_buffer(buff, size, "TEE_MemFill");
	if (size)
		memset(buff, (int)(uint8_t)x, size);
}

void __GP11_TEE_MemFill(void *buff, uint32_t x, uint32_t size)
{
	TEE_MemFill(buff, x, size);
}
