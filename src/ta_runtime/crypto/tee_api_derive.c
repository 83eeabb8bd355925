/*
 * GP Cryptographic Operations API: key derivation (6.7), TEE_DeriveKey.
 *
 * The derived key is a transient, uninitialised TEE_TYPE_GENERIC_SECRET
 * object (as OP-TEE requires); it receives the secret as
 * TEE_ATTR_SECRET_VALUE. As in OP-TEE, its maxObjectSize does not bound
 * the result: any secret up to the type's maximum (4096 bits) goes in, and
 * the object's size is the secret's. TEE_DeriveKey returns nothing, so every
 * failure panics, a peer public key the library refuses included (an ECC
 * point off the curve, a DH value out of range): GP gives the TA no other
 * outcome.
 *
 * Parameters, by algorithm (other attributes are ignored, as in OP-TEE):
 *   DH: TEE_ATTR_DH_PUBLIC_VALUE; ECDH: TEE_ATTR_ECC_PUBLIC_VALUE_X and _Y;
 *   X25519: TEE_ATTR_X25519_PUBLIC_VALUE;
 *   SM2 KEP: TEE_ATTR_SM2_KEP_USER (a = 0 initiator, 1 responder), the
 *     peer's TEE_ATTR_ECC_PUBLIC_VALUE_X/_Y and
 *     TEE_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_X/_Y (or OP-TEE's older IDs),
 *     TEE_ATTR_SM2_ID_INITIATOR and _RESPONDER, optionally
 *     TEE_ATTR_SM2_KEP_CONFIRMATION_IN (checked) and _OUT (written, 32
 *     bytes); the key is as many bytes long as the derived object's
 *     maxObjectSize says bits (OP-TEE's reading: 16 gives a 16-byte key);
 *   HKDF (OP-TEE IDs): TEE_ATTR_HKDF_OKM_LENGTH (bytes), optionally the
 *     salt and info (OP-TEE's IDs or GP 1.3's);
 *   HKDF (GP 1.3's TEE_ALG_HKDF): optionally TEE_ATTR_HKDF_SALT,
 *     TEE_ATTR_HKDF_INFO, TEE_ATTR_HKDF_HASH_ALGORITHM (a = a TEE_ALG_*
 *     digest, SHA-256 by default), TEE_ATTR_KDF_KEY_SIZE (a = bytes, the
 *     derived object's maximum size by default);
 *   Concat KDF: TEE_ATTR_CONCAT_KDF_DKM_LENGTH, optionally _OTHER_INFO;
 *   PBKDF2: TEE_ATTR_PBKDF2_ITERATION_COUNT and _DKM_LENGTH, optionally
 *     TEE_ATTR_PBKDF2_SALT.
 */
#include <stdlib.h>
#include <string.h>

#include "operation.h"
#include "runtime.h"
#include "secure.h"

/* The longest shared secret: a DH value of 2048 bits. */
#define SECRET_MAX 256

struct derive {
	const TEE_Attribute *params;
	uint32_t count;
	const char *func;
};

/* The attribute id of the call, or NULL; panics on a malformed buffer one. */
static const TEE_Attribute *param(const struct derive *d, uint32_t id)
{
	for (uint32_t i = 0; i < d->count; i++) {
		const TEE_Attribute *a = &d->params[i];

		if (a->attributeID != id)
			continue;
		if (!(id & TEE_ATTR_FLAG_VALUE) && a->content.ref.length && !a->content.ref.buffer)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, d->func);
		return a;
	}
	return NULL;
}

/* A buffer attribute; panics when a required one is missing. */
static const uint8_t *buf_param(const struct derive *d, uint32_t id, size_t *len, bool required)
{
	const TEE_Attribute *a = param(d, id);

	*len = 0;
	if (!a) {
		if (required)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, d->func);
		return NULL;
	}
	*len = a->content.ref.length;
	return a->content.ref.buffer;
}

/* The first of two IDs given for the same buffer. */
static const uint8_t *buf_param2(const struct derive *d, uint32_t id, uint32_t alt, size_t *len,
				 bool required)
{
	if (param(d, id))
		return buf_param(d, id, len, required);
	return buf_param(d, alt, len, required);
}

static uint32_t value_param(const struct derive *d, uint32_t id, bool required, uint32_t def)
{
	const TEE_Attribute *a = param(d, id);

	if (!a) {
		if (required)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, d->func);
		return def;
	}
	return a->content.value.a;
}

