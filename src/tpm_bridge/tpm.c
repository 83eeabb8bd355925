/*
 * The bridge's session to the fTPM TA. Commands travel in one shared memory
 * block of the session's own, as the Linux tpm_ftpm_tee driver does: the
 * command at offset 0, the response at FRAME_TPM_MAX. The response is
 * copied out and checked before anyone reads it.
 */
#include <string.h>

#include <tee_client_api.h>

#include "bridge.h"
#include "ftpm_ta.h"
#include "log.h"
#include "secure.h"

struct tpm_link {
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_SharedMemory shm;
	bool ctx_open;
	bool sess_open;
	bool shm_alloc;
	bool manual_startup;
};

/* The TA's TEE_ERROR_CORRUPT_OBJECT, which the Client API has no name for. */
#define TA_ERROR_CORRUPT_OBJECT 0xF0100001u

static struct tpm_link link;

static const TEEC_UUID ftpm_uuid = TA_FTPM_UUID;

bool tpm_header_get(struct buf_reader *r, struct tpm_header *h)
{
	bool ok = buf_get_be16(r, &h->tag);

	ok &= buf_get_be32(r, &h->size);
	ok &= buf_get_be32(r, &h->code);
	if (!ok)
		memset(h, 0, sizeof(*h));
	return ok;
}

bool tpm_header_put(struct buf_writer *w, const struct tpm_header *h)
{
	bool ok = buf_put_be16(w, h->tag);

	ok &= buf_put_be32(w, h->size);
	ok &= buf_put_be32(w, h->code);
	return ok;
}

struct tpm_header tpm_header_of(const uint8_t *p, size_t len)
{
	struct buf_reader r;
	struct tpm_header h;

	buf_reader_init(&r, p, len);
	tpm_header_get(&r, &h);
	return h;
}

/* A bare TPM response carrying only a response code. */
static void error_response(uint32_t rc, uint8_t *rsp, size_t *rsp_len)
{
	const struct tpm_header h = {
	    .tag = TPM_ST_NO_SESSIONS, .size = TPM_HEADER_SIZE, .code = rc};
	struct buf_writer w;

	buf_writer_init(&w, rsp, TPM_HEADER_SIZE);
	tpm_header_put(&w, &h);
	*rsp_len = buf_written(&w);
}

static void link_close(void)
{
	if (link.shm_alloc)
		TEEC_ReleaseSharedMemory(&link.shm);
	if (link.sess_open)
		TEEC_CloseSession(&link.sess);
	if (link.ctx_open)
		TEEC_FinalizeContext(&link.ctx);
	link.shm_alloc = link.sess_open = link.ctx_open = false;
}

static TEEC_Result invoke_flags(uint32_t cmd, uint32_t flags)
{
	TEEC_Operation op;
	uint32_t origin = 0;

	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE);
	op.params[0].value.a = flags;
	return TEEC_InvokeCommand(&link.sess, cmd, &op, &origin);
}

static int link_open(void)
{
	TEEC_Result res = TEEC_ERROR_GENERIC;
	uint32_t origin = 0;

	res = TEEC_InitializeContext(NULL, &link.ctx);
	if (res != TEEC_SUCCESS) {
		log_error("cannot reach the TEE (is swteed running, SWTEE_SOCKET set?): 0x%08x",
			  res);
		goto fail;
	}
	link.ctx_open = true;
	res = TEEC_OpenSession(&link.ctx, &link.sess, &ftpm_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL,
			       &origin);
	if (res != TEEC_SUCCESS) {
		if (res == TEEC_ERROR_BUSY)
			log_error("the fTPM has a client already (another swtee-tpm?)");
		else if (res == TEEC_ERROR_ITEM_NOT_FOUND)
			log_error("the fTPM TA is not installed (built without libtpms-dev?)");
		else if (res == TA_ERROR_CORRUPT_OBJECT || res == TEEC_ERROR_SECURITY ||
			 res == TEEC_ERROR_STORAGE_NOT_AVAILABLE)
			log_error("the fTPM's state cannot be read (integrity or rollback "
				  "check failed, or no storage): 0x%08x (origin %u)",
				  res, origin);
		else
			log_error("cannot open the fTPM TA: 0x%08x (origin %u)", res, origin);
		goto fail;
	}
	link.sess_open = true;
	link.shm.size = 2 * FRAME_TPM_MAX;
	link.shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	res = TEEC_AllocateSharedMemory(&link.ctx, &link.shm);
	if (res != TEEC_SUCCESS) {
		log_error("cannot allocate shared memory: 0x%08x", res);
		goto fail;
	}
	link.shm_alloc = true;
	res = invoke_flags(TA_FTPM_POWER_ON, link.manual_startup ? FTPM_POWER_MANUAL_STARTUP : 0);
	if (res != TEEC_SUCCESS) {
		log_error("the fTPM does not power on: 0x%08x", res);
		goto fail;
	}
	return 0;
fail:
	link_close();
	return -1;
}

int tpm_open(bool manual_startup)
{
	link.manual_startup = manual_startup;
	return link_open();
}

void tpm_close(void)
{
	if (link.sess_open && invoke_flags(TA_FTPM_POWER_OFF, FTPM_POWER_ORDERLY) != TEEC_SUCCESS)
		log_error("the fTPM did not power off in order");
	link_close();
}

