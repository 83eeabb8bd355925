/*
 * libtss2-tcti-swtee: tpm2-tss's TCTI interface (tss2_tcti.h) over a
 * session to the fTPM TA. `tpm2_getrandom -T swtee 8`, or
 * Tss2_TctiLdr_Initialize("swtee", ...), sends each command to the TA as
 * swtee-tpm does, in one shared memory block of the session's own (the
 * command at offset 0, the response at FTPM_MAX_COMMAND), with no bridge
 * process in between.
 *
 * It is the TPM as the TA runs it, as the kernel's /dev/tpm0 is: no
 * resource manager (a program flushes what it loads), and one client at a
 * time, since the TA takes one session; while swtee-tpm or another program
 * holds it, initialisation fails with TSS2_TCTI_RC_IO_ERROR and says so.
 * Closing does not power the TPM off: it keeps running, PCRs and sessions
 * included, for the next program, as on a machine.
 */
#include <stdio.h>
#include <string.h>

#include <tee_client_api.h>
#include <tss2/tss2_tcti.h>
#include <tss2_tcti_swtee.h>

#include "ftpm_ta.h"
#include "secure.h"

#define TCTI_SWTEE_MAGIC 0x7377746565547063ull /* "swteeTpc" */
#define TPM_HEADER_SIZE 10

enum tcti_state {
	TCTI_READY,    /* a command may be sent */
	TCTI_RESPONSE, /* its response waits to be received */
};

struct tcti_swtee {
	TSS2_TCTI_CONTEXT_COMMON_V2 common;
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_SharedMemory shm;
	enum tcti_state state;
	uint8_t locality;
	size_t rsp_len;
	uint8_t rsp[FTPM_MAX_RESPONSE];
};

static const TEEC_UUID ftpm_uuid = TA_FTPM_UUID;

static struct tcti_swtee *context_of(TSS2_TCTI_CONTEXT *ctx)
{
	struct tcti_swtee *t = (struct tcti_swtee *)ctx;

	return t && t->common.v1.magic == TCTI_SWTEE_MAGIC ? t : NULL;
}

/* The size a TPM header says its command or response has. */
static uint32_t header_size(const uint8_t *p)
{
	return (uint32_t)p[2] << 24 | (uint32_t)p[3] << 16 | (uint32_t)p[4] << 8 | p[5];
}

static TSS2_RC transmit(TSS2_TCTI_CONTEXT *ctx, size_t size, const uint8_t *command)
{
	struct tcti_swtee *t = context_of(ctx);
	uint8_t *shm = NULL;
	TEEC_Operation op;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	uint32_t origin = 0;
	size_t n = 0;

	if (!t)
		return TSS2_TCTI_RC_BAD_CONTEXT;
	if (!command)
		return TSS2_TCTI_RC_BAD_REFERENCE;
	if (t->state != TCTI_READY)
		return TSS2_TCTI_RC_BAD_SEQUENCE;
	if (size < TPM_HEADER_SIZE || size > FTPM_MAX_COMMAND || header_size(command) != size)
		return TSS2_TCTI_RC_BAD_VALUE;
	shm = t->shm.buffer;
	memcpy(shm, command, size);
	memset(&op, 0, sizeof(op));
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_PARTIAL_INPUT, TEEC_MEMREF_PARTIAL_INOUT,
					 TEEC_VALUE_INPUT, TEEC_NONE);
	op.params[0].memref.parent = &t->shm;
	op.params[0].memref.size = size;
	op.params[1].memref.parent = &t->shm;
	op.params[1].memref.offset = FTPM_MAX_COMMAND;
	op.params[1].memref.size = FTPM_MAX_RESPONSE;
	op.params[2].value.a = t->locality;
	res = TEEC_InvokeCommand(&t->sess, TA_FTPM_SUBMIT_COMMAND, &op, &origin);
	/* Commands and responses carry authorisations and unsealed data: wiped once used. */
	secure_wipe(shm, size);
	n = op.params[1].memref.size;
	if (res != TEEC_SUCCESS || n < TPM_HEADER_SIZE || n > FTPM_MAX_RESPONSE) {
		secure_wipe(shm + FTPM_MAX_COMMAND, FTPM_MAX_RESPONSE);
		return res != TEEC_SUCCESS ? TSS2_TCTI_RC_IO_ERROR
					   : TSS2_TCTI_RC_MALFORMED_RESPONSE;
	}
	/* Copied first, then checked: the copy is what the caller gets. */
	memcpy(t->rsp, shm + FTPM_MAX_COMMAND, n);
	secure_wipe(shm + FTPM_MAX_COMMAND, n);
	if (header_size(t->rsp) != n) {
		secure_wipe(t->rsp, n);
		return TSS2_TCTI_RC_MALFORMED_RESPONSE;
	}
	t->rsp_len = n;
	t->state = TCTI_RESPONSE;
	return TSS2_RC_SUCCESS;
}

/* The response is already here: any timeout is met. */
static TSS2_RC receive(TSS2_TCTI_CONTEXT *ctx, size_t *size, uint8_t *response, int32_t timeout)
{
	struct tcti_swtee *t = context_of(ctx);

	(void)timeout;
	if (!t)
		return TSS2_TCTI_RC_BAD_CONTEXT;
	if (!size)
		return TSS2_TCTI_RC_BAD_REFERENCE;
	if (t->state != TCTI_RESPONSE)
		return TSS2_TCTI_RC_BAD_SEQUENCE;
	if (!response) { /* the size it needs */
		*size = t->rsp_len;
		return TSS2_RC_SUCCESS;
	}
	if (*size < t->rsp_len) {
		*size = t->rsp_len;
		return TSS2_TCTI_RC_INSUFFICIENT_BUFFER;
	}
	memcpy(response, t->rsp, t->rsp_len);
	secure_wipe(t->rsp, t->rsp_len);
	*size = t->rsp_len;
	t->state = TCTI_READY;
	return TSS2_RC_SUCCESS;
}