static struct be_pkey *key(struct tee_op *op, bool second, const char *func)
{
	struct be_pkey *k = NULL;
	TEE_Result res = op_pkey(op, second, &k);

	if (res)
		rt_panic(res, func);
	return k;
}

static TEE_Result shared_secret(struct tee_op *op, const struct derive *d, uint8_t *out,
				size_t *len)
{
	const uint8_t *x = NULL;
	const uint8_t *y = NULL;
	size_t x_len = 0;
	size_t y_len = 0;

	switch (TEE_ALG_GET_MAIN_ALG(op->info.algorithm)) {
	case TEE_MAIN_ALGO_DH:
		x = buf_param(d, TEE_ATTR_DH_PUBLIC_VALUE, &x_len, true);
		return be_derive_dh(key(op, false, d->func), x, x_len, out, len);
	case TEE_MAIN_ALGO_ECDH:
		x = buf_param(d, TEE_ATTR_ECC_PUBLIC_VALUE_X, &x_len, true);
		y = buf_param(d, TEE_ATTR_ECC_PUBLIC_VALUE_Y, &y_len, true);
		return be_derive_ecdh(key(op, false, d->func), x, x_len, y, y_len, out, len);
	default: /* X25519 */
		x = buf_param(d, TEE_ATTR_X25519_PUBLIC_VALUE, &x_len, true);
		if (x_len != 32)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, d->func);
		return be_derive_x25519(key(op, false, d->func), x, x_len, out, len);
	}
}

static TEE_Result sm2_kep(struct tee_op *op, const struct derive *d, uint8_t *out, size_t len)
{
	struct be_sm2_kep_params p = {0};
	const TEE_Attribute *conf_out = NULL;
	uint32_t role = value_param(d, TEE_ATTR_SM2_KEP_USER, true, 0);

	if (role > 1 || !len)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, d->func);
	p.initiator = role == 0;
	p.peer_x = buf_param(d, TEE_ATTR_ECC_PUBLIC_VALUE_X, &p.peer_x_len, true);
	p.peer_y = buf_param(d, TEE_ATTR_ECC_PUBLIC_VALUE_Y, &p.peer_y_len, true);
	p.peer_eph_x =
	    buf_param2(d, TEE_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_X,
		       __OPTEE_SM2_KEP_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_X, &p.peer_eph_x_len, true);
	p.peer_eph_y =
	    buf_param2(d, TEE_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_Y,
		       __OPTEE_SM2_KEP_ATTR_ECC_EPHEMERAL_PUBLIC_VALUE_Y, &p.peer_eph_y_len, true);
	p.id_initiator = buf_param(d, TEE_ATTR_SM2_ID_INITIATOR, &p.id_initiator_len, true);
	p.id_responder = buf_param(d, TEE_ATTR_SM2_ID_RESPONDER, &p.id_responder_len, true);
	p.conf_in = buf_param(d, TEE_ATTR_SM2_KEP_CONFIRMATION_IN, &p.conf_in_len, false);
	conf_out = param(d, TEE_ATTR_SM2_KEP_CONFIRMATION_OUT);
	if (conf_out) {
		if (conf_out->content.ref.length < 32)
			rt_panic(TEE_ERROR_SHORT_BUFFER, d->func);
		p.conf_out = conf_out->content.ref.buffer;
		p.conf_out_len = 32;
	}
	return be_derive_sm2_kep(key(op, false, d->func), key(op, true, d->func), &p, out, len);
}

/*
 * The KDFs: *len is the output length asked for (GP 1.3 HKDF: def_len by
 * default), checked against room.
 */
