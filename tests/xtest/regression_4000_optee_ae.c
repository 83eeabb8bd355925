/*
 * regression 4201-4204: where swtee's Cryptographic Operations API follows
 * OP-TEE's libutee rather than a stricter reading, through the crypt test
 * TA (tests/ta/crypt):
 *   4201 AES-GCM decryption streams plaintext from TEE_AEUpdate;
 *   4202 AES-CCM streams both ways, TEE_AEUpdate by whole blocks;
 *   4203 AES-XTS takes each key up to maxKeySize (both keys' sizes at
 *        allocation);
 *   4204 TEE_GetObjectBufferAttribute with no buffer asks for the size.
 * The AE references come from the host's OpenSSL (which swtee's CCM no
 * longer uses), checked first against NIST SP 800-38C example 2.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "adbg.h"
#include "crypt_client.h"
#include "xtest_helpers.h"

#define AE_MAX 256
#define AE_AAD_MAX 0x10010 /* past 2^16 - 2^8: CCM's six-byte AAD length */

static bool sess_open(ADBG_Case_t *c, TEEC_Session *s)
{
	return ADBG_EXPECT_TEEC_SUCCESS(c, cc_open(&xtest_teec_ctx, s));
}

/*
 * Command cmd with v0 = (a, b) and m1 a memref of type on buf (NULL too,
 * with any size; crypt_client.c sends no memref for NULL), *len in and out.
 */
static TEEC_Result call_vm(TEEC_Session *s, uint32_t cmd, uint32_t a, uint32_t b, uint32_t type,
			   void *buf, size_t *len)
{
	TEEC_Operation o = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	o.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, type, TEEC_NONE, TEEC_NONE);
	o.params[0].value.a = a;
	o.params[0].value.b = b;
	o.params[1].tmpref.buffer = buf;
	o.params[1].tmpref.size = *len;
	res = TEEC_InvokeCommand(s, cmd, &o, &orig);
	*len = o.params[1].tmpref.size;
	return res;
}

/* One message and its host-made ciphertext and tag. */
struct ae_msg {
	uint32_t alg;
	uint8_t key[16];
	uint8_t nonce[13];
	size_t nonce_len;
	uint8_t *aad;
	size_t aad_len;
	uint8_t pt[AE_MAX];
	uint8_t ct[AE_MAX];
	size_t len;
	uint8_t tag[16];
	size_t tag_len;
};

/* The host's OpenSSL: m->ct and m->tag from the rest of m. */
static bool host_ae_encrypt(struct ae_msg *m)
{
	bool ccm = m->alg == TEE_ALG_AES_CCM;
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0;
	bool ok = false;

	if (!ctx ||
	    !EVP_EncryptInit_ex(ctx, ccm ? EVP_aes_128_ccm() : EVP_aes_128_gcm(), NULL, NULL,
				NULL) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, (int)m->nonce_len, NULL) ||
	    (ccm && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, (int)m->tag_len, NULL)) ||
	    !EVP_EncryptInit_ex(ctx, NULL, NULL, m->key, m->nonce) ||
	    (ccm && !EVP_EncryptUpdate(ctx, NULL, &outl, NULL, (int)m->len)) ||
	    (m->aad_len && !EVP_EncryptUpdate(ctx, NULL, &outl, m->aad, (int)m->aad_len)) ||
	    !EVP_EncryptUpdate(ctx, m->ct, &outl, m->pt, (int)m->len) ||
	    !EVP_EncryptFinal_ex(ctx, m->ct + outl, &outl) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, (int)m->tag_len, m->tag))
		goto out;
	ok = true;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/* A message of len bytes with aad_len bytes of AAD, all made up. */
static bool ae_msg_make(ADBG_Case_t *c, struct ae_msg *m, uint32_t alg, size_t nonce_len,
			size_t aad_len, size_t len, size_t tag_len)
{
	memset(m, 0, sizeof(*m));
	m->alg = alg;
	m->nonce_len = nonce_len;
	m->aad_len = aad_len;
	m->len = len;
	m->tag_len = tag_len;
	m->aad = calloc(1, aad_len ? aad_len : 1);
	if (!ADBG_EXPECT_NOT_NULL(c, m->aad))
		return false;
	for (size_t i = 0; i < sizeof(m->key); i++)
		m->key[i] = (uint8_t)(0x40 + i);
	for (size_t i = 0; i < nonce_len; i++)
		m->nonce[i] = (uint8_t)(0x10 + i);
	for (size_t i = 0; i < aad_len; i++)
		m->aad[i] = (uint8_t)(i * 3);
	for (size_t i = 0; i < len; i++)
		m->pt[i] = (uint8_t)(i * 7 + 1);
	return ADBG_EXPECT_TRUE(c, host_ae_encrypt(m));
}

