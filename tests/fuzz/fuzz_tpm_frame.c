/*
 * Fuzzes swtee-tpm's request framing (src/tpm_bridge/frame.c). The first
 * byte picks the protocol (mssim command or platform port, swtpm data or
 * control channel, a VM's control channel); the rest is a peer's byte stream, parsed as a
 * connection does: request after request, each from a buffer of at most
 * FRAME_MAX bytes. Every request must lie within the bytes it was parsed
 * from, and a request that needs more bytes must fit in FRAME_MAX.
 */
#include <stdint.h>
#include <stdlib.h>

#include "frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum frame_proto proto = FRAME_MSSIM_TPM;
	volatile uint8_t sink = 0;
	size_t off = 0;

	if (!size)
		return 0;
	proto = (enum frame_proto)(data[0] % 5);
	data++;
	size--;
	while (off < size) {
		struct frame f;
		size_t n = size - off < FRAME_MAX ? size - off : FRAME_MAX;
		size_t used = 0;
		enum frame_status st = frame_parse(proto, data + off, n, &f, &used);

		if (st == FRAME_MORE) {
			/* A connection's buffer holds FRAME_MAX: it must never wait when full. */
			if (n == FRAME_MAX || used)
				abort();
			break;
		}
		if (st == FRAME_BAD) {
			if (used)
				abort();
			break;
		}
		if (st != FRAME_WHOLE || !used || used > n)
			abort();
		if (f.len && (!f.data || f.data < data + off || f.len > used ||
			      f.data + f.len > data + off + used))
			abort();
		if (f.code == FRAME_TPM_COMMAND && f.len > FRAME_TPM_MAX)
			abort();
		for (size_t i = 0; i < f.len; i++)
			sink ^= f.data[i];
		off += used;
		if (f.last)
			break;
	}
	(void)sink;
	return 0;
}
