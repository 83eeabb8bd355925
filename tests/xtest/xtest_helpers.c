/*
 * The shared TEE context of an xtest run, session helpers on it, and files.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

uint8_t *xtest_read_file(const char *path, size_t *len)
{
	struct stat st;
	uint8_t *p = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*len = 0;
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0 && (p = malloc((size_t)st.st_size)) &&
	    read(fd, p, (size_t)st.st_size) == st.st_size) {
		*len = (size_t)st.st_size;
	} else {
		free(p);
		p = NULL;
	}
	close(fd);
	return p;
}

bool xtest_write_file(const char *path, const void *p, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool ok = fd >= 0 && write(fd, p, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok;
}

uint8_t *xtest_installed_ta(const char *name, size_t *len)
{
	char exe[PATH_MAX];
	char path[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash = NULL;

	*len = 0;
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	snprintf(path, sizeof(path), "%s/../lib/swtee/ta/%s.ta", exe, name);
	return xtest_read_file(path, len);
}
