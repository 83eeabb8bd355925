/*
 * Built-in images: pseudo-TAs at OP-TEE's UUIDs and command ids that a
 * client application opens like any TA (pta_client.h). The core starts an
 * instance for them with an empty stand-in for the ELF; this file gives the
 * instance its entry points, so every session is an ordinary one of this
 * process: the core's checks, the parameter checks and the sandbox all
 * apply as they do to a TA of a file.
 *
 * The invoke-tests pseudo-TA (pta_invoke_tests.h):
 *   CMD_TRACE        logs a line through the runtime's trace
 *   CMD_PARAMS       value inout: a = a + b; memref inout: its first byte
 *                    becomes the 8-bit sum of its bytes; one value output
 *                    among value inputs: the sums of their a and b
 *   CMD_SELF_TESTS   the runtime's self-tests (pta_selftest.c)
 *   CMD_MEMREF_NULL  memref inout that must arrive as NULL of size 0
 * Every other command (secure data path, the core's mutexes, lock
 * dependency checks, the REE FS hash tree, device-tree drivers, transfer
 * lists, AES throughput of the core) tests a part of OP-TEE that swtee does
 * not have: TEE_ERROR_NOT_SUPPORTED, never a success that tested nothing.
 */
#include <string.h>
#include <unistd.h>

#include <pta_attestation.h>
#include <pta_invoke_tests.h>
#include <pta_secstor_ta_mgmt.h>
#include <pta_stats.h>
#include <user_ta_header.h>

#include "log.h"
#include "memfd.h"
#include "pta_client.h"
#include "runtime.h"

#define BUILTIN_STACK (64 * 1024)
#define BUILTIN_DATA (256 * 1024)

#define PT_GET(t, i) TEE_PARAM_TYPE_GET(t, i)

struct builtin {
	TEE_UUID uuid;
	const char *name;
	TEE_Result (*invoke)(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS]);
};

/* Value inout: a += b. Returns false when slot i is no such value. */
static bool params_value_inout(uint32_t types, TEE_Param p[TEE_NUM_PARAMS], size_t i)
{
	if (PT_GET(types, i) != TEE_PARAM_TYPE_VALUE_INOUT)
		return false;
	p[i].value.a += p[i].value.b;
	return true;
}

/* Memref inout of at least one byte: its first byte becomes the sum of all. */
static bool params_memref_inout(uint32_t types, TEE_Param p[TEE_NUM_PARAMS], size_t i)
{
	const uint8_t *b = p[i].memref.buffer;
	uint8_t sum = 0;

	if (PT_GET(types, i) != TEE_PARAM_TYPE_MEMREF_INOUT || !b || !p[i].memref.size)
		return false;
	for (size_t n = 0; n < p[i].memref.size; n++)
		sum = (uint8_t)(sum + b[n]);
	((uint8_t *)p[i].memref.buffer)[0] = sum;
	return true;
}

/* One value output, the other three value inputs: the output is their sums. */
static TEE_Result params_sum(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	size_t out = TEE_NUM_PARAMS;
	uint32_t a = 0;
	uint32_t b = 0;

	for (size_t i = 0; i < TEE_NUM_PARAMS; i++) {
		if (PT_GET(types, i) == TEE_PARAM_TYPE_VALUE_OUTPUT && out == TEE_NUM_PARAMS) {
			out = i;
			continue;
		}
		if (PT_GET(types, i) != TEE_PARAM_TYPE_VALUE_INPUT)
			return TEE_ERROR_BAD_PARAMETERS;
		a += p[i].value.a;
		b += p[i].value.b;
	}
	if (out == TEE_NUM_PARAMS)
		return TEE_ERROR_BAD_PARAMETERS;
	p[out].value.a = a;
	p[out].value.b = b;
	return TEE_SUCCESS;
}

static TEE_Result invoke_params(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	size_t used = 0;

	for (size_t i = 0; i < TEE_NUM_PARAMS; i++) {
		if (PT_GET(types, i) == TEE_PARAM_TYPE_NONE)
			continue;
		if (!params_value_inout(types, p, i) && !params_memref_inout(types, p, i))
			return params_sum(types, p);
		used++;
	}
	return used ? TEE_SUCCESS : TEE_ERROR_BAD_PARAMETERS;
}

static TEE_Result invoke_memref_null(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INOUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[0].memref.buffer || p[0].memref.size)
		return TEE_ERROR_BAD_PARAMETERS;
	return TEE_SUCCESS;
}