/* The TA instance is gone (crashed, or the TEE restarted): a new session, a new boot. */
static bool link_lost(TEEC_Result res, uint32_t origin)
{
	return (res == TEEC_ERROR_TARGET_DEAD || res == TEEC_ERROR_COMMUNICATION) &&
	       origin != TEEC_ORIGIN_TRUSTED_APP;
}

static int relink(void)
{
	log_error("the fTPM TA is gone; opening a new session (a new TPM boot)");
	link_close();
	rm_reset();
	return link_open();
}

int tpm_execute(const uint8_t *cmd, size_t len, uint8_t locality, uint8_t *rsp, size_t *rsp_len)
{
	TEEC_Operation op;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	uint32_t origin = 0;
	uint8_t *shm = NULL;
	size_t n = 0;

	*rsp_len = 0;
	if (!link.sess_open && relink())
		return -1;
	/* The TA takes a whole TPM header at least; the TPM itself judges the rest. */
	if (len < TPM_HEADER_SIZE || len > FRAME_TPM_MAX || tpm_header_of(cmd, len).size != len) {
		error_response(TPM_RC_COMMAND_SIZE, rsp, rsp_len);
		return 0;
	}
	shm = link.shm.buffer;
	memcpy(shm, cmd, len);
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INPUT, TEEC_MEMREF_PARTIAL_INOUT,
					 TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].memref.parent = &link.shm;
	op.params[0].memref.offset = 0;
	op.params[0].memref.size = len;
	op.params[1].memref.parent = &link.shm;
	op.params[1].memref.offset = FRAME_TPM_MAX;
	op.params[1].memref.size = FRAME_TPM_MAX;
	op.params[2].value.a = locality;
	res = TEEC_InvokeCommand(&link.sess, TA_FTPM_SUBMIT_COMMAND, &op, &origin);
	/* Commands and responses carry authorisations and unsealed data: wiped once used. */
	secure_wipe(shm, len);
	if (link_lost(res, origin)) {
		error_response(TPM_RC_FAILURE, rsp, rsp_len);
		return relink();
	}
	if (res != TEEC_SUCCESS) {
		/* Off (TEEC_ERROR_BAD_STATE) or refused: the TPM's failure answer. */
		log_debug("the fTPM refused a command: 0x%08x", res);
		error_response(TPM_RC_FAILURE, rsp, rsp_len);
		return 0;
	}
	n = op.params[1].memref.size;
	if (n < TPM_HEADER_SIZE || n > FRAME_TPM_MAX) {
		error_response(TPM_RC_FAILURE, rsp, rsp_len);
		return 0;
	}
	/* Copy first, then check the copy. */
	memcpy(rsp, shm + FRAME_TPM_MAX, n);
	secure_wipe(shm + FRAME_TPM_MAX, n);
	if (tpm_header_of(rsp, n).size != n) {
		error_response(TPM_RC_FAILURE, rsp, rsp_len);
		return 0;
	}
	*rsp_len = n;
	return 0;
}

static int invoke_simple(uint32_t cmd, uint32_t types, TEEC_Operation *op)
{
	TEEC_Operation none;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	uint32_t origin = 0;

	if (!op) {
		memset(&none, 0, sizeof(none));
		op = &none;
	}
	op->paramTypes = types;
	if (!link.sess_open && relink())
		return -1;
	res = TEEC_InvokeCommand(&link.sess, cmd, op, &origin);
	/* A platform signal means the same to the new TPM: give it again. */
	if (link_lost(res, origin)) {
		if (relink())
			return -1;
		res = TEEC_InvokeCommand(&link.sess, cmd, op, &origin);
	}
	return res == TEEC_SUCCESS ? 0 : -1;
}

int tpm_power_on(void)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.params[0].value.a = link.manual_startup ? FTPM_POWER_MANUAL_STARTUP : 0;
	return invoke_simple(TA_FTPM_POWER_ON,
			     TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE),
			     &op);
}

int tpm_power_off(bool orderly)
{
	TEEC_Operation op;

	rm_reset();
	memset(&op, 0, sizeof(op));
	op.params[0].value.a = orderly ? FTPM_POWER_ORDERLY : 0;
	return invoke_simple(TA_FTPM_POWER_OFF,
			     TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE),
			     &op);
}

int tpm_hash_start(void)
{
	return invoke_simple(TA_FTPM_HASH_START, 0, NULL);
}

int tpm_hash_data(const uint8_t *data, size_t len)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.params[0].tmpref.buffer = (void *)data;
	op.params[0].tmpref.size = len;
	return invoke_simple(
	    TA_FTPM_HASH_DATA,
	    TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE), &op);
}

int tpm_hash_end(void)
{
	return invoke_simple(TA_FTPM_HASH_END, 0, NULL);
}

int tpm_established_get(bool *set)
{
	TEEC_Operation op;
	int r = 0;

	memset(&op, 0, sizeof(op));
	r = invoke_simple(TA_FTPM_GET_ESTABLISHED,
			  TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE),
			  &op);
	*set = !r && op.params[0].value.a;
	return r;
}

int tpm_established_reset(uint8_t locality)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.params[0].value.a = locality;
	return invoke_simple(TA_FTPM_RESET_ESTABLISHED,
			     TEEC_PARAM_TYPES(TEEC_VALUE_INPUT, TEEC_NONE, TEEC_NONE, TEEC_NONE),
			     &op);
}
