/*
 * The UUID and command of OP-TEE's pseudo TA that installs a signed TA
 * image into secure storage (xtest --install-ta, and 1008's "load corrupt
 * TA", which submits tampered images through it).
 *
 * swtee verifies the image as a load does (signature, key scope, version
 * floor: TEEC_ERROR_SECURITY, TEEC_ERROR_ACCESS_CONFLICT) and keeps it in
 * its secure dir, from which a TA absent from the TA path loads, verified
 * again. Only root and the TEE's own user may install
 * (TEEC_ERROR_ACCESS_DENIED otherwise).
 */
#ifndef PTA_SECSTOR_TA_MGMT_H
#define PTA_SECSTOR_TA_MGMT_H

/* memref[0] (input): a signed TA image, as in <uuid>.ta. */
#define PTA_SECSTOR_TA_MGMT_BOOTSTRAP 0

#define PTA_SECSTOR_TA_MGMT_UUID                                                                   \
	{                                                                                          \
		0x6e256cba, 0xfc4d, 0x4941,                                                        \
		{                                                                                  \
			0xad, 0x09, 0x2c, 0xa1, 0x86, 0x03, 0x42, 0xdd                             \
		}                                                                                  \
	}

#endif /* PTA_SECSTOR_TA_MGMT_H */