static TEE_Result invoke_tests(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	switch (cmd) {
	case PTA_INVOKE_TESTS_CMD_TRACE:
		log_info("invoke-tests pseudo-TA: trace from session of login 0x%x",
			 rt.current ? rt.current->login : 0);
		return TEE_SUCCESS;
	case PTA_INVOKE_TESTS_CMD_PARAMS:
		return invoke_params(types, p);
	case PTA_INVOKE_TESTS_CMD_SELF_TESTS:
		if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE,
					     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
			return TEE_ERROR_BAD_PARAMETERS;
		return rt_self_tests();
	case PTA_INVOKE_TESTS_CMD_MEMREF_NULL:
		return invoke_memref_null(types, p);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}

/* value out: REE time, value out: TEE time, each seconds and milliseconds. */
static TEE_Result stats_time(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	TEE_Time ree = {0};
	TEE_Time tee = {0};

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT, TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	TEE_GetREETime(&ree);
	TEE_GetSystemTime(&tee);
	p[0].value.a = ree.seconds;
	p[0].value.b = ree.millis;
	p[1].value.a = tee.seconds;
	p[1].value.b = tee.millis;
	return TEE_SUCCESS;
}

/* Reads the next entry of the core's answer r into *out (of any alignment). */
static void stats_entry(struct buf_reader *r, void *out)
{
	struct pta_stats_ta e = {.panicked = 0};
	struct swtee_uuid u = {.b = {0}};

	buf_get_bytes(r, u.b, sizeof(u.b));
	buf_get_u32(r, &e.sess_num);
	uuid_to_fields(&u, &e.uuid.timeLow, &e.uuid.timeMid, &e.uuid.timeHiAndVersion,
		       e.uuid.clockSeqAndNode);
	memcpy(out, &e, sizeof(e));
}

/*
 * memref out: a pta_stats_ta for each TA the caller's user runs, from the
 * core; a NULL buffer asks for the size (TEE_ERROR_SHORT_BUFFER, even for
 * none, as OP-TEE's xtest --stats expects). An instance that panicked has ended, so none listed
 * has; the heap figures are zero: only each instance knows its own.
 */
static TEE_Result stats_tas(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	static const uint32_t req = MSG_CTL_STATS;
	uint8_t in[12 + PROTO_STATS_TAS_MAX * PROTO_STATS_ENTRY_LEN];
	uint8_t *out = p[0].memref.buffer;
	const size_t each = sizeof(struct pta_stats_ta);
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t res = TEE_ERROR_COMMUNICATION;
	uint32_t n = 0;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_OUTPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	res = rt_ctl_request(&req, sizeof(req), -1, MSG_CTL_STATS_RSP, in, sizeof(in), &fds, &r);
	msg_fds_close(&fds);
	buf_get_u32(&r, &n);
	/* the whole answer checked before anything reaches the client's buffer */
	if (!buf_ok(&r) || res || n > PROTO_STATS_TAS_MAX ||
	    buf_left(&r) != (size_t)n * PROTO_STATS_ENTRY_LEN)
		return res ? res : TEE_ERROR_COMMUNICATION;
	if (!out || p[0].memref.size < n * each) { /* NULL: a query of the size */
		p[0].memref.size = n * each;
		return TEE_ERROR_SHORT_BUFFER;
	}
	for (uint32_t i = 0; i < n; i++)
		stats_entry(&r, out + i * each);
	if (!buf_done(&r))
		return TEE_ERROR_COMMUNICATION;
	p[0].memref.size = n * each;
	return TEE_SUCCESS;
}

/*
 * The stats pseudo-TA (pta_stats.h): CMD_TA_STATS and CMD_GET_TIME. Pager,
 * allocator and leak figures and driver listings are of OP-TEE's core, which
 * swtee does not have: TEE_ERROR_NOT_SUPPORTED.
 */
static TEE_Result stats_invoke(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	switch (cmd) {
	case STATS_CMD_TA_STATS:
		return stats_tas(types, p);
	case STATS_CMD_GET_TIME:
		return stats_time(types, p);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}

/*
 * The secure-storage TA management pseudo-TA (pta_secstor_ta_mgmt.h):
 * BOOTSTRAP hands the signed image in memref[0] to the core, which verifies
 * and keeps it (src/core/ta_store.c): TEE_ERROR_SECURITY for an image it
 * refuses, TEE_ERROR_ACCESS_DENIED for a user other than root or the TEE's.
 */
static TEE_Result secstor_invoke(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	static const uint32_t req = MSG_CTL_TA_INSTALL;
	uint8_t in[8];
	struct buf_reader r;
	struct msg_fds fds;
	uint32_t res = TEE_ERROR_COMMUNICATION;
	int fd = -1;

	if (cmd != PTA_SECSTOR_TA_MGMT_BOOTSTRAP)
		return TEE_ERROR_NOT_SUPPORTED;
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_NONE,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE) ||
	    !p[0].memref.buffer || !p[0].memref.size)
		return TEE_ERROR_BAD_PARAMETERS;
	fd = memfd_new_sealed("ta-install", p[0].memref.size);
	if (fd < 0 ||
	    pwrite(fd, p[0].memref.buffer, p[0].memref.size, 0) != (ssize_t)p[0].memref.size) {
		if (fd >= 0)
			close(fd);
		return TEE_ERROR_OUT_OF_MEMORY;
	}
	res =
	    rt_ctl_request(&req, sizeof(req), fd, MSG_CTL_TA_INSTALL_RSP, in, sizeof(in), &fds, &r);
	close(fd);
	msg_fds_close(&fds);
	return buf_done(&r) ? res : TEE_ERROR_COMMUNICATION;
}

