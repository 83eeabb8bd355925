/*
 * The request framing of the wire protocols swtee-tpm serves, as pure
 * parsers over the bytes a peer sent (every peer is hostile):
 *
 *   mssim command port   UINT32 code + payload: SEND_COMMAND (8) {UINT8
 *                        locality, UINT32 size, size bytes}, HASH_START (5),
 *                        HASH_DATA (6) {UINT32 n, n bytes}, HASH_END (7),
 *                        REMOTE_HANDSHAKE (15) {UINT32}, SET_ALTERNATIVE_RESULT
 *                        (16) {UINT32}, SESSION_END (20), STOP (21)
 *   mssim platform port  UINT32 code, no payload: 1-4, 9-14, 17, 18, 20, 21
 *   swtpm data channel   a raw TPM 2.0 command (tag 0x8001/0x8002, size), or
 *                        mssim's SEND_COMMAND as swtpm also takes it
 *   swtpm control        UINT32 code + the payload of that code (tpm_ioctl.h);
 *                        SET_LOCALITY and RESET_TPMESTABLISHED carry UINT8
 *                        locality, alone (the swtpm TCTI) or padded to 4
 *                        bytes (QEMU, the C struct): the padded form when 3
 *                        zero bytes follow it, as a peer waits for the reply
 *   VM control           the same as QEMU sends it: those two padded always
 *
 * All integers are big-endian. Everything is read through the bounded
 * reader; a request never exceeds FRAME_MAX bytes, so a peer's buffer never
 * grows beyond that.
 */
#ifndef SWTEE_TPM_FRAME_H
#define SWTEE_TPM_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest TPM command and response (the fTPM TA's). */
#define FRAME_TPM_MAX 4096
/* The largest chunk of H-CRTM data hashed in one request. */
#define FRAME_HASH_MAX 4096
/* The largest request: a prefixed TPM command (4 + 1 + 4 + FRAME_TPM_MAX). */
#define FRAME_MAX (FRAME_TPM_MAX + 16)

enum frame_proto {
	FRAME_MSSIM_TPM,
	FRAME_MSSIM_PLATFORM,
	FRAME_SWTPM_DATA,
	FRAME_SWTPM_CTRL,
	FRAME_VM_CTRL,
};

/* mssim codes (the reference simulator's TpmTcpProtocol.h) */
#define MSSIM_POWER_ON 1
#define MSSIM_POWER_OFF 2
#define MSSIM_PHYS_PRES_ON 3
#define MSSIM_PHYS_PRES_OFF 4
#define MSSIM_HASH_START 5
#define MSSIM_HASH_DATA 6
#define MSSIM_HASH_END 7
#define MSSIM_SEND_COMMAND 8
#define MSSIM_CANCEL_ON 9
#define MSSIM_CANCEL_OFF 10
#define MSSIM_NV_ON 11
#define MSSIM_NV_OFF 12
#define MSSIM_KEY_CACHE_ON 13
#define MSSIM_KEY_CACHE_OFF 14
#define MSSIM_REMOTE_HANDSHAKE 15
#define MSSIM_SET_ALTERNATIVE_RESULT 16
#define MSSIM_RESET 17
#define MSSIM_RESTART 18
#define MSSIM_SESSION_END 20
#define MSSIM_STOP 21

/* swtpm control codes (swtpm's tpm_ioctl.h) */
#define SWTPM_GET_CAPABILITY 0x01
#define SWTPM_INIT 0x02
#define SWTPM_SHUTDOWN 0x03
#define SWTPM_GET_TPMESTABLISHED 0x04
#define SWTPM_SET_LOCALITY 0x05
#define SWTPM_HASH_START 0x06
#define SWTPM_HASH_DATA 0x07
#define SWTPM_HASH_END 0x08
#define SWTPM_CANCEL_TPM_CMD 0x09
#define SWTPM_STORE_VOLATILE 0x0a
#define SWTPM_RESET_TPMESTABLISHED 0x0b
#define SWTPM_GET_STATEBLOB 0x0c
#define SWTPM_SET_STATEBLOB 0x0d
#define SWTPM_STOP 0x0e
#define SWTPM_GET_CONFIG 0x0f
#define SWTPM_SET_DATAFD 0x10
#define SWTPM_SET_BUFFERSIZE 0x11
#define SWTPM_GET_INFO 0x12
#define SWTPM_LOCK_STORAGE 0x13

/* The code frame_parse gives a TPM command on the swtpm data channel. */
#define FRAME_TPM_COMMAND MSSIM_SEND_COMMAND

/* One request, pointing into the bytes it was parsed from. */
struct frame {
	uint32_t code;	     /* the protocol's code; FRAME_TPM_COMMAND for a TPM command */
	bool prefixed;	     /* a TPM command in mssim's SEND_COMMAND form */
	uint8_t locality;    /* of a prefixed TPM command */
	uint32_t arg;	     /* the UINT32 (or UINT8) argument of a request that has one */
	const uint8_t *data; /* the TPM command, or the data to hash */
	size_t len;
	bool last; /* the stream cannot be followed past it: answer, then close */
};

enum frame_status {
	FRAME_BAD = -1,	 /* not a request this bridge takes: drop the peer */
	FRAME_MORE = 0,	 /* a valid beginning: wait for more bytes */
	FRAME_WHOLE = 1, /* a whole request */
};

/*
 * Parses the request at the start of p[0..len). FRAME_WHOLE: *f describes it
 * and *used is its length; FRAME_MORE: the bytes so far begin a request no
 * longer than FRAME_MAX; FRAME_BAD otherwise (an unknown code, a length
 * above its bound, a TPM command whose header is not TPM 2.0's). A swtpm
 * control code this bridge does not know, or one whose payload it does not
 * take (SET_STATEBLOB), is a whole request of its code alone
 * with f->last set, so that it can be refused before the peer is dropped,
 * as swtpm refuses it. Clears *f and *used first.
 */
enum frame_status frame_parse(enum frame_proto proto, const uint8_t *p, size_t len, struct frame *f,
			      size_t *used);

#endif
