/* Client side of the crypt test TA; see crypt_client.h. */
#include <stdlib.h>
#include <string.h>

#include "crypt_client.h"

static const TEEC_UUID crypt_uuid = TA_CRYPT_UUID;

struct cc_call {
	TEEC_Operation op;
	uint32_t t[4];
};

static void call_init(struct cc_call *c)
{
	memset(c, 0, sizeof(*c));
}

static void v(struct cc_call *c, int i, uint32_t a, uint32_t b, uint32_t type)
{
	c->t[i] = type;
	c->op.params[i].value.a = a;
	c->op.params[i].value.b = b;
}

static void in(struct cc_call *c, int i, const void *p, size_t len)
{
	if (!p)
		return;
	c->t[i] = TEEC_MEMREF_TEMP_INPUT;
	c->op.params[i].tmpref.buffer = (void *)p;
	c->op.params[i].tmpref.size = len;
}

static void out(struct cc_call *c, int i, void *p, size_t len)
{
	if (!p)
		return;
	c->t[i] = TEEC_MEMREF_TEMP_OUTPUT;
	c->op.params[i].tmpref.buffer = p;
	c->op.params[i].tmpref.size = len;
}

static TEEC_Result run(TEEC_Session *s, uint32_t cmd, struct cc_call *c)
{
	uint32_t orig = 0;

	c->op.paramTypes = TEEC_PARAM_TYPES(c->t[0], c->t[1], c->t[2], c->t[3]);
	return TEEC_InvokeCommand(s, cmd, &c->op, &orig);
}

/* The size an output memref came back with, into *len (if the slot was used). */
static void out_len(const struct cc_call *c, int i, size_t *len)
{
	if (len && c->t[i] == TEEC_MEMREF_TEMP_OUTPUT)
		*len = c->op.params[i].tmpref.size;
}

TEEC_Result cc_open(TEEC_Context *ctx, TEEC_Session *s)
{
	uint32_t orig = 0;

	return TEEC_OpenSession(ctx, s, &crypt_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &orig);
}

TEEC_Result cc_invoke_values(TEEC_Session *s, uint32_t cmd, uint32_t a, uint32_t b, uint32_t c2,
			     uint32_t d)
{
	struct cc_call c;

	call_init(&c);
	v(&c, 0, a, b, TEEC_VALUE_INPUT);
	v(&c, 1, c2, d, TEEC_VALUE_INPUT);
	return run(s, cmd, &c);
}

TEEC_Result cc_alloc_op(TEEC_Session *s, uint32_t alg, uint32_t mode, uint32_t max_key_size,
			uint32_t *op)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, alg, mode, TEEC_VALUE_INPUT);
	v(&c, 1, max_key_size, 0, TEEC_VALUE_INPUT);
	v(&c, 2, 0, 0, TEEC_VALUE_OUTPUT);
	res = run(s, TA_CRYPT_CMD_ALLOCATE_OPERATION, &c);
	*op = c.op.params[2].value.a;
	return res;
}

TEEC_Result cc_free_op(TEEC_Session *s, uint32_t op)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_FREE_OPERATION, op, 0, 0, 0);
}

TEEC_Result cc_op_info(TEEC_Session *s, uint32_t op, struct cc_op_info *info)
{
	struct cc_call c;

	call_init(&c);
	v(&c, 0, op, 0, TEEC_VALUE_INPUT);
	out(&c, 1, info, sizeof(*info));
	return run(s, TA_CRYPT_CMD_GET_OPERATION_INFO, &c);
}

TEEC_Result cc_op_info_multiple(TEEC_Session *s, uint32_t op, void *info, size_t *size)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, op, 0, TEEC_VALUE_INPUT);
	out(&c, 1, info, *size);
	res = run(s, TA_CRYPT_CMD_GET_OPERATION_INFO_MULTIPLE, &c);
	out_len(&c, 1, size);
	return res;
}

