/*
 * BSD queues for TAs. The kit's include directory comes before the
 * system's, so this header stands in for glibc's <sys/queue.h>: it
 * includes glibc's (which glibc's own headers and programs may rely on)
 * and adds what OP-TEE's libutils version has and glibc's lacks, the
 * *_FOREACH_SAFE loops (which allow the loop body to remove or free var)
 * and a few accessors, each only where glibc has not defined it.
 */
#ifndef SWTEE_SYS_QUEUE_H
#define SWTEE_SYS_QUEUE_H

#include_next <sys/queue.h>

#include <stddef.h>

/* Loops over the list; tvar holds the next element, so var may be removed. */
#ifndef LIST_FOREACH_SAFE
#define LIST_FOREACH_SAFE(var, head, field, tvar)                                                  \
	for ((var) = LIST_FIRST(head); (var) && ((tvar) = LIST_NEXT((var), field), 1);             \
	     (var) = (tvar))
#endif
#ifndef SLIST_FOREACH_SAFE
#define SLIST_FOREACH_SAFE(var, head, field, tvar)                                                 \
	for ((var) = SLIST_FIRST(head); (var) && ((tvar) = SLIST_NEXT((var), field), 1);           \
	     (var) = (tvar))
#endif
#ifndef STAILQ_FOREACH_SAFE
#define STAILQ_FOREACH_SAFE(var, head, field, tvar)                                                \
	for ((var) = STAILQ_FIRST(head); (var) && ((tvar) = STAILQ_NEXT((var), field), 1);         \
	     (var) = (tvar))
#endif
#ifndef SIMPLEQ_FOREACH_SAFE
#define SIMPLEQ_FOREACH_SAFE(var, head, field, tvar)                                               \
	for ((var) = SIMPLEQ_FIRST(head); (var) && ((tvar) = SIMPLEQ_NEXT((var), field), 1);       \
	     (var) = (tvar))
#endif
#ifndef TAILQ_FOREACH_SAFE
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)                                                 \
	for ((var) = TAILQ_FIRST(head); (var) && ((tvar) = TAILQ_NEXT((var), field), 1);           \
	     (var) = (tvar))
#endif
#ifndef TAILQ_FOREACH_REVERSE_SAFE
#define TAILQ_FOREACH_REVERSE_SAFE(var, head, headname, field, tvar)                               \
	for ((var) = TAILQ_LAST((head), headname);                                                 \
	     (var) && ((tvar) = TAILQ_PREV((var), headname, field), 1); (var) = (tvar))
#endif

/* Removes the element after elm. */
#ifndef SLIST_REMOVE_AFTER
#define SLIST_REMOVE_AFTER(elm, field)                                                             \
	((elm)->field.sle_next = (elm)->field.sle_next->field.sle_next)
#endif
#ifndef STAILQ_REMOVE_AFTER
#define STAILQ_REMOVE_AFTER(head, elm, field)                                                      \
	do {                                                                                       \
		if (((elm)->field.stqe_next = (elm)->field.stqe_next->field.stqe_next) == NULL)    \
			(head)->stqh_last = &(elm)->field.stqe_next;                               \
	} while (0)
#endif
/* The last element, or NULL: stqh_last points into the last element's entry. */
#ifndef STAILQ_LAST
#define STAILQ_LAST(head, type, field)                                                             \
	(STAILQ_EMPTY(head) ? NULL                                                                 \
			    : (struct type *)(void *)((char *)((head)->stqh_last) -                \
						      offsetof(struct type, field)))
#endif

#endif /* SWTEE_SYS_QUEUE_H */
