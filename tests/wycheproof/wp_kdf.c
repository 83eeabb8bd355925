/*
 * The Wycheproof runner: HKDF and PBKDF2 through TEE_DeriveKey.
 *
 * HKDF vectors alternate between OP-TEE's IDs (TEE_ALG_HKDF_*_DERIVE_KEY
 * with a TEE_TYPE_HKDF_IKM key) and GP 1.3's TEE_ALG_HKDF (a TEE_TYPE_HKDF
 * key, the digest as TEE_ATTR_HKDF_HASH_ALGORITHM): odd tcIds take the
 * second. A GP secret object holds at most 4096 bits, so for a longer
 * output the runner derives the first 512 bytes and compares them with the
 * vector's (HKDF's output of a length is the prefix of any longer one); a
 * size over RFC 5869's 255 hash lengths is refused by the runner, since it
 * cannot reach the TEE (docs/crypto.md).
 */
#include <string.h>

#include "wp.h"

#define OUT_MAX 512 /* bytes a generic secret object holds */

static size_t hash_size(uint32_t hash)
{
	switch (hash) {
	case TEE_ALG_SHA1:
		return 20;
	case TEE_ALG_SHA224:
		return 28;
	case TEE_ALG_SHA256:
		return 32;
	case TEE_ALG_SHA384:
		return 48;
	case TEE_ALG_SHA512:
		return 64;
	default:
		return 0;
	}
}

/* The TEE_ALG_* digest of the hash a file's algorithm ends with ("HKDF-SHA-256"). */
static uint32_t file_hash(const char *algorithm, const char *prefix)
{
	static const struct {
		const char *name;
		uint32_t alg;
	} names[] = {
	    {"SHA1", TEE_ALG_SHA1},	{"SHA224", TEE_ALG_SHA224}, {"SHA256", TEE_ALG_SHA256},
	    {"SHA384", TEE_ALG_SHA384}, {"SHA512", TEE_ALG_SHA512},
	};
	size_t n = strlen(prefix);

	if (strncmp(algorithm, prefix, n))
		return 0;
	if (hash_alg(algorithm + n))
		return hash_alg(algorithm + n);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i].name, algorithm + n))
			return names[i].alg;
	return 0;
}

/* Derives len bytes with a secret key of type into a generic secret; compares with want. */
static enum outcome derive(struct test *t, uint32_t alg, uint32_t type, uint32_t key_id,
			   const struct bytes *key, struct cc_attr *params, size_t n,
			   const uint8_t *want, size_t len)
{
	static const uint8_t none[1];
	struct cc_attr ka = CC_REF(key_id, key->n ? key->p : none, key->n);
	uint8_t out[OUT_MAX];
	size_t out_len = sizeof(out);
	enum outcome oc = OUT_WRONG;
	uint32_t op = 0;
	uint32_t k = 0;
	uint32_t secret = 0;
	TEEC_Result res = cc_alloc_op(t->s, alg, TEE_MODE_DERIVE, (uint32_t)key->n * 8, &op);

	if (!res)
		res = cc_key(t->s, type, (uint32_t)key->n * 8, &ka, 1, &k);
	if (!res)
		res = cc_set_key(t->s, op, k);
	if (!res)
		res = cc_alloc_obj(t->s, TEE_TYPE_GENERIC_SECRET, (uint32_t)len * 8, &secret);
	if (res) {
		why(t, "setting up the operation: 0x%08x", res);
		goto out;
	}
	res = cc_derive_key(t->s, op, secret, params, n);
	if (!res)
		res = cc_get_buf_attr(t->s, secret, TEE_ATTR_SECRET_VALUE, out, &out_len);
	if (res) {
		why(t, "deriving: 0x%08x", res);
		goto out;
	}
	if (out_len == len && !memcmp(out, want, len))
		oc = OUT_ACCEPTED;
	else
		why(t, "the derived key differs");
out:
	ta_release(t, res, op, k, secret);
	return oc;
}

enum outcome wp_hkdf(struct test *t, json_object *g, json_object *tc)
{
	static const struct {
		uint32_t hash, alg;
	} algs[] = {
	    {TEE_ALG_SHA1, TEE_ALG_HKDF_SHA1_DERIVE_KEY},
	    {TEE_ALG_SHA224, TEE_ALG_HKDF_SHA224_DERIVE_KEY},
	    {TEE_ALG_SHA256, TEE_ALG_HKDF_SHA256_DERIVE_KEY},
	    {TEE_ALG_SHA384, TEE_ALG_HKDF_SHA384_DERIVE_KEY},
	    {TEE_ALG_SHA512, TEE_ALG_HKDF_SHA512_DERIVE_KEY},
	};
	uint32_t hash = file_hash(t->algorithm, "HKDF-");
	int size = get_int(tc, "size");
	struct bytes ikm = {0}, salt = {0}, info = {0}, okm = {0};
	enum outcome oc = OUT_WRONG;
	struct cc_attr params[4];
	size_t n = 0;
	size_t len = 0;
	uint32_t alg = 0;
	bool gp = t->tc_id % 2;