TEEC_Result cc_reset_op(TEEC_Session *s, uint32_t op)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_RESET_OPERATION, op, 0, 0, 0);
}

TEEC_Result cc_set_key(TEEC_Session *s, uint32_t op, uint32_t key)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_SET_OPERATION_KEY, op, key, 0, 0);
}

TEEC_Result cc_set_key2(TEEC_Session *s, uint32_t op, uint32_t key1, uint32_t key2)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_SET_OPERATION_KEY2, op, 0, key1, key2);
}

TEEC_Result cc_copy_op(TEEC_Session *s, uint32_t dst, uint32_t src)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_COPY_OPERATION, dst, src, 0, 0);
}

TEEC_Result cc_is_supported(TEEC_Session *s, uint32_t alg, uint32_t element)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_IS_ALGO_SUPPORTED, alg, element, 0, 0);
}

/* v0 = op, m1 = input: DIGEST_UPDATE, CIPHER_INIT, MAC_INIT, MAC_UPDATE, AE_UPDATE_AAD. */
static TEEC_Result op_in(TEEC_Session *s, uint32_t cmd, uint32_t op, const void *p, size_t len)
{
	struct cc_call c;

	call_init(&c);
	v(&c, 0, op, 0, TEEC_VALUE_INPUT);
	in(&c, 1, p, len);
	return run(s, cmd, &c);
}

/* v0 = op, m1 = input, m2 = output. */
static TEEC_Result op_in_out(TEEC_Session *s, uint32_t cmd, uint32_t op, const void *p, size_t len,
			     void *o, size_t *o_len)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, op, 0, TEEC_VALUE_INPUT);
	in(&c, 1, p, len);
	out(&c, 2, o, o_len ? *o_len : 0);
	res = run(s, cmd, &c);
	out_len(&c, 2, o_len);
	return res;
}

TEEC_Result cc_digest_update(TEEC_Session *s, uint32_t op, const void *p, size_t len)
{
	return op_in(s, TA_CRYPT_CMD_DIGEST_UPDATE, op, p, len);
}

TEEC_Result cc_digest_final(TEEC_Session *s, uint32_t op, const void *p, size_t len, void *o,
			    size_t *o_len)
{
	return op_in_out(s, TA_CRYPT_CMD_DIGEST_DO_FINAL, op, p, len, o, o_len);
}

TEEC_Result cc_digest_extract(TEEC_Session *s, uint32_t op, void *o, size_t *o_len)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, op, 0, TEEC_VALUE_INPUT);
	out(&c, 1, o, *o_len);
	res = run(s, TA_CRYPT_CMD_DIGEST_EXTRACT, &c);
	out_len(&c, 1, o_len);
	return res;
}

TEEC_Result cc_cipher_init(TEEC_Session *s, uint32_t op, const void *iv, size_t iv_len)
{
	return op_in(s, TA_CRYPT_CMD_CIPHER_INIT, op, iv, iv_len);
}

TEEC_Result cc_cipher_update(TEEC_Session *s, uint32_t op, const void *p, size_t len, void *o,
			     size_t *o_len)
{
	return op_in_out(s, TA_CRYPT_CMD_CIPHER_UPDATE, op, p, len, o, o_len);
}

TEEC_Result cc_cipher_final(TEEC_Session *s, uint32_t op, const void *p, size_t len, void *o,
			    size_t *o_len)
{
	return op_in_out(s, TA_CRYPT_CMD_CIPHER_DO_FINAL, op, p, len, o, o_len);
}

TEEC_Result cc_cipher_in_place(TEEC_Session *s, uint32_t op, int final, void *buf, size_t *len)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, op, final ? 1 : 0, TEEC_VALUE_INPUT);
	c.t[1] = TEEC_MEMREF_TEMP_INOUT;
	c.op.params[1].tmpref.buffer = buf;
	c.op.params[1].tmpref.size = *len;
	res = run(s, TA_CRYPT_CMD_CIPHER_IN_PLACE, &c);
	*len = c.op.params[1].tmpref.size;
	return res;
}

