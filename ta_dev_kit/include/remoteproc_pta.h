/*
 * The UUID, command ids and key layout of OP-TEE's remote processor
 * pseudo TA, which optee_os's remoteproc TA calls to load and start a
 * coprocessor's firmware. swtee drives no coprocessor and has no such
 * pseudo TA: a session to this UUID fails with TEE_ERROR_ITEM_NOT_FOUND.
 */
#ifndef REMOTEPROC_PTA_H
#define REMOTEPROC_PTA_H

#include <stddef.h>
#include <stdint.h>
#include <util.h>

#define PTA_RPROC_UUID                                                                             \
	{                                                                                          \
		0x54af4a68, 0x19be, 0x40d7,                                                        \
		{                                                                                  \
			0xbb, 0xe6, 0x89, 0x50, 0x35, 0x0a, 0x87, 0x44                             \
		}                                                                                  \
	}

/* PTA_RPROC_HW_CAPABILITIES: value[1].a, the image formats; value[2].a, the protections. */
#define PTA_RPROC_HWCAP_FMT_ELF BIT32(0)
#define PTA_RPROC_HWCAP_PROT_HASH_TABLE BIT32(0)

/* A public key's algorithm (TEE_ALG_*) and its info_size bytes of data. */
struct rproc_pta_key_info {
	uint32_t algo;
	uint32_t info_size;
	uint8_t info[];
};

/* The bytes keyinf takes with its data; 0 for NULL or on overflow. */
static inline size_t rproc_pta_keyinfo_size(struct rproc_pta_key_info *keyinf)
{
	size_t size = 0;

	if (!keyinf || ADD_OVERFLOW(sizeof(*keyinf), keyinf->info_size, &size))
		return 0;
	return size;
}

#define PTA_RPROC_HW_CAPABILITIES 1
#define PTA_RPROC_FIRMWARE_LOAD 2
#define PTA_RPROC_LOAD_SEGMENT_SHA256 3
#define PTA_RPROC_SET_MEMORY 4
#define PTA_RPROC_FIRMWARE_START 5
#define PTA_RPROC_FIRMWARE_STOP 6
#define PTA_RPROC_FIRMWARE_DA_TO_PA 7
#define PTA_RPROC_VERIFY_DIGEST 8
#define PTA_REMOTEPROC_RELEASE 9

#endif
