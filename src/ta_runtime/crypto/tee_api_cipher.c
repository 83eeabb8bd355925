/*
 * GP Cryptographic Operations API: symmetric ciphers (6.3).
 *
 * Block modes buffer as OP-TEE does, which xtest 4017 pins down: an update
 * outputs every whole block it can and keeps the partial one; CTS, XTS and
 * PKCS#5 decryption keep back one block and a byte (up to two blocks) for
 * the final call, which needs them for ciphertext stealing or unpadding.
 * So after n bytes in total an update has output
 *	floor(n / bs) * bs				(one block kept)
 *	n > 2bs ? roundup(n - 2bs, bs) : 0		(two blocks kept)
 * AES-CTR streams with no buffering.
 */
#include <string.h>

#include "operation.h"
#include "runtime.h"

static struct tee_op *cipher_op(TEE_OperationHandle h, const char *func)
{
	struct tee_op *op = op_from_handle(h, func);

	if (op->info.operationClass != TEE_OPERATION_CIPHER)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return op;
}

/* An operation between TEE_CipherInit and TEE_CipherDoFinal. */
static struct tee_op *active_cipher_op(TEE_OperationHandle h, const char *func)
{
	struct tee_op *op = cipher_op(h, func);

	if (!(op->info.handleState & TEE_HANDLE_FLAG_INITIALIZED) ||
	    op->state != TEE_OPERATION_STATE_ACTIVE)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	return op;
}