TEEC_Result cc_mac_init(TEEC_Session *s, uint32_t op, const void *iv, size_t iv_len)
{
	return op_in(s, TA_CRYPT_CMD_MAC_INIT, op, iv, iv_len);
}

TEEC_Result cc_mac_update(TEEC_Session *s, uint32_t op, const void *p, size_t len)
{
	return op_in(s, TA_CRYPT_CMD_MAC_UPDATE, op, p, len);
}

TEEC_Result cc_mac_compute(TEEC_Session *s, uint32_t op, const void *p, size_t len, void *mac,
			   size_t *mac_len)
{
	return op_in_out(s, TA_CRYPT_CMD_MAC_COMPUTE_FINAL, op, p, len, mac, mac_len);
}

TEEC_Result cc_mac_compare(TEEC_Session *s, uint32_t op, const void *p, size_t len, const void *mac,
			   size_t mac_len)
{
	struct cc_call c;

	call_init(&c);
	v(&c, 0, op, 0, TEEC_VALUE_INPUT);
	in(&c, 1, p, len);
	in(&c, 2, mac, mac_len);
	return run(s, TA_CRYPT_CMD_MAC_COMPARE_FINAL, &c);
}

TEEC_Result cc_ae_init(TEEC_Session *s, uint32_t op, const void *nonce, size_t nonce_len,
		       uint32_t tag_bits, uint32_t aad_len, uint32_t payload_len)
{
	struct cc_call c;

	call_init(&c);
	v(&c, 0, op, tag_bits, TEEC_VALUE_INPUT);
	in(&c, 1, nonce, nonce_len);
	v(&c, 2, aad_len, payload_len, TEEC_VALUE_INPUT);
	return run(s, TA_CRYPT_CMD_AE_INIT, &c);
}

TEEC_Result cc_ae_aad(TEEC_Session *s, uint32_t op, const void *aad, size_t len)
{
	return op_in(s, TA_CRYPT_CMD_AE_UPDATE_AAD, op, aad, len);
}

TEEC_Result cc_ae_update(TEEC_Session *s, uint32_t op, const void *p, size_t len, void *o,
			 size_t *o_len)
{
	return op_in_out(s, TA_CRYPT_CMD_AE_UPDATE, op, p, len, o, o_len);
}

TEEC_Result cc_ae_enc_final(TEEC_Session *s, uint32_t op, const void *p, size_t len, void *o,
			    size_t *o_len, void *tag, size_t *tag_len)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, op, 0, TEEC_VALUE_INPUT);
	in(&c, 1, p, len);
	out(&c, 2, o, o_len ? *o_len : 0);
	out(&c, 3, tag, tag_len ? *tag_len : 0);
	res = run(s, TA_CRYPT_CMD_AE_ENCRYPT_FINAL, &c);
	out_len(&c, 2, o_len);
	out_len(&c, 3, tag_len);
	return res;
}

TEEC_Result cc_ae_dec_final(TEEC_Session *s, uint32_t op, const void *p, size_t len, void *o,
			    size_t *o_len, const void *tag, size_t tag_len)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, op, 0, TEEC_VALUE_INPUT);
	in(&c, 1, p, len);
	out(&c, 2, o, o_len ? *o_len : 0);
	in(&c, 3, tag, tag_len);
	res = run(s, TA_CRYPT_CMD_AE_DECRYPT_FINAL, &c);
	out_len(&c, 2, o_len);
	return res;
}

TEEC_Result cc_random(TEEC_Session *s, void *o, size_t len)
{
	struct cc_call c;

	call_init(&c);
	out(&c, 0, o, len);
	return run(s, TA_CRYPT_CMD_GENERATE_RANDOM, &c);
}

