/*
 * The storage engine's formats, shared by every layer of it: the sizes of
 * its keys, IVs, tags and hashes, of the blocks and map pages of an object,
 * the namespaces, the GP result type, the flags of a stored entry and the operations of a
 * journal record (docs/storage.md has the layout they make up).
 */
#ifndef SWTEE_STORAGE_FORMAT_H
#define SWTEE_STORAGE_FORMAT_H

#include <stdint.h>

#include <tee_api_defines.h>

#include "proto.h"

/* The GP result, its values from tee_api_defines.h. */
typedef uint32_t TEE_Result;

#define STOR_KEY 32
#define STOR_IV 12
#define STOR_TAG 16
#define STOR_HASH 32
#define STOR_FID 16
#define STOR_BLOCK 4096u
#define STOR_ENTRY 32u			      /* a map entry */
#define STOR_FANOUT (STOR_BLOCK / STOR_ENTRY) /* entries per map page */
#define STOR_LEVELS 3			      /* 128^3 blocks > 4 GiB */
#define STOR_MAX_SIZE 0xffffffffull	      /* TEE_DATA_MAX_POSITION */
#define STOR_NS_PRIVATE 0		      /* TEE_STORAGE_PRIVATE and _REE */
#define STOR_NS_RPMB 1			      /* TEE_STORAGE_PRIVATE_RPMB */
#define STOR_DIRNAME_LEN PROTO_FS_DIR_LEN

#define ENTRY_CORRUPT 0x01 /* an integrity check failed: the object stays failed */

/* Serialised form of an entry (the part that is stored: entry_put). */
#define ENTRY_BYTES                                                                                \
	(STOR_FID + 3 + PROTO_STOR_ID_MAX + STOR_KEY + 8 + STOR_HASH + 20 + STOR_IV + STOR_TAG)

/*
 * Meta operations, replayed in order at commit and at recovery. Image
 * offsets are into the record's bulk.
 */
#define META_PUT 1	/* entry */
#define META_DEL 2	/* fid */
#define META_COPY 3	/* bulk offset:u64 len:u32 fid kind:u8 off:u64 */
#define META_TRUNCATE 4 /* fid kind:u8 size:u64 */
#define META_REMOVE 5	/* fid: every file of the object */
#define META_TIME 6	/* offset_ms:u64 ree_ms:u64 */
/*
 * fid first:u64 n:u32, then n times iv tag: blocks the record wrote in
 * place, synced while the record itself was (commit_log); recovery checks
 * they landed before it counts the record.
 */
#define META_DIRECT 7
/* nothing: a record that only makes the one before it no longer the last */
#define META_CONFIRM 8

#endif
