/* The test TAs' use of the system pseudo-TA (pta_system_client.h). */
#include <string.h>

#include <pta_system.h>

#include "pta_system_client.h"

#define KEY_ROOM 64

TEE_Result test_pta_system(uint32_t mode, TEE_Param p[TEE_NUM_PARAMS])
{
	static const TEE_UUID system_uuid = PTA_SYSTEM_UUID;
	const uint32_t types =
	    TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
			    TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE);
	TEE_TASessionHandle s = TEE_HANDLE_NULL;
	TEE_Param q[TEE_NUM_PARAMS];
	uint8_t key[KEY_ROOM];
	uint32_t origin = 0;
	TEE_Result res =
	    TEE_OpenTASession(&system_uuid, TEE_TIMEOUT_INFINITE, 0, NULL, &s, &origin);

	if (res)
		return res;
	memset(q, 0, sizeof(q));
	q[0] = p[0];
	switch (mode) {
	case PTA_SYSTEM_CLIENT_KEY:
		if (p[1].memref.size > sizeof(key)) {
			res = TEE_ERROR_BAD_PARAMETERS;
			break;
		}
		q[1].memref.buffer = key;
		q[1].memref.size = p[1].memref.size;
		res = TEE_InvokeTACommand(s, TEE_TIMEOUT_INFINITE, PTA_SYSTEM_DERIVE_TA_UNIQUE_KEY,
					  types, q, &origin);
		if (!res)
			memcpy(p[1].memref.buffer, key, p[1].memref.size);
		memset(key, 0, sizeof(key));
		break;
	case PTA_SYSTEM_CLIENT_KEY_SHARED:
		q[1] = p[1];
		res = TEE_InvokeTACommand(s, TEE_TIMEOUT_INFINITE, PTA_SYSTEM_DERIVE_TA_UNIQUE_KEY,
					  types, q, &origin);
		break;
	case PTA_SYSTEM_CLIENT_ENTROPY:
		res = TEE_InvokeTACommand(s, TEE_TIMEOUT_INFINITE, PTA_SYSTEM_ADD_RNG_ENTROPY,
					  TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT,
							  TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE,
							  TEE_PARAM_TYPE_NONE),
					  q, &origin);
		break;
	default:
		res = TEE_ERROR_BAD_PARAMETERS;
		break;
	}
	TEE_CloseTASession(s);
	return res;
}
