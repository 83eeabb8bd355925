/* The shared-library test TA (ta_shlib.h). */
#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include <pta_attestation.h>
#include <tee_internal_api.h>

#include "shlib_trace.h"
#include "ta_shlib.h"

#define PT(t) TEE_PARAM_TYPE_##t

__attribute__((visibility("default"))) int shlib_trace[SHLIB_TRACE_MAX];
__attribute__((visibility("default"))) int shlib_ntrace;

static void __attribute__((constructor)) ta_init(void)
{
	shlib_trace_add(SHLIB_ID_TA);
}

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t types, TEE_Param params[TEE_NUM_PARAMS], void **ctx)
{
	(void)types;
	(void)params;
	*ctx = NULL;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *ctx)
{
	(void)ctx;
}

static TEE_Result try_dlopen(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	char name[64] = "";
	const char *err = NULL;
	int (*fn)(int, int) = NULL;
	void *h = NULL;

	if (types !=
		TEE_PARAM_TYPES(PT(MEMREF_INPUT), PT(VALUE_OUTPUT), PT(MEMREF_OUTPUT), PT(NONE)) ||
	    p[0].memref.size >= sizeof(name))
		return TEE_ERROR_BAD_PARAMETERS;
	memcpy(name, p[0].memref.buffer, p[0].memref.size);
	h = dlopen(p[0].memref.size ? name : NULL, RTLD_NOW | RTLD_GLOBAL);
	p[1].value.a = h != NULL;
	p[1].value.b = 0;
	if (!h) {
		err = dlerror();
		if (!err)
			err = "";
		p[2].memref.size = strlen(err) < p[2].memref.size ? strlen(err) : p[2].memref.size;
		memcpy(p[2].memref.buffer, err, p[2].memref.size);
		return TEE_SUCCESS;
	}
	fn = (int (*)(int, int))dlsym(h, "shlib_top_add_mul");
	if (fn)
		p[1].value.b = (uint32_t)fn(3, 4);
	p[2].memref.size = 0;
	dlclose(h);
	return TEE_SUCCESS;
}

static int count_fd_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	if (info->dlpi_name && !strncmp(info->dlpi_name, "/proc/", 6))
		(*(uint32_t *)arg)++;
	return 0;
}

/* As OP-TEE's xtest 1030 counts: a nonzero return does not stop the walk. */
static int count_fd_module_stop(struct dl_phdr_info *info, size_t size, void *arg)
{
	count_fd_module(info, size, arg);
	return 123;
}

static TEE_Result attest(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	static const TEE_UUID pta = PTA_ATTESTATION_UUID;
	TEE_TASessionHandle s = TEE_HANDLE_NULL;
	TEE_Result res = TEE_SUCCESS;
	uint32_t orig = 0;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INPUT, TEE_PARAM_TYPE_MEMREF_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	res = TEE_OpenTASession(&pta, TEE_TIMEOUT_INFINITE, 0, NULL, &s, &orig);
	if (res)
		return res;
	res = TEE_InvokeTACommand(s, TEE_TIMEOUT_INFINITE, PTA_ATTESTATION_HASH_TA_MEMORY, types, p,
				  &orig);
	TEE_CloseTASession(s);
	return res;
}

static uint32_t trace_ids(void)
{
	uint32_t ids = 0;

	for (int i = 0; i < shlib_ntrace; i++)
		ids |= (uint32_t)shlib_trace[i] << (4 * i);
	return ids;
}

/* The "dl" library's symbol name, loaded now if it is not yet. */
static void *dl_sym(const char *name)
{
	void *h = dlopen(TA_SHLIB_DL_NAME, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);

	return h ? dlsym(h, name) : NULL;
}

static TEE_Result dl_call(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	int (*twice)(int) = NULL;

	if (types != TEE_PARAM_TYPES(PT(VALUE_INPUT), PT(VALUE_OUTPUT), PT(NONE), PT(NONE)))
		return TEE_ERROR_BAD_PARAMETERS;
	twice = (int (*)(int))dl_sym("shlib_dl_twice");
	if (!twice)
		return TEE_ERROR_ITEM_NOT_FOUND;
	p[1].value.a = (uint32_t)twice((int)p[0].value.a);
	p[1].value.b = trace_ids();
	return TEE_SUCCESS;
}

static TEE_Result dl_panic(void)
{
	void (*panic)(void) = (void (*)(void))dl_sym("shlib_dl_panic");

	if (!panic)
		return TEE_ERROR_ITEM_NOT_FOUND;
	panic();
	return TEE_SUCCESS;
}

TEE_Result TA_InvokeCommandEntryPoint(void *ctx, uint32_t cmd, uint32_t types,
				      TEE_Param p[TEE_NUM_PARAMS])
{
	(void)ctx;
	switch (cmd) {
	case TA_SHLIB_CMD_CALL:
		p[1].value.a = (uint32_t)shlib_top_add_mul((int)p[0].value.a, (int)p[0].value.b);
		return TEE_SUCCESS;
	case TA_SHLIB_CMD_INIT_ORDER:
		p[0].value.a = (uint32_t)shlib_ntrace;
		p[0].value.b = trace_ids();
		return TEE_SUCCESS;
	case TA_SHLIB_CMD_DLOPEN:
		return try_dlopen(types, p);
	case TA_SHLIB_CMD_PHDR:
		p[0].value.a = 0;
		dl_iterate_phdr(count_fd_module, &p[0].value.a);
		return TEE_SUCCESS;
	case TA_SHLIB_CMD_PHDR_ALL:
		p[0].value.a = 0;
		p[0].value.b = (uint32_t)dl_iterate_phdr(count_fd_module_stop, &p[0].value.a);
		return TEE_SUCCESS;
	case TA_SHLIB_CMD_ATTEST:
		return attest(types, p);
	case TA_SHLIB_CMD_DL_CALL:
		return dl_call(types, p);
	case TA_SHLIB_CMD_DL_PANIC:
		return dl_panic();
	default:
		return TEE_ERROR_NOT_SUPPORTED;
	}
}
