#ifndef TA_X509_H
#define TA_X509_H

/* 515c1faa-47b3-444b-932e-4e0835ece8f5 */
/* clang-format off */
#define TA_X509_UUID \
	{ 0x515c1faa, 0x47b3, 0x444b, { 0x93, 0x2e, 0x4e, 0x08, 0x35, 0xec, 0xe8, 0xf5 } }
/* clang-format on */

/*
 * memref[0] input: a PEM certificate chain, end entity first.
 * value[1] output: a = mbedTLS verification flags against the TA's root CA
 * (0: the chain is trusted).
 */
#define TA_X509_CMD_VERIFY_CHAIN 0
/*
 * memref[0] input: a PEM certificate request. memref[1] output: a PEM
 * certificate for it, issued by the TA's intermediate CA, followed by that
 * CA's certificate. TEE_ERROR_SIGNATURE_INVALID if the request's own
 * signature is wrong.
 */
#define TA_X509_CMD_SIGN_CSR 1

/* Limits on what the client sends. */
#define TA_X509_MAX_PEM 8192

#endif
