/*
 * regression 4xxx: the GP Cryptographic Operations API and key objects,
 * driven through the crypt test TA (tests/ta/crypt).
 *
 * Known answers come from the standards, each named at its vector; where a
 * standard gives no vector for a mode (SM4-CBC, CBC-MAC, HMAC-SHA3) the
 * expected value is computed here with the host's OpenSSL from a block
 * cipher or hash whose own standard vector passes in the same case.
 *
 * A GP panic ends the TA instance: the case sees TEEC_ERROR_TARGET_DEAD
 * and opens a new session.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "adbg.h"
#include "crypt_client.h"
#include "xtest_helpers.h"

#define MAX_BUF 1024
#define HANDLE_BAD 0x1ead0bad

/* ---- helpers ---- */

/* Decodes hex (spaces allowed) into out; returns the byte count. */
static size_t unhex(const char *h, uint8_t *out, size_t cap)
{
	size_t n = 0;

	while (*h && n < cap) {
		unsigned int v = 0;

		if (*h == ' ') {
			h++;
			continue;
		}
		if (sscanf(h, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		h += 2;
	}
	return n;
}

static bool sess_open(ADBG_Case_t *c, TEEC_Session *s)
{
	return ADBG_EXPECT_TEEC_SUCCESS(c, cc_open(&xtest_teec_ctx, s));
}

/* A call that must panic the TA: checks TARGET_DEAD and opens a new session. */
static bool expect_panic(ADBG_Case_t *c, TEEC_Session *s, TEEC_Result res)
{
	bool ok = ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_TARGET_DEAD, res);

	TEEC_CloseSession(s);
	return sess_open(c, s) && ok;
}

static uint32_t key_type_of(uint32_t alg)
{
	switch (alg & 0xff) {
	case 0x10:
		return TEE_TYPE_AES;
	case 0x11:
		return TEE_TYPE_DES;
	case 0x13:
		return TEE_TYPE_DES3;
	case 0x14:
	case 0x15:
		return TEE_TYPE_SM4;
	default:
		return 0;
	}
}

/* A symmetric operation keyed with key (and key2 for XTS). */
static bool op_with_key(ADBG_Case_t *c, TEEC_Session *s, uint32_t alg, uint32_t mode,
			uint32_t key_type, const uint8_t *key, size_t key_len, const uint8_t *key2,
			uint32_t *op)
{
	uint32_t k1 = 0;
	uint32_t k2 = 0;
	bool ok = false;

	if (!ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_alloc_op(s, alg, mode, (uint32_t)key_len * 8 * (key2 ? 2 : 1), op)))
		return false;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, key_type, key, key_len, &k1)))
		goto out;
	if (key2) {
		if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, key_type, key2, key_len, &k2)))
			goto out;
		ok = ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key2(s, *op, k1, k2));
	} else {
		ok = ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(s, *op, k1));
	}
out:
	/* The operation keeps its own copies. */
	if (k1)
		cc_free_obj(s, k1);
	if (k2)
		cc_free_obj(s, k2);
	return ok;
}

/* ---- 4001: message digests ---- */

struct hash_kat {
	uint32_t alg;
	const char *msg; /* ASCII */
	const char *md;
};

static const struct hash_kat hash_kats[] = {
    /* RFC 1321 A.5 */
    {TEE_ALG_MD5, "", "d41d8cd98f00b204e9800998ecf8427e"},
    {TEE_ALG_MD5, "abc", "900150983cd24fb0d6963f7d28e17f72"},
    /* FIPS 180-2 Appendix A.1, B.1, C.1 and the SHA-224 example of its change notice */
    {TEE_ALG_SHA1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
    {TEE_ALG_SHA224, "abc", "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
    {TEE_ALG_SHA256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    /* FIPS 180-2 Appendix B.2: a two-block message */
    {TEE_ALG_SHA256, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {TEE_ALG_SHA384, "abc",
     "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
     "8086072ba1e7cc2358baeca134c825a7"},
    {TEE_ALG_SHA512, "abc",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
    /* NIST FIPS 202 examples (csrc.nist.gov, "SHA3-xxx_Msg0/abc") */
    {TEE_ALG_SHA3_224, "abc", "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"},
    {TEE_ALG_SHA3_256, "abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
    {TEE_ALG_SHA3_384, "abc",
     "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
     "98d88cea927ac7f539f1edf228376d25"},
    {TEE_ALG_SHA3_512, "abc",
     "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
     "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"},
    /* GB/T 32905-2016 Appendix A, example 1 */
    {TEE_ALG_SM3, "abc", "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0"},
    /* NIST FIPS 202 examples: SHAKE128(empty, 256 bits), SHAKE256(empty, 512 bits) */
    {TEE_ALG_SHAKE128, "", "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"},
    {TEE_ALG_SHAKE256, "",
     "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
     "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"},
};

static bool is_xof(uint32_t alg)
{
	return alg == TEE_ALG_SHAKE128 || alg == TEE_ALG_SHAKE256;
}

static void hash_kat_run(ADBG_Case_t *c, TEEC_Session *s, const struct hash_kat *k)
{
	const size_t mlen = strlen(k->msg);
	uint8_t md[64];
	uint8_t out[80];
	size_t md_len = unhex(k->md, md, sizeof(md));
	size_t n = 0;
	uint32_t op = 0;
	uint32_t op2 = 0;
	struct cc_op_info info;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(s, k->alg, TEE_MODE_DIGEST, 0, &op)))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_op_info(s, op, &info))) {
		ADBG_EXPECT(c, TEE_OPERATION_DIGEST, info.operation_class);
		ADBG_EXPECT(c, is_xof(k->alg) ? 0 : md_len, info.digest_length);
		ADBG_EXPECT(c, TEE_HANDLE_FLAG_KEY_SET | TEE_HANDLE_FLAG_INITIALIZED,
			    info.handle_state);
	}
	/* One shot */
	n = md_len;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_final(s, op, k->msg, mlen, out, &n)))
		ADBG_EXPECT_BUFFER(c, md, md_len, out, n);
	/* Byte by byte, then a copy of the operation finishes it */
	for (size_t i = 0; i < mlen; i++)
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_update(s, op, k->msg + i, 1));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(s, k->alg, TEE_MODE_DIGEST, 0, &op2))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_copy_op(s, op2, op));
		n = md_len;
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_final(s, op2, NULL, 0, out, &n)))
			ADBG_EXPECT_BUFFER(c, md, md_len, out, n);
		cc_free_op(s, op2);
	}
	n = md_len;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_final(s, op, NULL, 0, out, &n)))
		ADBG_EXPECT_BUFFER(c, md, md_len, out, n);
	/* Short buffer: the needed size comes back, the state stays */
	if (!is_xof(k->alg)) {
		n = md_len - 1;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					cc_digest_final(s, op, k->msg, mlen, out, &n));
		ADBG_EXPECT(c, md_len, n);
		n = md_len;
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_final(s, op, k->msg, mlen, out, &n)))
			ADBG_EXPECT_BUFFER(c, md, md_len, out, n);
	}
	/* TEE_DigestExtract in pieces of 3 bytes */
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_update(s, op, k->msg, mlen));
	for (size_t off = 0; off < md_len;) {
		n = md_len - off < 3 ? md_len - off : 3;
		if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_extract(s, op, out + off, &n)) ||
		    !ADBG_EXPECT_COMPARE_UNSIGNED(c, n, >, 0))
			break;
		off += n;
	}
	ADBG_EXPECT_EQUAL(c, out, md, md_len);
	if (!is_xof(k->alg)) {
		/* Nothing left to extract; DoFinal then restarts */
		n = sizeof(out);
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_extract(s, op, out, &n));
		ADBG_EXPECT(c, 0, n);
	}
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_reset_op(s, op));
	n = md_len;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_final(s, op, k->msg, mlen, out, &n)))
		ADBG_EXPECT_BUFFER(c, md, md_len, out, n);
	cc_free_op(s, op);
}

static void xtest_tee_test_4001(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint8_t out[64];
	uint8_t md[32];
	size_t n = 0;
	uint32_t op = 0;
	char *mil = NULL;

	if (!sess_open(c, &s))
		return;
	for (size_t i = 0; i < sizeof(hash_kats) / sizeof(hash_kats[0]); i++) {
		Do_ADBG_BeginSubCase(c, "Hash 0x%08x, \"%s\"", hash_kats[i].alg, hash_kats[i].msg);
		hash_kat_run(c, &s, &hash_kats[i]);
		Do_ADBG_EndSubCase(c, NULL);
	}

	Do_ADBG_BeginSubCase(c, "SHA-256 of a million 'a' in 10 updates");
	/* FIPS 180-2 Appendix B.3 */
	mil = malloc(100000);
	if (ADBG_EXPECT_NOT_NULL(c, mil) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(&s, TEE_ALG_SHA256, TEE_MODE_DIGEST, 0, &op))) {
		memset(mil, 'a', 100000);
		for (int i = 0; i < 9; i++)
			ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_update(&s, op, mil, 100000));
		n = sizeof(out);
		unhex("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", md,
		      sizeof(md));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_final(&s, op, mil, 100000, out, &n)))
			ADBG_EXPECT_BUFFER(c, md, 32, out, n);
		cc_free_op(&s, op);
	}
	free(mil);
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "SHAKE256: DigestExtract continues, DoFinal then restarts");
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     cc_alloc_op(&s, TEE_ALG_SHAKE256, TEE_MODE_DIGEST, 0, &op))) {
		uint8_t all[64];
		uint8_t ref[64];

		unhex(hash_kats[sizeof(hash_kats) / sizeof(hash_kats[0]) - 1].md, ref, sizeof(ref));
		n = 40;
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_extract(&s, op, all, &n));
		n = 24;
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_final(&s, op, NULL, 0, all + 40, &n));
		ADBG_EXPECT_EQUAL(c, all, ref, 64);
		n = 64;
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_final(&s, op, NULL, 0, all, &n)))
			ADBG_EXPECT_BUFFER(c, ref, 64, all, n);
		cc_free_op(&s, op);
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Digest misuse panics");
	/* Update in the extracting state */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(&s, TEE_ALG_SHA1, TEE_MODE_DIGEST, 0, &op))) {
		n = 4;
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_digest_extract(&s, op, out, &n));
		expect_panic(c, &s, cc_digest_update(&s, op, "x", 1));
	}
	/* A digest operation takes no key */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(&s, TEE_ALG_SHA1, TEE_MODE_DIGEST, 0, &op)))
		expect_panic(c, &s, cc_set_key(&s, op, HANDLE_BAD));
	/* Wrong mode, wrong class */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(&s, TEE_ALG_SHA256, TEE_MODE_MAC, 0, &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(&s, TEE_ALG_MD5SHA1, TEE_MODE_DIGEST, 0, &op));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(&s, TEE_ALG_SHA256, TEE_MODE_DIGEST, 0, &op)))
		expect_panic(c, &s, cc_cipher_init(&s, op, NULL, 0));
	/* A bad handle */
	expect_panic(c, &s, cc_digest_update(&s, HANDLE_BAD, "x", 1));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4001, xtest_tee_test_4001, "Test TEE Internal API hash operations");

/* ---- 4002: MACs ---- */

struct mac_kat {
	uint32_t alg;
	uint32_t key_type;
	const char *key;
	const char *msg; /* hex */
	const char *mac; /* NULL: computed with the host's OpenSSL */
};

