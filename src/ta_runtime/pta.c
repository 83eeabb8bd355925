/*
 * Pseudo-TAs: services a TA reaches with TEE_OpenTASession and
 * TEE_InvokeTACommand at the UUIDs and command ids OP-TEE gives them, but
 * which are no TA of their own. The runtime answers them in the calling
 * instance; what needs a secret of the core (the device key) is asked of the
 * core, which knows the caller by the UUID it verified, not by anything the
 * instance says.
 *
 * The system pseudo-TA (pta_system.h):
 *   PTA_SYSTEM_ADD_RNG_ENTROPY       memref in: mixed into the instance's
 *                                    random generator as additional input
 *                                    (it adds no credited entropy)
 *   PTA_SYSTEM_DERIVE_TA_UNIQUE_KEY  memref in: extra data (at most
 *                                    TA_DERIVED_EXTRA_DATA_MAX_SIZE bytes),
 *                                    memref out: the key, 16 to 32 bytes,
 *                                    which must not be memory a client
 *                                    application shares (TEE_ERROR_SECURITY)
 *   PTA_SYSTEM_SUPP_PLUGIN_INVOKE    memref in: the plugin's TEE_UUID,
 *                                    value in: cmd, sub_cmd, memref inout:
 *                                    the data, value out: a = out_len; what
 *                                    tee_invoke_supp_plugin does (plugin_chan.c)
 * Any other command of it is TEE_ERROR_NOT_SUPPORTED: swtee's loader and
 * memory calls (tee_map_zi, dlopen) do not go through it.
 */
#include <string.h>

#include <pta_system.h>

#include "backend.h"
#include "log.h"
#include "plugin_chan.h"
#include "runtime.h"
#include "secure.h"

#define PT_IN TEE_PARAM_TYPE_MEMREF_INPUT
#define PT_OUT TEE_PARAM_TYPE_MEMREF_OUTPUT
#define PT_NONE TEE_PARAM_TYPE_NONE

static TEE_Result system_add_entropy(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	if (types != TEE_PARAM_TYPES(PT_IN, PT_NONE, PT_NONE, PT_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (!p[0].memref.buffer || !p[0].memref.size)
		return TEE_ERROR_BAD_PARAMETERS;
	return be_random_add(p[0].memref.buffer, p[0].memref.size);
}

static TEE_Result system_derive_key(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	uint8_t out[16 + TA_DERIVED_EXTRA_DATA_MAX_SIZE];
	uint8_t in[16 + TA_DERIVED_KEY_MAX_SIZE];
	struct buf_writer w;
	struct buf_reader r;
	struct msg_fds fds;
	const uint8_t *key = NULL;
	uint32_t res = TEE_ERROR_COMMUNICATION;
	size_t key_len = p[1].memref.size;

	if (types != TEE_PARAM_TYPES(PT_IN, PT_OUT, PT_NONE, PT_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[0].memref.size > TA_DERIVED_EXTRA_DATA_MAX_SIZE ||
	    key_len < TA_DERIVED_KEY_MIN_SIZE || key_len > TA_DERIVED_KEY_MAX_SIZE)
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[0].memref.size && !p[0].memref.buffer)
		return TEE_ERROR_BAD_PARAMETERS;
	/* The key must not land where a client application can read it. */
	if (TEE_CheckMemoryAccessRights(TEE_MEMORY_ACCESS_WRITE | TEE_MEMORY_ACCESS_ANY_OWNER |
					    TEE_MEMORY_ACCESS_SECURE,
					p[1].memref.buffer, key_len))
		return TEE_ERROR_SECURITY;

	buf_writer_init(&w, out, sizeof(out));
	buf_put_u32(&w, MSG_CTL_DERIVE_KEY);
	buf_put_u32(&w, (uint32_t)key_len);
	buf_put_u32(&w, (uint32_t)p[0].memref.size);
	if (p[0].memref.size)
		buf_put_bytes(&w, p[0].memref.buffer, p[0].memref.size);
	res = rt_ctl_request(out, buf_written(&w), -1, MSG_CTL_DERIVE_KEY_RSP, in, sizeof(in), &fds,
			     &r);
	msg_fds_close(&fds);
	if (res)
		goto out;
	buf_get_ptr(&r, &key, key_len);
	if (!buf_done(&r)) {
		res = TEE_ERROR_COMMUNICATION;
		goto out;
	}
	memcpy(p[1].memref.buffer, key, key_len);
out:
	secure_wipe(in, sizeof(in));
	return res;
}

static TEE_Result system_plugin(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct swtee_uuid u;
	TEE_UUID t;
	size_t out = 0;
	TEE_Result res = TEE_SUCCESS;

	if (types != TEE_PARAM_TYPES(PT_IN, TEE_PARAM_TYPE_VALUE_INPUT, TEE_PARAM_TYPE_MEMREF_INOUT,
				     TEE_PARAM_TYPE_VALUE_OUTPUT) ||
	    !p[0].memref.buffer || p[0].memref.size != sizeof(t))
		return TEE_ERROR_BAD_PARAMETERS;
	memcpy(&t, p[0].memref.buffer, sizeof(t));
	uuid_from_fields(&u, t.timeLow, t.timeMid, t.timeHiAndVersion, t.clockSeqAndNode);
	res = rt_plugin_invoke(&u, p[1].value.a, p[1].value.b, p[2].memref.buffer, p[2].memref.size,
			       &out);
	p[3].value.a = (uint32_t)out;
	return res;
}

static TEE_Result system_invoke(uint32_t cmd, uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	switch (cmd) {
	case PTA_SYSTEM_ADD_RNG_ENTROPY:
		return system_add_entropy(types, p);
	case PTA_SYSTEM_DERIVE_TA_UNIQUE_KEY:
		return system_derive_key(types, p);
	case PTA_SYSTEM_SUPP_PLUGIN_INVOKE:
		return system_plugin(types, p);
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}

static const struct rt_pta ptas[] = {
    {.uuid = PTA_SYSTEM_UUID, .name = "system", .invoke = system_invoke},
};

const struct rt_pta *rt_pta_find(const TEE_UUID *uuid)
{
	for (size_t i = 0; i < sizeof(ptas) / sizeof(ptas[0]); i++)
		if (!memcmp(&ptas[i].uuid, uuid, sizeof(*uuid)))
			return &ptas[i];
	return NULL;
}
