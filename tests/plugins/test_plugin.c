/*
 * The test plugins of tee-supplicant (commands in test_plugin.h), one
 * source built three ways: the test plugin; with TEST_PLUGIN_DUPLICATE, a
 * second plugin of its UUID, which the supplicant must refuse; with
 * TEST_PLUGIN_BAD_INIT, a plugin whose init fails, which it must skip.
 */
#include <signal.h>
#include <string.h>
#include <time.h>

#include <tee_plugin_method.h>

#include "test_plugin.h"

static int init_ran;

static TEEC_Result test_init(void)
{
#ifdef TEST_PLUGIN_BAD_INIT
	return TEEC_ERROR_GENERIC;
#else
	init_ran = 1;
	return TEEC_SUCCESS;
#endif
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};

	while (nanosleep(&ts, &ts))
		;
}

static TEEC_Result test_invoke(unsigned int cmd, unsigned int sub_cmd, void *data, size_t in_len,
			       size_t *out_len)
{
	unsigned char *d = data;

	switch (cmd) {
	case TEST_PLUGIN_CMD_PING:
#ifdef TEST_PLUGIN_DUPLICATE
		return TEEC_ERROR_ACCESS_CONFLICT;
#else
		return init_ran ? TEEC_SUCCESS : TEEC_ERROR_BAD_STATE;
#endif
	case TEST_PLUGIN_CMD_ADD:
		for (size_t i = 0; i < in_len; i++)
			d[i] = (unsigned char)(d[i] + sub_cmd);
		*out_len = in_len;
		return TEEC_SUCCESS;
	case TEST_PLUGIN_CMD_OUTLEN:
		if (in_len)
			memset(d, TEST_PLUGIN_OUTLEN_BYTE, in_len);
		*out_len = sub_cmd;
		return TEEC_SUCCESS;
	case TEST_PLUGIN_CMD_FAIL:
		if (in_len)
			memset(d, TEST_PLUGIN_FAIL_BYTE, in_len);
		*out_len = in_len;
		return sub_cmd;
	case TEST_PLUGIN_CMD_SLEEP:
		sleep_ms(sub_cmd);
		return TEEC_SUCCESS;
	case TEST_PLUGIN_CMD_CRASH:
		raise(SIGSEGV);
		return TEEC_ERROR_GENERIC;
	default:
		return TEEC_ERROR_NOT_SUPPORTED;
	}
}

#if defined(TEST_PLUGIN_BAD_INIT)
#define TEST_PLUGIN_NAME "swtee-test-bad-init"
#define TEST_PLUGIN_THIS_UUID TEST_PLUGIN_BAD_INIT_UUID
#elif defined(TEST_PLUGIN_DUPLICATE)
#define TEST_PLUGIN_NAME "swtee-test-duplicate"
#define TEST_PLUGIN_THIS_UUID TEST_PLUGIN_UUID
#else
#define TEST_PLUGIN_NAME "swtee-test"
#define TEST_PLUGIN_THIS_UUID TEST_PLUGIN_UUID
#endif

struct plugin_method plugin_method = {
    .name = TEST_PLUGIN_NAME,
    .uuid = TEST_PLUGIN_THIS_UUID,
    .init = test_init,
    .invoke = test_invoke,
};
