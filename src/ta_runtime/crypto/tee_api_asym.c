/*
 * GP Cryptographic Operations API: asymmetric encryption and signatures
 * (6.6). Every call is single-shot: the operation stays in the initial
 * state, and needs only its key.
 *
 * Return codes are gp-api.md 9.2's: encryption and decryption may return
 * SHORT_BUFFER (with the size needed), BAD_PARAMETERS (a message the key
 * cannot take), CIPHERTEXT_INVALID (any failure to decrypt a padded
 * ciphertext, whatever went wrong) and NOT_SUPPORTED; signing SHORT_BUFFER;
 * verification SIGNATURE_INVALID. Anything else panics: a bad handle, an
 * operation of another class or mode, no key, a digest of a length OP-TEE
 * does not take (digest_check), a key the library refuses.
 *
 * Parameters the algorithm does not use are ignored, as OP-TEE does. The
 * output of encryption and decryption is made in private memory and copied
 * out when it fits; a decryption's is wiped.
 */
#include <stdlib.h>
#include <string.h>

#include "operation.h"
#include "runtime.h"
#include "secure.h"

/* The operation behind h, of class cls in mode mode, with its key set; panics otherwise. */
static struct tee_op *asym_op(TEE_OperationHandle h, uint32_t cls, uint32_t mode, const char *func)
{
	struct tee_op *op = op_from_handle(h, func);

	if (op->info.operationClass != cls || op->info.mode != mode)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (!(op->info.handleState & TEE_HANDLE_FLAG_KEY_SET))
		rt_panic(TEE_ERROR_BAD_STATE, func);
	return op;
}

static bool is_rsa_mode(const struct tee_op *op, uint32_t chain)
{
	return TEE_ALG_GET_MAIN_ALG(op->info.algorithm) == TEE_MAIN_ALGO_RSA &&
	       TEE_ALG_GET_CHAIN_MODE(op->info.algorithm) == chain;
}

/* The operation's parameters from the TA's attributes; panics on malformed ones. */
static void params_parse(const struct tee_op *op, const TEE_Attribute *params, uint32_t count,
			 struct be_asym_params *p, const char *func)
{
	bool oaep = is_rsa_mode(op, 0x2);
	bool pss = is_rsa_mode(op, TEE_CHAIN_MODE_PKCS1_PSS_MGF1);
	bool eddsa = op->info.algorithm == TEE_ALG_ED25519;

	memset(p, 0, sizeof(*p));
	p->hash = op->desc->hash;
	p->mgf_hash = op->desc->hash;
	p->salt_len = (uint32_t)alg_hash_size(op->desc->hash);
	if (count && !params)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	for (uint32_t i = 0; i < count; i++) {
		const TEE_Attribute *a = &params[i];
		uint32_t id = a->attributeID;

		if (!(id & TEE_ATTR_FLAG_VALUE) && a->content.ref.length && !a->content.ref.buffer)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		if (oaep && id == TEE_ATTR_RSA_OAEP_LABEL) {
			p->label = a->content.ref.buffer;
			p->label_len = a->content.ref.length;
		} else if (oaep && id == TEE_ATTR_RSA_OAEP_MGF_HASH) {
			/* A buffer holding the digest's TEE_ALG_* (OP-TEE's form) */
			uint32_t hash = 0;

			if (a->content.ref.length != sizeof(hash))
				rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
			memcpy(&hash, a->content.ref.buffer, sizeof(hash));
			if (!alg_hash_size(hash) || hash == TEE_ALG_SM3)
				rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
			p->mgf_hash = hash;
		} else if (pss && id == TEE_ATTR_RSA_PSS_SALT_LENGTH) {
			p->salt_len = a->content.value.a;
		} else if (eddsa && id == TEE_ATTR_EDDSA_CTX) {
			if (a->content.ref.length > 255)
				rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
			p->ctx = a->content.ref.buffer;
			p->ctx_len = a->content.ref.length;
		} else if (eddsa && id == TEE_ATTR_EDDSA_PREHASH) {
			p->prehash = a->content.value.a != 0;
		}
	}
}

/* The library's key of op; panics when it cannot be made (the key's values are bad). */
static struct be_pkey *op_key(struct tee_op *op, const char *func)
{
	struct be_pkey *k = NULL;
	TEE_Result res = op_pkey(op, false, &k);

	if (res)
		rt_panic(res, func);
	return k;
}

/*
 * The digest lengths OP-TEE takes; any other panics:
 *   RSA with a hash: the hash's size (without one, as Ed25519: any message);
 *   DSA: to sign, the hash's size cut to the subprime q's (FIPS 186-4 4.6);
 *     to verify, that, the hash's or q's size (the library cuts it to q);
 *   ECDSA, SM2: any length (ECDSA cuts it to the order's bit length, SM2
 *     takes the number it spells).
 */
static void digest_check(const struct tee_op *op, const struct be_pkey *k, size_t len,
			 const char *func)
{
	uint32_t alg = op->info.algorithm;
	size_t hash_len = alg_hash_size(op->desc->hash);
	size_t q_len = 0;

	switch (TEE_ALG_GET_MAIN_ALG(alg)) {
	case TEE_MAIN_ALGO_RSA:
		if (hash_len && len != hash_len)
			rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
		return;
	case TEE_MAIN_ALGO_DSA:
		/* r || s: two numbers the size of q */
		q_len = be_asym_out_size(alg, k, TEE_MODE_SIGN, 0) / 2;
		if (len == (hash_len < q_len ? hash_len : q_len))
			return;
		if (op->info.mode == TEE_MODE_VERIFY && (len == hash_len || len == q_len))
			return;
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	default:
		return;
	}
}

