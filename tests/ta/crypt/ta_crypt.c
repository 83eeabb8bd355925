/* The crypt test TA: GP object and crypto calls as commands (ta_crypt.h). */
#include <string.h>
#include <tee_internal_api.h>

#include "ta_crypt.h"

#define PT(t) TEE_PARAM_TYPE_##t

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	(void)types;
	(void)params;
	*ctx = NULL;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

static bool is_memref(uint32_t types, int i)
{
	uint32_t t = TEE_PARAM_TYPE_GET(types, i);

	return t == PT(MEMREF_INPUT) || t == PT(MEMREF_OUTPUT) || t == PT(MEMREF_INOUT);
}

static bool is_value(uint32_t types, int i)
{
	uint32_t t = TEE_PARAM_TYPE_GET(types, i);

	return t == PT(VALUE_INPUT) || t == PT(VALUE_OUTPUT) || t == PT(VALUE_INOUT);
}

/* A memref slot's buffer and size; NULL and 0 for any other slot. */
static void *mr(uint32_t types, TEE_Param p[TEE_NUM_PARAMS], int i, size_t *len)
{
	if (!is_memref(types, i)) {
		*len = 0;
		return NULL;
	}
	*len = p[i].memref.size;
	return p[i].memref.buffer;
}

static TEE_OperationHandle op_h(uint32_t v)
{
	return (TEE_OperationHandle)(uintptr_t)v;
}

static TEE_ObjectHandle obj_h(uint32_t v)
{
	return (TEE_ObjectHandle)(uintptr_t)v;
}

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v = 0;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Parses the attribute records of ta_crypt.h; false if they are malformed. */
static bool attrs_parse(uint8_t *buf, size_t len, TEE_Attribute *attrs, uint32_t *count)
{
	size_t off = 0;

	*count = 0;
	while (off < len) {
		uint32_t id = 0;
		uint32_t a = 0;
		uint32_t b = 0;

		if (len - off < 12 || *count == TA_CRYPT_MAX_ATTRS)
			return false;
		id = get_u32(buf + off);
		a = get_u32(buf + off + 4);
		b = get_u32(buf + off + 8);
		off += 12;
		if (id & TEE_ATTR_FLAG_VALUE) {
			TEE_InitValueAttribute(&attrs[*count], id, a, b);
		} else {
			if (b > len - off)
				return false;
			TEE_InitRefAttribute(&attrs[*count], id, buf + off, b);
			off += ((size_t)b + 3) & ~(size_t)3;
			if (off > len)
				off = len;
		}
		(*count)++;
	}
	return true;
}

static TEE_Result cmd_allocate_operation(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (types != TEE_PARAM_TYPES(PT(VALUE_INPUT), PT(VALUE_INPUT), PT(VALUE_OUTPUT), PT(NONE)))
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_AllocateOperation(&op, p[0].value.a, p[0].value.b, p[1].value.a);
	p[2].value.a = (uint32_t)(uintptr_t)op;
	p[2].value.b = 0;
	return res;
}

static TEE_Result cmd_get_operation_info(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_OperationInfo info;
	size_t len = 0;
	void *out = mr(types, p, 1, &len);

	if (len < sizeof(info))
		return TEE_ERROR_BAD_PARAMETERS;
	TEE_GetOperationInfo(op_h(p[0].value.a), &info);
	memcpy(out, &info, sizeof(info));
	p[1].memref.size = sizeof(info);
	return TEE_SUCCESS;
}

static TEE_Result cmd_get_operation_info_multiple(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	size_t len = 0;
	void *out = mr(types, p, 1, &len);
	TEE_Result res = TEE_GetOperationInfoMultiple(op_h(p[0].value.a), out, &len);

	p[1].memref.size = len;
	return res;
}

static TEE_Result cmd_digest_do_final(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	size_t in_len = 0;
	size_t out_len = 0;
	void *in = mr(types, p, 1, &in_len);
	void *out = mr(types, p, 2, &out_len);
	TEE_Result res = TEE_DigestDoFinal(op_h(p[0].value.a), in, in_len, out, &out_len);

	p[2].memref.size = out_len;
	return res;
}

