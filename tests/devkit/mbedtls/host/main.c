// SPDX-License-Identifier: BSD-2-Clause
/* The client of the mbedTLS TA: each command, checked against known answers. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <tee_client_api.h>
#include <mbedtls_ta.h>

static int sha256(TEEC_Session *s, const void *in, size_t len, uint8_t out[32])
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)in;
	op.params[0].tmpref.size = len;
	op.params[1].tmpref.buffer = out;
	op.params[1].tmpref.size = 32;
	res = TEEC_InvokeCommand(s, MBEDTLS_TA_CMD_SHA256, &op, &origin);
	if (res != TEEC_SUCCESS || op.params[1].tmpref.size != 32) {
		fprintf(stderr, "SHA256 of %zu bytes: 0x%x (origin %u)\n", len, res, origin);
		return -1;
	}
	return 0;
}

static int check_sha256(TEEC_Session *s)
{
	static const uint8_t abc[32] = {
	    0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40,
	    0xde, 0x5d, 0xae, 0x22, 0x23, 0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17,
	    0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad,
	};
	uint8_t big[1000];
	uint8_t out[32];

	if (sha256(s, "abc", 3, out) || memcmp(out, abc, sizeof(abc))) {
		fprintf(stderr, "mbedtls_sha256(\"abc\") is not the FIPS 180-2 answer\n");
		return -1;
	}
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7 + 1);
	/* The TA compares these with TEE_DigestDoFinal's. */
	if (sha256(s, big, sizeof(big), out) || sha256(s, big, 55, out) || sha256(s, "", 0, out))
		return -1;
	printf("ok: mbedtls_sha256 agrees with FIPS 180-2 and with the TEE's SHA-256\n");
	return 0;
}

static int check_entropy(TEEC_Session *s)
{
	uint8_t buf[64] = {0};
	static const uint8_t zero[32];
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = buf;
	op.params[0].tmpref.size = sizeof(buf);
	res = TEEC_InvokeCommand(s, MBEDTLS_TA_CMD_ENTROPY, &op, &origin);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "ENTROPY: 0x%x (origin %u)\n", res, origin);
		return -1;
	}
	if (!memcmp(buf, zero, 32) || !memcmp(buf + 32, zero, 32) || !memcmp(buf, buf + 32, 32)) {
		fprintf(stderr, "mbedtls_entropy_func gave zeros or the same bytes twice\n");
		return -1;
	}
	printf("ok: mbedtls_entropy_func draws from TEE_GenerateRandom\n");
	return 0;
}

static int check_version(TEEC_Session *s)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(s, MBEDTLS_TA_CMD_VERSION, &op, &origin);
	if (res != TEEC_SUCCESS || op.params[0].value.a != 0x03060000 ||
	    op.params[0].value.b != 1) {
		fprintf(stderr, "VERSION: 0x%x, a=0x%x b=%u\n", res, op.params[0].value.a,
			op.params[0].value.b);
		return -1;
	}
	printf("ok: mbedtls_version_get_number() is 0x%08x, CFG_TA_MBEDTLS=1\n",
	       op.params[0].value.a);
	return 0;
}

static int check_mpi_pool(TEEC_Session *s)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res;

	op.paramTypes = TEEC_PARAM_TYPES(TEEC_NONE, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	res = TEEC_InvokeCommand(s, MBEDTLS_TA_CMD_MPI_POOL, &op, &origin);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "MPI_POOL: 0x%x (origin %u)\n", res, origin);
		return -1;
	}
	printf("ok: the tree's mbedtls_mpi_mempool has a pool\n");
	return 0;
}

/* With the argument "pool", also checks optee_os's bignum pool. */
int main(int argc, char **argv)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = MBEDTLS_TA_UUID;
	uint32_t origin = 0;
	TEEC_Result res;
	int rc = 1;

	res = TEEC_InitializeContext(NULL, &ctx);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "TEEC_InitializeContext: 0x%x\n", res);
		return 1;
	}
	res = TEEC_OpenSession(&ctx, &sess, &uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "TEEC_OpenSession: 0x%x (origin %u)\n", res, origin);
		TEEC_FinalizeContext(&ctx);
		return 1;
	}
	if (!check_sha256(&sess) && !check_entropy(&sess) && !check_version(&sess) &&
	    (argc < 2 || strcmp(argv[1], "pool") || !check_mpi_pool(&sess)))
		rc = 0;
	TEEC_CloseSession(&sess);
	TEEC_FinalizeContext(&ctx);
	return rc;
}
