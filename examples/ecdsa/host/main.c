/*
 * Client of the ecdsa TA: a key pair made in the TA, a signature that
 * verifies, one that does not once damaged, two signatures of one message
 * that differ (a fresh nonce each), and a Wycheproof vector checked with
 * its public key: the valid signature passes, a damaged one fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <ecdsa_ta.h>

/* Wycheproof ecdsa_secp256r1_sha256_p1363_test.json, group 0, tcId 1 (valid). */
static const uint8_t wp_key[64] = {
    0x29, 0x27, 0xb1, 0x05, 0x12, 0xba, 0xe3, 0xed, 0xdc, 0xfe, 0x46, 0x78, 0x28, 0x12, 0x8b, 0xad,
    0x29, 0x03, 0x26, 0x99, 0x19, 0xf7, 0x08, 0x60, 0x69, 0xc8, 0xc4, 0xdf, 0x6c, 0x73, 0x28, 0x38,
    0xc7, 0x78, 0x79, 0x64, 0xea, 0xac, 0x00, 0xe5, 0x92, 0x1f, 0xb1, 0x49, 0x8a, 0x60, 0xf4, 0x60,
    0x67, 0x66, 0xb3, 0xd9, 0x68, 0x50, 0x01, 0x55, 0x8d, 0x1a, 0x97, 0x4e, 0x73, 0x41, 0x51, 0x3e,
};
static const uint8_t wp_msg[6] = {0x31, 0x32, 0x33, 0x34, 0x30, 0x30};
static const uint8_t wp_sig[64] = {
    0x2b, 0xa3, 0xa8, 0xbe, 0x6b, 0x94, 0xd5, 0xec, 0x80, 0xa6, 0xd9, 0xd1, 0x19, 0x0a, 0x43, 0x6e,
    0xff, 0xe5, 0x0d, 0x85, 0xa1, 0xee, 0xe8, 0x59, 0xb8, 0xcc, 0x6a, 0xf9, 0xbd, 0x5c, 0x2e, 0x18,
    0x4c, 0xd6, 0x0b, 0x85, 0x5d, 0x44, 0x2f, 0x5b, 0x3c, 0x7b, 0x11, 0xeb, 0x6c, 0x4e, 0x0a, 0xe7,
    0x52, 0x5f, 0xe7, 0x10, 0xfa, 0xb9, 0xaa, 0x7c, 0x77, 0xa6, 0x7f, 0x79, 0xe6, 0xfa, 0xdd, 0x76,
};

static const char msg[] = "swtee ecdsa example";

/* TEE_ERROR_SIGNATURE_INVALID: the TA's result, which the client API does not name. */
#define TA_SIGNATURE_INVALID 0xFFFF3072

static TEEC_Result invoke(TEEC_Session *sess, uint32_t cmd, TEEC_Operation *op)
{
	uint32_t origin = 0;
	TEEC_Result res = TEEC_InvokeCommand(sess, cmd, op, &origin);

	if (res != TEEC_SUCCESS && res != TA_SIGNATURE_INVALID)
		printf("command %u: 0x%08x (origin %u)\n", cmd, res, origin);
	return res;
}

static void memref(TEEC_Operation *op, int i, const void *buf, size_t len)
{
	op->params[i].tmpref.buffer = (void *)buf;
	op->params[i].tmpref.size = len;
}

static TEEC_Result sign(TEEC_Session *sess, uint8_t sig[64])
{
	TEEC_Operation op = {0};
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	memref(&op, 0, msg, strlen(msg));
	memref(&op, 1, sig, 64);
	res = invoke(sess, TA_ECDSA_CMD_SIGN, &op);
	if (res == TEEC_SUCCESS && op.params[1].tmpref.size != 64)
		res = TEEC_ERROR_GENERIC;
	return res;
}

static TEEC_Result verify(TEEC_Session *sess, const uint8_t sig[64])
{
	TEEC_Operation op = {0};

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE);
	memref(&op, 0, msg, strlen(msg));
	memref(&op, 1, sig, 64);
	return invoke(sess, TA_ECDSA_CMD_VERIFY, &op);
}

static TEEC_Result verify_vector(TEEC_Session *sess, const uint8_t sig[64])
{
	TEEC_Operation op = {0};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_INPUT,
					 TEEC_MEMREF_TEMP_INPUT, TEEC_NONE);
	memref(&op, 0, wp_key, sizeof(wp_key));
	memref(&op, 1, wp_msg, sizeof(wp_msg));
	memref(&op, 2, sig, 64);
	return invoke(sess, TA_ECDSA_CMD_VERIFY_WITH_KEY, &op);
}

static int check(TEEC_Session *sess)
{
	TEEC_Operation op = {0};
	uint8_t sig1[64];
	uint8_t sig2[64];
	uint8_t pub[64];
	uint8_t bad[64];

	if (invoke(sess, TA_ECDSA_CMD_GEN_KEY, &op) || sign(sess, sig1) || sign(sess, sig2))
		return -1;
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	memref(&op, 0, pub, sizeof(pub));
	if (invoke(sess, TA_ECDSA_CMD_GET_PUBLIC_KEY, &op) || op.params[0].tmpref.size != 64)
		return -1;
	if (!memcmp(sig1, sig2, 64)) {
		fprintf(stderr, "two signatures of one message are equal\n");
		return -1;
	}
	if (verify(sess, sig1) || verify(sess, sig2)) {
		fprintf(stderr, "the TA's own signature does not verify\n");
		return -1;
	}
	memcpy(bad, sig1, 64);
	bad[10] ^= 0x80;
	if (verify(sess, bad) != TA_SIGNATURE_INVALID) {
		fprintf(stderr, "a damaged signature: expected TEEC_ERROR_SIGNATURE_INVALID\n");
		return -1;
	}
	printf("own key: signatures verify, a damaged one does not\n");
	if (verify_vector(sess, wp_sig)) {
		fprintf(stderr, "Wycheproof tcId 1 (valid) does not verify\n");
		return -1;
	}
	memcpy(bad, wp_sig, 64);
	bad[63] ^= 0x01;
	if (verify_vector(sess, bad) != TA_SIGNATURE_INVALID) {
		fprintf(stderr, "damaged Wycheproof signature: expected SIGNATURE_INVALID\n");
		return -1;
	}
	printf("Wycheproof vector: OK\n");
	return 0;
}

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = TA_ECDSA_UUID;
	uint32_t origin = 0;
	int rc = EXIT_FAILURE;

	if (TEEC_InitializeContext(NULL, &ctx) != TEEC_SUCCESS)
		return EXIT_FAILURE;
	if (TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin) !=
	    TEEC_SUCCESS) {
		fprintf(stderr, "TEEC_OpenSession failed (origin %u)\n", origin);
		goto out;
	}
	if (!check(&sess))
		rc = EXIT_SUCCESS;
	TEEC_CloseSession(&sess);
out:
	TEEC_FinalizeContext(&ctx);
	printf("ecdsa: %s\n", rc == EXIT_SUCCESS ? "OK" : "FAILED");
	return rc;
}