static const struct mac_kat mac_kats[] = {
    /* RFC 2202 test case 1 (HMAC-MD5, HMAC-SHA1) */
    {TEE_ALG_HMAC_MD5, TEE_TYPE_HMAC_MD5, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
     "9294727a3638bb1c13f48ef8158bfc9d"},
    {TEE_ALG_HMAC_SHA1, TEE_TYPE_HMAC_SHA1, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
     "4869205468657265", "b617318655057264e28bc0b6fb378c8ef146be00"},
    /* RFC 4231 test case 1 */
    {TEE_ALG_HMAC_SHA224, TEE_TYPE_HMAC_SHA224, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
     "4869205468657265", "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22"},
    {TEE_ALG_HMAC_SHA256, TEE_TYPE_HMAC_SHA256, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
     "4869205468657265", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
    {TEE_ALG_HMAC_SHA384, TEE_TYPE_HMAC_SHA384, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
     "4869205468657265",
     "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59c"
     "faea9ea9076ede7f4af152e8b2fa9cb6"},
    {TEE_ALG_HMAC_SHA512, TEE_TYPE_HMAC_SHA512, "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
     "4869205468657265",
     "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
     "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"},
    /* HMAC over SHA-3 and SM3: host OpenSSL */
    {TEE_ALG_HMAC_SHA3_224, TEE_TYPE_HMAC_SHA3_224,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b", "616263", NULL},
    {TEE_ALG_HMAC_SHA3_256, TEE_TYPE_HMAC_SHA3_256,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "616263", NULL},
    {TEE_ALG_HMAC_SHA3_384, TEE_TYPE_HMAC_SHA3_384,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "616263", NULL},
    {TEE_ALG_HMAC_SHA3_512, TEE_TYPE_HMAC_SHA3_512,
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "616263", NULL},
    {TEE_ALG_HMAC_SM3, TEE_TYPE_HMAC_SM3, "0102030405060708090a0b0c0d0e0f10", "616263", NULL},
    /* NIST SP 800-38B D.1 (AES-128 CMAC), examples 1-4 */
    {TEE_ALG_AES_CMAC, TEE_TYPE_AES, "2b7e151628aed2a6abf7158809cf4f3c", "",
     "bb1d6929e95937287fa37d129b756746"},
    {TEE_ALG_AES_CMAC, TEE_TYPE_AES, "2b7e151628aed2a6abf7158809cf4f3c",
     "6bc1bee22e409f96e93d7e117393172a", "070a16b46b4d4144f79bdd9dd04a287c"},
    {TEE_ALG_AES_CMAC, TEE_TYPE_AES, "2b7e151628aed2a6abf7158809cf4f3c",
     "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411",
     "dfa66747de9ae63030ca32611497c827"},
    {TEE_ALG_AES_CMAC, TEE_TYPE_AES, "2b7e151628aed2a6abf7158809cf4f3c",
     "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
     "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
     "51f0bebf7e3b9d92fc49741779363cfe"},
    /* NIST SP 800-38B D.4 (three-key TDEA CMAC), examples 13-16 */
    {TEE_ALG_DES3_CMAC, TEE_TYPE_DES3, "8aa83bf8cbda10620bc1bf19fbb6cd58bc313d4a371ca8b5", "",
     "b7a688e122ffaf95"},
    {TEE_ALG_DES3_CMAC, TEE_TYPE_DES3, "8aa83bf8cbda10620bc1bf19fbb6cd58bc313d4a371ca8b5",
     "6bc1bee22e409f96", "8e8f293136283797"},
    {TEE_ALG_DES3_CMAC, TEE_TYPE_DES3, "8aa83bf8cbda10620bc1bf19fbb6cd58bc313d4a371ca8b5",
     "6bc1bee22e409f96e93d7e117393172aae2d8a57", "743ddbe0ce2dc2ed"},
    {TEE_ALG_DES3_CMAC, TEE_TYPE_DES3, "8aa83bf8cbda10620bc1bf19fbb6cd58bc313d4a371ca8b5",
     "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51", "33e6b1092400eae5"},
    /* FIPS 113 / ANSI X9.9 example: DES CBC-MAC of "7654321 Now is the time for " */
    {TEE_ALG_DES_CBC_MAC_NOPAD, TEE_TYPE_DES, "0123456789abcdef",
     "37363534333231204e6f77206973207468652074696d6520666f722000000000", "f1d30f6849312ca4"},
    /* CBC-MAC of the other block ciphers: host OpenSSL (zero-IV CBC, last block) */
    {TEE_ALG_DES_CBC_MAC_PKCS5, TEE_TYPE_DES, "0123456789abcdef",
     "37363534333231204e6f77206973207468652074696d6520666f7220", NULL},
    {TEE_ALG_DES3_CBC_MAC_NOPAD, TEE_TYPE_DES3, "0123456789abcdef23456789abcdef01456789abcdef0123",
     "5468652071756663"
     "6b2062726f776e20",
     NULL},
    {TEE_ALG_DES3_CBC_MAC_PKCS5, TEE_TYPE_DES3, "0123456789abcdef23456789abcdef01",
     "54686520717566636b2062726f776e", NULL},
    {TEE_ALG_AES_CBC_MAC_NOPAD, TEE_TYPE_AES, "2b7e151628aed2a6abf7158809cf4f3c",
     "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51", NULL},
    {TEE_ALG_AES_CBC_MAC_PKCS5, TEE_TYPE_AES,
     "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
     "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9e", NULL},
};

static const EVP_MD *host_md(uint32_t alg)
{
	switch (alg) {
	case TEE_ALG_HMAC_SHA3_224:
		return EVP_sha3_224();
	case TEE_ALG_HMAC_SHA3_256:
		return EVP_sha3_256();
	case TEE_ALG_HMAC_SHA3_384:
		return EVP_sha3_384();
	case TEE_ALG_HMAC_SHA3_512:
		return EVP_sha3_512();
	case TEE_ALG_HMAC_SM3:
		return EVP_sm3();
	default:
		return NULL;
	}
}

/* The last block of a zero-IV CBC encryption with the host's OpenSSL. */
static size_t host_cbc_mac(uint32_t alg, const uint8_t *key, size_t key_len, const uint8_t *msg,
			   size_t len, uint8_t *mac)
{
	const EVP_CIPHER *ciph = NULL;
	EVP_CIPHER *fetched = NULL;
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t iv[16] = {0};
	uint8_t k[32];
	uint8_t *out = malloc(len + 32);
	int n1 = 0;
	int n2 = 0;
	size_t bs = 16;

	memcpy(k, key, key_len);
	switch (key_type_of(alg)) {
	case TEE_TYPE_DES:
		fetched = EVP_CIPHER_fetch(NULL, "DES-EDE3-CBC", NULL);
		memcpy(k + 8, key, 8);
		memcpy(k + 16, key, 8);
		ciph = fetched;
		bs = 8;
		break;
	case TEE_TYPE_DES3:
		if (key_len == 16)
			memcpy(k + 16, key, 8);
		ciph = EVP_des_ede3_cbc();
		bs = 8;
		break;
	default:
		ciph = key_len == 16 ? EVP_aes_128_cbc() : EVP_aes_256_cbc();
		break;
	}
	if (!ctx || !out || !ciph || !EVP_EncryptInit_ex(ctx, ciph, NULL, k, iv) ||
	    !EVP_CIPHER_CTX_set_padding(ctx, (alg & 0xf00) == 0x500) ||
	    !EVP_EncryptUpdate(ctx, out, &n1, msg, (int)len) ||
	    !EVP_EncryptFinal_ex(ctx, out + n1, &n2) || n1 + n2 < (int)bs) {
		bs = 0;
	} else {
		memcpy(mac, out + n1 + n2 - bs, bs);
	}
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(fetched);
	free(out);
	return bs;
}

static void mac_kat_run(ADBG_Case_t *c, TEEC_Session *s, const struct mac_kat *k)
{
	uint8_t key[64];
	uint8_t msg[128];
	uint8_t mac[64];
	uint8_t out[64];
	size_t key_len = unhex(k->key, key, sizeof(key));
	size_t msg_len = unhex(k->msg, msg, sizeof(msg));
	size_t mac_len = 0;
	size_t n = 0;
	uint32_t op = 0;
	uint32_t op2 = 0;
	uint32_t kobj = 0;
	unsigned int hl = 0;

	if (k->mac) {
		mac_len = unhex(k->mac, mac, sizeof(mac));
	} else if (host_md(k->alg)) {
		HMAC(host_md(k->alg), key, (int)key_len, msg, msg_len, mac, &hl);
		mac_len = hl;
	} else {
		mac_len = host_cbc_mac(k->alg, key, key_len, msg, msg_len, mac);
	}
	if (!ADBG_EXPECT_COMPARE_UNSIGNED(c, mac_len, >, 0))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(s, k->alg, TEE_MODE_MAC, key_len * 8, &op)))
		return;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, k->key_type, key, key_len, &kobj)) ||
	    !ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(s, op, kobj)))
		goto out;
	/* One shot */
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_init(s, op, NULL, 0));
	n = sizeof(out);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_compute(s, op, msg, msg_len, out, &n)))
		ADBG_EXPECT_BUFFER(c, mac, mac_len, out, n);
	/* In pieces of 7 bytes, finished by a copy */
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_init(s, op, NULL, 0));
	for (size_t off = 0; off < msg_len; off += 7)
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, cc_mac_update(s, op, msg + off, msg_len - off < 7 ? msg_len - off : 7));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(s, k->alg, TEE_MODE_MAC, key_len * 8, &op2))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_copy_op(s, op2, op));
		n = sizeof(out);
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_compute(s, op2, NULL, 0, out, &n)))
			ADBG_EXPECT_BUFFER(c, mac, mac_len, out, n);
		cc_free_op(s, op2);
	}
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_compare(s, op, NULL, 0, mac, mac_len));
	/* Compare: a changed bit, a truncated MAC */
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_init(s, op, NULL, 0));
	mac[mac_len - 1] ^= 0x01;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_MAC_INVALID,
				cc_mac_compare(s, op, msg, msg_len, mac, mac_len));
	mac[mac_len - 1] ^= 0x01;
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_init(s, op, NULL, 0));
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_MAC_INVALID,
				cc_mac_compare(s, op, msg, msg_len, mac, mac_len - 1));
	/* Short buffer */
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_init(s, op, NULL, 0));
	n = mac_len - 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				cc_mac_compute(s, op, msg, msg_len, out, &n));
	ADBG_EXPECT(c, mac_len, n);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_compute(s, op, msg, msg_len, out, &n)))
		ADBG_EXPECT_BUFFER(c, mac, mac_len, out, n);
out:
	if (kobj)
		cc_free_obj(s, kobj);
	cc_free_op(s, op);
}

