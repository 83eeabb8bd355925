/*
 * The shared TEE context of an xtest run and session helpers on it.
 */
#include <stdbool.h>
#include <stddef.h>

#include "xtest_helpers.h"

const char *xtest_tee_name;
TEEC_Context xtest_teec_ctx;
static bool xtest_teec_ctx_ready;

TEEC_Result xtest_teec_ctx_init(void)
{
	TEEC_Result res = TEEC_InitializeContext(xtest_tee_name, &xtest_teec_ctx);

	xtest_teec_ctx_ready = res == TEEC_SUCCESS;
	return res;
}

void xtest_teec_ctx_deinit(void)
{
	if (!xtest_teec_ctx_ready)
		return;
	TEEC_FinalizeContext(&xtest_teec_ctx);
	xtest_teec_ctx_ready = false;
}

TEEC_Result xtest_teec_open_session(TEEC_Session *session, const TEEC_UUID *uuid,
				    TEEC_Operation *op, uint32_t *ret_orig)
{
	return TEEC_OpenSession(&xtest_teec_ctx, session, uuid, TEEC_LOGIN_PUBLIC, NULL, op,
				ret_orig);
}
