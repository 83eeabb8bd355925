#ifndef TA_AES_H
#define TA_AES_H

/* de40ef30-0b22-48af-84e9-b8b9fb839cfd */
/* clang-format off */
#define TA_AES_UUID \
	{ 0xde40ef30, 0x0b22, 0x48af, { 0x84, 0xe9, 0xb8, 0xb9, 0xfb, 0x83, 0x9c, 0xfd } }
/* clang-format on */

/*
 * value[0] input: a = TA_AES_ALGO_*, b = TA_AES_MODE_*
 * value[1] input: a = key size in bytes (16, 24 or 32)
 */
#define TA_AES_CMD_PREPARE 0
/* memref[0] input: the key */
#define TA_AES_CMD_SET_KEY 1
/* memref[0] input: the IV (CBC) or initial counter block (CTR) */
#define TA_AES_CMD_SET_IV 2
/* memref[0] input, memref[1] output: the same length, a multiple of 16 for CBC */
#define TA_AES_CMD_CIPHER 3

#define TA_AES_ALGO_CBC 0
#define TA_AES_ALGO_CTR 1

#define TA_AES_MODE_ENCODE 1
#define TA_AES_MODE_DECODE 0

#endif
