/*
 * The Wycheproof runner: the symmetric test types (IndCpaTest for
 * AES-CBC-PKCS5 and AES-XTS, AeadTest, MacTest).
 *
 * Where GP lacks the exact algorithm the runner does the non-cryptographic
 * part and says so in docs/crypto.md: PKCS#5 padding around AES-CBC-NOPAD,
 * zero padding of short XTS tweaks, truncation of MACs shorter than the
 * full one.
 */
#include <stdlib.h>
#include <string.h>

#include "wp.h"

/* The parameters a group fixes. */
struct group {
	uint32_t alg;
	uint32_t key_type;
	int key_bits;
	int tag_bits;
	int iv_bits;
};

struct alg_name {
	const char *name;
	uint32_t alg;
	uint32_t key_type;
};

static const struct alg_name alg_names[] = {
    {"AES-CBC-PKCS5", TEE_ALG_AES_CBC_NOPAD, TEE_TYPE_AES},
    {"AES-XTS", TEE_ALG_AES_XTS, TEE_TYPE_AES},
    {"AES-GCM", TEE_ALG_AES_GCM, TEE_TYPE_AES},
    {"AES-CCM", TEE_ALG_AES_CCM, TEE_TYPE_AES},
    {"AES-CMAC", TEE_ALG_AES_CMAC, TEE_TYPE_AES},
    {"HMACSHA1", TEE_ALG_HMAC_SHA1, TEE_TYPE_HMAC_SHA1},
    {"HMACSHA224", TEE_ALG_HMAC_SHA224, TEE_TYPE_HMAC_SHA224},
    {"HMACSHA256", TEE_ALG_HMAC_SHA256, TEE_TYPE_HMAC_SHA256},
    {"HMACSHA384", TEE_ALG_HMAC_SHA384, TEE_TYPE_HMAC_SHA384},
    {"HMACSHA512", TEE_ALG_HMAC_SHA512, TEE_TYPE_HMAC_SHA512},
    {"HMACSM3", TEE_ALG_HMAC_SM3, TEE_TYPE_HMAC_SM3},
};

/*
 * The verdict on a vector from its two directions. Encryption is accepted
 * when it reproduces the vector's output and refused when the API refused
 * the parameters or the output differs (as for a vector whose tag or
 * padding was altered); decryption is accepted when it gives the message
 * back and refused when the API refused it.
 */
static enum outcome combine(enum outcome enc, enum outcome dec)
{
	if (enc == OUT_WRONG || dec == OUT_WRONG)
		return OUT_WRONG;
	if (dec == OUT_REFUSED)
		return OUT_REFUSED;
	if (enc == OUT_ACCEPTED)
		return OUT_ACCEPTED;
	/* Decryption took what encryption would not have produced. */
	return OUT_WRONG;
}

/* A transient secret key object; NOT_SUPPORTED for a size the type lacks. */
static TEEC_Result make_key(struct test *t, uint32_t type, const struct bytes *k, uint32_t *obj)
{
	TEEC_Result res = cc_secret_key(t->s, type, k->p, k->n, obj);

	check_dead(t, res);
	return res;
}

/* ---- IndCpaTest: AES-CBC-PKCS5, AES-XTS ---- */

static enum outcome cipher_once(struct test *t, const struct group *g, bool enc,
				const struct bytes *key, const uint8_t *iv, size_t iv_len,
				const uint8_t *in, size_t len, uint8_t *out, size_t *out_len)
{
	bool xts = g->alg == TEE_ALG_AES_XTS;
	size_t half = xts ? key->n / 2 : key->n;
	struct bytes k1 = {key->p, half};
	struct bytes k2 = {key->p + half, half};
	uint32_t op = 0;
	uint32_t o1 = 0;
	uint32_t o2 = 0;
	TEEC_Result res = cc_alloc_op(t->s, g->alg, enc ? TEE_MODE_ENCRYPT : TEE_MODE_DECRYPT,
				      (uint32_t)key->n * 8, &op);
	enum outcome oc = OUT_WRONG;

	if (res == TEEC_ERROR_NOT_SUPPORTED)
		return OUT_REFUSED;
	if (res) {
		why(t, "TEE_AllocateOperation: 0x%08x", res);
		goto out;
	}
	res = make_key(t, TEE_TYPE_AES, &k1, &o1);
	if (!res && xts)
		res = make_key(t, TEE_TYPE_AES, &k2, &o2);
	if (res == TEEC_ERROR_NOT_SUPPORTED || res == TEEC_ERROR_BAD_PARAMETERS) {
		oc = OUT_REFUSED;
		goto out;
	}
	if (!res)
		res = xts ? cc_set_key2(t->s, op, o1, o2) : cc_set_key(t->s, op, o1);
	if (!res)
		res = cc_cipher_init(t->s, op, iv, iv_len);
	if (!res)
		res = cc_cipher_final(t->s, op, in, len, out, out_len);
	if (res) {
		why(t, "%s: 0x%08x", enc ? "encryption" : "decryption", res);
		goto out;
	}
	oc = OUT_ACCEPTED;
out:
	check_dead(t, res);
	if (res != TEEC_ERROR_TARGET_DEAD) {
		cc_free_obj(t->s, o1);
		cc_free_obj(t->s, o2);
		cc_free_op(t->s, op);
	}
	return oc;
}

