/*
 * GP Cryptographic Operations API: MACs (6.4). TEE_MACCompareFinal compares
 * in constant time and answers TEE_ERROR_MAC_INVALID for a MAC of another
 * length, as OP-TEE does: no truncated MACs.
 */
#include <string.h>

#include "operation.h"
#include "runtime.h"
#include "secure.h"

static struct tee_op *mac_op(TEE_OperationHandle h, const char *func)
{
	struct tee_op *op = op_from_handle(h, func);

	if (op->info.operationClass != TEE_OPERATION_MAC)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return op;
}

/* An operation between TEE_MACInit and its final call. */
static struct tee_op *active_mac_op(TEE_OperationHandle h, const char *func)
{
	struct tee_op *op = mac_op(h, func);

	if (!(op->info.handleState & TEE_HANDLE_FLAG_INITIALIZED) ||
	    op->state != TEE_OPERATION_STATE_ACTIVE)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	return op;
}

void TEE_MACInit(TEE_OperationHandle operation, const void *IV, size_t IVLen)
{
	static const char func[] = "TEE_MACInit";
	struct tee_op *op = mac_op(operation, func);
	const uint8_t *key = NULL;
	size_t key_len = 0;

	if (!(op->info.handleState & TEE_HANDLE_FLAG_KEY_SET))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	/* No GP MAC algorithm takes an IV; it is ignored, as in OP-TEE. */
	if (!IV && IVLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (op->state != TEE_OPERATION_STATE_INITIAL)
		op_reset_state(op);
	op_key_bytes(op->key1, &key, &key_len);
	if (be_mac_init(op->be.mac, key, key_len))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op->state = TEE_OPERATION_STATE_ACTIVE;
	op->info.handleState |= TEE_HANDLE_FLAG_INITIALIZED;
}

void TEE_MACUpdate(TEE_OperationHandle operation, const void *chunk, size_t chunkSize)
{
	static const char func[] = "TEE_MACUpdate";
	struct tee_op *op = NULL;

	if (!chunk && chunkSize)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = active_mac_op(operation, func);
	if (be_mac_update(op->be.mac, chunk, chunkSize))
		rt_panic(TEE_ERROR_GENERIC, func);
}

/* Ends the MAC into mac (digestLength bytes); panics on a partial NOPAD block. */
static void mac_final(struct tee_op *op, const void *message, size_t len, uint8_t *mac,
		      const char *func)
{
	TEE_Result res = be_mac_update(op->be.mac, message, len);

	if (!res)
		res = be_mac_final(op->be.mac, mac, op->info.digestLength);
	if (res)
		rt_panic(res, func);
	op->state = TEE_OPERATION_STATE_INITIAL;
	op->info.handleState &= ~TEE_HANDLE_FLAG_INITIALIZED;
}

TEE_Result TEE_MACComputeFinal(TEE_OperationHandle operation, const void *message,
			       size_t messageLen, void *mac, size_t *macLen)
{
	static const char func[] = "TEE_MACComputeFinal";
	struct tee_op *op = NULL;

	if ((!message && messageLen) || !macLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = active_mac_op(operation, func);
	if (*macLen < op->info.digestLength) {
		*macLen = op->info.digestLength;
		return TEE_ERROR_SHORT_BUFFER;
	}
	if (!mac)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	mac_final(op, message, messageLen, mac, func);
	*macLen = op->info.digestLength;
	return TEE_SUCCESS;
}

TEE_Result TEE_MACCompareFinal(TEE_OperationHandle operation, const void *message,
			       size_t messageLen, const void *mac, size_t macLen)
{
	static const char func[] = "TEE_MACCompareFinal";
	struct tee_op *op = NULL;
	uint8_t computed[TEE_MAX_HASH_SIZE];
	TEE_Result res = TEE_ERROR_MAC_INVALID;

	if ((!message && messageLen) || (!mac && macLen))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = active_mac_op(operation, func);
	mac_final(op, message, messageLen, computed, func);
	if (macLen == op->info.digestLength && secure_equal(computed, mac, macLen))
		res = TEE_SUCCESS;
	SECURE_WIPE_VAR(computed);
	return res;
}
