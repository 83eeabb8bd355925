/*
 * GP Cryptographic Operations API, generic operation functions (6.1):
 * allocation, information, reset, keys, copy and algorithm support.
 *
 * An operation holds private copies of its keys in objects no handle
 * names, as OP-TEE does, so the TA may close its key objects at once.
 * Panics follow gp-api.md 9.2 and OP-TEE's libutee: a bad handle, a key of
 * the wrong type, size or usage, TEE_SetOperationKey on an initialised
 * operation, TEE_SetOperationKey2 outside the initial state.
 */
#include <stdlib.h>
#include <string.h>

#include "handle.h"
#include "operation.h"
#include "runtime.h"
#include "secure.h"

#define OP_HANDLES_MAX 4096

static struct handle_table op_handles = HANDLE_TABLE_INIT(HANDLE_KIND_OPERATION, OP_HANDLES_MAX);

static uint32_t handle_value(TEE_OperationHandle h)
{
	uintptr_t v = (uintptr_t)h;

	return v > UINT32_MAX ? 0 : (uint32_t)v;
}

struct tee_op *op_from_handle(TEE_OperationHandle h, const char *func)
{
	struct tee_op *op = handle_lookup(&op_handles, handle_value(h));

	if (!op)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	return op;
}

void op_key_bytes(const struct tee_obj *key, const uint8_t **p, size_t *len)
{
	*p = NULL;
	*len = 0;
	if (key && key->nattrs && key->attrs[0].buf) {
		*p = key->attrs[0].buf;
		*len = key->attrs[0].len;
	}
}

const uint8_t *op_input_copy(const void *src, size_t slen, const void *dst, size_t dlen,
			     uint8_t **copy, const char *func)
{
	const uint8_t *s = src;
	const uint8_t *d = dst;

	*copy = NULL;
	if (!slen || !d || !dlen || s + slen <= d || d + dlen <= s)
		return s;
	*copy = malloc(slen);
	if (!*copy)
		rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
	memcpy(*copy, src, slen);
	return *copy;
}

void op_input_free(uint8_t *copy, size_t slen)
{
	if (copy)
		secure_wipe(copy, slen);
	free(copy);
}

static void op_free(struct tee_op *op)
{
	if (!op)
		return;
	switch (op->info.operationClass) {
	case TEE_OPERATION_DIGEST:
		be_hash_free(op->be.hash);
		break;
	case TEE_OPERATION_MAC:
		be_mac_free(op->be.mac);
		break;
	case TEE_OPERATION_CIPHER:
		be_cipher_free(op->be.cipher);
		break;
	case TEE_OPERATION_AE:
		be_ae_free(op->be.ae);
		break;
	default:
		break;
	}
	op_pkeys_clear(op);
	obj_free(op->key1);
	obj_free(op->key2);
	secure_wipe(op, sizeof(*op));
	free(op);
}

void op_pkeys_clear(struct tee_op *op)
{
	be_pkey_free(op->pkey1);
	be_pkey_free(op->pkey2);
	op->pkey1 = NULL;
	op->pkey2 = NULL;
}

TEE_Result op_pkey(struct tee_op *op, bool second, struct be_pkey **k)
{
	struct be_pkey **slot = second ? &op->pkey2 : &op->pkey1;
	TEE_Result res = TEE_SUCCESS;

	if (!*slot)
		res = be_pkey_new(second ? op->key2 : op->key1, slot);
	*k = *slot;
	return res;
}

void op_reset_state(struct tee_op *op)
{
	op->state = TEE_OPERATION_STATE_INITIAL;
	op->buf_off = 0;
	op->digest_off = 0;
	secure_wipe(op->buf, sizeof(op->buf));
	secure_wipe(op->digest, sizeof(op->digest));
	op->info.handleState &= ~TEE_HANDLE_FLAG_EXTRACTING;
	if (op->info.operationClass == TEE_OPERATION_DIGEST) {
		if (be_hash_init(op->be.hash))
			rt_panic(TEE_ERROR_GENERIC, "TEE_ResetOperation");
		op->info.handleState |= TEE_HANDLE_FLAG_INITIALIZED;
	} else {
		op->info.handleState &= ~TEE_HANDLE_FLAG_INITIALIZED;
	}
}

