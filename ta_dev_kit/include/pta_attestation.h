/*
 * The UUID and command ids of OP-TEE's attestation pseudo TA (xtest 1037,
 * os_test). swtee has no pseudo TAs: a session to this UUID fails with
 * TEEC_ERROR_ITEM_NOT_FOUND.
 */
#ifndef PTA_ATTESTATION_H
#define PTA_ATTESTATION_H

#define PTA_ATTESTATION_UUID                                                                       \
	{                                                                                          \
		0x39800861, 0x182a, 0x4720,                                                        \
		{                                                                                  \
			0x9b, 0x67, 0x2b, 0xcd, 0x62, 0x2b, 0xc0, 0xb5                             \
		}                                                                                  \
	}

/* The public key that verifies the PTA's signatures. */
#define PTA_ATTESTATION_GET_PUBKEY 0x0
/* A signature over the hash in a TA's signed header (signed_hdr.h). */
#define PTA_ATTESTATION_GET_TA_SHDR_DIGEST 0x1
/* A signed hash of the calling TA's memory, or of the TEE core's. */
#define PTA_ATTESTATION_HASH_TA_MEMORY 0x2
#define PTA_ATTESTATION_HASH_TEE_MEMORY 0x3

#endif /* PTA_ATTESTATION_H */