static void xtest_tee_test_4002(ADBG_Case_t *c)
{
	static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	TEEC_Session s = {0};
	uint32_t op = 0;
	uint32_t kobj = 0;
	uint8_t out[64];
	size_t n = 0;

	if (!sess_open(c, &s))
		return;
	for (size_t i = 0; i < sizeof(mac_kats) / sizeof(mac_kats[0]); i++) {
		Do_ADBG_BeginSubCase(c, "MAC 0x%08x, key %zu bytes, message %zu bytes",
				     mac_kats[i].alg, strlen(mac_kats[i].key) / 2,
				     strlen(mac_kats[i].msg) / 2);
		mac_kat_run(c, &s, &mac_kats[i]);
		Do_ADBG_EndSubCase(c, NULL);
	}

	Do_ADBG_BeginSubCase(c, "MAC negatives");
	/* HMAC-SHA256 keys are 64..1024 bits */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(&s, TEE_ALG_HMAC_SHA256, TEE_MODE_MAC, 56, &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(&s, TEE_ALG_AES_CMAC, TEE_MODE_ENCRYPT, 128, &op));
	/* An AES key for HMAC: wrong key type */
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_alloc_op(&s, TEE_ALG_HMAC_SHA256, TEE_MODE_MAC, 256, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, 16, &kobj)))
		expect_panic(c, &s, cc_set_key(&s, op, kobj));
	/* A key without TEE_USAGE_MAC */
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     cc_alloc_op(&s, TEE_ALG_AES_CMAC, TEE_MODE_MAC, 128, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, 16, &kobj))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_restrict_usage(&s, kobj, TEE_USAGE_ENCRYPT, 0));
		expect_panic(c, &s, cc_set_key(&s, op, kobj));
	}
	/* Update before init, and after the final */
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     cc_alloc_op(&s, TEE_ALG_AES_CMAC, TEE_MODE_MAC, 128, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, 16, &kobj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(&s, op, kobj))) {
		expect_panic(c, &s, cc_mac_update(&s, op, key, 16));
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     cc_alloc_op(&s, TEE_ALG_AES_CMAC, TEE_MODE_MAC, 128, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, 16, &kobj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(&s, op, kobj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_init(&s, op, NULL, 0))) {
		n = sizeof(out);
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_compute(&s, op, key, 16, out, &n));
		expect_panic(c, &s, cc_mac_update(&s, op, key, 16));
	}
	/* CBC-MAC without padding over a partial block */
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_alloc_op(&s, TEE_ALG_AES_CBC_MAC_NOPAD, TEE_MODE_MAC, 128, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, 16, &kobj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(&s, op, kobj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_mac_init(&s, op, NULL, 0))) {
		n = sizeof(out);
		expect_panic(c, &s, cc_mac_compute(&s, op, key, 15, out, &n));
	}
	/* A MAC operation used as a cipher */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(&s, TEE_ALG_AES_CMAC, TEE_MODE_MAC, 128, &op)))
		expect_panic(c, &s, cc_cipher_update(&s, op, key, 16, out, &n));
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4002, xtest_tee_test_4002, "Test TEE Internal API MAC operations");

/* ---- 4003: ciphers ---- */

struct cipher_kat {
	uint32_t alg;
	const char *key;
	const char *key2; /* XTS */
	const char *iv;
	const char *pt;
	const char *ct; /* NULL: computed with the host's OpenSSL */
};

#define SP38A_KEY "2b7e151628aed2a6abf7158809cf4f3c"
#define SP38A_PT                                                                                   \
	"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"                         \
	"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
#define CTS_KEY "636869636b656e207465726979616b69" /* "chicken teriyaki" */
#define CTS_PT                                                                                     \
	"4920776f756c64206c696b652074686520"                                                       \
	"47656e6572616c2047617527732043"                                                           \
	"6869636b656e2c20706c656173652c"                                                           \
	"20616e6420776f6e746f6e20736f75702e"
#define SM4_KEY "0123456789abcdeffedcba9876543210"
#define SM4_PT                                                                                     \
	"aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbccccccccccccccccdddddddddddddddd"                         \
	"eeeeeeeeeeeeeeeeffffffffffffffffaaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb"

static const struct cipher_kat cipher_kats[] = {
    /* FIPS 197 Appendix C.1-C.3 */
    {TEE_ALG_AES_ECB_NOPAD, "000102030405060708090a0b0c0d0e0f", NULL, NULL,
     "00112233445566778899aabbccddeeff", "69c4e0d86a7b0430d8cdb78070b4c55a"},
    {TEE_ALG_AES_ECB_NOPAD, "000102030405060708090a0b0c0d0e0f1011121314151617", NULL, NULL,
     "00112233445566778899aabbccddeeff", "dda97ca4864cdfe06eaf70a0ec0d7191"},
    {TEE_ALG_AES_ECB_NOPAD, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     NULL, NULL, "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089"},
    /* NIST SP 800-38A F.1.1, F.2.1, F.5.1 (AES-128 ECB, CBC, CTR) */
    {TEE_ALG_AES_ECB_NOPAD, SP38A_KEY, NULL, NULL, SP38A_PT,
     "3ad77bb40d7a3660a89ecaf32466ef97f5d3d58503b9699de785895a96fdbaaf"
     "43b1cd7f598ece23881b00e3ed0306887b0c785e27e8ad3f8223207104725dd4"},
    {TEE_ALG_AES_CBC_NOPAD, SP38A_KEY, NULL, "000102030405060708090a0b0c0d0e0f", SP38A_PT,
     "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
     "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"},
    {TEE_ALG_AES_CTR, SP38A_KEY, NULL, "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", SP38A_PT,
     "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
     "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"},
    /* RFC 3686 test vector #2 (nonce | IV | counter 1) */
    {TEE_ALG_AES_CTR, "7e24067817fae0d743d6ce1f32539163", NULL, "006cb6dbc0543b59da48d90b00000001",
     "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "5104a106168a72d9790d41ee8edad388eb2e1efc46da57c8fce630df9141be28"},
    /* RFC 3962 Appendix B (CBC-CS3), IV zero: 17, 31, 32 and 64 bytes */
    {TEE_ALG_AES_CTS, CTS_KEY, NULL, "00000000000000000000000000000000",
     "4920776f756c64206c696b652074686520", "c6353568f2bf8cb4d8a580362da7ff7f97"},
    {TEE_ALG_AES_CTS, CTS_KEY, NULL, "00000000000000000000000000000000",
     "4920776f756c64206c696b65207468652047656e6572616c20476175277320",
     "fc00783e0efdb2c1d445d4c8eff7ed2297687268d6ecccc0c07b25e25ecfe5"},
    {TEE_ALG_AES_CTS, CTS_KEY, NULL, "00000000000000000000000000000000",
     "4920776f756c64206c696b65207468652047656e6572616c2047617527732043",
     "39312523a78662d5be7fcbcc98ebf5a897687268d6ecccc0c07b25e25ecfe584"},
    {TEE_ALG_AES_CTS, CTS_KEY, NULL, "00000000000000000000000000000000", CTS_PT,
     "97687268d6ecccc0c07b25e25ecfe58439312523a78662d5be7fcbcc98ebf5a8"
     "4807efe836ee89a526730dbc2f7bc8409dad8bbb96c4cdc03bc103e1a194bbd8"},
    /* IEEE 1619-2007 XTS-AES vectors 1, 2 and 15-18 (ciphertext stealing) */
    {TEE_ALG_AES_XTS, "00000000000000000000000000000000", "00000000000000000000000000000000",
     "00000000000000000000000000000000",
     "0000000000000000000000000000000000000000000000000000000000000000",
     "917cf69ebd68b2ec9b9fe9a3eadda692cd43d2f59598ed858c02c2652fbf922e"},
    {TEE_ALG_AES_XTS, "11111111111111111111111111111111", "22222222222222222222222222222222",
     "33333333330000000000000000000000",
     "4444444444444444444444444444444444444444444444444444444444444444",
     "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0"},
    {TEE_ALG_AES_XTS, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0", "bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
     "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f10",
     "6c1625db4671522d3d7599601de7ca09ed"},
    {TEE_ALG_AES_XTS, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0", "bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
     "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f1011",
     "d069444b7a7e0cab09e24447d24deb1fedbf"},
    {TEE_ALG_AES_XTS, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0", "bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
     "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f101112",
     "e5df1351c0544ba1350b3363cd8ef4beedbf9d"},
    {TEE_ALG_AES_XTS, "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0", "bfbebdbcbbbab9b8b7b6b5b4b3b2b1b0",
     "9a785634120000000000000000000000", "000102030405060708090a0b0c0d0e0f10111213",
     "9d84c813f719aa2c7be3f66171c7c5c2edbf9dac"},
    /* FIPS 81 Appendix B, tables B1 (ECB) and C1 (CBC) */
    {TEE_ALG_DES_ECB_NOPAD, "0123456789abcdef", NULL, NULL,
     "4e6f77206973207468652074696d6520666f7220616c6c20",
     "3fa40e8a984d48156a271787ab8883f9893d51ec4b563b53"},
    {TEE_ALG_DES_CBC_NOPAD, "0123456789abcdef", NULL, "1234567890abcdef",
     "4e6f77206973207468652074696d6520666f7220616c6c20",
     "e5c7cdde872bf27c43e934008c389c0f683788499a7c05f6"},
    /* NIST SP 800-67 Rev. 1, Appendix B (three-key TDEA ECB) */
    {TEE_ALG_DES3_ECB_NOPAD, "0123456789abcdef23456789abcdef01456789abcdef0123", NULL, NULL,
     "5468652071756663"
     "6b2062726f776e20"
     "666f78206a756d70",
     "a826fd8ce53b855fcce21c8112256fe668d5c05dd9b6b900"},
    /* Two-key 3DES and 3DES-CBC: host OpenSSL */
    {TEE_ALG_DES3_ECB_NOPAD, "0123456789abcdef23456789abcdef01", NULL, NULL,
     "5468652071756663"
     "6b2062726f776e20"
     "666f78206a756d70",
     NULL},
    {TEE_ALG_DES3_CBC_NOPAD, "0123456789abcdef23456789abcdef01456789abcdef0123", NULL,
     "1234567890abcdef",
     "5468652071756663"
     "6b2062726f776e20"
     "666f78206a756d70",
     NULL},
    /* GB/T 32907-2016 Appendix A, example 1 */
    {TEE_ALG_SM4_ECB_NOPAD, SM4_KEY, NULL, NULL, "0123456789abcdeffedcba9876543210",
     "681edf34d206965e86b3e94f536e4246"},
    /* draft-ribose-cfrg-sm4 Appendix A.2.5 (SM4-CTR example 1) */
    {TEE_ALG_SM4_CTR, SM4_KEY, NULL, "000102030405060708090a0b0c0d0e0f", SM4_PT,
     "ac3236cb970cc20791364c395a1342d1a3cbc1878c6f30cd074cce385cdd70c7"
     "f234bc0e24c11980fd1286310ce37b926e02fcd0faa0baf38b2933851d824514"},
    /* SM4-CBC and the PKCS#5 modes: host OpenSSL */
    {TEE_ALG_SM4_CBC_NOPAD, SM4_KEY, NULL, "000102030405060708090a0b0c0d0e0f", SM4_PT, NULL},
    {TEE_ALG_SM4_ECB_PKCS5, SM4_KEY, NULL, NULL, "0123456789abcdeffedcba98765432", NULL},
    {TEE_ALG_SM4_CBC_PKCS5, SM4_KEY, NULL, "000102030405060708090a0b0c0d0e0f",
     "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbbcccccccccccccccc", NULL},
    /* SM4-XTS: the reference XTS below over the host's SM4 */
    {TEE_ALG_SM4_XTS, SM4_KEY, "fedcba98765432100123456789abcdef",
     "9a785634120000000000000000000000", SM4_PT "0102030405", NULL},
};

/* One block cipher call of the host (ECB, no padding) for the XTS reference. */
static int host_ecb(const EVP_CIPHER *ciph, const uint8_t *key, const uint8_t *in, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n = 0;
	int ok = ctx && EVP_EncryptInit_ex(ctx, ciph, NULL, key, NULL) &&
		 EVP_CIPHER_CTX_set_padding(ctx, 0) && EVP_EncryptUpdate(ctx, out, &n, in, 16);

	EVP_CIPHER_CTX_free(ctx);
	return ok && n == 16 ? 0 : -1;
}

/* x * alpha in GF(2^128), little-endian (IEEE 1619). */
static void xts_mul_alpha(uint8_t t[16])
{
	uint8_t carry = t[15] >> 7;

	for (int j = 15; j > 0; j--)
		t[j] = (uint8_t)((t[j] << 1) | (t[j - 1] >> 7));
	t[0] = (uint8_t)((t[0] << 1) ^ (carry ? 0x87 : 0));
}

/* One XTS block: out = E(k1, in ^ t) ^ t. */
static int xts_block(const EVP_CIPHER *ciph, const uint8_t *k1, const uint8_t t[16],
		     const uint8_t *in, uint8_t *out)
{
	uint8_t x[16];
	int rc = 0;

	for (int j = 0; j < 16; j++)
		x[j] = in[j] ^ t[j];
	rc = host_ecb(ciph, k1, x, x);
	for (int j = 0; j < 16; j++)
		out[j] = x[j] ^ t[j];
	return rc;
}

/* IEEE 1619 XTS encryption from the host's ECB, for SM4 (OpenSSL 3.0 lacks SM4-XTS). */
static size_t host_xts(const uint8_t *k1, const uint8_t *k2, const uint8_t *iv, const uint8_t *pt,
		       size_t len, uint8_t *ct)
{
	EVP_CIPHER *sm4 = EVP_CIPHER_fetch(NULL, "SM4-ECB", NULL);
	size_t m = len / 16;
	size_t d = len % 16;
	uint8_t t[16];
	uint8_t cc[16];
	uint8_t pp[16];
	int rc = -1;

	if (!sm4 || len < 16)
		goto out;
	rc = host_ecb(sm4, k2, iv, t);
	for (size_t i = 0; i < (d ? m - 1 : m) && !rc; i++) {
		rc = xts_block(sm4, k1, t, pt + 16 * i, ct + 16 * i);
		xts_mul_alpha(t);
	}
	if (d && !rc) {
		/* Ciphertext stealing: the last full block with the partial one */
		rc = xts_block(sm4, k1, t, pt + 16 * (m - 1), cc);
		xts_mul_alpha(t);
		memcpy(pp, pt + 16 * m, d);
		memcpy(pp + d, cc + d, 16 - d);
		memcpy(ct + 16 * m, cc, d);
		rc = rc ? rc : xts_block(sm4, k1, t, pp, ct + 16 * (m - 1));
	}
out:
	EVP_CIPHER_free(sm4);
	return rc ? 0 : len;
}

static size_t host_cipher(const struct cipher_kat *k, const uint8_t *key, size_t key_len,
			  const uint8_t *key2, const uint8_t *iv, const uint8_t *pt, size_t len,
			  uint8_t *ct)
{
	const char *name = NULL;
	EVP_CIPHER *ciph = NULL;
	EVP_CIPHER_CTX *ctx = NULL;
	uint8_t kb[32];
	int n1 = 0;
	int n2 = 0;
	size_t res = 0;

	memcpy(kb, key, key_len);
	switch (k->alg) {
	case TEE_ALG_SM4_XTS:
		return host_xts(key, key2, iv, pt, len, ct);
	case TEE_ALG_DES3_ECB_NOPAD:
		name = "DES-EDE3-ECB";
		break;
	case TEE_ALG_DES3_CBC_NOPAD:
		name = "DES-EDE3-CBC";
		break;
	case TEE_ALG_SM4_CBC_NOPAD:
	case TEE_ALG_SM4_CBC_PKCS5:
		name = "SM4-CBC";
		break;
	default:
		name = "SM4-ECB";
		break;
	}
	if (key_len == 16 && strstr(name, "DES"))
		memcpy(kb + 16, key, 8);
	ciph = EVP_CIPHER_fetch(NULL, name, NULL);
	ctx = EVP_CIPHER_CTX_new();
	if (ciph && ctx && EVP_EncryptInit_ex(ctx, ciph, NULL, kb, iv) &&
	    EVP_CIPHER_CTX_set_padding(ctx, (k->alg & 0xff) == 0x15) &&
	    EVP_EncryptUpdate(ctx, ct, &n1, pt, (int)len) && EVP_EncryptFinal_ex(ctx, ct + n1, &n2))
		res = (size_t)(n1 + n2);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(ciph);
	return res;
}

/* Ciphers in (len bytes) through op in chunks of step bytes (0: one shot). */
static bool cipher_run(ADBG_Case_t *c, TEEC_Session *s, uint32_t op, const uint8_t *iv,
		       size_t iv_len, const uint8_t *in, size_t len, size_t step, uint8_t *out,
		       size_t *out_len)
{
	size_t done = 0;
	size_t off = 0;
	size_t n = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(s, op, iv, iv_len)))
		return false;
	while (step && len - off > step) {
		n = MAX_BUF - done;
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_cipher_update(s, op, in + off, step, out + done, &n)))
			return false;
		done += n;
		off += step;
	}
	n = MAX_BUF - done;
	if (!ADBG_EXPECT_TEEC_SUCCESS(c,
				      cc_cipher_final(s, op, in + off, len - off, out + done, &n)))
		return false;
	*out_len = done + n;
	return true;
}