TEEC_Result cc_alloc_obj(TEEC_Session *s, uint32_t type, uint32_t max_size, uint32_t *obj)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, type, max_size, TEEC_VALUE_INPUT);
	v(&c, 1, 0, 0, TEEC_VALUE_OUTPUT);
	res = run(s, TA_CRYPT_CMD_ALLOCATE_TRANSIENT_OBJECT, &c);
	*obj = c.op.params[1].value.a;
	return res;
}

TEEC_Result cc_free_obj(TEEC_Session *s, uint32_t obj)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_FREE_TRANSIENT_OBJECT, obj, 0, 0, 0);
}

TEEC_Result cc_reset_obj(TEEC_Session *s, uint32_t obj)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_RESET_TRANSIENT_OBJECT, obj, 0, 0, 0);
}

TEEC_Result cc_close_obj(TEEC_Session *s, uint32_t obj)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_CLOSE_OBJECT, obj, 0, 0, 0);
}

/* The attribute records of ta_crypt.h; NULL when out of memory. */
static uint8_t *attrs_pack(const struct cc_attr *attrs, size_t n, size_t *len)
{
	uint8_t *buf = NULL;
	size_t total = 0;
	size_t off = 0;

	for (size_t i = 0; i < n; i++)
		total += 12 + ((attrs[i].id & TEE_ATTR_FLAG_VALUE) ? 0 : (attrs[i].len + 3) & ~3UL);
	buf = calloc(1, total ? total : 1);
	if (!buf)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		uint32_t w[3] = {attrs[i].id, attrs[i].a, attrs[i].b};

		if (!(attrs[i].id & TEE_ATTR_FLAG_VALUE)) {
			w[1] = 0;
			w[2] = (uint32_t)attrs[i].len;
		}
		memcpy(buf + off, w, sizeof(w));
		off += sizeof(w);
		if (!(attrs[i].id & TEE_ATTR_FLAG_VALUE)) {
			if (attrs[i].len)
				memcpy(buf + off, attrs[i].buf, attrs[i].len);
			off += (attrs[i].len + 3) & ~3UL;
		}
	}
	*len = total;
	return buf;
}

static TEEC_Result with_attrs(TEEC_Session *s, uint32_t cmd, uint32_t a, uint32_t b,
			      const struct cc_attr *attrs, size_t n)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_OUT_OF_MEMORY;
	size_t len = 0;
	uint8_t *buf = attrs_pack(attrs, n, &len);

	if (!buf)
		return res;
	call_init(&c);
	v(&c, 0, a, b, TEEC_VALUE_INPUT);
	if (len)
		in(&c, 1, buf, len);
	res = run(s, cmd, &c);
	free(buf);
	return res;
}

TEEC_Result cc_populate(TEEC_Session *s, uint32_t obj, const struct cc_attr *attrs, size_t n)
{
	return with_attrs(s, TA_CRYPT_CMD_POPULATE_TRANSIENT_OBJECT, obj, 0, attrs, n);
}

TEEC_Result cc_generate_key(TEEC_Session *s, uint32_t obj, uint32_t key_size,
			    const struct cc_attr *attrs, size_t n)
{
	return with_attrs(s, TA_CRYPT_CMD_GENERATE_KEY, obj, key_size, attrs, n);
}

TEEC_Result cc_obj_info(TEEC_Session *s, uint32_t obj, struct ta_crypt_object_info *info,
			int deprecated)
{
	struct cc_call c;

	call_init(&c);
	v(&c, 0, obj, 0, TEEC_VALUE_INPUT);
	out(&c, 1, info, sizeof(*info));
	return run(s, deprecated ? TA_CRYPT_CMD_GET_OBJECT_INFO : TA_CRYPT_CMD_GET_OBJECT_INFO1,
		   &c);
}

TEEC_Result cc_restrict_usage(TEEC_Session *s, uint32_t obj, uint32_t usage, int deprecated)
{
	return cc_invoke_values(s,
				deprecated ? TA_CRYPT_CMD_RESTRICT_OBJECT_USAGE
					   : TA_CRYPT_CMD_RESTRICT_OBJECT_USAGE1,
				obj, usage, 0, 0);
}

