/*
 * regression 1093: the attestation pseudo-TA (pta_attestation.h). Every
 * measurement is checked against what this test computes itself: a TA
 * image's digest is the one in its signed header on disk, a TA instance's
 * measure the SHA-256 of its TA's and libraries' digests in load order, and
 * every signature is verified with libcrypto against the public key the
 * pseudo-TA exports (and a flipped byte must fail that check).
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <stdlib.h>
#include <string.h>

#include <pta_attestation.h>
#include <tee_api_defines.h>
#include <tee_client_api.h>

#include "adbg.h"
#include "ta_hostile.h"
#include "ta_image_format.h"
#include "ta_shlib.h"
#include "xtest_helpers.h"

#define BASIC_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e01"
#define SHLIB_TA_NAME "5a1f0b7e-3c2d-4e6f-9a81-273b4c5d6e10"
#define DIGEST_LEN 32
#define MOD_MAX 512
#define OUT_MAX (DIGEST_LEN + MOD_MAX)

static const TEEC_UUID attest_uuid = PTA_ATTESTATION_UUID;
static const TEEC_UUID basic_uuid = {
    0x5a1f0b7e, 0x3c2d, 0x4e6f, {0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0x01}};
static const TEEC_UUID shlib_uuid = TA_SHLIB_UUID;
static const TEEC_UUID shlib_base_uuid = {
    0x5a1f0b7e, 0x3c2d, 0x4e6f, {0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6f, 0x02}};
static const TEEC_UUID absent_uuid = {
    0x5a1f0b7e, 0x3c2d, 0x4e6f, {0x9a, 0x81, 0x27, 0x3b, 0x4c, 0x5d, 0x6e, 0xee}};

/* The signed header digest of an installed TA or library image, signed with no subkey. */
static bool image_digest(const char *name, uint8_t out[DIGEST_LEN])
{
	size_t len = 0;
	uint8_t *img = xtest_installed_ta(name, &len);
	bool ok = img && len > SHDR_SIZE + DIGEST_LEN && img[16] == DIGEST_LEN && !img[17];

	if (ok)
		memcpy(out, img + SHDR_SIZE, DIGEST_LEN);
	free(img);
	return ok;
}

static EVP_PKEY *public_key(ADBG_Case_t *c, TEEC_Session *s)
{
	uint8_t e[16] = {0};
	uint8_t n[MOD_MAX] = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *key = NULL;
	BIGNUM *bn_n = NULL;
	BIGNUM *bn_e = NULL;
	uint32_t orig = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_MEMREF_TEMP_OUTPUT,
					 TEEC_VALUE_OUTPUT, TEEC_NONE);
	op.params[0].tmpref.buffer = e;
	op.params[0].tmpref.size = sizeof(e);
	op.params[1].tmpref.buffer = n;
	op.params[1].tmpref.size = 16; /* short: the size comes back */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				TEEC_InvokeCommand(s, PTA_ATTESTATION_GET_PUBKEY, &op, &orig));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].tmpref.size, ==, 3072 / 8);
	op.params[1].tmpref.size = sizeof(n);
	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c, TEEC_InvokeCommand(s, PTA_ATTESTATION_GET_PUBKEY, &op, &orig)) ||
	    !ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[2].value.a, ==,
					  TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA256) ||
	    !ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].tmpref.size, ==, 3072 / 8))
		goto out;
	bn_n = BN_bin2bn(n, (int)op.params[1].tmpref.size, NULL);
	bn_e = BN_bin2bn(e, (int)op.params[0].tmpref.size, NULL);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	if (!bld || !bn_n || !bn_e || !ctx ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e) ||
	    !(params = OSSL_PARAM_BLD_to_param(bld)) || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		key = NULL;
	ADBG_EXPECT_NOT_NULL(c, key);
out:
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	BN_free(bn_n);
	BN_free(bn_e);
	return key;
}

