/*
 * crypto_perf: the asymmetric commands. The key pair is generated once per
 * prepare; a process call signs, verifies, encrypts or decrypts one buffer
 * LOOPS times, and a gen-keypair call times TEE_GenerateKey itself.
 */
#include <string.h>

#include <tee_internal_api.h>
#include <trace.h>

#include "crypto_perf.h"

/* TEE_TYPE_*_KEYPAIR is TEE_TYPE_*_PUBLIC_KEY with this bit. */
#define PERF_KEYPAIR_BIT 0x01000000u
/* The attribute records' header: ID, then value a and b or the length. */
#define PERF_ATTR_HDR 12u
#define PERF_ATTRS_MAX_LEN                                                                         \
	(TA_CRYPTO_PERF_MAX_ATTRS * (PERF_ATTR_HDR + TA_CRYPTO_PERF_MAX_ATTR_LEN + 3))

static void perf_attrs_clear(struct perf_attrs *a)
{
	if (a->mem) {
		TEE_MemFill(a->mem, 0, a->mem_len);
		TEE_Free(a->mem);
	}
	TEE_MemFill(a, 0, sizeof(*a));
}

static uint32_t perf_u32(const uint8_t *p)
{
	uint32_t v = 0;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Reads the attribute records of a memref slot (NONE: no attributes) into
 * a, from a private copy: the client could change the shared memory while
 * it is read.
 */
static TEE_Result perf_attrs_read(struct perf_attrs *a, uint32_t types, unsigned int slot,
				  const TEE_Param *p)
{
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	uint32_t t = TEE_PARAM_TYPE_GET(types, slot);
	size_t len = 0;
	size_t off = 0;
	uint32_t id = 0;
	uint32_t blen = 0;

	perf_attrs_clear(a);
	if (t == TEE_PARAM_TYPE_NONE)
		return TEE_SUCCESS;
	if (t != TEE_PARAM_TYPE_MEMREF_INPUT)
		return TEE_ERROR_BAD_PARAMETERS;
	len = p->memref.size;
	if (!len)
		return TEE_SUCCESS;
	if (len > PERF_ATTRS_MAX_LEN || len % 4 || !p->memref.buffer)
		return TEE_ERROR_BAD_PARAMETERS;
	a->mem = TEE_Malloc(len, TEE_MALLOC_FILL_ZERO);
	if (!a->mem)
		return TEE_ERROR_OUT_OF_MEMORY;
	a->mem_len = len;
	TEE_MemMove(a->mem, p->memref.buffer, len);
	while (off < len) {
		if (a->count == TA_CRYPTO_PERF_MAX_ATTRS || len - off < PERF_ATTR_HDR)
			goto out;
		id = perf_u32(a->mem + off);
		if (id & TEE_ATTR_FLAG_VALUE) {
			TEE_InitValueAttribute(&a->attr[a->count], id, perf_u32(a->mem + off + 4),
					       perf_u32(a->mem + off + 8));
			off += PERF_ATTR_HDR;
		} else {
			blen = perf_u32(a->mem + off + 8);
			if (perf_u32(a->mem + off + 4) || blen > TA_CRYPTO_PERF_MAX_ATTR_LEN ||
			    len - off - PERF_ATTR_HDR < ((size_t)blen + 3) / 4 * 4)
				goto out;
			TEE_InitRefAttribute(&a->attr[a->count], id, a->mem + off + PERF_ATTR_HDR,
					     blen);
			off += PERF_ATTR_HDR + ((size_t)blen + 3) / 4 * 4;
		}
		a->count++;
	}
	res = TEE_SUCCESS;
out:
	if (res)
		perf_attrs_clear(a);
	return res;
}

static void perf_asym_clear_op(struct perf_asym *a)
{
	if (a->op)
		TEE_FreeOperation(a->op);
	a->op = TEE_HANDLE_NULL;
	a->mode = 0;
	perf_attrs_clear(&a->op_attrs);
}

void perf_asym_clear(struct perf_asym *a)
{
	perf_asym_clear_op(a);
	TEE_FreeTransientObject(a->key);
	a->key = TEE_HANDLE_NULL;
	a->key_type = 0;
	a->key_bits = 0;
	perf_attrs_clear(&a->key_attrs);
}

TEE_Result perf_asym_prepare_key(struct perf_session *s, uint32_t types,
				 TEE_Param p[TEE_NUM_PARAMS])
{
	struct perf_asym *a = &s->asym;
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;

	perf_asym_clear(a);
	if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_VALUE_INPUT ||
	    TEE_PARAM_TYPE_GET(types, 2) != TEE_PARAM_TYPE_NONE ||
	    TEE_PARAM_TYPE_GET(types, 3) != TEE_PARAM_TYPE_NONE)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!(p[0].value.a & PERF_KEYPAIR_BIT) || !p[0].value.b)
		return TEE_ERROR_BAD_PARAMETERS;
	res = perf_attrs_read(&a->key_attrs, types, 1, &p[1]);
	if (res)
		goto out;
	a->key_type = p[0].value.a;
	a->key_bits = p[0].value.b;
	res = TEE_AllocateTransientObject(a->key_type, a->key_bits, &a->key);
	if (res) {
		a->key = TEE_HANDLE_NULL;
		goto out;
	}
	res = TEE_GenerateKey(a->key, a->key_bits, a->key_attrs.attr, a->key_attrs.count);
out:
	if (res && res != TEE_ERROR_NOT_SUPPORTED && res != TEE_ERROR_BAD_PARAMETERS)
		EMSG("key type 0x%08x, %u bits: 0x%08x", p[0].value.a, p[0].value.b, res);
	if (res)
		perf_asym_clear(a);
	return res;
}