static const struct builtin builtins[] = {
    {.uuid = PTA_INVOKE_TESTS_UUID, .name = "invoke-tests", .invoke = invoke_tests},
    {.uuid = STATS_UUID, .name = "stats", .invoke = stats_invoke},
    {.uuid = PTA_SECSTOR_TA_MGMT_UUID, .name = "secstor-ta-mgmt", .invoke = secstor_invoke},
    {.uuid = PTA_ATTESTATION_UUID, .name = "attestation", .invoke = rt_pta_attest_invoke},
};

static const struct builtin *serving;

static TEE_Result builtin_create(void)
{
	return TEE_SUCCESS;
}

static void builtin_destroy(void)
{
}

static TEE_Result builtin_open(uint32_t types, TEE_Param *p, void **ctx)
{
	(void)types;
	(void)p;
	*ctx = NULL;
	return TEE_SUCCESS;
}

static void builtin_close(void *ctx)
{
	(void)ctx;
}

static TEE_Result builtin_invoke(void *ctx, uint32_t cmd, uint32_t types, TEE_Param *p)
{
	(void)ctx;
	return serving->invoke(cmd, types, p);
}

static const uint32_t builtin_data_size = BUILTIN_DATA;
static const uint32_t builtin_stack_size = BUILTIN_STACK;
static const struct user_ta_property builtin_props[] = {
    {TA_PROP_STR_DATA_SIZE, USER_TA_PROP_TYPE_U32, &builtin_data_size},
    {TA_PROP_STR_STACK_SIZE, USER_TA_PROP_TYPE_U32, &builtin_stack_size},
};
static struct ta_head builtin_head = {.stack_size = BUILTIN_STACK, .depr_entry = UINT64_MAX};

static const struct builtin *builtin_find(const struct swtee_uuid *u)
{
	struct swtee_uuid b;

	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		const TEE_UUID *t = &builtins[i].uuid;

		uuid_from_fields(&b, t->timeLow, t->timeMid, t->timeHiAndVersion,
				 t->clockSeqAndNode);
		if (uuid_equal(u, &b))
			return &builtins[i];
	}
	return NULL;
}

bool rt_builtin_load(int elf_fd, uint32_t nlibs, int level)
{
	serving = builtin_find(&rt.uuid);
	if (!serving)
		return false;
	close(elf_fd);
	rt.log_level = level;
	log_init("", level);
	rt_libs_lock();
	if (nlibs) {
		rt.load_error = "a built-in pseudo-TA links no TA library";
		log_error("%s", rt.load_error);
		return true;
	}
	builtin_head.uuid = serving->uuid;
	rt.ta = (struct rt_ta){
	    .create = builtin_create,
	    .destroy = builtin_destroy,
	    .open = builtin_open,
	    .close = builtin_close,
	    .invoke = builtin_invoke,
	    .head = &builtin_head,
	    .props = builtin_props,
	    .nprops = sizeof(builtin_props) / sizeof(builtin_props[0]),
	};
	rt.data_size = BUILTIN_DATA;
	rt_heap_init(rt.data_size);
	rt.load_error = rt_sandbox_enter(rt.data_size, BUILTIN_STACK);
	if (rt.load_error)
		log_error("%s; refusing to serve the %s pseudo-TA", rt.load_error, serving->name);
	return true;
}
