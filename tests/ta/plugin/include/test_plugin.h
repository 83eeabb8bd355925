/*
 * The test plugins of tee-supplicant (tests/plugins), shared by the plugin
 * TA (tests/ta/plugin) and xtest 1080-1089. Built from one source, they are
 * loaded from swtee run --plugin-path BUILD/tests/plugins.
 */
#ifndef TEST_PLUGIN_H
#define TEST_PLUGIN_H

/* e97afe86-82c6-454b-aca9-dbef09aae313: the test plugin, and its duplicate */
#define TEST_PLUGIN_UUID                                                                           \
	{                                                                                          \
		0xe97afe86, 0x82c6, 0x454b,                                                        \
		{                                                                                  \
			0xac, 0xa9, 0xdb, 0xef, 0x09, 0xaa, 0xe3, 0x13                             \
		}                                                                                  \
	}
/* b54b5f22-2f74-4c5a-8b18-6e89cbe49a1c: a plugin whose init fails */
#define TEST_PLUGIN_BAD_INIT_UUID                                                                  \
	{                                                                                          \
		0xb54b5f22, 0x2f74, 0x4c5a,                                                        \
		{                                                                                  \
			0x8b, 0x18, 0x6e, 0x89, 0xcb, 0xe4, 0x9a, 0x1c                             \
		}                                                                                  \
	}

/* Success once init ran (TEEC_ERROR_BAD_STATE before); the duplicate: TEEC_ERROR_ACCESS_CONFLICT */
#define TEST_PLUGIN_CMD_PING 0
/* Every byte plus sub_cmd; out_len = in_len */
#define TEST_PLUGIN_CMD_ADD 1
/* Every byte 0xa5; out_len = sub_cmd */
#define TEST_PLUGIN_CMD_OUTLEN 2
/* Every byte 0x5a; out_len = in_len; returns sub_cmd */
#define TEST_PLUGIN_CMD_FAIL 3
/* Sleeps sub_cmd ms; out_len 0 */
#define TEST_PLUGIN_CMD_SLEEP 4
/* Crashes tee-supplicant (SIGSEGV) */
#define TEST_PLUGIN_CMD_CRASH 5

#define TEST_PLUGIN_OUTLEN_BYTE 0xa5
#define TEST_PLUGIN_FAIL_BYTE 0x5a

#endif
