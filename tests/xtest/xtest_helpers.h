/*
 * What xtest cases share for talking to the TEE through the GP Client API.
 */
#ifndef XTEST_HELPERS_H
#define XTEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tee_client_api.h>

/* OP-TEE's xtest defines this itself; libteec does not. */
#ifndef TEEC_OPERATION_INITIALIZER
/* clang-format off */
#define TEEC_OPERATION_INITIALIZER { }
/* clang-format on */
/* The whole file at path (malloc'ed; free it) and its length, or NULL. */
uint8_t *xtest_read_file(const char *path, size_t *len);
/* Writes p[0..len) to path (created 0644 or truncated). */
bool xtest_write_file(const char *path, const void *p, size_t len);
/* The signed image name.ta installed with xtest (../lib/swtee/ta), as xtest_read_file. */
uint8_t *xtest_installed_ta(const char *name, size_t *len);

#endif

/* The TEE named by -d, NULL for the default one. Set by xtest_main. */
extern const char *xtest_tee_name;

/* The context every case may use; valid while cases run. */
extern TEEC_Context xtest_teec_ctx;

/*
 * Initialises xtest_teec_ctx on xtest_tee_name. Returns the
 * TEEC_InitializeContext result; xtest_main stops when it fails.
 */
TEEC_Result xtest_teec_ctx_init(void);
/* Finalises xtest_teec_ctx if it was initialised. */
void xtest_teec_ctx_deinit(void);

/*
 * Opens session to the TA uuid on xtest_teec_ctx with TEEC_LOGIN_PUBLIC.
 * op may be NULL; ret_orig, if not NULL, receives the return origin.
 * Close the session with TEEC_CloseSession.
 */
TEEC_Result xtest_teec_open_session(TEEC_Session *session, const TEEC_UUID *uuid,
				    TEEC_Operation *op, uint32_t *ret_orig);

/* xtest --install-ta (regression_1000_install.c). */
int install_ta_runner_cmd_parser(int argc, char *argv[]);

#endif
