#ifndef TA_BUGS_H
#define TA_BUGS_H

/* 2d1ad0c6-41a5-4d7e-9d3e-2b7c3a6f0b11 */
/* clang-format off */
#define TA_BUGS_UUID \
	{ 0x2d1ad0c6, 0x41a5, 0x4d7e, { 0x9d, 0x3e, 0x2b, 0x7c, 0x3a, 0x6f, 0x0b, 0x11 } }
/* clang-format on */

/* value[0] inout: a becomes 2a when a <= 100, a - 100 otherwise (no bug) */
#define TA_BUGS_CMD_COUNT 0
/* reads a heap block after freeing it */
#define TA_BUGS_CMD_USE_AFTER_FREE 1
/* value[0] input: shifts a signed int by a (undefined from 32 on) */
#define TA_BUGS_CMD_BAD_SHIFT 2

#endif
