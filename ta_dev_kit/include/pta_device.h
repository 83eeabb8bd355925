/*
 * The UUID and command ids of OP-TEE's device enumeration pseudo TA, which
 * optee_os's core asks for the TAs that back Linux TEE bus devices (before
 * and after tee-supplicant starts, and those needing RPMB). swtee has no TEE
 * bus and no such pseudo TA: a session to this UUID fails with
 * TEE_ERROR_ITEM_NOT_FOUND. The values are OP-TEE's, for code that names them.
 */
#ifndef PTA_DEVICE_H
#define PTA_DEVICE_H

#define PTA_DEVICE_UUID                                                                            \
	{                                                                                          \
		0x7011a688, 0xddde, 0x4053,                                                        \
		{                                                                                  \
			0xa5, 0xa9, 0x7b, 0x3c, 0x4d, 0xdf, 0x13, 0xb8                             \
		}                                                                                  \
	}

/* memref[0] output: the device UUIDs, one after another (a short buffer gets the size needed) */
#define PTA_CMD_GET_DEVICES 0x0
/* The same, for the devices that need tee-supplicant running */
#define PTA_CMD_GET_DEVICES_SUPP 0x1
/* The same, for the devices that need RPMB */
#define PTA_CMD_GET_DEVICES_RPMB 0x2

#endif