static void cipher_kat_run(ADBG_Case_t *c, TEEC_Session *s, const struct cipher_kat *k)
{
	static const size_t steps[] = {0, 1, 5, 16, 17, 33};
	uint8_t key[32];
	uint8_t key2[32];
	uint8_t iv[16];
	uint8_t pt[MAX_BUF];
	uint8_t ct[MAX_BUF];
	uint8_t out[MAX_BUF];
	size_t key_len = unhex(k->key, key, sizeof(key));
	size_t iv_len = k->iv ? unhex(k->iv, iv, sizeof(iv)) : 0;
	size_t pt_len = unhex(k->pt, pt, sizeof(pt));
	size_t ct_len = 0;
	size_t n = 0;
	uint32_t enc = 0;
	uint32_t dec = 0;

	if (k->key2)
		unhex(k->key2, key2, sizeof(key2));
	if (k->ct)
		ct_len = unhex(k->ct, ct, sizeof(ct));
	else
		ct_len = host_cipher(k, key, key_len, key2, iv, pt, pt_len, ct);
	if (!ADBG_EXPECT_COMPARE_UNSIGNED(c, ct_len, >, 0))
		return;
	if (!op_with_key(c, s, k->alg, TEE_MODE_ENCRYPT, key_type_of(k->alg), key, key_len,
			 k->key2 ? key2 : NULL, &enc) ||
	    !op_with_key(c, s, k->alg, TEE_MODE_DECRYPT, key_type_of(k->alg), key, key_len,
			 k->key2 ? key2 : NULL, &dec))
		goto out;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		if (cipher_run(c, s, enc, k->iv ? iv : NULL, iv_len, pt, pt_len, steps[i], out, &n))
			ADBG_EXPECT_BUFFER(c, ct, ct_len, out, n);
		if (cipher_run(c, s, dec, k->iv ? iv : NULL, iv_len, ct, ct_len, steps[i], out, &n))
			ADBG_EXPECT_BUFFER(c, pt, pt_len, out, n);
	}
	/* In place, one shot */
	memcpy(out, pt, pt_len);
	n = pt_len;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(s, enc, k->iv ? iv : NULL, iv_len)) &&
	    ct_len == pt_len && ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_in_place(s, enc, 1, out, &n)))
		ADBG_EXPECT_BUFFER(c, ct, ct_len, out, n);
out:
	cc_free_op(s, enc);
	cc_free_op(s, dec);
}

static void cipher_negatives(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	static const uint8_t iv[16];
	uint8_t out[64];
	uint32_t op = 0;
	uint32_t k1 = 0;
	size_t n = 0;

	/* ECB takes no IV */
	if (op_with_key(c, s, TEE_ALG_AES_ECB_NOPAD, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op))
		expect_panic(c, s, cc_cipher_init(s, op, iv, 16));
	/* CBC needs a 16-byte IV */
	if (op_with_key(c, s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op))
		expect_panic(c, s, cc_cipher_init(s, op, iv, 8));
	/* Without padding the data must be whole blocks */
	if (op_with_key(c, s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(s, op, iv, 16))) {
		n = sizeof(out);
		expect_panic(c, s, cc_cipher_final(s, op, key, 20, out, &n));
	}
	/* Update before init */
	if (op_with_key(c, s, TEE_ALG_AES_CTR, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op)) {
		n = sizeof(out);
		expect_panic(c, s, cc_cipher_update(s, op, key, 16, out, &n));
	}
	/* Init with no key */
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     cc_alloc_op(s, TEE_ALG_AES_CTR, TEE_MODE_ENCRYPT, 128, &op)))
		expect_panic(c, s, cc_cipher_init(s, op, iv, 16));
	/* Short output buffer: the needed size, then success */
	if (op_with_key(c, s, TEE_ALG_AES_ECB_NOPAD, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(s, op, NULL, 0))) {
		n = 31;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					cc_cipher_update(s, op, key, 32, out, &n));
		ADBG_EXPECT(c, 32, n);
		n = 15;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					cc_cipher_final(s, op, key, 16, out, &n));
		ADBG_EXPECT(c, 16, n);
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_final(s, op, key, 16, out, &n));
		ADBG_EXPECT(c, 16, n);
		cc_free_op(s, op);
	}
	/* A DES key for AES */
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_alloc_op(s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, 128, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, TEE_TYPE_DES, key, 8, &k1)))
		expect_panic(c, s, cc_set_key(s, op, k1));
	/* A key larger than the operation's maximum */
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_alloc_op(s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, 128, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, TEE_TYPE_AES, key, 32, &k1)))
		expect_panic(c, s, cc_set_key(s, op, k1));
	/* A key not allowed to decrypt */
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_alloc_op(s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_DECRYPT, 128, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, TEE_TYPE_AES, key, 16, &k1)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_restrict_usage(s, k1, ~TEE_USAGE_DECRYPT, 0)))
		expect_panic(c, s, cc_set_key(s, op, k1));
	/* One key for XTS, two for CBC, the same key twice for XTS */
	if (ADBG_EXPECT_TEEC_SUCCESS(c,
				     cc_alloc_op(s, TEE_ALG_AES_XTS, TEE_MODE_ENCRYPT, 256, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, TEE_TYPE_AES, key, 16, &k1))) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SECURITY, cc_set_key2(s, op, k1, k1));
		expect_panic(c, s, cc_set_key(s, op, k1));
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_alloc_op(s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, 128, &op)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, TEE_TYPE_AES, key, 16, &k1))) {
		uint32_t k2 = 0;

		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(s, TEE_TYPE_AES, key + 16, 16, &k2)))
			expect_panic(c, s, cc_set_key2(s, op, k1, k2));
	}
	/* Modes a cipher does not have; AES keys of other sizes */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_SIGN, 128, &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, 100, &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(s, TEE_ALG_DES_ECB_NOPAD, TEE_MODE_ENCRYPT, 128, &op));
	/* Operation information: two keys for XTS */
	if (op_with_key(c, s, TEE_ALG_AES_XTS, TEE_MODE_DECRYPT, TEE_TYPE_AES, key, 16, key + 16,
			&op)) {
		uint8_t buf[sizeof(uint32_t) * 8 + sizeof(uint32_t) * 4];
		uint32_t w[12];
		struct cc_op_info info;

		n = sizeof(uint32_t) * 8 + sizeof(uint32_t) * 2;
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					cc_op_info_multiple(s, op, buf, &n));
		n = sizeof(buf);
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_op_info_multiple(s, op, buf, &n))) {
			memcpy(w, buf, sizeof(buf));
			ADBG_EXPECT(c, TEE_ALG_AES_XTS, w[0]);
			ADBG_EXPECT(c, TEE_MODE_DECRYPT, w[2]);
			ADBG_EXPECT(c, 256, w[4]);
			ADBG_EXPECT(c, TEE_OPERATION_STATE_INITIAL, w[6]);
			ADBG_EXPECT(c, 2, w[7]);
			ADBG_EXPECT(c, 128, w[8]);
			ADBG_EXPECT(c, TEE_USAGE_DECRYPT, w[9]);
			ADBG_EXPECT(c, 128, w[10]);
		}
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_op_info(s, op, &info))) {
			ADBG_EXPECT(c, 0, info.key_size);
			ADBG_EXPECT(c, TEE_HANDLE_FLAG_EXPECT_TWO_KEYS | TEE_HANDLE_FLAG_KEY_SET,
				    info.handle_state);
		}
		cc_free_op(s, op);
	}
	/* PKCS#5: a bad padding is refused and releases nothing of the last block */
	if (op_with_key(c, s, TEE_ALG_SM4_ECB_PKCS5, TEE_MODE_DECRYPT, TEE_TYPE_SM4, key, 16, NULL,
			&op) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(s, op, NULL, 0))) {
		n = sizeof(out);
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS,
					cc_cipher_final(s, op, key, 16, out, &n));
		ADBG_EXPECT(c, 0, n);
		cc_free_op(s, op);
	}
}