static TEE_Result cmd_digest_extract(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	size_t out_len = 0;
	void *out = mr(types, p, 1, &out_len);
	TEE_Result res = TEE_DigestExtract(op_h(p[0].value.a), out, &out_len);

	p[1].memref.size = out_len;
	return res;
}

/* CIPHER_UPDATE, CIPHER_DO_FINAL, MAC_COMPUTE_FINAL, AE_UPDATE: in and out. */
static TEE_Result cmd_in_out(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_OperationHandle op = op_h(p[0].value.a);
	size_t in_len = 0;
	size_t out_len = 0;
	void *in = mr(types, p, 1, &in_len);
	void *out = mr(types, p, 2, &out_len);
	TEE_Result res = TEE_ERROR_BAD_PARAMETERS;

	switch (cmd) {
	case TA_CRYPT_CMD_CIPHER_UPDATE:
		res = TEE_CipherUpdate(op, in, in_len, out, &out_len);
		break;
	case TA_CRYPT_CMD_CIPHER_DO_FINAL:
		res = TEE_CipherDoFinal(op, in, in_len, out, &out_len);
		break;
	case TA_CRYPT_CMD_MAC_COMPUTE_FINAL:
		res = TEE_MACComputeFinal(op, in, in_len, out, &out_len);
		break;
	case TA_CRYPT_CMD_AE_UPDATE:
		res = TEE_AEUpdate(op, in, in_len, out, &out_len);
		break;
	default:
		return res;
	}
	if (is_memref(types, 2))
		p[2].memref.size = out_len;
	return res;
}

static TEE_Result cmd_ae_init(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	static const uint8_t none[1];
	size_t len = 0;
	void *nonce = mr(types, p, 1, &len);

	if (!is_value(types, 2))
		return TEE_ERROR_BAD_PARAMETERS;
	/* An empty nonce is a length, not a missing buffer. */
	if (!nonce)
		nonce = (void *)none;
	return TEE_AEInit(op_h(p[0].value.a), nonce, len, p[0].value.b, p[2].value.a, p[2].value.b);
}

static TEE_Result cmd_ae_final(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_OperationHandle op = op_h(p[0].value.a);
	size_t in_len = 0;
	size_t out_len = 0;
	size_t tag_len = 0;
	void *in = mr(types, p, 1, &in_len);
	void *out = mr(types, p, 2, &out_len);
	void *tag = mr(types, p, 3, &tag_len);
	TEE_Result res = TEE_ERROR_GENERIC;

	if (cmd == TA_CRYPT_CMD_AE_ENCRYPT_FINAL) {
		res = TEE_AEEncryptFinal(op, in, in_len, out, &out_len, tag, &tag_len);
		if (is_memref(types, 3))
			p[3].memref.size = tag_len;
	} else {
		res = TEE_AEDecryptFinal(op, in, in_len, out, &out_len, tag, tag_len);
	}
	if (is_memref(types, 2))
		p[2].memref.size = out_len;
	return res;
}

static TEE_Result cmd_allocate_transient_object(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_ObjectHandle obj = TEE_HANDLE_NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (types != TEE_PARAM_TYPES(PT(VALUE_INPUT), PT(VALUE_OUTPUT), PT(NONE), PT(NONE)))
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_AllocateTransientObject(p[0].value.a, p[0].value.b, &obj);
	p[1].value.a = (uint32_t)(uintptr_t)obj;
	p[1].value.b = 0;
	return res;
}

static TEE_Result cmd_with_attrs(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_Attribute attrs[TA_CRYPT_MAX_ATTRS];
	uint32_t count = 0;
	size_t len = 0;
	void *buf = mr(types, p, 1, &len);

	if (!attrs_parse(buf, len, attrs, &count))
		return TEE_ERROR_BAD_FORMAT;
	if (cmd == TA_CRYPT_CMD_POPULATE_TRANSIENT_OBJECT)
		return TEE_PopulateTransientObject(obj_h(p[0].value.a), attrs, count);
	return TEE_GenerateKey(obj_h(p[0].value.a), p[0].value.b, count ? attrs : NULL, count);
}

