/*
 * The parser of the core's requests on a REE FS channel (proto.h,
 * MSG_FS_BATCH): bytes in, a checked batch out, no I/O, so that it runs
 * alone under a fuzzer (tests/fuzz/fuzz_ree_fs_batch.c). ree_fs.c runs
 * what it gives.
 */
#ifndef SWTEE_REE_FS_BATCH_H
#define SWTEE_REE_FS_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

/* One operation with its fields, as proto.h lays them out. */
struct ree_fs_op {
	uint32_t code;			  /* FS_OP_* */
	char name[PROTO_FS_NAME_MAX + 1]; /* "" for SYNCDIR, MKDIR and LIST from the first */
	char to[PROTO_FS_NAME_MAX + 1];	  /* COPY's destination */
	uint64_t off;			  /* TRUNCATE: the size */
	uint64_t to_off;		  /* COPY's destination offset */
	uint32_t len;
	uint32_t win; /* READ, WRITE: where in the window */
};

/* How the bytes after the well-formed operations end. */
enum ree_fs_batch_end {
	REE_FS_BATCH_WHOLE,    /* nops operations, and nothing after them */
	REE_FS_BATCH_BAD_OP,   /* operation nvalid is malformed or unknown */
	REE_FS_BATCH_TRAILING, /* nops operations, then bytes more */
};

struct ree_fs_batch {
	char dir[PROTO_FS_DIR_LEN + 1];
	uint32_t nops;	 /* as the request gives it, at most PROTO_FS_OPS_MAX */
	uint32_t nvalid; /* ops[0..nvalid) are well formed: nops unless REE_FS_BATCH_BAD_OP */
	enum ree_fs_batch_end end;
	/*
	 * REE_FS_BATCH_BAD_OP: the malformed operation's code was there (in
	 * ops[nvalid].code; its fields are not), rather than the bytes ending
	 * before it.
	 */
	bool bad_code_read;
	struct ree_fs_op ops[PROTO_FS_OPS_MAX];
};

/*
 * Parses the request in[0..n). false when its header is refused (not
 * MSG_FS_BATCH, a directory name that is not 32 lowercase hex digits, more
 * than PROTO_FS_OPS_MAX operations, or short of a header); else true, with
 * every operation up to the first malformed one in *b, so that the caller
 * runs those and then answers FS_RES_INVAL at that index, as if the batch
 * had been read as it ran. A well-formed operation has a known code, names
 * of 1..PROTO_FS_NAME_MAX characters of [0-9a-z.] not starting with a dot,
 * a window range inside PROTO_FS_WINDOW, and offsets a file can have
 * (TRUNCATE, WRITEOUT: at most INT64_MAX; RESERVE: its end too).
 */
bool ree_fs_batch_parse(const uint8_t *in, size_t n, struct ree_fs_batch *b);

/* True when d[0..PROTO_FS_DIR_LEN) are lowercase hex digits: a store's directory name. */
bool ree_fs_batch_dir_ok(const char *d);

#endif
