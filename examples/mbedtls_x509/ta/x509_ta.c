/*
 * mbedTLS inside a TA, the shape of OP-TEE's regression cases 8101-8103:
 * the TA holds a root CA it trusts and an intermediate CA it issues with.
 * It verifies certificate chains against the root, and turns certificate
 * requests into certificates. The CA key never leaves the TA.
 *
 * Signatures are deterministic ECDSA (RFC 6979), so mbedTLS needs no
 * random generator here.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <mbedtls/md.h>
#include <mbedtls/pk.h>
#include <mbedtls/x509_crt.h>
#include <mbedtls/x509_csr.h>

#include <tee_internal_api.h>
#include <tee_internal_api_extensions.h>

#include <x509_ta.h>
#include <x509_ta_pki.h>

#include "x509_ta_ca_key.h"

#define VALIDITY_DAYS 365

static uint32_t next_serial = 0x1000;

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t __maybe_unused param_types,
				    TEE_Param __maybe_unused params[4],
				    void __maybe_unused **session)
{
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void __maybe_unused *session)
{
}

/* A private, NUL-terminated copy of the client's PEM: mbedTLS wants both. */
static TEE_Result copy_pem(const TEE_Param *p, unsigned char **out, size_t *len)
{
	unsigned char *buf = NULL;

	if (!p->memref.size || p->memref.size > TA_X509_MAX_PEM)
		return TEE_ERROR_BAD_PARAMETERS;
	buf = TEE_Malloc(p->memref.size + 1, TEE_MALLOC_FILL_ZERO);
	if (!buf)
		return TEE_ERROR_OUT_OF_MEMORY;
	TEE_MemMove(buf, p->memref.buffer, p->memref.size);
	*out = buf;
	*len = p->memref.size + 1;
	return TEE_SUCCESS;
}

static TEE_Result verify_chain(uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	mbedtls_x509_crt root;
	mbedtls_x509_crt chain;
	unsigned char *pem = NULL;
	size_t len = 0;
	uint32_t flags = 0;
	int ret = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (pt != exp)
		return TEE_ERROR_BAD_PARAMETERS;
	res = copy_pem(&params[0], &pem, &len);
	if (res != TEE_SUCCESS)
		return res;
	mbedtls_x509_crt_init(&root);
	mbedtls_x509_crt_init(&chain);
	ret = mbedtls_x509_crt_parse(&root, (const unsigned char *)x509_root_ca_pem,
				     sizeof(x509_root_ca_pem));
	if (ret) {
		EMSG("the TA's root CA does not parse: -0x%04x", -ret);
		res = TEE_ERROR_GENERIC;
		goto out;
	}
	ret = mbedtls_x509_crt_parse(&chain, pem, len);
	if (ret) {
		EMSG("the chain does not parse: -0x%04x", -ret);
		res = TEE_ERROR_BAD_FORMAT;
		goto out;
	}
	ret = mbedtls_x509_crt_verify(&chain, &root, NULL, NULL, &flags, NULL, NULL);
	IMSG("chain verification: %d, flags 0x%08" PRIx32, ret, flags);
	params[1].value.a = flags;
	params[1].value.b = 0;
	res = TEE_SUCCESS;
out:
	mbedtls_x509_crt_free(&chain);
	mbedtls_x509_crt_free(&root);
	TEE_Free(pem);
	return res;
}

/* The request is signed with the key it asks a certificate for: check it. */
static TEE_Result check_csr_signature(mbedtls_x509_csr *csr)
{
	const mbedtls_md_info_t *md = mbedtls_md_info_from_type(csr->sig_md);
	unsigned char hash[MBEDTLS_MD_MAX_SIZE];

	if (!md || mbedtls_md(md, csr->cri.p, csr->cri.len, hash))
		return TEE_ERROR_NOT_SUPPORTED;
	if (mbedtls_pk_verify_ext(csr->sig_pk, csr->sig_opts, &csr->pk, csr->sig_md, hash,
				  mbedtls_md_get_size(md), csr->sig.p, csr->sig.len))
		return TEE_ERROR_SIGNATURE_INVALID;
	return TEE_SUCCESS;
}

/* "YYYYMMDDhhmmss" for now + days, from the REE's clock. */
static int validity_time(unsigned int days, char out[15])
{
	TEE_Time now;
	struct tm tm;
	time_t t = 0;

	TEE_GetREETime(&now);
	t = (time_t)now.seconds + (time_t)days * 86400;
	if (!gmtime_r(&t, &tm) || strftime(out, 15, "%Y%m%d%H%M%S", &tm) != 14)
		return -1;
	return 0;
}

