/*
 * The handle table of a storage channel: the handles an instance holds on
 * the objects of its TA's store, each with its flags, under GP's sharing
 * rules across all the handles on an object (worker.h).
 */

#include <stdlib.h>
#include <string.h>

#include "worker.h"

struct whandle *handle_of(struct worker *w, uint32_t h)
{
	if (!h || h > w->nh || !w->h[h - 1].e)
		return NULL;
	return &w->h[h - 1];
}

/* GP's sharing rules, as OP-TEE applies them to every pair of handles. */
static bool compatible(uint32_t a, uint32_t b)
{
	if ((a | b) & TEE_DATA_FLAG_ACCESS_WRITE_META)
		return false;
	if (((a | b) & TEE_DATA_FLAG_ACCESS_READ) &&
	    !((a & TEE_DATA_FLAG_SHARE_READ) && (b & TEE_DATA_FLAG_SHARE_READ)))
		return false;
	if (((a | b) & TEE_DATA_FLAG_ACCESS_WRITE) &&
	    !((a & TEE_DATA_FLAG_SHARE_WRITE) && (b & TEE_DATA_FLAG_SHARE_WRITE)))
		return false;
	return true;
}

bool may_open(const struct stor_entry *e, uint32_t flags)
{
	if (!e->open)
		return true;
	for (uint32_t i = 0; i < e->open->nhandles; i++)
		if (!compatible(e->open->hflags[i], flags))
			return false;
	return true;
}

TEE_Result handle_add(struct worker *w, struct stor_entry *e, uint32_t flags, uint32_t *h)
{
	struct stor_open *o = NULL;
	size_t i = 0;
	TEE_Result res = obj_open(e);

	if (res)
		return res;
	o = e->open;
	for (i = 0; i < w->nh; i++)
		if (!w->h[i].e)
			break;
	if (i == w->nh) {
		struct whandle *p = NULL;

		if (w->nh >= HANDLES_MAX)
			goto full;
		p = realloc(w->h, (w->nh + 16) * sizeof(*p));
		if (!p)
			goto full;
		memset(p + w->nh, 0, 16 * sizeof(*p));
		w->h = p;
		w->nh += 16;
	}
	if (o->nhandles == o->hcap) {
		uint32_t *f = realloc(o->hflags, (o->hcap + 4) * sizeof(*f));

		if (!f)
			goto full;
		o->hflags = f;
		o->hcap += 4;
	}
	o->hflags[o->nhandles++] = flags;
	w->h[i].e = e;
	w->h[i].flags = flags;
	*h = (uint32_t)i + 1;
	return TEE_SUCCESS;
full:
	if (!o->nhandles)
		obj_close(e);
	return TEE_ERROR_OUT_OF_MEMORY;
}

void handle_drop(struct whandle *wh)
{
	struct stor_entry *e = wh->e;
	struct stor_open *o = e->open;

	for (uint32_t i = 0; o && i < o->nhandles; i++) {
		if (o->hflags[i] == wh->flags) {
			o->hflags[i] = o->hflags[--o->nhandles];
			break;
		}
	}
	if (o && !o->nhandles)
		obj_close(e);
	wh->e = NULL;
	wh->flags = 0;
}