/* Is out (digest || signature) signed by key over SHA-256(nonce || digest)? */
static bool signed_by(EVP_PKEY *key, const void *nonce, size_t nonce_len, const uint8_t *out,
		      size_t out_len)
{
	uint8_t h[DIGEST_LEN];
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *v = EVP_PKEY_CTX_new(key, NULL);
	bool ok = md && v && out_len > DIGEST_LEN && EVP_DigestInit_ex(md, EVP_sha256(), NULL) &&
		  EVP_DigestUpdate(md, nonce, nonce_len) && EVP_DigestUpdate(md, out, DIGEST_LEN) &&
		  EVP_DigestFinal_ex(md, h, NULL) && EVP_PKEY_verify_init(v) > 0 &&
		  EVP_PKEY_CTX_set_rsa_padding(v, RSA_PKCS1_PSS_PADDING) > 0 &&
		  EVP_PKEY_CTX_set_signature_md(v, EVP_sha256()) > 0 &&
		  EVP_PKEY_CTX_set_rsa_mgf1_md(v, EVP_sha256()) > 0 &&
		  EVP_PKEY_CTX_set_rsa_pss_saltlen(v, 32) > 0 &&
		  EVP_PKEY_verify(v, out + DIGEST_LEN, out_len - DIGEST_LEN, h, sizeof(h)) == 1;

	EVP_MD_CTX_free(md);
	EVP_PKEY_CTX_free(v);
	return ok;
}

/* A signed measurement: op's memref in slot out_slot, nonce in slot out_slot - 1. */
static void expect_signed(ADBG_Case_t *c, EVP_PKEY *key, const TEEC_Operation *op, size_t out_slot,
			  const uint8_t *want)
{
	const TEEC_TempMemoryReference *nonce = &op->params[out_slot - 1].tmpref;
	const TEEC_TempMemoryReference *out = &op->params[out_slot].tmpref;
	uint8_t flipped[OUT_MAX];

	ADBG_EXPECT_COMPARE_UNSIGNED(c, out->size, ==, DIGEST_LEN + 3072 / 8);
	if (want)
		ADBG_EXPECT_BUFFER(c, want, DIGEST_LEN, out->buffer, DIGEST_LEN);
	ADBG_EXPECT_TRUE(c,
			 key && signed_by(key, nonce->buffer, nonce->size, out->buffer, out->size));
	/* The check itself can fail: one byte of the digest changed. */
	memcpy(flipped, out->buffer, out->size < sizeof(flipped) ? out->size : sizeof(flipped));
	flipped[3] ^= 0x40;
	ADBG_EXPECT_TRUE(c,
			 !key || !signed_by(key, nonce->buffer, nonce->size, flipped, out->size));
}

static void set_memref(TEEC_Operation *op, size_t i, void *buf, size_t size)
{
	op->params[i].tmpref.buffer = buf;
	op->params[i].tmpref.size = size;
}

static void test_tee(ADBG_Case_t *c, TEEC_Session *s, EVP_PKEY *key)
{
	uint8_t nonce[4] = {0x12, 0x34, 0x56, 0x78};
	uint8_t out1[OUT_MAX] = {0};
	uint8_t out2[OUT_MAX] = {0};
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	set_memref(&op, 0, nonce, sizeof(nonce));
	set_memref(&op, 1, out1, sizeof(out1));
	ADBG_EXPECT_TEEC_SUCCESS(
	    c, TEEC_InvokeCommand(s, PTA_ATTESTATION_HASH_TEE_MEMORY, &op, &orig));
	expect_signed(c, key, &op, 1, NULL);
	/* Another nonce: the same code, a signature over the new nonce. */
	nonce[0] = 0x99;
	set_memref(&op, 1, out2, sizeof(out2));
	ADBG_EXPECT_TEEC_SUCCESS(
	    c, TEEC_InvokeCommand(s, PTA_ATTESTATION_HASH_TEE_MEMORY, &op, &orig));
	expect_signed(c, key, &op, 1, out1);
	ADBG_EXPECT_TRUE(c, memcmp(out1 + DIGEST_LEN, out2 + DIGEST_LEN, 3072 / 8) != 0);

	/* No nonce; an output too short for the signature. */
	set_memref(&op, 0, NULL, 0);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				TEEC_InvokeCommand(s, PTA_ATTESTATION_HASH_TEE_MEMORY, &op, &orig));
	set_memref(&op, 0, nonce, sizeof(nonce));
	set_memref(&op, 1, out2, 100);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				TEEC_InvokeCommand(s, PTA_ATTESTATION_HASH_TEE_MEMORY, &op, &orig));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[1].tmpref.size, ==, DIGEST_LEN + 3072 / 8);

	/* A client application is no TA: no TA memory to measure. */
	set_memref(&op, 1, out2, sizeof(out2));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ACCESS_DENIED,
				TEEC_InvokeCommand(s, PTA_ATTESTATION_HASH_TA_MEMORY, &op, &orig));
}

