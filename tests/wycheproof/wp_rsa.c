/*
 * The Wycheproof runner: RSA decryption (OAEP and PKCS#1 v1.5) with the
 * group's private key, its CRT parts included. A ciphertext is refused
 * when TEE_AsymmetricDecrypt answers TEE_ERROR_CIPHERTEXT_INVALID, the one
 * code swtee gives for every way a padded ciphertext can be wrong.
 */
#include <string.h>

#include "wp.h"

#define RSA_OUT_MAX 1024

static const char *const key_parts[] = {"modulus",   "publicExponent", "privateExponent",
					"prime1",    "prime2",	       "exponent1",
					"exponent2", "coefficient"};
static const uint32_t key_ids[] = {
    TEE_ATTR_RSA_MODULUS,   TEE_ATTR_RSA_PUBLIC_EXPONENT, TEE_ATTR_RSA_PRIVATE_EXPONENT,
    TEE_ATTR_RSA_PRIME1,    TEE_ATTR_RSA_PRIME2,	  TEE_ATTR_RSA_EXPONENT1,
    TEE_ATTR_RSA_EXPONENT2, TEE_ATTR_RSA_COEFFICIENT,
};

#define KEY_PARTS (sizeof(key_ids) / sizeof(key_ids[0]))

static enum outcome decrypt(struct test *t, json_object *g, json_object *tc, uint32_t alg,
			    bool oaep)
{
	static const uint8_t none[1];
	json_object *pk = get_obj(g, "privateKey");
	uint32_t bits = (uint32_t)get_int(g, "keySize");
	struct bytes parts[KEY_PARTS] = {0};
	struct cc_attr key[KEY_PARTS];
	struct bytes msg = {0}, ct = {0}, label = {0};
	struct cc_attr param = {0};
	uint8_t out[RSA_OUT_MAX];
	size_t out_len = sizeof(out);
	enum outcome oc = OUT_WRONG;
	TEEC_Result res = TEEC_SUCCESS;
	uint32_t op = 0;
	uint32_t k = 0;
	bool ok = pk != NULL;

	for (size_t i = 0; i < KEY_PARTS && ok; i++) {
		ok = get_hex(pk, key_parts[i], &parts[i]);
		key[i] = CC_REF(key_ids[i], parts[i].p, parts[i].n);
	}
	if (!ok || !get_hex(tc, "msg", &msg) | !get_hex(tc, "ct", &ct) ||
	    (oaep && !get_hex(tc, "label", &label))) {
		why(t, "malformed test");
		goto done;
	}
	param = CC_REF(TEE_ATTR_RSA_OAEP_LABEL, label.p, label.n);
	res = cc_alloc_op(t->s, alg, TEE_MODE_DECRYPT, bits, &op);
	if (!res)
		res = cc_key(t->s, TEE_TYPE_RSA_KEYPAIR, bits, key, KEY_PARTS, &k);
	if (!res)
		res = cc_set_key(t->s, op, k);
	if (res) {
		why(t, "setting up the operation: 0x%08x", res);
		goto out;
	}
	res = cc_asym_decrypt(t->s, op, &param, label.n ? 1 : 0, ct.n ? ct.p : none, ct.n, out,
			      &out_len);
	if (res == TEE_ERROR_CIPHERTEXT_INVALID) {
		oc = OUT_REFUSED;
		res = TEEC_SUCCESS;
	} else if (res) {
		why(t, "TEE_AsymmetricDecrypt: 0x%08x", res);
	} else if (out_len != msg.n || (out_len && memcmp(out, msg.p, out_len))) {
		why(t, "decryption differs from the message");
	} else {
		oc = OUT_ACCEPTED;
	}
out:
	ta_release(t, res, op, k, 0);
done:
	for (size_t i = 0; i < KEY_PARTS; i++)
		bytes_free(&parts[i]);
	bytes_free(&msg);
	bytes_free(&ct);
	bytes_free(&label);
	return oc;
}

enum outcome wp_rsa_oaep(struct test *t, json_object *g, json_object *tc)
{
	static const struct {
		uint32_t hash, alg;
	} algs[] = {
	    {TEE_ALG_SHA1, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA1},
	    {TEE_ALG_SHA224, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA224},
	    {TEE_ALG_SHA256, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA256},
	    {TEE_ALG_SHA384, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA384},
	    {TEE_ALG_SHA512, TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA512},
	};
	uint32_t hash = hash_alg(get_str(g, "sha"));

	/* GP's OAEP algorithms name one hash for both uses. */
	if (strcmp(get_str(g, "mgf"), "MGF1") || hash_alg(get_str(g, "mgfSha")) != hash) {
		why(t, "MGF not handled");
		return OUT_WRONG;
	}
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		if (algs[i].hash == hash)
			return decrypt(t, g, tc, algs[i].alg, true);
	why(t, "hash not handled");
	return OUT_WRONG;
}

enum outcome wp_rsa_pkcs1_decrypt(struct test *t, json_object *g, json_object *tc)
{
	return decrypt(t, g, tc, TEE_ALG_RSAES_PKCS1_V1_5, false);
}