static void ae_msg_free(struct ae_msg *m)
{
	free(m->aad);
	m->aad = NULL;
}

/* An AE operation in mode keyed with m's key, initialised, its AAD taken. */
static bool ae_start(ADBG_Case_t *c, TEEC_Session *s, const struct ae_msg *m, uint32_t mode,
		     uint32_t *op)
{
	uint32_t key = 0;
	bool ok = false;

	*op = 0;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(s, m->alg, mode, 128, op)) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c,
				      cc_secret_key(s, TEE_TYPE_AES, m->key, sizeof(m->key), &key)))
		goto out;
	ok = ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(s, *op, key)) &&
	     ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_init(s, *op, m->nonce, m->nonce_len,
						    (uint32_t)m->tag_len * 8, (uint32_t)m->aad_len,
						    (uint32_t)m->len)) &&
	     (!m->aad_len || ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_aad(s, *op, m->aad, m->aad_len)));
out:
	if (key)
		cc_free_obj(s, key);
	return ok;
}

/* What OP-TEE's TEE_AEUpdate outputs for len more bytes after before. */
static size_t update_out(uint32_t alg, size_t before, size_t len)
{
	if (alg == TEE_ALG_AES_GCM)
		return len;
	return (before + len) / 16 * 16 - before / 16 * 16;
}

/* The payload pieces the cases feed TEE_AEUpdate; the rest goes to the final call. */
static const size_t chunks[] = {5, 11, 1, 20, 3, 40};

/*
 * The updates of chunks through op, each first with one byte too little
 * room (SHORT_BUFFER and the size), each output checked against expect.
 * Returns the bytes fed; *done gets the bytes output.
 */
static size_t ae_updates(ADBG_Case_t *c, TEEC_Session *s, uint32_t op, const struct ae_msg *m,
			 const uint8_t *in, const uint8_t *expect, uint8_t *out, size_t *done)
{
	size_t off = 0;
	size_t n = 0;

	*done = 0;
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		size_t want = update_out(m->alg, off, chunks[i]);

		/* (A room of 0 would go as no buffer at all.) */
		if (want > 1) {
			n = want - 1;
			if (!ADBG_EXPECT_TEEC_RESULT(
				c, TEEC_ERROR_SHORT_BUFFER,
				cc_ae_update(s, op, in + off, chunks[i], out + *done, &n)) ||
			    !ADBG_EXPECT(c, want, n))
				Do_ADBG_Log("    update %zu: %zu bytes after %zu", i, chunks[i],
					    off);
		}
		n = AE_MAX - *done;
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_ae_update(s, op, in + off, chunks[i], out + *done, &n)))
			break;
		if (!ADBG_EXPECT(c, want, n))
			Do_ADBG_Log("    update %zu: %zu bytes after %zu", i, chunks[i], off);
		else
			ADBG_EXPECT_BUFFER(c, expect + *done, n, out + *done, n);
		*done += n;
		off += chunks[i];
	}
	return off;
}

/* A decryption of m in chunks: streamed plaintext, then the final call with tag. */
static void ae_decrypt_stream(ADBG_Case_t *c, TEEC_Session *s, const struct ae_msg *m,
			      const uint8_t *tag, TEEC_Result want_res)
{
	uint8_t out[AE_MAX];
	size_t fed = 0;
	size_t done = 0;
	size_t need = 0;
	size_t n = 0;
	uint32_t op = 0;

	memset(out, 0xa5, sizeof(out));
	if (!ae_start(c, s, m, TEE_MODE_DECRYPT, &op))
		goto out;
	fed = ae_updates(c, s, op, m, m->ct, m->pt, out, &done);
	/* The final call needs room for what is buffered and what it is given. */
	need = m->len - done;
	n = need - 1;
	if (ADBG_EXPECT_TEEC_RESULT(
		c, TEEC_ERROR_SHORT_BUFFER,
		cc_ae_dec_final(s, op, m->ct + fed, m->len - fed, out + done, &n, tag, m->tag_len)))
		ADBG_EXPECT(c, need, n);
	n = AE_MAX - done;
	ADBG_EXPECT_TEEC_RESULT(
	    c, want_res,
	    cc_ae_dec_final(s, op, m->ct + fed, m->len - fed, out + done, &n, tag, m->tag_len));
	if (want_res == TEEC_SUCCESS) {
		ADBG_EXPECT(c, need, n);
		ADBG_EXPECT_BUFFER(c, m->pt, m->len, out, done + n);
		goto out;
	}
	/* A bad tag: the final call releases none of its plaintext. */
	ADBG_EXPECT(c, 0, n);
	for (size_t i = done; i < m->len; i++)
		if (!ADBG_EXPECT(c, 0xa5, out[i]))
			break;
out:
	if (op)
		cc_free_op(s, op);
}

