/* Handle tables: slots with generations, see handle.h. */
#include <stdlib.h>

#include "handle.h"

#define GEN_MASK 0xfffU
#define GROW_MIN 16U

static uint32_t handle_make(const struct handle_table *t, uint32_t slot)
{
	return (t->kind << 28) | ((uint32_t)(t->slots[slot].gen & GEN_MASK) << 16) | (slot + 1);
}

/* The slot index of h if h has this table's kind and names an allocated slot. */
static int handle_slot(const struct handle_table *t, uint32_t h, uint32_t *slot)
{
	uint32_t s = (h & 0xffffU);

	if ((h >> 28) != t->kind || !s || s > t->nslots)
		return -1;
	s--;
	if (!t->slots[s].ptr || (t->slots[s].gen & GEN_MASK) != ((h >> 16) & GEN_MASK))
		return -1;
	*slot = s;
	return 0;
}

static int handle_grow(struct handle_table *t)
{
	uint32_t n = t->nslots ? t->nslots * 2 : GROW_MIN;
	struct handle_slot *s = NULL;

	if (n > HANDLE_SLOTS_MAX)
		n = HANDLE_SLOTS_MAX;
	if (n <= t->nslots)
		return -1;
	s = realloc(t->slots, (size_t)n * sizeof(*s));
	if (!s)
		return -1;
	for (uint32_t i = t->nslots; i < n; i++) {
		s[i].ptr = NULL;
		s[i].gen = 0;
	}
	t->slots = s;
	t->nslots = n;
	return 0;
}

uint32_t handle_new(struct handle_table *t, void *p)
{
	uint32_t slot = 0;

	if (!p || t->live >= t->max || t->live >= HANDLE_SLOTS_MAX)
		return 0;
	while (slot < t->nslots && t->slots[slot].ptr)
		slot++;
	if (slot == t->nslots && handle_grow(t))
		return 0;
	t->slots[slot].ptr = p;
	t->live++;
	return handle_make(t, slot);
}

void *handle_lookup(const struct handle_table *t, uint32_t h)
{
	uint32_t slot = 0;

	if (handle_slot(t, h, &slot))
		return NULL;
	return t->slots[slot].ptr;
}

void *handle_release(struct handle_table *t, uint32_t h)
{
	uint32_t slot = 0;
	void *p = NULL;

	if (handle_slot(t, h, &slot))
		return NULL;
	p = t->slots[slot].ptr;
	t->slots[slot].ptr = NULL;
	t->slots[slot].gen = (uint16_t)((t->slots[slot].gen + 1) & GEN_MASK);
	t->live--;
	return p;
}

uint32_t handle_count(const struct handle_table *t)
{
	return t->live;
}