static TEEC_Result shdr_digest(TEEC_Session *s, const TEEC_UUID *uuid, size_t uuid_len,
			       uint8_t *nonce, size_t nonce_len, uint8_t *out, size_t out_len,
			       TEEC_Operation *op)
{
	uint32_t orig = 0;

	*op = (TEEC_Operation)TEEC_OPERATION_INITIALIZER;
	op->paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_INPUT,
					  TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE);
	set_memref(op, 0, (void *)uuid, uuid_len);
	set_memref(op, 1, nonce, nonce_len);
	set_memref(op, 2, out, out_len);
	return TEEC_InvokeCommand(s, PTA_ATTESTATION_GET_TA_SHDR_DIGEST, op, &orig);
}

static void test_shdr(ADBG_Case_t *c, TEEC_Session *s, EVP_PKEY *key)
{
	uint8_t nonce[6] = {0xa0, 0x98, 0x76, 0x54, 0x32, 0x10};
	uint8_t want[DIGEST_LEN];
	uint8_t out[OUT_MAX] = {0};
	TEEC_Operation op;

	if (!ADBG_EXPECT_TRUE(c, image_digest(BASIC_NAME, want)))
		return;
	ADBG_EXPECT_TEEC_SUCCESS(c, shdr_digest(s, &basic_uuid, sizeof(basic_uuid), nonce,
						sizeof(nonce), out, sizeof(out), &op));
	expect_signed(c, key, &op, 2, want);
	/* A TA library's, verified as a library. */
	if (ADBG_EXPECT_TRUE(c, image_digest(TA_SHLIB_BASE_NAME, want))) {
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 shdr_digest(s, &shlib_base_uuid, sizeof(shlib_base_uuid),
						     nonce, sizeof(nonce), out, sizeof(out), &op));
		expect_signed(c, key, &op, 2, want);
	}
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
				shdr_digest(s, &absent_uuid, sizeof(absent_uuid), nonce,
					    sizeof(nonce), out, sizeof(out), &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
				shdr_digest(s, &basic_uuid, sizeof(basic_uuid) - 1, nonce,
					    sizeof(nonce), out, sizeof(out), &op));
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_BAD_PARAMETERS,
	    shdr_digest(s, &basic_uuid, sizeof(basic_uuid), NULL, 0, out, sizeof(out), &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				shdr_digest(s, &basic_uuid, sizeof(basic_uuid), nonce,
					    sizeof(nonce), out, DIGEST_LEN, &op));
	ADBG_EXPECT_COMPARE_UNSIGNED(c, op.params[2].tmpref.size, ==, DIGEST_LEN + 3072 / 8);
}