static TEE_Result cmd_get_object_info(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct ta_crypt_object_info wire;
	TEE_ObjectInfo info;
	TEE_Result res = TEE_SUCCESS;
	size_t len = 0;
	void *out = mr(types, p, 1, &len);

	if (len < sizeof(wire))
		return TEE_ERROR_BAD_PARAMETERS;
	memset(&info, 0, sizeof(info));
	if (cmd == TA_CRYPT_CMD_GET_OBJECT_INFO1)
		res = TEE_GetObjectInfo1(obj_h(p[0].value.a), &info);
	else
		TEE_GetObjectInfo(obj_h(p[0].value.a), &info);
	wire.object_type = info.objectType;
	wire.object_size = info.objectSize;
	wire.max_object_size = info.maxObjectSize;
	wire.object_usage = info.objectUsage;
	wire.data_size = (uint32_t)info.dataSize;
	wire.data_position = (uint32_t)info.dataPosition;
	wire.handle_flags = info.handleFlags;
	memcpy(out, &wire, sizeof(wire));
	p[1].memref.size = sizeof(wire);
	return res;
}

static TEE_Result cmd_get_object_buffer_attribute(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	size_t len = 0;
	void *out = mr(types, p, 1, &len);
	TEE_Result res = TEE_GetObjectBufferAttribute(obj_h(p[0].value.a), p[0].value.b, out, &len);

	if (is_memref(types, 1))
		p[1].memref.size = len;
	return res;
}

static TEE_Result cmd_get_object_value_attribute(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	uint32_t a = 0;
	uint32_t b = 0;
	TEE_Result res = TEE_GetObjectValueAttribute(obj_h(p[0].value.a), p[0].value.b, &a, &b);

	if (!is_value(types, 1))
		return TEE_ERROR_BAD_PARAMETERS;
	p[1].value.a = a;
	p[1].value.b = b;
	return res;
}

static TEE_Result cmd_init_attribute(TEE_Param p[TEE_NUM_PARAMS])
{
	static const uint8_t data[4];
	TEE_Attribute attr;

	if (p[0].value.b)
		TEE_InitValueAttribute(&attr, p[0].value.a, 1, 2);
	else
		TEE_InitRefAttribute(&attr, p[0].value.a, data, sizeof(data));
	return TEE_SUCCESS;
}

static TEE_Result cmd_cipher_in_place(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	size_t len = 0;
	void *buf = mr(types, p, 1, &len);
	size_t out_len = len;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (p[0].value.b == 2)
		res = TEE_AEUpdate(op_h(p[0].value.a), buf, len, buf, &out_len);
	else if (p[0].value.b)
		res = TEE_CipherDoFinal(op_h(p[0].value.a), buf, len, buf, &out_len);
	else
		res = TEE_CipherUpdate(op_h(p[0].value.a), buf, len, buf, &out_len);
	if (is_memref(types, 1))
		p[1].memref.size = out_len;
	return res;
}

/* The GP 1.1 layout of attributes. */
static void attrs_to_gp11(const TEE_Attribute *attrs, uint32_t count, __GP11_TEE_Attribute *out)
{
	for (uint32_t i = 0; i < count; i++) {
		out[i].attributeID = attrs[i].attributeID;
		if (attrs[i].attributeID & TEE_ATTR_FLAG_VALUE) {
			out[i].content.value.a = attrs[i].content.value.a;
			out[i].content.value.b = attrs[i].content.value.b;
		} else {
			out[i].content.ref.buffer = attrs[i].content.ref.buffer;
			out[i].content.ref.length = (uint32_t)attrs[i].content.ref.length;
		}
	}
}

