/*
 * A store put out of service: the one piece of a store's state that every
 * layer below store.c may change (commit.c, checkpoint.c, a failed load),
 * kept apart so that none of them calls back up into the table of stores.
 */
#include "log.h"
#include "storage.h"

void store_break(struct store *s, TEE_Result res, const char *why)
{
	char name[SWTEE_UUID_STR_LEN];

	if (s->broken)
		return;
	uuid_format(&s->uuid, name);
	log_error("storage of TA %s is unavailable: %s", name, why);
	s->broken = res;
}
