/*
 * GP Cryptographic Operations API: authenticated encryption (6.5), AES-GCM
 * and AES-CCM.
 *
 * Decryption releases no plaintext before the tag is verified: in decrypt
 * mode TEE_AEUpdate outputs nothing and the plaintext waits in private
 * memory; TEE_AEDecryptFinal hands it all out if the tag matches, and
 * nothing (destLen 0) with TEE_ERROR_MAC_INVALID if it does not. The
 * memory this takes grows with the message. Encryption streams: GCM
 * outputs what TEE_AEUpdate takes, CCM (whose tag comes first in the
 * computation) outputs everything in TEE_AEEncryptFinal.
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

/* Bytes TEE_AEUpdate outputs for len in: GCM encryption streams. */
static size_t update_out_len(const struct tee_op *op, size_t len)
{
	if (op->info.mode == TEE_MODE_ENCRYPT && op->info.algorithm == TEE_ALG_AES_GCM)
		return len;
	return 0;
}

/* Makes room for n more bytes in the hold buffer; panics when out of memory. */
static void hold_reserve(struct tee_op *op, size_t n, const char *func)
{
	size_t need = 0;
	size_t cap = 0;
	uint8_t *p = NULL;

	if (__builtin_add_overflow(op->hold_len, n, &need))
		rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
	if (need <= op->hold_cap && op->hold)
		return;
	cap = op->hold_cap ? op->hold_cap : 256;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = malloc(cap);
	if (!p)
		rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
	if (op->hold_len) {
		/* hold_len > 0 only with hold allocated. */
		/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
		memcpy(p, op->hold, op->hold_len);
	}
	if (op->hold)
		secure_wipe(op->hold, op->hold_cap);
	free(op->hold);
	op->hold = p;
	op->hold_cap = cap;
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
	op_hold_clear(op);
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
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t req = 0;
	size_t n = 0;

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
	if (op->info.mode == TEE_MODE_ENCRYPT) {
		res = be_ae_update(op->be.ae, srcData, srcLen, destData, &n);
	} else {
		hold_reserve(op, srcLen, func);
		res = be_ae_update(op->be.ae, srcData, srcLen, op->hold + op->hold_len, &n);
		op->hold_len += n;
		n = 0;
	}
	if (res)
		rt_panic(res, func);
	op->state = TEE_OPERATION_STATE_ACTIVE;
	*destLen = n;
	return TEE_SUCCESS;
}

static void ae_done(struct tee_op *op)
{
	op_hold_clear(op);
	op->state = TEE_OPERATION_STATE_INITIAL;
	op->info.handleState &= ~TEE_HANDLE_FLAG_INITIALIZED;
}

TEE_Result TEE_AEEncryptFinal(TEE_OperationHandle operation, const void *srcData, size_t srcLen,
			      void *destData, size_t *destLen, void *tag, size_t *tagLen)
{
	static const char func[] = "TEE_AEEncryptFinal";
	struct tee_op *op = NULL;
	TEE_Result res = TEE_SUCCESS;
	size_t req = 0;
	size_t n = 0;

	if ((!srcData && srcLen) || !destLen || !tagLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = inited_ae_op(operation, func);
	if (op->info.mode != TEE_MODE_ENCRYPT)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	req = be_ae_pending(op->be.ae) + srcLen;
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
	if ((!destData && req) || !tag)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = be_ae_enc_final(op->be.ae, srcData, srcLen, destData, &n, tag);
	if (res)
		rt_panic(res, func);
	*destLen = n;
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
	size_t total = 0;
	size_t n = 0;

	if ((!srcData && srcLen) || !destLen || (!tag && tagLen))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op = inited_ae_op(operation, func);
	if (op->info.mode != TEE_MODE_DECRYPT)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	total = op->hold_len + be_ae_pending(op->be.ae) + srcLen;
	if (*destLen < total) {
		*destLen = total;
		return TEE_ERROR_SHORT_BUFFER;
	}
	if (!destData && total)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	hold_reserve(op, total - op->hold_len, func);
	res = be_ae_dec_final(op->be.ae, srcData, srcLen, op->hold + op->hold_len, &n, tag, tagLen);
	if (res == TEE_ERROR_MAC_INVALID) {
		*destLen = 0;
		ae_done(op);
		return res;
	}
	if (res)
		rt_panic(res, func);
	op->hold_len += n;
	if (op->hold_len) {
		/* hold_len <= total, and destData is set when total > 0 (checked above). */
		/* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
		memcpy(destData, op->hold, op->hold_len);
	}
	*destLen = op->hold_len;
	ae_done(op);
	return TEE_SUCCESS;
}