TEEC_Result cc_get_buf_attr(TEEC_Session *s, uint32_t obj, uint32_t id, void *buf, size_t *len)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, obj, id, TEEC_VALUE_INPUT);
	out(&c, 1, buf, *len);
	res = run(s, TA_CRYPT_CMD_GET_OBJECT_BUFFER_ATTRIBUTE, &c);
	out_len(&c, 1, len);
	return res;
}

TEEC_Result cc_get_val_attr(TEEC_Session *s, uint32_t obj, uint32_t id, uint32_t *a, uint32_t *b)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	call_init(&c);
	v(&c, 0, obj, id, TEEC_VALUE_INPUT);
	v(&c, 1, 0, 0, TEEC_VALUE_OUTPUT);
	res = run(s, TA_CRYPT_CMD_GET_OBJECT_VALUE_ATTRIBUTE, &c);
	*a = c.op.params[1].value.a;
	*b = c.op.params[1].value.b;
	return res;
}

TEEC_Result cc_copy_attrs(TEEC_Session *s, uint32_t dst, uint32_t src, int deprecated)
{
	return cc_invoke_values(s,
				deprecated ? TA_CRYPT_CMD_COPY_OBJECT_ATTRIBUTES
					   : TA_CRYPT_CMD_COPY_OBJECT_ATTRIBUTES1,
				dst, src, 0, 0);
}

TEEC_Result cc_init_attr(TEEC_Session *s, uint32_t id, int value)
{
	return cc_invoke_values(s, TA_CRYPT_CMD_INIT_ATTRIBUTE, id, value ? 1 : 0, 0, 0);
}

TEEC_Result cc_secret_key(TEEC_Session *s, uint32_t type, const void *key, size_t len,
			  uint32_t *obj)
{
	struct cc_attr a = CC_REF(TEE_ATTR_SECRET_VALUE, key, len);
	TEEC_Result res = cc_alloc_obj(s, type, (uint32_t)len * 8, obj);

	if (res)
		return res;
	res = cc_populate(s, *obj, &a, 1);
	if (res) {
		cc_free_obj(s, *obj);
		*obj = 0;
	}
	return res;
}

/* ASYM_* and GP11_ASYM: v0 = (op, b), m1 = attributes, m2 = in, m3 = out or in. */
static TEEC_Result asym(TEEC_Session *s, uint32_t cmd, uint32_t op, uint32_t b,
			const struct cc_attr *attrs, size_t n, const void *p, size_t len, void *o,
			size_t *o_len, bool o_in)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_OUT_OF_MEMORY;
	size_t alen = 0;
	uint8_t *abuf = attrs_pack(attrs, n, &alen);

	if (!abuf)
		return res;
	call_init(&c);
	v(&c, 0, op, b, TEEC_VALUE_INPUT);
	if (alen)
		in(&c, 1, abuf, alen);
	in(&c, 2, p, len);
	if (o_in)
		in(&c, 3, o, *o_len);
	else
		out(&c, 3, o, *o_len);
	res = run(s, cmd, &c);
	if (!o_in)
		out_len(&c, 3, o_len);
	free(abuf);
	return res;
}

TEEC_Result cc_asym_encrypt(TEEC_Session *s, uint32_t op, const struct cc_attr *attrs, size_t n,
			    const void *p, size_t len, void *o, size_t *o_len)
{
	return asym(s, TA_CRYPT_CMD_ASYM_ENCRYPT, op, 0, attrs, n, p, len, o, o_len, false);
}

TEEC_Result cc_asym_decrypt(TEEC_Session *s, uint32_t op, const struct cc_attr *attrs, size_t n,
			    const void *p, size_t len, void *o, size_t *o_len)
{
	return asym(s, TA_CRYPT_CMD_ASYM_DECRYPT, op, 0, attrs, n, p, len, o, o_len, false);
}