/* ASYM_*, DERIVE_KEY, and their GP 1.1 forms (gp11). */
static TEE_Result cmd_asym(uint32_t cmd, bool gp11, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_Attribute attrs[TA_CRYPT_MAX_ATTRS];
	__GP11_TEE_Attribute attrs11[TA_CRYPT_MAX_ATTRS];
	TEE_OperationHandle op = op_h(p[0].value.a);
	uint32_t count = 0;
	size_t alen = 0;
	size_t in_len = 0;
	size_t out_len = 0;
	uint32_t out_len11 = 0;
	void *abuf = mr(types, p, 1, &alen);
	void *in = mr(types, p, 2, &in_len);
	void *out = mr(types, p, 3, &out_len);
	TEE_Attribute *a = NULL;
	__GP11_TEE_Attribute *a11 = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!attrs_parse(abuf, alen, attrs, &count))
		return TEE_ERROR_BAD_FORMAT;
	if (count) {
		a = attrs;
		a11 = attrs11;
		attrs_to_gp11(attrs, count, attrs11);
	}
	out_len11 = (uint32_t)out_len;
	switch (cmd) {
	case TA_CRYPT_CMD_ASYM_ENCRYPT:
		if (gp11)
			res = __GP11_TEE_AsymmetricEncrypt(op, a11, count, in, (uint32_t)in_len,
							   out, &out_len11);
		else
			res = TEE_AsymmetricEncrypt(op, a, count, in, in_len, out, &out_len);
		break;
	case TA_CRYPT_CMD_ASYM_DECRYPT:
		if (gp11)
			res = __GP11_TEE_AsymmetricDecrypt(op, a11, count, in, (uint32_t)in_len,
							   out, &out_len11);
		else
			res = TEE_AsymmetricDecrypt(op, a, count, in, in_len, out, &out_len);
		break;
	case TA_CRYPT_CMD_ASYM_SIGN:
		if (gp11)
			res = __GP11_TEE_AsymmetricSignDigest(op, a11, count, in, (uint32_t)in_len,
							      out, &out_len11);
		else
			res = TEE_AsymmetricSignDigest(op, a, count, in, in_len, out, &out_len);
		break;
	case TA_CRYPT_CMD_ASYM_VERIFY:
		if (gp11)
			return __GP11_TEE_AsymmetricVerifyDigest(
			    op, a11, count, in, (uint32_t)in_len, out, (uint32_t)out_len);
		return TEE_AsymmetricVerifyDigest(op, a, count, in, in_len, out, out_len);
	case TA_CRYPT_CMD_DERIVE_KEY:
		if (gp11)
			__GP11_TEE_DeriveKey(op, a11, count, obj_h(p[2].value.a));
		else
			TEE_DeriveKey(op, a, count, obj_h(p[0].value.b));
		return TEE_SUCCESS;
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
	if (gp11)
		out_len = out_len11;
	if (is_memref(types, 3))
		p[3].memref.size = out_len;
	return res;
}

