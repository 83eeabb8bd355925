/*
 * The UUID and command ids of OP-TEE's core self-test pseudo TA, which
 * xtest calls (1001, 1014, 1015, 1035 and friends).
 *
 * swtee serves it as a built-in TA image (src/ta_runtime/pta_client.c):
 * TRACE, PARAMS, SELF_TESTS and MEMREF_NULL; every other command is
 * TEE_ERROR_NOT_SUPPORTED (docs/ta-development.md, "Pseudo-TAs"). The names
 * are here so OP-TEE's sources compile unchanged, on the host and in TAs.
 */
#ifndef PTA_INVOKE_TESTS_H
#define PTA_INVOKE_TESTS_H

#define PTA_INVOKE_TESTS_UUID                                                                      \
	{                                                                                          \
		0xd96a5b40, 0xc3e5, 0x21e3,                                                        \
		{                                                                                  \
			0x87, 0x94, 0x10, 0x02, 0xa5, 0xd5, 0xc6, 0x1b                             \
		}                                                                                  \
	}

#define PTA_INVOKE_TESTS_CMD_TRACE 0
#define PTA_INVOKE_TESTS_CMD_PARAMS 1
#define PTA_INVOKE_TESTS_CMD_SELF_TESTS 2
/* Secure data path: copies between non-secure and SDP memory. */
#define PTA_INVOKE_TESTS_CMD_COPY_NSEC_TO_SEC 3
#define PTA_INVOKE_TESTS_CMD_READ_MODIFY_SEC 4
#define PTA_INVOKE_TESTS_CMD_COPY_SEC_TO_NSEC 5
/* The REE FS hash tree's error paths. */
#define PTA_INVOKE_TESTS_CMD_FS_HTREE 6
/* value[0].a of CMD_MUTEX: which side of the reader/writer test to run. */
#define PTA_MUTEX_TEST_WRITER 0
#define PTA_MUTEX_TEST_READER 1
#define PTA_INVOKE_TESTS_CMD_MUTEX 7
#define PTA_INVOKE_TESTS_CMD_LOCKDEP 8
/* The cipher modes of CMD_AES_PERF (note OP-TEE's spelling of its name). */
#define PTA_INVOKE_TESTS_AES_ECB 0
#define PTA_INVOKE_TESTS_AES_CBC 1
#define PTA_INVOKE_TESTS_AES_CTR 2
#define PTA_INVOKE_TESTS_AES_XTS 3
#define PTA_INVOKE_TESTS_AES_GCM 4
#define PTA_INVOKE_TEST_CMD_AES_PERF 9
#define PTA_INVOKE_TESTS_CMD_MEMREF_NULL 10
#define PTA_INVOKE_TESTS_CMD_DT_DRIVER_TESTS 11
#define PTA_INVOKE_TESTS_CMD_TRANSFER_LIST_TESTS 12

#endif /* PTA_INVOKE_TESTS_H */