static TEE_Result issue(mbedtls_x509_csr *csr, unsigned char *out, size_t size)
{
	mbedtls_x509write_cert crt;
	mbedtls_x509_crt ca;
	mbedtls_pk_context ca_key;
	mbedtls_mpi serial;
	char subject[256];
	char issuer[256];
	char not_before[15];
	char not_after[15];
	size_t used = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	mbedtls_x509write_crt_init(&crt);
	mbedtls_x509_crt_init(&ca);
	mbedtls_pk_init(&ca_key);
	mbedtls_mpi_init(&serial);
	if (mbedtls_x509_crt_parse(&ca, (const unsigned char *)x509_ca_cert_pem,
				   sizeof(x509_ca_cert_pem)) ||
	    mbedtls_pk_parse_key(&ca_key, (const unsigned char *)x509_ca_key_pem,
				 sizeof(x509_ca_key_pem), NULL, 0)) {
		EMSG("the TA's CA does not parse");
		goto out;
	}
	if (mbedtls_x509_dn_gets(subject, sizeof(subject), &csr->subject) < 0 ||
	    mbedtls_x509_dn_gets(issuer, sizeof(issuer), &ca.subject) < 0 ||
	    validity_time(0, not_before) || validity_time(VALIDITY_DAYS, not_after) ||
	    mbedtls_mpi_lset(&serial, next_serial++))
		goto out;
	mbedtls_x509write_crt_set_version(&crt, MBEDTLS_X509_CRT_VERSION_3);
	mbedtls_x509write_crt_set_md_alg(&crt, MBEDTLS_MD_SHA256);
	mbedtls_x509write_crt_set_subject_key(&crt, &csr->pk);
	mbedtls_x509write_crt_set_issuer_key(&crt, &ca_key);
	if (mbedtls_x509write_crt_set_subject_name(&crt, subject) ||
	    mbedtls_x509write_crt_set_issuer_name(&crt, issuer) ||
	    mbedtls_x509write_crt_set_serial(&crt, &serial) ||
	    mbedtls_x509write_crt_set_validity(&crt, not_before, not_after) ||
	    mbedtls_x509write_crt_set_basic_constraints(&crt, 0, -1) ||
	    mbedtls_x509write_crt_set_key_usage(&crt, MBEDTLS_X509_KU_DIGITAL_SIGNATURE))
		goto out;
	/* No random generator: deterministic ECDSA. */
	if (mbedtls_x509write_crt_pem(&crt, out, size, NULL, NULL)) {
		res = TEE_ERROR_SHORT_BUFFER;
		goto out;
	}
	used = strlen((char *)out);
	if (used + sizeof(x509_ca_cert_pem) > size) {
		res = TEE_ERROR_SHORT_BUFFER;
		goto out;
	}
	memcpy(out + used, x509_ca_cert_pem, sizeof(x509_ca_cert_pem));
	IMSG("issued serial 0x%" PRIx32 " to %s", next_serial - 1, subject);
	res = TEE_SUCCESS;
out:
	mbedtls_mpi_free(&serial);
	mbedtls_pk_free(&ca_key);
	mbedtls_x509_crt_free(&ca);
	mbedtls_x509write_crt_free(&crt);
	return res;
}

static TEE_Result sign_csr(uint32_t pt, TEE_Param params[4])
{
	const uint32_t exp =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	/* Room for the certificate and the CA's: a generous bound for P-256. */
	const size_t need = 4096;
	mbedtls_x509_csr csr;
	unsigned char *pem = NULL;
	unsigned char *out = NULL;
	size_t len = 0;
	TEE_Result res = TEE_ERROR_GENERIC;

	if (pt != exp)
		return TEE_ERROR_BAD_PARAMETERS;
	if (params[1].memref.size < need) {
		params[1].memref.size = need;
		return TEE_ERROR_SHORT_BUFFER;
	}
	res = copy_pem(&params[0], &pem, &len);
	if (res != TEE_SUCCESS)
		return res;
	mbedtls_x509_csr_init(&csr);
	out = TEE_Malloc(need, TEE_MALLOC_FILL_ZERO);
	if (!out) {
		res = TEE_ERROR_OUT_OF_MEMORY;
		goto out;
	}
	if (mbedtls_x509_csr_parse(&csr, pem, len)) {
		res = TEE_ERROR_BAD_FORMAT;
		goto out;
	}
	res = check_csr_signature(&csr);
	if (res == TEE_SUCCESS)
		res = issue(&csr, out, need);
	if (res == TEE_SUCCESS) {
		len = strlen((char *)out) + 1;
		TEE_MemMove(params[1].memref.buffer, out, len);
		params[1].memref.size = len;
	}
out:
	mbedtls_x509_csr_free(&csr);
	TEE_Free(out);
	TEE_Free(pem);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void __maybe_unused *session, uint32_t cmd, uint32_t pt,
				      TEE_Param params[4])
{
	switch (cmd) {
	case TA_X509_CMD_VERIFY_CHAIN:
		return verify_chain(pt, params);
	case TA_X509_CMD_SIGN_CSR:
		return sign_csr(pt, params);
	default:
		return TEE_ERROR_BAD_PARAMETERS;
	}
}