/* The key usage an algorithm needs in a mode, or false if the mode is wrong. */
static bool mode_usage(const struct alg_desc *d, uint32_t mode, uint32_t *usage)
{
	switch (d->cls) {
	case TEE_OPERATION_CIPHER:
	case TEE_OPERATION_AE:
		if (mode == TEE_MODE_ENCRYPT)
			*usage = TEE_USAGE_ENCRYPT;
		else if (mode == TEE_MODE_DECRYPT)
			*usage = TEE_USAGE_DECRYPT;
		else
			return false;
		return true;
	case TEE_OPERATION_MAC:
		*usage = TEE_USAGE_MAC;
		return mode == TEE_MODE_MAC;
	case TEE_OPERATION_DIGEST:
		*usage = 0;
		return mode == TEE_MODE_DIGEST;
	case TEE_OPERATION_ASYMMETRIC_CIPHER:
		if (mode == TEE_MODE_ENCRYPT)
			*usage = TEE_USAGE_ENCRYPT;
		else if (mode == TEE_MODE_DECRYPT)
			*usage = TEE_USAGE_DECRYPT;
		else
			return false;
		return true;
	case TEE_OPERATION_ASYMMETRIC_SIGNATURE:
		if (mode == TEE_MODE_SIGN)
			*usage = TEE_USAGE_SIGN;
		else if (mode == TEE_MODE_VERIFY)
			*usage = TEE_USAGE_VERIFY;
		else
			return false;
		return true;
	case TEE_OPERATION_KEY_DERIVATION:
		*usage = TEE_USAGE_DERIVE;
		return mode == TEE_MODE_DERIVE;
	default:
		return false;
	}
}

static TEE_Result op_backend_new(struct tee_op *op)
{
	bool enc = op->info.mode == TEE_MODE_ENCRYPT;
	uint32_t alg = op->info.algorithm;
	TEE_Result res = TEE_ERROR_GENERIC;

	switch (op->info.operationClass) {
	case TEE_OPERATION_DIGEST:
		res = be_hash_new(alg, &op->be.hash);
		if (!res)
			res = be_hash_init(op->be.hash);
		return res;
	case TEE_OPERATION_MAC:
		return be_mac_new(alg, &op->be.mac);
	case TEE_OPERATION_CIPHER:
		return be_cipher_new(alg, enc, &op->be.cipher);
	case TEE_OPERATION_AE:
		return be_ae_new(alg, enc, &op->be.ae);
	default:
		/* Asymmetric and derivation: the library keys come with the key. */
		return TEE_SUCCESS;
	}
}

TEE_Result TEE_AllocateOperation(TEE_OperationHandle *operation, uint32_t algorithm, uint32_t mode,
				 uint32_t maxKeySize)
{
	const struct alg_desc *d = alg_find(algorithm);
	TEE_Result res = TEE_ERROR_NOT_SUPPORTED;
	struct tee_op *op = NULL;
	uint32_t usage = 0;
	uint32_t v = 0;

	if (!operation)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_AllocateOperation");
	*operation = TEE_HANDLE_NULL;
	if (!d || !mode_usage(d, mode, &usage) || !alg_usable(d, maxKeySize))
		goto out;
	op = calloc(1, sizeof(*op));
	if (!op) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	op->desc = d;
	op->info.algorithm = algorithm;
	op->info.operationClass = d->cls;
	op->info.mode = mode;
	op->info.digestLength = d->digest_len;
	op->info.maxKeySize = maxKeySize;
	op->info.requiredKeyUsage = usage;
	op->state = TEE_OPERATION_STATE_INITIAL;
	op->block_size = d->block_size;
	op->two_blocks =
	    (d->flags & ALG_TWO_BLOCKS) || ((d->flags & ALG_PKCS5) && mode == TEE_MODE_DECRYPT);
	if (d->cls == TEE_OPERATION_DIGEST) {
		op->info.handleState = TEE_HANDLE_FLAG_KEY_SET | TEE_HANDLE_FLAG_INITIALIZED;
	} else {
		uint32_t mks = maxKeySize;

		/*
		 * Two keys (XTS, SM2 KEP), as OP-TEE: maxKeySize is taken for
		 * both, so half of it must be a size of the key type, yet
		 * TEE_SetOperationKey2 takes each key up to maxKeySize: the
		 * key objects get room for that.
		 */
		if (d->flags & ALG_TWO_KEYS) {
			op->info.handleState = TEE_HANDLE_FLAG_EXPECT_TWO_KEYS;
			mks /= 2;
		}
		res = obj_new(d->key_type, mks, &op->key1);
		if (!res && (d->flags & ALG_TWO_KEYS))
			res = obj_new(d->key_type, mks, &op->key2);
		if (res)
			goto out;
		if (op->key2) {
			op->key1->max_size = maxKeySize;
			op->key2->max_size = maxKeySize;
		}
	}
	res = op_backend_new(op);
	if (res)
		goto out;
	v = handle_new(&op_handles, op);
	if (!v) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	*operation = (TEE_OperationHandle)(uintptr_t)v;
	op = NULL; /* transferred */
	res = TEE_SUCCESS;
out:
	op_free(op);
	if (res && res != TEE_ERROR_NOT_SUPPORTED && res != TEE_ERROR_OUT_OF_MEMORY)
		rt_panic(res, "TEE_AllocateOperation");
	return res;
}