static enum outcome ind_cpa(struct test *t, const struct group *g, json_object *tc)
{
	struct bytes key, iv, msg, ct;
	uint8_t tweak[16] = {0};
	const uint8_t *ivp = NULL;
	size_t iv_len = 0;
	uint8_t *buf = NULL;
	uint8_t *out = NULL;
	size_t n = 0;
	size_t padded = 0;
	enum outcome enc = OUT_WRONG;
	enum outcome dec = OUT_WRONG;
	bool xts = g->alg == TEE_ALG_AES_XTS;

	if (!get_hex(tc, "key", &key) | !get_hex(tc, "iv", &iv) | !get_hex(tc, "msg", &msg) |
	    !get_hex(tc, "ct", &ct)) {
		why(t, "malformed test");
		goto out;
	}
	ivp = iv.p;
	iv_len = iv.n;
	/* XTS: the tweak is the data unit number, zero-padded to a block. */
	if (xts) {
		if (iv.n > sizeof(tweak)) {
			enc = dec = OUT_REFUSED;
			goto out;
		}
		memcpy(tweak, iv.p, iv.n);
		ivp = tweak;
		iv_len = sizeof(tweak);
	}
	padded = xts ? msg.n : (msg.n / 16 + 1) * 16;
	buf = calloc(1, padded + ct.n + 32);
	out = calloc(1, padded + ct.n + 32);
	if (!buf || !out) {
		why(t, "out of memory");
		goto out;
	}
	/* Encryption: PKCS#5 padding here, AES-CBC-NOPAD in the TA */
	if (msg.n)
		memcpy(buf, msg.p, msg.n);
	if (!xts)
		memset(buf + msg.n, (int)(padded - msg.n), padded - msg.n);
	n = padded + 32;
	enc = cipher_once(t, g, true, &key, ivp, iv_len, buf, padded, out, &n);
	if (enc == OUT_ACCEPTED && (n != ct.n || memcmp(out, ct.p, n)))
		enc = OUT_REFUSED;
	/* Decryption, then the padding checked here */
	if (!xts && ct.n % 16) {
		dec = OUT_REFUSED;
		goto out;
	}
	n = ct.n + 32;
	dec = cipher_once(t, g, false, &key, ivp, iv_len, ct.p, ct.n, out, &n);
	if (dec != OUT_ACCEPTED)
		goto out;
	if (!xts) {
		uint8_t pad = n ? out[n - 1] : 0;
		bool ok = pad >= 1 && pad <= 16 && pad <= n;

		for (size_t i = 0; ok && i < pad; i++)
			ok = out[n - 1 - i] == pad;
		if (!ok) {
			dec = OUT_REFUSED;
			goto out;
		}
		n -= pad;
	}
	if (n != msg.n || (n && memcmp(out, msg.p, n))) {
		dec = OUT_WRONG;
		why(t, "decryption differs from the message");
	}
out:
	free(buf);
	free(out);
	bytes_free(&key);
	bytes_free(&iv);
	bytes_free(&msg);
	bytes_free(&ct);
	return combine(enc, dec);
}

/* ---- AeadTest: AES-GCM, AES-CCM ---- */

/*
 * One AE pass: TEE_AEInit, the AAD, the final call. *tag is output for
 * encryption. Returns OUT_REFUSED for NOT_SUPPORTED (init) or MAC_INVALID.
 */
