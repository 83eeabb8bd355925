/*
 * The emulated RPMB of the storage engine (rpmb.c): one slot file per TA in
 * the secure dir, authenticated with the RPMB key, whose monotonic counter
 * and head anchor the TA's journal, and whose log holds its small records
 * (journal.h).
 */
#ifndef SWTEE_STORAGE_RPMB_H
#define SWTEE_STORAGE_RPMB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys.h"
#include "must_check.h"

#define RPMB_LOG_OFF 4096
#define RPMB_LOG_SIZE (2u * 1024 * 1024)

struct rpmb_slot {
	int fd;
	uint64_t counter;	   /* writes so far */
	uint64_t seq;		   /* the REE journal position anchored */
	uint8_t tag[STOR_TAG];	   /* and its chain tag */
	uint64_t log_seq;	   /* the last record of the log (seq when empty) */
	uint8_t log_tag[STOR_TAG]; /* its chain tag */
	uint64_t log_end;	   /* bytes of log used */
	bool readonly;		   /* opened for reading only (a read-only secure dir) */
};

enum { RPMB_OK, RPMB_ABSENT, RPMB_BAD, RPMB_IO, RPMB_FULL };
enum { RPMB_LOG_NOTHING = 1, RPMB_LOG_MAYBE = 2 };

/*
 * Opens and authenticates the TA's slot: RPMB_OK (read-only when the secure
 * dir cannot be written), RPMB_ABSENT, RPMB_BAD or RPMB_IO.
 */
SWTEE_MUST_CHECK int rpmb_open(struct rpmb_slot *r, const char *dirname, const struct ta_keys *k);
/*
 * Makes the slot (counter 0, seq 0, empty log): durable before it returns.
 * RPMB_OK, RPMB_FULL (no space in the secure dir) or RPMB_IO.
 */
SWTEE_MUST_CHECK int rpmb_create(struct rpmb_slot *r, const char *dirname, const struct ta_keys *k);
/* Anchors (seq, tag) and empties the log: written and fdatasync'd. 0 or -1. */
SWTEE_MUST_CHECK int rpmb_update(struct rpmb_slot *r, const struct ta_keys *k, uint64_t seq,
				 const uint8_t tag[STOR_TAG]);
/*
 * Appends record (seq, tag) of len bytes to the log with one fdatasync.
 * 0; RPMB_LOG_NOTHING when nothing of it can count; RPMB_LOG_MAYBE when it
 * may or may not have become durable.
 */
SWTEE_MUST_CHECK int rpmb_log_append(struct rpmb_slot *r, const struct ta_keys *k, const void *rec,
				     size_t len, uint64_t seq, const uint8_t tag[STOR_TAG]);
/*
 * The whole log area into buf (RPMB_LOG_SIZE bytes); what lies past the end
 * of a short slot file reads as zeros (no record). 0, or -1 on a read error.
 */
SWTEE_MUST_CHECK int rpmb_log_read(const struct rpmb_slot *r, void *buf);
void rpmb_close(struct rpmb_slot *r);

#endif
