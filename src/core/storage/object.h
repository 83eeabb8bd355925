/*
 * Object data, the private header of its files: object.c (the open state,
 * reads, attribute blobs, the check of blocks written in place) and
 * object_write.c (writes and truncations: the blocks they touch, sealed
 * into a transaction). Block b of an object is its bytes [4096 b,
 * 4096 b + 4096), the last one shorter, sealed under the object's FEK with
 * (file id, b) as additional data.
 */
#ifndef SWTEE_STORAGE_OBJECT_H
#define SWTEE_STORAGE_OBJECT_H

#include "storage.h"

/* The length of block b of an object of size bytes: 0 past its end. */
uint32_t obj_block_len(uint64_t size, uint64_t b);
/* The additional data block b of object fid is sealed with. */
void obj_block_aad(const uint8_t fid[STOR_FID], uint64_t b, uint8_t aad[STOR_FID + 8]);
/*
 * Block b of e failed its integrity check: e is marked corrupt (logged the
 * first time) and its cached plaintext dropped. TEE_ERROR_CORRUPT_OBJECT.
 */
TEE_Result obj_corrupt(struct stor_entry *e, uint64_t b);

#endif