void TEE_FreeOperation(TEE_OperationHandle operation)
{
	struct tee_op *op = NULL;

	if (operation == TEE_HANDLE_NULL)
		return;
	op = handle_release(&op_handles, handle_value(operation));
	if (!op)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_FreeOperation");
	op_free(op);
}

void TEE_GetOperationInfo(TEE_OperationHandle operation, TEE_OperationInfo *operationInfo)
{
	struct tee_op *op = op_from_handle(operation, "TEE_GetOperationInfo");

	if (!operationInfo)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "TEE_GetOperationInfo");
	*operationInfo = op->info;
	if (op->info.handleState & TEE_HANDLE_FLAG_EXPECT_TWO_KEYS) {
		operationInfo->keySize = 0;
		operationInfo->requiredKeyUsage = 0;
	}
}

TEE_Result TEE_GetOperationInfoMultiple(TEE_OperationHandle operation,
					TEE_OperationInfoMultiple *operationInfoMultiple,
					size_t *operationSize)
{
	static const char func[] = "TEE_GetOperationInfoMultiple";
	struct tee_op *op = op_from_handle(operation, func);
	TEE_OperationInfoMultiple *info = operationInfoMultiple;
	size_t nkeys = 0;
	size_t room = 0;

	if (!operationSize || !info || *operationSize < sizeof(*info))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	room = (*operationSize - sizeof(*info)) / sizeof(TEE_OperationInfoKey);
	if (op->info.operationClass != TEE_OPERATION_DIGEST)
		nkeys = op->key2 ? 2 : 1;
	if (room < nkeys) {
		*operationSize = sizeof(*info) + nkeys * sizeof(TEE_OperationInfoKey);
		return TEE_ERROR_SHORT_BUFFER;
	}
	memset(info, 0, sizeof(*info) + nkeys * sizeof(TEE_OperationInfoKey));
	info->algorithm = op->info.algorithm;
	info->operationClass = op->info.operationClass;
	info->mode = op->info.mode;
	info->digestLength = op->info.digestLength;
	info->maxKeySize = op->info.maxKeySize;
	info->handleState = op->info.handleState;
	info->operationState = op->state;
	info->numberOfKeys = (uint32_t)nkeys;
	if (nkeys > 0) {
		info->keyInformation[0].keySize = op->key1->object_size;
		info->keyInformation[0].requiredKeyUsage = op->info.requiredKeyUsage;
	}
	if (nkeys > 1) {
		info->keyInformation[1].keySize = op->key2->object_size;
		info->keyInformation[1].requiredKeyUsage = op->info.requiredKeyUsage;
	}
	*operationSize = sizeof(*info) + nkeys * sizeof(TEE_OperationInfoKey);
	return TEE_SUCCESS;
}

void TEE_ResetOperation(TEE_OperationHandle operation)
{
	struct tee_op *op = op_from_handle(operation, "TEE_ResetOperation");

	if (!(op->info.handleState & TEE_HANDLE_FLAG_KEY_SET))
		rt_panic(TEE_ERROR_BAD_STATE, "TEE_ResetOperation");
	op_reset_state(op);
}

static void keys_clear(struct tee_op *op)
{
	op_pkeys_clear(op);
	obj_reset(op->key1);
	if (op->key2)
		obj_reset(op->key2);
	op->info.handleState &= ~TEE_HANDLE_FLAG_KEY_SET;
	op->info.keySize = 0;
	if (op->state != TEE_OPERATION_STATE_INITIAL)
		op_reset_state(op);
}

/*
 * The key types op takes: its key pair type, and the public type of that
 * pair to encrypt or verify with.
 */
static bool key_type_ok(const struct tee_op *op, uint32_t type)
{
	uint32_t pair = op->desc->key_type;
	uint32_t mode = op->info.mode;

	if (type == pair)
		return true;
	return (op->info.operationClass == TEE_OPERATION_ASYMMETRIC_CIPHER ||
		op->info.operationClass == TEE_OPERATION_ASYMMETRIC_SIGNATURE) &&
	       (mode == TEE_MODE_ENCRYPT || mode == TEE_MODE_VERIFY) &&
	       (pair & OBJ_TYPE_KEYPAIR_BIT) && type == (pair & ~OBJ_TYPE_KEYPAIR_BIT);
}