	(void)g;
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		if (algs[i].hash == hash)
			alg = algs[i].alg;
	if (!alg || size < 0 ||
	    !get_hex(tc, "ikm", &ikm) | !get_hex(tc, "salt", &salt) | !get_hex(tc, "info", &info) |
		!get_hex(tc, "okm", &okm)) {
		why(t, "malformed test or hash not handled");
		goto out;
	}
	if ((size_t)size > 255 * hash_size(hash)) {
		why(t, "over 255 hash lengths, refused by the runner");
		oc = OUT_REFUSED;
		goto out;
	}
	len = (size_t)size < OUT_MAX ? (size_t)size : OUT_MAX;
	if (okm.n < len) {
		why(t, "malformed test");
		goto out;
	}
	if (gp) {
		params[n++] = CC_VALUE(TEE_ATTR_HKDF_HASH_ALGORITHM, hash, 0);
		params[n++] = CC_VALUE(TEE_ATTR_KDF_KEY_SIZE, (uint32_t)len, 0);
	} else {
		params[n++] = CC_VALUE(TEE_ATTR_HKDF_OKM_LENGTH, (uint32_t)len, 0);
	}
	if (salt.n)
		params[n++] =
		    CC_REF(gp ? TEE_ATTR_HKDF_SALT : __OPTEE_TEE_ATTR_HKDF_SALT, salt.p, salt.n);
	if (info.n)
		params[n++] =
		    CC_REF(gp ? TEE_ATTR_HKDF_INFO : __OPTEE_ATTR_HKDF_INFO, info.p, info.n);
	if (gp)
		oc = derive(t, TEE_ALG_HKDF, TEE_TYPE_HKDF, TEE_ATTR_SECRET_VALUE, &ikm, params, n,
			    okm.p, len);
	else
		oc = derive(t, alg, TEE_TYPE_HKDF_IKM, TEE_ATTR_HKDF_IKM, &ikm, params, n, okm.p,
			    len);
out:
	bytes_free(&ikm);
	bytes_free(&salt);
	bytes_free(&info);
	bytes_free(&okm);
	return oc;
}

enum outcome wp_pbkdf2(struct test *t, json_object *g, json_object *tc)
{
	static const struct {
		uint32_t hash, alg;
	} algs[] = {
	    {TEE_ALG_SHA1, TEE_ALG_PBKDF2_HMAC_SHA1_DERIVE_KEY},
	    {TEE_ALG_SHA224, TEE_ALG_PBKDF2_HMAC_SHA224_DERIVE_KEY},
	    {TEE_ALG_SHA256, TEE_ALG_PBKDF2_HMAC_SHA256_DERIVE_KEY},
	    {TEE_ALG_SHA384, TEE_ALG_PBKDF2_HMAC_SHA384_DERIVE_KEY},
	    {TEE_ALG_SHA512, TEE_ALG_PBKDF2_HMAC_SHA512_DERIVE_KEY},
	};
	uint32_t hash = file_hash(t->algorithm, "PBKDF2-HMAC");
	int iter = get_int(tc, "iterationCount");
	int dk_len = get_int(tc, "dkLen");
	struct bytes pw = {0}, salt = {0}, dk = {0};
	enum outcome oc = OUT_WRONG;
	uint32_t alg = 0;

	(void)g;
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		if (algs[i].hash == hash)
			alg = algs[i].alg;
	if (!alg || iter < 1 || dk_len < 1 || dk_len > OUT_MAX ||
	    !get_hex(tc, "password", &pw) | !get_hex(tc, "salt", &salt) | !get_hex(tc, "dk", &dk) ||
	    dk.n != (size_t)dk_len) {
		why(t, "malformed test or hash not handled");
	} else {
		struct cc_attr params[] = {
		    CC_REF(TEE_ATTR_PBKDF2_SALT, salt.p, salt.n),
		    CC_VALUE(TEE_ATTR_PBKDF2_ITERATION_COUNT, (uint32_t)iter, 0),
		    CC_VALUE(TEE_ATTR_PBKDF2_DKM_LENGTH, (uint32_t)dk_len, 0),
		};

		oc = derive(t, alg, TEE_TYPE_PBKDF2_PASSWORD, TEE_ATTR_PBKDF2_PASSWORD, &pw, params,
			    3, dk.p, dk.n);
	}
	bytes_free(&pw);
	bytes_free(&salt);
	bytes_free(&dk);
	return oc;
}
