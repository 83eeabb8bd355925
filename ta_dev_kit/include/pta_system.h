/*
 * The UUID and command ids of OP-TEE's system pseudo TA, which OP-TEE's
 * libutee and ldelf call for key derivation, entropy, memory mapping and
 * dlopen, and which optee_test's crypt and tpm_log_test TAs call directly
 * (xtest 4012, 4013, 1024).
 *
 * swtee has no pseudo TAs: TAs are host processes mapped by the host's
 * loader, and a session to this UUID fails with TEEC_ERROR_ITEM_NOT_FOUND.
 */
#ifndef PTA_SYSTEM_H
#define PTA_SYSTEM_H

#include <util.h>

#define PTA_SYSTEM_UUID                                                                            \
	{                                                                                          \
		0x3a2f8978, 0x5dc0, 0x11e8,                                                        \
		{                                                                                  \
			0x9c, 0x2d, 0xfa, 0x7a, 0xe0, 0x1b, 0xbe, 0xbc                             \
		}                                                                                  \
	}

/* The bounds OP-TEE puts on DERIVE_TA_UNIQUE_KEY's key and extra data. */
#define TA_DERIVED_KEY_MIN_SIZE 16
#define TA_DERIVED_KEY_MAX_SIZE 32
#define TA_DERIVED_EXTRA_DATA_MAX_SIZE 1024

#define PTA_SYSTEM_ADD_RNG_ENTROPY 0
#define PTA_SYSTEM_DERIVE_TA_UNIQUE_KEY 1

/* Flags of MAP_ZI and the other mapping commands. */
#define PTA_SYSTEM_MAP_FLAG_SHAREABLE BIT32(0)
#define PTA_SYSTEM_MAP_FLAG_WRITEABLE BIT32(1)
#define PTA_SYSTEM_MAP_FLAG_EXECUTABLE BIT32(2)

#define PTA_SYSTEM_MAP_ZI 2
#define PTA_SYSTEM_UNMAP 3
#define PTA_SYSTEM_OPEN_TA_BINARY 4
#define PTA_SYSTEM_CLOSE_TA_BINARY 5
#define PTA_SYSTEM_MAP_TA_BINARY 6
#define PTA_SYSTEM_COPY_FROM_TA_BINARY 7
#define PTA_SYSTEM_SET_PROT 8
#define PTA_SYSTEM_REMAP 9
#define PTA_SYSTEM_DLOPEN 10
#define PTA_SYSTEM_DLSYM 11
#define PTA_SYSTEM_GET_TPM_EVENT_LOG 12
#define PTA_SYSTEM_SUPP_PLUGIN_INVOKE 13

#endif /* PTA_SYSTEM_H */