static void xtest_tee_test_4003(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!sess_open(c, &s))
		return;
	for (size_t i = 0; i < sizeof(cipher_kats) / sizeof(cipher_kats[0]); i++) {
		Do_ADBG_BeginSubCase(c, "Cipher 0x%08x, key %zu bytes, %zu bytes",
				     cipher_kats[i].alg, strlen(cipher_kats[i].key) / 2,
				     strlen(cipher_kats[i].pt) / 2);
		cipher_kat_run(c, &s, &cipher_kats[i]);
		Do_ADBG_EndSubCase(c, NULL);
	}
	Do_ADBG_BeginSubCase(c, "Cipher negatives");
	cipher_negatives(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4003, xtest_tee_test_4003, "Test TEE Internal API cipher operations");

/* ---- 4004: random numbers ---- */

static void xtest_tee_test_4004(ADBG_Case_t *c)
{
	TEEC_Session s = {0};
	uint8_t a[32];
	uint8_t b[32];
	uint8_t zero[32] = {0};
	uint8_t *big = NULL;
	size_t ones = 0;

	if (!sess_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "TEE_GenerateRandom");
	memset(a, 0, sizeof(a));
	memset(b, 0, sizeof(b));
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_random(&s, a, sizeof(a)));
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_random(&s, b, sizeof(b)));
	ADBG_EXPECT_TRUE(c, memcmp(a, b, sizeof(a)) != 0);
	ADBG_EXPECT_TRUE(c, memcmp(a, zero, sizeof(a)) != 0);
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_random(&s, NULL, 0));
	/* 64 KiB: the bits are balanced to within 1% (about 12 standard deviations) */
	big = malloc(65536);
	if (ADBG_EXPECT_NOT_NULL(c, big) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_random(&s, big, 65536))) {
		for (size_t i = 0; i < 65536; i++)
			ones += (size_t)__builtin_popcount(big[i]);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, ones, >, 65536 * 4 - 65536 * 8 / 100);
		ADBG_EXPECT_COMPARE_UNSIGNED(c, ones, <, 65536 * 4 + 65536 * 8 / 100);
	}
	free(big);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4004, xtest_tee_test_4004, "Test TEE Internal API random generation");

/* ---- 4005: authenticated encryption ---- */

struct ae_kat {
	uint32_t alg;
	const char *key;
	const char *nonce;
	const char *aad;
	const char *pt;
	const char *ct;
	const char *tag;
};

#define GCM_K "feffe9928665731c6d6a8f9467308308"
#define GCM_P                                                                                      \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"                         \
	"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
#define GCM_C                                                                                      \
	"42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"                         \
	"21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"
#define CCM_K "404142434445464748494a4b4c4d4e4f"

static const struct ae_kat ae_kats[] = {
    /* McGrew-Viega, "The Galois/Counter Mode of Operation", test cases 1-4 and 6 */
    {TEE_ALG_AES_GCM, "00000000000000000000000000000000", "000000000000000000000000", "", "", "",
     "58e2fccefa7e3061367f1d57a4e7455a"},
    {TEE_ALG_AES_GCM, "00000000000000000000000000000000", "000000000000000000000000", "",
     "00000000000000000000000000000000", "0388dace60b6a392f328c2b971b2fe78",
     "ab6e47d42cec13bdf53a67b21257bddf"},
    {TEE_ALG_AES_GCM, GCM_K, "cafebabefacedbaddecaf888", "", GCM_P "1aafd255", GCM_C "473f5985",
     "4d5c2af327cd64a62cf35abd2ba6fab4"},
    {TEE_ALG_AES_GCM, GCM_K, "cafebabefacedbaddecaf888", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
     GCM_P, GCM_C, "5bc94fbc3221a5db94fae95ae7121a47"},
    {TEE_ALG_AES_GCM, GCM_K,
     "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
     "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b",
     "feedfacedeadbeeffeedfacedeadbeefabaddad2", GCM_P,
     "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
     "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
     "619cc5aefffe0bfa462af43c1699d050"},
    /* NIST SP 800-38C Appendix C, examples 1-3 */
    {TEE_ALG_AES_CCM, CCM_K, "10111213141516", "0001020304050607", "20212223", "7162015b",
     "4dac255d"},
    {TEE_ALG_AES_CCM, CCM_K, "1011121314151617", "000102030405060708090a0b0c0d0e0f",
     "202122232425262728292a2b2c2d2e2f", "d2a1f0e051ea5f62081a7792073d593d", "1fc64fbfaccd"},
    {TEE_ALG_AES_CCM, CCM_K, "101112131415161718191a1b", "000102030405060708090a0b0c0d0e0f10111213",
     "202122232425262728292a2b2c2d2e2f3031323334353637",
     "e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9a4428aa5", "484392fbc1b09951"},
};

struct ae_data {
	uint8_t key[32], nonce[64], aad[64], pt[128], ct[128], tag[16];
	size_t key_len, nonce_len, aad_len, pt_len, ct_len, tag_len;
};

/*
 * What TEE_AEUpdate outputs for len more bytes after before (OP-TEE's
 * libutee): GCM all of them, CCM whole blocks, in both directions.
 */
static size_t ae_update_out(uint32_t alg, size_t before, size_t len)
{
	if (alg == TEE_ALG_AES_GCM)
		return len;
	return (before + len) / 16 * 16 - before / 16 * 16;
}

/* What the updates of ae_run output in all for a payload of len in pieces of step. */
static size_t ae_updates_out(uint32_t alg, size_t len, size_t step)
{
	size_t n = 0;

	for (size_t off = 0; step && off + step < len; off += step)
		n += ae_update_out(alg, off, step);
	return n;
}

/*
 * AE through op: AAD and payload in pieces of step (0: one shot). Writes
 * the output to out and the tag (encryption) to tag. Returns the result of
 * the final call.
 */
static TEEC_Result ae_run(ADBG_Case_t *c, TEEC_Session *s, uint32_t op, uint32_t alg, bool enc,
			  const struct ae_data *d, size_t step, uint8_t *out, size_t *out_len,
			  uint8_t *tag, size_t *tag_len)
{
	const uint8_t *in = enc ? d->pt : d->ct;
	size_t len = enc ? d->pt_len : d->ct_len;
	size_t done = 0;
	size_t off = 0;
	size_t n = 0;

	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_init(s, op, d->nonce, d->nonce_len,
						    (uint32_t)d->tag_len * 8, (uint32_t)d->aad_len,
						    (uint32_t)len)))
		return TEEC_ERROR_GENERIC;
	for (off = 0; step && off + step < d->aad_len; off += step)
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_aad(s, op, d->aad + off, step));
	if (d->aad_len > off)
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_aad(s, op, d->aad + off, d->aad_len - off));
	for (off = 0; step && off + step < len; off += step) {
		n = MAX_BUF - done;
		if (!ADBG_EXPECT_TEEC_SUCCESS(c,
					      cc_ae_update(s, op, in + off, step, out + done, &n)))
			return TEEC_ERROR_GENERIC;
		/* Both directions stream, decryption before the tag is checked (OP-TEE). */
		ADBG_EXPECT(c, ae_update_out(alg, off, step), n);
		done += n;
	}
	n = MAX_BUF - done;
	if (enc) {
		TEEC_Result res =
		    cc_ae_enc_final(s, op, in + off, len - off, out + done, &n, tag, tag_len);

		*out_len = done + n;
		return res;
	}
	{
		TEEC_Result res =
		    cc_ae_dec_final(s, op, in + off, len - off, out + done, &n, tag, *tag_len);

		*out_len = done + n;
		return res;
	}
}

static void ae_kat_run(ADBG_Case_t *c, TEEC_Session *s, const struct ae_kat *k)
{
	static const size_t steps[] = {0, 1, 7, 16};
	struct ae_data d;
	uint8_t out[MAX_BUF];
	uint8_t tag[16];
	uint8_t bad[16];
	size_t n = 0;
	size_t tl = 0;
	uint32_t enc = 0;
	uint32_t dec = 0;

	memset(&d, 0, sizeof(d));
	d.key_len = unhex(k->key, d.key, sizeof(d.key));
	d.nonce_len = unhex(k->nonce, d.nonce, sizeof(d.nonce));
	d.aad_len = unhex(k->aad, d.aad, sizeof(d.aad));
	d.pt_len = unhex(k->pt, d.pt, sizeof(d.pt));
	d.ct_len = unhex(k->ct, d.ct, sizeof(d.ct));
	d.tag_len = unhex(k->tag, d.tag, sizeof(d.tag));
	if (!op_with_key(c, s, k->alg, TEE_MODE_ENCRYPT, TEE_TYPE_AES, d.key, d.key_len, NULL,
			 &enc) ||
	    !op_with_key(c, s, k->alg, TEE_MODE_DECRYPT, TEE_TYPE_AES, d.key, d.key_len, NULL,
			 &dec))
		goto out;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		tl = sizeof(tag);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, ae_run(c, s, enc, k->alg, true, &d, steps[i], out, &n, tag, &tl))) {
			ADBG_EXPECT_BUFFER(c, d.ct, d.ct_len, out, n);
			ADBG_EXPECT_BUFFER(c, d.tag, d.tag_len, tag, tl);
		}
		tl = d.tag_len;
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, ae_run(c, s, dec, k->alg, false, &d, steps[i], out, &n, d.tag, &tl)))
			ADBG_EXPECT_BUFFER(c, d.pt, d.pt_len, out, n);
	}
	/*
	 * A changed tag: MAC_INVALID. The updates streamed their plaintext;
	 * the final call releases none of its own.
	 */
	memcpy(bad, d.tag, d.tag_len);
	bad[0] ^= 0x80;
	memset(out, 0xa5, sizeof(out));
	tl = d.tag_len;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_MAC_INVALID,
				ae_run(c, s, dec, k->alg, false, &d, 7, out, &n, bad, &tl));
	ADBG_EXPECT(c, ae_updates_out(k->alg, d.ct_len, 7), n);
	ADBG_EXPECT_BUFFER(c, d.pt, n, out, n);
	for (size_t i = n; i < d.pt_len; i++)
		if (!ADBG_EXPECT(c, 0xa5, out[i]))
			break;
	/* A tag of another length */
	tl = d.tag_len - 1;
	ADBG_EXPECT_TEEC_RESULT(c, TEE_ERROR_MAC_INVALID,
				ae_run(c, s, dec, k->alg, false, &d, 0, out, &n, d.tag, &tl));
	/* Short buffers: the tag, then the data */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_init(s, enc, d.nonce, d.nonce_len,
						   (uint32_t)d.tag_len * 8, (uint32_t)d.aad_len,
						   (uint32_t)d.pt_len))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_aad(s, enc, d.aad, d.aad_len));
		tl = d.tag_len - 1;
		n = sizeof(out);
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
					cc_ae_enc_final(s, enc, d.pt, d.pt_len, out, &n, tag, &tl));
		ADBG_EXPECT(c, d.tag_len, tl);
		if (d.pt_len) {
			n = d.pt_len - 1;
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_SHORT_BUFFER,
			    cc_ae_enc_final(s, enc, d.pt, d.pt_len, out, &n, tag, &tl));
			ADBG_EXPECT(c, d.pt_len, n);
		}
		n = sizeof(out);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_ae_enc_final(s, enc, d.pt, d.pt_len, out, &n, tag, &tl))) {
			ADBG_EXPECT_BUFFER(c, d.ct, d.ct_len, out, n);
			ADBG_EXPECT_BUFFER(c, d.tag, d.tag_len, tag, tl);
		}
	}
out:
	cc_free_op(s, enc);
	cc_free_op(s, dec);
}