/*
 * A key the TA gives for op: its object, checked for state, usage, type and
 * size (panics), or the storage engine's error for a persistent one.
 */
static TEE_Result key_check(struct tee_op *op, TEE_ObjectHandle key, struct tee_obj **out,
			    const char *func)
{
	struct tee_obj *k = obj_from_handle(key, func);
	uint32_t curve = alg_fixed_curve(op->info.algorithm);

	*out = k;
	if ((k->handle_flags & TEE_HANDLE_FLAG_PERSISTENT) && k->storage_ops &&
	    k->storage_ops->check) {
		TEE_Result res = k->storage_ops->check(k);

		if (res)
			return res;
	}
	if (!(k->handle_flags & TEE_HANDLE_FLAG_INITIALIZED))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if ((k->usage & op->info.requiredKeyUsage) != op->info.requiredKeyUsage)
		rt_panic(TEE_ERROR_ACCESS_DENIED, func);
	if (k->object_size > op->info.maxKeySize)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (!key_type_ok(op, k->type))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	/* OP-TEE's ECDSA and ECDH IDs name their curve. */
	if (curve) {
		const struct obj_attr *a = obj_attr_find(k, TEE_ATTR_ECC_CURVE);

		if (!a || a->a != curve)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	}
	return TEE_SUCCESS;
}

/*
 * Copies a checked key into one of op's key objects, which takes the key's
 * type (a public key where the pair is expected); panics when it cannot.
 */
static void key_install(struct tee_obj *slot, const struct tee_obj *k, const char *func)
{
	obj_reset(slot);
	slot->type = k->type;
	if (obj_copy_attrs(slot, k, func))
		rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
}

static TEE_Result set_key(struct tee_op *op, TEE_ObjectHandle key, const char *func)
{
	struct tee_obj *k = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (key == TEE_HANDLE_NULL) {
		if (op->info.operationClass != TEE_OPERATION_DIGEST)
			keys_clear(op);
		return TEE_SUCCESS;
	}
	if (op->info.operationClass == TEE_OPERATION_DIGEST ||
	    (op->info.handleState & TEE_HANDLE_FLAG_EXPECT_TWO_KEYS))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = key_check(op, key, &k, func);
	if (res)
		return res;
	op->info.handleState &= ~TEE_HANDLE_FLAG_KEY_SET;
	op_pkeys_clear(op);
	key_install(op->key1, k, func);
	op->info.keySize = k->object_size;
	op->info.handleState |= TEE_HANDLE_FLAG_KEY_SET;
	if (op->state != TEE_OPERATION_STATE_INITIAL)
		op_reset_state(op);
	return TEE_SUCCESS;
}

TEE_Result TEE_SetOperationKey(TEE_OperationHandle operation, TEE_ObjectHandle key)
{
	static const char func[] = "TEE_SetOperationKey";
	struct tee_op *op = op_from_handle(operation, func);

	if (op->info.handleState & TEE_HANDLE_FLAG_INITIALIZED)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	return set_key(op, key, func);
}

TEE_Result __GP11_TEE_SetOperationKey(TEE_OperationHandle operation, TEE_ObjectHandle key)
{
	static const char func[] = "__GP11_TEE_SetOperationKey";
	struct tee_op *op = op_from_handle(operation, func);

	if (op->state != TEE_OPERATION_STATE_INITIAL)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	return set_key(op, key, func);
}

static TEE_Result set_key2(struct tee_op *op, TEE_ObjectHandle key1, TEE_ObjectHandle key2,
			   const char *func)
{
	struct tee_obj *k1 = NULL;
	struct tee_obj *k2 = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (op->state != TEE_OPERATION_STATE_INITIAL)
		rt_panic(TEE_ERROR_BAD_STATE, func);
	if (!key1 && !key2) {
		if (op->info.operationClass != TEE_OPERATION_DIGEST)
			keys_clear(op);
		return TEE_SUCCESS;
	}
	if (!key1 || !key2 || op->info.operationClass == TEE_OPERATION_DIGEST ||
	    !(op->info.handleState & TEE_HANDLE_FLAG_EXPECT_TWO_KEYS))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = key_check(op, key1, &k1, func);
	if (res)
		return res;
	res = key_check(op, key2, &k2, func);
	if (res == TEE_ERROR_CORRUPT_OBJECT)
		return TEE_ERROR_CORRUPT_OBJECT_2;
	if (res == TEE_ERROR_STORAGE_NOT_AVAILABLE)
		return TEE_ERROR_STORAGE_NOT_AVAILABLE_2;
	if (res)
		return res;
	/* Both keys are of the same size (XTS, SM2 KEP). */
	if (k1->object_size != k2->object_size)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	op->info.handleState &= ~TEE_HANDLE_FLAG_KEY_SET;
	op_pkeys_clear(op);
	key_install(op->key1, k1, func);
	key_install(op->key2, k2, func);
	op->info.keySize = k1->object_size;
	op->info.handleState |= TEE_HANDLE_FLAG_KEY_SET;
	return TEE_SUCCESS;
}

