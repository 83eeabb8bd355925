/*
 * The crypto_perf TA: cipher, hash and asymmetric loops for the perf
 * applets (xtest --aes-perf, --hash-perf, --asym-perf), the crypto
 * benchmark cases (xtest -t benchmark 2001..2012) and "swtee bench crypto".
 *
 * Its shape is OP-TEE's crypto_perf TA: a "prepare" command sets up one
 * operation in the session, then every "process" command runs one buffer
 * through it, LOOPS times over, with the buffers in shared memory. The
 * UUID, the cipher and hash command numbers, their parameters and the
 * TA_AES_* / TA_SHA_* codes are OP-TEE's, so OP-TEE's host tools drive it
 * too. The asymmetric commands are swtee's own (numbered from 0x100).
 *
 * Parameters (v = value, m = memref; inputs unless marked out):
 *
 * CIPHER_PREPARE_KEY	v0 a=decrypt (0 or 1) b=key bits (128, 192, 256)
 *			v1 a=TA_AES_* or TA_SM4_* mode
 *	A fixed key (and second key for XTS), IV and, for GCM, a 12-byte
 *	nonce and a 128-bit tag; the operation is initialised.
 * CIPHER_PROCESS	m0 input, m1 out output (either INOUT, and they may be
 *			one buffer), v2 a=loops b=unit (0: the whole buffer)
 *	Each loop feeds the input in unit-byte updates (and the remainder);
 *	the output is at least as large as the input. ECB, CBC, CTR and GCM
 *	stream on across calls, as in OP-TEE; XTS takes each loop's buffer as
 *	one data unit (init, updates, final). GCM starts a new message after
 *	every TA_CRYPTO_PERF_GCM_MESSAGE_MAX bytes.
 * HASH_PREPARE_OP	v0 a=TA_SHA_*, TA_SM3 or TA_HMAC_*
 * HASH_PROCESS		m0 input, m1 out digest, v2 a=loops b=offset
 *	Each loop is one TEE_DigestDoFinal (TEE_MACComputeFinal) over m0 from
 *	byte offset on.
 *
 * ASYM_PREPARE_KEY	v0 a=TEE_TYPE_*_KEYPAIR b=key bits, m1 attributes
 *			(or NONE) for TEE_GenerateKey
 *	Generates the session's key pair (not timed).
 * ASYM_PREPARE_OP	v0 a=TEE_ALG_* b=TEE_MODE_*, m1 attributes (or NONE)
 *			passed to every call of the operation
 *	Allocates the operation on the key (its public half for VERIFY and
 *	ENCRYPT).
 * ASYM_PROCESS		v0 a=loops, m1 input, m2 out output (INOUT)
 *	SIGN: m1 digest, m2 out signature; VERIFY: m1 digest, m2 signature
 *	(TEE_ERROR_SIGNATURE_INVALID when it does not match); ENCRYPT and
 *	DECRYPT: m1 input, m2 out result. m2's size comes back.
 * ASYM_GEN_KEYPAIR	v0 a=loops
 *	Generates a new key pair of the prepared type, size and attributes,
 *	loops times.
 *
 * Attributes are records of u32 attribute ID, then u32 a, u32 b for a value
 * attribute (TEE_ATTR_FLAG_VALUE) or u32 length and that many bytes,
 * zero-padded to a multiple of 4, for a buffer; host byte order; at most
 * TA_CRYPTO_PERF_MAX_ATTRS records of at most TA_CRYPTO_PERF_MAX_ATTR_LEN
 * bytes.
 *
 * Every command answers TEE_ERROR_BAD_PARAMETERS for other parameter types
 * or values, TEE_ERROR_BAD_STATE when its operation is not prepared, and
 * TEE_ERROR_NOT_SUPPORTED for an algorithm or key the TEE cannot do.
 */
#ifndef TA_CRYPTO_PERF_H
#define TA_CRYPTO_PERF_H

#define TA_CRYPTO_PERF_UUID                                                                        \
	{                                                                                          \
		0x02a42f43, 0xd8b7, 0x4a57,                                                        \
		{                                                                                  \
			0xaa, 0x4d, 0x87, 0xbd, 0x9b, 0x55, 0x87, 0xcb                             \
		}                                                                                  \
	}

#define TA_CRYPTO_PERF_CMD_CIPHER_PREPARE_KEY 0
#define TA_CRYPTO_PERF_CMD_CIPHER_PROCESS 1
#define TA_CRYPTO_PERF_CMD_HASH_PREPARE_OP 3
#define TA_CRYPTO_PERF_CMD_HASH_PROCESS 4
#define TA_CRYPTO_PERF_CMD_ASYM_PREPARE_KEY 0x100
#define TA_CRYPTO_PERF_CMD_ASYM_PREPARE_OP 0x101
#define TA_CRYPTO_PERF_CMD_ASYM_PROCESS 0x102
#define TA_CRYPTO_PERF_CMD_ASYM_GEN_KEYPAIR 0x103

/* Cipher modes. */
#define TA_AES_ECB 0
#define TA_AES_CBC 1
#define TA_AES_CTR 2
#define TA_AES_XTS 3
#define TA_AES_GCM 4
#define TA_SM4_ECB 5
#define TA_SM4_CBC 6
#define TA_SM4_CTR 7
#define TA_SM4_XTS 8

/* AES key sizes, in bits (SM4: 128 only). */
#define AES_128 128
#define AES_192 192
#define AES_256 256

/* Hash and MAC algorithms. */
#define TA_SHA_SHA1 0
#define TA_SHA_SHA224 1
#define TA_SHA_SHA256 2
#define TA_SHA_SHA384 3
#define TA_SHA_SHA512 4
#define TA_SM3 5
#define TA_HMAC_SHA1 6
#define TA_HMAC_SHA224 7
#define TA_HMAC_SHA256 8
#define TA_HMAC_SHA384 9
#define TA_HMAC_SHA512 10
#define TA_HMAC_SM3 11

/* The fixed cipher key (bytes 0x00, 0x01, ...) and IV (0xa0, 0xa1, ...). */
#define TA_CRYPTO_PERF_KEY_BYTE(i) ((unsigned char)(i))
#define TA_CRYPTO_PERF_KEY2_BYTE(i) ((unsigned char)(0x20 + (i)))
#define TA_CRYPTO_PERF_IV_BYTE(i) ((unsigned char)(0xa0 + (i)))
#define TA_CRYPTO_PERF_GCM_NONCE_LEN 12
#define TA_CRYPTO_PERF_GCM_TAG_BITS 128
/* GCM bytes per message before the TA starts the next one. */
#define TA_CRYPTO_PERF_GCM_MESSAGE_MAX (16u * 1024 * 1024)

#define TA_CRYPTO_PERF_MAX_ATTRS 4
#define TA_CRYPTO_PERF_MAX_ATTR_LEN 1024

#endif
