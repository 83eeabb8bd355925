/*
 * The UUID and command ids of OP-TEE's Widevine pseudo TA, which hands
 * Widevine TAs key material a platform's boot loader provided. swtee has
 * no such key material and no such pseudo TA: a session to this UUID fails
 * with TEE_ERROR_ITEM_NOT_FOUND. The values are OP-TEE's, for code that
 * names them.
 */
#ifndef PTA_WIDEVINE_H
#define PTA_WIDEVINE_H

#define PTA_WIDEVINE_UUID                                                                          \
	{                                                                                          \
		0x721f4da9, 0xda05, 0x40d4,                                                        \
		{                                                                                  \
			0xa1, 0xa3, 0x83, 0x77, 0xc1, 0xe0, 0x8b, 0x0a                             \
		}                                                                                  \
	}

/* memref[0] output: the key */
#define PTA_WIDEVINE_GET_TPM_PUBKEY 0
#define PTA_WIDEVINE_GET_WIDEVINE_PRIVKEY 1

#endif