void TEE_CipherInit(TEE_OperationHandle operation, const void *IV, size_t IVLen)
{
	static const char func[] = "TEE_CipherInit";
	struct tee_op *op = cipher_op(operation, func);
	const uint8_t *k1 = NULL;
	const uint8_t *k2 = NULL;
	size_t k1_len = 0;
	size_t k2_len = 0;

	if (!(op->info.handleState & TEE_HANDLE_FLAG_KEY_SET))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if (!IV && IVLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (IV && IVLen && TEE_ALG_GET_CHAIN_MODE(op->info.algorithm) == TEE_CHAIN_MODE_ECB_NOPAD)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (op->state != TEE_OPERATION_STATE_INITIAL)
		op_reset_state(op);
	op_key_bytes(op->key1, &k1, &k1_len);
	op_key_bytes(op->key2, &k2, &k2_len);
	if (be_cipher_init(op->be.cipher, k1, k1_len, k2, k2_len, IVLen ? IV : NULL, IVLen))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op->buf_off = 0;
	op->state = TEE_OPERATION_STATE_ACTIVE;
	op->info.handleState |= TEE_HANDLE_FLAG_INITIALIZED;
}

/* Bytes an update of len more bytes outputs. */
static size_t update_out_len(const struct tee_op *op, size_t len)
{
	size_t bs = op->block_size;
	size_t total = op->buf_off + len;

	if (bs == 1)
		return len;
	if (!op->two_blocks)
		return total / bs * bs;
	if (total <= 2 * bs)
		return 0;
	return (total - 2 * bs + bs - 1) / bs * bs;
}

/*
 * Feeds src through the block buffer, writing update_out_len(slen) bytes
 * to dst: first whole blocks of the buffer (completed from src if need
 * be), then whole blocks straight from src; what is left is buffered.
 */
static TEE_Result feed(struct tee_op *op, const uint8_t *src, size_t slen, uint8_t *dst)
{
	size_t bs = op->block_size;
	size_t proc = update_out_len(op, slen);
	size_t n = 0;

	if (proc && op->buf_off % bs) {
		n = bs - op->buf_off % bs;
		memcpy(op->buf + op->buf_off, src, n);
		op->buf_off += n;
		src += n;
		slen -= n;
	}
	n = proc < op->buf_off ? proc : op->buf_off;
	if (n) {
		if (be_cipher_update(op->be.cipher, op->buf, n, dst))
			return TEE_ERROR_GENERIC;
		memmove(op->buf, op->buf + n, op->buf_off - n);
		op->buf_off -= n;
		dst += n;
		proc -= n;
	}
	if (proc) {
		if (be_cipher_update(op->be.cipher, src, proc, dst))
			return TEE_ERROR_GENERIC;
		src += proc;
		slen -= proc;
	}
	memcpy(op->buf + op->buf_off, src, slen);
	op->buf_off += slen;
	return TEE_SUCCESS;
}

TEE_Result TEE_CipherUpdate(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			    void *destData, size_t *destLen)
{
	static const char func[] = "TEE_CipherUpdate";
	struct tee_op *op = NULL;
	const uint8_t *src = NULL;
	uint8_t *copy = NULL;
	TEE_Result res = TEE_SUCCESS;
	size_t req = 0;

	if ((!srcData && srcLen) || !destLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = active_cipher_op(operation, func);
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
	/*
	 * Exactly in place is safe when nothing is buffered: each block is then
	 * read before the same place is written. Any other overlap is copied.
	 */
	if (srcData == destData && (op->block_size == 1 || op->buf_off == 0))
		src = srcData;
	else
		src = op_input_copy(srcData, srcLen, destData, *destLen, &copy, func);
	if (op->block_size == 1)
		res = be_cipher_update(op->be.cipher, src, srcLen, destData);
	else
		res = feed(op, src, srcLen, destData);
	op_input_free(copy, srcLen);
	if (res)
		rt_panic(res, func);
	*destLen = req;
	return TEE_SUCCESS;
}

TEE_Result TEE_CipherDoFinal(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			     void *destData, size_t *destLen)
{
	static const char func[] = "TEE_CipherDoFinal";
	struct tee_op *op = NULL;
	const uint8_t *src = NULL;
	uint8_t *dst = destData;
	uint8_t *copy = NULL;
	TEE_Result res = TEE_SUCCESS;
	size_t total = 0;
	size_t req = 0;
	size_t room = destLen ? *destLen : 0;
	size_t n = 0;
	size_t out = 0;

	if (!srcData && srcLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = active_cipher_op(operation, func);
	total = op->block_size == 1 ? srcLen : op->buf_off + srcLen;
	if ((op->desc->flags & ALG_NOPAD) && total % op->block_size)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	req = total;
	if ((op->desc->flags & ALG_PKCS5) && op->info.mode == TEE_MODE_ENCRYPT)
		req = total - total % op->block_size + op->block_size;
	/* A PKCS#5 ciphertext is whole blocks, at least one. */
	if ((op->desc->flags & ALG_PKCS5) && op->info.mode == TEE_MODE_DECRYPT &&
	    (!total || total % op->block_size))
		return TEE_ERROR_BAD_PARAMETERS;
	if (room < req) {
		if (destLen)
			*destLen = req;
		return TEE_ERROR_SHORT_BUFFER;
	}
	if (!dst && req)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	src = op_input_copy(srcData, srcLen, destData, room, &copy, func);
	if (op->block_size == 1) {
		res = be_cipher_final(op->be.cipher, src, srcLen, dst, &out);
	} else {
		n = update_out_len(op, srcLen);
		res = feed(op, src, srcLen, dst);
		if (!res)
			res = be_cipher_final(op->be.cipher, op->buf, op->buf_off, dst + n, &out);
		out += n;
	}
	op_input_free(copy, srcLen);
	op->buf_off = 0;
	op->state = TEE_OPERATION_STATE_INITIAL;
	op->info.handleState &= ~TEE_HANDLE_FLAG_INITIALIZED;
	if (res == TEE_ERROR_BAD_PARAMETERS && (op->desc->flags & ALG_PKCS5)) {
		/* Bad padding: nothing of the last block is released. */
		if (destLen)
			*destLen = n;
		return res;
	}
	if (res)
		rt_panic(res, func);
	if (destLen)
		*destLen = out;
	return TEE_SUCCESS;
}
