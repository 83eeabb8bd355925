/* Request framing of the mssim and swtpm protocols: see frame.h. */
#include <string.h>

#include "buf.h"
#include "frame.h"

#define TPM_HEADER_SIZE 10
#define TPM_ST_NO_SESSIONS 0x8001
#define TPM_ST_SESSIONS 0x8002
#define MAX_LOCALITY 4

static enum frame_status u32_arg(struct buf_reader *r, struct frame *f)
{
	return buf_get_be32(r, &f->arg) ? FRAME_WHOLE : FRAME_MORE;
}

static enum frame_status u8_arg(struct buf_reader *r, struct frame *f)
{
	uint8_t v = 0;

	if (!buf_get_u8(r, &v))
		return FRAME_MORE;
	f->arg = v;
	return FRAME_WHOLE;
}

/* UINT32 n, then n <= max bytes. */
static enum frame_status sized(struct buf_reader *r, struct frame *f, size_t max)
{
	uint32_t n = 0;

	if (!buf_get_be32(r, &n))
		return FRAME_MORE;
	if (n > max)
		return FRAME_BAD;
	if (!buf_get_ptr(r, &f->data, n))
		return FRAME_MORE;
	f->len = n;
	return FRAME_WHOLE;
}

/* What follows SEND_COMMAND: UINT8 locality, UINT32 size, the command. */
static enum frame_status prefixed_command(struct buf_reader *r, struct frame *f)
{
	f->code = FRAME_TPM_COMMAND;
	f->prefixed = true;
	if (!buf_get_u8(r, &f->locality))
		return FRAME_MORE;
	if (f->locality > MAX_LOCALITY)
		return FRAME_BAD;
	return sized(r, f, FRAME_TPM_MAX);
}

/* A raw TPM 2.0 command: tag, commandSize (header included), the rest. */
static enum frame_status raw_command(struct buf_reader *r, struct frame *f)
{
	struct buf_reader peek = *r;
	uint16_t tag = 0;
	uint32_t size = 0;

	if (!buf_get_be16(&peek, &tag))
		return FRAME_MORE;
	if (tag != TPM_ST_NO_SESSIONS && tag != TPM_ST_SESSIONS)
		return FRAME_BAD;
	if (!buf_get_be32(&peek, &size))
		return FRAME_MORE;
	if (size < TPM_HEADER_SIZE || size > FRAME_TPM_MAX)
		return FRAME_BAD;
	if (!buf_get_ptr(r, &f->data, size))
		return FRAME_MORE;
	f->code = FRAME_TPM_COMMAND;
	f->len = size;
	return FRAME_WHOLE;
}

static enum frame_status mssim_tpm(struct buf_reader *r, struct frame *f)
{
	if (!buf_get_be32(r, &f->code))
		return FRAME_MORE;
	switch (f->code) {
	case MSSIM_SEND_COMMAND:
		return prefixed_command(r, f);
	case MSSIM_HASH_DATA:
		return sized(r, f, FRAME_HASH_MAX);
	case MSSIM_REMOTE_HANDSHAKE:
	case MSSIM_SET_ALTERNATIVE_RESULT:
		return u32_arg(r, f);
	case MSSIM_HASH_START:
	case MSSIM_HASH_END:
	case MSSIM_SESSION_END:
	case MSSIM_STOP:
		return FRAME_WHOLE;
	default:
		return FRAME_BAD;
	}
}

static enum frame_status mssim_platform(struct buf_reader *r, struct frame *f)
{
	if (!buf_get_be32(r, &f->code))
		return FRAME_MORE;
	switch (f->code) {
	case MSSIM_POWER_ON:
	case MSSIM_POWER_OFF:
	case MSSIM_PHYS_PRES_ON:
	case MSSIM_PHYS_PRES_OFF:
	case MSSIM_CANCEL_ON:
	case MSSIM_CANCEL_OFF:
	case MSSIM_NV_ON:
	case MSSIM_NV_OFF:
	case MSSIM_KEY_CACHE_ON:
	case MSSIM_KEY_CACHE_OFF:
	case MSSIM_RESET:
	case MSSIM_RESTART:
	case MSSIM_SESSION_END:
	case MSSIM_STOP:
		return FRAME_WHOLE;
	default:
		return FRAME_BAD;
	}
}

