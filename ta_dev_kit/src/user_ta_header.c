/*
 * Compiled into every TA with the TA's own user_ta_header_defines.h: emits
 * the .ta_head header and the TA property table the runtime reads with
 * dlsym, and, for TAs built against the GP 1.1 API, the 1.3 entry points
 * the runtime calls, as wrappers around the TA's 1.1 ones.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tee_internal_api.h>
#include <user_ta_header.h>
/* As in OP-TEE, a TA's defines may use util.h's macros (TO_STR in
 * TA_VERSION, as optee_os's ta/pkcs11 has). */
#include <util.h>
#include <user_ta_header_defines.h>

#ifndef TA_UUID
#error "TA_UUID is not defined: set it in user_ta_header_defines.h"
#endif
#ifndef TA_FLAGS
#error "TA_FLAGS is not defined: set it in user_ta_header_defines.h"
#endif
#ifndef TA_STACK_SIZE
#error "TA_STACK_SIZE is not defined: set it in user_ta_header_defines.h"
#endif
#ifndef TA_DATA_SIZE
#error "TA_DATA_SIZE is not defined: set it in user_ta_header_defines.h"
#endif

#ifndef TA_VERSION
#define TA_VERSION "Undefined version"
#endif
#ifndef TA_DESCRIPTION
#define TA_DESCRIPTION "Undefined description"
#endif

_Static_assert(((TA_FLAGS) & ~TA_FLAGS_MASK) == 0, "TA_FLAGS has bits no TA_FLAG_* defines");
_Static_assert((TA_STACK_SIZE) <= UINT32_MAX - TA_FRAMEWORK_STACK_SIZE,
	       "TA_STACK_SIZE does not fit the TA header");
_Static_assert((TA_DATA_SIZE) <= UINT32_MAX, "TA_DATA_SIZE does not fit gpd.ta.dataSize");

/* The runtime finds these by name, even in a TA built with -fvisibility=hidden. */
#define TA_HEADER_EXPORT __attribute__((visibility("default")))

const struct ta_head ta_head TA_HEADER_EXPORT __attribute__((section(".ta_head"), used)) = {
    .uuid = TA_UUID,
    .stack_size = (TA_STACK_SIZE) + TA_FRAMEWORK_STACK_SIZE,
    .flags = (TA_FLAGS),
    .depr_entry = UINT64_MAX,
};

/*
 * TA_DATA_SIZE once more, where the core reads it without relocating the
 * property table: it sizes the instance's memory cgroup before the TA runs.
 */
static const uint32_t ta_data_size_note __attribute__((section(".swtee.data_size"), used)) =
    (TA_DATA_SIZE);

static const bool prop_single_instance = (TA_FLAG_SINGLE_INSTANCE & (TA_FLAGS)) != 0;
static const bool prop_multi_session = (TA_FLAG_MULTI_SESSION & (TA_FLAGS)) != 0;
static const bool prop_keep_alive = (TA_FLAG_INSTANCE_KEEP_ALIVE & (TA_FLAGS)) != 0;
static const bool prop_keep_crashed = (TA_FLAG_INSTANCE_KEEP_CRASHED & (TA_FLAGS)) != 0;
static const bool prop_dont_close_on_corrupt =
    (TA_FLAG_DONT_CLOSE_HANDLE_ON_CORRUPT_OBJECT & (TA_FLAGS)) != 0;
static const uint32_t prop_data_size = (TA_DATA_SIZE);
static const uint32_t prop_stack_size = (TA_STACK_SIZE);
static const uint32_t prop_endian = 0; /* little-endian */

const struct user_ta_property ta_props[] TA_HEADER_EXPORT = {
    {TA_PROP_STR_SINGLE_INSTANCE, USER_TA_PROP_TYPE_BOOL, &prop_single_instance},
    {TA_PROP_STR_MULTI_SESSION, USER_TA_PROP_TYPE_BOOL, &prop_multi_session},
    {TA_PROP_STR_KEEP_ALIVE, USER_TA_PROP_TYPE_BOOL, &prop_keep_alive},
    {TA_PROP_STR_DATA_SIZE, USER_TA_PROP_TYPE_U32, &prop_data_size},
    {TA_PROP_STR_STACK_SIZE, USER_TA_PROP_TYPE_U32, &prop_stack_size},
    {TA_PROP_STR_VERSION, USER_TA_PROP_TYPE_STRING, TA_VERSION},
    {TA_PROP_STR_DESCRIPTION, USER_TA_PROP_TYPE_STRING, TA_DESCRIPTION},
    {TA_PROP_STR_ENDIAN, USER_TA_PROP_TYPE_U32, &prop_endian},
    {TA_PROP_STR_DOES_NOT_CLOSE_HANDLE_ON_CORRUPT_OBJECT, USER_TA_PROP_TYPE_BOOL,
     &prop_dont_close_on_corrupt},
    {TA_PROP_STR_KEEP_CRASHED, USER_TA_PROP_TYPE_BOOL, &prop_keep_crashed},
#ifdef TA_CURRENT_TA_EXT_PROPERTIES
    TA_CURRENT_TA_EXT_PROPERTIES
#endif
};