static void finalize(TSS2_TCTI_CONTEXT *ctx)
{
	struct tcti_swtee *t = context_of(ctx);

	if (!t)
		return;
	TEEC_ReleaseSharedMemory(&t->shm);
	TEEC_CloseSession(&t->sess);
	TEEC_FinalizeContext(&t->ctx);
	secure_wipe(t, sizeof(*t));
}

static TSS2_RC cancel(TSS2_TCTI_CONTEXT *ctx)
{
	return context_of(ctx) ? TSS2_TCTI_RC_NOT_IMPLEMENTED : TSS2_TCTI_RC_BAD_CONTEXT;
}

static TSS2_RC get_poll_handles(TSS2_TCTI_CONTEXT *ctx, TSS2_TCTI_POLL_HANDLE *handles,
				size_t *num_handles)
{
	(void)handles;
	(void)num_handles;
	return context_of(ctx) ? TSS2_TCTI_RC_NOT_IMPLEMENTED : TSS2_TCTI_RC_BAD_CONTEXT;
}

/* The TA knows localities 0 to 4. */
static TSS2_RC set_locality(TSS2_TCTI_CONTEXT *ctx, uint8_t locality)
{
	struct tcti_swtee *t = context_of(ctx);

	if (!t)
		return TSS2_TCTI_RC_BAD_CONTEXT;
	if (t->state != TCTI_READY)
		return TSS2_TCTI_RC_BAD_SEQUENCE;
	if (locality > 4)
		return TSS2_TCTI_RC_BAD_VALUE;
	t->locality = locality;
	return TSS2_RC_SUCCESS;
}

static TSS2_RC make_sticky(TSS2_TCTI_CONTEXT *ctx, TPM2_HANDLE *handle, uint8_t sticky)
{
	(void)handle;
	(void)sticky;
	return context_of(ctx) ? TSS2_TCTI_RC_NOT_IMPLEMENTED : TSS2_TCTI_RC_BAD_CONTEXT;
}

static const char *open_failure(TEEC_Result res)
{
	switch (res) {
	case TEEC_ERROR_BUSY:
		return "the fTPM is in use by another program (swtee-tpm?): it takes one at a time";
	case TEEC_ERROR_ITEM_NOT_FOUND:
		return "no fTPM TA is installed";
	default:
		return "the fTPM TA did not open";
	}
}

static TSS2_RC init(TSS2_TCTI_CONTEXT *ctx, size_t *size, const char *config)
{
	struct tcti_swtee *t = (struct tcti_swtee *)ctx;
	TEEC_Result res = TEEC_ERROR_GENERIC;
	uint32_t origin = 0;

	if (!size)
		return TSS2_TCTI_RC_BAD_VALUE;
	if (!ctx) {
		*size = sizeof(*t);
		return TSS2_RC_SUCCESS;
	}
	if (*size < sizeof(*t))
		return TSS2_TCTI_RC_INSUFFICIENT_BUFFER;
	if (config && *config) {
		fprintf(stderr,
			"tcti-swtee: takes no configuration (the TEE is SWTEE_SOCKET's "
			"or the default), not \"%s\"\n",
			config);
		return TSS2_TCTI_RC_BAD_VALUE;
	}
	memset(t, 0, sizeof(*t));
	res = TEEC_InitializeContext(NULL, &t->ctx);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "tcti-swtee: no TEE to reach (0x%08x)\n", res);
		return TSS2_TCTI_RC_NO_CONNECTION;
	}
	res =
	    TEEC_OpenSession(&t->ctx, &t->sess, &ftpm_uuid, TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);
	if (res != TEEC_SUCCESS) {
		fprintf(stderr, "tcti-swtee: %s (0x%08x)\n", open_failure(res), res);
		TEEC_FinalizeContext(&t->ctx);
		return TSS2_TCTI_RC_IO_ERROR;
	}
	t->shm.size = FTPM_MAX_COMMAND + FTPM_MAX_RESPONSE;
	t->shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	res = TEEC_AllocateSharedMemory(&t->ctx, &t->shm);
	if (res != TEEC_SUCCESS) {
		TEEC_CloseSession(&t->sess);
		TEEC_FinalizeContext(&t->ctx);
		return TSS2_TCTI_RC_MEMORY;
	}
	t->common.v1.magic = TCTI_SWTEE_MAGIC;
	t->common.v1.version = 2;
	t->common.v1.transmit = transmit;
	t->common.v1.receive = receive;
	t->common.v1.finalize = finalize;
	t->common.v1.cancel = cancel;
	t->common.v1.getPollHandles = get_poll_handles;
	t->common.v1.setLocality = set_locality;
	t->common.makeSticky = make_sticky;
	t->state = TCTI_READY;
	return TSS2_RC_SUCCESS;
}

static const TSS2_TCTI_INFO info = {
    .version = 2,
    .name = "tcti-swtee",
    .description = "The swtee fTPM TA, through libteec",
    .config_help = "No configuration: the TEE is the one libteec reaches (SWTEE_SOCKET)",
    .init = init,
};

__attribute__((visibility("default"))) const TSS2_TCTI_INFO *Tss2_Tcti_Info(void)
{
	return &info;
}

/* As tpm2-tss's own TCTIs export it, for programs that link the TCTI directly. */
__attribute__((visibility("default"))) TSS2_RC
Tss2_Tcti_Swtee_Init(TSS2_TCTI_CONTEXT *ctx, size_t *size, const char *config)
{
	return init(ctx, size, config);
}
