/*
 * The TPM's platform: libtpms set up with this TA's callbacks, power on and
 * off with the startup a firmware does, and the command path.
 *
 * Power-cycle semantics, as on a machine with a firmware TPM:
 *   - power-on: _TPM_Init (TPMLIB_MainInit: NV loaded from trusted storage,
 *     or a TPM manufactured on first use), then TPM2_Startup(STATE), which
 *     resumes (TPM Resume) when the last shutdown was a Shutdown(STATE),
 *     else TPM2_Startup(CLEAR) (TPM Reset: new NULL seed and proof, PCRs
 *     reset; or TPM Restart after a Shutdown(STATE));
 *   - orderly power-off: TPM2_Shutdown(CLEAR) unless the last command was a
 *     TPM2_Shutdown a client sent (which then stands), then off;
 *   - a power loss (the process ends, or a plain power-off) leaves the NV as
 *     the last command committed it, and the next Startup is a TPM Reset
 *     after a non-orderly shutdown, as on hardware.
 */
#include <stdlib.h>
#include <string.h>

#include <libtpms/tpm_error.h>
#include <libtpms/tpm_library.h>
#include <libtpms/tpm_tis.h>
#include <trace.h>

#include "buf.h"
#include "ftpm.h"

struct ftpm_state {
	bool set_up;
	bool on;
	uint8_t locality; /* of the command libtpms runs now */
	uint32_t last_cc; /* the last command and whether it succeeded */
	bool last_ok;
	unsigned char *rsp; /* libtpms' response buffer, kept between calls */
	uint32_t rsp_cap;
	uint32_t rsp_len; /* of the last response */
};

static struct ftpm_state ftpm;

/* The size and the command or response code in the TPM header of p[0..len); 0 without one. */
static void header_get(const uint8_t *p, uint32_t len, uint32_t *size, uint32_t *code)
{
	struct buf_reader r;

	buf_reader_init(&r, p, len);
	buf_skip(&r, 2);
	buf_get_be32(&r, size);
	buf_get_be32(&r, code);
}

static TPM_RESULT io_init(void)
{
	return TPM_SUCCESS;
}

static TPM_RESULT io_locality(TPM_MODIFIER_INDICATOR *locality, uint32_t tpm_number)
{
	(void)tpm_number;
	*locality = ftpm.locality;
	return TPM_SUCCESS;
}

static TPM_RESULT io_physical_presence(TPM_BOOL *pp, uint32_t tpm_number)
{
	(void)tpm_number;
	*pp = 0;
	return TPM_SUCCESS;
}

TEE_Result ftpm_setup(void)
{
	static struct libtpms_callbacks cbs = {
	    .sizeOfStruct = sizeof(struct libtpms_callbacks),
	    .tpm_nvram_init = ftpm_nv_init,
	    .tpm_nvram_loaddata = ftpm_nv_load,
	    .tpm_nvram_storedata = ftpm_nv_store,
	    .tpm_nvram_deletename = ftpm_nv_delete,
	    .tpm_io_init = io_init,
	    .tpm_io_getlocality = io_locality,
	    .tpm_io_getphysicalpresence = io_physical_presence,
	};
	TEE_Result res = TEE_SUCCESS;

	if (ftpm.set_up)
		return TEE_SUCCESS;
	res = ftpm_rand_init();
	if (res != TEE_SUCCESS)
		return res;
	if (TPMLIB_ChooseTPMVersion(TPMLIB_TPM_VERSION_2) != TPM_SUCCESS ||
	    TPMLIB_RegisterCallbacks(&cbs) != TPM_SUCCESS) {
		EMSG("libtpms refuses TPM 2.0 or this TA's callbacks");
		return TEE_ERROR_GENERIC;
	}
	ftpm.set_up = true;
	return TEE_SUCCESS;
}

bool ftpm_is_on(void)
{
	return ftpm.on;
}

/* Runs a command on a TPM that is on; returns its response code, or ~0 without one. */
static uint32_t run(uint8_t *cmd, uint32_t len)
{
	uint32_t size = 0;
	uint32_t claimed = 0;
	uint32_t rc = 0;
	uint32_t cmd_size = 0;

	ftpm.rsp_len = 0;
	/* A response is whole: its header's size is the size libtpms gives. */
	if (TPMLIB_Process(&ftpm.rsp, &size, &ftpm.rsp_cap, cmd, len) != TPM_SUCCESS ||
	    size < TPM_HEADER_SIZE || size > ftpm.rsp_cap)
		return ~0u;
	header_get(ftpm.rsp, size, &claimed, &rc);
	if (claimed != size)
		return ~0u;
	ftpm.rsp_len = size;
	/* A command shorter than a header fails: what it would name does not count. */
	header_get(cmd, len, &cmd_size, &ftpm.last_cc);
	ftpm.last_ok = rc == TPM_RC_SUCCESS;
	return rc;
}

