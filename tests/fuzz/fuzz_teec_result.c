/*
 * Fuzzes libteec's reading of a TA's answer (MSG_TA_RESULT): output values
 * and sizes written back into the caller's operation, and the copy back of
 * temporary memrefs, whatever the instance claims.
 */
#include <stdint.h>
#include <string.h>

/* The reader is private to libteec: take it with its file. */
#include "../../src/client/tee_client_api.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t local[TEEC_CONFIG_PAYLOAD_REF_COUNT][64];
	uint8_t remote[TEEC_CONFIG_PAYLOAD_REF_COUNT][64];
	TEEC_Operation op;
	struct call c;
	uint32_t origin = 0;

	if (size < 2)
		return 0;
	memset(&op, 0, sizeof(op));
	memset(&c, 0, sizeof(c));
	op.paramTypes = (uint32_t)data[0] | (uint32_t)data[1] << 8;
	for (int i = 0; i < TEEC_CONFIG_PAYLOAD_REF_COUNT; i++) {
		op.params[i].tmpref.buffer = local[i];
		op.params[i].tmpref.size = sizeof(local[i]);
		c.p[i].tee_type = TEEC_PARAM_TYPE_GET(op.paramTypes, i) & 7;
		c.p[i].size = sizeof(local[i]);
		c.p[i].copy_local = local[i];
		c.p[i].copy_remote = remote[i];
		c.p[i].copy_back = true;
	}
	read_result(&c, &op, data + 2, size - 2, &origin);
	return 0;
}