static enum frame_status swtpm_data(struct buf_reader *r, struct frame *f)
{
	struct buf_reader peek = *r;
	uint8_t first = 0;
	uint32_t code = 0;

	if (!buf_get_u8(&peek, &first))
		return FRAME_MORE;
	/* Both TPM 2.0 tags start with 0x80; mssim's prefix starts with 0x00. */
	if (first == TPM_ST_NO_SESSIONS >> 8)
		return raw_command(r, f);
	if (!buf_get_be32(r, &code))
		return FRAME_MORE;
	if (code != MSSIM_SEND_COMMAND)
		return FRAME_BAD;
	return prefixed_command(r, f);
}

/*
 * UINT8 locality, then for QEMU's struct 3 bytes of padding. On the swtpm
 * control channel both forms come: the padded one when the 3 bytes that
 * follow are zero (a peer sends nothing more before the reply), the bare one
 * when nothing or something else follows.
 */
static enum frame_status locality_arg(struct buf_reader *r, struct frame *f, bool padded)
{
	struct buf_reader pad;
	uint8_t b = 0;
	enum frame_status st = u8_arg(r, f);

	if (st != FRAME_WHOLE || (!padded && !buf_left(r)))
		return st;
	pad = *r;
	for (int i = 0; i < 3; i++) {
		if (!buf_get_u8(&pad, &b))
			return FRAME_MORE;
		if (b && !padded)
			return FRAME_WHOLE; /* the next request's first byte */
	}
	*r = pad;
	return FRAME_WHOLE;
}

static enum frame_status swtpm_ctrl(struct buf_reader *r, struct frame *f, bool vm)
{
	if (!buf_get_be32(r, &f->code))
		return FRAME_MORE;
	switch (f->code) {
	case SWTPM_GET_CAPABILITY:
	case SWTPM_SHUTDOWN:
	case SWTPM_GET_TPMESTABLISHED:
	case SWTPM_HASH_START:
	case SWTPM_HASH_END:
	case SWTPM_CANCEL_TPM_CMD:
	case SWTPM_STORE_VOLATILE:
	case SWTPM_STOP:
	case SWTPM_GET_CONFIG:
	case SWTPM_SET_DATAFD: /* the descriptor comes beside the bytes */
		return FRAME_WHOLE;
	case SWTPM_INIT:
	case SWTPM_SET_BUFFERSIZE:
	case SWTPM_LOCK_STORAGE:
		return u32_arg(r, f);
	case SWTPM_SET_LOCALITY:
	case SWTPM_RESET_TPMESTABLISHED:
		return locality_arg(r, f, vm);
	case SWTPM_HASH_DATA:
		return sized(r, f, FRAME_HASH_MAX);
	case SWTPM_GET_STATEBLOB: /* state_flags, type, offset */
		return buf_skip(r, 12) ? FRAME_WHOLE : FRAME_MORE;
	case SWTPM_GET_INFO: /* UINT64 flags, offset, pad */
		return buf_skip(r, 16) ? FRAME_WHOLE : FRAME_MORE;
	default:
		f->last = true;
		return FRAME_WHOLE;
	}
}

enum frame_status frame_parse(enum frame_proto proto, const uint8_t *p, size_t len, struct frame *f,
			      size_t *used)
{
	struct buf_reader r;
	enum frame_status st = FRAME_BAD;

	memset(f, 0, sizeof(*f));
	*used = 0;
	buf_reader_init(&r, p, len);
	switch (proto) {
	case FRAME_MSSIM_TPM:
		st = mssim_tpm(&r, f);
		break;
	case FRAME_MSSIM_PLATFORM:
		st = mssim_platform(&r, f);
		break;
	case FRAME_SWTPM_DATA:
		st = swtpm_data(&r, f);
		break;
	case FRAME_SWTPM_CTRL:
	case FRAME_VM_CTRL:
		st = swtpm_ctrl(&r, f, proto == FRAME_VM_CTRL);
		break;
	}
	if (st == FRAME_WHOLE)
		*used = len - buf_left(&r);
	else
		memset(f, 0, sizeof(*f));
	return st;
}
