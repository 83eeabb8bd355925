/*
 * The runtime's self-tests, run by the invoke-tests pseudo-TA's
 * CMD_SELF_TESTS in an instance of its own: each checks one part of the
 * runtime a TA relies on against a known answer, through the same GP calls
 * a TA makes (FIPS 180-2, FIPS 197 and RFC 4231 vectors for the crypto).
 */
#include <string.h>

#include <tee_internal_api.h>

#include "base64.h"
#include "log.h"
#include "pta_client.h"

struct self_test {
	const char *name;
	bool (*run)(void);
};

static bool heap_test(void)
{
	uint8_t *p = TEE_Malloc(100, TEE_MALLOC_FILL_ZERO);
	uint8_t *q = NULL;
	bool ok = false;

	if (!p)
		return false;
	ok = p[0] == 0 && p[99] == 0;
	memset(p, 0x5a, 100);
	q = TEE_Realloc(p, 4000);
	if (!q) {
		TEE_Free(p);
		return false;
	}
	ok = ok && q[0] == 0x5a && q[99] == 0x5a;
	TEE_Free(q);
	TEE_Free(NULL);
	return ok;
}

static bool mem_test(void)
{
	uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	static const uint8_t moved[8] = {1, 2, 1, 2, 3, 4, 5, 6};

	TEE_MemMove(b + 2, b, 6);
	return !TEE_MemCompare(b, moved, sizeof(b)) && TEE_MemCompare(b, moved + 1, 1) < 0 &&
	       TEE_MemCompare(moved + 2, b, 1) == 0;
}

static bool base64_test(void)
{
	static const char in[] = "c3d0ZWU=";
	char out[8] = {0};
	size_t n = 0;

	return base64_decode(in, strlen(in), out, sizeof(out), &n) && n == 5 &&
	       !memcmp(out, "swtee", 5) && !base64_decode("c3d0Z!U=", 8, out, sizeof(out), &n);
}

/* Runs a one-shot digest or MAC of algo over msg and compares with want. */
static bool digest_is(uint32_t algo, const void *msg, size_t len, const uint8_t want[32])
{
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	uint8_t out[32] = {0};
	size_t n = sizeof(out);
	bool ok = false;

	if (TEE_AllocateOperation(&op, algo, TEE_MODE_DIGEST, 0))
		return false;
	TEE_DigestUpdate(op, msg, len / 2);
	ok = !TEE_DigestDoFinal(op, (const uint8_t *)msg + len / 2, len - len / 2, out, &n) &&
	     n == sizeof(out) && !memcmp(out, want, n);
	TEE_FreeOperation(op);
	return ok;
}

static bool sha256_test(void)
{
	static const uint8_t want[32] = {0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea,
					 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
					 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c,
					 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};

	return digest_is(TEE_ALG_SHA256, "abc", 3, want);
}

/* A transient key object of type holding key. */
static TEE_ObjectHandle key_object(uint32_t type, const void *key, size_t len)
{
	TEE_ObjectHandle o = TEE_HANDLE_NULL;
	TEE_Attribute a;

	if (TEE_AllocateTransientObject(type, len * 8, &o))
		return TEE_HANDLE_NULL;
	TEE_InitRefAttribute(&a, TEE_ATTR_SECRET_VALUE, key, len);
	if (TEE_PopulateTransientObject(o, &a, 1)) {
		TEE_FreeTransientObject(o);
		return TEE_HANDLE_NULL;
	}
	return o;
}

/* An operation of algo and mode keyed with key (of object type type). */
static TEE_OperationHandle keyed_op(uint32_t algo, uint32_t mode, uint32_t type, const void *key,
				    size_t len)
{
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	TEE_ObjectHandle o = key_object(type, key, len);
	TEE_Result res = TEE_ERROR_GENERIC;

	if (!o)
		return TEE_HANDLE_NULL;
	res = TEE_AllocateOperation(&op, algo, mode, len * 8);
	if (!res)
		res = TEE_SetOperationKey(op, o);
	TEE_FreeTransientObject(o);
	if (res && op)
		TEE_FreeOperation(op);
	return res ? TEE_HANDLE_NULL : op;
}