TEEC_Result cc_asym_sign(TEEC_Session *s, uint32_t op, const struct cc_attr *attrs, size_t n,
			 const void *digest, size_t len, void *sig, size_t *sig_len)
{
	return asym(s, TA_CRYPT_CMD_ASYM_SIGN, op, 0, attrs, n, digest, len, sig, sig_len, false);
}

TEEC_Result cc_asym_verify(TEEC_Session *s, uint32_t op, const struct cc_attr *attrs, size_t n,
			   const void *digest, size_t len, const void *sig, size_t sig_len)
{
	return asym(s, TA_CRYPT_CMD_ASYM_VERIFY, op, 0, attrs, n, digest, len, (void *)sig,
		    &sig_len, true);
}

TEEC_Result cc_gp11_asym(TEEC_Session *s, uint32_t cmd, uint32_t op, const struct cc_attr *attrs,
			 size_t n, const void *p, size_t len, void *o, size_t *o_len)
{
	return asym(s, TA_CRYPT_CMD_GP11_ASYM, op, cmd, attrs, n, p, len, o, o_len,
		    cmd == TA_CRYPT_CMD_ASYM_VERIFY);
}

TEEC_Result cc_derive_key(TEEC_Session *s, uint32_t op, uint32_t derived, struct cc_attr *attrs,
			  size_t n)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_OUT_OF_MEMORY;
	size_t alen = 0;
	size_t off = 0;
	uint8_t *abuf = attrs_pack(attrs, n, &alen);

	if (!abuf)
		return res;
	call_init(&c);
	v(&c, 0, op, derived, TEEC_VALUE_INPUT);
	if (alen) {
		c.t[1] = TEEC_MEMREF_TEMP_INOUT;
		c.op.params[1].tmpref.buffer = abuf;
		c.op.params[1].tmpref.size = alen;
	}
	res = run(s, TA_CRYPT_CMD_DERIVE_KEY, &c);
	/* What TEE_DeriveKey wrote into an output attribute comes back. */
	for (size_t i = 0; res == TEEC_SUCCESS && i < n; i++) {
		off += 12;
		if (attrs[i].id & TEE_ATTR_FLAG_VALUE)
			continue;
		if (attrs[i].id == TEE_ATTR_SM2_KEP_CONFIRMATION_OUT && attrs[i].len)
			memcpy((void *)attrs[i].buf, abuf + off, attrs[i].len);
		off += (attrs[i].len + 3) & ~3UL;
	}
	free(abuf);
	return res;
}

TEEC_Result cc_gp11_derive_key(TEEC_Session *s, uint32_t op, uint32_t derived,
			       const struct cc_attr *attrs, size_t n)
{
	struct cc_call c;
	TEEC_Result res = TEEC_ERROR_OUT_OF_MEMORY;
	size_t alen = 0;
	uint8_t *abuf = attrs_pack(attrs, n, &alen);

	if (!abuf)
		return res;
	call_init(&c);
	v(&c, 0, op, TA_CRYPT_CMD_DERIVE_KEY, TEEC_VALUE_INPUT);
	if (alen)
		in(&c, 1, abuf, alen);
	v(&c, 2, derived, 0, TEEC_VALUE_INPUT);
	res = run(s, TA_CRYPT_CMD_GP11_ASYM, &c);
	free(abuf);
	return res;
}

TEEC_Result cc_key(TEEC_Session *s, uint32_t type, uint32_t max_size, const struct cc_attr *attrs,
		   size_t n, uint32_t *obj)
{
	TEEC_Result res = cc_alloc_obj(s, type, max_size, obj);

	if (res)
		return res;
	res = cc_populate(s, *obj, attrs, n);
	if (res) {
		if (res != TEEC_ERROR_TARGET_DEAD)
			cc_free_obj(s, *obj);
		*obj = 0;
	}
	return res;
}
