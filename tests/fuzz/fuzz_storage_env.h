/*
 * What the storage harnesses (fuzz_storage_*.c) share: a core-side REE FS
 * channel to a fake tee-supplicant, and builders of the files the normal
 * world holds, sealed with fixed test keys.
 *
 * The fake supplicant runs on a thread of its own and serves the store of
 * one TA (fse_uuid) from files in memory, as tee-supplicant serves them
 * from a directory (proto.h, MSG_FS_BATCH): it answers honestly, unless a
 * fault schedule (fse_faults) or canned listings (fse_listings) say
 * otherwise. It is also an oracle: a batch from the core that the real
 * supplicant would refuse as malformed ends the process (abort).
 *
 * The keys come from a fixed HUK in a temporary secure dir, so a harness
 * can seal journal records, snapshots, RPMB anchors and object blocks the
 * way the engine does, and fuzz what the engine parses after it
 * authenticated them. Each harness checks at its first run that a
 * container it built is accepted, so that a change of the formats cannot
 * leave it fuzzing only the rejection of bad tags.
 */
#ifndef SWTEE_FUZZ_STORAGE_ENV_H
#define SWTEE_FUZZ_STORAGE_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "storage.h"

/* The journal formats (src/core/storage/journal.c, docs/storage.md). */
#define JF_MAGIC_HDR 0x484a5753u /* "SWJH" */
#define JF_MAGIC_REC 0x524a5753u /* "SWJR" */
#define JF_MAGIC_DIR 0x444a5753u /* "SWJD" */
#define JF_VERSION 1u
#define JF_HDR_SLOT 4096u
#define JF_RECORDS 8192u
#define JF_HDR_BODY (4 + 4 + 8 + STOR_TAG + 8 + 8 + STOR_HASH)
#define JF_HDR_LEN (JF_HDR_BODY + STOR_IV + STOR_TAG)
#define JF_RHDR_LEN (4 + 4 + 8 + STOR_TAG + 8 + 4 + STOR_IV)
#define JF_DHDR_LEN (4 + 4 + 8 + 4 + 1 + 8 + 8 + STOR_IV)
/* The RPMB anchor (src/core/storage/rpmb.c). */
#define RF_MAGIC 0x50525753u /* "SWRP" */
#define RF_VERSION 2u
#define RF_BODY (4 + 4 + 8 + 8 + STOR_TAG + 8 + STOR_TAG + 8 + STOR_TAG)
#define RF_COPY_LEN (RF_BODY + STOR_HASH)
#define RF_COPY_OFF 512u

/* ---- the environment ---- */

/* Sets everything up on the first call; later calls do nothing. */
void fse_init(void);
/* The TA whose store the fake supplicant serves, its keys and directory. */
const struct swtee_uuid *fse_uuid(void);
const struct ta_keys *fse_keys(void);
const char *fse_dir(void);
/* The core's end of the channel. */
struct reefs *fse_fs(void);
/*
 * Between two runs: waits for batches still in flight, makes a new channel
 * if the old one broke, and empties the store: no REE directory, no files,
 * no RPMB slot, no faults, no canned listings.
 */
void fse_reset(void);

/* ---- the REE side, as the fake supplicant holds it ---- */

/* The store's directory exists (fse_put makes it too). */
void fse_mkdir(void);
/* Writes n bytes at off of a file of the store's directory (made if absent). 0 or -1. */
int fse_put(const char *name, uint64_t off, const void *p, size_t n);
/*
 * One byte per operation, in the order the supplicant runs them, until
 * they run out: 0x00-0xbf honest, 0xc0-0xcf "no such file", 0xd0-0xdf an
 * I/O error, 0xe0-0xef no space, 0xf0-0xff the count cut to (b & 15)/16 of
 * what it was. The bytes must stay valid until fse_reset.
 */
void fse_faults(const uint8_t *p, size_t n);
/*
 * Canned answers to LIST, one per call, in place of the honest listing:
 * each is len:u16 and that many bytes put at the start of the window, the
 * count being len. Valid until fse_reset.
 */
void fse_listings(const uint8_t *p, size_t n);
/* The names REMOVE was asked for since fse_reset (at most 256 are kept). */
size_t fse_removed_count(void);
const char *fse_removed(size_t i);
/*
 * How many READs since fse_reset the fault schedule answered with less than
 * the file holds (an error, or a count cut short): the core was shown a
 * shorter file, or none.
 */