/* ---- 4201 ---- */

static void xtest_tee_test_4201(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	struct ae_msg m;
	uint8_t bad[16];

	if (!sess_open(c, &s))
		return;
	if (!ae_msg_make(c, &m, TEE_ALG_AES_GCM, 12, 20, 100, 16))
		goto out;
	Do_ADBG_BeginSubCase(c, "AES-GCM decryption: TEE_AEUpdate returns the plaintext");
	ae_decrypt_stream(c, &s, &m, m.tag, TEEC_SUCCESS);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "AES-GCM decryption, a bad tag: nothing from the final call");
	memcpy(bad, m.tag, sizeof(bad));
	bad[5] ^= 0x01;
	ae_decrypt_stream(c, &s, &m, bad, TEE_ERROR_MAC_INVALID);
	Do_ADBG_EndSubCase(c, NULL);
out:
	ae_msg_free(&m);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4201, xtest_tee_test_4201,
		 "AES-GCM decryption streams plaintext from TEE_AEUpdate (OP-TEE)");

/* ---- 4202 ---- */

/* NIST SP 800-38C C.2 through the host, so that its CCM can be the reference. */
static void host_ccm_kat(ADBG_Case_t *c)
{
	static const uint8_t ct_tag[] = {0xd2, 0xa1, 0xf0, 0xe0, 0x51, 0xea, 0x5f, 0x62,
					 0x08, 0x1a, 0x77, 0x92, 0x07, 0x3d, 0x59, 0x3d,
					 0x1f, 0xc6, 0x4f, 0xbf, 0xac, 0xcd};
	struct ae_msg m;

	memset(&m, 0, sizeof(m));
	m.alg = TEE_ALG_AES_CCM;
	m.nonce_len = 8;
	m.aad_len = 16;
	m.len = 16;
	m.tag_len = 6;
	m.aad = calloc(1, 16);
	if (!ADBG_EXPECT_NOT_NULL(c, m.aad))
		return;
	for (size_t i = 0; i < 16; i++) {
		m.key[i] = (uint8_t)(0x40 + i);
		m.aad[i] = (uint8_t)i;
		m.pt[i] = (uint8_t)(0x20 + i);
	}
	for (size_t i = 0; i < 8; i++)
		m.nonce[i] = (uint8_t)(0x10 + i);
	if (ADBG_EXPECT_TRUE(c, host_ae_encrypt(&m))) {
		ADBG_EXPECT_BUFFER(c, ct_tag, 16, m.ct, 16);
		ADBG_EXPECT_BUFFER(c, ct_tag + 16, 6, m.tag, 6);
	}
	ae_msg_free(&m);
}

/* An encryption of m in chunks, checked against the host's ciphertext and tag. */
static void ccm_encrypt_stream(ADBG_Case_t *c, TEEC_Session *s, const struct ae_msg *m)
{
	uint8_t out[AE_MAX];
	uint8_t out2[AE_MAX];
	uint8_t tag[16];
	uint8_t tag2[16];
	size_t fed = 0;
	size_t done = 0;
	size_t need = 0;
	size_t n = 0;
	size_t tl = 0;
	uint32_t op = 0;
	uint32_t op2 = 0;

	if (!ae_start(c, s, m, TEE_MODE_ENCRYPT, &op) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(s, m->alg, TEE_MODE_ENCRYPT, 128, &op2)))
		goto out;
	fed = ae_updates(c, s, op, m, m->pt, m->ct, out, &done);
	/* A copy taken with a partial block buffered ends the same way. */
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_copy_op(s, op2, op)))
		goto out;
	need = m->len - done;
	n = need - 1;
	tl = sizeof(tag);
	if (ADBG_EXPECT_TEEC_RESULT(
		c, TEEC_ERROR_SHORT_BUFFER,
		cc_ae_enc_final(s, op, m->pt + fed, m->len - fed, out + done, &n, tag, &tl)))
		ADBG_EXPECT(c, need, n);
	n = AE_MAX - done;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_ae_enc_final(s, op, m->pt + fed, m->len - fed, out + done, &n, tag, &tl))) {
		ADBG_EXPECT(c, need, n);
		ADBG_EXPECT_BUFFER(c, m->ct, m->len, out, done + n);
		ADBG_EXPECT_BUFFER(c, m->tag, m->tag_len, tag, tl);
	}
	memcpy(out2, out, done);
	n = AE_MAX - done;
	tl = sizeof(tag2);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_enc_final(s, op2, m->pt + fed, m->len - fed,
							out2 + done, &n, tag2, &tl))) {
		ADBG_EXPECT_BUFFER(c, m->ct, m->len, out2, done + n);
		ADBG_EXPECT_BUFFER(c, m->tag, m->tag_len, tag2, tl);
	}