const size_t ta_num_props TA_HEADER_EXPORT = sizeof(ta_props) / sizeof(ta_props[0]);

#ifdef SWTEE_TA_INSTRUMENTED
/*
 * Set by the kit for CFG_TA_SANITIZE and CFG_TA_COVERAGE builds: such a TA
 * runs without the instance sandbox, since the sanitizers' symbolizer and
 * gcov open files. The runtime logs it.
 */
const char swtee_ta_instrumented[] TA_HEADER_EXPORT = SWTEE_TA_INSTRUMENTED;
#endif

#if __OPTEE_CORE_API_COMPAT_1_1
/*
 * The TA implements __GP11_TA_OpenSessionEntryPoint and
 * __GP11_TA_InvokeCommandEntryPoint (tee_api_compat.h renamed them); the
 * runtime calls the 1.3 names. Drop the renaming here to define those.
 */
#undef TA_OpenSessionEntryPoint
#undef TA_InvokeCommandEntryPoint
#undef TEE_Param

static bool param_is_memref(uint32_t type)
{
	return type == TEE_PARAM_TYPE_MEMREF_INPUT || type == TEE_PARAM_TYPE_MEMREF_OUTPUT ||
	       type == TEE_PARAM_TYPE_MEMREF_INOUT;
}

static bool param_is_value(uint32_t type)
{
	return type == TEE_PARAM_TYPE_VALUE_INPUT || type == TEE_PARAM_TYPE_VALUE_OUTPUT ||
	       type == TEE_PARAM_TYPE_VALUE_INOUT;
}

/* Fails if a memref size does not fit the 32-bit GP 1.1 field. */
static TEE_Result params_to_gp11(uint32_t types, const TEE_Param *params, __GP11_TEE_Param *out)
{
	size_t n = 0;

	for (n = 0; n < TEE_NUM_PARAMS; n++) {
		uint32_t type = TEE_PARAM_TYPE_GET(types, n);

		if (param_is_memref(type)) {
#if SIZE_MAX > UINT32_MAX
			if (params[n].memref.size > UINT32_MAX)
				return TEE_ERROR_BAD_PARAMETERS;
#endif
			out[n].memref.buffer = params[n].memref.buffer;
			out[n].memref.size = (uint32_t)params[n].memref.size;
		} else if (param_is_value(type)) {
			out[n].value.a = params[n].value.a;
			out[n].value.b = params[n].value.b;
		}
	}
	return TEE_SUCCESS;
}

/* Hands back what the TA may have changed: output values and memref sizes. */
static void params_from_gp11(uint32_t types, const __GP11_TEE_Param *in, TEE_Param *params)
{
	size_t n = 0;

	for (n = 0; n < TEE_NUM_PARAMS; n++) {
		uint32_t type = TEE_PARAM_TYPE_GET(types, n);

		if (type == TEE_PARAM_TYPE_MEMREF_OUTPUT || type == TEE_PARAM_TYPE_MEMREF_INOUT) {
			params[n].memref.size = in[n].memref.size;
		} else if (type == TEE_PARAM_TYPE_VALUE_OUTPUT ||
			   type == TEE_PARAM_TYPE_VALUE_INOUT) {
			params[n].value.a = in[n].value.a;
			params[n].value.b = in[n].value.b;
		}
	}
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t paramTypes, TEE_Param params[TEE_NUM_PARAMS],
				    void **sessionContext)
{
	__GP11_TEE_Param p11[TEE_NUM_PARAMS] = {0};
	TEE_Result res = TEE_ERROR_GENERIC;

	res = params_to_gp11(paramTypes, params, p11);
	if (res != TEE_SUCCESS)
		return res;
	res = __GP11_TA_OpenSessionEntryPoint(paramTypes, p11, sessionContext);
	params_from_gp11(paramTypes, p11, params);
	return res;
}

TEE_Result TA_InvokeCommandEntryPoint(void *sessionContext, uint32_t commandID, uint32_t paramTypes,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	__GP11_TEE_Param p11[TEE_NUM_PARAMS] = {0};
	TEE_Result res = TEE_ERROR_GENERIC;

	res = params_to_gp11(paramTypes, params, p11);
	if (res != TEE_SUCCESS)
		return res;
	res = __GP11_TA_InvokeCommandEntryPoint(sessionContext, commandID, paramTypes, p11);
	params_from_gp11(paramTypes, p11, params);
	return res;
}
#endif /* __OPTEE_CORE_API_COMPAT_1_1 */
