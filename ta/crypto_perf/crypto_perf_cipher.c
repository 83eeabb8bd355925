/*
 * crypto_perf: the cipher commands. One buffer per process call, fed in
 * unit-byte updates, LOOPS times over; the operation streams on from call
 * to call (XTS: one data unit per loop).
 */
#include <string.h>

#include <tee_api_defines_extensions.h>
#include <tee_internal_api.h>
#include <trace.h>
#include <utee_defines.h>

#include "crypto_perf.h"

#define PERF_KEY_MAX 32
#define PERF_BLOCK 16

void perf_cipher_clear(struct perf_cipher *c)
{
	if (c->op)
		TEE_FreeOperation(c->op);
	c->op = TEE_HANDLE_NULL;
	c->algo = 0;
	c->decrypt = false;
	c->message_len = 0;
}

static const struct {
	uint32_t mode; /* TA_AES_*, TA_SM4_* */
	uint32_t algo;
} perf_cipher_algs[] = {
    {TA_AES_ECB, TEE_ALG_AES_ECB_NOPAD}, {TA_AES_CBC, TEE_ALG_AES_CBC_NOPAD},
    {TA_AES_CTR, TEE_ALG_AES_CTR},	 {TA_AES_XTS, TEE_ALG_AES_XTS},
    {TA_AES_GCM, TEE_ALG_AES_GCM},	 {TA_SM4_ECB, TEE_ALG_SM4_ECB_NOPAD},
    {TA_SM4_CBC, TEE_ALG_SM4_CBC_NOPAD}, {TA_SM4_CTR, TEE_ALG_SM4_CTR},
    {TA_SM4_XTS, TEE_ALG_SM4_XTS},
};

static uint32_t perf_cipher_algo(uint32_t mode)
{
	size_t i = 0;

	for (i = 0; i < sizeof(perf_cipher_algs) / sizeof(perf_cipher_algs[0]); i++)
		if (perf_cipher_algs[i].mode == mode)
			return perf_cipher_algs[i].algo;
	return 0;
}

static bool perf_is_xts(uint32_t algo)
{
	return algo == TEE_ALG_AES_XTS || algo == TEE_ALG_SM4_XTS;
}

/* Whole blocks only. */
static bool perf_is_nopad(uint32_t algo)
{
	return algo == TEE_ALG_AES_ECB_NOPAD || algo == TEE_ALG_AES_CBC_NOPAD ||
	       algo == TEE_ALG_SM4_ECB_NOPAD || algo == TEE_ALG_SM4_CBC_NOPAD;
}

/* A transient key of type and bits bits whose byte i is first + i. */
static TEE_Result perf_cipher_key(uint32_t type, uint32_t bits, uint8_t first,
				  TEE_ObjectHandle *key)
{
	uint8_t bytes[PERF_KEY_MAX];
	TEE_Attribute attr = {0};
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t i = 0;

	*key = TEE_HANDLE_NULL;
	for (i = 0; i < bits / 8; i++)
		bytes[i] = (uint8_t)(first + i);
	res = TEE_AllocateTransientObject(type, bits, key);
	if (res)
		goto out;
	TEE_InitRefAttribute(&attr, TEE_ATTR_SECRET_VALUE, bytes, bits / 8);
	res = TEE_PopulateTransientObject(*key, &attr, 1);
	if (res) {
		TEE_FreeTransientObject(*key);
		*key = TEE_HANDLE_NULL;
	}
out:
	TEE_MemFill(bytes, 0, sizeof(bytes));
	return res;
}

/* Starts a message (GCM) or a data unit (XTS) on an operation whose key is set. */
static TEE_Result perf_cipher_start(struct perf_cipher *c)
{
	uint8_t iv[PERF_BLOCK];
	size_t i = 0;

	for (i = 0; i < sizeof(iv); i++)
		iv[i] = TA_CRYPTO_PERF_IV_BYTE(i);
	c->message_len = 0;
	if (c->algo == TEE_ALG_AES_GCM)
		return TEE_AEInit(c->op, iv, TA_CRYPTO_PERF_GCM_NONCE_LEN,
				  TA_CRYPTO_PERF_GCM_TAG_BITS, 0, 0);
	if (c->algo == TEE_ALG_AES_ECB_NOPAD || c->algo == TEE_ALG_SM4_ECB_NOPAD)
		TEE_CipherInit(c->op, NULL, 0);
	else
		TEE_CipherInit(c->op, iv, sizeof(iv));
	return TEE_SUCCESS;
}

