/*
 * The firmware TPM TA's client interface: its UUID (OP-TEE's fTPM's) and
 * commands. TA_FTPM_SUBMIT_COMMAND and TA_FTPM_EMULATE_PPI are OP-TEE's, with
 * OP-TEE's buffer convention, so a client written for that TA (the Linux
 * tpm_ftpm_tee driver) works unchanged. The commands from 0x100 on are
 * swtee's: the platform signals a TPM simulator's host gives (power, H-CRTM
 * hashing, the TPM-established flag), used by the swtee-tpm bridge.
 */
#ifndef FTPM_TA_H
#define FTPM_TA_H

#define TA_FTPM_UUID                                                                               \
	{                                                                                          \
		0xbc50d971, 0xd4c9, 0x42c4,                                                        \
		{                                                                                  \
			0x82, 0xcb, 0x34, 0x3f, 0xb7, 0xf3, 0x78, 0x96                             \
		}                                                                                  \
	}

/* The largest TPM command and response the TA takes and gives. */
#define FTPM_MAX_COMMAND 4096
#define FTPM_MAX_RESPONSE 4096

/*
 * Runs one TPM command.
 *   [0] memref input: the command; its header's commandSize (<= the memref's
 *       size, <= FTPM_MAX_COMMAND) says how many bytes of it count
 *   [1] memref inout: the response is written at its start, and its size set
 *       to the response's (OP-TEE's TA leaves the size alone: a client reads
 *       the responseSize of the header either way)
 *   [2] none, or value input: a = the locality (0..4) of the command (swtee)
 *   [3] none
 * TEE_ERROR_SHORT_BUFFER, with [1]'s size set to what is needed, when the
 * response does not fit; TEE_ERROR_BAD_STATE when the TPM is powered off.
 */
#define TA_FTPM_SUBMIT_COMMAND 0
/* OP-TEE's physical presence interface emulation: not supported here. */
#define TA_FTPM_EMULATE_PPI 1

/*
 * Powers the TPM on, as a platform does. No parameters but an optional
 * value input [0]: a = FTPM_POWER_* flags. Without FTPM_POWER_MANUAL_STARTUP
 * the TA runs TPM2_Startup itself, as OP-TEE's does at its creation:
 * Startup(STATE) when the last shutdown saved the state, else
 * Startup(CLEAR). Powering on a TPM that is on does nothing (as on the
 * reference simulator, where every TCTI sends a power-on). The TA's
 * creation, and a session opened while the TPM is off, power it on so.
 */
#define TA_FTPM_POWER_ON 0x100
/*
 * Powers the TPM off. Optional value input [0]: a = FTPM_POWER_* flags.
 * With FTPM_POWER_ORDERLY the TA first sends TPM2_Shutdown(CLEAR), unless
 * the last command was a successful TPM2_Shutdown, as an OS does before it
 * powers a machine off; without it this is a power loss.
 */
#define TA_FTPM_POWER_OFF 0x101
#define FTPM_POWER_MANUAL_STARTUP (1u << 0)
#define FTPM_POWER_ORDERLY (1u << 1)

/* _TPM_Hash_Start, _TPM_Hash_Data ([0] memref input), _TPM_Hash_End. */
#define TA_FTPM_HASH_START 0x102
#define TA_FTPM_HASH_DATA 0x103
#define TA_FTPM_HASH_END 0x104
/* [0] value output: a = the TPM-established flag. */
#define TA_FTPM_GET_ESTABLISHED 0x105
/* [0] value input: a = the locality (3 or 4) asking to reset the flag. */
#define TA_FTPM_RESET_ESTABLISHED 0x106

#endif
