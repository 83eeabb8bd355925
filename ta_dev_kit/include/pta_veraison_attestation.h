/*
 * The UUID and command id of OP-TEE's Veraison attestation pseudo TA,
 * which answers a nonce with CBOR evidence (a PSA token) for the Veraison
 * verifier. swtee has no such pseudo TA: a session to this UUID fails with
 * TEE_ERROR_ITEM_NOT_FOUND. The values are OP-TEE's, for code that names
 * them.
 */
#ifndef PTA_VERAISON_ATTESTATION_H
#define PTA_VERAISON_ATTESTATION_H

#define PTA_VERAISON_ATTESTATION_UUID                                                              \
	{                                                                                          \
		0xa77955f9, 0xeea1, 0x44fd,                                                        \
		{                                                                                  \
			0xad, 0xd5, 0x4a, 0x9d, 0x96, 0x2a, 0xfc, 0xf5                             \
		}                                                                                  \
	}

/* memref[0] input: the nonce, memref[2] input: the implementation id; memref[1] output */
#define PTA_VERAISON_ATTESTATION_GET_CBOR_EVIDENCE 0x0

#endif
