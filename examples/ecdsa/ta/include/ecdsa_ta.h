#ifndef TA_ECDSA_H
#define TA_ECDSA_H

/* 8cfe37e1-6186-458e-88c4-bf26083047b8 */
/* clang-format off */
#define TA_ECDSA_UUID \
	{ 0x8cfe37e1, 0x6186, 0x458e, { 0x88, 0xc4, 0xbf, 0x26, 0x08, 0x30, 0x47, 0xb8 } }
/* clang-format on */

/* Generates the session's P-256 key pair. */
#define TA_ECDSA_CMD_GEN_KEY 0
/* memref[0] input: message; memref[1] output: signature r || s (64 bytes), of SHA-256(message) */
#define TA_ECDSA_CMD_SIGN 1
/* memref[0] input: message; memref[1] input: signature. TEE_ERROR_SIGNATURE_INVALID if bad */
#define TA_ECDSA_CMD_VERIFY 2
/* memref[0] output: the session's public key, x || y (64 bytes) */
#define TA_ECDSA_CMD_GET_PUBLIC_KEY 3
/* memref[0] input: public key x || y; memref[1] input: message; memref[2] input: signature */
#define TA_ECDSA_CMD_VERIFY_WITH_KEY 4

#endif
