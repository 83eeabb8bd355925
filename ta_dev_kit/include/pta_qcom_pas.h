/*
 * The UUID and command ids of OP-TEE's Qualcomm peripheral authentication
 * pseudo TA, which optee_os's qcom_pas TA calls. swtee runs on no Qualcomm
 * SoC and has no such pseudo TA: a session to this UUID fails with
 * TEE_ERROR_ITEM_NOT_FOUND.
 */
#ifndef PTA_QCOM_PAS_H
#define PTA_QCOM_PAS_H

#include <stdint.h>
#include <util.h>

#define PTA_QCOM_PAS_UUID                                                                          \
	{                                                                                          \
		0xdaedbae4, 0xcf3e, 0x4b76,                                                        \
		{                                                                                  \
			0xa5, 0xc5, 0xdb, 0xf8, 0xb6, 0xfd, 0x5a, 0xf4                             \
		}                                                                                  \
	}

#define PTA_QCOM_PAS_IS_SUPPORTED 1
#define PTA_QCOM_PAS_CAPABILITIES 2
#define PTA_QCOM_PAS_INIT_IMAGE 3
#define PTA_QCOM_PAS_MEM_SETUP 4
#define PTA_QCOM_PAS_GET_RESOURCE_TABLE 5
#define PTA_QCOM_PAS_AUTH_AND_RESET 6
#define PTA_QCOM_PAS_SET_REMOTE_STATE 7
#define PTA_QCOM_PAS_SHUTDOWN 8
#define PTA_QCOM_PAS_VERIFY_IMAGE 9

#endif