static enum outcome ae_once(struct test *t, const struct group *g, bool enc,
			    const struct bytes *key, const struct bytes *iv,
			    const struct bytes *aad, const uint8_t *in, size_t len, uint8_t *out,
			    size_t *out_len, uint8_t *tag, size_t *tag_len)
{
	uint32_t op = 0;
	uint32_t k = 0;
	TEEC_Result res = cc_alloc_op(t->s, g->alg, enc ? TEE_MODE_ENCRYPT : TEE_MODE_DECRYPT,
				      (uint32_t)key->n * 8, &op);
	enum outcome oc = OUT_WRONG;

	if (res == TEEC_ERROR_NOT_SUPPORTED)
		return OUT_REFUSED;
	if (res) {
		why(t, "TEE_AllocateOperation: 0x%08x", res);
		goto out;
	}
	res = make_key(t, TEE_TYPE_AES, key, &k);
	if (res == TEEC_ERROR_NOT_SUPPORTED || res == TEEC_ERROR_BAD_PARAMETERS) {
		oc = OUT_REFUSED;
		goto out;
	}
	if (!res)
		res = cc_set_key(t->s, op, k);
	if (!res) {
		/* A zero-length nonce still travels as a (zero-length) buffer. */
		static const uint8_t none[1];

		res = cc_ae_init(t->s, op, iv->n ? iv->p : none, iv->n, (uint32_t)g->tag_bits,
				 (uint32_t)aad->n, (uint32_t)len);
		if (res == TEEC_ERROR_NOT_SUPPORTED) {
			oc = OUT_REFUSED;
			goto out;
		}
	}
	if (!res && aad->n)
		res = cc_ae_aad(t->s, op, aad->p, aad->n);
	if (!res && enc)
		res = cc_ae_enc_final(t->s, op, in, len, out, out_len, tag, tag_len);
	else if (!res)
		res = cc_ae_dec_final(t->s, op, in, len, out, out_len, tag, *tag_len);
	if (!enc && res == TEE_ERROR_MAC_INVALID) {
		oc = OUT_REFUSED;
		if (*out_len) {
			oc = OUT_WRONG;
			why(t, "MAC_INVALID with %zu bytes of output", *out_len);
		}
		goto out;
	}
	if (res) {
		why(t, "%s: 0x%08x", enc ? "encryption" : "decryption", res);
		goto out;
	}
	oc = OUT_ACCEPTED;
out:
	check_dead(t, res);
	if (res != TEEC_ERROR_TARGET_DEAD) {
		cc_free_obj(t->s, k);
		cc_free_op(t->s, op);
	}
	return oc;
}

static enum outcome aead(struct test *t, const struct group *g, json_object *tc)
{
	struct bytes key, iv, aad, msg, ct, tag;
	uint8_t *out = NULL;
	uint8_t otag[16];
	size_t n = 0;
	size_t tl = sizeof(otag);
	enum outcome enc = OUT_WRONG;
	enum outcome dec = OUT_WRONG;

	if (!get_hex(tc, "key", &key) | !get_hex(tc, "iv", &iv) | !get_hex(tc, "aad", &aad) |
	    !get_hex(tc, "msg", &msg) | !get_hex(tc, "ct", &ct) | !get_hex(tc, "tag", &tag)) {
		why(t, "malformed test");
		goto out;
	}
	out = calloc(1, msg.n + ct.n + 16);
	if (!out) {
		why(t, "out of memory");
		goto out;
	}
	/* Encryption gives ct and tag, or is refused at TEE_AEInit */
	n = msg.n + 16;
	enc = ae_once(t, g, true, &key, &iv, &aad, msg.p, msg.n, out, &n, otag, &tl);
	if (enc == OUT_ACCEPTED &&
	    (n != ct.n || (n && memcmp(out, ct.p, n)) || tl != tag.n || memcmp(otag, tag.p, tl)))
		enc = OUT_REFUSED;
	/* Decryption: the plaintext, or MAC_INVALID with nothing released */
	n = ct.n + 16;
	tl = tag.n;
	dec = ae_once(t, g, false, &key, &iv, &aad, ct.p, ct.n, out, &n, tag.p, &tl);
	if (dec == OUT_ACCEPTED && (n != msg.n || (n && memcmp(out, msg.p, n)))) {
		dec = OUT_WRONG;
		why(t, "decryption differs from the message");
	}
out:
	free(out);
	bytes_free(&key);
	bytes_free(&iv);
	bytes_free(&aad);
	bytes_free(&msg);
	bytes_free(&ct);
	bytes_free(&tag);
	return combine(enc, dec);
}

