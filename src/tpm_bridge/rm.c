/*
 * A small resource manager for transient objects. tpm2-tools over a raw
 * socket leaves the objects it loads (primaries, keys, every ContextLoad)
 * in the TPM, and libtpms has three object slots: the fourth tool would
 * fail with TPM_RC_OBJECT_MEMORY. Here, when a command fails so, the least
 * recently used transient object that the command does not name is flushed
 * and the command runs again. Nothing changes for a command that fits: no
 * handle is virtualised, a client sees the TPM's own handles, and an object
 * it keeps using stays the most recently used.
 *
 * "Used" is learnt from the handle area of each command (the count of
 * handles per command code is read from the TPM, TPM_CAP_COMMANDS) and from
 * the handle a command returns. Sessions are not managed: tools save or
 * flush theirs.
 */
#include <string.h>

#include "bridge.h"
#include "buf.h"
#include "log.h"

#define TPM_CC_FLUSH_CONTEXT 0x165
#define TPM_CC_GET_CAPABILITY 0x17a
#define TPM_CAP_HANDLES 0x1
#define TPM_CAP_COMMANDS 0x2
#define TPM_HT_TRANSIENT 0x80
#define TRANSIENT_FIRST 0x80000000u
#define TPMA_CC_INDEX 0x0000ffffu
#define TPMA_CC_CHANDLES_SHIFT 25
#define TPMA_CC_CHANDLES_MASK 0x7u
#define TPMA_CC_RHANDLE (1u << 28)
#define TPMA_CC_V (1u << 29)
#define CC_VENDOR 0x20000000u

#define RM_COMMANDS 512 /* libtpms implements about 120 */
#define RM_TRACKED 64	/* transient objects whose last use is known */
#define RM_EVICTIONS 8	/* per command, at most */

struct rm_cc {
	uint32_t cc;
	uint8_t handles;
	bool rhandle;
};

struct rm_state {
	struct rm_cc cmds[RM_COMMANDS];
	size_t ncmds;
	bool known; /* cmds filled */
	struct {
		uint32_t handle;
		uint64_t used;
	} seen[RM_TRACKED];
	uint64_t clock;
};

static struct rm_state rm;

static uint8_t scratch_cmd[64];
static uint8_t scratch_rsp[FRAME_TPM_MAX];

/*
 * Starts a command of the bridge's own in scratch_cmd: its header, for a
 * command of size bytes in all.
 */
static void own_command_start(struct buf_writer *w, uint32_t size, uint32_t cc)
{
	const struct tpm_header h = {.tag = TPM_ST_NO_SESSIONS, .size = size, .code = cc};

	buf_writer_init(w, scratch_cmd, sizeof(scratch_cmd));
	tpm_header_put(w, &h);
}

void rm_reset(void)
{
	memset(&rm, 0, sizeof(rm));
}

/* A command of the bridge's own; its response in scratch_rsp. 0, or -1. */
static int own_command(size_t len, size_t *rsp_len)
{
	if (tpm_execute(scratch_cmd, len, 0, scratch_rsp, rsp_len) || *rsp_len < TPM_HEADER_SIZE)
		return -1;
	return tpm_header_of(scratch_rsp, *rsp_len).code == TPM_RC_SUCCESS ? 0 : -1;
}

/* TPM2_GetCapability(cap, property, count), without sessions. */
static int get_capability(uint32_t cap, uint32_t property, uint32_t count, size_t *rsp_len)
{
	struct buf_writer w;

	own_command_start(&w, 22, TPM_CC_GET_CAPABILITY);
	buf_put_be32(&w, cap);
	buf_put_be32(&w, property);
	buf_put_be32(&w, count);
	return own_command(buf_written(&w), rsp_len);
}

/* Reads the TPMA_CC of every command; quietly leaves rm.known false on failure. */
static void learn_commands(void)
{
	uint32_t next = 0;

	rm.ncmds = 0;
	for (int round = 0; round < 8; round++) {
		struct buf_reader r;
		size_t len = 0;
		uint8_t more = 0;
		uint32_t cap = 0;
		uint32_t count = 0;

		if (get_capability(TPM_CAP_COMMANDS, next, RM_COMMANDS, &len))
			return;
		buf_reader_init(&r, scratch_rsp, len);
		buf_skip(&r, TPM_HEADER_SIZE);
		buf_get_u8(&r, &more);
		buf_get_be32(&r, &cap);
		buf_get_be32(&r, &count);
		if (!buf_ok(&r) || cap != TPM_CAP_COMMANDS)
			return;
		for (uint32_t i = 0; i < count; i++) {
			uint32_t a = 0;
			struct rm_cc *c = &rm.cmds[rm.ncmds];

			if (!buf_get_be32(&r, &a) || rm.ncmds >= RM_COMMANDS)
				return;
			c->cc = (a & TPMA_CC_INDEX) | ((a & TPMA_CC_V) ? CC_VENDOR : 0);
			c->handles =
			    (uint8_t)((a >> TPMA_CC_CHANDLES_SHIFT) & TPMA_CC_CHANDLES_MASK);
			c->rhandle = (a & TPMA_CC_RHANDLE) != 0;
			rm.ncmds++;
			next = c->cc + 1;
		}
		if (!buf_done(&r))
			return;
		if (!more) {
			rm.known = true;
			log_debug("resource manager: %zu commands known", rm.ncmds);
			return;
		}
	}
}

