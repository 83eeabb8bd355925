/*
 * The UUID and ids of OP-TEE's SCP03 pseudo TA, which turns on the secure
 * channel to an NXP SE05x secure element (with its current keys, or new
 * ones it rotates to). swtee drives no secure element and has no such
 * pseudo TA: a session to this UUID fails with TEE_ERROR_ITEM_NOT_FOUND.
 */
#ifndef PTA_SCP03_H
#define PTA_SCP03_H

#define PTA_SCP03_UUID                                                                             \
	{                                                                                          \
		0xbe0e5821, 0xe718, 0x4f77,                                                        \
		{                                                                                  \
			0xab, 0x3e, 0x8e, 0x6c, 0x73, 0xa9, 0xc7, 0x35                             \
		}                                                                                  \
	}

/* value[0].a input: one of the two PTA_SCP03_SESSION_* below */
#define PTA_CMD_ENABLE_SCP03 0

#define PTA_SCP03_SESSION_CURRENT_KEYS 0
#define PTA_SCP03_SESSION_ROTATE_KEYS 1

#endif
