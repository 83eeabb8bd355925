/*
 * crypto_perf: the hash and MAC commands. Each loop of a process call is
 * one TEE_DigestDoFinal (or TEE_MACInit and TEE_MACComputeFinal) over the
 * whole buffer.
 */
#include <tee_internal_api.h>
#include <trace.h>

#include "crypto_perf.h"

/* A 512-bit HMAC key for all MAC algorithms, as OP-TEE's perf TA uses. */
#define PERF_MAC_KEY_BITS 512

struct perf_hash_alg {
	uint32_t id; /* TA_SHA_*, TA_SM3, TA_HMAC_* */
	uint32_t algo;
	uint32_t key_type; /* 0 for a digest */
};

static const struct perf_hash_alg perf_hash_algs[] = {
    {TA_SHA_SHA1, TEE_ALG_SHA1, 0},
    {TA_SHA_SHA224, TEE_ALG_SHA224, 0},
    {TA_SHA_SHA256, TEE_ALG_SHA256, 0},
    {TA_SHA_SHA384, TEE_ALG_SHA384, 0},
    {TA_SHA_SHA512, TEE_ALG_SHA512, 0},
    {TA_SM3, TEE_ALG_SM3, 0},
    {TA_HMAC_SHA1, TEE_ALG_HMAC_SHA1, TEE_TYPE_HMAC_SHA1},
    {TA_HMAC_SHA224, TEE_ALG_HMAC_SHA224, TEE_TYPE_HMAC_SHA224},
    {TA_HMAC_SHA256, TEE_ALG_HMAC_SHA256, TEE_TYPE_HMAC_SHA256},
    {TA_HMAC_SHA384, TEE_ALG_HMAC_SHA384, TEE_TYPE_HMAC_SHA384},
    {TA_HMAC_SHA512, TEE_ALG_HMAC_SHA512, TEE_TYPE_HMAC_SHA512},
    {TA_HMAC_SM3, TEE_ALG_HMAC_SM3, TEE_TYPE_HMAC_SM3},
};

void perf_hash_clear(struct perf_hash *h)
{
	if (h->op)
		TEE_FreeOperation(h->op);
	h->op = TEE_HANDLE_NULL;
	h->mac = false;
}

static TEE_Result perf_mac_key(const struct perf_hash_alg *a, TEE_OperationHandle op)
{
	uint8_t bytes[PERF_MAC_KEY_BITS / 8];
	TEE_ObjectHandle key = TEE_HANDLE_NULL;
	TEE_Attribute attr = {0};
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t i = 0;

	for (i = 0; i < sizeof(bytes); i++)
		bytes[i] = TA_CRYPTO_PERF_KEY_BYTE(i);
	res = TEE_AllocateTransientObject(a->key_type, PERF_MAC_KEY_BITS, &key);
	if (res) {
		key = TEE_HANDLE_NULL;
		goto out;
	}
	TEE_InitRefAttribute(&attr, TEE_ATTR_SECRET_VALUE, bytes, sizeof(bytes));
	res = TEE_PopulateTransientObject(key, &attr, 1);
	if (res)
		goto out;
	res = TEE_SetOperationKey(op, key);
out:
	TEE_FreeTransientObject(key);
	TEE_MemFill(bytes, 0, sizeof(bytes));
	return res;
}

TEE_Result perf_hash_prepare(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct perf_hash *h = &s->hash;
	const struct perf_hash_alg *a = NULL;
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	size_t i = 0;

	perf_hash_clear(h);
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	for (i = 0; i < sizeof(perf_hash_algs) / sizeof(perf_hash_algs[0]); i++)
		if (perf_hash_algs[i].id == p[0].value.a)
			a = &perf_hash_algs[i];
	if (!a)
		return TEE_ERROR_BAD_PARAMETERS;
	h->mac = a->key_type != 0;
	res = TEE_AllocateOperation(&h->op, a->algo, h->mac ? TEE_MODE_MAC : TEE_MODE_DIGEST,
				    h->mac ? PERF_MAC_KEY_BITS : 0);
	if (res) {
		h->op = TEE_HANDLE_NULL;
		goto out;
	}
	if (h->mac)
		res = perf_mac_key(a, h->op);
out:
	if (res && res != TEE_ERROR_NOT_SUPPORTED)
		EMSG("hash algorithm 0x%08x: 0x%08x", a->algo, res);
	if (res)
		perf_hash_clear(h);
	return res;
}

TEE_Result perf_hash_process(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct perf_hash *h = &s->hash;
	TEE_Result res = TEE_SUCCESS;
	const uint8_t *in = NULL;
	size_t len = 0;
	size_t out_len = 0;
	uint32_t offset = 0;
	uint32_t loops = 0;

	if (!perf_memref_in(types, 0) || !perf_memref_out(types, 1) ||
	    TEE_PARAM_TYPE_GET(types, 2) != TEE_PARAM_TYPE_VALUE_INPUT ||
	    TEE_PARAM_TYPE_GET(types, 3) != TEE_PARAM_TYPE_NONE)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!h->op)
		return TEE_ERROR_BAD_STATE;
	offset = p[2].value.b;
	loops = p[2].value.a;
	if (offset > p[0].memref.size || (!p[0].memref.buffer && p[0].memref.size))
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[0].memref.buffer)
		in = (const uint8_t *)p[0].memref.buffer + offset;
	len = p[0].memref.size - offset;
	out_len = p[1].memref.size;
	while (loops--) {
		out_len = p[1].memref.size;
		if (h->mac) {
			TEE_MACInit(h->op, NULL, 0);
			res = TEE_MACComputeFinal(h->op, in, len, p[1].memref.buffer, &out_len);
		} else {
			res = TEE_DigestDoFinal(h->op, in, len, p[1].memref.buffer, &out_len);
		}
		if (res) {
			if (res == TEE_ERROR_SHORT_BUFFER)
				p[1].memref.size = out_len;
			return res;
		}
	}
	p[1].memref.size = out_len;
	return TEE_SUCCESS;
}