out:
	if (op)
		cc_free_op(s, op);
	if (op2)
		cc_free_op(s, op2);
}

static void ccm_in_place(ADBG_Case_t *c, TEEC_Session *s, const struct ae_msg *m)
{
	uint8_t buf[AE_MAX];
	uint8_t tag[16];
	size_t n = 0;
	size_t tl = sizeof(tag);
	uint32_t op = 0;

	memcpy(buf, m->pt, m->len);
	if (!ae_start(c, s, m, TEE_MODE_ENCRYPT, &op))
		return;
	/*
	 * TEE_AEUpdate in place (the crypt TA's CIPHER_IN_PLACE, 2): 5 bytes
	 * buffered, then 35 in place, 32 out over the first 32 of the 35.
	 */
	n = 5;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, call_vm(s, TA_CRYPT_CMD_CIPHER_IN_PLACE, op, 2,
						TEEC_MEMREF_TEMP_INOUT, buf, &n)))
		ADBG_EXPECT(c, 0, n);
	memmove(buf, buf + 5, 35);
	n = 35;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, call_vm(s, TA_CRYPT_CMD_CIPHER_IN_PLACE, op, 2,
						TEEC_MEMREF_TEMP_INOUT, buf, &n)) &&
	    ADBG_EXPECT(c, 32, n))
		ADBG_EXPECT_BUFFER(c, m->ct, 32, buf, 32);
	n = sizeof(buf) - 32;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_ae_enc_final(s, op, m->pt + 40, m->len - 40, buf + 32, &n, tag, &tl))) {
		ADBG_EXPECT_BUFFER(c, m->ct, m->len, buf, 32 + n);
		ADBG_EXPECT_BUFFER(c, m->tag, m->tag_len, tag, tl);
	}
	cc_free_op(s, op);
}

static void xtest_tee_test_4202(ADBG_Case_t *c)
{
	/* nonce, AAD and tag lengths: the shortest nonce; a long AAD; the longest nonce */
	static const size_t shapes[][3] = {{7, 0, 4}, {7, AE_AAD_MAX, 16}, {13, 20, 8}};
	TEEC_Session s = {0};
	struct ae_msg m;
	uint8_t bad[16];

	Do_ADBG_BeginSubCase(c, "The host's AES-CCM: SP 800-38C example 2");
	host_ccm_kat(c);
	Do_ADBG_EndSubCase(c, NULL);
	/* A session each, so that a panic in one does not fail the next. */
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		Do_ADBG_BeginSubCase(c, "AES-CCM, nonce %zu, AAD %zu, tag %zu: whole blocks stream",
				     shapes[i][0], shapes[i][1], shapes[i][2]);
		memset(&m, 0, sizeof(m));
		if (!sess_open(c, &s)) {
			Do_ADBG_EndSubCase(c, NULL);
			continue;
		}
		if (ae_msg_make(c, &m, TEE_ALG_AES_CCM, shapes[i][0], shapes[i][1], 100,
				shapes[i][2])) {
			ccm_encrypt_stream(c, &s, &m);
			ae_decrypt_stream(c, &s, &m, m.tag, TEEC_SUCCESS);
			memcpy(bad, m.tag, sizeof(bad));
			bad[m.tag_len - 1] ^= 0x40;
			ae_decrypt_stream(c, &s, &m, bad, TEE_ERROR_MAC_INVALID);
			ccm_in_place(c, &s, &m);
		}
		ae_msg_free(&m);
		TEEC_CloseSession(&s);
		Do_ADBG_EndSubCase(c, NULL);
	}
}
ADBG_CASE_DEFINE(regression, 4202, xtest_tee_test_4202,
		 "AES-CCM streams both ways, TEE_AEUpdate by whole blocks (OP-TEE)");

/* ---- 4203 ---- */