TEE_Result perf_cipher_prepare(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct perf_cipher *c = &s->cipher;
	TEE_ObjectHandle key = TEE_HANDLE_NULL;
	TEE_ObjectHandle key2 = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	uint32_t bits = 0;
	uint32_t algo = 0;
	uint32_t type = 0;

	perf_cipher_clear(c);
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_VALUE_INPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		goto out;
	bits = p[0].value.b;
	algo = perf_cipher_algo(p[1].value.a);
	if (p[0].value.a > 1 || !algo)
		goto out;
	if (TEE_ALG_GET_MAIN_ALG(algo) == TEE_MAIN_ALGO_SM4) {
		type = TEE_TYPE_SM4;
		if (bits != 128)
			goto out;
	} else {
		type = TEE_TYPE_AES;
		if (bits != AES_128 && bits != AES_192 && bits != AES_256)
			goto out;
	}
	c->algo = algo;
	c->decrypt = p[0].value.a;
	res = TEE_AllocateOperation(&c->op, algo, c->decrypt ? TEE_MODE_DECRYPT : TEE_MODE_ENCRYPT,
				    perf_is_xts(algo) ? 2 * bits : bits);
	if (res) {
		c->op = TEE_HANDLE_NULL;
		goto out;
	}
	res = perf_cipher_key(type, bits, TA_CRYPTO_PERF_KEY_BYTE(0), &key);
	if (res)
		goto out;
	if (perf_is_xts(algo)) {
		res = perf_cipher_key(type, bits, TA_CRYPTO_PERF_KEY2_BYTE(0), &key2);
		if (res)
			goto out;
		res = TEE_SetOperationKey2(c->op, key, key2);
	} else {
		res = TEE_SetOperationKey(c->op, key);
	}
	if (res)
		goto out;
	res = perf_cipher_start(c);
out:
	/* The operation holds copies of the keys. */
	TEE_FreeTransientObject(key);
	TEE_FreeTransientObject(key2);
	if (res && res != TEE_ERROR_BAD_PARAMETERS && res != TEE_ERROR_NOT_SUPPORTED)
		EMSG("cipher algorithm 0x%08x, %u bits: 0x%08x", algo, bits, res);
	if (res)
		perf_cipher_clear(c);
	return res;
}

static TEE_Result perf_cipher_update(struct perf_cipher *c, const uint8_t *in, size_t len,
				     uint8_t *out, size_t *out_len)
{
	if (c->algo == TEE_ALG_AES_GCM)
		return TEE_AEUpdate(c->op, in, len, out, out_len);
	return TEE_CipherUpdate(c->op, in, len, out, out_len);
}

/* One loop: the buffer in unit-byte updates. */
static TEE_Result perf_cipher_once(struct perf_cipher *c, const uint8_t *in, size_t len,
				   uint8_t *out, size_t room, size_t unit)
{
	TEE_Result res = TEE_SUCCESS;
	size_t done = 0;
	size_t wrote = 0;
	size_t n = 0;
	size_t got = 0;

	if (c->algo == TEE_ALG_AES_GCM && (len > TA_CRYPTO_PERF_GCM_MESSAGE_MAX ||
					   c->message_len > TA_CRYPTO_PERF_GCM_MESSAGE_MAX - len)) {
		TEE_ResetOperation(c->op);
		res = perf_cipher_start(c);
		if (res)
			return res;
	}
	while (done < len) {
		n = len - done < unit ? len - done : unit;
		got = room - wrote;
		/* XTS: the last piece goes to the final call, which steals from it. */
		if (perf_is_xts(c->algo) && done + n == len)
			res = TEE_CipherDoFinal(c->op, in + done, n, out + wrote, &got);
		else
			res = perf_cipher_update(c, in + done, n, out + wrote, &got);
		if (res)
			return res;
		done += n;
		wrote += got;
	}
	c->message_len += len;
	if (perf_is_xts(c->algo))
		return perf_cipher_start(c);
	return TEE_SUCCESS;
}

TEE_Result perf_cipher_process(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct perf_cipher *c = &s->cipher;
	TEE_Result res = TEE_SUCCESS;
	const uint8_t *in = NULL;
	uint8_t *out = NULL;
	size_t len = 0;
	size_t room = 0;
	size_t unit = 0;
	uint32_t loops = 0;

	if (!perf_memref_in(types, 0) || !perf_memref_out(types, 1) ||
	    TEE_PARAM_TYPE_GET(types, 2) != TEE_PARAM_TYPE_VALUE_INPUT ||
	    TEE_PARAM_TYPE_GET(types, 3) != TEE_PARAM_TYPE_NONE)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!c->op)
		return TEE_ERROR_BAD_STATE;
	in = p[0].memref.buffer;
	len = p[0].memref.size;
	out = p[1].memref.buffer;
	room = p[1].memref.size;
	loops = p[2].value.a;
	unit = p[2].value.b ? p[2].value.b : len;
	/* Whole blocks for ECB and CBC; XTS needs one block at least. */
	if (room < len || (!in && len) || (!out && room) ||
	    (perf_is_nopad(c->algo) && len % PERF_BLOCK) ||
	    (perf_is_xts(c->algo) && len < PERF_BLOCK))
		return TEE_ERROR_BAD_PARAMETERS;
	while (loops--) {
		res = perf_cipher_once(c, in, len, out, room, unit);
		if (res) {
			EMSG("cipher update: 0x%08x", res);
			return res;
		}
	}
	return TEE_SUCCESS;
}
