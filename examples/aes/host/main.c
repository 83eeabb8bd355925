/*
 * Client of the aes TA: NIST SP 800-38A vectors F.2.1 (CBC-AES128) and
 * F.5.1 (CTR-AES128), encrypted in one call and in two, then decrypted
 * back. Exits non-zero on any mismatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tee_client_api.h>

#include <aes_ta.h>

static const uint8_t key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
				0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
static const uint8_t cbc_iv[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
				   0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f};
static const uint8_t ctr_iv[16] = {0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7,
				   0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};
static const uint8_t plain[64] = {
    0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96, 0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a,
    0xae, 0x2d, 0x8a, 0x57, 0x1e, 0x03, 0xac, 0x9c, 0x9e, 0xb7, 0x6f, 0xac, 0x45, 0xaf, 0x8e, 0x51,
    0x30, 0xc8, 0x1c, 0x46, 0xa3, 0x5c, 0xe4, 0x11, 0xe5, 0xfb, 0xc1, 0x19, 0x1a, 0x0a, 0x52, 0xef,
    0xf6, 0x9f, 0x24, 0x45, 0xdf, 0x4f, 0x9b, 0x17, 0xad, 0x2b, 0x41, 0x7b, 0xe6, 0x6c, 0x37, 0x10,
};
static const uint8_t cbc_cipher[64] = {
    0x76, 0x49, 0xab, 0xac, 0x81, 0x19, 0xb2, 0x46, 0xce, 0xe9, 0x8e, 0x9b, 0x12, 0xe9, 0x19, 0x7d,
    0x50, 0x86, 0xcb, 0x9b, 0x50, 0x72, 0x19, 0xee, 0x95, 0xdb, 0x11, 0x3a, 0x91, 0x76, 0x78, 0xb2,
    0x73, 0xbe, 0xd6, 0xb8, 0xe3, 0xc1, 0x74, 0x3b, 0x71, 0x16, 0xe6, 0x9e, 0x22, 0x22, 0x95, 0x16,
    0x3f, 0xf1, 0xca, 0xa1, 0x68, 0x1f, 0xac, 0x09, 0x12, 0x0e, 0xca, 0x30, 0x75, 0x86, 0xe1, 0xa7,
};
static const uint8_t ctr_cipher[64] = {
    0x87, 0x4d, 0x61, 0x91, 0xb6, 0x20, 0xe3, 0x26, 0x1b, 0xef, 0x68, 0x64, 0x99, 0x0d, 0xb6, 0xce,
    0x98, 0x06, 0xf6, 0x6b, 0x79, 0x70, 0xfd, 0xff, 0x86, 0x17, 0x18, 0x7b, 0xb9, 0xff, 0xfd, 0xff,
    0x5a, 0xe4, 0xdf, 0x3e, 0xdb, 0xd5, 0xd3, 0x5e, 0x5b, 0x4f, 0x09, 0x02, 0x0d, 0xb0, 0x3e, 0xab,
    0x1e, 0x03, 0x1d, 0xda, 0x2f, 0xbe, 0x03, 0xd1, 0x79, 0x21, 0x70, 0xa0, 0xf3, 0x00, 0x9c, 0xee,
};

static int call(TEEC_Session *sess, uint32_t cmd, TEEC_Operation *op, const char *what)
{
	uint32_t origin = 0;
	TEEC_Result res = TEEC_InvokeCommand(sess, cmd, op, &origin);

	if (res == TEEC_SUCCESS)
		return 0;
	fprintf(stderr, "%s: 0x%08x (origin %u)\n", what, res, origin);
	return -1;
}

static int memref_in(TEEC_Session *sess, uint32_t cmd, const void *buf, size_t len,
		     const char *what)
{
	TEEC_Operation op = {0};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)buf;
	op.params[0].tmpref.size = len;
	return call(sess, cmd, &op, what);
}

static int start(TEEC_Session *sess, uint32_t algo, uint32_t mode, const uint8_t *iv)
{
	TEEC_Operation op = {0};

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = algo;
	op.params[0].value.b = mode;
	op.params[1].value.a = sizeof(key);
	if (call(sess, TA_AES_CMD_PREPARE, &op, "TA_AES_CMD_PREPARE") ||
	    memref_in(sess, TA_AES_CMD_SET_KEY, key, sizeof(key), "TA_AES_CMD_SET_KEY") ||
	    memref_in(sess, TA_AES_CMD_SET_IV, iv, 16, "TA_AES_CMD_SET_IV"))
		return -1;
	return 0;
}

static int cipher(TEEC_Session *sess, const uint8_t *in, uint8_t *out, size_t len)
{
	TEEC_Operation op = {0};

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)in;
	op.params[0].tmpref.size = len;
	op.params[1].tmpref.buffer = out;
	op.params[1].tmpref.size = len;
	if (call(sess, TA_AES_CMD_CIPHER, &op, "TA_AES_CMD_CIPHER"))
		return -1;
	if (op.params[1].tmpref.size != len) {
		fprintf(stderr, "TA_AES_CMD_CIPHER: %zu bytes out for %zu in\n",
			op.params[1].tmpref.size, len);
		return -1;
	}
	return 0;
}

/* Whole, then split in two calls (the second part continues the chain). */
static int vector(TEEC_Session *sess, const char *name, uint32_t algo, const uint8_t *iv,
		  const uint8_t *ct)
{
	uint8_t out[64] = {0};

	if (start(sess, algo, TA_AES_MODE_ENCODE, iv) || cipher(sess, plain, out, 64) ||
	    memcmp(out, ct, 64)) {
		fprintf(stderr, "%s encryption: wrong ciphertext\n", name);
		return -1;
	}
	memset(out, 0, sizeof(out));
	if (start(sess, algo, TA_AES_MODE_ENCODE, iv) || cipher(sess, plain, out, 32) ||
	    cipher(sess, plain + 32, out + 32, 32) || memcmp(out, ct, 64)) {
		fprintf(stderr, "%s encryption in two parts: wrong ciphertext\n", name);
		return -1;
	}
	memset(out, 0, sizeof(out));
	if (start(sess, algo, TA_AES_MODE_DECODE, iv) || cipher(sess, ct, out, 64) ||
	    memcmp(out, plain, 64)) {
		fprintf(stderr, "%s decryption: wrong plaintext\n", name);
		return -1;
	}
	printf("%s: SP 800-38A vector OK\n", name);
	return 0;
}

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = TA_AES_UUID;
	uint32_t origin = 0;
	int rc = EXIT_FAILURE;

	if (TEEC_InitializeContext(NULL, &ctx) != TEEC_SUCCESS)
		return EXIT_FAILURE;
	if (TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin) !=
	    TEEC_SUCCESS) {
		fprintf(stderr, "TEEC_OpenSession failed (origin %u)\n", origin);
		goto out;
	}
	if (!vector(&sess, "AES-128-CBC", TA_AES_ALGO_CBC, cbc_iv, cbc_cipher) &&
	    !vector(&sess, "AES-128-CTR", TA_AES_ALGO_CTR, ctr_iv, ctr_cipher))
		rc = EXIT_SUCCESS;
	TEEC_CloseSession(&sess);
out:
	TEEC_FinalizeContext(&ctx);
	printf("aes: %s\n", rc == EXIT_SUCCESS ? "OK" : "FAILED");
	return rc;
}
