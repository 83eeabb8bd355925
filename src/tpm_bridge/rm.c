/*
 * A small resource manager for transient objects. tpm2-tools over a raw
 * socket leaves the objects it loads (primaries, keys, every ContextLoad)
 * in the TPM, and libtpms has three object slots: the fourth tool would
 * fail with TPM_RC_OBJECT_MEMORY. Here, when a command fails so, the least
 * recently used transient object that the command does not name, and whose
 * owner is gone, is flushed and the command runs again. The owner of an
 * object is the client whose command returned its handle: its connection,
 * and on a Unix socket its process (the swtpm TCTI connects per command, so
 * an ESYS program holds its objects across connections); a tool that has
 * exited holds nothing. An object whose owner is still there is never
 * flushed: when every object has one, the command's TPM_RC_OBJECT_MEMORY
 * goes to the client, as from a TPM. Nothing changes for a command that
 * fits: no handle is virtualised, a client sees the TPM's own handles.
 *
 * "Used" is learnt from the handle area of each command (the count of
 * handles per command code is read from the TPM, TPM_CAP_COMMANDS) and from
 * the handle a command returns. Sessions are not managed: tools save or
 * flush theirs.
 */
#include <stdio.h>
#include <stdlib.h>
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
		struct rm_owner owner; /* all zero: none known */
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

/* Marks handle used now; owner: it was just created or loaded by that client. */
static void touch(uint32_t handle, const struct rm_owner *owner)
{
	size_t oldest = 0;
	size_t i = 0;

	if (handle >> 24 != TPM_HT_TRANSIENT)
		return;
	rm.clock++;
	for (i = 0; i < RM_TRACKED && rm.seen[i].handle != handle; i++)
		if (rm.seen[i].used < rm.seen[oldest].used)
			oldest = i;
	if (i == RM_TRACKED) {
		i = oldest;
		rm.seen[i].handle = handle;
		memset(&rm.seen[i].owner, 0, sizeof(rm.seen[i].owner));
	}
	rm.seen[i].used = rm.clock;
	if (!owner)
		return;
	rm.seen[i].owner = *owner;
	/* Read now, while the process waits for this command's response. */
	if (owner->pid > 0 && !owner->start)
		rm.seen[i].owner.start = rm_process_start(owner->pid);
}

uint64_t rm_process_start(pid_t pid)
{
	char path[32];
	char buf[1024];
	char *p = NULL;
	FILE *f = NULL;
	size_t n = 0;
	unsigned long long start = 0;

	if (pid <= 0 ||
	    snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid) >= (int)sizeof(path))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The name, in parentheses, may hold anything: fields follow the last ')'. */
	p = strrchr(buf, ')');
	/* starttime is field 22; the state, field 3, follows the ')' and a space. */
	for (int field = 3; p && field <= 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", &start) != 1)
		return 0;
	return start;
}

void rm_conn_closed(uint64_t conn)
{
	for (size_t i = 0; i < RM_TRACKED; i++)
		if (rm.seen[i].owner.conn == conn)
			rm.seen[i].owner.conn = 0;
}

/* Whether the client that created or loaded handle may still use it. */
static bool held(uint32_t handle)
{
	const struct rm_owner *o = NULL;

	for (size_t i = 0; i < RM_TRACKED && !o; i++)
		if (rm.seen[i].handle == handle)
			o = &rm.seen[i].owner;
	if (!o)
		return false; /* loaded before the bridge learnt of it: nobody's */
	if (o->conn)
		return true;
	return o->pid > 0 && o->start && rm_process_start(o->pid) == o->start;
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

/*
 * Flushes the least recently used transient object not in keep whose owner
 * is gone. 0, or -1 for none.
 */
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
		if (!kept && h >> 24 == TPM_HT_TRANSIENT && last_use(h) < victim_use && !held(h)) {
			victim = h;
			victim_use = last_use(h);
		}
	}
	if (!victim) {
		log_debug("resource manager: out of object slots, each object held by its client");
		return -1;
	}
	own_command_start(&w, 14, TPM_CC_FLUSH_CONTEXT);
	buf_put_be32(&w, victim);
	if (own_command(buf_written(&w), &len))
		return -1;
	log_debug("resource manager: out of object slots, flushed transient object 0x%08x", victim);
	return 0;
}

int rm_execute(const uint8_t *cmd, size_t len, uint8_t locality, const struct rm_owner *owner,
	       uint8_t *rsp, size_t *rsp_len)
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
		touch(handles[i], NULL);
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
		touch(handle, owner);
	return 0;
}
