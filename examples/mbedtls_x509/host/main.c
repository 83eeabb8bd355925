/*
 * Client of the mbedtls_x509 TA:
 *   - a chain to the TA's root verifies (flags 0); the same names under a
 *     rogue root do not (MBEDTLS_X509_BADCERT_NOT_TRUSTED);
 *   - a certificate request becomes a certificate: checked here, with
 *     mbedTLS on this side, against the same root, for the requested subject
 *     and public key;
 *   - a request whose signature is damaged is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mbedtls/pk.h>
#include <mbedtls/x509_crt.h>
#include <mbedtls/x509_csr.h>
#include <tee_client_api.h>

#include <x509_ta.h>
#include <x509_ta_pki.h>

#include "x509_test_data.h"

/* TEE_ERROR_SIGNATURE_INVALID, which the client API does not name. */
#define TA_SIGNATURE_INVALID 0xFFFF3072

static TEEC_Result verify_chain(TEEC_Session *sess, const char *pem, uint32_t *flags)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)pem;
	op.params[0].tmpref.size = strlen(pem);
	res = TEEC_InvokeCommand(sess, TA_X509_CMD_VERIFY_CHAIN, &op, &origin);
	if (res != TEEC_SUCCESS)
		fprintf(stderr, "VERIFY_CHAIN: 0x%08x (origin %u)\n", res, origin);
	*flags = op.params[1].value.a;
	return res;
}

static TEEC_Result sign_csr(TEEC_Session *sess, const char *csr, char *out, size_t *len)
{
	TEEC_Operation op = {0};
	uint32_t origin = 0;
	TEEC_Result res = TEEC_ERROR_GENERIC;

	op.paramTypes =
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_MEMREF_TEMP_OUTPUT, TEEC_NONE, TEEC_NONE);
	op.params[0].tmpref.buffer = (void *)csr;
	op.params[0].tmpref.size = strlen(csr);
	op.params[1].tmpref.buffer = out;
	op.params[1].tmpref.size = *len;
	res = TEEC_InvokeCommand(sess, TA_X509_CMD_SIGN_CSR, &op, &origin);
	*len = op.params[1].tmpref.size;
	return res;
}

static int same_public_key(mbedtls_pk_context *a, mbedtls_pk_context *b)
{
	unsigned char da[256];
	unsigned char db[256];
	int la = mbedtls_pk_write_pubkey_der(a, da, sizeof(da));
	int lb = mbedtls_pk_write_pubkey_der(b, db, sizeof(db));

	/* written at the end of the buffers */
	return la > 0 && la == lb && !memcmp(da + sizeof(da) - la, db + sizeof(db) - lb, la);
}

/* The issued certificate chains to the root and carries the request's name and key. */
static int check_certificate(const char *pem, size_t len)
{
	mbedtls_x509_crt root;
	mbedtls_x509_crt crt;
	mbedtls_x509_csr csr;
	char got[256];
	char want[256];
	uint32_t flags = 0;
	int rc = -1;

	mbedtls_x509_crt_init(&root);
	mbedtls_x509_crt_init(&crt);
	mbedtls_x509_csr_init(&csr);
	if (mbedtls_x509_crt_parse(&root, (const unsigned char *)x509_root_ca_pem,
				   sizeof(x509_root_ca_pem)) ||
	    mbedtls_x509_crt_parse(&crt, (const unsigned char *)pem, len) ||
	    mbedtls_x509_csr_parse(&csr, (const unsigned char *)client_csr_pem,
				   sizeof(client_csr_pem))) {
		fprintf(stderr, "the issued certificate does not parse\n");
		goto out;
	}
	if (mbedtls_x509_crt_verify(&crt, &root, NULL, NULL, &flags, NULL, NULL) || flags) {
		fprintf(stderr, "the issued certificate does not verify: flags 0x%08x\n", flags);
		goto out;
	}
	if (mbedtls_x509_dn_gets(got, sizeof(got), &crt.subject) < 0 ||
	    mbedtls_x509_dn_gets(want, sizeof(want), &csr.subject) < 0 || strcmp(got, want)) {
		fprintf(stderr, "subject '%s', requested '%s'\n", got, want);
		goto out;
	}
	if (!same_public_key(&crt.pk, &csr.pk)) {
		fprintf(stderr, "the certificate's key is not the requested one\n");
		goto out;
	}
	printf("issued: subject %s, serial %02x.., verifies against the root\n", got,
	       crt.serial.p[0]);
	rc = 0;
out:
	mbedtls_x509_csr_free(&csr);
	mbedtls_x509_crt_free(&crt);
	mbedtls_x509_crt_free(&root);
	return rc;
}

static int check(TEEC_Session *sess)
{
	static char cert[8192];
	char bad_csr[sizeof(client_csr_pem)];
	uint32_t flags = 0;
	size_t len = 16;
	char *sig = NULL;

	if (verify_chain(sess, good_chain_pem, &flags) || flags) {
		fprintf(stderr, "the good chain: flags 0x%08x, expected 0\n", flags);
		return -1;
	}
	if (verify_chain(sess, rogue_chain_pem, &flags) ||
	    !(flags & MBEDTLS_X509_BADCERT_NOT_TRUSTED)) {
		fprintf(stderr, "the rogue chain: flags 0x%08x, expected NOT_TRUSTED\n", flags);
		return -1;
	}
	printf("chains: the good one verifies, the rogue one does not\n");
	if (sign_csr(sess, client_csr_pem, cert, &len) != TEEC_ERROR_SHORT_BUFFER || len < 16) {
		fprintf(stderr, "a 16-byte output: expected SHORT_BUFFER and the size needed\n");
		return -1;
	}
	len = sizeof(cert);
	if (sign_csr(sess, client_csr_pem, cert, &len) != TEEC_SUCCESS ||
	    check_certificate(cert, len))
		return -1;
	/* Damage a byte of the signature: the base64 line before the END marker. */
	memcpy(bad_csr, client_csr_pem, sizeof(bad_csr));
	sig = strstr(bad_csr, "\n-----END") - 4;
	*sig = *sig == 'A' ? 'B' : 'A';
	len = sizeof(cert);
	if (sign_csr(sess, bad_csr, cert, &len) == TEEC_SUCCESS) {
		fprintf(stderr, "a request with a damaged signature was signed\n");
		return -1;
	}
	printf("a damaged request is refused\n");
	return 0;
}

int main(void)
{
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_UUID uuid = TA_X509_UUID;
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
	printf("mbedtls_x509: %s\n", rc == EXIT_SUCCESS ? "OK" : "FAILED");
	return rc;
}