static TEE_Result kdf(struct tee_op *op, const struct derive *d, uint8_t **out, size_t *len,
		      size_t room, size_t def_len)
{
	uint32_t alg = op->info.algorithm;
	uint32_t main = TEE_ALG_GET_MAIN_ALG(alg);
	uint32_t hash = op->desc->hash;
	const uint8_t *key_buf = NULL;
	const uint8_t *salt = NULL;
	const uint8_t *info = NULL;
	size_t key_len = 0;
	size_t salt_len = 0;
	size_t info_len = 0;
	uint32_t iter = 0;

	op_key_bytes(op->key1, &key_buf, &key_len);
	if (alg == TEE_ALG_HKDF) {
		hash = value_param(d, TEE_ATTR_HKDF_HASH_ALGORITHM, false, TEE_ALG_SHA256);
		if (!alg_hash_size(hash) || !be_alg_supported(hash))
			rt_panic(TEE_ERROR_NOT_SUPPORTED, d->func);
		*len = value_param(d, TEE_ATTR_KDF_KEY_SIZE, false, (uint32_t)def_len);
	} else if (main == TEE_MAIN_ALGO_HKDF) {
		*len = value_param(d, TEE_ATTR_HKDF_OKM_LENGTH, true, 0);
	} else if (main == TEE_MAIN_ALGO_CONCAT_KDF) {
		*len = value_param(d, TEE_ATTR_CONCAT_KDF_DKM_LENGTH, true, 0);
	} else {
		*len = value_param(d, TEE_ATTR_PBKDF2_DKM_LENGTH, true, 0);
		iter = value_param(d, TEE_ATTR_PBKDF2_ITERATION_COUNT, true, 0);
	}
	/* Nothing, or more than the derived key holds: checked before any work */
	if (!*len || *len > room || (main == TEE_MAIN_ALGO_PBKDF2 && !iter))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, d->func);
	*out = malloc(*len);
	if (!*out)
		rt_panic(TEE_ERROR_OUT_OF_MEMORY, d->func);
	switch (main) {
	case TEE_MAIN_ALGO_HKDF:
		salt =
		    buf_param2(d, TEE_ATTR_HKDF_SALT, __OPTEE_TEE_ATTR_HKDF_SALT, &salt_len, false);
		info = buf_param2(d, TEE_ATTR_HKDF_INFO, __OPTEE_ATTR_HKDF_INFO, &info_len, false);
		return be_hkdf(hash, key_buf, key_len, salt, salt_len, info, info_len, *out, *len);
	case TEE_MAIN_ALGO_CONCAT_KDF:
		info = buf_param(d, TEE_ATTR_CONCAT_KDF_OTHER_INFO, &info_len, false);
		return be_concat_kdf(hash, key_buf, key_len, info, info_len, *out, *len);
	default:
		salt = buf_param(d, TEE_ATTR_PBKDF2_SALT, &salt_len, false);
		return be_pbkdf2(hash, key_buf, key_len, salt, salt_len, iter, *out, *len);
	}
}

void TEE_DeriveKey(TEE_OperationHandle operation, const TEE_Attribute *params, uint32_t paramCount,
		   TEE_ObjectHandle derivedKey)
{
	static const char func[] = "TEE_DeriveKey";
	struct tee_op *op = op_from_handle(operation, func);
	struct derive d = {.params = params, .count = paramCount, .func = func};
	struct tee_obj *dk = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	uint8_t secret[SECRET_MAX];
	uint8_t *out = NULL;
	size_t room = 0;
	size_t len = 0;

	if (op->info.operationClass != TEE_OPERATION_KEY_DERIVATION ||
	    op->info.mode != TEE_MODE_DERIVE)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (!(op->info.handleState & TEE_HANDLE_FLAG_KEY_SET))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if (paramCount && !params)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	dk = obj_from_handle(derivedKey, func);
	if (dk->handle_flags & TEE_HANDLE_FLAG_PERSISTENT || dk->type != TEE_TYPE_GENERIC_SECRET)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (dk->handle_flags & TEE_HANDLE_FLAG_INITIALIZED)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	room = obj_type_find(TEE_TYPE_GENERIC_SECRET)->max_size / 8;
	switch (TEE_ALG_GET_MAIN_ALG(op->info.algorithm)) {
	case TEE_MAIN_ALGO_DH:
	case TEE_MAIN_ALGO_ECDH:
	case TEE_MAIN_ALGO_X25519:
		len = sizeof(secret);
		res = shared_secret(op, &d, secret, &len);
		if (!res && len > room)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		out = secret;
		break;
	case TEE_MAIN_ALGO_SM2_KEP:
		len = dk->max_size;
		if (len > room)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		out = malloc(len ? len : 1);
		if (!out)
			rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
		res = sm2_kep(op, &d, out, len);
		break;
	default:
		res = kdf(op, &d, &out, &len, room, dk->max_size / 8);
		break;
	}
	if (!res)
		res = obj_attr_set_buf(dk, TEE_ATTR_SECRET_VALUE, out, len);
	if (res)
		rt_panic(res, func);
	dk->object_size = (uint32_t)len * 8;
	dk->handle_flags |= TEE_HANDLE_FLAG_INITIALIZED;
	secure_wipe(out, len);
	if (out != secret)
		free(out);
}