static void ae_negatives(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint8_t key[16] = {1, 2, 3};
	static const uint8_t nonce[200] = {9, 8, 7};
	uint8_t data[40] = {0};
	uint8_t out[64];
	uint8_t out2[64];
	uint8_t tag[16];
	size_t n = 0;
	size_t tl = 0;
	uint32_t op = 0;
	uint32_t dec = 0;

	if (!op_with_key(c, s, TEE_ALG_AES_GCM, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL, &op))
		return;
	/* Tag and nonce lengths the modes do not have */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_ae_init(s, op, nonce, 12, 64, 0, 0));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_ae_init(s, op, nonce, 12, 100, 0, 0));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_ae_init(s, op, nonce, 0, 128, 0, 0));
	/* A 200-byte nonce (beyond OpenSSL's GCM): a round trip, then a tamper */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_init(s, op, nonce, sizeof(nonce), 128, 0, 0))) {
		n = sizeof(out);
		tl = sizeof(tag);
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, cc_ae_enc_final(s, op, data, sizeof(data), out, &n, tag, &tl));
		if (op_with_key(c, s, TEE_ALG_AES_GCM, TEE_MODE_DECRYPT, TEE_TYPE_AES, key, 16,
				NULL, &dec) &&
		    ADBG_EXPECT_TEEC_SUCCESS(c,
					     cc_ae_init(s, dec, nonce, sizeof(nonce), 128, 0, 0))) {
			n = sizeof(out2);
			if (ADBG_EXPECT_TEEC_SUCCESS(
				c, cc_ae_dec_final(s, dec, out, sizeof(data), out2, &n, tag, tl)))
				ADBG_EXPECT_BUFFER(c, data, sizeof(data), out2, n);
			out[3] ^= 1;
			ADBG_EXPECT_TEEC_SUCCESS(
			    c, cc_ae_init(s, dec, nonce, sizeof(nonce), 128, 0, 0));
			n = sizeof(out2);
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEE_ERROR_MAC_INVALID,
			    cc_ae_dec_final(s, dec, out, sizeof(data), out2, &n, tag, tl));
		}
	}
	/* AAD after payload */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_init(s, op, nonce, 12, 128, 0, 0))) {
		n = sizeof(out);
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_update(s, op, data, 16, out, &n));
		expect_panic(c, s, cc_ae_aad(s, op, data, 4));
	}
	/* Encrypt final on a decrypt operation */
	if (op_with_key(c, s, TEE_ALG_AES_GCM, TEE_MODE_DECRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_init(s, op, nonce, 12, 128, 0, 0))) {
		n = sizeof(out);
		tl = sizeof(tag);
		expect_panic(c, s, cc_ae_enc_final(s, op, data, 16, out, &n, tag, &tl));
	}
	/* AE update before init */
	if (op_with_key(c, s, TEE_ALG_AES_GCM, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op)) {
		n = sizeof(out);
		expect_panic(c, s, cc_ae_update(s, op, data, 16, out, &n));
	}
	/* CCM: a 6-byte nonce, an odd tag; more payload than declared */
	if (op_with_key(c, s, TEE_ALG_AES_CCM, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op)) {
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
					cc_ae_init(s, op, nonce, 6, 128, 0, 16));
		ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
					cc_ae_init(s, op, nonce, 12, 40, 0, 16));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_ae_init(s, op, nonce, 12, 128, 0, 16))) {
			n = sizeof(out);
			tl = sizeof(tag);
			expect_panic(c, s, cc_ae_enc_final(s, op, data, 17, out, &n, tag, &tl));
		}
	}
}

static void xtest_tee_test_4005(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!sess_open(c, &s))
		return;
	for (size_t i = 0; i < sizeof(ae_kats) / sizeof(ae_kats[0]); i++) {
		Do_ADBG_BeginSubCase(c, "AE 0x%08x, nonce %zu bytes, payload %zu bytes",
				     ae_kats[i].alg, strlen(ae_kats[i].nonce) / 2,
				     strlen(ae_kats[i].pt) / 2);
		ae_kat_run(c, &s, &ae_kats[i]);
		Do_ADBG_EndSubCase(c, NULL);
	}
	Do_ADBG_BeginSubCase(c, "AE negatives");
	ae_negatives(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4005, xtest_tee_test_4005,
		 "Test TEE Internal API Authenticated Encryption operations");

/* ---- 4010: transient objects ---- */

static void object_basics(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint8_t key[32] = {0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
					0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f};
	struct ta_crypt_object_info info;
	struct cc_attr attr = CC_REF(TEE_ATTR_SECRET_VALUE, key, 16);
	uint8_t buf[64];
	uint32_t obj = 0;
	uint32_t obj2 = 0;
	uint32_t a = 0;
	uint32_t b = 0;
	size_t n = 0;

	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_obj(s, 0xa00000ff, 128, &obj));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_obj(s, TEE_TYPE_AES, 100, &obj));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_obj(s, TEE_TYPE_DATA, 0, &obj));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_obj(s, TEE_TYPE_HMAC_SHA1, 1032, &obj));
	if (!ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 256, &obj)))
		return;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_obj_info(s, obj, &info, 0))) {
		ADBG_EXPECT(c, TEE_TYPE_AES, info.object_type);
		ADBG_EXPECT(c, 0, info.object_size);
		ADBG_EXPECT(c, 256, info.max_object_size);
		ADBG_EXPECT(c, 0xffffffff, info.object_usage);
		ADBG_EXPECT(c, 0, info.handle_flags);
	}
	/* A 160-bit AES key is no AES key */
	attr.len = 20;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_BAD_PARAMETERS, cc_populate(s, obj, &attr, 1));
	attr.len = 16;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_populate(s, obj, &attr, 1)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_obj_info(s, obj, &info, 1))) {
		ADBG_EXPECT(c, 128, info.object_size);
		ADBG_EXPECT(c, TEE_HANDLE_FLAG_INITIALIZED, info.handle_flags);
	}
	/* The secret value is readable while the object is extractable */
	n = 8;
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_SHORT_BUFFER,
				cc_get_buf_attr(s, obj, TEE_ATTR_SECRET_VALUE, buf, &n));
	ADBG_EXPECT(c, 16, n);
	n = sizeof(buf);
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_get_buf_attr(s, obj, TEE_ATTR_SECRET_VALUE, buf, &n)))
		ADBG_EXPECT_BUFFER(c, key, 16, buf, n);
	n = sizeof(buf);
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
				cc_get_buf_attr(s, obj, TEE_ATTR_RSA_MODULUS, buf, &n));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_ITEM_NOT_FOUND,
				cc_get_val_attr(s, obj, TEE_ATTR_ECC_CURVE, &a, &b));
	/* Copy to a fresh object, usage is the intersection */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj2))) {
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, cc_restrict_usage(s, obj2, TEE_USAGE_ENCRYPT | TEE_USAGE_EXTRACTABLE, 0));
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_copy_attrs(s, obj2, obj, 0));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_obj_info(s, obj2, &info, 0))) {
			ADBG_EXPECT(c, 128, info.object_size);
			ADBG_EXPECT(c, TEE_USAGE_ENCRYPT | TEE_USAGE_EXTRACTABLE,
				    info.object_usage);
		}
		n = sizeof(buf);
		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_get_buf_attr(s, obj2, TEE_ATTR_SECRET_VALUE, buf, &n)))
			ADBG_EXPECT_BUFFER(c, key, 16, buf, n);
		/* Reset: uninitialised again, usage back to all */
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_reset_obj(s, obj2));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_obj_info(s, obj2, &info, 0))) {
			ADBG_EXPECT(c, 0, info.object_size);
			ADBG_EXPECT(c, 0, info.handle_flags);
			ADBG_EXPECT(c, 0xffffffff, info.object_usage);
		}
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_close_obj(s, obj2));
	}
	/* Generated keys */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_HMAC_SHA256, 512, &obj2))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_generate_key(s, obj2, 264, NULL, 0));
		n = sizeof(buf);
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 cc_get_buf_attr(s, obj2, TEE_ATTR_SECRET_VALUE, buf, &n));
		ADBG_EXPECT(c, 33, n);
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_obj_info(s, obj2, &info, 0)))
			ADBG_EXPECT(c, 264, info.object_size);
		cc_free_obj(s, obj2);
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_DES, 56, &obj2))) {
		/* GP 1.0 DES sizes: 56 bits of key in 8 bytes */
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_generate_key(s, obj2, 56, NULL, 0));
		n = sizeof(buf);
		ADBG_EXPECT_TEEC_SUCCESS(c,
					 cc_get_buf_attr(s, obj2, TEE_ATTR_SECRET_VALUE, buf, &n));
		ADBG_EXPECT(c, 8, n);
		cc_free_obj(s, obj2);
	}
	/* An asymmetric key pair (4007 generates every type) */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_RSA_KEYPAIR, 2048, &obj2))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_generate_key(s, obj2, 512, NULL, 0));
		if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_obj_info(s, obj2, &info, 0)))
			ADBG_EXPECT(c, 512, info.object_size);
		cc_free_obj(s, obj2);
	}
	/* Not extractable: the secret part may no longer be read */
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_restrict_usage(s, obj, ~TEE_USAGE_EXTRACTABLE, 1));
	n = sizeof(buf);
	expect_panic(c, s, cc_get_buf_attr(s, obj, TEE_ATTR_SECRET_VALUE, buf, &n));
}

/* Each call in a fresh session must panic the TA. */
static void object_panics(ADBG_Case_t *c, TEEC_Session *s)
{
	static const uint8_t key[16];
	struct cc_attr attr = CC_REF(TEE_ATTR_SECRET_VALUE, key, 16);
	struct cc_attr attrs2[2] = {CC_REF(TEE_ATTR_SECRET_VALUE, key, 16),
				    CC_REF(TEE_ATTR_SECRET_VALUE, key, 16)};
	struct cc_attr wrong = CC_REF(TEE_ATTR_RSA_MODULUS, key, 16);
	struct ta_crypt_object_info info;
	uint8_t buf[32];
	uint32_t obj = 0;
	uint32_t obj2 = 0;
	uint32_t op = 0;
	uint32_t a = 0;
	uint32_t b = 0;
	size_t n = 0;

	expect_panic(c, s, cc_obj_info(s, HANDLE_BAD, &info, 0));
	expect_panic(c, s, cc_obj_info(s, 0, &info, 0));
	/* A freed handle; an operation handle */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj))) {
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_free_obj(s, obj));
		expect_panic(c, s, cc_populate(s, obj, &attr, 1));
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_op(s, TEE_ALG_SHA1, TEE_MODE_DIGEST, 0, &op)))
		expect_panic(c, s, cc_free_obj(s, op));
	/* Populate: an attribute of another type, a missing one, a repeated one, twice */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)))
		expect_panic(c, s, cc_populate(s, obj, &wrong, 1));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)))
		expect_panic(c, s, cc_populate(s, obj, NULL, 0));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)))
		expect_panic(c, s, cc_populate(s, obj, attrs2, 2));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_populate(s, obj, &attr, 1)))
		expect_panic(c, s, cc_populate(s, obj, &attr, 1));
	/* A key larger than the object's maximum */
	attr.len = 16;
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_HMAC_SHA256, 64, &obj)))
		expect_panic(c, s, cc_populate(s, obj, &attr, 1));
	/* Reading an uninitialised object; a value through the buffer getter */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj))) {
		n = sizeof(buf);
		expect_panic(c, s, cc_get_buf_attr(s, obj, TEE_ATTR_SECRET_VALUE, buf, &n));
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_populate(s, obj, &attr, 1))) {
		n = sizeof(buf);
		expect_panic(c, s, cc_get_buf_attr(s, obj, TEE_ATTR_ECC_CURVE, buf, &n));
	}
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_populate(s, obj, &attr, 1)))
		expect_panic(c, s, cc_get_val_attr(s, obj, TEE_ATTR_SECRET_VALUE, &a, &b));
	/* Generate: a size the type does not have, one above the maximum, an initialised object */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 256, &obj)))
		expect_panic(c, s, cc_generate_key(s, obj, 160, NULL, 0));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)))
		expect_panic(c, s, cc_generate_key(s, obj, 256, NULL, 0));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_generate_key(s, obj, 128, NULL, 0)))
		expect_panic(c, s, cc_generate_key(s, obj, 128, NULL, 0));
	/* A public key type has nothing to generate */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_RSA_PUBLIC_KEY, 512, &obj)))
		expect_panic(c, s, cc_generate_key(s, obj, 512, NULL, 0));
	/* Copy: from an uninitialised object, between types, into an initialised one */
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj2)))
		expect_panic(c, s, cc_copy_attrs(s, obj2, obj, 0));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_populate(s, obj, &attr, 1)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_HMAC_SHA256, 128, &obj2)))
		expect_panic(c, s, cc_copy_attrs(s, obj2, obj, 0));
	if (ADBG_EXPECT_TEEC_SUCCESS(c, cc_alloc_obj(s, TEE_TYPE_AES, 128, &obj)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_populate(s, obj, &attr, 1)))
		expect_panic(c, s, cc_copy_attrs(s, obj, obj, 1));
	/* Attribute initialisers with an ID of the other kind */
	expect_panic(c, s, cc_init_attr(s, TEE_ATTR_ECC_CURVE, 0));
	expect_panic(c, s, cc_init_attr(s, TEE_ATTR_SECRET_VALUE, 1));
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_init_attr(s, TEE_ATTR_SECRET_VALUE, 0));
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_init_attr(s, TEE_ATTR_ECC_CURVE, 1));
	/* NULL handles are fine where GP says so */
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_free_obj(s, 0));
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_close_obj(s, 0));
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_reset_obj(s, 0));
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_free_op(s, 0));
	expect_panic(c, s, cc_invoke_values(s, TA_CRYPT_CMD_GP11_FREE_OPERATION, 0, 0, 0, 0));
}