size_t fse_hidden(void);

/* ---- the RPMB slot (a real file in the secure dir) ---- */

/* Writes the slot file: n bytes at 0, the rest of it absent. 0 or -1. */
int fse_slot_write(const void *p, size_t n);
/* An anchor copy, MACed under K_rpmb, for the fields of r. */
void fse_anchor_encode(uint8_t out[RF_COPY_LEN], const struct rpmb_slot *r);

/* ---- fuzz_storage_build.c: the journal, the RPMB log and snapshots ---- */

#define JB_LOG_MAX 16

/* The state of a journal being built; see fuzz_storage_journal.c for the commands. */
struct jb {
	/* the REE chain: after the newest header, through the records of "j" */
	bool chain;
	uint64_t seq;
	uint8_t tag[STOR_TAG];
	uint64_t prev_seq; /* the link before (for an anchor one record back) */
	uint8_t prev_tag[STOR_TAG];
	uint64_t base_seq; /* the header's */
	uint8_t base_tag[STOR_TAG];
	uint64_t jend; /* where the next record goes in "j" */
	/* the snapshot the next header names */
	bool snap;
	uint64_t snap_seq;
	uint64_t snap_len;
	uint8_t snap_hash[STOR_HASH];
	/* records for the RPMB log, sealed by jb_finish once the anchor is known */
	const uint8_t *log_rec[JB_LOG_MAX];
	size_t log_len[JB_LOG_MAX];
	size_t nlog;
	/* the anchor: see jb_anchor */
	uint8_t anchor_flags;
	uint64_t counter;
	uint32_t log_end;
	bool slot;
};

void jb_init(struct jb *b);
/*
 * A header slot: p is slot:u8 mode:u8, then by mode & 3: 0, sealed from
 * seq:u64 (0 means 1) and prev (16 bytes, zeros when short), naming the
 * last snapshot when mode & 0x10; 1, the 80-byte body as given (zero
 * padded), sealed; 2, the 108 bytes as given (zero padded), not sealed.
 * Records that follow chain after a sealed header.
 */
void jb_header(struct jb *b, const uint8_t *p, size_t n);
/*
 * A record: p is flags:u8 bulk_len:u16 bulk, then its meta (in clear).
 * Sealed and chained unless flags & 1: then the bytes after the flags go
 * as they are, and with flags & 2 the chain's seq and prev tag are put
 * into them where a head has them. In the RPMB log when log is set.
 */
void jb_record(struct jb *b, bool log, const uint8_t *p, size_t n);
/*
 * A snapshot d<seq>: p is mode:u8 seq:u64 tset:u8 toff:u64 tree:u64 and
 * the entries (in clear, ENTRY_BYTES each; a short tail is dropped), sealed
 * under K_dir; mode 1: the bytes after seq are the file as it is; mode 2:
 * as 0 but the entry count in the head is off by one. The next header
 * names it (and pins its SHA-256).
 */
void jb_snapshot(struct jb *b, const uint8_t *p, size_t n);
/*
 * The RPMB anchor, where by default it anchors the end of the REE chain
 * and its log holds the log records: p is flags:u8 counter:u64 log_end:u32
 * with flags 1 one REE record back, 2 the other copy too (older, anchoring
 * the header), 4 the log head one record short, 8 one record long, 16 the
 * given log_end, 32 no slot at all.
 */
void jb_anchor(struct jb *b, const uint8_t *p, size_t n);
/* Seals the log and writes the slot. */
void jb_finish(struct jb *b);

/* An entry in its stored form (entry_put) into out[ENTRY_BYTES]. */
void fse_entry_encode(uint8_t *out, const struct stor_entry *e);

/*
 * Locks the store (journal_load and the sweep, as the first storage call of
 * a TA does), checks what it loaded (abort when the directory is
 * inconsistent), and lets go. With more, it also uses the store (reads
 * from some objects, the idle confirmation and checkpoint), and a store
 * still whole then must load again with the same directory, if the first
 * load was shown its files whole (fse_hidden). The result of the first
 * store_lock; *n (when not NULL) gets the number of objects it loaded.
 */
TEE_Result fse_load(bool more, size_t *n);

#endif