/* ---- MacTest: AES-CMAC, HMAC ---- */

static enum outcome mac(struct test *t, const struct group *g, json_object *tc)
{
	struct bytes key, msg, tag;
	uint8_t mac[64];
	size_t n = sizeof(mac);
	uint32_t op = 0;
	uint32_t k = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	enum outcome oc = OUT_WRONG;

	if (!get_hex(tc, "key", &key) | !get_hex(tc, "msg", &msg) | !get_hex(tc, "tag", &tag)) {
		why(t, "malformed test");
		goto done;
	}
	res = cc_alloc_op(t->s, g->alg, TEE_MODE_MAC, (uint32_t)key.n * 8, &op);
	if (res == TEEC_ERROR_NOT_SUPPORTED) {
		/* A key size the algorithm does not have */
		oc = OUT_REFUSED;
		goto done;
	}
	if (!res)
		res = make_key(t, g->key_type, &key, &k);
	if (res == TEEC_ERROR_NOT_SUPPORTED || res == TEEC_ERROR_BAD_PARAMETERS) {
		oc = OUT_REFUSED;
		goto out;
	}
	if (!res)
		res = cc_set_key(t->s, op, k);
	if (!res)
		res = cc_mac_init(t->s, op, NULL, 0);
	if (res) {
		why(t, "setting up the MAC: 0x%08x", res);
		goto out;
	}
	res = cc_mac_compute(t->s, op, msg.p, msg.n, mac, &n);
	if (res) {
		why(t, "TEE_MACComputeFinal: 0x%08x", res);
		goto out;
	}
	if (tag.n == n) {
		/* Full length: TEE_MACCompareFinal decides, and must agree */
		res = cc_mac_init(t->s, op, NULL, 0);
		if (!res)
			res = cc_mac_compare(t->s, op, msg.p, msg.n, tag.p, tag.n);
		if (res == TEEC_SUCCESS && !memcmp(mac, tag.p, n))
			oc = OUT_ACCEPTED;
		else if (res == TEE_ERROR_MAC_INVALID && memcmp(mac, tag.p, n))
			oc = OUT_REFUSED;
		else
			why(t, "TEE_MACCompareFinal 0x%08x disagrees with the computed MAC", res);
		if (res == TEE_ERROR_MAC_INVALID)
			res = TEEC_SUCCESS;
	} else if (tag.n < n) {
		/* Truncated MAC: GP compares full MACs only, the truncation is ours */
		oc = memcmp(mac, tag.p, tag.n) ? OUT_REFUSED : OUT_ACCEPTED;
	} else {
		oc = OUT_REFUSED;
	}
out:
	check_dead(t, res);
	if (res != TEEC_ERROR_TARGET_DEAD) {
		cc_free_obj(t->s, k);
		cc_free_op(t->s, op);
	}
done:
	bytes_free(&key);
	bytes_free(&msg);
	bytes_free(&tag);
	return oc;
}

/* The group's parameters; false (with why) for an algorithm this file does not know. */
static bool sym_group(struct test *t, json_object *go, struct group *g)
{
	const struct alg_name *an = NULL;

	for (size_t i = 0; i < sizeof(alg_names) / sizeof(alg_names[0]); i++)
		if (!strcmp(alg_names[i].name, t->algorithm))
			an = &alg_names[i];
	if (!an) {
		why(t, "algorithm %s not handled", t->algorithm);
		return false;
	}
	g->alg = an->alg;
	g->key_type = an->key_type;
	g->key_bits = get_int(go, "keySize");
	g->tag_bits = get_int(go, "tagSize");
	g->iv_bits = get_int(go, "ivSize");
	return true;
}

enum outcome wp_ind_cpa(struct test *t, json_object *go, json_object *tc)
{
	struct group g;

	return sym_group(t, go, &g) ? ind_cpa(t, &g, tc) : OUT_WRONG;
}

enum outcome wp_aead(struct test *t, json_object *go, json_object *tc)
{
	struct group g;

	return sym_group(t, go, &g) ? aead(t, &g, tc) : OUT_WRONG;
}

enum outcome wp_mac(struct test *t, json_object *go, json_object *tc)
{
	struct group g;

	return sym_group(t, go, &g) ? mac(t, &g, tc) : OUT_WRONG;
}
