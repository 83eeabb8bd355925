/*
 * The UUID, command ids and reply layouts of OP-TEE's statistics pseudo
 * TA (xtest --stats, and os_test's check for a pager). swtee serves it as a
 * built-in TA image: TA_STATS (the caller's user's TAs) and GET_TIME; the
 * other commands are TEE_ERROR_NOT_SUPPORTED (docs/ta-development.md,
 * "Pseudo-TAs"). `swtee status` shows what the TEE holds.
 */
#ifndef PTA_STATS_H
#define PTA_STATS_H

#include <stdint.h>
#include <tee_api_types.h>

#define STATS_UUID                                                                                 \
	{                                                                                          \
		0xd96a5b40, 0xe2c7, 0xb1af,                                                        \
		{                                                                                  \
			0x87, 0x94, 0x10, 0x02, 0xa5, 0xd5, 0xc6, 0x1b                             \
		}                                                                                  \
	}

#define STATS_CMD_PAGER_STATS 0

/* value[0].a: which allocator (ALLOC_ID_*); memref[1]: pta_stats_alloc[]. */
#define STATS_CMD_ALLOC_STATS 1
#define ALLOC_ID_ALL 0
#define ALLOC_ID_HEAP 1
#define ALLOC_ID_PUBLIC_DDR 2 /* deprecated in OP-TEE */
#define ALLOC_ID_TA_RAM 3
#define ALLOC_ID_NEXUS_HEAP 4
#define ALLOC_ID_RPMB 5
#define STATS_NB_POOLS 5

#define TEE_ALLOCATOR_DESC_LENGTH 32

/* One allocator's figures, in bytes unless named otherwise. */
struct pta_stats_alloc {
	char desc[TEE_ALLOCATOR_DESC_LENGTH];
	uint64_t free2_sum; /* sum of the squares of the free chunks' sizes */
	uint32_t allocated;
	uint32_t max_allocated;
	uint32_t size;
	uint32_t num_alloc_fail;
	uint32_t biggest_alloc_fail;
	uint32_t biggest_alloc_fail_used; /* allocated when that failure happened */
};

#define STATS_CMD_MEMLEAK_STATS 2

/* memref[0] (output): one pta_stats_ta for each loaded TA. */
#define STATS_CMD_TA_STATS 3

struct pta_stats_ta {
	TEE_UUID uuid;
	uint32_t panicked; /* non-zero once the TA has panicked */
	uint32_t sess_num;
	struct pta_stats_alloc heap;
};

/* value[0]: REE time (seconds, milliseconds); value[1]: TEE system time. */
#define STATS_CMD_GET_TIME 4

/* value[0].a: STATS_DRIVER_TYPE_*; the core prints to its console. */
#define STATS_CMD_PRINT_DRIVER_INFO 5
#define STATS_DRIVER_TYPE_CLOCK 0
#define STATS_DRIVER_TYPE_REGULATOR 1

#endif /* PTA_STATS_H */
