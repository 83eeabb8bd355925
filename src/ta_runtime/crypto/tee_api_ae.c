/*
 * GP Cryptographic Operations API: authenticated encryption (6.5), AES-GCM
 * and AES-CCM.
 *
 * TEE_AEUpdate streams in both directions, as OP-TEE's libutee does (xtest
 * 4005 and 4017 pin it down): GCM outputs what it takes; CCM outputs whole
 * blocks and keeps the partial one for the next call. So decryption hands
 * out plaintext before its tag is checked, which GP allows: a TA must not
 * act on it until TEE_AEDecryptFinal succeeds. TEE_AEDecryptFinal itself
 * releases nothing before the tag checks out: its last bytes are decrypted
 * in private memory and copied out only then, and with
 * TEE_ERROR_MAC_INVALID *destLen is 0 and nothing is written.
 */
#include <stdlib.h>
#include <string.h>

#include "operation.h"
#include "runtime.h"
#include "secure.h"

static struct tee_op *ae_op(TEE_OperationHandle h, const char *func)
{
	struct tee_op *op = op_from_handle(h, func);

	if (op->info.operationClass != TEE_OPERATION_AE)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return op;
}

/* An operation between TEE_AEInit and its final call. */
static struct tee_op *inited_ae_op(TEE_OperationHandle h, const char *func)
{
	struct tee_op *op = ae_op(h, func);

	if (!(op->info.handleState & TEE_HANDLE_FLAG_INITIALIZED))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	return op;
}

/* The unit of CCM's buffering (OP-TEE's libutee); GCM has none. */
static size_t ae_block(const struct tee_op *op)
{
	return op->info.algorithm == TEE_ALG_AES_CCM ? TEE_AES_BLOCK_SIZE : 1;
}

/* Bytes an update of len more bytes outputs: all of GCM's, CCM's whole blocks. */
static size_t update_out_len(const struct tee_op *op, size_t len)
{
	size_t bs = ae_block(op);

	return len / bs * bs + (len % bs + op->buf_off) / bs * bs;
}

/*
 * Feeds src through the buffer, writing update_out_len(len) bytes to dst:
 * what was buffered first, then whole blocks of src; the rest is buffered.
 */
static TEE_Result feed(struct tee_op *op, const uint8_t *src, size_t len, uint8_t *dst)
{
	size_t out = update_out_len(op, len);
	size_t from_src = 0;
	TEE_Result res = TEE_SUCCESS;

	if (out) {
		if (op->buf_off)
			res = be_ae_update(op->be.ae, op->buf, op->buf_off, dst);
		from_src = out - op->buf_off;
		if (!res)
			res = be_ae_update(op->be.ae, src, from_src, dst + op->buf_off);
		if (res)
			return res;
		op->buf_off = 0;
	}
	memcpy(op->buf + op->buf_off, src + from_src, len - from_src);
	op->buf_off += len - from_src;
	return TEE_SUCCESS;
}

TEE_Result TEE_AEInit(TEE_OperationHandle operation, const void *nonce, size_t nonceLen,
		      uint32_t tagLen, size_t AADLen, size_t payloadLen)
{
	static const char func[] = "TEE_AEInit";
	struct tee_op *op = ae_op(operation, func);
	const uint8_t *key = NULL;
	size_t key_len = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!nonce && nonceLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (op->state != TEE_OPERATION_STATE_INITIAL ||
	    !(op->info.handleState & TEE_HANDLE_FLAG_KEY_SET))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	/* GCM: 96..128 bits by bytes; CCM: 32..128 bits by two bytes (in the backend). */
	if (tagLen % 8 || (op->info.algorithm == TEE_ALG_AES_GCM && (tagLen < 96 || tagLen > 128)))
		return TEE_ERROR_NOT_SUPPORTED;
	op->buf_off = 0;
	op_key_bytes(op->key1, &key, &key_len);
	res = be_ae_init(op->be.ae, key, key_len, nonce, nonceLen, tagLen / 8, AADLen, payloadLen);
	if (res == TEE_ERROR_NOT_SUPPORTED)
		return res;
	if (res)
		rt_panic(res, func);
	op->info.digestLength = tagLen / 8;
	op->info.handleState |= TEE_HANDLE_FLAG_INITIALIZED;
	return TEE_SUCCESS;
}

void TEE_AEUpdateAAD(TEE_OperationHandle operation, const void *AADdata, size_t AADdataLen)
{
	static const char func[] = "TEE_AEUpdateAAD";
	struct tee_op *op = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!AADdata && AADdataLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = inited_ae_op(operation, func);
	if (op->state != TEE_OPERATION_STATE_INITIAL)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	res = be_ae_update_aad(op->be.ae, AADdata, AADdataLen);
	if (res)
		rt_panic(res, func);
}