/* The shlib TA's measure of itself, checked against the first n digests of d. */
static void expect_own_measure(ADBG_Case_t *c, TEEC_Session *s, EVP_PKEY *key,
			       const uint8_t (*d)[DIGEST_LEN], size_t n)
{
	uint8_t nonce[5] = {1, 2, 3, 4, 5};
	uint8_t out[OUT_MAX] = {0};
	uint8_t want[DIGEST_LEN];
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	uint32_t orig = 0;

	EVP_Digest(d, n * DIGEST_LEN, want, NULL, EVP_sha256(), NULL);
	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	set_memref(&op, 0, nonce, sizeof(nonce));
	set_memref(&op, 1, out, sizeof(out));
	ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(s, TA_SHLIB_CMD_ATTEST, &op, &orig));
	expect_signed(c, key, &op, 1, want);
}

/*
 * The shlib TA asks for its own measure: its digest, then base's, then
 * top's; once it has loaded "dl" with dlopen, dl's after them.
 */
static void test_ta_memory(ADBG_Case_t *c, EVP_PKEY *key)
{
	uint8_t d[4][DIGEST_LEN];
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Session s = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TRUE(c, image_digest(SHLIB_TA_NAME, d[0]) &&
				     image_digest(TA_SHLIB_BASE_NAME, d[1]) &&
				     image_digest(TA_SHLIB_TOP_NAME, d[2]) &&
				     image_digest(TA_SHLIB_DL_NAME, d[3])))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &shlib_uuid, NULL, &orig)))
		return;
	expect_own_measure(c, &s, key, d, 3);
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 1;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, TEEC_InvokeCommand(&s, TA_SHLIB_CMD_DL_CALL, &op, &orig)))
		expect_own_measure(c, &s, key, d, 4);
	TEEC_CloseSession(&s);
}

/* Another TA that sends the pseudo-TA's request to the core ends; the pseudo-TA carries on. */
static void test_forged(ADBG_Case_t *c, TEEC_Session *s, EVP_PKEY *key)
{
	static const TEEC_UUID hostile_uuid = TA_HOSTILE_UUID;
	TEEC_Operation op = TEEC_OPERATION_INITIALIZER;
	TEEC_Session h = {0};
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&h, &hostile_uuid, NULL, &orig)))
		return;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD,
				TEEC_InvokeCommand(&h, TA_HOSTILE_CMD_FORGE_ATTEST, &op, &orig));
	TEEC_CloseSession(&h);
	test_tee(c, s, key);
}

static void xtest_tee_test_1093(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	TEEC_Session again = {0};
	EVP_PKEY *key = NULL;
	EVP_PKEY *key2 = NULL;
	uint32_t orig = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, xtest_teec_open_session(&s, &attest_uuid, NULL, &orig)))
		return;
	Do_ADBG_BeginSubCase(c, "public key, made once and kept");
	key = public_key(c, &s);
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     xtest_teec_open_session(&again, &attest_uuid, NULL, &orig))) {
		key2 = public_key(c, &again);
		ADBG_EXPECT_TRUE(c, key && key2 && EVP_PKEY_eq(key, key2) == 1);
		TEEC_CloseSession(&again);
	}
	Do_ADBG_EndSubCase(c, "public key, made once and kept");
	Do_ADBG_BeginSubCase(c, "TEE memory");
	test_tee(c, &s, key);
	Do_ADBG_EndSubCase(c, "TEE memory");
	Do_ADBG_BeginSubCase(c, "TA image digest");
	test_shdr(c, &s, key);
	Do_ADBG_EndSubCase(c, "TA image digest");
	Do_ADBG_BeginSubCase(c, "TA memory, asked by the TA");
	test_ta_memory(c, key);
	Do_ADBG_EndSubCase(c, "TA memory, asked by the TA");
	Do_ADBG_BeginSubCase(c, "another TA sending the request to the core ends");
	test_forged(c, &s, key);
	Do_ADBG_EndSubCase(c, "another TA sending the request to the core ends");
	EVP_PKEY_free(key);
	EVP_PKEY_free(key2);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 1093, xtest_tee_test_1093, "Attestation pseudo-TA");