static bool aes_test(void)
{
	static const uint8_t key[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	static const uint8_t pt[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
				       0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
	static const uint8_t ct[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
				       0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
	TEE_OperationHandle op =
	    keyed_op(TEE_ALG_AES_ECB_NOPAD, TEE_MODE_ENCRYPT, TEE_TYPE_AES, key, sizeof(key));
	uint8_t out[16] = {0};
	size_t n = sizeof(out);
	bool ok = false;

	if (!op)
		return false;
	TEE_CipherInit(op, NULL, 0);
	ok = !TEE_CipherDoFinal(op, pt, sizeof(pt), out, &n) && n == sizeof(ct) &&
	     !memcmp(out, ct, n);
	TEE_FreeOperation(op);
	return ok;
}

/* RFC 4231 test case 4: a 25-byte key 01..19 over 50 bytes of 0xcd. */
static bool hmac_test(void)
{
	static const uint8_t want[32] = {0x82, 0x55, 0x8a, 0x38, 0x9a, 0x44, 0x3c, 0x0e,
					 0xa4, 0xcc, 0x81, 0x98, 0x99, 0xf2, 0x08, 0x3a,
					 0x85, 0xf0, 0xfa, 0xa3, 0xe5, 0x78, 0xf8, 0x07,
					 0x7a, 0x2e, 0x3f, 0xf4, 0x67, 0x29, 0x66, 0x5b};
	uint8_t key[25];
	uint8_t msg[50];
	TEE_OperationHandle op = TEE_HANDLE_NULL;
	bool ok = false;

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i + 1);
	memset(msg, 0xcd, sizeof(msg));
	op = keyed_op(TEE_ALG_HMAC_SHA256, TEE_MODE_MAC, TEE_TYPE_HMAC_SHA256, key, sizeof(key));
	if (!op)
		return false;
	TEE_MACInit(op, NULL, 0);
	TEE_MACUpdate(op, msg, 10);
	ok = !TEE_MACCompareFinal(op, msg + 10, sizeof(msg) - 10, want, sizeof(want));
	TEE_FreeOperation(op);
	return ok;
}

/* (2^32 + 1)^2 == 2^64 + 2^33 + 1, and a - a == 0. */
static bool bigint_test(void)
{
	static const uint8_t x[5] = {0x01, 0, 0, 0, 0x01};
	static const uint8_t sq[9] = {0x01, 0, 0, 0, 0x02, 0, 0, 0, 0x01};
	uint32_t a[TEE_BigIntSizeInU32(128)];
	uint32_t b[TEE_BigIntSizeInU32(128)];
	uint32_t r[TEE_BigIntSizeInU32(128)];

	TEE_BigIntInit(a, TEE_BigIntSizeInU32(128));
	TEE_BigIntInit(b, TEE_BigIntSizeInU32(128));
	TEE_BigIntInit(r, TEE_BigIntSizeInU32(128));
	if (TEE_BigIntConvertFromOctetString(a, x, sizeof(x), 0) ||
	    TEE_BigIntConvertFromOctetString(b, sq, sizeof(sq), 0))
		return false;
	TEE_BigIntMul(r, a, a);
	if (TEE_BigIntCmp(r, b))
		return false;
	TEE_BigIntSub(r, a, a);
	return TEE_BigIntCmpS32(r, 0) == 0 && TEE_BigIntCmpS32(a, 1) > 0;
}

static bool random_test(void)
{
	static const uint8_t zero[32];
	uint8_t a[32] = {0};
	uint8_t b[32] = {0};

	TEE_GenerateRandom(a, sizeof(a));
	TEE_GenerateRandom(b, sizeof(b));
	return memcmp(a, b, sizeof(a)) != 0 && memcmp(a, zero, sizeof(a)) != 0 &&
	       memcmp(b, zero, sizeof(b)) != 0;
}

static const struct self_test tests[] = {
    {"heap", heap_test},	   {"memory", mem_test},    {"base64", base64_test},
    {"SHA-256", sha256_test},	   {"AES-128", aes_test},   {"HMAC-SHA256", hmac_test},
    {"big integers", bigint_test}, {"random", random_test},
};

TEE_Result rt_self_tests(void)
{
	TEE_Result res = TEE_SUCCESS;

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (tests[i].run())
			continue;
		log_error("self-test failed: %s", tests[i].name);
		res = TEE_ERROR_GENERIC;
	}
	return res;
}