/* The public half of the key pair, in a new transient object. */
static TEE_Result perf_public_key(const struct perf_asym *a, TEE_ObjectHandle *pub)
{
	TEE_Result res =
	    TEE_AllocateTransientObject(a->key_type & ~PERF_KEYPAIR_BIT, a->key_bits, pub);

	if (res) {
		*pub = TEE_HANDLE_NULL;
		return res;
	}
	res = TEE_CopyObjectAttributes1(*pub, a->key);
	if (res) {
		TEE_FreeTransientObject(*pub);
		*pub = TEE_HANDLE_NULL;
	}
	return res;
}

TEE_Result perf_asym_prepare_op(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct perf_asym *a = &s->asym;
	TEE_ObjectHandle pub = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;
	uint32_t mode = 0;

	perf_asym_clear_op(a);
	if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_VALUE_INPUT ||
	    TEE_PARAM_TYPE_GET(types, 2) != TEE_PARAM_TYPE_NONE ||
	    TEE_PARAM_TYPE_GET(types, 3) != TEE_PARAM_TYPE_NONE)
		return TEE_ERROR_BAD_PARAMETERS;
	mode = p[0].value.b;
	if (mode != TEE_MODE_SIGN && mode != TEE_MODE_VERIFY && mode != TEE_MODE_ENCRYPT &&
	    mode != TEE_MODE_DECRYPT)
		return TEE_ERROR_BAD_PARAMETERS;
	if (!a->key)
		return TEE_ERROR_BAD_STATE;
	res = perf_attrs_read(&a->op_attrs, types, 1, &p[1]);
	if (res)
		goto out;
	res = TEE_AllocateOperation(&a->op, p[0].value.a, mode, a->key_bits);
	if (res) {
		a->op = TEE_HANDLE_NULL;
		goto out;
	}
	a->mode = mode;
	if (mode == TEE_MODE_VERIFY || mode == TEE_MODE_ENCRYPT) {
		res = perf_public_key(a, &pub);
		if (res)
			goto out;
		res = TEE_SetOperationKey(a->op, pub);
	} else {
		res = TEE_SetOperationKey(a->op, a->key);
	}
out:
	TEE_FreeTransientObject(pub);
	if (res && res != TEE_ERROR_NOT_SUPPORTED && res != TEE_ERROR_BAD_PARAMETERS)
		EMSG("algorithm 0x%08x, mode %u: 0x%08x", p[0].value.a, mode, res);
	if (res)
		perf_asym_clear_op(a);
	return res;
}

static TEE_Result perf_asym_once(struct perf_asym *a, const void *in, size_t in_len, void *out,
				 size_t *out_len)
{
	switch (a->mode) {
	case TEE_MODE_SIGN:
		return TEE_AsymmetricSignDigest(a->op, a->op_attrs.attr, a->op_attrs.count, in,
						in_len, out, out_len);
	case TEE_MODE_VERIFY:
		return TEE_AsymmetricVerifyDigest(a->op, a->op_attrs.attr, a->op_attrs.count, in,
						  in_len, out, *out_len);
	case TEE_MODE_ENCRYPT:
		return TEE_AsymmetricEncrypt(a->op, a->op_attrs.attr, a->op_attrs.count, in, in_len,
					     out, out_len);
	default:
		return TEE_AsymmetricDecrypt(a->op, a->op_attrs.attr, a->op_attrs.count, in, in_len,
					     out, out_len);
	}
}

TEE_Result perf_asym_process(struct perf_session *s, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct perf_asym *a = &s->asym;
	TEE_Result res = TEE_SUCCESS;
	size_t out_len = 0;
	uint32_t loops = 0;

	if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_VALUE_INPUT ||
	    !perf_memref_in(types, 1) || TEE_PARAM_TYPE_GET(types, 3) != TEE_PARAM_TYPE_NONE)
		return TEE_ERROR_BAD_PARAMETERS;
	if (a->mode == TEE_MODE_VERIFY ? !perf_memref_in(types, 2) : !perf_memref_out(types, 2))
		return TEE_ERROR_BAD_PARAMETERS;
	if ((!p[1].memref.buffer && p[1].memref.size) || (!p[2].memref.buffer && p[2].memref.size))
		return TEE_ERROR_BAD_PARAMETERS;
	if (!a->op)
		return TEE_ERROR_BAD_STATE;
	loops = p[0].value.a;
	out_len = p[2].memref.size;
	while (loops--) {
		out_len = p[2].memref.size;
		res = perf_asym_once(a, p[1].memref.buffer, p[1].memref.size, p[2].memref.buffer,
				     &out_len);
		if (res)
			break;
	}
	if (a->mode != TEE_MODE_VERIFY && (!res || res == TEE_ERROR_SHORT_BUFFER))
		p[2].memref.size = out_len;
	return res;
}

TEE_Result perf_asym_gen_keypair(struct perf_session *s, uint32_t types,
				 TEE_Param p[TEE_NUM_PARAMS])
{
	struct perf_asym *a = &s->asym;
	TEE_ObjectHandle key = TEE_HANDLE_NULL;
	TEE_Result res = TEE_SUCCESS;
	uint32_t loops = 0;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (!a->key)
		return TEE_ERROR_BAD_STATE;
	loops = p[0].value.a;
	res = TEE_AllocateTransientObject(a->key_type, a->key_bits, &key);
	if (res)
		return res;
	while (loops--) {
		TEE_ResetTransientObject(key);
		res = TEE_GenerateKey(key, a->key_bits, a->key_attrs.attr, a->key_attrs.count);
		if (res)
			break;
	}
	TEE_FreeTransientObject(key);
	return res;
}
