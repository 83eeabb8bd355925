/*
 * The Linux kernel's TPM HMAC-session pattern (TCG_TPM2_HMAC) against the
 * fTPM, through the TSS: create the NULL-hierarchy ECC P-256 primary with
 * the kernel's template, save its context, then for each PCR extend:
 * ContextLoad, a StartAuthSession salted to that key (ECDH P-256,
 * AES-128-CFB, SHA-256), FlushContext of the key, PCR_Extend under the
 * HMAC session, FlushContext of the session. The final PCR value must be
 * the hash chain computed here.
 *
 * Then the power-cycle semantics the kernel relies on, through swtpm's
 * control channel (CMD_INIT, a power cycle in order): after a TPM Reset the
 * saved context no longer loads and the NULL primary has a new name; after
 * TPM2_Shutdown(STATE) and a power cycle (TPM Resume) the context loads and
 * the name is kept.
 *
 * Usage: hmac_sessions [EXTENDS]; $SWTEE_TPM_SWTPM_TCTI names the TPM
 * (swtee run --tpm sets it).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <openssl/sha.h>
#include <tss2/tss2_esys.h>
#include <tss2/tss2_tctildr.h>

#define DEFAULT_EXTENDS 200
#define PCR_INDEX 16
#define SWTPM_CMD_INIT 2

static ESYS_CONTEXT *esys;
static TSS2_TCTI_CONTEXT *tcti;

static int failed(const char *what, TSS2_RC rc)
{
	fprintf(stderr, "FAIL: %s: 0x%08x\n", what, rc);
	return -1;
}

/* The kernel's NULL key: TPM2_OA_NULL_KEY attributes, AES-128-CFB, P-256. */
static int create_null_primary(ESYS_TR *key, TPM2B_NAME **name)
{
	TPM2B_SENSITIVE_CREATE sens = {0};
	TPM2B_PUBLIC pub = {0};
	TPMS_ECC_PARMS *ecc = &pub.publicArea.parameters.eccDetail;
	TPM2B_DATA outside = {0};
	TPML_PCR_SELECTION pcrs = {0};
	TSS2_RC rc = 0;

	pub.publicArea.type = TPM2_ALG_ECC;
	pub.publicArea.nameAlg = TPM2_ALG_SHA256;
	pub.publicArea.objectAttributes =
	    TPMA_OBJECT_NODA | TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
	    TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH | TPMA_OBJECT_RESTRICTED |
	    TPMA_OBJECT_DECRYPT;
	ecc->symmetric.algorithm = TPM2_ALG_AES;
	ecc->symmetric.keyBits.aes = 128;
	ecc->symmetric.mode.aes = TPM2_ALG_CFB;
	ecc->scheme.scheme = TPM2_ALG_NULL;
	ecc->curveID = TPM2_ECC_NIST_P256;
	ecc->kdf.scheme = TPM2_ALG_NULL;
	rc = Esys_CreatePrimary(esys, ESYS_TR_RH_NULL, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
				&sens, &pub, &outside, &pcrs, key, NULL, NULL, NULL, NULL);
	if (rc)
		return failed("CreatePrimary(NULL, ECC P-256)", rc);
	rc = Esys_TR_GetName(esys, *key, name);
	if (rc)
		return failed("the NULL key's name", rc);
	return 0;
}