/* TPM2_Startup or TPM2_Shutdown of the given type; the response code. */
static uint32_t run_su(uint32_t cc, uint16_t type)
{
	uint8_t cmd[TPM_HEADER_SIZE + 2];
	struct buf_writer w;

	buf_writer_init(&w, cmd, sizeof(cmd));
	buf_put_be16(&w, TPM_ST_NO_SESSIONS);
	buf_put_be32(&w, sizeof(cmd));
	buf_put_be32(&w, cc);
	buf_put_be16(&w, type);
	return run(cmd, (uint32_t)buf_written(&w));
}

TEE_Result ftpm_power_on(uint32_t flags)
{
	TEE_Result res = TEE_ERROR_GENERIC;
	uint32_t rc = 0;

	if (ftpm.on)
		return TEE_SUCCESS;
	ftpm.locality = 0;
	ftpm.last_cc = 0;
	ftpm.last_ok = false;
	(void)ftpm_nv_take_error();
	if (TPMLIB_MainInit() != TPM_SUCCESS) {
		/* Never a blank TPM in place of one whose state failed its checks. */
		res = ftpm_nv_take_error();
		if (res == TEE_SUCCESS)
			res = TEE_ERROR_GENERIC;
		EMSG("the TPM does not power on (NV state: 0x%08x)", res);
		TPMLIB_Terminate();
		return res;
	}
	ftpm.on = true;
	if (flags & FTPM_POWER_MANUAL_STARTUP)
		return TEE_SUCCESS;
	rc = run_su(TPM_CC_STARTUP, TPM_SU_STATE);
	if (rc != TPM_RC_SUCCESS)
		rc = run_su(TPM_CC_STARTUP, TPM_SU_CLEAR);
	if (rc != TPM_RC_SUCCESS && rc != TPM_RC_INITIALIZE)
		EMSG("TPM2_Startup(CLEAR) failed: 0x%03x", rc);
	return TEE_SUCCESS;
}

void ftpm_power_off(uint32_t flags)
{
	uint32_t rc = 0;

	if (!ftpm.on)
		return;
	if ((flags & FTPM_POWER_ORDERLY) && !(ftpm.last_cc == TPM_CC_SHUTDOWN && ftpm.last_ok)) {
		rc = run_su(TPM_CC_SHUTDOWN, TPM_SU_CLEAR);
		/* A TPM never started answers TPM_RC_INITIALIZE: nothing to save. */
		if (rc != TPM_RC_SUCCESS && rc != TPM_RC_INITIALIZE)
			EMSG("TPM2_Shutdown(CLEAR) failed: 0x%03x", rc);
	}
	TPMLIB_Terminate();
	ftpm.on = false;
}

TEE_Result ftpm_execute(uint8_t *cmd, uint32_t len, uint8_t loc, const uint8_t **rsp,
			uint32_t *rsp_len)
{
	*rsp = NULL;
	*rsp_len = 0;
	if (!ftpm.on)
		return TEE_ERROR_BAD_STATE;
	ftpm.locality = loc;
	if (run(cmd, len) == ~0u) {
		EMSG("libtpms gave no response");
		ftpm.locality = 0;
		return TEE_ERROR_GENERIC;
	}
	ftpm.locality = 0;
	*rsp = ftpm.rsp;
	*rsp_len = ftpm.rsp_len;
	return TEE_SUCCESS;
}

static TEE_Result io_result(TPM_RESULT r)
{
	return r == TPM_SUCCESS ? TEE_SUCCESS : TEE_ERROR_BAD_STATE;
}

TEE_Result ftpm_hash_start(void)
{
	if (!ftpm.on)
		return TEE_ERROR_BAD_STATE;
	return io_result(TPM_IO_Hash_Start());
}

TEE_Result ftpm_hash_data(const uint8_t *data, uint32_t len)
{
	if (!ftpm.on)
		return TEE_ERROR_BAD_STATE;
	return io_result(TPM_IO_Hash_Data(data, len));
}

TEE_Result ftpm_hash_end(void)
{
	if (!ftpm.on)
		return TEE_ERROR_BAD_STATE;
	return io_result(TPM_IO_Hash_End());
}

TEE_Result ftpm_established_get(bool *set)
{
	TPM_BOOL v = 0;
	TEE_Result res = TEE_ERROR_BAD_STATE;

	*set = false;
	if (!ftpm.on)
		return res;
	res = io_result(TPM_IO_TpmEstablished_Get(&v));
	*set = v != 0;
	return res;
}

TEE_Result ftpm_established_reset(uint8_t loc)
{
	TEE_Result res = TEE_ERROR_BAD_STATE;

	if (!ftpm.on)
		return res;
	ftpm.locality = loc;
	res = io_result(TPM_IO_TpmEstablished_Reset());
	ftpm.locality = 0;
	return res;
}