static const struct rm_cc *lookup(uint32_t cc)
{
	for (size_t i = 0; i < rm.ncmds; i++)
		if (rm.cmds[i].cc == cc)
			return &rm.cmds[i];
	return NULL;
}

static void touch(uint32_t handle)
{
	size_t oldest = 0;

	if (handle >> 24 != TPM_HT_TRANSIENT)
		return;
	rm.clock++;
	for (size_t i = 0; i < RM_TRACKED; i++) {
		if (rm.seen[i].handle == handle) {
			rm.seen[i].used = rm.clock;
			return;
		}
		if (rm.seen[i].used < rm.seen[oldest].used)
			oldest = i;
	}
	rm.seen[oldest].handle = handle;
	rm.seen[oldest].used = rm.clock;
}

/* When handle was last used; 0 when not known (the oldest of all). */
static uint64_t last_use(uint32_t handle)
{
	for (size_t i = 0; i < RM_TRACKED; i++)
		if (rm.seen[i].handle == handle)
			return rm.seen[i].used;
	return 0;
}

/* The transient handles in cmd's handle area: up to 3. */
static size_t command_handles(const uint8_t *cmd, size_t len, uint32_t out[3])
{
	const struct rm_cc *c = NULL;
	struct buf_reader r;
	struct tpm_header h;
	size_t n = 0;

	buf_reader_init(&r, cmd, len);
	if (!tpm_header_get(&r, &h) || !(c = lookup(h.code)))
		return 0;
	while (n < c->handles && n < 3 && buf_get_be32(&r, &out[n]))
		n++;
	return n;
}

/* Flushes the least recently used transient object not in keep. 0, or -1 for none. */
static int evict(const uint32_t *keep, size_t nkeep)
{
	struct buf_reader r;
	struct buf_writer w;
	size_t len = 0;
	uint8_t more = 0;
	uint32_t cap = 0;
	uint32_t count = 0;
	uint32_t victim = 0;
	uint64_t victim_use = UINT64_MAX;

	if (get_capability(TPM_CAP_HANDLES, TRANSIENT_FIRST, RM_TRACKED, &len))
		return -1;
	buf_reader_init(&r, scratch_rsp, len);
	buf_skip(&r, TPM_HEADER_SIZE);
	buf_get_u8(&r, &more);
	buf_get_be32(&r, &cap);
	buf_get_be32(&r, &count);
	if (!buf_ok(&r) || cap != TPM_CAP_HANDLES)
		return -1;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t h = 0;
		bool kept = false;

		if (!buf_get_be32(&r, &h))
			return -1;
		for (size_t k = 0; k < nkeep; k++)
			kept |= keep[k] == h;
		if (!kept && h >> 24 == TPM_HT_TRANSIENT && last_use(h) < victim_use) {
			victim = h;
			victim_use = last_use(h);
		}
	}
	if (!victim)
		return -1;
	own_command_start(&w, 14, TPM_CC_FLUSH_CONTEXT);
	buf_put_be32(&w, victim);
	if (own_command(buf_written(&w), &len))
		return -1;
	log_debug("resource manager: out of object slots, flushed transient object 0x%08x", victim);
	return 0;
}

int rm_execute(const uint8_t *cmd, size_t len, uint8_t locality, uint8_t *rsp, size_t *rsp_len)
{
	uint32_t handles[3];
	size_t nhandles = 0;
	const struct rm_cc *c = NULL;
	struct buf_reader r;
	struct tpm_header h;
	uint32_t handle = 0;

	if (!rm.known)
		learn_commands();
	nhandles = command_handles(cmd, len, handles);
	for (size_t i = 0; i < nhandles; i++)
		touch(handles[i]);
	for (int tries = 0;; tries++) {
		if (tpm_execute(cmd, len, locality, rsp, rsp_len))
			return -1;
		if (tpm_header_of(rsp, *rsp_len).code != TPM_RC_OBJECT_MEMORY ||
		    tries >= RM_EVICTIONS || evict(handles, nhandles))
			break;
	}
	/* A command that succeeded and returns a handle (TPMA_CC rHandle) names it first. */
	c = len >= TPM_HEADER_SIZE ? lookup(tpm_header_of(cmd, len).code) : NULL;
	buf_reader_init(&r, rsp, *rsp_len);
	if (c && c->rhandle && tpm_header_get(&r, &h) && h.code == TPM_RC_SUCCESS &&
	    buf_get_be32(&r, &handle))
		touch(handle);
	return 0;
}