static TEE_Result crypt(TEE_OperationHandle operation, uint32_t mode, const TEE_Attribute *params,
			uint32_t count, const void *src, size_t src_len, void *dst, size_t *dst_len,
			const char *func)
{
	struct tee_op *op = asym_op(operation, TEE_OPERATION_ASYMMETRIC_CIPHER, mode, func);
	TEE_Result res = TEE_ERROR_GENERIC;
	struct be_asym_params p;
	struct be_pkey *k = NULL;
	uint8_t *tmp = NULL;
	size_t cap = 0;
	size_t n = 0;

	if ((!src && src_len) || !dst_len)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	params_parse(op, params, count, &p, func);
	if (op_pkey(op, false, &k))
		return TEE_ERROR_BAD_PARAMETERS; /* a key the library refuses */
	cap = be_asym_out_size(op->info.algorithm, k, mode, src_len);
	if (cap == SIZE_MAX)
		return TEE_ERROR_BAD_PARAMETERS;
	tmp = malloc(cap ? cap : 1);
	if (!tmp)
		rt_panic(TEE_ERROR_OUT_OF_MEMORY, func);
	if (mode == TEE_MODE_ENCRYPT)
		res = be_asym_encrypt(op->info.algorithm, k, &p, src, src_len, tmp, &n);
	else
		res = be_asym_decrypt(op->info.algorithm, k, &p, src, src_len, tmp, &n);
	if (res) {
		if (res != TEE_ERROR_BAD_PARAMETERS && res != TEE_ERROR_CIPHERTEXT_INVALID &&
		    res != TEE_ERROR_NOT_SUPPORTED)
			rt_panic(res, func);
		goto out;
	}
	if (*dst_len < n) {
		*dst_len = n;
		res = TEE_ERROR_SHORT_BUFFER;
		goto out;
	}
	if (n && !dst)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	if (n)
		memcpy(dst, tmp, n);
	*dst_len = n;
	res = TEE_SUCCESS;
out:
	secure_wipe(tmp, cap);
	free(tmp);
	return res;
}

TEE_Result TEE_AsymmetricEncrypt(TEE_OperationHandle operation, const TEE_Attribute *params,
				 uint32_t paramCount, const void *srcData, size_t srcLen,
				 void *destData, size_t *destLen)
{
	return crypt(operation, TEE_MODE_ENCRYPT, params, paramCount, srcData, srcLen, destData,
		     destLen, "TEE_AsymmetricEncrypt");
}

TEE_Result TEE_AsymmetricDecrypt(TEE_OperationHandle operation, const TEE_Attribute *params,
				 uint32_t paramCount, const void *srcData, size_t srcLen,
				 void *destData, size_t *destLen)
{
	return crypt(operation, TEE_MODE_DECRYPT, params, paramCount, srcData, srcLen, destData,
		     destLen, "TEE_AsymmetricDecrypt");
}

TEE_Result TEE_AsymmetricSignDigest(TEE_OperationHandle operation, const TEE_Attribute *params,
				    uint32_t paramCount, const void *digest, size_t digestLen,
				    void *signature, size_t *signatureLen)
{
	static const char func[] = "TEE_AsymmetricSignDigest";
	struct tee_op *op =
	    asym_op(operation, TEE_OPERATION_ASYMMETRIC_SIGNATURE, TEE_MODE_SIGN, func);
	struct be_asym_params p;
	struct be_pkey *k = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;
	size_t need = 0;
	size_t n = 0;

	if ((!digest && digestLen) || !signatureLen)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	params_parse(op, params, paramCount, &p, func);
	k = op_key(op, func);
	digest_check(op, k, digestLen, func);
	need = be_asym_out_size(op->info.algorithm, k, TEE_MODE_SIGN, digestLen);
	if (*signatureLen < need) {
		*signatureLen = need;
		return TEE_ERROR_SHORT_BUFFER;
	}
	if (!signature)
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	res = be_sign(op->info.algorithm, k, &p, digest, digestLen, signature, &n);
	if (res)
		rt_panic(res, func);
	*signatureLen = n;
	return TEE_SUCCESS;
}

TEE_Result TEE_AsymmetricVerifyDigest(TEE_OperationHandle operation, const TEE_Attribute *params,
				      uint32_t paramCount, const void *digest, size_t digestLen,
				      const void *signature, size_t signatureLen)
{
	static const char func[] = "TEE_AsymmetricVerifyDigest";
	struct tee_op *op =
	    asym_op(operation, TEE_OPERATION_ASYMMETRIC_SIGNATURE, TEE_MODE_VERIFY, func);
	struct be_asym_params p;
	struct be_pkey *k = NULL;
	TEE_Result res = TEE_ERROR_GENERIC;

	if ((!digest && digestLen) || (!signature && signatureLen))
		rt_panic(TEE_ERROR_BAD_PARAMETERS, func);
	params_parse(op, params, paramCount, &p, func);
	k = op_key(op, func);
	digest_check(op, k, digestLen, func);
	res = be_verify(op->info.algorithm, k, &p, digest, digestLen, signature, signatureLen);
	if (res && res != TEE_ERROR_SIGNATURE_INVALID)
		rt_panic(res, func);
	return res;
}
