#ifndef TA_ACIPHER_H
#define TA_ACIPHER_H

/* 43ec9a6c-dcf0-4c70-91ec-0374c75cde66 */
/* clang-format off */
#define TA_ACIPHER_UUID \
	{ 0x43ec9a6c, 0xdcf0, 0x4c70, { 0x91, 0xec, 0x03, 0x74, 0xc7, 0x5c, 0xde, 0x66 } }
/* clang-format on */

/* value[0] input: a = key size in bits. Generates the session's RSA key. */
#define TA_ACIPHER_CMD_GEN_KEY 0
/* memref[0] input: plaintext; memref[1] output: ciphertext (RSAES-OAEP, SHA-256) */
#define TA_ACIPHER_CMD_ENCRYPT 1
/* memref[0] input: ciphertext; memref[1] output: plaintext */
#define TA_ACIPHER_CMD_DECRYPT 2

#endif