TEE_Result TEE_AEUpdate(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			void *destData, size_t *destLen)
{
	static const char func[] = "TEE_AEUpdate";
	struct tee_op *op = NULL;
	const uint8_t *src = NULL;
	uint8_t *copy = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t req = 0;

	if ((!srcData && srcLen) || !destLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = inited_ae_op(operation, func);
	if (!srcLen) {
		*destLen = 0;
		return TEE_SUCCESS;
	}
	req = update_out_len(op, srcLen);
	if (*destLen < req) {
		*destLen = req;
		return TEE_ERROR_SHORT_BUFFER;
	}
	if (!destData && req)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	/* Exactly in place is safe with nothing buffered; any other overlap is copied. */
	if (srcData == destData && !op->buf_off)
		src = srcData;
	else
		src = op_input_copy(srcData, srcLen, destData, *destLen, &copy, func);
	res = feed(op, src, srcLen, destData);
	op_input_free(copy, srcLen);
	if (res)
		rt_panic(res, func);
	op->state = TEE_OPERATION_STATE_ACTIVE;
	*destLen = req;
	return TEE_SUCCESS;
}

static void ae_done(struct tee_op *op)
{
	op->buf_off = 0;
	secure_wipe(op->buf, sizeof(op->buf));
	op->state = TEE_OPERATION_STATE_INITIAL;
	op->info.handleState &= ~TEE_HANDLE_FLAG_INITIALIZED;
}

TEE_Result TEE_AEEncryptFinal(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			      void *destData, size_t *destLen, void *tag, size_t *tagLen)
{
	static const char func[] = "TEE_AEEncryptFinal";
	struct tee_op *op = NULL;
	const uint8_t *src = NULL;
	uint8_t *dst = destData;
	uint8_t *copy = NULL;
	TEE_Result res = TEE_SUCCESS;
	size_t req = 0;

	if ((!srcData && srcLen) || !destLen || !tagLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = inited_ae_op(operation, func);
	if (op->info.mode != TEE_MODE_ENCRYPT)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	req = op->buf_off + srcLen;
	if (*destLen < req) {
		*destLen = req;
		res = TEE_ERROR_SHORT_BUFFER;
	}
	if (*tagLen < op->info.digestLength) {
		*tagLen = op->info.digestLength;
		res = TEE_ERROR_SHORT_BUFFER;
	}
	if (res)
		return res;
	if ((!dst && req) || !tag)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	src = op_input_copy(srcData, srcLen, destData, *destLen, &copy, func);
	if (op->buf_off)
		res = be_ae_update(op->be.ae, op->buf, op->buf_off, dst);
	if (!res)
		res = be_ae_enc_final(op->be.ae, src, srcLen, op->buf_off ? dst + op->buf_off : dst,
				      tag);
	op_input_free(copy, srcLen);
	if (res)
		rt_panic(res, func);
	*destLen = req;
	*tagLen = op->info.digestLength;
	ae_done(op);
	return TEE_SUCCESS;
}

TEE_Result TEE_AEDecryptFinal(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			      void *destData, size_t *destLen, void *tag, size_t tagLen)
{
	static const char func[] = "TEE_AEDecryptFinal";
	struct tee_op *op = NULL;
	TEE_Result res = TEE_SUCCESS;
	uint8_t *plain = NULL;
	size_t total = 0;

	if ((!srcData && srcLen) || !destLen || (!tag && tagLen))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = inited_ae_op(operation, func);
	if (op->info.mode != TEE_MODE_DECRYPT)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	total = op->buf_off + srcLen;
	if (*destLen < total) {
		*destLen = total;
		return TEE_ERROR_SHORT_BUFFER;
	}
	if (!destData && total)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	/* The last plaintext stays private until the tag checks out. */
	plain = malloc(total ? total : 1);
	if (!plain)
		rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
	if (op->buf_off)
		res = be_ae_update(op->be.ae, op->buf, op->buf_off, plain);
	if (!res)
		res = be_ae_dec_final(op->be.ae, srcData, srcLen, plain + op->buf_off, tag, tagLen);
	if (!res && total)
		memcpy(destData, plain, total);
	secure_wipe(plain, total ? total : 1);
	free(plain);
	if (res && res != TEE_ERROR_MAC_INVALID)
		rt_panic(res, func);
	*destLen = res ? 0 : total;
	ae_done(op);
	return res;
}
