/*
 * The UUID, command ids and error code of OP-TEE's RNG pseudo TA, through
 * which Linux's optee-rng driver reads the TEE's hardware entropy source.
 * swtee has no such pseudo TA (a session to this UUID fails with
 * TEE_ERROR_ITEM_NOT_FOUND); a TA takes random bytes from
 * TEE_GenerateRandom. The values are OP-TEE's, for code that names them.
 */
#ifndef PTA_RNG_H
#define PTA_RNG_H

#define PTA_RNG_UUID                                                                               \
	{                                                                                          \
		0xab7a617c, 0xb8e7, 0x4d8f,                                                        \
		{                                                                                  \
			0x83, 0x01, 0xd0, 0x9b, 0x61, 0x03, 0x6b, 0x64                             \
		}                                                                                  \
	}

/* The entropy source failed its health test (a result, not a GP error code) */
#define TEE_ERROR_HEALTH_TEST_FAIL 0x00000001

/* memref[0] output: filled with entropy, its size lowered to what was produced */
#define PTA_CMD_GET_ENTROPY 0x0
/* value[0] output: a = bytes per second, b = entropy per 1024 bits of output */
#define PTA_CMD_GET_RNG_INFO 0x1

#endif