/* One extend the kernel's way; the digest is also folded into expect. */
static int extend_once(const TPMS_CONTEXT *saved, uint32_t i, uint8_t expect[32])
{
	TPMT_SYM_DEF sym = {
	    .algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB};
	TPML_DIGEST_VALUES digests = {.count = 1};
	ESYS_TR key = ESYS_TR_NONE;
	ESYS_TR sess = ESYS_TR_NONE;
	uint8_t chain[64];
	TSS2_RC rc = 0;
	int ret = -1;

	digests.digests[0].hashAlg = TPM2_ALG_SHA256;
	memset(digests.digests[0].digest.sha256, 0, 32);
	memcpy(digests.digests[0].digest.sha256, &i, sizeof(i));
	rc = Esys_ContextLoad(esys, saved, &key);
	if (rc) {
		failed("ContextLoad(NULL key)", rc);
		goto out;
	}
	rc = Esys_StartAuthSession(esys, key, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
				   ESYS_TR_NONE, NULL, TPM2_SE_HMAC, &sym, TPM2_ALG_SHA256, &sess);
	if (rc) {
		failed("StartAuthSession(salted to the NULL key)", rc);
		goto out;
	}
	rc = Esys_FlushContext(esys, key);
	key = ESYS_TR_NONE;
	if (rc) {
		failed("FlushContext(NULL key)", rc);
		goto out;
	}
	rc = Esys_TRSess_SetAttributes(esys, sess, TPMA_SESSION_CONTINUESESSION, 0xff);
	if (!rc)
		rc = Esys_PCR_Extend(esys, ESYS_TR_PCR0 + PCR_INDEX, sess, ESYS_TR_NONE,
				     ESYS_TR_NONE, &digests);
	if (rc) {
		failed("PCR_Extend under the HMAC session", rc);
		goto out;
	}
	memcpy(chain, expect, 32);
	memcpy(chain + 32, digests.digests[0].digest.sha256, 32);
	SHA256(chain, sizeof(chain), expect);
	ret = 0;
out:
	if (key != ESYS_TR_NONE)
		Esys_FlushContext(esys, key);
	if (sess != ESYS_TR_NONE && Esys_FlushContext(esys, sess) && !ret)
		ret = failed("FlushContext(session)", 0);
	return ret;
}

static int read_pcr(uint8_t out[32])
{
	TPML_PCR_SELECTION sel = {.count = 1};
	TPML_DIGEST *values = NULL;
	TSS2_RC rc = 0;
	int ret = -1;

	sel.pcrSelections[0].hash = TPM2_ALG_SHA256;
	sel.pcrSelections[0].sizeofSelect = 3;
	sel.pcrSelections[0].pcrSelect[PCR_INDEX / 8] = 1 << (PCR_INDEX % 8);
	rc = Esys_PCR_Read(esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &sel, NULL, NULL,
			   &values);
	if (rc)
		return failed("PCR_Read", rc);
	if (values->count == 1 && values->digests[0].size == 32) {
		memcpy(out, values->digests[0].buffer, 32);
		ret = 0;
	}
	Esys_Free(values);
	return ret;
}

/* swtpm CMD_INIT on the control channel: an orderly power cycle. */
static int power_cycle(const char *data_path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	uint8_t req[8] = {0, 0, 0, SWTPM_CMD_INIT, 0, 0, 0, 0};
	uint8_t rsp[4] = {1};
	int fd = -1;
	int ret = -1;

	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s.ctrl", data_path) >=
	    (int)sizeof(sa.sun_path))
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    write(fd, req, sizeof(req)) != (ssize_t)sizeof(req) ||
	    read(fd, rsp, sizeof(rsp)) != (ssize_t)sizeof(rsp))
		goto out;
	ret = rsp[0] | rsp[1] | rsp[2] | rsp[3] ? -1 : 0;
out:
	if (fd >= 0)
		close(fd);
	if (ret)
		fprintf(stderr, "FAIL: swtpm CMD_INIT on %s.ctrl\n", data_path);
	return ret;
}

