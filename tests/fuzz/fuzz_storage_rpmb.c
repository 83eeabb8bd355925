/*
 * Fuzzes the emulated RPMB slot of a store (rpmb_open and the decoding of
 * its two anchor copies, src/core/storage/rpmb.c). The first byte picks
 * how the slot file is made:
 *
 *   & 3 = 0  the rest is the file as it is (MACs checked first)
 *         1  two 88-byte anchor bodies from the rest, MACed under the
 *            test K_rpmb (with & 4 their TA binding set right), at 0
 *            and 512: what is parsed after the MAC
 *         2  the fields (counter seq log_seq log_end:u64, tags from the
 *            rest) of the copies & 8 (first) and & 16 (second)
 *         3  as 2, the file cut after a length:u16
 *
 * A slot that opens must be sane (log bounded, head after the anchor), and
 * a record appended to it and an anchor update must read back.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_storage_env.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SLOT_BYTES (RF_COPY_OFF + RF_COPY_LEN)

static void make_slot(const uint8_t *data, size_t size, uint8_t *slot, size_t *len)
{
	struct buf_reader r;
	uint8_t flags = 0;
	uint16_t cut = 0;

	buf_reader_init(&r, data, size);
	buf_get_u8(&r, &flags);
	*len = SLOT_BYTES;
	switch (flags & 3) {
	case 0:
		*len = buf_left(&r) < SLOT_BYTES ? buf_left(&r) : SLOT_BYTES;
		buf_get_bytes(&r, slot, *len);
		break;
	case 1:
		for (int i = 0; i < 2; i++) {
			uint8_t *copy = slot + i * RF_COPY_OFF;
			size_t n = buf_left(&r) < RF_BODY ? buf_left(&r) : RF_BODY;

			buf_get_bytes(&r, copy, n);
			if (flags & 4)
				memcpy(copy + RF_BODY - STOR_TAG, fse_keys()->binding, STOR_TAG);
			keys_rpmb_mac(copy, RF_BODY, copy + RF_BODY);
		}
		break;
	default:
		for (int i = 0; i < 2; i++) {
			struct rpmb_slot a = {0};

			if (!(flags & (8 << i)))
				continue;
			buf_get_u64(&r, &a.counter);
			buf_get_u64(&r, &a.seq);
			buf_get_u64(&r, &a.log_seq);
			buf_get_u64(&r, &a.log_end);
			buf_get_u8(&r, &a.tag[0]);
			buf_get_u8(&r, &a.log_tag[0]);
			fse_anchor_encode(slot + i * RF_COPY_OFF, &a);
		}
		if ((flags & 3) == 3 && buf_get_u16(&r, &cut) && cut < *len)
			*len = cut;
		break;
	}
}

/* The slot must open as rpmb_open left it, with the given changes. */
static void reopen(const struct rpmb_slot *want)
{
	struct rpmb_slot r;

	if (rpmb_open(&r, fse_dir(), fse_keys()) != RPMB_OK)
		abort();
	if (r.counter != want->counter || r.seq != want->seq || r.log_seq != want->log_seq ||
	    r.log_end != want->log_end || memcmp(r.tag, want->tag, STOR_TAG) ||
	    memcmp(r.log_tag, want->log_tag, STOR_TAG))
		abort();
	rpmb_close(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t rec[64] = {1, 2, 3};
	static const uint8_t tag[STOR_TAG] = {0x74, 0x61, 0x67};
	uint8_t slot[SLOT_BYTES] = {0};
	struct rpmb_slot r;
	size_t len = 0;
	int rc = 0;

	fse_init();
	fse_reset();
	make_slot(data, size, slot, &len);
	if (fse_slot_write(slot, len))
		abort();
	rc = rpmb_open(&r, fse_dir(), fse_keys());
	if (rc != RPMB_OK)
		return 0;
	if (r.fd < 0 || r.log_end > RPMB_LOG_SIZE || r.log_seq < r.seq)
		abort();
	/* A counter or a sequence number about to wrap is 2^64 writes away: not a state to test. */
	if (r.counter >= UINT64_MAX - 2 || r.log_seq >= UINT64_MAX - 2) {
		rpmb_close(&r);
		return 0;
	}
	if (!rpmb_log_append(&r, fse_keys(), rec, sizeof(rec), r.log_seq + 1, tag))
		reopen(&r);
	if (!rpmb_update(&r, fse_keys(), r.log_seq, tag))
		reopen(&r);
	rpmb_close(&r);
	return 0;
}