/* The host's AES-XTS of len bytes: key is both keys. */
static bool host_xts(const uint8_t *key, size_t key_len, const uint8_t iv[16], const uint8_t *in,
		     size_t len, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0;
	int fin = 0;
	bool ok = false;

	if (ctx &&
	    EVP_EncryptInit_ex(ctx, key_len == 64 ? EVP_aes_256_xts() : EVP_aes_128_xts(), NULL,
			       key, iv) &&
	    EVP_EncryptUpdate(ctx, out, &outl, in, (int)len) &&
	    EVP_EncryptFinal_ex(ctx, out + outl, &fin))
		ok = (size_t)(outl + fin) == len;
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

/* AES-XTS with two key_len-byte keys on an operation of max_key_size, in a session of its own. */
static void xts_run(ADBG_Case_t *c, size_t key_len, uint32_t max_key_size)
{
	TEEC_Session sess = {0};
	TEEC_Session *s = &sess;
	static const uint8_t iv[16] = {0xff, 0x01};
	uint8_t key[64];
	uint8_t pt[48];
	uint8_t ct[48];
	uint8_t out[48];
	size_t n = sizeof(out);
	uint32_t op = 0;
	uint32_t k1 = 0;
	uint32_t k2 = 0;

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 5 + 3);
	for (size_t i = 0; i < sizeof(pt); i++)
		pt[i] = (uint8_t)i;
	if (!sess_open(c, s))
		return;
	if (!ADBG_EXPECT_TRUE(c, host_xts(key, 2 * key_len, iv, pt, sizeof(pt), ct)) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_alloc_op(s, TEE_ALG_AES_XTS, TEE_MODE_ENCRYPT, max_key_size, &op)) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, TEE_TYPE_AES, key, key_len, &k1)) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c,
				      cc_secret_key(s, TEE_TYPE_AES, key + key_len, key_len, &k2)))
		goto out;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key2(s, op, k1, k2)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(s, op, iv, sizeof(iv))) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_final(s, op, pt, sizeof(pt), out, &n)))
		ADBG_EXPECT_BUFFER(c, ct, sizeof(ct), out, n);
out:
	if (k1)
		cc_free_obj(s, k1);
	if (k2)
		cc_free_obj(s, k2);
	if (op)
		cc_free_op(s, op);
	TEEC_CloseSession(s);
}

static void xtest_tee_test_4203(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint32_t op = 0;

	Do_ADBG_BeginSubCase(c, "AES-XTS, maxKeySize 256 with two 256-bit keys");
	xts_run(c, 32, 256);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "AES-XTS, maxKeySize 384 with two 256-bit keys");
	xts_run(c, 32, 384);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "AES-XTS, maxKeySize 256 and 512 as before");
	xts_run(c, 16, 256);
	xts_run(c, 32, 512);
	Do_ADBG_EndSubCase(c, NULL);
	/* Half of maxKeySize is no AES size: refused at allocation, as OP-TEE. */
	Do_ADBG_BeginSubCase(c, "AES-XTS, maxKeySize 128: not supported");
	if (sess_open(c, &s)) {
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_NOT_SUPPORTED,
		    cc_alloc_op(&s, TEE_ALG_AES_XTS, TEE_MODE_ENCRYPT, 128, &op));
		TEEC_CloseSession(&s);
	}
	Do_ADBG_EndSubCase(c, NULL);
}
ADBG_CASE_DEFINE(regression, 4203, xtest_tee_test_4203,
		 "AES-XTS takes each key up to maxKeySize (OP-TEE)");

/* ---- 4204 ---- */

static void xtest_tee_test_4204(ADBG_Case_t *c)
{
	static const size_t sizes[] = {0, 31, 32, 64, 4096};
	uint8_t key[32];
	uint8_t out[32];
	TEEC_Session s = {0};
	uint32_t obj = 0;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0xc0 + i);
	if (!sess_open(c, &s))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, sizeof(key), &obj)))
		goto out;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		Do_ADBG_BeginSubCase(c, "NULL buffer, size %zu: SHORT_BUFFER and the size",
				     sizes[i]);
		n = sizes[i];
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					call_vm(&s, TA_CRYPT_CMD_GET_OBJECT_BUFFER_ATTRIBUTE, obj,
						TEE_ATTR_SECRET_VALUE, TEEC_MEMREF_TEMP_OUTPUT,
						NULL, &n));
		ADBG_EXPECT(c, sizeof(key), n);
		Do_ADBG_EndSubCase(c, NULL);
	}
	/* The session is alive and the value is read with a buffer. */
	n = sizeof(out);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_get_buf_attr(&s, obj, TEE_ATTR_SECRET_VALUE, out, &n)))
		ADBG_EXPECT_BUFFER(c, key, sizeof(key), out, n);
	cc_free_obj(&s, obj);
out:
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4204, xtest_tee_test_4204,
		 "TEE_GetObjectBufferAttribute with no buffer asks for the size (OP-TEE)");
