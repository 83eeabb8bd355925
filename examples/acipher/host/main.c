/*
 * Client of the acipher TA: a 2048-bit key, a short output buffer first
 * (the TA must ask for 256 bytes), then encryption, decryption back to the
 * message, two encryptions that differ (OAEP is randomised), and a damaged
 * ciphertext that must not decrypt.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <acipher_ta.h>

#define KEY_BITS 2048
#define KEY_BYTES (KEY_BITS / 8)

static const char msg[] = "swtee acipher example";

static TEEC_Result rsa_crypt(TEEC_Session *sess, uint32_t cmd, const void *in, size_t inlen,
			     void *out, size_t *outlen)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)in;
	op.params[0].tmpref.size = inlen;
	op.params[1].tmpref.buffer = out;
	op.params[1].tmpref.size = *outlen;
	res = TEEC_InvokeCommand(sess, cmd, &op, &origin);
	*outlen = op.params[1].tmpref.size;
	if (res != TEEC_SUCCESS && res != TEEC_ERROR_SHORT_BUFFER)
		printf("command %u: 0x%08x (origin %u)\n", cmd, res, origin);
	return res;
}

static int check(TEEC_Session *sess)
{
	TEEC_Operation op = {0};
	uint8_t ct1[KEY_BYTES];
	uint8_t ct2[KEY_BYTES];
	char pt[KEY_BYTES];
	size_t n = 16;
	uint32_t origin = 0;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = KEY_BITS;
	if (TEEC_InvokeCommand(sess, TA_ACIPHER_CMD_GEN_KEY, &op, &origin) != TEEC_SUCCESS) {
		fprintf(stderr, "key generation failed (origin %u)\n", origin);
		return -1;
	}
	if (rsa_crypt(sess, TA_ACIPHER_CMD_ENCRYPT, msg, sizeof(msg), ct1, &n) !=
		TEEC_ERROR_SHORT_BUFFER ||
	    n != KEY_BYTES) {
		fprintf(stderr, "a 16-byte output buffer: expected SHORT_BUFFER and %d bytes\n",
			KEY_BYTES);
		return -1;
	}
	n = sizeof(ct1);
	if (rsa_crypt(sess, TA_ACIPHER_CMD_ENCRYPT, msg, sizeof(msg), ct1, &n) || n != KEY_BYTES)
		return -1;
	n = sizeof(ct2);
	if (rsa_crypt(sess, TA_ACIPHER_CMD_ENCRYPT, msg, sizeof(msg), ct2, &n) || n != KEY_BYTES)
		return -1;
	if (!memcmp(ct1, ct2, KEY_BYTES)) {
		fprintf(stderr, "two OAEP encryptions of one message are equal\n");
		return -1;
	}
	n = sizeof(pt);
	if (rsa_crypt(sess, TA_ACIPHER_CMD_DECRYPT, ct1, KEY_BYTES, pt, &n) || n != sizeof(msg) ||
	    memcmp(pt, msg, sizeof(msg))) {
		fprintf(stderr, "decryption did not give the message back\n");
		return -1;
	}
	printf("decrypted: %s\n", pt);
	ct2[KEY_BYTES / 2] ^= 0x01;
	n = sizeof(pt);
	if (rsa_crypt(sess, TA_ACIPHER_CMD_DECRYPT, ct2, KEY_BYTES, pt, &n) == TEEC_SUCCESS) {
		fprintf(stderr, "a damaged ciphertext decrypted\n");
		return -1;
	}
	return 0;
}

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = TA_ACIPHER_UUID;
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
	printf("acipher: %s\n", rc == EXIT_SUCCESS ? "OK" : "FAILED");
	return rc;
}
