/*
 * GP Cryptographic Operations API: message digests (6.2) and random
 * numbers (6.7).
 *
 * TEE_DigestExtract on a fixed-length digest finishes it and hands it out
 * in pieces; on SHAKE it squeezes as much as asked, any number of times.
 * Either way the operation is then in the extracting state, where
 * TEE_DigestUpdate and TEE_DigestDoFinal with data panic.
 */
#include <string.h>

#include "operation.h"
#include "runtime.h"

static struct tee_op *digest_op(TEE_OperationHandle h, const char *func)
{
	struct tee_op *op = op_from_handle(h, func);

	if (op->info.operationClass != TEE_OPERATION_DIGEST)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return op;
}

void TEE_DigestUpdate(TEE_OperationHandle operation, const void *chunk, size_t chunkSize)
{
	static const char func[] = "TEE_DigestUpdate";
	struct tee_op *op = digest_op(operation, func);

	if (!chunk && chunkSize)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (op->state == TEE_OPERATION_STATE_EXTRACTING)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	op->state = TEE_OPERATION_STATE_ACTIVE;
	if (be_hash_update(op->be.hash, chunk, chunkSize))
		rt_panic(TEE_ERROR_GENERIC, func);
}

TEE_Result TEE_DigestDoFinal(TEE_OperationHandle operation, const void *chunk, size_t chunkLen,
			     void *hash, size_t *hashLen)
{
	static const char func[] = "TEE_DigestDoFinal";
	struct tee_op *op = digest_op(operation, func);
	bool xof = op->desc->flags & ALG_XOF;
	size_t dl = op->info.digestLength;
	TEE_Result res = TEE_SUCCESS;

	if ((!chunk && chunkLen) || !hashLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (op->state == TEE_OPERATION_STATE_EXTRACTING && chunkLen)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if (xof)
		dl = *hashLen; /* an XOF gives what is asked */
	if (op->state == TEE_OPERATION_STATE_EXTRACTING && !xof)
		dl = op->info.digestLength - op->digest_off;
	if (*hashLen < dl) {
		*hashLen = dl;
		return TEE_ERROR_SHORT_BUFFER;
	}
	if (!hash && dl)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (op->state == TEE_OPERATION_STATE_EXTRACTING && !xof) {
		/* What TEE_DigestExtract has not handed out yet. */
		if (dl)
			memcpy(hash, op->digest + op->digest_off, dl);
	} else {
		res = be_hash_update(op->be.hash, chunk, chunkLen);
		if (!res)
			res = be_hash_final(op->be.hash, hash, dl);
		if (res)
			rt_panic(res, func);
	}
	*hashLen = dl;
	op_reset_state(op);
	return TEE_SUCCESS;
}

TEE_Result TEE_DigestExtract(TEE_OperationHandle operation, void *hash, size_t *hashLen)
{
	static const char func[] = "TEE_DigestExtract";
	struct tee_op *op = digest_op(operation, func);
	size_t n = 0;

	if (!hashLen || (!hash && *hashLen))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (op->desc->flags & ALG_XOF) {
		op->state = TEE_OPERATION_STATE_EXTRACTING;
		op->info.handleState |= TEE_HANDLE_FLAG_EXTRACTING;
		if (be_hash_squeeze(op->be.hash, hash, *hashLen))
			rt_panic(TEE_ERROR_GENERIC, func);
		return TEE_SUCCESS;
	}
	if (op->state != TEE_OPERATION_STATE_EXTRACTING) {
		if (be_hash_final(op->be.hash, op->digest, op->info.digestLength))
			rt_panic(TEE_ERROR_GENERIC, func);
		op->digest_off = 0;
		op->state = TEE_OPERATION_STATE_EXTRACTING;
		op->info.handleState |= TEE_HANDLE_FLAG_EXTRACTING;
	}
	n = op->info.digestLength - op->digest_off;
	if (n > *hashLen)
		n = *hashLen;
	if (n)
		memcpy(hash, op->digest + op->digest_off, n);
	op->digest_off += n;
	*hashLen = n;
	return TEE_SUCCESS;
}

void TEE_GenerateRandom(void *randomBuffer, size_t randomBufferLen)
{
	if (!randomBuffer && randomBufferLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_GenerateRandom");
	if (be_random(randomBuffer, randomBufferLen))
		rt_panic(TEE_ERROR_GENERIC, "TEE_GenerateRandom");
}