/* The curve TEE_IsAlgorithmSupported wants with an ECC algorithm. */
static uint32_t element_of(uint32_t alg)
{
	switch (alg) {
	case TEE_ALG_ECDSA_SHA1:
		return TEE_ECC_CURVE_NIST_P192;
	case __OPTEE_ALG_ECDSA_P224:
		return TEE_ECC_CURVE_NIST_P224;
	case TEE_ALG_ECDSA_SHA256:
		return TEE_ECC_CURVE_NIST_P256;
	case TEE_ALG_ECDSA_SHA3_384:
	case TEE_ALG_ECDH_DERIVE_SHARED_SECRET:
		return TEE_ECC_CURVE_NIST_P384;
	case TEE_ALG_ECDSA_SHA512:
	case __OPTEE_ALG_ECDH_P521:
		return TEE_ECC_CURVE_NIST_P521;
	case TEE_ALG_ED25519:
	case TEE_ALG_X25519:
	case TEE_ALG_ED448:
	case TEE_ALG_X448:
		return TEE_ECC_CURVE_25519;
	case TEE_ALG_SM2_DSA_SM3:
	case TEE_ALG_SM2_PKE:
	case TEE_ALG_SM2_KEP:
		return TEE_ECC_CURVE_SM2;
	default:
		return TEE_CRYPTO_ELEMENT_NONE;
	}
}

/* TEE_IsAlgorithmSupported agrees with TEE_AllocateOperation. */
static void algorithm_support(ADBG_Case_t *c, TEEC_Session *s)
{
	static const struct {
		uint32_t alg, mode, size;
		bool ok;
	} algs[] = {
	    {TEE_ALG_AES_ECB_NOPAD, TEE_MODE_ENCRYPT, 256, true},
	    {TEE_ALG_AES_CBC_NOPAD, TEE_MODE_DECRYPT, 128, true},
	    {TEE_ALG_AES_CTR, TEE_MODE_ENCRYPT, 192, true},
	    {TEE_ALG_AES_CTS, TEE_MODE_ENCRYPT, 128, true},
	    {TEE_ALG_AES_XTS, TEE_MODE_ENCRYPT, 512, true},
	    {TEE_ALG_AES_CBC_MAC_NOPAD, TEE_MODE_MAC, 128, true},
	    {TEE_ALG_AES_CBC_MAC_PKCS5, TEE_MODE_MAC, 128, true},
	    {TEE_ALG_AES_CMAC, TEE_MODE_MAC, 128, true},
	    {TEE_ALG_AES_CCM, TEE_MODE_ENCRYPT, 128, true},
	    {TEE_ALG_AES_GCM, TEE_MODE_DECRYPT, 256, true},
	    {TEE_ALG_DES_ECB_NOPAD, TEE_MODE_ENCRYPT, 64, true},
	    {TEE_ALG_DES_CBC_NOPAD, TEE_MODE_ENCRYPT, 64, true},
	    {TEE_ALG_DES_CBC_MAC_NOPAD, TEE_MODE_MAC, 64, true},
	    {TEE_ALG_DES_CBC_MAC_PKCS5, TEE_MODE_MAC, 64, true},
	    {TEE_ALG_DES3_ECB_NOPAD, TEE_MODE_ENCRYPT, 192, true},
	    {TEE_ALG_DES3_CBC_NOPAD, TEE_MODE_ENCRYPT, 128, true},
	    {TEE_ALG_DES3_CBC_MAC_NOPAD, TEE_MODE_MAC, 192, true},
	    {TEE_ALG_DES3_CBC_MAC_PKCS5, TEE_MODE_MAC, 192, true},
	    {TEE_ALG_DES3_CMAC, TEE_MODE_MAC, 192, true},
	    {TEE_ALG_SM4_ECB_NOPAD, TEE_MODE_ENCRYPT, 128, true},
	    {TEE_ALG_SM4_CBC_NOPAD, TEE_MODE_ENCRYPT, 128, true},
	    {TEE_ALG_SM4_CTR, TEE_MODE_ENCRYPT, 128, true},
	    {TEE_ALG_SM4_XTS, TEE_MODE_ENCRYPT, 256, true},
	    {TEE_ALG_SM4_ECB_PKCS5, TEE_MODE_ENCRYPT, 128, true},
	    {TEE_ALG_SM4_CBC_PKCS5, TEE_MODE_ENCRYPT, 128, true},
	    {TEE_ALG_MD5, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA1, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA224, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA256, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA384, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA512, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA3_224, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA3_256, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA3_384, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHA3_512, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHAKE128, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SHAKE256, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_SM3, TEE_MODE_DIGEST, 0, true},
	    {TEE_ALG_HMAC_MD5, TEE_MODE_MAC, 128, true},
	    {TEE_ALG_HMAC_SHA1, TEE_MODE_MAC, 160, true},
	    {TEE_ALG_HMAC_SHA224, TEE_MODE_MAC, 224, true},
	    {TEE_ALG_HMAC_SHA256, TEE_MODE_MAC, 256, true},
	    {TEE_ALG_HMAC_SHA384, TEE_MODE_MAC, 384, true},
	    {TEE_ALG_HMAC_SHA512, TEE_MODE_MAC, 512, true},
	    {TEE_ALG_HMAC_SM3, TEE_MODE_MAC, 256, true},
	    {TEE_ALG_HMAC_SHA3_224, TEE_MODE_MAC, 224, true},
	    {TEE_ALG_HMAC_SHA3_256, TEE_MODE_MAC, 256, true},
	    {TEE_ALG_HMAC_SHA3_384, TEE_MODE_MAC, 384, true},
	    {TEE_ALG_HMAC_SHA3_512, TEE_MODE_MAC, 512, true},
	    {TEE_ALG_RSAES_PKCS1_V1_5, TEE_MODE_ENCRYPT, 2048, true},
	    {TEE_ALG_RSAES_PKCS1_OAEP_MGF1_MD5, TEE_MODE_DECRYPT, 2048, true},
	    {TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA1, TEE_MODE_DECRYPT, 2048, true},
	    {TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA224, TEE_MODE_DECRYPT, 2048, true},
	    {TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA256, TEE_MODE_DECRYPT, 2048, true},
	    {TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA384, TEE_MODE_DECRYPT, 2048, true},
	    {TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA512, TEE_MODE_DECRYPT, 2048, true},
	    {TEE_ALG_RSAES_PKCS1_OAEP_MGF1_SHA3_256, TEE_MODE_ENCRYPT, 2048, true},
	    {TEE_ALG_RSA_NOPAD, TEE_MODE_ENCRYPT, 1024, true},
	    {TEE_ALG_RSASSA_PKCS1_V1_5, TEE_MODE_SIGN, 2048, true},
	    {TEE_ALG_RSASSA_PKCS1_V1_5_MD5, TEE_MODE_SIGN, 2048, true},
	    {TEE_ALG_RSASSA_PKCS1_V1_5_SHA1, TEE_MODE_VERIFY, 2048, true},
	    {TEE_ALG_RSASSA_PKCS1_V1_5_SHA256, TEE_MODE_SIGN, 2048, true},
	    {TEE_ALG_RSASSA_PKCS1_V1_5_SHA3_512, TEE_MODE_SIGN, 2048, true},
	    {TEE_ALG_RSASSA_PKCS1_PSS_MGF1_MD5, TEE_MODE_SIGN, 2048, true},
	    {TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA512, TEE_MODE_VERIFY, 4096, true},
	    {TEE_ALG_RSASSA_PKCS1_PSS_MGF1_SHA3_224, TEE_MODE_SIGN, 2048, true},
	    {TEE_ALG_DSA_SHA1, TEE_MODE_SIGN, 1024, true},
	    {TEE_ALG_DSA_SHA224, TEE_MODE_VERIFY, 2048, true},
	    {TEE_ALG_DSA_SHA256, TEE_MODE_SIGN, 3072, true},
	    {TEE_ALG_DSA_SHA3_256, TEE_MODE_SIGN, 2048, true},
	    {TEE_ALG_ECDSA_SHA1, TEE_MODE_SIGN, 192, true},
	    {TEE_ALG_ECDSA_SHA256, TEE_MODE_VERIFY, 256, true},
	    {TEE_ALG_ECDSA_SHA512, TEE_MODE_SIGN, 521, true},
	    {TEE_ALG_ECDSA_SHA3_384, TEE_MODE_SIGN, 384, true},
	    {__OPTEE_ALG_ECDSA_P224, TEE_MODE_SIGN, 224, true},
	    {TEE_ALG_ED25519, TEE_MODE_SIGN, 256, true},
	    {TEE_ALG_SM2_DSA_SM3, TEE_MODE_VERIFY, 256, true},
	    {TEE_ALG_SM2_PKE, TEE_MODE_ENCRYPT, 256, true},
	    {TEE_ALG_SM2_KEP, TEE_MODE_DERIVE, 512, true},
	    {TEE_ALG_DH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, 2048, true},
	    {TEE_ALG_ECDH_DERIVE_SHARED_SECRET, TEE_MODE_DERIVE, 384, true},
	    {__OPTEE_ALG_ECDH_P521, TEE_MODE_DERIVE, 521, true},
	    {TEE_ALG_X25519, TEE_MODE_DERIVE, 256, true},
	    {TEE_ALG_HKDF, TEE_MODE_DERIVE, 256, true},
	    {TEE_ALG_HKDF_MD5_DERIVE_KEY, TEE_MODE_DERIVE, 256, true},
	    {TEE_ALG_HKDF_SHA256_DERIVE_KEY, TEE_MODE_DERIVE, 256, true},
	    {TEE_ALG_CONCAT_KDF_SHA1_DERIVE_KEY, TEE_MODE_DERIVE, 256, true},
	    {TEE_ALG_CONCAT_KDF_SHA512_DERIVE_KEY, TEE_MODE_DERIVE, 256, true},
	    {TEE_ALG_PBKDF2_HMAC_SHA256_DERIVE_KEY, TEE_MODE_DERIVE, 256, true},
	    {TEE_ALG_PBKDF2_HMAC_SM3_DERIVE_KEY, TEE_MODE_DERIVE, 256, true},
	    /* Not supported: both must say so */
	    {TEE_ALG_MD5SHA1, TEE_MODE_DIGEST, 0, false},
	    {TEE_ALG_RSASSA_PKCS1_V1_5_MD5SHA1, TEE_MODE_SIGN, 2048, false},
	    {TEE_ALG_ED448, TEE_MODE_SIGN, 448, false},
	    {TEE_ALG_X448, TEE_MODE_DERIVE, 448, false},
	    {TEE_ALG_ILLEGAL_VALUE, TEE_MODE_ENCRYPT, 128, false},
	};
	uint32_t op = 0;

	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		TEEC_Result sup = cc_is_supported(s, algs[i].alg, element_of(algs[i].alg));
		TEEC_Result res = cc_alloc_op(s, algs[i].alg, algs[i].mode, algs[i].size, &op);

		Do_ADBG_Log("    alg 0x%08x: IsAlgorithmSupported 0x%08x, AllocateOperation 0x%08x",
			    algs[i].alg, sup, res);
		ADBG_EXPECT_TEEC_RESULT(c, sup, res);
		if (res == TEEC_SUCCESS)
			cc_free_op(s, op);
		ADBG_EXPECT_TEEC_RESULT(c, algs[i].ok ? TEEC_SUCCESS : TEEC_ERROR_NOT_SUPPORTED,
					sup);
	}
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_is_supported(s, TEE_ALG_AES_GCM, TEE_ECC_CURVE_NIST_P256));
	/* An ECC algorithm wants its curve; OP-TEE's own IDs their one curve */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_is_supported(s, TEE_ALG_ECDSA_SHA256, TEE_CRYPTO_ELEMENT_NONE));
	ADBG_EXPECT_TEEC_SUCCESS(c,
				 cc_is_supported(s, TEE_ALG_ECDSA_SHA256, TEE_ECC_CURVE_NIST_P521));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_is_supported(s, TEE_ALG_ECDSA_SHA256, TEE_ECC_CURVE_SM2));
	ADBG_EXPECT_TEEC_RESULT(
	    c, TEEC_ERROR_NOT_SUPPORTED,
	    cc_is_supported(s, __OPTEE_ALG_ECDSA_P256, TEE_ECC_CURVE_NIST_P384));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_is_supported(s, TEE_ALG_X25519, TEE_ECC_CURVE_NIST_P256));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_is_supported(s, TEE_ALG_RSA_NOPAD, TEE_ECC_CURVE_NIST_P256));
	/* OP-TEE's key-size rules: a DSA hash fixes the prime, an OP-TEE ECDSA ID its curve */
	if (ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				    cc_alloc_op(s, TEE_ALG_DSA_SHA1, TEE_MODE_SIGN, 2048, &op)))
		ADBG_EXPECT_TEEC_RESULT(
		    c, TEEC_ERROR_NOT_SUPPORTED,
		    cc_alloc_op(s, TEE_ALG_DSA_SHA224, TEE_MODE_SIGN, 1024, &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(s, __OPTEE_ALG_ECDSA_P256, TEE_MODE_SIGN, 384, &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(s, TEE_ALG_ED25519, TEE_MODE_SIGN, 255, &op));
	/* A mode the class does not have */
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(s, TEE_ALG_RSA_NOPAD, TEE_MODE_SIGN, 1024, &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(s, TEE_ALG_ECDSA_SHA256, TEE_MODE_ENCRYPT, 256, &op));
	ADBG_EXPECT_TEEC_RESULT(c, TEEC_ERROR_NOT_SUPPORTED,
				cc_alloc_op(s, TEE_ALG_X25519, TEE_MODE_SIGN, 256, &op));
}

static void xtest_tee_test_4010(ADBG_Case_t *c)
{
	TEEC_Session s = {0};

	if (!sess_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "Transient objects: info, populate, attributes, copy, keys");
	object_basics(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "Transient objects: misuse panics");
	object_panics(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	Do_ADBG_BeginSubCase(c, "TEE_IsAlgorithmSupported agrees with TEE_AllocateOperation");
	algorithm_support(c, &s);
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4010, xtest_tee_test_4010, "Test transient objects and their misuse");

/* ---- 4017: cipher buffering ---- */

/* What an update outputs after total bytes, GP/OP-TEE buffering (regression 4017). */
static size_t expected_out(uint32_t alg, size_t before, size_t len)
{
	size_t bs = (alg & 0xff) == 0x11 || (alg & 0xff) == 0x13 ? 8 : 16;
	size_t total = before + len;
	size_t done_before = 0;
	size_t done_after = 0;
	bool two = alg == TEE_ALG_AES_CTS || alg == TEE_ALG_AES_XTS;

	if (alg == TEE_ALG_AES_CTR)
		return len;
	if (two) {
		done_before = before > 2 * bs ? (before - bs - 1) / bs * bs : 0;
		done_after = total > 2 * bs ? (total - bs - 1) / bs * bs : 0;
	} else {
		done_before = before / bs * bs;
		done_after = total / bs * bs;
	}
	return done_after - done_before;
}

static void buffering_run(ADBG_Case_t *c, TEEC_Session *s, uint32_t alg)
{
	/* 240 bytes in all: whole blocks, as ECB and CBC need */
	static const size_t chunks[] = {1, 15, 1, 16, 17, 31, 2, 32, 33, 5, 3, 8, 64, 12};
	const size_t last = chunks[sizeof(chunks) / sizeof(chunks[0]) - 1];
	static const uint8_t key[32] = {0xaa, 0xbb, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	static const uint8_t iv[16] = {0x42};
	uint8_t in[512];
	uint8_t one[512];
	uint8_t out[512];
	size_t total = 0;
	size_t done = 0;
	size_t n = 0;
	size_t iv_len = (alg & 0xff) == 0x11 || (alg & 0xff) == 0x13 ? 8 : 16;
	size_t key_len = (alg & 0xff) == 0x11 ? 8 : 16;
	uint32_t op = 0;

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 3);
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++)
		total += chunks[i];
	if (!op_with_key(c, s, alg, TEE_MODE_ENCRYPT, key_type_of(alg), key, key_len,
			 alg == TEE_ALG_AES_XTS ? key + 16 : NULL, &op))
		return;
	/* ECB takes no IV */
	if (!(alg & 0xf00))
		iv_len = 0;
	/* One shot, the reference */
	if (!cipher_run(c, s, op, iv_len ? iv : NULL, iv_len, in, total, 0, one, &n) ||
	    !ADBG_EXPECT(c, total, n))
		goto out;
	ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(s, op, iv_len ? iv : NULL, iv_len));
	for (size_t i = 0, off = 0; i < sizeof(chunks) / sizeof(chunks[0]) - 1; i++) {
		size_t want = expected_out(alg, off, chunks[i]);

		/* One byte too little room: SHORT_BUFFER and the exact size */
		if (want) {
			n = want - 1;
			ADBG_EXPECT_TEEC_RESULT(
			    c, TEEC_ERROR_SHORT_BUFFER,
			    cc_cipher_update(s, op, in + off, chunks[i], out + done, &n));
			ADBG_EXPECT(c, want, n);
		}
		n = sizeof(out) - done;
		if (!ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_cipher_update(s, op, in + off, chunks[i], out + done, &n)))
			goto out;
		if (!ADBG_EXPECT(c, want, n))
			Do_ADBG_Log("    chunk %zu (%zu bytes after %zu)", i, chunks[i], off);
		done += n;
		off += chunks[i];
	}
	n = sizeof(out) - done;
	if (ADBG_EXPECT_TEEC_SUCCESS(
		c, cc_cipher_final(s, op, in + total - last, last, out + done, &n)))
		ADBG_EXPECT_BUFFER(c, one, total, out, done + n);