TEE_Result TEE_SetOperationKey2(TEE_OperationHandle operation, TEE_ObjectHandle key1,
				TEE_ObjectHandle key2)
{
	static const char func[] = "TEE_SetOperationKey2";
	struct tee_op *op = op_from_handle(operation, func);

	/* XTS with the same key twice is no XTS (GP 1.3). */
	if (key1 && key1 == key2)
		return TEE_ERROR_SECURITY;
	return set_key2(op, key1, key2, func);
}

TEE_Result __GP11_TEE_SetOperationKey2(TEE_OperationHandle operation, TEE_ObjectHandle key1,
				       TEE_ObjectHandle key2)
{
	static const char func[] = "__GP11_TEE_SetOperationKey2";

	return set_key2(op_from_handle(operation, func), key1, key2, func);
}

static TEE_Result backend_copy(struct tee_op *dst, const struct tee_op *src)
{
	switch (src->info.operationClass) {
	case TEE_OPERATION_DIGEST:
		return be_hash_copy(dst->be.hash, src->be.hash);
	case TEE_OPERATION_MAC:
		return be_mac_copy(dst->be.mac, src->be.mac);
	case TEE_OPERATION_CIPHER:
		return be_cipher_copy(dst->be.cipher, src->be.cipher);
	case TEE_OPERATION_AE:
		return be_ae_copy(dst->be.ae, src->be.ae);
	default:
		/* Single-shot operations: the library keys are made again from the keys. */
		return TEE_SUCCESS;
	}
}

void TEE_CopyOperation(TEE_OperationHandle dstOperation, TEE_OperationHandle srcOperation)
{
	static const char func[] = "TEE_CopyOperation";
	struct tee_op *dst = op_from_handle(dstOperation, func);
	struct tee_op *src = op_from_handle(srcOperation, func);

	if (dst == src)
		return;
	if (dst->info.algorithm != src->info.algorithm || dst->info.mode != src->info.mode)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (src->info.operationClass != TEE_OPERATION_DIGEST) {
		op_pkeys_clear(dst);
		if (src->info.handleState & TEE_HANDLE_FLAG_KEY_SET) {
			if (src->info.keySize > dst->info.maxKeySize)
				rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
			key_install(dst->key1, src->key1, func);
			if (src->key2)
				key_install(dst->key2, src->key2, func);
		} else {
			obj_reset(dst->key1);
			if (dst->key2)
				obj_reset(dst->key2);
		}
	}
	dst->info.handleState = src->info.handleState;
	dst->info.keySize = src->info.keySize;
	dst->info.digestLength = src->info.digestLength;
	dst->state = src->state;
	memcpy(dst->buf, src->buf, sizeof(dst->buf));
	dst->buf_off = src->buf_off;
	memcpy(dst->digest, src->digest, sizeof(dst->digest));
	dst->digest_off = src->digest_off;
	if (backend_copy(dst, src))
		rt_panic(TEE_ERROR_GENERIC, func);
}

TEE_Result TEE_IsAlgorithmSupported(uint32_t algId, uint32_t element)
{
	return alg_supported(algId, element);
}

void __GP11_TEE_FreeOperation(TEE_OperationHandle operation)
{
	if (operation == TEE_HANDLE_NULL)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "__GP11_TEE_FreeOperation");
	TEE_FreeOperation(operation);
}

TEE_Result __GP11_TEE_GetOperationInfoMultiple(TEE_OperationHandle operation,
					       TEE_OperationInfoMultiple *operationInfoMultiple,
					       uint32_t *operationSize)
{
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t size = 0;

	if (!operationSize)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, "__GP11_TEE_GetOperationInfoMultiple");
	size = *operationSize;
	res = TEE_GetOperationInfoMultiple(operation, operationInfoMultiple, &size);
	*operationSize = (uint32_t)size;
	return res;
}