/* Commands whose arguments are all in v0/v1 or one input memref. */
static TEE_Result cmd_simple(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	uint32_t a = p[0].value.a;
	uint32_t b = p[0].value.b;
	size_t len = 0;
	size_t len2 = 0;
	void *buf = mr(types, p, 1, &len);
	void *buf2 = mr(types, p, 2, &len2);

	switch (cmd) {
	case TA_CRYPT_CMD_FREE_OPERATION:
		TEE_FreeOperation(op_h(a));
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_RESET_OPERATION:
		TEE_ResetOperation(op_h(a));
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_SET_OPERATION_KEY:
		return TEE_SetOperationKey(op_h(a), obj_h(b));
	case TA_CRYPT_CMD_SET_OPERATION_KEY2:
		return TEE_SetOperationKey2(op_h(a), obj_h(p[1].value.a), obj_h(p[1].value.b));
	case TA_CRYPT_CMD_COPY_OPERATION:
		TEE_CopyOperation(op_h(a), op_h(b));
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_IS_ALGO_SUPPORTED:
		return TEE_IsAlgorithmSupported(a, b);
	case TA_CRYPT_CMD_DIGEST_UPDATE:
		TEE_DigestUpdate(op_h(a), buf, len);
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_CIPHER_INIT:
		TEE_CipherInit(op_h(a), buf, len);
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_MAC_INIT:
		TEE_MACInit(op_h(a), buf, len);
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_MAC_UPDATE:
		TEE_MACUpdate(op_h(a), buf, len);
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_MAC_COMPARE_FINAL:
		return TEE_MACCompareFinal(op_h(a), buf, len, buf2, len2);
	case TA_CRYPT_CMD_AE_UPDATE_AAD:
		TEE_AEUpdateAAD(op_h(a), buf, len);
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_FREE_TRANSIENT_OBJECT:
		TEE_FreeTransientObject(obj_h(a));
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_RESET_TRANSIENT_OBJECT:
		TEE_ResetTransientObject(obj_h(a));
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_RESTRICT_OBJECT_USAGE1:
		return TEE_RestrictObjectUsage1(obj_h(a), b);
	case TA_CRYPT_CMD_RESTRICT_OBJECT_USAGE:
		TEE_RestrictObjectUsage(obj_h(a), b);
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_COPY_OBJECT_ATTRIBUTES1:
		return TEE_CopyObjectAttributes1(obj_h(a), obj_h(b));
	case TA_CRYPT_CMD_COPY_OBJECT_ATTRIBUTES:
		TEE_CopyObjectAttributes(obj_h(a), obj_h(b));
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_CLOSE_OBJECT:
		TEE_CloseObject(obj_h(a));
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_GP11_SET_OPERATION_KEY:
		return __GP11_TEE_SetOperationKey(op_h(a), obj_h(b));
	case TA_CRYPT_CMD_GP11_FREE_OPERATION:
		__GP11_TEE_FreeOperation(op_h(a));
		return TEE_SUCCESS;
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param p[TEE_NUM_PARAMS])
{
	size_t len = 0;
	void *buf = NULL;

	(void)ctx;
	if (cmd != TA_CRYPT_CMD_GENERATE_RANDOM && !is_value(types, 0))
		return TEE_ERROR_BAD_PARAMETERS;
	switch (cmd) {
	case TA_CRYPT_CMD_ALLOCATE_OPERATION:
		return cmd_allocate_operation(types, p);
	case TA_CRYPT_CMD_GET_OPERATION_INFO:
		return cmd_get_operation_info(types, p);
	case TA_CRYPT_CMD_GET_OPERATION_INFO_MULTIPLE:
		return cmd_get_operation_info_multiple(types, p);
	case TA_CRYPT_CMD_DIGEST_DO_FINAL:
		return cmd_digest_do_final(types, p);
	case TA_CRYPT_CMD_DIGEST_EXTRACT:
		return cmd_digest_extract(types, p);
	case TA_CRYPT_CMD_CIPHER_UPDATE:
	case TA_CRYPT_CMD_CIPHER_DO_FINAL:
	case TA_CRYPT_CMD_MAC_COMPUTE_FINAL:
	case TA_CRYPT_CMD_AE_UPDATE:
		return cmd_in_out(cmd, types, p);
	case TA_CRYPT_CMD_AE_INIT:
		return cmd_ae_init(types, p);
	case TA_CRYPT_CMD_AE_ENCRYPT_FINAL:
	case TA_CRYPT_CMD_AE_DECRYPT_FINAL:
		return cmd_ae_final(cmd, types, p);
	case TA_CRYPT_CMD_GENERATE_RANDOM:
		buf = mr(types, p, 0, &len);
		TEE_GenerateRandom(buf, len);
		return TEE_SUCCESS;
	case TA_CRYPT_CMD_ALLOCATE_TRANSIENT_OBJECT:
		return cmd_allocate_transient_object(types, p);
	case TA_CRYPT_CMD_POPULATE_TRANSIENT_OBJECT:
	case TA_CRYPT_CMD_GENERATE_KEY:
		return cmd_with_attrs(cmd, types, p);
	case TA_CRYPT_CMD_GET_OBJECT_INFO1:
	case TA_CRYPT_CMD_GET_OBJECT_INFO:
		return cmd_get_object_info(cmd, types, p);
	case TA_CRYPT_CMD_GET_OBJECT_BUFFER_ATTRIBUTE:
		return cmd_get_object_buffer_attribute(types, p);
	case TA_CRYPT_CMD_GET_OBJECT_VALUE_ATTRIBUTE:
		return cmd_get_object_value_attribute(types, p);
	case TA_CRYPT_CMD_INIT_ATTRIBUTE:
		return cmd_init_attribute(p);
	case TA_CRYPT_CMD_CIPHER_IN_PLACE:
		return cmd_cipher_in_place(types, p);
	case TA_CRYPT_CMD_ASYM_ENCRYPT:
	case TA_CRYPT_CMD_ASYM_DECRYPT:
	case TA_CRYPT_CMD_ASYM_SIGN:
	case TA_CRYPT_CMD_ASYM_VERIFY:
	case TA_CRYPT_CMD_DERIVE_KEY:
		return cmd_asym(cmd, false, types, p);
	case TA_CRYPT_CMD_GP11_ASYM:
		return cmd_asym(p[0].value.b, true, types, p);
	default:
		return cmd_simple(cmd, types, p);
	}
}