out:
	cc_free_op(s, op);
}

static void xtest_tee_test_4017(ADBG_Case_t *c)
{
	static const uint32_t algs[] = {
	    TEE_ALG_AES_ECB_NOPAD, TEE_ALG_AES_CBC_NOPAD, TEE_ALG_AES_CTR,	 TEE_ALG_AES_CTS,
	    TEE_ALG_AES_XTS,	   TEE_ALG_DES_CBC_NOPAD, TEE_ALG_DES3_ECB_NOPAD};
	TEEC_Session s = {0};

	if (!sess_open(c, &s))
		return;
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		Do_ADBG_BeginSubCase(c, "Update output by chunk, 0x%08x", algs[i]);
		buffering_run(c, &s, algs[i]);
		Do_ADBG_EndSubCase(c, NULL);
	}
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4017, xtest_tee_test_4017, "Test TEE_CipherUpdate buffering");

/* ---- 4018: keys and operation states ---- */

static void xtest_tee_test_4018(ADBG_Case_t *c)
{
	static const uint8_t key[16] = {7};
	static const uint8_t iv[16];
	TEEC_Session s = {0};
	uint32_t op = 0;
	uint32_t k = 0;
	uint8_t out[32];
	size_t n = 0;

	if (!sess_open(c, &s))
		return;
	Do_ADBG_BeginSubCase(c, "TEE_SetOperationKey on an initialized operation panics");
	if (op_with_key(c, &s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, 16, &k)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(&s, op, iv, 16)))
		expect_panic(c, &s, cc_set_key(&s, op, k));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "A new key once the operation is finished; clearing the key");
	if (op_with_key(c, &s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, 16, &k)) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(&s, op, iv, 16))) {
		n = sizeof(out);
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_final(&s, op, key, 16, out, &n));
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(&s, op, k));
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_set_key(&s, op, 0));
		/* No key: reset and init panic */
		expect_panic(c, &s, cc_reset_op(&s, op));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "GP 1.1: __GP11_TEE_SetOperationKey outside the initial state");
	if (op_with_key(c, &s, TEE_ALG_AES_CBC_NOPAD, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, NULL,
			&op) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_secret_key(&s, TEE_TYPE_AES, key, 16, &k))) {
		ADBG_EXPECT_TEEC_SUCCESS(
		    c, cc_invoke_values(&s, TA_CRYPT_CMD_GP11_SET_OPERATION_KEY, op, k, 0, 0));
		ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(&s, op, iv, 16));
		expect_panic(
		    c, &s, cc_invoke_values(&s, TA_CRYPT_CMD_GP11_SET_OPERATION_KEY, op, k, 0, 0));
	}
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "TEE_SetOperationKey2 outside the initial state");
	if (op_with_key(c, &s, TEE_ALG_AES_XTS, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, 16, iv, &op) &&
	    ADBG_EXPECT_TEEC_SUCCESS(c, cc_cipher_init(&s, op, iv, 16)))
		expect_panic(c, &s, cc_set_key2(&s, op, 0, 0));
	Do_ADBG_EndSubCase(c, NULL);

	Do_ADBG_BeginSubCase(c, "Copying between operations of other algorithms panics");
	{
		uint32_t op2 = 0;

		if (ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_alloc_op(&s, TEE_ALG_SHA1, TEE_MODE_DIGEST, 0, &op)) &&
		    ADBG_EXPECT_TEEC_SUCCESS(
			c, cc_alloc_op(&s, TEE_ALG_SHA256, TEE_MODE_DIGEST, 0, &op2)))
			expect_panic(c, &s, cc_copy_op(&s, op2, op));
	}
	Do_ADBG_EndSubCase(c, NULL);
	TEEC_CloseSession(&s);
}
ADBG_CASE_DEFINE(regression, 4018, xtest_tee_test_4018,
		 "Test TEE_SetOperationKey and operation states");