static bool same_name(const TPM2B_NAME *a, const TPM2B_NAME *b)
{
	return a->size == b->size && !memcmp(a->name, b->name, a->size);
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The power-cycle half; saved is the NULL key's context of this boot. */
static int power_semantics(const char *path, TPMS_CONTEXT **saved, TPM2B_NAME **name)
{
	TPM2B_NAME *name2 = NULL;
	TPM2B_NAME *name3 = NULL;
	ESYS_TR key = ESYS_TR_NONE;
	TSS2_RC rc = 0;
	int ret = -1;

	/* TPM Reset: new NULL seed and proof. */
	if (power_cycle(path))
		goto out;
	rc = Esys_ContextLoad(esys, *saved, &key);
	if (!rc) {
		fprintf(stderr, "FAIL: a NULL-hierarchy context loaded after a TPM Reset\n");
		goto out;
	}
	if (create_null_primary(&key, &name2))
		goto out;
	if (same_name(*name, name2)) {
		fprintf(stderr, "FAIL: the NULL primary kept its name across a TPM Reset\n");
		goto out;
	}
	Esys_Free(*saved);
	*saved = NULL;
	rc = Esys_ContextSave(esys, key, saved);
	if (rc || Esys_FlushContext(esys, key)) {
		failed("ContextSave/FlushContext", rc);
		goto out;
	}
	key = ESYS_TR_NONE;
	/* TPM Resume: Shutdown(STATE), power cycle, the TA's Startup(STATE). */
	rc = Esys_Shutdown(esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_SU_STATE);
	if (rc) {
		failed("Shutdown(STATE)", rc);
		goto out;
	}
	if (power_cycle(path))
		goto out;
	rc = Esys_ContextLoad(esys, *saved, &key);
	if (rc) {
		failed("ContextLoad of the NULL key after a TPM Resume", rc);
		goto out;
	}
	if (Esys_TR_GetName(esys, key, &name3) || !same_name(name2, name3)) {
		fprintf(stderr, "FAIL: the NULL key's name changed across a TPM Resume\n");
		goto out;
	}
	fprintf(stderr, "power cycles: Reset renews the NULL seed, Resume keeps it\n");
	ret = 0;
out:
	if (key != ESYS_TR_NONE)
		Esys_FlushContext(esys, key);
	Esys_Free(name2);
	Esys_Free(name3);
	return ret;
}

int main(int argc, char **argv)
{
	const char *conf = getenv("SWTEE_TPM_SWTPM_TCTI");
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : DEFAULT_EXTENDS;
	TPMS_CONTEXT *saved = NULL;
	TPM2B_NAME *name = NULL;
	ESYS_TR key = ESYS_TR_NONE;
	uint8_t expect[32] = {0};
	uint8_t got[32] = {0};
	double t0 = 0;
	TSS2_RC rc = 0;
	int ret = 1;

	if (!conf || strncmp(conf, "swtpm:path=", 11) != 0) {
		fprintf(stderr, "run under swtee run --tpm (SWTEE_TPM_SWTPM_TCTI)\n");
		return 2;
	}
	rc = Tss2_TctiLdr_Initialize(conf, &tcti);
	if (!rc)
		rc = Esys_Initialize(&esys, tcti, NULL);
	if (rc) {
		failed("connecting", rc);
		goto out;
	}
	/* PCR 16 is resettable: start from zero, as expect does. */
	rc = Esys_PCR_Reset(esys, ESYS_TR_PCR0 + PCR_INDEX, ESYS_TR_PASSWORD, ESYS_TR_NONE,
			    ESYS_TR_NONE);
	if (rc) {
		failed("PCR_Reset", rc);
		goto out;
	}
	if (create_null_primary(&key, &name))
		goto out;
	rc = Esys_ContextSave(esys, key, &saved);
	if (!rc)
		rc = Esys_FlushContext(esys, key);
	if (rc) {
		failed("ContextSave/FlushContext of the NULL key", rc);
		goto out;
	}
	t0 = now_us();
	for (uint32_t i = 0; i < n; i++)
		if (extend_once(saved, i, expect))
			goto out;
	fprintf(stderr, "%u extends under salted HMAC sessions: %.0f us each\n", n,
		n ? (now_us() - t0) / n : 0);
	if (read_pcr(got) || memcmp(got, expect, sizeof(got)) != 0) {
		fprintf(stderr, "FAIL: PCR %d is not the chain of the extends\n", PCR_INDEX);
		goto out;
	}
	if (power_semantics(conf + 11, &saved, &name))
		goto out;
	fprintf(stderr, "ok\n");
	ret = 0;
out:
	Esys_Free(saved);
	Esys_Free(name);
	if (esys)
		Esys_Finalize(&esys);
	if (tcti)
		Tss2_TctiLdr_Finalize(&tcti);
	return ret;
}
